/*
 * port_uneg.c - a port's unicast negotiation (IEEE 1588-2019 16.1): the
 * Signaling it receives and sends, the unicast service of a server
 * (unicast_listen 1) and the requests of a client (unicast_master_table).
 * The decisions are uneg.c's; this file wires them to the port, the
 * timers and netd.
 *
 * Every negotiation message goes back unicast to the address netd saw it
 * come from (RxFrame.source): netd sends only to peers it has heard or was
 * configured with (doc/design.md), and a client that sent us a REQUEST has
 * been heard.  The server serves only while the port is MASTER (as
 * linuxptp); each granted client gets Announce and Sync (+ Follow_Up) at
 * its granted period with its own sequenceIds, the unicastFlag set
 * (13.3.2.8), and a unicast Delay_Req is answered by a unicast Delay_Resp
 * (hybrid_e2e, which unicast_listen implies, as in linuxptp).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "clockd.h"
#include "log.h"
#include "ptp_tlv.h"
#include "uneg.h"

#define NS_PER_S		1000000000LL
#define UNEG_LOG_NONE		0x7F	/* logMessageInterval, 13.3.2.14 */
#define UNEG_SIG_MAX_TLVS	8	/* answered per Signaling received */
#define UNEG_BATCH		64
/* hybrid_e2e: the addresses of the last masters heard Announcing */
#define UNEG_HEARD		8
/* a port not MASTER looks again this often whether it is */
#define UNEG_IDLE_NS		(NS_PER_S / 4)

struct uneg_port {
	int			 server;	/* unicast_listen */
	struct uneg_srv		 srv;
	int			 client;	/* unicast_master_table */
	struct uneg_cli		 cli;
	/* P2P with the table's peer_address: unicast Pdelay_Req to it */
	int			 has_peer;
	struct uneg_peer	 peer;
	int8_t			 log_query;	/* logQueryInterval */
	int			 inhibit_mcast;	/* inhibit_multicast_service */
	int			 hybrid;	/* hybrid_e2e */
	struct env_timer	*t_srv, *t_cli;
	int64_t			 srv_at;	/* t_srv's expiry, clock_now() */
	/* hybrid_e2e slave: where each master's Announce came from */
	struct uneg_heard {
		struct ptp_port_identity pid;
		struct netd_addr addr;
		int64_t		 at;	/* 0: free */
	}			 heard[UNEG_HEARD];
	/* the service's counters as last logged, and when */
	struct uneg_srv_stats	 logged;
	int64_t			 logged_at;
};

static const struct ptp_port_identity uneg_all_ports = {
	{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, 0xffff,
};

static void uneg_ev_srv(void *arg);

/* The service's timer, at now + delay. */
static void
uneg_srv_arm(struct cport *p, int64_t now, int64_t delay)
{
	p->un->srv_at = now + delay;
	env_timer_arm(&p->c->env, p->un->t_srv, delay);
}
static void uneg_ev_cli(void *arg);

static enum netd_af
uneg_af_of(enum cfg_transport t)
{
	switch (t) {
	case CFG_TRANS_UDPV4:	return NETD_AF_IPV4;
	case CFG_TRANS_UDPV6:	return NETD_AF_IPV6;
	case CFG_TRANS_L2:	return NETD_AF_MAC;
	}
	return NETD_AF_NONE;
}

int
port_uneg_create(struct cport *p, const char *pn)
{
	struct cfg *cfg = p->c->cfg;
	const struct cfg_utab *tab = cfg_utab_port(cfg, pn);
	int listen = cfg_get_int(cfg, pn, "unicast_listen");
	int hybrid = cfg_get_int(cfg, pn, "hybrid_e2e");
	int inhibit = cfg_get_int(cfg, pn, "inhibit_multicast_service");
	uint32_t dur = (uint32_t)cfg_get_int(cfg, pn, "unicast_req_duration");
	struct uneg_limits lim;
	struct netd_addr *addrs = NULL;
	struct uneg_port *u;
	size_t i;

	/* every key read on every port (key_honesty.sh) */
	lim.max_clients = (unsigned)cfg_get_int(cfg, NULL,
	    "unicast_max_clients");
	lim.min_log_period = (int8_t)cfg_get_int(cfg, NULL,
	    "unicast_min_log_interval");
	lim.max_duration = (uint32_t)cfg_get_int(cfg, NULL,
	    "unicast_max_duration");
	p->un = NULL;
	if (!listen && tab == NULL && !hybrid && !inhibit)
		return 0;
	if ((u = calloc(1, sizeof(*u))) == NULL)
		return -1;
	p->un = u;
	u->hybrid = hybrid || listen;	/* linuxptp: listen implies it */
	u->inhibit_mcast = inhibit;
	if (listen) {
		if (uneg_srv_init(&u->srv, &lim) != 0)
			return -1;
		u->server = 1;
		if ((u->t_srv = env_timer_new(&p->c->env, uneg_ev_srv, p)) ==
		    NULL)
			return -1;
		uneg_srv_arm(p, clock_now(p->c), UNEG_IDLE_NS);
	}
	/* linuxptp uses peer_address only with delay_mechanism P2P. */
	if (tab != NULL && tab->has_peer && p->delay_mechanism == DM_P2P) {
		struct netd_addr pa;

		memset(&pa, 0, sizeof(pa));
		pa.family = uneg_af_of(tab->peer.transport);
		pa.len = tab->peer.len;
		memcpy(pa.b, tab->peer.b, tab->peer.len);
		uneg_peer_init(&u->peer, &pa);
		u->has_peer = 1;
	}
	if (tab != NULL && (tab->count > 0 || u->has_peer)) {
		if (tab->count > 0 &&
		    (addrs = calloc(tab->count, sizeof(*addrs))) == NULL)
			return -1;
		for (i = 0; i < tab->count; i++) {
			addrs[i].family = uneg_af_of(tab->addrs[i].transport);
			addrs[i].len = tab->addrs[i].len;
			memcpy(addrs[i].b, tab->addrs[i].b, tab->addrs[i].len);
		}
		i = (size_t)uneg_cli_init(&u->cli, addrs, (unsigned)tab->count,
		    dur);
		free(addrs);
		if (i != 0)
			return -1;
		u->client = 1;
		u->log_query = (int8_t)tab->log_query_interval;
		u->cli.log_announce = p->log_announce_interval;
		u->cli.log_sync = p->log_sync_interval;
		u->cli.log_delay = p->log_min_delay_req_interval;
		u->cli.want_delay_resp = p->delay_mechanism == DM_E2E;
		if ((u->t_cli = env_timer_new(&p->c->env, uneg_ev_cli, p)) ==
		    NULL)
			return -1;
		env_timer_arm(&p->c->env, u->t_cli, 0);
	}
	log_info("port %u (%s): unicast negotiation:%s%s%s%s%s",
	    p->identity.port_number, p->iface,
	    u->server ? " server" : "", u->client ? " client" : "",
	    u->has_peer ? " peer" : "",
	    u->hybrid ? " hybrid_e2e" : "",
	    u->inhibit_mcast ? " no multicast service" : "");
	return 0;
}

void
port_uneg_destroy(struct cport *p)
{
	struct uneg_port *u = p->un;

	if (u == NULL)
		return;
	if (u->t_srv != NULL)
		env_timer_free(&p->c->env, u->t_srv);
	if (u->t_cli != NULL)
		env_timer_free(&p->c->env, u->t_cli);
	uneg_srv_fini(&u->srv);
	uneg_cli_fini(&u->cli);
	free(u);
	p->un = NULL;
}

int
port_uneg_inhibit_multicast(const struct cport *p)
{
	return p->un != NULL && p->un->inhibit_mcast;
}

/* ---- sending ---- */

static int
uneg_send(struct cport *p, const struct netd_addr *to, struct ptp_msg *ev,
    struct ptp_msg *fu)
{
	uint8_t ebuf[256], fbuf[256];
	const struct env *e = &p->c->env;
	unsigned type = ev->hdr.message_type;
	int elen, flen = 0;

	ev->hdr.flags |= PTP_FLAG_UNICAST;
	if ((elen = ptp_msg_pack(ev, ebuf, sizeof(ebuf))) < 0)
		return -1;
	if (fu != NULL) {
		fu->hdr.flags |= PTP_FLAG_UNICAST;
		if ((flen = ptp_msg_pack(fu, fbuf, sizeof(fbuf))) < 0)
			return -1;
	}
	if (e->ops->send_frame(e->ctx, p->index, ptp_msg_is_event(type),
	    NETD_DEST_UNICAST, to, ebuf, (size_t)elen,
	    COOKIE(p->index, type, ev->hdr.sequence_id), fu != NULL,
	    fu != NULL ? fbuf : NULL, (size_t)flen) != 0)
		return -1;
	p->tx_msgs += fu != NULL ? 2 : 1;
	return 0;
}

/* One Signaling to to, for target, carrying n negotiation TLVs. */
static int
uneg_send_signaling(struct cport *p, const struct netd_addr *to,
    const struct ptp_port_identity *target, const struct ptp_uneg_tlv *t,
    unsigned n)
{
	uint8_t buf[PTP_SIGNALING_LEN + UNEG_SIG_MAX_TLVS *
	    (PTP_TLV_HDR_LEN + PTP_UNEG_GRANT_LEN)];
	struct ptp_msg m;
	unsigned i;
	int len;

	if (n == 0)
		return 0;
	msg_header(p, &m, PTP_MT_SIGNALING, p->seq_signaling++,
	    UNEG_LOG_NONE);
	m.hdr.flags |= PTP_FLAG_UNICAST;
	m.body.signaling.target_port_identity = *target;
	if ((len = ptp_msg_pack(&m, buf, sizeof(buf))) < 0)
		return -1;
	for (i = 0; i < n && i < UNEG_SIG_MAX_TLVS; i++)
		if ((len = ptp_tlv_append_uneg(buf, sizeof(buf), &t[i])) < 0) {
			log_warnx("port %u: cannot pack a negotiation TLV: %s",
			    p->identity.port_number, ptp_strerror(len));
			return -1;
		}
	if (env_send_frame(&p->c->env, p->index, 0, NETD_DEST_UNICAST, to,
	    buf, (size_t)len, COOKIE(p->index, PTP_MT_SIGNALING,
	    m.hdr.sequence_id), 0) != 0)
		return -1;
	p->tx_msgs++;
	return 0;
}

/* ---- server: the unicast service ---- */

static void
uneg_send_announce(struct cport *p, struct uneg_client *cl)
{
	struct uneg_grant *g = &cl->g[UNEG_ANNOUNCE];
	struct ptp_msg m;

	master_announce(p, &m, g->seq++, g->log_period);
	(void)uneg_send(p, &cl->addr, &m, NULL);
}

static void
uneg_send_sync(struct cport *p, struct uneg_client *cl)
{
	struct uneg_grant *g = &cl->g[UNEG_SYNC];
	struct ptp_msg m, fu;
	uint16_t seq = g->seq++;

	msg_header(p, &m, PTP_MT_SYNC, seq, g->log_period);
	if (!p->c->dds.two_step) {
		(void)uneg_send(p, &cl->addr, &m, NULL);
		return;
	}
	/* Two-step: netd writes t1 into the Follow_Up (port_master.c). */
	msg_header(p, &fu, PTP_MT_FOLLOW_UP, seq, g->log_period);
	(void)uneg_send(p, &cl->addr, &m, &fu);
}

static void
uneg_serve(struct cport *p, enum uneg_kind k, int64_t now)
{
	struct uneg_srv *s = &p->un->srv;
	uint32_t due[UNEG_BATCH];
	unsigned n, i;

	do {
		n = uneg_srv_due(s, k, now, due, UNEG_BATCH);
		for (i = 0; i < n; i++) {
			if (k == UNEG_ANNOUNCE)
				uneg_send_announce(p, &s->c[due[i]]);
			else
				uneg_send_sync(p, &s->c[due[i]]);
		}
	} while (n == UNEG_BATCH);
}

/* A line when the counters changed, at most one a second (a flood). */
static void
uneg_log_stats(struct cport *p, int64_t now)
{
	struct uneg_srv_stats *st = &p->un->srv.st;

	if (memcmp(st, &p->un->logged, sizeof(*st)) == 0 ||
	    (p->un->logged_at != 0 && now - p->un->logged_at < NS_PER_S))
		return;
	p->un->logged = *st;
	p->un->logged_at = now;
	log_info("port %u (%s): unicast service: %u clients, %" PRIu64
	    " granted, %" PRIu64 " refused (%" PRIu64 " table full, %" PRIu64
	    " period, %" PRIu64 " duration), %" PRIu64 " cancelled, %" PRIu64
	    " unknown cancels, %" PRIu64 " expired",
	    p->identity.port_number, p->iface, p->un->srv.nclients,
	    st->granted, st->refused, st->refused_full, st->refused_period,
	    st->refused_duration, st->cancelled, st->unknown_cancels,
	    st->expired);
}

static void
uneg_ev_srv(void *arg)
{
	struct cport *p = arg;
	struct uneg_srv *s = &p->un->srv;
	int64_t now = clock_now(p->c), next, t;

	uneg_srv_expire(s, now);
	uneg_log_stats(p, now);
	if (p->state != PS_MASTER || !nbr_as_capable(&p->nbr)) {
		uneg_srv_arm(p, now, UNEG_IDLE_NS);
		return;
	}
	uneg_serve(p, UNEG_SYNC, now);
	uneg_serve(p, UNEG_ANNOUNCE, now);
	next = now + NS_PER_S;
	if ((t = uneg_srv_next_due(s, UNEG_SYNC)) < next)
		next = t;
	if ((t = uneg_srv_next_due(s, UNEG_ANNOUNCE)) < next)
		next = t;
	uneg_srv_arm(p, now, next > now ? next - now : 0);
}

/* ---- client: the requests ---- */

static void
uneg_ev_cli(void *arg)
{
	struct cport *p = arg;
	struct uneg_port *u = p->un;
	struct uneg_cli *c = &u->cli;
	struct ptp_uneg_tlv t[3];
	unsigned i, n, *cancel;
	int64_t now = clock_now(p->c);
	int slave = p->state == PS_SLAVE || p->state == PS_UNCALIBRATED;

	env_timer_arm(&p->c->env, u->t_cli, port_interval_ns(u->log_query));
	if (p->state == PS_INITIALIZING || p->state == PS_FAULTY ||
	    p->state == PS_DISABLED)
		return;
	/* ptp4l asks the master the BMCA chose for Sync and Delay_Resp at
	 * its next query, and cancels them at one it left. */
	if ((cancel = calloc(c->n, sizeof(*cancel))) != NULL) {
		n = uneg_cli_select(c, slave ? &p->c->pds.parent_port_identity :
		    NULL, cancel);
		for (i = 0; i < n; i++) {
			struct uneg_master *m = &c->m[cancel[i]];
			unsigned k = uneg_cli_cancels(c, cancel[i], t);

			(void)uneg_send_signaling(p, &m->addr, m->have_pid ?
			    &m->pid : &uneg_all_ports, t, k);
		}
		free(cancel);
	}
	for (i = 0; i < c->n; i++) {
		struct uneg_master *m = &c->m[i];

		n = uneg_cli_tick(c, i, now, t);
		(void)uneg_send_signaling(p, &m->addr, m->have_pid ? &m->pid :
		    &uneg_all_ports, t, n);
	}
	/* The peer's PDELAY_RESP grant, asked at the rate the port sends
	 * its Pdelay_Req (linuxptp's too). */
	if (u->has_peer) {
		n = uneg_peer_tick(&u->peer, p->log_min_pdelay_req_interval,
		    c->duration, now, t);
		(void)uneg_send_signaling(p, &u->peer.addr, &u->peer.pid, t, n);
	}
}

/* ---- received ---- */

/* A PDELAY_RESP grant from the peer: its period becomes the port's
 * logMinPdelayReqInterval (as linuxptp), a refusal is logged. */
static void
uneg_peer_granted_log(struct cport *p, const struct ptp_uneg_tlv *g)
{
	if (g->duration == 0) {
		log_warnx("port %u (%s): unicast Pdelay_Resp refused by the "
		    "peer", p->identity.port_number, p->iface);
		return;
	}
	if (g->log_period != p->log_min_pdelay_req_interval &&
	    g->log_period >= -10 && g->log_period <= 10) {
		log_info("port %u (%s): the peer grants Pdelay_Resp every "
		    "2^%d s", p->identity.port_number, p->iface,
		    g->log_period);
		p->log_min_pdelay_req_interval = g->log_period;
	}
}

static int
uneg_target_ok(const struct cport *p, const struct ptp_port_identity *t)
{
	/* 13.12.1: ours, or all ports (clockIdentity and portNumber each
	 * ours or all ones). */
	return (memcmp(t->clock_identity, p->identity.clock_identity,
	    PTP_CLOCK_ID_LEN) == 0 || memcmp(t->clock_identity,
	    uneg_all_ports.clock_identity, PTP_CLOCK_ID_LEN) == 0) &&
	    (t->port_number == p->identity.port_number ||
	    t->port_number == 0xffff);
}

static int
uneg_src(const struct netd_rx *f, struct netd_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (f->src_family == NETD_AF_NONE || f->src == NULL ||
	    f->src_len == 0 || f->src_len > sizeof(a->b))
		return -1;
	a->family = f->src_family;
	a->len = (uint8_t)f->src_len;
	memcpy(a->b, f->src, f->src_len);
	return 0;
}

void
port_uneg_rx(struct cport *p, const struct ptp_msg *m, const struct netd_rx *f)
{
	struct uneg_port *u = p->un;
	const struct ptp_port_identity *src = &m->hdr.source_port_identity;
	struct ptp_uneg_tlv in, out[UNEG_SIG_MAX_TLVS];
	struct ptp_tlv_iter it;
	struct ptp_tlv tlv;
	struct netd_addr from;
	int64_t now = clock_now(p->c), t = INT64_MAX, tg;
	unsigned i, n = 0;

	if (u == NULL || (!u->server && !u->client))
		return;
	if (!uneg_target_ok(p, &m->body.signaling.target_port_identity) ||
	    uneg_src(f, &from) != 0)
		return;
	if (u->server)
		uneg_srv_heard(&u->srv, src, &from);
	/* ptp_msg_parse() checked every negotiation TLV. */
	ptp_tlv_iter_msg(&it, m);
	while (ptp_tlv_next(&it, &tlv) > 0 && n < UNEG_SIG_MAX_TLVS) {
		if (!ptp_tlv_is_uneg(tlv.type) ||
		    ptp_tlv_uneg_parse(&tlv, &in) != 0)
			continue;
		switch (in.type) {
		case PTP_TLV_REQUEST_UNICAST_TRANSMISSION:
			/* Not a server: no answer (linuxptp's too), so that
			 * we amplify nothing. */
			if (u->server)
				(void)uneg_srv_request(&u->srv, src, &from,
				    &in, now, &out[n++]);
			break;
		case PTP_TLV_GRANT_UNICAST_TRANSMISSION:
			if (u->has_peer && uneg_peer_grant(&u->peer, &from,
			    src, &in, now)) {
				uneg_peer_granted_log(p, &in);
				break;
			}
			if (u->client &&
			    uneg_cli_grant(&u->cli, &from, src, &in, now) >= 0 &&
			    in.duration == 0)
				log_warnx("port %u (%s): unicast %s refused",
				    p->identity.port_number, p->iface,
				    ptp_msg_type_name(in.message_type));
			break;
		case PTP_TLV_CANCEL_UNICAST_TRANSMISSION:
			/* From one of our masters or our peer: it stops
			 * serving us; otherwise a client of ours stops. */
			if (u->has_peer && uneg_peer_cancel(&u->peer, &from,
			    &in, &out[n]))
				n++;
			else if (u->client &&
			    uneg_cli_cancel(&u->cli, &from, &in, &out[n]) >= 0)
				n++;
			else if (u->server)
				(void)uneg_srv_cancel(&u->srv, src, &from, &in,
				    &out[n++]);
			break;
		default:
			break;	/* ACKNOWLEDGE_CANCEL: nothing to do */
		}
	}
	if (n > 0) {
		(void)uneg_send_signaling(p, &from, src, out, n);
		/* A new grant may be due before the timer's next run (a
		 * grant on a running grid is not: a flood of requests does
		 * not run the service once each). */
		for (i = 0; u->server && p->state == PS_MASTER && i < n; i++)
			if (out[i].type == PTP_TLV_GRANT_UNICAST_TRANSMISSION &&
			    out[i].duration != 0 &&
			    (out[i].message_type == PTP_MT_SYNC ||
			    out[i].message_type == PTP_MT_ANNOUNCE) &&
			    (tg = uneg_grid_next(now, out[i].log_period)) < t)
				t = tg;
		if (t < u->srv_at)
			uneg_srv_arm(p, now, t > now ? t - now : 0);
	}
	if (u->server)
		uneg_log_stats(p, now);
}

int
port_uneg_rx_delay_req(struct cport *p, const struct ptp_msg *req,
    const struct ptp_timestamp *t4, const struct netd_rx *f)
{
	struct netd_addr from;
	struct ptp_msg m;

	/* hybrid_e2e: a unicast Delay_Req is answered unicast. */
	if (p->un == NULL || !p->un->hybrid ||
	    !(req->hdr.flags & PTP_FLAG_UNICAST) || uneg_src(f, &from) != 0)
		return 0;
	if (p->un->server)
		uneg_srv_heard(&p->un->srv, &req->hdr.source_port_identity,
		    &from);
	if (p->state != PS_MASTER || p->delay_mechanism != DM_E2E)
		return 1;
	msg_header(p, &m, PTP_MT_DELAY_RESP, req->hdr.sequence_id,
	    UNEG_LOG_NONE);
	m.hdr.correction = req->hdr.correction;	/* 11.3.2 c */
	m.body.delay_resp.receive_timestamp = *t4;
	m.body.delay_resp.requesting_port_identity =
	    req->hdr.source_port_identity;
	(void)uneg_send(p, &from, &m, NULL);
	return 1;
}

void
port_uneg_peers_reset(struct cport *p)
{
	struct uneg_port *u = p->un;

	/* netd closes the connection on a unicast frame to an address not
	 * in its peer table (doc/design.md); after a reopen or a new netd
	 * the table holds only the configured masters. */
	if (u == NULL)
		return;
	if (u->server)
		uneg_srv_unheard(&u->srv);
	memset(u->heard, 0, sizeof(u->heard));
}

void
port_uneg_heard(struct cport *p, const struct ptp_msg *m,
    const struct netd_rx *f)
{
	struct uneg_port *u = p->un;
	struct uneg_heard *h, *slot = NULL;
	struct netd_addr from;
	unsigned i;

	if (u == NULL || !u->hybrid || uneg_src(f, &from) != 0)
		return;
	/* The entry of this master, or a free one, or the oldest. */
	for (i = 0; i < UNEG_HEARD; i++) {
		h = &u->heard[i];
		if (h->at != 0 &&
		    ptp_port_identity_equal(&h->pid, &m->hdr.source_port_identity)) {
			slot = h;
			break;
		}
		if (slot == NULL ||
		    (slot->at != 0 && (h->at == 0 || h->at < slot->at)))
			slot = h;
	}
	slot->pid = m->hdr.source_port_identity;
	slot->addr = from;
	slot->at = clock_now(p->c);
}

int
port_uneg_delay_req_to(struct cport *p, struct netd_addr *to)
{
	const struct ptp_port_identity *par = &p->c->pds.parent_port_identity;
	struct uneg_port *u = p->un;
	struct uneg_cli *c;
	unsigned i;

	if (u == NULL)
		return 0;
	/* A client sends its Delay_Req to the master it is timed by. */
	c = &u->cli;
	for (i = 0; u->client && i < c->n; i++)
		if (c->m[i].have_pid && ptp_port_identity_equal(&c->m[i].pid,
		    par)) {
			*to = c->m[i].addr;
			return 1;
		}
	/* hybrid_e2e (multicast Sync, unicast delay): to the address the
	 * parent's Announce came from; multicast until one has. */
	for (i = 0; u->hybrid && i < UNEG_HEARD; i++)
		if (u->heard[i].at != 0 &&
		    ptp_port_identity_equal(&u->heard[i].pid, par)) {
			*to = u->heard[i].addr;
			return 1;
		}
	return 0;
}

int
port_uneg_pdelay_req_to(struct cport *p, struct netd_addr *to)
{
	/* To the peer_address whether or not it granted (linuxptp's
	 * Pdelay_Req go there from the start too); netd has it pinned. */
	if (p->un == NULL || !p->un->has_peer)
		return 0;
	*to = p->un->peer.addr;
	return 1;
}

int
port_uneg_rx_pdelay_req(struct cport *p, const struct ptp_msg *req,
    const struct ptp_timestamp *t2, const struct netd_rx *f)
{
	struct netd_addr from;
	struct ptp_msg m, fu;
	int two;

	/* A unicast Pdelay_Req is answered unicast, granted or not (as
	 * linuxptp: a PDELAY_RESP grant settles only the rate); netd heard
	 * the requester, so it may be sent to. */
	if (p->un == NULL || !(req->hdr.flags & PTP_FLAG_UNICAST) ||
	    uneg_src(f, &from) != 0)
		return 0;
	if (p->un->server)
		uneg_srv_heard(&p->un->srv, &req->hdr.source_port_identity,
		    &from);
	if (p->delay_mechanism != DM_P2P)
		return 1;
	two = responder_pdelay_resp(p, req, t2, &m, &fu);
	(void)uneg_send(p, &from, &m, two ? &fu : NULL);
	return 1;
}

/* ---- ptpctl (ctlsrv.c): read-only views, NULL when not configured ---- */

const struct uneg_srv *
port_uneg_srv(const struct cport *p)
{
	return p->un != NULL && p->un->server ? &p->un->srv : NULL;
}

const struct uneg_cli *
port_uneg_cli(const struct cport *p)
{
	return p->un != NULL && p->un->client ? &p->un->cli : NULL;
}

const struct uneg_peer *
port_uneg_peer(const struct cport *p)
{
	return p->un != NULL && p->un->has_peer ? &p->un->peer : NULL;
}
