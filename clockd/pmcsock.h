/*
 * pmcsock.h - the I/O of PTP management (mgmt.c decides): the local
 * datagram socket at pmc_socket that linuxptp's `pmc -u -s PATH` talks to
 * unchanged (pmcsock.c), and the network path (pmcsock_net.c: Management
 * messages that a port receives through netd, their responses, and
 * boundary-hops forwarding).
 *
 * Who may SET:
 *  - pmc_socket (mode 0666): any local user may GET; SET and COMMAND only
 *    root and members of admin_group, checked per datagram from the
 *    sender's SCM_CREDENTIALS (SO_PASSCRED): its uid 0, its gid being the
 *    group's, or its uid being a member listed in the group database when
 *    clockd started.  Others get NOT_SUPPORTED, as ptp4l answers a SET on
 *    its read-only socket.
 *  - the network: GET only, unless mgmt_set_from_network is 1.
 * clockd holds no capability, so it can answer only client sockets that
 * clockd_user may write to: pmc's own is chmod 0660 by its caller, so it
 * must be made in a setgid directory of clockd's group (pmc -i
 * /run/ptpsep/pmc/NAME; etc/tmpfiles.d).  Requests from pmc_socket are
 * not forwarded to the network (use pmc -b 0).
 */
#ifndef PTPSEP_CLOCKD_PMCSOCK_H
#define PTPSEP_CLOCKD_PMCSOCK_H

#include <stddef.h>
#include <stdint.h>

struct clockd;
struct cport;
struct pmcsock;

/*
 * Binds pmc_socket (an existing file there is removed first).  Called
 * after the privilege drop: its directory must be writable by
 * clockd_user.  NULL on failure (logged); clockd runs on without it.
 */
struct pmcsock *pmcsock_start(struct clockd *c);
void	pmcsock_stop(struct pmcsock *s);

/*
 * A Management message received on port p (port_rx(), which has checked
 * the domain and that it is not our own): forwards it out the other ports
 * of a boundary clock (15.3.3), answers it out p (to the primary multicast
 * address as ptp4l, or unicast to its sender when it came unicast: 16.1,
 * RFC 9760 section 12), and applies a granted SET.
 */
struct netd_rx;
void	pmcsock_net_rx(struct cport *p, const struct netd_rx *f);

/* pmcsock_net.c: a granted SET (mgmt.c) applied through the clock's
 * setters and logged, who saying by whom; both paths use it. */
struct mgmt_set;
void	pmcsock_apply(struct clockd *c, const struct mgmt_set *set,
	    const char *who);

#endif /* PTPSEP_CLOCKD_PMCSOCK_H */
