/*
 * nlmon.c - rtnetlink link monitoring: a pure parser, a link table that
 * turns messages into events, and the socket around them.
 *
 * The parser copies every header out of the buffer with memcpy() instead of
 * casting: the buffer is untrusted and need not be aligned, and each length
 * is checked against what is left before anything is read.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "log.h"
#include "nlmon.h"

/*
 * IF_OPER_* (RFC 2863 values, kernel ABI) live in <linux/if.h>, which
 * clashes with glibc's <net/if.h>; the two needed are named here.
 */
#define OPER_UNKNOWN	0
#define OPER_UP		6

/* ---- parser ---------------------------------------------------------------- */

static int
parse_attr_ifname(struct nlmon_link *l, const uint8_t *d, size_t dlen)
{
	const uint8_t *nul;

	/* The kernel sends the name with its NUL, at most IFNAMSIZ. */
	if (dlen < 2 || dlen > IFNAMSIZ)
		return -NLMON_E_IFNAME;
	if ((nul = memchr(d, '\0', dlen)) == NULL || nul == d)
		return -NLMON_E_IFNAME;
	memcpy(l->ifname, d, (size_t)(nul - d) + 1);
	return 0;
}

static int
parse_link(struct nlmon_link *l, uint16_t type, const uint8_t *p, size_t plen)
{
	struct ifinfomsg ifi;
	struct rtattr rta;
	const size_t ifilen = NLMSG_ALIGN(sizeof(ifi));
	int seen_name = 0, seen_addr = 0, rc;
	size_t dlen, adv;

	memset(l, 0, sizeof(*l));
	l->msg_type = type;
	if (plen < sizeof(ifi))
		return -NLMON_E_SHORT_IFINFO;
	memcpy(&ifi, p, sizeof(ifi));
	if (ifi.ifi_index <= 0)
		return -NLMON_E_IFINDEX;
	l->family = ifi.ifi_family;
	l->ifindex = ifi.ifi_index;
	l->flags = ifi.ifi_flags;
	if (plen <= ifilen)
		goto done;
	p += ifilen;
	plen -= ifilen;
	while (plen > 0) {
		if (plen < sizeof(rta))
			return -NLMON_E_ATTR_LEN;
		memcpy(&rta, p, sizeof(rta));
		if (rta.rta_len < sizeof(rta) || rta.rta_len > plen)
			return -NLMON_E_ATTR_LEN;
		dlen = rta.rta_len - sizeof(rta);
		/* Flags (NLA_F_NESTED, NLA_F_NET_BYTEORDER) are not the type. */
		switch (rta.rta_type & NLA_TYPE_MASK) {
		case IFLA_IFNAME:
			if (seen_name++)
				return -NLMON_E_DUP_ATTR;
			if ((rc = parse_attr_ifname(l, p + sizeof(rta),
			    dlen)) < 0)
				return rc;
			break;
		case IFLA_ADDRESS:
			if (seen_addr++)
				return -NLMON_E_DUP_ATTR;
			if (dlen == 0 || dlen > NLMON_ADDR_MAX)
				return -NLMON_E_ADDR;
			memcpy(l->addr, p + sizeof(rta), dlen);
			l->addr_len = dlen;
			break;
		case IFLA_OPERSTATE:
			if (l->has_operstate++)
				return -NLMON_E_DUP_ATTR;
			if (dlen != 1 || p[sizeof(rta)] > OPER_UP)
				return -NLMON_E_OPERSTATE;
			l->operstate = p[sizeof(rta)];
			break;
		default:
			break;	/* the many attributes netd has no use for */
		}
		/* The last attribute may lack its padding. */
		adv = RTA_ALIGN(rta.rta_len);
		if (adv >= plen)
			break;
		p += adv;
		plen -= adv;
	}
done:
	if (!seen_name)
		return -NLMON_E_NO_IFNAME;
	return 0;
}

/* One pass over the datagram; cb NULL only validates. */
static int
parse_walk(const uint8_t *p, size_t len, nlmon_link_cb cb, void *arg)
{
	struct nlmsghdr h;
	struct nlmon_link l;
	int err, rc, n = 0;
	size_t adv;

	while (len > 0) {
		if (len < sizeof(h))
			return -NLMON_E_SHORT_HDR;
		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len)
			return -NLMON_E_MSG_LEN;
		switch (h.nlmsg_type) {
		case NLMSG_NOOP:
			break;
		case NLMSG_DONE:
			/* Ends a dump; nothing after it belongs to it. */
			if (cb != NULL) {
				memset(&l, 0, sizeof(l));
				l.msg_type = NLMSG_DONE;
				cb(&l, arg);
			}
			return n + 1;
		case NLMSG_ERROR:
			if (h.nlmsg_len < NLMSG_HDRLEN + sizeof(err))
				return -NLMON_E_SHORT_ERRMSG;
			memcpy(&err, p + NLMSG_HDRLEN, sizeof(err));
			if (err != 0)
				return -NLMON_E_KERNEL;
			break;	/* an ACK */
		case RTM_NEWLINK:
		case RTM_DELLINK:
			rc = parse_link(&l, h.nlmsg_type, p + NLMSG_HDRLEN,
			    h.nlmsg_len - NLMSG_HDRLEN);
			if (rc < 0)
				return rc;
			if (cb != NULL)
				cb(&l, arg);
			n++;
			break;
		default:
			break;	/* not a link message: not ours */
		}
		adv = NLMSG_ALIGN(h.nlmsg_len);
		if (adv >= len)
			break;
		p += adv;
		len -= adv;
	}
	return n;
}

int
nlmon_parse(const void *buf, size_t len, nlmon_link_cb cb, void *arg)
{
	int rc;

	if (buf == NULL)
		return len == 0 ? 0 : -NLMON_E_SHORT_HDR;
	/* Validate all first: a bad datagram delivers nothing at all. */
	if ((rc = parse_walk(buf, len, NULL, NULL)) < 0 || cb == NULL)
		return rc;
	return parse_walk(buf, len, cb, arg);
}

const char *
nlmon_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case NLMON_E_SHORT_HDR:
		return "truncated netlink header";
	case NLMON_E_MSG_LEN:
		return "bad nlmsg_len";
	case NLMON_E_SHORT_ERRMSG:
		return "truncated NLMSG_ERROR";
	case NLMON_E_KERNEL:
		return "kernel reported an error";
	case NLMON_E_SHORT_IFINFO:
		return "truncated ifinfomsg";
	case NLMON_E_IFINDEX:
		return "bad ifindex";
	case NLMON_E_ATTR_LEN:
		return "bad attribute length";
	case NLMON_E_DUP_ATTR:
		return "duplicate attribute";
	case NLMON_E_IFNAME:
		return "bad IFLA_IFNAME";
	case NLMON_E_NO_IFNAME:
		return "no IFLA_IFNAME";
	case NLMON_E_ADDR:
		return "bad IFLA_ADDRESS";
	case NLMON_E_OPERSTATE:
		return "bad IFLA_OPERSTATE";
	}
	return "unknown error";
}

const char *
nlmon_event_name(enum nlmon_event_type t)
{
	switch (t) {
	case NLMON_EV_CREATED:
		return "created";
	case NLMON_EV_UP:
		return "up";
	case NLMON_EV_DOWN:
		return "down";
	case NLMON_EV_DELETED:
		return "deleted";
	case NLMON_EV_MAC_CHANGED:
		return "mac-changed";
	}
	return "?";
}

/* ---- link table --------------------------------------------------------- */

struct nlmon_entry {
	int		ifindex;
	char		ifname[IFNAMSIZ];
	int		present;	/* 0: deleted, kept for old_ifindex */
	int		carrier;
	unsigned	generation;	/* dump in which it was last seen */
	uint8_t		addr[NLMON_ADDR_MAX];
	size_t		addr_len;
};

void
nlmon_state_init(struct nlmon_state *st)
{
	memset(st, 0, sizeof(*st));
}

void
nlmon_state_free(struct nlmon_state *st)
{
	free(st->v);
	memset(st, 0, sizeof(*st));
}

void
nlmon_state_dump_begin(struct nlmon_state *st)
{
	st->dumping = 1;
	st->generation++;
}

static int
link_carrier(const struct nlmon_link *l)
{
	if (!(l->flags & IFF_UP) || !(l->flags & IFF_RUNNING))
		return 0;
	/* UNKNOWN: drivers without carrier reporting (tun, dummy). */
	return !l->has_operstate || l->operstate == OPER_UP ||
	    l->operstate == OPER_UNKNOWN;
}

static struct nlmon_entry *
find_index(struct nlmon_state *st, int ifindex)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (st->v[i].present && st->v[i].ifindex == ifindex)
			return &st->v[i];
	return NULL;
}

static struct nlmon_entry *
find_name(struct nlmon_state *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (strcmp(st->v[i].ifname, name) == 0)
			return &st->v[i];
	return NULL;
}

/* A free slot: grows the table, else reuses a deleted entry, else NULL. */
static struct nlmon_entry *
entry_alloc(struct nlmon_state *st)
{
	struct nlmon_entry *nv;
	size_t i, ncap;

	if (st->n == st->cap && st->cap < NLMON_MAX_LINKS) {
		ncap = st->cap ? st->cap * 2 : 16;
		if (ncap > NLMON_MAX_LINKS)
			ncap = NLMON_MAX_LINKS;
		if ((nv = realloc(st->v, ncap * sizeof(*nv))) != NULL) {
			st->v = nv;
			st->cap = ncap;
		}
	}
	if (st->n < st->cap)
		return &st->v[st->n++];
	for (i = 0; i < st->n; i++)
		if (!st->v[i].present)
			return &st->v[i];
	return NULL;
}

static int
emit(enum nlmon_event_type type, const struct nlmon_entry *e, int old_ifindex,
    nlmon_event_cb cb, void *arg)
{
	struct nlmon_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.ifindex = e->ifindex;
	ev.old_ifindex = old_ifindex;
	memcpy(ev.ifname, e->ifname, sizeof(ev.ifname));
	memcpy(ev.addr, e->addr, sizeof(ev.addr));
	ev.addr_len = e->addr_len;
	ev.carrier = e->carrier;
	if (cb != NULL)
		cb(&ev, arg);
	return 1;
}

static int
entry_delete(struct nlmon_entry *e, nlmon_event_cb cb, void *arg)
{
	e->present = 0;
	e->carrier = 0;
	return emit(NLMON_EV_DELETED, e, 0, cb, arg);
}

/* End of a dump: what the kernel did not list is gone. */
static int
sweep(struct nlmon_state *st, nlmon_event_cb cb, void *arg)
{
	size_t i;
	int n = 0;

	if (!st->dumping)
		return 0;
	st->dumping = 0;
	for (i = 0; i < st->n; i++)
		if (st->v[i].present && st->v[i].generation != st->generation)
			n += entry_delete(&st->v[i], cb, arg);
	return n;
}

static int
update_new(struct nlmon_state *st, const struct nlmon_link *l,
    nlmon_event_cb cb, void *arg)
{
	struct nlmon_entry *e, *old;
	int n = 0, old_ifindex = 0, carrier = link_carrier(l);

	e = find_index(st, l->ifindex);
	if (e != NULL && strcmp(e->ifname, l->ifname) != 0) {
		/* Renamed: for a port bound by name, the old one is gone. */
		n += entry_delete(e, cb, arg);
		e = NULL;
	}
	if (e == NULL) {
		if ((old = find_name(st, l->ifname)) != NULL) {
			/* Same name, new index: re-created (maybe a missed
			 * RTM_DELLINK, then the old one is gone too). */
			old_ifindex = old->ifindex;
			if (old->present)
				n += entry_delete(old, cb, arg);
			e = old;
		} else if ((e = entry_alloc(st)) == NULL) {
			log_warnx("nlmon: more than %d links, %s not tracked",
			    NLMON_MAX_LINKS, l->ifname);
			return n;
		}
		memset(e, 0, sizeof(*e));
		e->ifindex = l->ifindex;
		memcpy(e->ifname, l->ifname, sizeof(e->ifname));
		memcpy(e->addr, l->addr, sizeof(e->addr));
		e->addr_len = l->addr_len;
		e->present = 1;
		e->generation = st->generation;
		n += emit(NLMON_EV_CREATED, e, old_ifindex, cb, arg);
		if (carrier) {
			e->carrier = 1;
			n += emit(NLMON_EV_UP, e, 0, cb, arg);
		}
		return n;
	}
	e->generation = st->generation;
	/* No IFLA_ADDRESS (some partial notifications): not a change. */
	if (l->addr_len != 0 && (l->addr_len != e->addr_len ||
	    memcmp(l->addr, e->addr, l->addr_len) != 0)) {
		memset(e->addr, 0, sizeof(e->addr));
		memcpy(e->addr, l->addr, l->addr_len);
		e->addr_len = l->addr_len;
		n += emit(NLMON_EV_MAC_CHANGED, e, 0, cb, arg);
	}
	if (carrier != e->carrier) {
		e->carrier = carrier;
		n += emit(carrier ? NLMON_EV_UP : NLMON_EV_DOWN, e, 0, cb,
		    arg);
	}
	return n;
}

int
nlmon_state_update(struct nlmon_state *st, const struct nlmon_link *l,
    nlmon_event_cb cb, void *arg)
{
	struct nlmon_entry *e, tmp;

	if (l->msg_type == NLMSG_DONE)
		return sweep(st, cb, arg);
	/*
	 * AF_BRIDGE (and other families) report a port's bridge membership;
	 * an RTM_DELLINK there means "left the bridge", not "deleted".
	 */
	if (l->family != AF_UNSPEC)
		return 0;
	if (l->msg_type == RTM_NEWLINK)
		return update_new(st, l, cb, arg);
	if (l->msg_type != RTM_DELLINK)
		return 0;
	if ((e = find_index(st, l->ifindex)) != NULL)
		return entry_delete(e, cb, arg);
	/* Unknown to the table (full): still tell the caller. */
	memset(&tmp, 0, sizeof(tmp));
	tmp.ifindex = l->ifindex;
	memcpy(tmp.ifname, l->ifname, sizeof(tmp.ifname));
	return emit(NLMON_EV_DELETED, &tmp, 0, cb, arg);
}

struct feed_ctx {
	struct nlmon_state	*st;
	nlmon_event_cb		 cb;
	void			*arg;
	int			 n;
};

static void
feed_one(const struct nlmon_link *l, void *arg)
{
	struct feed_ctx *fc = arg;

	fc->n += nlmon_state_update(fc->st, l, fc->cb, fc->arg);
}

int
nlmon_feed(struct nlmon_state *st, const void *buf, size_t len,
    nlmon_event_cb cb, void *arg)
{
	struct feed_ctx fc = { st, cb, arg, 0 };
	int rc;

	if ((rc = nlmon_parse(buf, len, feed_one, &fc)) < 0)
		return rc;
	return fc.n;
}

/* ---- socket --------------------------------------------------------------- */

/* Large enough for a dump datagram (the kernel fills up to 32 KiB). */
#define NLMON_RCVBUF	32768

struct nlmon {
	int			fd;
	uint32_t		seq;
	int			resync;		/* dump wanted but not sent */
	struct nlmon_state	st;
	/* long-aligned receive buffer */
	long			buf[NLMON_RCVBUF / sizeof(long)];
};

struct nlmon *
nlmon_open(void)
{
	struct sockaddr_nl sa;
	struct nlmon *nl;
	int saved;

	if ((nl = calloc(1, sizeof(*nl))) == NULL)
		return NULL;
	nlmon_state_init(&nl->st);
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    NETLINK_ROUTE);
	if (nl->fd < 0) {
		saved = errno;
		log_warn("nlmon: socket(NETLINK_ROUTE)");
		goto fail;
	}
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	sa.nl_groups = RTMGRP_LINK;
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		saved = errno;
		log_warn("nlmon: bind(RTMGRP_LINK)");
		close(nl->fd);
		goto fail;
	}
	return nl;
fail:
	free(nl);
	errno = saved;
	return NULL;
}

void
nlmon_close(struct nlmon *nl)
{
	if (nl == NULL)
		return;
	close(nl->fd);
	nlmon_state_free(&nl->st);
	free(nl);
}

int
nlmon_fd(const struct nlmon *nl)
{
	return nl->fd;
}

int
nlmon_request_dump(struct nlmon *nl)
{
	struct {
		struct nlmsghdr		h;
		struct ifinfomsg	ifi;
	} req;
	struct sockaddr_nl sa;

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi));
	req.h.nlmsg_type = RTM_GETLINK;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = ++nl->seq;
	req.ifi.ifi_family = AF_UNSPEC;
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;	/* nl_pid 0: the kernel */
	if (sendto(nl->fd, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&sa,
	    sizeof(sa)) < 0) {
		if (errno == EBUSY) {
			/* A dump is still running: ask again after it. */
			nl->resync = 1;
			return 0;
		}
		log_warn("nlmon: RTM_GETLINK");
		return -errno;
	}
	nl->resync = 0;
	nlmon_state_dump_begin(&nl->st);
	return 0;
}

int
nlmon_read(struct nlmon *nl, nlmon_event_cb cb, void *arg)
{
	struct sockaddr_nl sa;
	struct iovec iov;
	struct msghdr msg;
	ssize_t len;
	int rc, n = 0;

	for (;;) {
		iov.iov_base = nl->buf;
		iov.iov_len = sizeof(nl->buf);
		memset(&msg, 0, sizeof(msg));
		msg.msg_name = &sa;
		msg.msg_namelen = sizeof(sa);
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		len = recvmsg(nl->fd, &msg, MSG_DONTWAIT);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			if (errno == ENOBUFS) {
				/* Overrun: events were lost, learn it all again. */
				log_warnx("nlmon: receive buffer overrun, "
				    "re-reading link state");
				nl->st.dumping = 0;
				nl->resync = 1;
				continue;
			}
			log_warn("nlmon: recvmsg");
			return -errno;
		}
		if (msg.msg_namelen != sizeof(sa) || sa.nl_pid != 0) {
			log_debug("nlmon: datagram not from the kernel dropped");
			continue;
		}
		if (msg.msg_flags & MSG_TRUNC) {
			log_warnx("nlmon: truncated datagram, re-reading link "
			    "state");
			nl->st.dumping = 0;
			nl->resync = 1;
			continue;
		}
		rc = nlmon_feed(&nl->st, nl->buf, (size_t)len, cb, arg);
		if (rc < 0) {
			log_warnx("nlmon: datagram of %zd bytes dropped: %s",
			    len, nlmon_strerror(rc));
			continue;
		}
		n += rc;
	}
	if (nl->resync && !nl->st.dumping && (rc = nlmon_request_dump(nl)) < 0)
		return rc;
	return n;
}
