/*
 * sandbox.h - clockd's seccomp allow-list (libseccomp).
 *
 * Installed once, after the privilege drop and after every socket and
 * libevent structure of start-up exists, just before the event loop.  What
 * stays allowed is what the loop needs: Unix sockets only (to netd, to
 * ptpctl, to syslog, to systemd's notify socket; reconnecting to netd
 * included), epoll, time, memory without PROT_EXEC, signals, exit.  Any other
 * system call kills the process (SIGSYS); see sandbox.c for why.
 *
 * Without libseccomp at build time (configure --without-seccomp), and in
 * sanitizer builds (ASan needs system calls of its own at run time), the
 * filter is not installed and sandbox_install() says so in the log.
 */
#ifndef PTPSEP_CLOCKD_SANDBOX_H
#define PTPSEP_CLOCKD_SANDBOX_H

/* 1 if the filter is compiled in, 0 if sandbox_install() is a no-op. */
int	sandbox_available(void);

/* Installs the filter.  Returns 0 (also when not available, logged), or -1
 * after logging why it could not be loaded; the caller must then exit. */
int	sandbox_install(void);

/*
 * The test-only option --sandbox-selftest: removes it from argv if present
 * and returns 1, else 0.  It is not in --help.
 */
int	sandbox_take_selftest_flag(int *argc, char **argv);

/*
 * Test only: after sandbox_install(), checks that opening a file fails with
 * EACCES, then calls socket(AF_PACKET), which must kill the process with
 * SIGSYS.  Never returns: exit 1 if still alive, 77 (skip) if the filter
 * is not available in this build.
 */
void	sandbox_selftest(void) __attribute__((noreturn));

#endif /* PTPSEP_CLOCKD_SANDBOX_H */
