/*
 * pmcsock.c - management I/O of ptp-clockd: the pmc socket and the network
 * path.  What to answer is mgmt.c's; who may change what is decided here
 * (see pmcsock.h).
 *
 * The pmc socket is a Unix datagram socket, as ptp4l's uds_address: pmc
 * binds a socket of its own (/var/run/pmc.PID, or -i PATH), sends one
 * Management message per datagram as a bare PTP payload, and reads the
 * responses that come back to that address.  A sender without an address
 * cannot be answered and is ignored, and so is one whose socket clockd_user
 * may not write to: clockd holds no capability (no CAP_DAC_OVERRIDE, unlike
 * ptp4l running as root), and pmc chmods its socket to 0660, so pmc's
 * socket must be in clockd's group: `pmc -i /run/ptpsep/pmc/NAME`, a
 * setgid directory (etc/tmpfiles.d).  Each readiness reads a bounded
 * number of datagrams so that a flooding local user cannot starve the
 * clock's own events.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/event.h>

#include "cfg.h"
#include "clockd.h"
#include "log.h"
#include "mgmt.h"
#include "pmcsock.h"
#include "ptp_be.h"
#include "usock.h"

#define PMCSOCK_BURST		16	/* datagrams per readiness */
#define PMCSOCK_MAX_MEMBERS	64	/* admin_group members remembered */

struct pmcsock {
	struct clockd		*c;
	int			 fd;
	struct event		*ev;
	char			 path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int			 have_admin_gid;
	gid_t			 admin_gid;
	int			 warned_eacces;
	size_t			 nmembers;
	uid_t			 members[PMCSOCK_MAX_MEMBERS];
};

/* Where one datagram's responses go. */
struct pmcsock_peer {
	struct pmcsock		*s;
	struct sockaddr_un	 addr;
	socklen_t		 addrlen;
};

static void pmcsock_ev_read(evutil_socket_t fd, short what, void *arg);

/* ---- the local socket ---- */

/* Members of admin_group from the group database, as uids. */
static void
pmcsock_load_group(struct pmcsock *s, const char *group)
{
	struct group *gr;
	struct passwd *pw;
	char **m;

	if ((gr = getgrnam(group)) == NULL) {
		log_warnx("admin_group %s does not exist: only root may SET "
		    "on pmc_socket", group);
		return;
	}
	s->admin_gid = gr->gr_gid;
	s->have_admin_gid = 1;
	for (m = gr->gr_mem; m != NULL && *m != NULL; m++) {
		if (s->nmembers == PMCSOCK_MAX_MEMBERS)
			break;
		if ((pw = getpwnam(*m)) != NULL)
			s->members[s->nmembers++] = pw->pw_uid;
	}
}

static int
pmcsock_is_admin(const struct pmcsock *s, const struct ucred *cr)
{
	struct usock_peer peer;
	size_t i;

	memset(&peer, 0, sizeof(peer));
	peer.pid = cr->pid;
	peer.uid = cr->uid;
	peer.gid = cr->gid;
	if (usock_peer_is_admin(&peer, s->have_admin_gid, s->admin_gid))
		return 1;
	for (i = 0; i < s->nmembers; i++)
		if (s->members[i] == cr->uid)
			return 1;
	return 0;
}

struct pmcsock *
pmcsock_start(struct clockd *c)
{
	const char *path = cfg_get_str(c->cfg, NULL, "pmc_socket");
	struct pmcsock *s;
	char why[256];

	if ((s = calloc(1, sizeof(*s))) == NULL) {
		log_warn("pmc_socket");
		return NULL;
	}
	s->c = c;
	snprintf(s->path, sizeof(s->path), "%s", path);
	pmcsock_load_group(s, cfg_get_str(c->cfg, NULL, "admin_group"));
	/*
	 * Any local user may send (GET); SET is checked per datagram, with
	 * the sender's uid and gid that come with every one of them
	 * (SCM_CREDENTIALS).  The directory is created if missing.
	 */
	s->fd = usock_listen(path, SOCK_DGRAM, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, 0, USOCK_PASSCRED, why, sizeof(why));
	if (s->fd < 0) {
		log_warnx("pmc_socket: %s (its directory must be writable by "
		    "clockd_user)", why);
		goto fail;
	}
	s->ev = event_new(c->base, s->fd, EV_READ | EV_PERSIST,
	    pmcsock_ev_read, s);
	if (s->ev == NULL || event_add(s->ev, NULL) != 0) {
		log_warnx("pmc_socket: cannot watch the socket");
		goto fail_unlink;
	}
	log_info("management socket %s", path);
	return s;

fail_unlink:
	(void)sockpath_unlink(path);
fail:
	if (s->ev != NULL)
		event_free(s->ev);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
	log_warnx("no pmc socket: pmc -u cannot reach this clockd");
	return NULL;
}

void
pmcsock_stop(struct pmcsock *s)
{
	if (s == NULL)
		return;
	event_free(s->ev);
	close(s->fd);
	(void)sockpath_unlink(s->path);
	free(s);
}

static int
pmcsock_emit_local(void *arg, const uint8_t *msg, size_t len)
{
	struct pmcsock_peer *pp = arg;

	/* A client that is gone or not reading loses its answer. */
	if (sendto(pp->s->fd, msg, len, MSG_DONTWAIT,
	    (struct sockaddr *)&pp->addr, pp->addrlen) < 0) {
		/* clockd has no capability: it can answer only a socket that
		 * clockd_user may write to (pmc's is 0660, its caller's). */
		if (errno == EACCES && !pp->s->warned_eacces) {
			pp->s->warned_eacces = 1;
			log_warnx("pmc_socket: cannot answer %s: it is not "
			    "writable by clockd_user (give pmc -i "
			    "/run/ptpsep/pmc/NAME, a setgid directory)",
			    pp->addr.sun_path);
		} else {
			log_rl(LOG_LVL_DEBUG, "pmc_socket: reply to %s: %s",
			    pp->addr.sun_path, strerror(errno));
		}
		return -1;
	}
	return 0;
}

static void
pmcsock_ev_read(evutil_socket_t fd, short what, void *arg)
{
	struct pmcsock *s = arg;
	uint8_t buf[IPC_MAX_PTP_PAYLOAD];
	union {
		struct cmsghdr	align;
		uint8_t		buf[CMSG_SPACE(sizeof(struct ucred))];
	} ctl;
	struct pmcsock_peer pp;
	struct mgmt_src src;
	struct mgmt_set set;
	struct cmsghdr *cm;
	struct ucred cr;
	struct msghdr mh;
	struct iovec iov;
	char who[48];
	ssize_t n;
	int i, have_cr;

	for (i = 0; i < PMCSOCK_BURST; i++) {
		memset(&pp, 0, sizeof(pp));
		pp.s = s;
		iov.iov_base = buf;
		iov.iov_len = sizeof(buf);
		memset(&mh, 0, sizeof(mh));
		mh.msg_name = &pp.addr;
		mh.msg_namelen = sizeof(pp.addr);
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		n = recvmsg(fd, &mh, MSG_DONTWAIT);
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK &&
			    errno != EINTR)
				log_rl(LOG_LVL_WARN, "pmc_socket: recvmsg: %s",
				    strerror(errno));
			return;
		}
		pp.addrlen = mh.msg_namelen;
		/* Truncated, or from an unbound socket: nothing to answer. */
		if ((mh.msg_flags & MSG_TRUNC) || pp.addrlen <=
		    offsetof(struct sockaddr_un, sun_path))
			continue;
		have_cr = 0;
		for (cm = CMSG_FIRSTHDR(&mh); cm != NULL;
		    cm = CMSG_NXTHDR(&mh, cm)) {
			if (cm->cmsg_level == SOL_SOCKET &&
			    cm->cmsg_type == SCM_CREDENTIALS &&
			    cm->cmsg_len == CMSG_LEN(sizeof(cr))) {
				memcpy(&cr, CMSG_DATA(cm), sizeof(cr));
				have_cr = 1;
			}
		}
		src.ingress = -1;
		src.may_set = have_cr && pmcsock_is_admin(s, &cr);
		(void)mgmt_process(s->c, buf, (size_t)n, &src,
		    pmcsock_emit_local, &pp, &set);
		if (set.what != MGMT_SET_NONE) {
			snprintf(who, sizeof(who), "uid %u on pmc_socket",
			    (unsigned)cr.uid);
			pmcsock_apply(s->c, &set, who);
		}
	}
}
