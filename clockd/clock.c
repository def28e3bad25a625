/*
 * clock.c - the clock of ptp-clockd: its datasets (IEEE 1588-2019 8.2),
 * the BMCA run over all ports (9.3.2, 9.3.3, dataset updates of 9.3.5),
 * and netd's messages into the engine (clock_netd_cbs).  Time, timers and
 * netd are reached through c->env only (env.h), so that the daemon
 * (env_event.c) and the simulator (tests/sim/) run these same objects.
 * The servo and its requests to netd are in clock_servo.c.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "clockd.h"
#include "log.h"
#include "ptp_time.h"

#define CLOCK_REQ_STATUS	1	/* id of the start-up status read */

int
clock_is_own(const struct clockd *c, const uint8_t *clock_identity)
{
	return memcmp(c->dds.clock_identity, clock_identity,
	    PTP_CLOCK_ID_LEN) == 0;
}

/* ---- datasets (9.3.5) ---- */

static int
clock_counts_ptp_time(const struct cfg *cfg)
{
	enum cfg_clock_kind kind;
	int idx;

	return cfg_clock_device_parse(cfg_get_str(cfg, NULL, "clock_device"),
	    &kind, &idx) == 0 && kind == CFG_CLK_PHC;
}

/* Tables 30/31 (M1, M2): this clock is the grandmaster. */
static void
clock_update_grandmaster(struct clockd *c)
{
	struct cfg *cfg = c->cfg;

	c->cds.steps_removed = 0;
	c->cds.offset_from_master = 0;
	c->cds.mean_path_delay = 0;
	memset(&c->pds.parent_port_identity, 0,
	    sizeof(c->pds.parent_port_identity));
	memcpy(c->pds.parent_port_identity.clock_identity,
	    c->dds.clock_identity, PTP_CLOCK_ID_LEN);
	memcpy(c->pds.gm_identity, c->dds.clock_identity, PTP_CLOCK_ID_LEN);
	c->pds.gm_quality = c->dds.quality;
	c->pds.gm_priority1 = c->dds.priority1;
	c->pds.gm_priority2 = c->dds.priority2;
	c->tds.current_utc_offset = (int16_t)cfg_get_int(cfg, NULL,
	    "utc_offset");
	/* Not traceable.  The system clock, and netd's virtual clock over
	 * it, count UTC: ARB timescale, as ptp4l announces for CLOCK_REALTIME
	 * (a PTP-timescale flag would make a slave on the system clock take
	 * currentUtcOffset off every offset, 7.2.4); a PHC counts PTP time.
	 * currentUtcOffset is the operator's utc_offset, announced as known
	 * (currentUtcOffsetValid, 8.2.4.3) so that a slave need not guess. */
	c->tds.flags = PTP_FLAG_UTC_OFFSET_VALID |
	    (clock_counts_ptp_time(cfg) ? PTP_FLAG_PTP_TIMESCALE : 0);
	c->tds.time_source = (uint8_t)cfg_get_int(cfg, NULL, "timeSource");
}

/* The UTC offset to believe from the parent's timePropertiesDS (8.2.4). */
static void
clock_utc_update(struct clockd *c)
{
	int old = c->utc_offset;

	cpol_utc_update(&c->utc_offset, c->tds.current_utc_offset,
	    c->tds.flags);
	if (c->utc_offset != old)
		log_info("UTC offset now %d s (was %d)", c->utc_offset, old);
}

/* Table 33 (S1): parent and grandmaster from the Announce of Ebest. */
static void
clock_update_slave(struct clockd *c, const struct fm_entry *e)
{
	c->cds.steps_removed = e->announce.steps_removed + 1;
	c->pds.parent_port_identity = e->hdr.source_port_identity;
	memcpy(c->pds.gm_identity, e->announce.grandmaster_identity,
	    PTP_CLOCK_ID_LEN);
	c->pds.gm_quality = e->announce.grandmaster_clock_quality;
	c->pds.gm_priority1 = e->announce.grandmaster_priority1;
	c->pds.gm_priority2 = e->announce.grandmaster_priority2;
	c->tds.current_utc_offset = e->announce.current_utc_offset;
	c->tds.flags = e->hdr.flags & 0x00ff;
	c->tds.time_source = e->announce.time_source;
	clock_utc_update(c);
}

void
clock_update_from_parent(struct clockd *c, const struct ptp_msg *m)
{
	const struct ptp_announce *a = &m->body.announce;

	c->cds.steps_removed = a->steps_removed + 1;
	memcpy(c->pds.gm_identity, a->grandmaster_identity, PTP_CLOCK_ID_LEN);
	c->pds.gm_quality = a->grandmaster_clock_quality;
	c->pds.gm_priority1 = a->grandmaster_priority1;
	c->pds.gm_priority2 = a->grandmaster_priority2;
	c->tds.current_utc_offset = a->current_utc_offset;
	c->tds.flags = m->hdr.flags & 0x00ff;
	c->tds.time_source = a->time_source;
	clock_utc_update(c);
}

/* ---- the state decision over all ports (9.3.2, 9.3.3) ---- */

static void
clock_ev_bmc(void *arg)
{
	struct clockd *c = arg;
	struct bmc_port_input in[CLOCKD_MAX_PORTS];
	struct bmc_dataset erbest[CLOCKD_MAX_PORTS], d0;
	const struct fm_entry *entry[CLOCKD_MAX_PORTS];
	int64_t now = clock_now(c);
	unsigned i;
	int best, slave_changed = 0;
	struct ptp_port_identity new_parent;

	if (!c->have_ports)
		return;
	bmc_dataset_from_default(&d0, c->dds.priority1, &c->dds.quality,
	    c->dds.priority2, c->dds.clock_identity);
	for (i = 0; i < c->nports; i++) {
		struct cport *p = &c->ports[i];

		fm_prune(&p->foreign, now);
		entry[i] = NULL;
		if (p->kind != FSM_MASTER_ONLY)
			entry[i] = fm_best(&p->foreign, &p->identity, now,
			    &erbest[i]);
		in[i].erbest = entry[i] ? &erbest[i] : NULL;
		in[i].state = p->state;
		in[i].master_only = p->kind == FSM_MASTER_ONLY;
		in[i].decision = BMC_D_NONE;
	}
	best = bmc_select(&d0, in, c->nports,
	    c->dds.slave_only ? BMC_F_SLAVE_ONLY : 0);

	/* 9.3.5: the datasets follow Ebest, or this clock when D0 wins. */
	memset(&new_parent, 0, sizeof(new_parent));
	if (best < 0 || bmc_a_better(bmc_compare(&d0, &erbest[best]))) {
		if (!c->dds.slave_only)
			clock_update_grandmaster(c);
	} else {
		new_parent = entry[best]->hdr.source_port_identity;
		slave_changed = !ptp_port_identity_equal(&new_parent,
		    &c->pds.parent_port_identity);
		clock_update_slave(c, entry[best]);
		if (slave_changed) {
			char id[32];

			snprintf(id, sizeof(id),
			    "%02x%02x%02x.%02x%02x.%02x%02x%02x-%u",
			    new_parent.clock_identity[0],
			    new_parent.clock_identity[1],
			    new_parent.clock_identity[2],
			    new_parent.clock_identity[3],
			    new_parent.clock_identity[4],
			    new_parent.clock_identity[5],
			    new_parent.clock_identity[6],
			    new_parent.clock_identity[7],
			    new_parent.port_number);
			log_info("selected best master clock %s", id);
			c->gm_changed_at = now;
			/* A new master's time: nothing to compare with. */
			cpol_sanity_reset(&c->sanity);
			cpol_sanity_set_freq(&c->sanity, c->freq_ppb);
		}
	}
	for (i = 0; i < c->nports; i++) {
		enum fsm_event ev = bmc_decision_event(in[i].decision);

		port_dispatch(&c->ports[i], ev,
		    in[i].decision == BMC_D_S1 ? slave_changed : 0);
	}
}

void
clock_state_decision_soon(struct clockd *c)
{
	if (!env_timer_pending(&c->env, c->t_bmc))
		env_timer_arm(&c->env, c->t_bmc, 0);
}

void
clock_port_state_changed(struct clockd *c, struct cport *p,
    enum fsm_state old)
{
	if (p->state == PS_SLAVE || p->state == PS_UNCALIBRATED) {
		if (c->slave_port != (int)p->index && c->servo != NULL)
			servo_sync_interval(c->servo,
			    (double)port_interval_ns(p->log_sync_interval) /
			    1e9);
		c->slave_port = (int)p->index;
	} else if (c->slave_port == (int)p->index) {
		c->slave_port = -1;
	}
	/* A port leaving or entering service changes the decision. */
	if (old == PS_INITIALIZING || p->state == PS_FAULTY ||
	    p->state == PS_DISABLED || p->state == PS_LISTENING)
		clock_state_decision_soon(c);
}

/* ---- netd callbacks ---- */

static void
clock_cb_connected(void *arg, const struct netd_port_list *pl)
{
	struct clockd *c = arg;
	const uint8_t *id = NULL;
	unsigned i;

	if (pl->have_clock) {
		c->max_freq_ppb = pl->clock.max_freq_ppb;
		c->step_allowed = pl->clock.step_allowed;
		c->max_step_ns = pl->clock.max_step_ns > 0 ?
		    (uint64_t)pl->clock.max_step_ns : 0;
		c->min_adj_interval_ns = (int64_t)pl->clock.min_adj_interval_ms *
		    1000000;
	}
	/* netd said its bounds anew: what it refused before may differ. */
	c->refused_step_ns = 0;
	c->step_retry_at = 0;
	/* netd's last frequency change, a clockd's before us, came before
	 * this PortList: min_adj_interval_ms counts from now. */
	c->adj_last = clock_now(c);
	c->adj_inflight = 0;
	clock_refuse(c, CR_NONE, 0);
	for (i = 0; i < pl->nports; i++)
		if (pl->ports[i].clock_identity != NULL) {
			id = pl->ports[i].clock_identity;
			break;
		}
	if (!c->have_ports) {
		if (id == NULL)
			fatalx("netd reports no port with a MAC address: "
			    "no clockIdentity to take");
		memcpy(c->dds.clock_identity, id, PTP_CLOCK_ID_LEN);
		c->nports = pl->nports < CLOCKD_MAX_PORTS ? pl->nports :
		    CLOCKD_MAX_PORTS;
		c->dds.number_ports = (uint16_t)c->nports;
		for (i = 0; i < c->nports; i++)
			if (port_create(c, &c->ports[i], i,
			    pl->ports[i].iface, pl->ports[i].transport,
			    pl->ports[i].link_up) != 0)
				fatalx("cannot set up port %u", i);
		c->have_ports = 1;
		clock_update_grandmaster(c);
	} else if (pl->nports != c->nports) {
		fatalx("netd now has %zu ports, not %u: restart clockd",
		    pl->nports, c->nports);
	}
	/* Read the clock's frequency first: a restarted clockd carries on
	 * from it instead of stepping (the servo starts from there). */
	(void)env_clock_read(&c->env, CLOCK_REQ_STATUS);
	for (i = 0; i < c->nports; i++) {
		struct cport *p = &c->ports[i];

		p->link_up = pl->ports[i].link_up;
		if (p->state == PS_FAULTY || p->state == PS_INITIALIZING) {
			p->state = PS_FAULTY;
			if (p->link_up && p->enabled)
				port_dispatch(p, EV_FAULT_CLEARED, 0);
		}
	}
}

static void
clock_cb_disconnected(void *arg)
{
	struct clockd *c = arg;
	unsigned i;

	log_warnx("lost netd: ports go FAULTY until it is back");
	for (i = 0; i < c->nports; i++)
		port_netd_lost(&c->ports[i]);
	c->stepping = 0;
	/* Nothing is disciplined now: never "locked" (doc/design.md). */
	c->servo_state = SERVO_UNLOCKED;
	c->slewing = 0;
	c->adj_pending = 0;
	c->adj_inflight = 0;
	if (c->t_adj != NULL)
		env_timer_cancel(&c->env, c->t_adj);
	clock_refuse(c, CR_NETD_UNREACHABLE, 0);
}

static void
clock_cb_rx_frame(void *arg, const struct netd_rx *f)
{
	struct clockd *c = arg;

	if (f->port < c->nports)
		port_rx(&c->ports[f->port], f);
}

static void
clock_cb_tx_timestamp(void *arg, const struct netd_txts *t)
{
	struct clockd *c = arg;
	unsigned idx = COOKIE_PORT(t->cookie);

	if (idx >= c->nports || idx != t->port)
		return;
	port_tx_ts(&c->ports[idx], COOKIE_TYPE(t->cookie),
	    COOKIE_SEQ(t->cookie), t->ok, &t->ts);
}

static void
clock_cb_clock_reply(void *arg, const struct netd_clock_reply *r)
{
	struct clockd *c = arg;
	int ok = r->ok;

	if (r->id == CLOCK_REQ_STATUS) {
		/* On every (re)connection: the clock may be a new one (netd
		 * restarted) or the same (clockd restarted); either way the
		 * servo starts from the frequency the clock has now. */
		c->freq_ppb = r->freq_ppb;
		if (c->servo != NULL)
			servo_destroy(c->servo);
		c->servo = NULL;
		clock_create_servo(c, r->freq_ppb);
		return;
	}
	if (r->id == c->step_id && c->stepping) {
		c->stepping = 0;
		if (!ok) {
			clock_step_refused(c, r->refusal);
			return;
		}
		cpol_sanity_step(&c->sanity, c->step_ns);
		c->step_retry_at = 0;
		if (c->refusal != CR_NONE)
			clock_refuse(c, CR_NONE, 0);
		c->step_guard = 0;
		c->step_mono = clock_now(c);
		/* netd's own time; checked all the same (int64). */
		if (r->have_now)
			c->step_guard = ptp_time_to_ns(&r->now,
			    &c->step_now) == 0;
		return;
	}
	if (r->id == c->adj_inflight)
		clock_adj_replied(c);
	if (!ok) {
		clock_refuse(c, r->refusal, c->last_offset);
	} else if (!c->slewing && c->refusal != CR_NONE &&
	    c->refusal != CR_STEP_TOO_LARGE) {
		/* A frequency went through: refused no more. */
		clock_refuse(c, CR_NONE, 0);
	}
}

static void
clock_cb_link_event(void *arg, const struct netd_link_event *e)
{
	struct clockd *c = arg;

	if (e->port < c->nports)
		port_link(&c->ports[e->port], e->up);
}

const struct netd_client_cbs clock_netd_cbs = {
	.connected = clock_cb_connected,
	.disconnected = clock_cb_disconnected,
	.rx_frame = clock_cb_rx_frame,
	.tx_timestamp = clock_cb_tx_timestamp,
	.clock_reply = clock_cb_clock_reply,
	.link_event = clock_cb_link_event,
};

int
clock_init(struct clockd *c, const struct env *env, struct cfg *cfg)
{
	memset(c, 0, sizeof(*c));
	c->env = *env;
	c->cfg = cfg;
	c->slave_port = -1;
	/* Request ids after the one reserved for the start-up status read. */
	c->clock_req_id = CLOCK_REQ_STATUS;
	c->max_freq_ppb = 500000.0;
	c->step_allowed = 1;
	c->local_utc = !clock_counts_ptp_time(cfg);
	c->utc_offset = cfg_get_int(cfg, NULL, "utc_offset");
	c->refusal = CR_NETD_UNREACHABLE;

	c->dds.priority1 = (uint8_t)cfg_get_int(cfg, NULL, "priority1");
	c->dds.priority2 = (uint8_t)cfg_get_int(cfg, NULL, "priority2");
	c->dds.domain_number = (uint8_t)cfg_get_int(cfg, NULL, "domainNumber");
	c->dds.slave_only = cfg_get_int(cfg, NULL, "clientOnly");
	c->dds.two_step = 1;
	c->dds.quality.clock_class = (uint8_t)cfg_get_int(cfg, NULL,
	    "clockClass");
	c->dds.quality.clock_accuracy = (uint8_t)cfg_get_int(cfg, NULL,
	    "clockAccuracy");
	c->dds.quality.offset_scaled_log_variance = (uint16_t)cfg_get_int(cfg,
	    NULL, "offsetScaledLogVariance");
	/* A slave-only clock has clockClass 255 (7.6.2.5). */
	if (c->dds.slave_only)
		c->dds.quality.clock_class = 255;
	if (!cfg_get_int(cfg, NULL, "twoStepFlag"))
		log_warnx("twoStepFlag 0: one-step is not supported yet; "
		    "running two-step");

	c->t_bmc = env_timer_new(&c->env, clock_ev_bmc, c);
	c->t_adj = env_timer_new(&c->env, clock_ev_adj, c);
	if (c->t_bmc == NULL || c->t_adj == NULL)
		return -1;
	env_netd_start(&c->env);
	return 0;
}

void
clock_fini(struct clockd *c)
{
	unsigned i;

	for (i = 0; i < c->nports; i++)
		port_destroy(&c->ports[i]);
	if (c->servo != NULL)
		servo_destroy(c->servo);
	c->servo = NULL;
	env_timer_free(&c->env, c->t_bmc);
	env_timer_free(&c->env, c->t_adj);
	c->t_bmc = c->t_adj = NULL;
}

/* ---- run-time settings: ptpctl set, served by ctlsrv.c ---- */

/* defaultDS.priority1 (8.2.1.4.1); the next state decision applies it. */
int
clock_set_priority1(struct clockd *c, uint8_t v)
{
	c->dds.priority1 = v;
	clock_state_decision_soon(c);
	return 0;
}

/* defaultDS.priority2 (8.2.1.4.2). */
int
clock_set_priority2(struct clockd *c, uint8_t v)
{
	c->dds.priority2 = v;
	clock_state_decision_soon(c);
	return 0;
}

/* defaultDS.clockQuality.clockClass; -1 if refused (slave-only: 255). */
int
clock_set_clock_class(struct clockd *c, uint8_t v)
{
	/* A slave-only clock has clockClass 255 (7.6.2.5). */
	if (c->dds.slave_only && v != 255)
		return -1;
	c->dds.quality.clock_class = v;
	clock_state_decision_soon(c);
	return 0;
}

/* Port enable/disable (9.2.6.4, 9.2.6.5); -1 if there is no such port. */
int
clock_set_port_enabled(struct clockd *c, unsigned index, int enable)
{
	struct cport *p;

	if (index >= c->nports)
		return -1;
	p = &c->ports[index];
	if (!enable == !p->enabled)
		return 0;
	p->enabled = enable ? 1 : 0;
	port_dispatch(p, enable ? EV_DESIGNATED_ENABLED :
	    EV_DESIGNATED_DISABLED, 0);
	/* Enabled without a link or netd: FAULTY until they come. */
	if (enable && (!p->link_up || !env_netd_ready(&c->env)))
		port_dispatch(p, EV_FAULT_DETECTED, 0);
	return 0;
}
