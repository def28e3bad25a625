/*
 * ctlsock.h - the server side of a control socket (ctl.proto), shared by
 * ptp-netd (netd_ctl_socket) and ptp-clockd (clockd_ctl_socket).
 *
 * What is the same for both daemons lives here: the listening socket and
 * its mode, accepting with a bound on clients, the peer's credentials
 * (SO_PEERCRED, SO_PEERGROUPS), the Hello exchange, reading one request at
 * a time, and the limits that keep a hostile or broken local client from
 * disturbing the daemon: a client that breaks the protocol is dropped, one
 * that does not read its answers is dropped, one that floods requests is
 * paused (not read) for the rest of a one-second window, one that stays
 * idle is dropped, and clients beyond CTLSOCK_MAX_CLIENTS get ERROR_BUSY.
 * What a daemon answers is its own: ops->serve gets every request after
 * Hello and sends exactly one response with ctlsock_reply() or
 * ctlsock_error().
 *
 * Uses libevent: link LIBEVENT_LIBS when calling it (ptpctl does not).
 */
#ifndef PTPSEP_CTLSOCK_H
#define PTPSEP_CTLSOCK_H

#include <stddef.h>
#include <sys/types.h>

#include "ipc.h"

struct event_base;
struct ctlsock;
struct ctlsock_client;

#define CTLSOCK_MAX_CLIENTS	8	/* connections at once */
#define CTLSOCK_RATE		100	/* requests per client per second */
#define CTLSOCK_IDLE_S		30	/* no request for this long: drop */
#define CTLSOCK_MAX_GROUPS	64	/* supplementary groups looked at */

/* Who is on the other end, as the kernel saw it at connect(). */
struct ctlsock_peer {
	pid_t	pid;
	uid_t	uid;
	gid_t	gid;
	size_t	ngroups;		/* of groups[], from SO_PEERGROUPS */
	gid_t	groups[CTLSOCK_MAX_GROUPS];
};

struct ctlsock_ops {
	const char	*name;		/* "clockd_ctl_socket", for the log */
	Ptpsep__Role	 role;		/* what our Hello says we are */
	/*
	 * Serves one request (never Hello).  Must send exactly one
	 * response.  Returns 0, or -1 to drop the client after it.
	 */
	int		(*serve)(void *arg, struct ctlsock_client *cl,
			    const Ptpsep__Ctl__CtlRequest *req);
};

/*
 * Binds path (an existing file there is removed first), sets its mode
 * (0666: any local user may connect; the daemon decides what each may do)
 * and listens.  NULL on failure, logged.
 */
struct ctlsock *ctlsock_listen(struct event_base *base, const char *path,
    mode_t mode, const struct ctlsock_ops *ops, void *arg);
/* Drops every client, closes the socket and, if unlink_path, removes it. */
void	ctlsock_close(struct ctlsock *cs, int unlink_path);
unsigned ctlsock_nclients(const struct ctlsock *cs);

/* Sends r to the client; 0, or -1 (the client is dropped after serve). */
int	ctlsock_reply(struct ctlsock_client *cl,
	    const Ptpsep__Ctl__CtlResponse *r);
/* Sends Error{code, text}. */
int	ctlsock_error(struct ctlsock_client *cl, Ptpsep__ErrorCode code,
	    const char *text);
const struct ctlsock_peer *ctlsock_peer(const struct ctlsock_client *cl);

/*
 * Pure: 1 if the peer is root, or gid is its primary group or one of its
 * supplementary groups; else 0.  have_gid == 0 (no such group): root only.
 */
int	ctlsock_peer_is_admin(const struct ctlsock_peer *p, int have_gid,
	    gid_t gid);

#endif /* PTPSEP_CTLSOCK_H */
