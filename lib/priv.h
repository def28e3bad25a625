/*
 * priv.h - the privilege drop of both daemons.
 *
 * netd starts as root, opens its sockets, clocks and IPC sockets, then calls
 * priv_drop() once with the capabilities its configuration needs; clockd
 * calls it at once with none (all five capability sets 0) when started as
 * root, priv_shed() when started as its user.  The process becomes the
 * configured user with no supplementary groups, keeps only the
 * capabilities the configuration needs (effective and permitted;
 * inheritable, ambient and the bounding set cleared), and sets
 * no_new_privs.  Both then read /proc/self/status back (priv_verify()), so
 * a drop the kernel did not carry out cannot pass.  What each capability
 * is for:
 *
 *   net_raw           AF_PACKET sockets: reopening an L2 port after its
 *                     interface comes back (network_transport L2).
 *   net_admin         SIOCSHWTSTAMP, to re-enable hardware timestamping on
 *                     a re-created interface, and SO_BINDTODEVICE when a
 *                     port is reopened (time_stamping hardware, or any port
 *                     netd must reopen bound to its device).
 *   net_bind_service  binding UDP ports 319/320 again on reopen (UDPv4/v6).
 *   sys_time          clock_adjtime() on CLOCK_REALTIME: only when
 *                     clock_device is "system".
 *
 * A PHC needs none: its fd is opened O_RDWR before the drop and kept, and
 * the kernel checks the fd's write mode, not a capability.  Reopening a PHC
 * after the drop is not supported (the node is root-only); a PHC that goes
 * away (driver reload) needs a netd restart.  The virtual clock needs none.
 */
#ifndef PTPSEP_PRIV_H
#define PTPSEP_PRIV_H

#include <stddef.h>

struct priv_needs {
	unsigned	net_raw:1;
	unsigned	net_admin:1;
	unsigned	net_bind_service:1;
	unsigned	sys_time:1;
};

/*
 * Drops to user (must exist and not be uid 0) keeping needs.  Returns 0, or
 * a negative errno after logging the step that failed; on failure the
 * process may be half-dropped and must exit.
 */
int	priv_drop(const char *user, const struct priv_needs *needs);

/* "CAP_NET_RAW,CAP_SYS_TIME" or "none", for logs; always NUL-terminates. */
void	priv_describe(const struct priv_needs *needs, char *buf, size_t len);

/* The capability mask (bit n = capability n) that needs keeps. */
unsigned long long priv_mask(const struct priv_needs *needs);

/*
 * For a process started as a user other than root (systemd User=, setpriv,
 * su): gives up every capability it came with - ambient, the bounding set
 * (possible only while CAP_SETPCAP is permitted), inheritable, permitted,
 * effective - sets no_new_privs, then checks all five sets are empty.
 * Returns 0, or a negative errno after logging every capability still
 * held; the caller must then refuse to run.
 */
int	priv_shed(void);

/* The five capability sets and no_new_privs, as the kernel reports them. */
struct priv_status {
	unsigned long long	inh, prm, eff, bnd, amb;
	int			nnp;
};

/* Reads /proc/self/status; 0 or -EIO (logged) if a line is missing. */
int	priv_read_status(struct priv_status *ps);

/*
 * Checks the running process against keep: CapEff = CapPrm = keep, CapBnd
 * within keep, CapInh = CapAmb = 0, NoNewPrivs 1.  Logs each set that
 * differs with the names of the capabilities; returns 0 or -EPERM.
 */
int	priv_verify(unsigned long long keep);

/* "net_raw,fowner" (or "none") for a mask; always NUL-terminates. */
void	priv_names(unsigned long long mask, char *buf, size_t len);

#endif /* PTPSEP_PRIV_H */
