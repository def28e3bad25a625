/*
 * port.c - one PTP port of clockd: its state machine (fsm.c), its timers
 * and the dispatch of received messages (IEEE 1588-2019 9.2, 9.5).
 *
 * The state machine decides; this file only starts and stops the timers
 * each state needs and hands each received message to the role that
 * handles it (port_master.c, port_slave.c).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "clockd.h"
#include "log.h"
#include "pmcsock.h"

static void port_ev_announce(void *arg);
static void port_ev_sync(void *arg);
static void port_ev_delay(void *arg);
static void port_ev_pdelay(void *arg);
static void port_ev_rx_timeout(void *arg);
static void port_ev_qual(void *arg);
static void port_ev_fault(void *arg);
static void port_ev_sync_rx(void *arg);

int64_t
port_interval_ns(int8_t log_interval)
{
	if (log_interval >= 0)
		return 1000000000LL << (log_interval > 20 ? 20 : log_interval);
	return 1000000000LL >> (-log_interval > 30 ? 30 : -log_interval);
}

static void
port_arm(struct cport *p, struct env_timer *t, int64_t ns)
{
	env_timer_arm(&p->c->env, t, ns);
}

/*
 * A random time in [0, 2 x interval), uniformly: the spacing of Delay_Req
 * messages (IEEE 1588-2019 9.5.11.2), whose mean is the interval of
 * logMinDelayReqInterval (7.7.2.4).
 */
int64_t
port_random_ns(int64_t interval)
{
	return (int64_t)((double)random() / RAND_MAX * 2.0 * (double)interval);
}

const char *
port_state_name(const struct cport *p)
{
	return fsm_state_name(p->state);
}

int
port_create(struct clockd *c, struct cport *p, unsigned index,
    const char *iface, enum netd_transport transport, int link_up)
{
	struct cfg *cfg = c->cfg;
	const char *pn;

	memset(p, 0, sizeof(*p));
	p->c = c;
	p->index = index;
	snprintf(p->iface, sizeof(p->iface), "%s", iface);
	pn = cfg_port_index(cfg, iface) >= 0 ? iface : NULL;
	memcpy(p->identity.clock_identity, c->dds.clock_identity,
	    PTP_CLOCK_ID_LEN);
	p->identity.port_number = (uint16_t)(index + 1);
	p->transport = transport;
	p->link_up = link_up;
	p->enabled = 1;
	p->state = PS_INITIALIZING;
	p->state_since = clock_now(p->c);

	p->log_announce_interval = (int8_t)cfg_get_int(cfg, pn,
	    "logAnnounceInterval");
	p->log_sync_interval = (int8_t)cfg_get_int(cfg, pn, "logSyncInterval");
	p->log_min_delay_req_interval = (int8_t)cfg_get_int(cfg, pn,
	    "logMinDelayReqInterval");
	p->log_min_pdelay_req_interval = (int8_t)cfg_get_int(cfg, pn,
	    "logMinPdelayReqInterval");
	p->announce_receipt_timeout = (uint8_t)cfg_get_int(cfg, pn,
	    "announceReceiptTimeout");
	p->sync_receipt_timeout = (uint8_t)cfg_get_int(cfg, pn,
	    "syncReceiptTimeout");
	p->delay_mechanism = cfg_get_int(cfg, pn, "delay_mechanism") ==
	    CFG_DM_P2P ? DM_P2P : DM_E2E;
	p->asymmetry = delay_ns_to_scaled(cfg_get_int(cfg, pn,
	    "delayAsymmetry"));
	if (c->dds.slave_only)
		p->kind = FSM_SLAVE_ONLY;
	else if (cfg_get_int(cfg, pn, "serverOnly"))
		p->kind = FSM_MASTER_ONLY;
	else
		p->kind = FSM_ORDINARY;

	fm_init(&p->foreign, c->dds.clock_identity);
	clock_port_bmca_init(c, p, pn);
	p->delay_filter = filter_create(
	    cfg_get_int(cfg, pn, "delay_filter") == CFG_FILTER_MOVING_AVERAGE ?
	    FILTER_MOVING_AVERAGE : FILTER_MOVING_MEDIAN,
	    cfg_get_int(cfg, pn, "delay_filter_length"));
	if (p->delay_filter == NULL)
		return -1;
	nbr_init(&p->nbr, cfg_get_int(cfg, pn, "min_neighbor_prop_delay"),
	    cfg_get_int(cfg, pn, "neighborPropDelayThresh"));

	p->t_announce = env_timer_new(&c->env, port_ev_announce, p);
	p->t_sync = env_timer_new(&c->env, port_ev_sync, p);
	p->t_delay = env_timer_new(&c->env, port_ev_delay, p);
	p->t_pdelay = env_timer_new(&c->env, port_ev_pdelay, p);
	p->t_rx_timeout = env_timer_new(&c->env, port_ev_rx_timeout, p);
	p->t_qual = env_timer_new(&c->env, port_ev_qual, p);
	p->t_fault = env_timer_new(&c->env, port_ev_fault, p);
	p->t_sync_rx = env_timer_new(&c->env, port_ev_sync_rx, p);
	if (!p->t_announce || !p->t_sync || !p->t_delay || !p->t_pdelay ||
	    !p->t_rx_timeout || !p->t_qual || !p->t_fault || !p->t_sync_rx)
		return -1;
	return port_uneg_create(p, pn);
}

static void
port_stop_timers(struct cport *p)
{
	struct env_timer *ts[] = { p->t_announce, p->t_sync, p->t_delay,
	    p->t_pdelay, p->t_rx_timeout, p->t_qual, p->t_fault,
	    p->t_sync_rx };
	size_t i;

	for (i = 0; i < sizeof(ts) / sizeof(ts[0]); i++)
		if (ts[i] != NULL)
			env_timer_cancel(&p->c->env, ts[i]);
}

void
port_destroy(struct cport *p)
{
	struct env_timer **ts[] = { &p->t_announce, &p->t_sync, &p->t_delay,
	    &p->t_pdelay, &p->t_rx_timeout, &p->t_qual, &p->t_fault,
	    &p->t_sync_rx };
	size_t i;

	for (i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
		env_timer_free(&p->c->env, *ts[i]);
		*ts[i] = NULL;
	}
	filter_destroy(p->delay_filter);
	p->delay_filter = NULL;
	port_uneg_destroy(p);
}

static void
port_arm_rx_timeout(struct cport *p)
{
	port_arm(p, p->t_rx_timeout, fm_announce_timeout_random_ns(
	    p->announce_receipt_timeout, 1, p->log_announce_interval,
	    (uint32_t)random()));
}

/*
 * syncReceiptTimeout Sync intervals without a Sync from the parent: the
 * slave gives up on it as on an announce receipt timeout (ptp4l's
 * behaviour; 802.1AS 10.7.3.1 syncReceiptTimeout).  0: no such timer.
 */
static void
port_arm_sync_rx(struct cport *p)
{
	if (p->sync_receipt_timeout > 0)
		port_arm(p, p->t_sync_rx, p->sync_receipt_timeout *
		    port_interval_ns(p->log_sync_interval));
}

/* Starts what the new state needs (9.2.5, 9.5). */
static void
port_enter(struct cport *p, enum fsm_state s)
{
	int active = s != PS_INITIALIZING && s != PS_FAULTY &&
	    s != PS_DISABLED;

	port_stop_timers(p);
	switch (s) {
	case PS_FAULTY:
		port_arm(p, p->t_fault, port_interval_ns((int8_t)cfg_get_int(
		    p->c->cfg, NULL, "fault_reset_interval") == CFG_FRI_ASAP ?
		    -30 : (int8_t)cfg_get_int(p->c->cfg, NULL,
		    "fault_reset_interval")));
		break;
	case PS_LISTENING:
	case PS_PASSIVE:
		port_arm_rx_timeout(p);
		break;
	case PS_PRE_MASTER:
		port_arm(p, p->t_qual, fm_qualification_timeout_ns(
		    p->c->cds.steps_removed, p->log_announce_interval));
		break;
	case PS_MASTER:
		/* Sync at once, Announce half a Sync interval later and from
		 * then on the two on fixed grids half an interval apart. */
		p->next_sync = clock_now(p->c);
		p->next_announce = p->next_sync +
		    port_interval_ns(p->log_sync_interval) / 2;
		port_arm(p, p->t_sync, 0);
		port_arm(p, p->t_announce,
		    port_interval_ns(p->log_sync_interval) / 2);
		break;
	case PS_UNCALIBRATED:
	case PS_SLAVE:
		port_arm_rx_timeout(p);
		port_arm_sync_rx(p);
		if (p->delay_mechanism == DM_E2E)
			slave_dreq_schedule(p, clock_now(p->c));
		break;
	default:
		break;
	}
	if (active && p->delay_mechanism == DM_P2P)
		port_arm(p, p->t_pdelay, 0);
	if (s != PS_SLAVE && s != PS_UNCALIBRATED)
		slave_reset(p);
	if (!active) {
		p->have_delay = 0;
		filter_reset(p->delay_filter);
		fm_clear(&p->foreign);
		p->have_erbest = 0;
	}
}

void
port_dispatch(struct cport *p, enum fsm_event ev, int master_diff)
{
	enum fsm_state old = p->state, s;

	if (ev == EV_NONE)
		return;
	s = fsm_next_kind(p->kind, old, ev, master_diff);
	/* INITIALIZING completes at once: nothing to wait for (9.2.5). */
	if (s == PS_INITIALIZING)
		s = fsm_next_kind(p->kind, s, EV_INIT_COMPLETE, 0);
	if (s == old) {
		if (ev == EV_RS_SLAVE && master_diff)
			slave_reset(p);		/* new master: start over */
		return;
	}
	p->state = s;
	p->state_since = clock_now(p->c);
	log_info("port %u (%s): %s to %s on %s", p->identity.port_number,
	    p->iface, fsm_state_name(old), fsm_state_name(s),
	    fsm_event_name(ev));
	port_enter(p, s);
	clock_port_state_changed(p->c, p, old);
}

/* ---- timers ---- */

/* The next point of a fixed grid after now (skipping missed ones). */
static int64_t
port_next_due(const struct cport *p, int64_t due, int64_t interval)
{
	int64_t now = clock_now(p->c);

	due += interval;
	if (due <= now)
		due += ((now - due) / interval + 1) * interval;
	return due;
}

static void
port_ev_announce(void *arg)
{
	struct cport *p = arg;

	if (p->state != PS_MASTER)
		return;
	if (nbr_as_capable(&p->nbr) && !port_uneg_inhibit_multicast(p))
		master_send_announce(p);	/* 802.1AS 10.3.16 */
	p->next_announce = port_next_due(p, p->next_announce,
	    port_interval_ns(p->log_announce_interval));
	port_arm(p, p->t_announce, p->next_announce - clock_now(p->c));
}

static void
port_ev_sync(void *arg)
{
	struct cport *p = arg;

	if (p->state != PS_MASTER)
		return;
	if (nbr_as_capable(&p->nbr) && !port_uneg_inhibit_multicast(p))
		master_send_sync(p);	/* 802.1AS 10.2.12 */
	p->next_sync = port_next_due(p, p->next_sync,
	    port_interval_ns(p->log_sync_interval));
	port_arm(p, p->t_sync, p->next_sync - clock_now(p->c));
}

static void
port_ev_delay(void *arg)
{
	struct cport *p = arg;

	slave_dreq_timer(p);
}

static void
port_ev_pdelay(void *arg)
{
	struct cport *p = arg;

	p2p_send_pdelay_req(p);
	port_arm(p, p->t_pdelay,
	    port_interval_ns(p->log_min_pdelay_req_interval));
}

static void
port_receipt_timeout(struct cport *p, const char *what)
{
	/* The master went silent: forget it (as ptp4l clears its best
	 * foreign record) so the state decision does not pick it again.
	 * PASSIVE: the port's own best master, which a boundary clock's
	 * parent on another port is not. */
	if (p->state == PS_SLAVE || p->state == PS_UNCALIBRATED) {
		fm_forget(&p->foreign, &p->c->pds.parent_port_identity);
	} else if (p->state == PS_PASSIVE) {
		const struct fm_entry *e = fm_best(&p->foreign, &p->identity,
		    clock_now(p->c), NULL);
		struct ptp_port_identity src;

		if (e != NULL) {
			src = e->hdr.source_port_identity;
			fm_forget(&p->foreign, &src);
		}
	}
	fm_prune(&p->foreign, clock_now(p->c));
	log_info("port %u (%s): %s receipt timeout",
	    p->identity.port_number, p->iface, what);
	port_dispatch(p, EV_ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES, 0);
	if (p->state == PS_LISTENING)
		port_arm_rx_timeout(p);
	clock_state_decision_soon(p->c);
}

static void
port_ev_rx_timeout(void *arg)
{
	port_receipt_timeout(arg, "announce");
}

static void
port_ev_sync_rx(void *arg)
{
	struct cport *p = arg;

	if (p->state == PS_SLAVE || p->state == PS_UNCALIBRATED)
		port_receipt_timeout(p, "sync");
}

static void
port_ev_qual(void *arg)
{
	port_dispatch(arg, EV_QUALIFICATION_TIMEOUT_EXPIRES, 0);
}

static void
port_ev_fault(void *arg)
{
	struct cport *p = arg;

	if (p->link_up && p->enabled && env_netd_ready(&p->c->env))
		port_dispatch(p, EV_FAULT_CLEARED, 0);
	else
		port_enter(p, p->state);	/* re-arm */
}

/* ---- link and netd ---- */

void
port_link(struct cport *p, int up)
{
	p->link_up = up;
	port_uneg_peers_reset(p);
	if (!up)
		port_dispatch(p, EV_FAULT_DETECTED, 0);
	else if (p->state == PS_FAULTY && p->enabled)
		port_dispatch(p, EV_FAULT_CLEARED, 0);
}

void
port_netd_lost(struct cport *p)
{
	port_uneg_peers_reset(p);
	port_dispatch(p, EV_FAULT_DETECTED, 0);
}

/* ---- received messages ---- */

static void
port_rx_announce(struct cport *p, const struct ptp_msg *m)
{
	struct clockd *c = p->c;
	int64_t now = clock_now(p->c);
	int rc;

	if (p->kind == FSM_MASTER_ONLY)
		return;
	rc = fm_add_announce(&p->foreign, m, now,
	    m->hdr.log_message_interval);
	if (rc < 0)
		return;
	/* Announce from our parent: the master is alive (9.2.6.12). */
	if ((p->state == PS_SLAVE || p->state == PS_UNCALIBRATED) &&
	    ptp_port_identity_equal(&m->hdr.source_port_identity,
	    &c->pds.parent_port_identity)) {
		port_arm_rx_timeout(p);
		/* Keep the parent and time properties current (9.3.5). */
		clock_update_from_parent(c, m);
	}
	/* PASSIVE: the better master this port hears is alive while its
	 * Announces come (9.2.6.12); ptp4l too restarts the timer on its
	 * port's best foreign master.  Without this the port went MASTER at
	 * every timeout, two masters on one segment, and back to PASSIVE at
	 * the next decision (ptpsim failover3: 121 changes in 40 min). */
	if (p->state == PS_PASSIVE) {
		const struct fm_entry *e = fm_best(&p->foreign, &p->identity,
		    now, NULL);

		if (e != NULL && ptp_port_identity_equal(
		    &e->hdr.source_port_identity, &m->hdr.source_port_identity))
			port_arm_rx_timeout(p);
	}
	if (rc > 0)
		clock_state_decision_soon(c);
}

void
port_rx(struct cport *p, const struct netd_rx *f)
{
	const struct ptp_timestamp *ts = &f->ts;
	struct ptp_msg m;
	int rc;

	if (p->state == PS_INITIALIZING || p->state == PS_FAULTY ||
	    p->state == PS_DISABLED)
		return;
	rc = ptp_msg_parse(&m, f->payload, f->len);
	if (rc != 0) {
		log_debug("port %u: dropped message: %s",
		    p->identity.port_number, ptp_strerror(rc));
		return;
	}
	if (m.hdr.domain_number != p->c->dds.domain_number)
		return;
	/* Our own messages (a loop or a second port on the same link). */
	if (clock_is_own(p->c, m.hdr.source_port_identity.clock_identity))
		return;
	p->rx_msgs++;
	if (ptp_msg_is_event(m.hdr.message_type) && !f->have_ts)
		return;		/* an event message without its timestamp */

	/* A neighbour whose delay is out of range is not timed against:
	 * its Announce and Sync are not taken (802.1AS 10.2, 10.3; nbr.h). */
	if (!nbr_as_capable(&p->nbr) &&
	    (m.hdr.message_type == PTP_MT_ANNOUNCE ||
	    m.hdr.message_type == PTP_MT_SYNC ||
	    m.hdr.message_type == PTP_MT_FOLLOW_UP))
		return;
	switch (m.hdr.message_type) {
	case PTP_MT_ANNOUNCE:
		port_uneg_heard(p, &m, f);
		port_rx_announce(p, &m);
		break;
	case PTP_MT_SYNC:
		slave_rx_sync(p, &m, ts);
		/* A Sync from the parent restarts syncReceiptTimeout. */
		if ((p->state == PS_SLAVE || p->state == PS_UNCALIBRATED) &&
		    ptp_port_identity_equal(&m.hdr.source_port_identity,
		    &p->c->pds.parent_port_identity))
			port_arm_sync_rx(p);
		break;
	case PTP_MT_FOLLOW_UP:
		slave_rx_follow_up(p, &m);
		break;
	case PTP_MT_DELAY_REQ:
		if (!port_uneg_rx_delay_req(p, &m, ts, f))
			master_rx_delay_req(p, &m, ts);
		break;
	case PTP_MT_DELAY_RESP:
		slave_rx_delay_resp(p, &m);
		break;
	case PTP_MT_PDELAY_REQ:
		if (!port_uneg_rx_pdelay_req(p, &m, ts, f))
			responder_rx_pdelay_req(p, &m, ts);
		break;
	case PTP_MT_PDELAY_RESP:
		p2p_rx_pdelay_resp(p, &m, ts);
		break;
	case PTP_MT_PDELAY_RESP_FOLLOW_UP:
		p2p_rx_pdelay_resp_fup(p, &m);
		break;
	case PTP_MT_MANAGEMENT:
		pmcsock_net_rx(p, f);
		break;
	case PTP_MT_SIGNALING:
		port_uneg_rx(p, &m, f);
		break;
	default:
		break;
	}
}

/*
 * A new filtered path delay.  On a P2P port it is the neighbour's
 * meanLinkDelay: out of [min_neighbor_prop_delay, neighborPropDelayThresh]
 * the port is not asCapable (nbr.h); the change is logged once.
 */
void
port_delay_sampled(struct cport *p)
{
	struct nbr *n = &p->nbr;

	if (p->delay_mechanism != DM_P2P ||
	    !nbr_sample(n, delay_scaled_to_ns(p->path_delay)))
		return;
	if (nbr_as_capable(n))
		log_info("port %u: neighbour delay %" PRId64 " ns in range: "
		    "asCapable", p->identity.port_number, n->last_ns);
	else
		log_warnx("port %u: neighbour delay %" PRId64 " ns %s (%"
		    PRId64 " .. %" PRId64 " ns): not asCapable, its Announce "
		    "and Sync ignored", p->identity.port_number, n->last_ns,
		    nbr_verdict_name(n->last), n->min_ns, n->thresh_ns);
}

void
port_tx_ts(struct cport *p, unsigned type, uint16_t seq, int ok,
    const struct ptp_timestamp *ts)
{
	int64_t now = clock_now(p->c);

	if (!ok) {
		p->tx_ts_missing++;
		if (p->tx_ts_log_at != 0 &&
		    now - p->tx_ts_log_at < 10 * 1000000000LL) {
			p->tx_ts_quiet++;
			return;
		}
		log_warnx("port %u: no TX timestamp for %s %u (%" PRIu64
		    " more not logged)", p->identity.port_number,
		    ptp_msg_type_name(type), seq, p->tx_ts_quiet);
		p->tx_ts_log_at = now;
		p->tx_ts_quiet = 0;
		return;
	}
	/* A Sync's or a Pdelay_Resp's timestamp went into the follow-up
	 * netd sent (TxFrame.follow_up): netd reports it only as missing. */
	switch (type) {
	case PTP_MT_DELAY_REQ:
		slave_delay_req_tx_ts(p, seq, ts);
		break;
	case PTP_MT_PDELAY_REQ:
		p2p_pdelay_req_tx_ts(p, seq, ts);
		break;
	default:
		break;
	}
}
