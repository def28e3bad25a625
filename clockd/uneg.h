/*
 * uneg.h - unicast negotiation, IEEE 1588-2019 16.1: the decisions of a
 * grantor (server) and of a grantee (client), without I/O.  Time is passed
 * in (monotonic ns); the glue (port_uneg.c) sends what these return.
 *
 * Server: a table of grants keyed by (client portIdentity, address,
 * messageType), at most max_clients clients, found in O(1) by hash.  A
 * request within the limits is granted for min(requested, max_duration)
 * seconds at the period asked; one outside them is refused with a GRANT
 * whose durationField is 0 (16.1.4.2): a period faster than
 * min_log_period, a duration of 0, or a new client beyond max_clients.
 * linuxptp grants anything whose |period| <= 30, so by default the limits
 * only bound what a flood can take.  A grant ends at its expiry or at a
 * CANCEL (answered with ACKNOWLEDGE_CANCEL whether or not it existed:
 * 16.1.4.3 asks for an answer, and an unknown cancel changes nothing).
 * The master code asks which clients are due a message of a type now;
 * each grant's sends sit on a grid of its period, so the clients of one
 * period are served in one wake-up.
 *
 * Client: one entry per unicast master (the port's unicast master table,
 * doc/design.md), with linuxptp's four states: WAIT (ask for Announce at
 * every query), HAVE_ANN (renew), NEED_SYDY (the BMCA chose it: ask for
 * Sync and Delay_Resp), HAVE_SYDY (renew).  Grants are renewed at 3/4 of
 * the shortest duration granted (as linuxptp), and asked again at every
 * query until a grant comes (linuxptp asks once: a lost renewal lets its
 * grants run out); a refusal sends the entry back to WAIT, and so does an
 * Announce grant that expired unrenewed.
 */
#ifndef PTPSEP_CLOCKD_UNEG_H
#define PTPSEP_CLOCKD_UNEG_H

#include <stddef.h>
#include <stdint.h>

#include "netd_types.h"
#include "ptp_msg.h"
#include "ptp_tlv.h"

/* The negotiable messageTypes as small indexes. */
enum uneg_kind {
	UNEG_ANNOUNCE,
	UNEG_SYNC,
	UNEG_DELAY_RESP,
	UNEG_PDELAY_RESP,
	UNEG_NKINDS,
};

/* enum ptp_msg_type -> kind, -1 if not negotiable; and back. */
int	uneg_kind_of(unsigned msg_type);
unsigned uneg_msg_type(enum uneg_kind k);

int	uneg_addr_equal(const struct netd_addr *a, const struct netd_addr *b);
/* The first point at or after now (ns) of a period's grid: where a new
 * grant's sends fall. */
int64_t	uneg_grid_next(int64_t now, int8_t log_period);

/* ---- server ---- */

struct uneg_limits {
	unsigned	 max_clients;	/* unicast_max_clients */
	int8_t		 min_log_period; /* unicast_min_log_interval */
	uint32_t	 max_duration;	/* unicast_max_duration, s */
};

struct uneg_grant {
	int64_t		 expires;	/* ns; 0: no grant */
	int64_t		 next_due;	/* ns: the next send */
	int8_t		 log_period;
	uint16_t	 seq;		/* the client's own sequenceId */
};

struct uneg_client {
	struct ptp_port_identity pid;
	struct netd_addr addr;
	struct uneg_grant g[UNEG_NKINDS];
	int32_t		 next;		/* hash chain or free list, -1 */
	uint8_t		 used;
	/* netd has this address in its peer table: it sends nothing to an
	 * address it lost (a port reopen, a new netd) until heard again */
	uint8_t		 heard;
};

struct uneg_srv_stats {
	uint64_t	 granted, refused, cancelled, unknown_cancels, expired;
	uint64_t	 refused_full, refused_period, refused_duration;
};

struct uneg_srv {
	struct uneg_limits lim;
	struct uneg_client *c;		/* lim.max_clients slots */
	int32_t		*bucket;	/* nbucket heads, -1 */
	uint32_t	 nbucket;	/* a power of two */
	int32_t		 free;		/* free list head */
	unsigned	 nclients;
	struct uneg_srv_stats st;
};

/* 0, or -1 (no memory, or max_clients 0). */
/* The grant table's hash of (portIdentity, address): exported for
 * test_uneg, which checks how a fleet's keys spread. */
uint32_t uneg_key_hash(const struct ptp_port_identity *pid,
	    const struct netd_addr *a);
int	uneg_srv_init(struct uneg_srv *s, const struct uneg_limits *lim);
void	uneg_srv_fini(struct uneg_srv *s);

/*
 * A REQUEST (req) from pid at addr: fills *grant with the GRANT to send
 * back (durationField 0: refused).  Returns 1 when granted, 0 refused.
 */
int	uneg_srv_request(struct uneg_srv *s, const struct ptp_port_identity *pid,
	    const struct netd_addr *addr, const struct ptp_uneg_tlv *req,
	    int64_t now, struct ptp_uneg_tlv *grant);
/*
 * A CANCEL: ends the grant if there is one (1) or not (0); *ack is the
 * ACKNOWLEDGE_CANCEL to send either way.
 */
int	uneg_srv_cancel(struct uneg_srv *s, const struct ptp_port_identity *pid,
	    const struct netd_addr *addr, const struct ptp_uneg_tlv *cancel,
	    struct ptp_uneg_tlv *ack);
/* Forgets expired grants, and clients with none left. */
void	uneg_srv_expire(struct uneg_srv *s, int64_t now);
/*
 * Clients due a message of kind k at now: up to max of their indexes into
 * out, each grant moved to its next slot on its period's grid.  Returns
 * how many.  Expired grants are not served, nor unheard clients (their
 * slots pass).
 */
unsigned uneg_srv_due(struct uneg_srv *s, enum uneg_kind k, int64_t now,
	    uint32_t *out, unsigned max);
/* The earliest next_due of kind k (INT64_MAX: none). */
int64_t	uneg_srv_next_due(const struct uneg_srv *s, enum uneg_kind k);
/*
 * netd's peer table was reset (a port reopen, a reconnection): no client
 * is served until uneg_srv_heard() says netd heard it again (its
 * Signaling or Delay_Req); their grants run on meanwhile.
 */
void	uneg_srv_unheard(struct uneg_srv *s);
void	uneg_srv_heard(struct uneg_srv *s, const struct ptp_port_identity *pid,
	    const struct netd_addr *addr);
/* 1 when pid at addr holds a live grant of kind k. */
int	uneg_srv_has(const struct uneg_srv *s,
	    const struct ptp_port_identity *pid, const struct netd_addr *addr,
	    enum uneg_kind k, int64_t now);

/* ---- client ---- */

enum uneg_cstate {
	UNEG_WAIT,
	UNEG_HAVE_ANN,
	UNEG_NEED_SYDY,
	UNEG_HAVE_SYDY,
};

struct uneg_master {
	struct netd_addr addr;
	enum uneg_cstate state;
	struct ptp_port_identity pid;	/* from its Announce grant */
	int		 have_pid;
	unsigned	 granted;	/* 1 << kind */
	int64_t		 expires[UNEG_NKINDS];
	int64_t		 renew_at;	/* 0: not set */
	int		 renewing;	/* asked, no grant since */
	int8_t		 log_period[UNEG_NKINDS];	/* as granted */
};

struct uneg_cli {
	struct uneg_master *m;
	unsigned	 n;
	uint32_t	 duration;	/* unicast_req_duration, s */
	int8_t		 log_announce, log_sync, log_delay;
	int		 want_delay_resp;	/* E2E: Delay_Resp grants */
	uint64_t	 refusals, rogue;
};

/* The masters' addresses; 0 or -1 (no memory). */
int	uneg_cli_init(struct uneg_cli *c, const struct netd_addr *addrs,
	    unsigned n, uint32_t duration);
void	uneg_cli_fini(struct uneg_cli *c);
/* The entry of the master at addr, or -1. */
int	uneg_cli_find(const struct uneg_cli *c, const struct netd_addr *addr);
/*
 * The query timer (logQueryInterval) fired: the REQUESTs (at most 3) to
 * send to master i now.
 */
unsigned uneg_cli_tick(struct uneg_cli *c, unsigned i, int64_t now,
	    struct ptp_uneg_tlv *out);
/*
 * A GRANT from src at addr: the entry's index, or -1 (not in the table:
 * counted as rogue).  A refusal (durationField 0) sends it to WAIT.
 */
int	uneg_cli_grant(struct uneg_cli *c, const struct netd_addr *addr,
	    const struct ptp_port_identity *src, const struct ptp_uneg_tlv *g,
	    int64_t now);
/*
 * A CANCEL from the master at addr: the entry's index with *ack to send,
 * or -1 (not ours).
 */
int	uneg_cli_cancel(struct uneg_cli *c, const struct netd_addr *addr,
	    const struct ptp_uneg_tlv *cancel, struct ptp_uneg_tlv *ack);
/*
 * The BMCA's parent is parent (NULL: none).  The chosen master goes to
 * NEED_SYDY; a master that held Sync and Delay_Resp and is no longer
 * chosen drops them: its index is put in cancel_out (at most n) for the
 * glue to send CANCELs.  Returns how many.
 */
unsigned uneg_cli_select(struct uneg_cli *c,
	    const struct ptp_port_identity *parent, unsigned *cancel_out);
/* The CANCELs (at most 2) for master i's Sync and Delay_Resp. */
unsigned uneg_cli_cancels(const struct uneg_cli *c, unsigned i,
	    struct ptp_uneg_tlv *out);

/* ---- client: the peer delay responder (peer_address) ---- */

/*
 * A P2P port whose unicast master table names a peer_address asks that
 * peer for PDELAY_RESP grants (16.1: Pdelay_Resp is negotiable) at its
 * logMinPdelayReqInterval and sends its Pdelay_Req unicast to it, granted
 * or not (as linuxptp: the grant only settles the rate).  A grant is
 * renewed at 3/4 of its duration; without one (none yet, refused,
 * expired, cancelled) it is asked again at every query.
 */
struct uneg_peer {
	struct netd_addr addr;
	struct ptp_port_identity pid;	/* from its grant: the target */
	int		 have_pid;
	int64_t		 expires;	/* ns; 0: no grant */
	int64_t		 renew_at;	/* ns; 0: ask at the next query */
	int8_t		 log_period;	/* as granted */
	uint64_t	 grants, refusals, cancels;
};

void	uneg_peer_init(struct uneg_peer *pe, const struct netd_addr *addr);
/* The query timer fired: 1 with the REQUEST in *out when one is due. */
unsigned uneg_peer_tick(struct uneg_peer *pe, int8_t log_period,
	    uint32_t duration, int64_t now, struct ptp_uneg_tlv *out);
/*
 * A GRANT of PDELAY_RESP from addr: 1 when it is the peer's (a refusal,
 * durationField 0, counted), 0 when addr is not the peer.
 */
int	uneg_peer_grant(struct uneg_peer *pe, const struct netd_addr *addr,
	    const struct ptp_port_identity *src, const struct ptp_uneg_tlv *g,
	    int64_t now);
/*
 * A CANCEL of PDELAY_RESP from addr: 1 with *ack to send when it is the
 * peer's (asked again at the next query), 0 when not.
 */
int	uneg_peer_cancel(struct uneg_peer *pe, const struct netd_addr *addr,
	    const struct ptp_uneg_tlv *cancel, struct ptp_uneg_tlv *ack);
/* 1 while the peer's grant lasts. */
int	uneg_peer_granted(const struct uneg_peer *pe, int64_t now);

#endif /* PTPSEP_CLOCKD_UNEG_H */
