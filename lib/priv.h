/*
 * priv.h - the privilege drop of both daemons.
 *
 * netd starts as root, opens its sockets, clocks and IPC sockets, then calls
 * priv_drop() once with the capabilities its configuration needs; clockd
 * calls it at once with none (CapEff = CapPrm = CapBnd = 0).  The process
 * becomes the configured user with no supplementary groups, keeps only the capabilities the configuration needs (effective and
 * permitted; inheritable, ambient and the bounding set cleared), and sets
 * no_new_privs.  What each capability is for:
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

#endif /* PTPSEP_PRIV_H */
