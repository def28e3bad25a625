/*
 * usock.h - the Unix-socket plumbing of every local channel, written once:
 * netd_socket (netd/relay.c serves it, clockd/netd_client.c connects),
 * the two control sockets (lib/ctlsock.c serves them, ctl/client.c
 * connects) and pmc_socket (clockd/pmcsock.c).
 *
 *   - usock_listen(): a socket bound with its final mode and owner, made
 *     in the file system by lib/sockpath.c (the directory created if
 *     missing and checked, a stale socket replaced, nothing else touched,
 *     no chmod or chown by path);
 *   - usock_accept() and usock_peer(): who connected, as the kernel saw
 *     it at connect() (SO_PEERCRED, SO_PEERGROUPS);
 *   - usock_connect(): the client side;
 *   - usock_drain(): what a refused peer sent is read before the close, so
 *     that it gets the Error queued for it and not ECONNRESET;
 *   - usock_hello_check(): the first message of each side (doc/design.md,
 *     "Interprocess protocol"), the same verdict on both channels.
 *
 * Functions return a descriptor or 0, or -errno; where they take why, a
 * sentence for the log is left there.
 */
#ifndef PTPSEP_USOCK_H
#define PTPSEP_USOCK_H

#include <stddef.h>
#include <sys/types.h>

#include "ipc.h"
#include "sockpath.h"

#define USOCK_MAX_GROUPS	64	/* supplementary groups looked at */

/* Who is on the other end, as the kernel saw it at connect(). */
struct usock_peer {
	pid_t	pid;
	uid_t	uid;
	gid_t	gid;
	size_t	ngroups;		/* of groups[], from SO_PEERGROUPS */
	gid_t	groups[USOCK_MAX_GROUPS];
};

/* usock_listen(): SO_PASSCRED before bind, so that no datagram comes in
 * without the sender's credentials (SCM_CREDENTIALS). */
#define USOCK_PASSCRED	0x1
/* usock_connect(): non-blocking once connected. */
#define USOCK_NONBLOCK	0x2

/*
 * A non-blocking, close-on-exec AF_UNIX socket of type (SOCK_SEQPACKET or
 * SOCK_DGRAM) bound to path with mode, owner uid and group gid
 * (SOCKPATH_NO_ID: unchanged; see sockpath_bind()); a SOCK_SEQPACKET one
 * listens with backlog.  The descriptor, or -errno with why set; on
 * failure nothing is left at path.
 */
int	usock_listen(const char *path, int type, mode_t mode, uid_t uid,
	    gid_t gid, int backlog, int flags, char *why, size_t whylen);
/*
 * Accepts one connection on lfd (non-blocking, close-on-exec) and reads
 * its peer.  The descriptor, or -errno with why set: -EAGAIN or -EINTR
 * when there was nothing to accept (not worth a log line).
 */
int	usock_accept(int lfd, struct usock_peer *peer, char *why,
	    size_t whylen);
/*
 * The kernel's view of the peer of a connected socket: SO_PEERCRED for
 * pid, uid and gid, SO_PEERGROUPS for the supplementary groups (the first
 * USOCK_MAX_GROUPS; none where the kernel has no SO_PEERGROUPS).  0 or
 * -errno.
 */
int	usock_peer(int fd, struct usock_peer *p);
/*
 * Pure: 1 if the peer is root, or gid is its primary group or one of its
 * supplementary groups; else 0.  have_gid == 0 (no such group): root only.
 */
int	usock_peer_is_admin(const struct usock_peer *p, int have_gid,
	    gid_t gid);
/*
 * Connects a close-on-exec AF_UNIX socket of type to path; with
 * timeout_s > 0, sends and receives on it time out after that long.  The
 * descriptor, or -errno: -ENAMETOOLONG for a path that does not fit,
 * -EACCES/-EPERM where the socket's mode or directory refuses us, -ENOENT
 * or -ECONNREFUSED where nothing listens.
 */
int	usock_connect(const char *path, int type, int timeout_s, int flags);
/* Reads and discards up to max datagrams waiting on fd, without blocking. */
void	usock_drain(int fd, int max);
/*
 * No I/O: may a connection go on after env, the first message of the
 * peer (an envelope of either channel: NetdMsg, CtlRequest, CtlResponse)?
 * It must be a Hello (its oneof member "hello") of the protocol version
 * we speak, from a peer of role want (ROLE_UNSPECIFIED: any).
 * ERROR_UNSPECIFIED (0) if so; else the ErrorCode to refuse it with
 * (ERROR_PROTOCOL, ERROR_VERSION_MISMATCH) and the reason in *why.
 */
Ptpsep__ErrorCode usock_hello_check(const ProtobufCMessage *env,
	    Ptpsep__Role want, const char **why);

#endif /* PTPSEP_USOCK_H */
