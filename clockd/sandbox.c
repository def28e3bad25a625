/*
 * sandbox.c - clockd's seccomp allow-list (see sandbox.h).
 *
 * clockd holds no capability and, under systemd, runs without network and
 * with a read-only file system; this filter is the in-process layer of the
 * same idea, which also holds when clockd is started by hand.  A clockd
 * taken over through a decoder bug can then do little more than what it
 * already may: talk PTP to netd over the one Unix socket.
 *
 * Default action: kill the whole process (SCMP_ACT_KILL_PROCESS), not
 * EPERM.  A system call outside the list means a bug or an attack; dying
 * with SIGSYS is visible (the audit log and the exit status name the call)
 * and systemd's Restart=on-failure brings clockd back, relocking fast since
 * netd keeps the clock's frequency.  EPERM would send the code into error
 * paths nobody tested and let an attacker probe the list.  The one
 * exception is opening files: clockd opens none after start-up, but libc
 * may try (time-zone data for syslog's time stamp); open/openat fail with
 * EACCES, which can do no harm, rather than kill.
 *
 * Argument checks: socket() and socketpair() only for AF_UNIX, so clockd
 * cannot reach the network even where systemd's PrivateNetwork= is not in
 * force; mmap() and mprotect() never with PROT_EXEC (what systemd's
 * MemoryDenyWriteExecute= does); ioctl() only FIONREAD/FIONBIO/TCGETS.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "sandbox.h"

/* ASan needs system calls of its own (mmap of shadow memory, /proc reads
 * when it reports): the filter would kill a sanitizer build first. */
#if defined(__SANITIZE_ADDRESS__)
#define SANDBOX_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANDBOX_ASAN	1
#endif
#endif

#if defined(HAVE_SECCOMP) && !defined(SANDBOX_ASAN)
#define SANDBOX_ON	1
#endif

#ifdef SANDBOX_ON
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <termios.h>
#include <seccomp.h>

/* Allowed without looking at the arguments. */
static const int sandbox_plain[] = {
	/* I/O on descriptors clockd already has */
	SCMP_SYS(read), SCMP_SYS(readv), SCMP_SYS(write), SCMP_SYS(writev),
	SCMP_SYS(close), SCMP_SYS(lseek), SCMP_SYS(fstat),
	SCMP_SYS(newfstatat), SCMP_SYS(fcntl),
	/* Unix sockets: netd (reconnect), ptpctl, pmc, syslog, notify */
	SCMP_SYS(connect), SCMP_SYS(bind), SCMP_SYS(listen),
	SCMP_SYS(accept), SCMP_SYS(accept4), SCMP_SYS(shutdown),
	SCMP_SYS(sendmsg), SCMP_SYS(sendto), SCMP_SYS(sendmmsg),
	SCMP_SYS(recvmsg), SCMP_SYS(recvfrom), SCMP_SYS(recvmmsg),
	SCMP_SYS(getsockopt), SCMP_SYS(setsockopt),
	SCMP_SYS(getsockname), SCMP_SYS(getpeername),
	SCMP_SYS(unlink), SCMP_SYS(unlinkat), SCMP_SYS(chmod), SCMP_SYS(fchmod),
	SCMP_SYS(umask),
	/* libevent */
	SCMP_SYS(epoll_create1), SCMP_SYS(epoll_ctl), SCMP_SYS(epoll_wait),
	SCMP_SYS(epoll_pwait), SCMP_SYS(poll), SCMP_SYS(ppoll),
	SCMP_SYS(pipe2), SCMP_SYS(eventfd2),
	SCMP_SYS(timerfd_create), SCMP_SYS(timerfd_settime),
	SCMP_SYS(timerfd_gettime),
	/* time: reading clocks only; setting them is never allowed */
	SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres),
	SCMP_SYS(gettimeofday), SCMP_SYS(time), SCMP_SYS(nanosleep),
	SCMP_SYS(clock_nanosleep),
	/* memory */
	SCMP_SYS(brk), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(madvise),
	SCMP_SYS(futex),
	SCMP_SYS(sysinfo),	/* glibc's qsort() sizes its buffer by it */
	/* signals, identity (libevent asks), randomness, exit */
	SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask),
	SCMP_SYS(rt_sigreturn), SCMP_SYS(sigaltstack),
	SCMP_SYS(restart_syscall), SCMP_SYS(getpid), SCMP_SYS(gettid),
	SCMP_SYS(tgkill),	/* abort() raising SIGABRT on itself */
	SCMP_SYS(getuid), SCMP_SYS(geteuid), SCMP_SYS(getgid),
	SCMP_SYS(getegid), SCMP_SYS(getrandom), SCMP_SYS(sched_yield),
	SCMP_SYS(exit), SCMP_SYS(exit_group),
};

static int
sandbox_rules(scmp_filter_ctx ctx)
{
	size_t i;
	int rc;

	for (i = 0; i < sizeof(sandbox_plain) / sizeof(sandbox_plain[0]); i++)
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW,
		    sandbox_plain[i], 0)) != 0)
			return rc;
	/* Unix sockets only, whatever the type. */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
	    SCMP_A0(SCMP_CMP_EQ, AF_UNIX))) != 0 ||
	    (rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socketpair),
	    1, SCMP_A0(SCMP_CMP_EQ, AF_UNIX))) != 0)
		return rc;
	/* No executable memory. */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
	    SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0))) != 0 ||
	    (rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
	    SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0))) != 0)
		return rc;
	/* FIONREAD (libevent), FIONBIO, TCGETS (isatty() of stderr). */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
	    SCMP_A1(SCMP_CMP_EQ, FIONREAD))) != 0 ||
	    (rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
	    SCMP_A1(SCMP_CMP_EQ, FIONBIO))) != 0 ||
	    (rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
	    SCMP_A1(SCMP_CMP_EQ, TCGETS))) != 0)
		return rc;
	/* Opening a file fails harmlessly instead of killing (see above). */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES),
	    SCMP_SYS(openat), 0)) != 0 ||
	    (rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES),
	    SCMP_SYS(open), 0)) != 0)
		return rc;
	return 0;
}
#endif /* SANDBOX_ON */

int
sandbox_available(void)
{
#ifdef SANDBOX_ON
	return 1;
#else
	return 0;
#endif
}

int
sandbox_install(void)
{
#ifdef SANDBOX_ON
	scmp_filter_ctx ctx;
	int rc;

	/* Read the time zone now: syslog's time stamps need it later. */
	tzset();
	if ((ctx = seccomp_init(SCMP_ACT_KILL_PROCESS)) == NULL) {
		log_warnx("sandbox: seccomp_init failed");
		return -1;
	}
	if ((rc = sandbox_rules(ctx)) != 0) {
		log_warnx("sandbox: cannot add a rule: %s", strerror(-rc));
		seccomp_release(ctx);
		return -1;
	}
	if ((rc = seccomp_load(ctx)) != 0) {
		log_warnx("sandbox: cannot load the filter: %s", strerror(-rc));
		seccomp_release(ctx);
		return -1;
	}
	seccomp_release(ctx);
	log_info("sandbox: seccomp allow-list installed (other system calls "
	    "kill the process)");
	return 0;
#elif defined(SANDBOX_ASAN)
	log_warnx("sandbox: NOT installed: this is a sanitizer build (ASan "
	    "needs system calls the filter forbids)");
	return 0;
#else
	log_warnx("sandbox: NOT installed: built without libseccomp");
	return 0;
#endif
}

int
sandbox_take_selftest_flag(int *argc, char **argv)
{
	int i, found = 0;

	for (i = 1; i < *argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--sandbox-selftest") == 0) {
			found = 1;
			memmove(&argv[i], &argv[i + 1],
			    (size_t)(*argc - i) * sizeof(argv[0]));
			(*argc)--;
			i--;
		}
	}
	return found;
}

void
sandbox_selftest(void)
{
	int fd;

	if (!sandbox_available()) {
		log_warnx("sandbox self-test: no filter in this build; skipped");
		exit(77);
	}
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0 || errno != EACCES) {
		log_warnx("sandbox self-test: open() was not refused with "
		    "EACCES (fd %d)", fd);
		exit(1);
	}
	log_info("sandbox self-test: open() refused with EACCES");
	log_info("sandbox self-test: calling socket(AF_PACKET); SIGSYS "
	    "must follow");
	fd = (int)syscall(SYS_socket, AF_PACKET, SOCK_RAW, 0);
	log_warnx("sandbox self-test: still alive after socket(AF_PACKET) "
	    "= %d", fd);
	exit(1);
}
