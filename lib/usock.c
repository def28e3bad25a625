/*
 * usock.c - the Unix-socket plumbing of every local channel; see usock.h.
 *
 * No logging here: the callers name the socket (netd_socket,
 * clockd_ctl_socket, ...) in their own lines, and ptpctl prints to
 * stderr, not to a log.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "usock.h"

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS	59	/* Linux 4.13 */
#endif

static int
usock_addr(struct sockaddr_un *sun, const char *path)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun->sun_path))
		return -ENAMETOOLONG;
	memcpy(sun->sun_path, path, strlen(path));
	return 0;
}

int
usock_listen(const char *path, int type, mode_t mode, uid_t uid, gid_t gid,
    int backlog, int flags, char *why, size_t whylen)
{
	struct sockaddr_un sun;
	int fd, rc, one = 1;

	if ((rc = usock_addr(&sun, path)) != 0) {
		snprintf(why, whylen, "%s: path too long", path);
		return rc;
	}
	fd = socket(AF_UNIX, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		rc = -errno;
		snprintf(why, whylen, "socket: %s", strerror(-rc));
		return rc;
	}
	if ((flags & USOCK_PASSCRED) != 0 && setsockopt(fd, SOL_SOCKET,
	    SO_PASSCRED, &one, sizeof(one)) != 0) {
		rc = -errno;
		snprintf(why, whylen, "SO_PASSCRED: %s", strerror(-rc));
		goto no_bind;
	}
	/* No bind/chown/chmod by path: a symlink there is not followed. */
	if ((rc = sockpath_bind(fd, path, mode, uid, gid, why, whylen)) != 0)
		goto no_bind;
	if (type == SOCK_SEQPACKET && listen(fd, backlog) != 0) {
		rc = -errno;
		snprintf(why, whylen, "%s: listen: %s", path, strerror(-rc));
		(void)sockpath_unlink(path);
		goto no_bind;
	}
	return fd;
no_bind:
	close(fd);
	return rc;
}

int
usock_peer(int fd, struct usock_peer *p)
{
	struct ucred uc;
	socklen_t len = sizeof(uc);

	/*
	 * Both are race-free (unlike reading /proc/PID/status, whose PID
	 * may be gone or reused) and reflect the process's real groups
	 * (unlike getgrouplist() on the user's name, which says what a
	 * fresh login would get).
	 */
	memset(p, 0, sizeof(*p));
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) != 0)
		return -errno;
	if (len != sizeof(uc))
		return -EPROTO;
	p->pid = uc.pid;
	p->uid = uc.uid;
	p->gid = uc.gid;
	len = sizeof(p->groups);
	/* ERANGE: more groups than we keep; the first ones still count. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, p->groups, &len) == 0)
		p->ngroups = len / sizeof(gid_t);
	if (p->ngroups > USOCK_MAX_GROUPS)
		p->ngroups = USOCK_MAX_GROUPS;
	return 0;
}

int
usock_accept(int lfd, struct usock_peer *peer, char *why, size_t whylen)
{
	int fd, rc;

	fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		rc = errno == EWOULDBLOCK ? -EAGAIN : -errno;
		snprintf(why, whylen, "accept: %s", strerror(-rc));
		return rc;
	}
	if ((rc = usock_peer(fd, peer)) != 0) {
		snprintf(why, whylen, "SO_PEERCRED: %s", strerror(-rc));
		close(fd);
		return rc;
	}
	return fd;
}

int
usock_peer_is_admin(const struct usock_peer *p, int have_gid, gid_t gid)
{
	size_t i;

	if (p->uid == 0)
		return 1;
	if (!have_gid)
		return 0;
	if (p->gid == gid)
		return 1;
	for (i = 0; i < p->ngroups && i < USOCK_MAX_GROUPS; i++)
		if (p->groups[i] == gid)
			return 1;
	return 0;
}

int
usock_connect(const char *path, int type, int timeout_s, int flags)
{
	struct sockaddr_un sun;
	struct timeval tv = { timeout_s, 0 };
	int fd, fl, rc;

	if ((rc = usock_addr(&sun, path)) != 0)
		return rc;
	if ((fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0)) < 0)
		return -errno;
	if (timeout_s > 0) {
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	}
	/*
	 * A blocking connect: on a Unix socket it waits only while the
	 * listener's backlog is full, which a non-blocking one would report
	 * as EAGAIN, a failure to connect to a daemon that is there.
	 */
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if ((flags & USOCK_NONBLOCK) != 0 &&
	    ((fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0)) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

void
usock_drain(int fd, int max)
{
	char junk[64];
	int i;

	/*
	 * Closing a Unix socket with datagrams unread makes the peer's next
	 * recv fail with ECONNRESET instead of returning what was queued for
	 * it.  Bounded: a peer writing without pause must not keep us here.
	 */
	for (i = 0; i < max; i++)
		if (recv(fd, junk, sizeof(junk), MSG_DONTWAIT | MSG_TRUNC) < 0)
			break;
}

/* env's Hello: its oneof member named "hello" if that is the one set. */
static const Ptpsep__Hello *
usock_hello_of(const ProtobufCMessage *env)
{
	const ProtobufCFieldDescriptor *f;
	const Ptpsep__Hello *h;
	uint32_t c;

	f = protobuf_c_message_descriptor_get_field_by_name(env->descriptor,
	    "hello");
	if (f == NULL || f->type != PROTOBUF_C_TYPE_MESSAGE ||
	    f->descriptor != &ptpsep__hello__descriptor ||
	    (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) == 0)
		return NULL;
	memcpy(&c, (const char *)env + f->quantifier_offset, sizeof(c));
	if (c != f->id)
		return NULL;
	memcpy(&h, (const char *)env + f->offset, sizeof(h));
	return h;
}

Ptpsep__ErrorCode
usock_hello_check(const ProtobufCMessage *env, Ptpsep__Role want,
    const char **why)
{
	const Ptpsep__Hello *h = usock_hello_of(env);

	if (h == NULL) {
		*why = "first message is not Hello";
		return PTPSEP__ERROR_CODE__ERROR_PROTOCOL;
	}
	if (ipc_hello_check(h, want) != IPC_OK) {
		*why = ipc_detail();
		return PTPSEP__ERROR_CODE__ERROR_VERSION_MISMATCH;
	}
	*why = NULL;
	return PTPSEP__ERROR_CODE__ERROR_UNSPECIFIED;
}
