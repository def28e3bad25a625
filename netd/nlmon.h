/*
 * nlmon.h - link monitoring over rtnetlink for ptp-netd.
 *
 * An rtnetlink socket subscribed to RTMGRP_LINK; the caller polls
 * nlmon_fd() and calls nlmon_read() when it is readable.  netd learns the
 * initial state with nlmon_request_dump() (RTM_GETLINK) and then gets one
 * event per change that matters to a PTP port:
 *
 *   NLMON_EV_CREATED      an interface appeared (from the dump, or created,
 *                         or re-created: old_ifindex then holds the index
 *                         the same name had before, the port must reopen)
 *   NLMON_EV_UP           carrier: IFF_UP, IFF_RUNNING and operstate up
 *   NLMON_EV_DOWN         carrier lost or administratively down
 *   NLMON_EV_DELETED      the interface is gone (or renamed away)
 *   NLMON_EV_MAC_CHANGED  IFLA_ADDRESS changed (the L2 source address)
 *
 * The bytes are parsed as untrusted: nlmon_parse() is pure, checks every
 * length, and rejects a malformed datagram as a whole (nothing of it is
 * delivered) with one of the NLMON_E_* codes.
 */
#ifndef PTPSEP_NETD_NLMON_H
#define PTPSEP_NETD_NLMON_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#define NLMON_ADDR_MAX		32	/* MAX_ADDR_LEN of the kernel */
#define NLMON_MAX_LINKS		1024	/* links tracked; beyond, forgotten */

/* One RTM_NEWLINK / RTM_DELLINK, or the NLMSG_DONE that ends a dump. */
struct nlmon_link {
	uint16_t	msg_type;	/* RTM_NEWLINK, RTM_DELLINK, NLMSG_DONE */
	uint8_t		family;		/* ifi_family: AF_UNSPEC for links */
	int		ifindex;
	unsigned	flags;		/* ifi_flags (IFF_*) */
	char		ifname[IFNAMSIZ];
	int		has_operstate;
	uint8_t		operstate;	/* IF_OPER_* */
	uint8_t		addr[NLMON_ADDR_MAX];
	size_t		addr_len;	/* 0: no IFLA_ADDRESS */
};

/* Why a datagram was rejected; nlmon_parse() returns the negative. */
enum nlmon_err {
	NLMON_E_SHORT_HDR = 1,	/* bytes left that cannot hold a nlmsghdr */
	NLMON_E_MSG_LEN,	/* nlmsg_len < header or beyond the buffer */
	NLMON_E_SHORT_ERRMSG,	/* NLMSG_ERROR without its error code */
	NLMON_E_KERNEL,		/* NLMSG_ERROR carrying an error */
	NLMON_E_SHORT_IFINFO,	/* link message shorter than ifinfomsg */
	NLMON_E_IFINDEX,	/* ifi_index <= 0 */
	NLMON_E_ATTR_LEN,	/* rta_len < 4 or beyond the message */
	NLMON_E_DUP_ATTR,	/* IFNAME, ADDRESS or OPERSTATE twice */
	NLMON_E_IFNAME,		/* empty, too long or not NUL-terminated */
	NLMON_E_NO_IFNAME,	/* link message without IFLA_IFNAME */
	NLMON_E_ADDR,		/* IFLA_ADDRESS empty or > 32 octets */
	NLMON_E_OPERSTATE,	/* IFLA_OPERSTATE not one octet or unknown */
};

enum nlmon_event_type {
	NLMON_EV_CREATED,
	NLMON_EV_UP,
	NLMON_EV_DOWN,
	NLMON_EV_DELETED,
	NLMON_EV_MAC_CHANGED,
};

struct nlmon_event {
	enum nlmon_event_type	type;
	int			ifindex;
	int			old_ifindex;	/* CREATED: 0 if never seen */
	char			ifname[IFNAMSIZ];
	uint8_t			addr[NLMON_ADDR_MAX];
	size_t			addr_len;
	int			carrier;
};

typedef void (*nlmon_link_cb)(const struct nlmon_link *l, void *arg);
typedef void (*nlmon_event_cb)(const struct nlmon_event *ev, void *arg);

/* ---- pure: parsing and the link table -------------------------------- */

/*
 * Parses one datagram.  Returns the number of link messages passed to cb
 * (NLMSG_DONE included), or -NLMON_E_* with cb never called.  buf needs no
 * alignment.
 */
int	nlmon_parse(const void *buf, size_t len, nlmon_link_cb cb, void *arg);
const char *nlmon_strerror(int err);	/* err: NLMON_E_* or its negative */
const char *nlmon_event_name(enum nlmon_event_type t);

struct nlmon_entry;
struct nlmon_state {
	struct nlmon_entry	*v;
	size_t			 n, cap;
	int			 dumping;	/* a dump is being received */
	unsigned		 generation;	/* marks entries seen in it */
};

void	nlmon_state_init(struct nlmon_state *st);
void	nlmon_state_free(struct nlmon_state *st);
/* Call before the replies of a dump arrive (nlmon_request_dump does). */
void	nlmon_state_dump_begin(struct nlmon_state *st);
/* Turns one parsed message into events.  Returns the number delivered. */
int	nlmon_state_update(struct nlmon_state *st, const struct nlmon_link *l,
	    nlmon_event_cb cb, void *arg);
/* nlmon_parse() + nlmon_state_update(): events or -NLMON_E_*. */
int	nlmon_feed(struct nlmon_state *st, const void *buf, size_t len,
	    nlmon_event_cb cb, void *arg);

/* ---- the socket -------------------------------------------------------- */

struct nlmon;

struct nlmon	*nlmon_open(void);	/* NULL with errno, logged */
void		 nlmon_close(struct nlmon *nl);
int		 nlmon_fd(const struct nlmon *nl);
/* Sends RTM_GETLINK/NLM_F_DUMP; the replies arrive through nlmon_read(). */
int		 nlmon_request_dump(struct nlmon *nl);
/*
 * Reads every datagram queued (non-blocking) and delivers the events.
 * Returns the number of events, or a negative errno if the socket failed.
 * A malformed datagram is logged and dropped; an overrun (ENOBUFS) starts
 * a new dump so that the state is learnt again.
 */
int		 nlmon_read(struct nlmon *nl, nlmon_event_cb cb, void *arg);

#endif /* PTPSEP_NETD_NLMON_H */
