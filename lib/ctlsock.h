/*
 * ctlsock.h - the server side of a control socket (ctl.proto), shared by
 * ptp-netd (netd_ctl_socket) and ptp-clockd (clockd_ctl_socket).
 *
 * What is the same for both daemons lives here: the listening socket and
 * its mode, accepting with a bound on clients, the peer's credentials
 * (SO_PEERCRED, SO_PEERGROUPS; lib/usock.c), the Hello exchange, reading
 * one request at a time, and the limits that keep a hostile or broken
 * local client from disturbing the daemon: a client that breaks the
 * protocol is dropped, one that does not read its answers is dropped, one
 * that floods requests is paused (not read) for the rest of a one-second
 * window, one that stays idle is dropped, and a connection that cannot
 * have a slot gets ERROR_BUSY (after its Hello has been read, so that it
 * sees the error and not a reset).
 *
 * Slots (issue 11, item 6): every local user may connect, so the slots
 * must not be a resource one user can take from root.  A uid that is not
 * an admin (root, or admin_group as set with ctlsock_set_admin_group())
 * holds at most CTLSOCK_PER_UID connections; all non-admins together hold
 * at most CTLSOCK_MAX_CLIENTS - CTLSOCK_ADMIN_SLOTS; an admin that finds
 * every slot taken evicts the non-admin connection idle the longest.  So
 * `ptpctl status` and `ptpctl set` from root get through whatever any
 * number of unprivileged users hold.  A connection without Hello after
 * CTLSOCK_HELLO_S, or idle for CTLSOCK_IDLE_S, is dropped.
 * What a daemon answers is its own: ops->serve gets every request after
 * Hello and sends exactly one response with ctlsock_reply() or
 * ctlsock_error().
 *
 * Uses libevent: link LIBEVENT_LIBS when calling it (ptpctl does not).
 */
#ifndef PTPSEP_CTLSOCK_H
#define PTPSEP_CTLSOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ipc.h"
#include "usock.h"

struct event_base;
struct ctlsock;
struct ctlsock_client;

#define CTLSOCK_MAX_CLIENTS	16	/* connections at once */
#define CTLSOCK_ADMIN_SLOTS	4	/* of them, only for admins */
#define CTLSOCK_PER_UID		2	/* connections of one non-admin uid */
#define CTLSOCK_MAX_REFUSING	8	/* refusals waiting for a Hello */
#define CTLSOCK_REFUSE_MS	500	/* how long a refusal waits for it */
#define CTLSOCK_RATE		100	/* requests per client per second */
#define CTLSOCK_HELLO_S		5	/* no Hello for this long: drop */
#define CTLSOCK_IDLE_S		30	/* no request for this long: drop */

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
/*
 * Members of gid (have_gid != 0) count as admins for the slots, as root
 * always does.  Without a call: root only.
 */
void	ctlsock_set_admin_group(struct ctlsock *cs, int have_gid, gid_t gid);
/* Drops every client, closes the socket and, if unlink_path, removes it. */
void	ctlsock_close(struct ctlsock *cs, int unlink_path);
unsigned ctlsock_nclients(const struct ctlsock *cs);

/* Sends r to the client; 0, or -1 (the client is dropped after serve). */
int	ctlsock_reply(struct ctlsock_client *cl,
	    const Ptpsep__Ctl__CtlResponse *r);
/* Sends Error{code, text}. */
int	ctlsock_error(struct ctlsock_client *cl, Ptpsep__ErrorCode code,
	    const char *text);
/* Who the client is (usock_peer_is_admin() tells an admin). */
const struct usock_peer *ctlsock_peer(const struct ctlsock_client *cl);

/* A slot in use, as ctlsock_admit() sees it. */
struct ctlsock_slot {
	uid_t	uid;
	int	admin;
	int64_t	last_ns;	/* last request (or connect), monotonic */
};

enum ctlsock_verdict {
	CTLSOCK_ADMIT,		/* a free slot */
	CTLSOCK_EVICT,		/* admit after dropping slots[*victim] */
	CTLSOCK_BUSY_UID,	/* this uid holds CTLSOCK_PER_UID already */
	CTLSOCK_BUSY_FULL,	/* no slot this peer may have */
};

/*
 * Pure: may a new connection of uid (admin: root or admin_group) have a
 * slot, given the n slots in use?
 */
enum ctlsock_verdict ctlsock_admit(const struct ctlsock_slot *slots,
	    size_t n, uid_t uid, int admin, size_t *victim);

#endif /* PTPSEP_CTLSOCK_H */
