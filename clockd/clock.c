/*
 * clock.c - the clock of ptp-clockd: its datasets (IEEE 1588-2019 8.2),
 * the BMCA run over all ports (9.3.2, 9.3.3, dataset updates of 9.3.5),
 * and the servo that turns a slave port's offsets into clock requests to
 * netd.  Also the netd connection's callbacks.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "cfg.h"
#include "clockd.h"
#include "log.h"

#define CLOCK_REQ_STATUS	1	/* id of the start-up status read */
/* After a step, Syncs time-stamped before it may still be in flight. */
#define STEP_GUARD_NS		(50 * 1000000LL)

int64_t
clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

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
	 * currentUtcOffset off every offset, 7.2.4); a PHC counts PTP time. */
	c->tds.flags = clock_counts_ptp_time(cfg) ? PTP_FLAG_PTP_TIMESCALE : 0;
	c->tds.time_source = (uint8_t)cfg_get_int(cfg, NULL, "timeSource");
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
}

/* ---- the state decision over all ports (9.3.2, 9.3.3) ---- */

static void
clock_ev_bmc(evutil_socket_t fd, short what, void *arg)
{
	struct clockd *c = arg;
	struct bmc_port_input in[CLOCKD_MAX_PORTS];
	struct bmc_dataset erbest[CLOCKD_MAX_PORTS], d0;
	const struct fm_entry *entry[CLOCKD_MAX_PORTS];
	int64_t now = clock_mono_ns();
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
	struct timeval tv = { 0, 0 };

	if (!evtimer_pending(c->t_bmc, NULL))
		evtimer_add(c->t_bmc, &tv);
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

/* ---- servo and clock requests ---- */

static void
clock_create_servo(struct clockd *c, double freq)
{
	struct cfg *cfg = c->cfg;
	struct servo_params sp;
	int sw = cfg_get_int(cfg, NULL, "time_stamping") == CFG_TS_SOFTWARE;

	servo_params_default(&sp, sw);
	sp.clock_max_freq_ppb = c->max_freq_ppb;
	sp.max_frequency = cfg_get_int(cfg, NULL, "max_frequency");
	sp.step_threshold = cfg_get_double(cfg, NULL, "step_threshold");
	sp.first_step_threshold = cfg_get_double(cfg, NULL,
	    "first_step_threshold");
	if (!c->step_allowed)
		sp.step_threshold = sp.first_step_threshold = 0.0;
	sp.init_freq_ppb = freq;
	sp.sync_interval = c->nports ? (double)port_interval_ns(
	    c->ports[0].log_sync_interval) / 1e9 : 1.0;
	sp.pi.kp = cfg_get_double(cfg, NULL, "pi_proportional_const");
	sp.pi.ki = cfg_get_double(cfg, NULL, "pi_integral_const");
	sp.pi.kp_scale = cfg_get_double(cfg, NULL, "pi_proportional_scale");
	sp.pi.kp_exponent = cfg_get_double(cfg, NULL,
	    "pi_proportional_exponent");
	sp.pi.kp_norm_max = cfg_get_double(cfg, NULL,
	    "pi_proportional_norm_max");
	sp.pi.ki_scale = cfg_get_double(cfg, NULL, "pi_integral_scale");
	sp.pi.ki_exponent = cfg_get_double(cfg, NULL, "pi_integral_exponent");
	sp.pi.ki_norm_max = cfg_get_double(cfg, NULL, "pi_integral_norm_max");
	c->servo = servo_create(cfg_get_int(cfg, NULL, "clock_servo") ==
	    CFG_SERVO_LINREG ? SERVO_LINREG : SERVO_PI, &sp);
	if (c->servo == NULL)
		fatalx("cannot create the servo (check the pi_* keys)");
	c->servo_state = SERVO_UNLOCKED;
	c->wait_delay_valid = 0;
	log_info("servo %s, starting from %+.0f ppb",
	    servo_type_name(servo_get_type(c->servo)), freq);
}

static void
clock_log_sample(struct clockd *c, struct cport *p, int64_t offset,
    double freq, int64_t delay)
{
	int spl = cfg_get_int(c->cfg, NULL, "summary_interval") -
	    p->log_sync_interval;
	int64_t n_per = spl > 0 ? (1LL << (spl > 20 ? 20 : spl)) : 1;
	int sn = c->servo_state == SERVO_LOCKED_STABLE ? 3 :
	    c->servo_state == SERVO_LOCKED ? 2 :
	    c->servo_state == SERVO_JUMP ? 1 : 0;

	/* ptp4l's lines, so that tools reading ptp4l's log read ours. */
	if (n_per <= 1) {
		log_info("master offset %10" PRId64 " s%d freq %+7.0f "
		    "path delay %9" PRId64, offset, sn, freq, delay);
		return;
	}
	c->sum_n++;
	c->sum_sq += (double)offset * (double)offset;
	if (llabs(offset) > c->sum_max_abs)
		c->sum_max_abs = llabs(offset);
	c->sum_freq += freq;
	c->sum_delay += (double)delay;
	if (c->sum_n >= n_per) {
		log_info("rms %4.0f max %4" PRId64 " freq %+6.0f delay %5.0f "
		    "s%d", sqrt(c->sum_sq / (double)c->sum_n), c->sum_max_abs,
		    c->sum_freq / (double)c->sum_n,
		    c->sum_delay / (double)c->sum_n, sn);
		c->sum_n = 0;
		c->sum_sq = c->sum_freq = c->sum_delay = 0;
		c->sum_max_abs = 0;
	}
}

int
clock_t2_ok(const struct clockd *c, int64_t t2)
{
	int64_t since;

	if (!c->step_guard)
		return 1;
	since = clock_mono_ns() - c->step_mono;
	if (since > 4 * 1000000000LL)
		return 1;
	/* Taken after the step: between the clock's time when netd answered
	 * and that time plus what has elapsed since. */
	return t2 >= c->step_now - STEP_GUARD_NS &&
	    t2 <= c->step_now + since + STEP_GUARD_NS;
}

/*
 * Spike filter.  With software timestamps a Sync now and then reaches the
 * slave tens of microseconds late (the receiving CPU was busy): that
 * offset is a measurement error, not a clock error, and a PI servo fed
 * with it slews the clock away for tens of seconds.  While locked, an
 * offset beyond SPIKE_K times the recent mean |offset| (and beyond
 * SPIKE_FLOOR_NS) is not given to the servo; a run of SPIKE_MAX_RUN such
 * offsets in a row is taken as real (the master moved) and goes through.
 * ptp4l has no such filter; it is counted and logged.
 */
#define SPIKE_K		6.0
#define SPIKE_FLOOR_NS	2000.0
#define SPIKE_MAX_RUN	3
/* |offset| assumed at lock, before there is a history (software time
 * stamps on a veth: a few hundred ns to a microsecond). */
#define SPIKE_JITTER0	1000.0

static int
clock_spike(struct clockd *c, int64_t offset)
{
	double a = fabs((double)offset);

	if (c->servo_state != SERVO_LOCKED &&
	    c->servo_state != SERVO_LOCKED_STABLE) {
		c->jitter = SPIKE_JITTER0;
		c->spike_run = 0;
		return 0;
	}
	if (c->spike_run < SPIKE_MAX_RUN && a > SPIKE_K * c->jitter &&
	    a > SPIKE_FLOOR_NS) {
		c->spike_run++;
		c->spikes++;
		return 1;
	}
	c->spike_run = 0;
	c->jitter += (a - c->jitter) / 16.0;
	return 0;
}

/*
 * The offset the servo gets.  While it measures the frequency (UNLOCKED,
 * before its first estimate) the path delay is held at the value of the
 * wait's first sample: the physical delay does not change, but its filtered
 * estimate (a moving median of software time-stamped exchanges) drifts by a
 * microsecond or more while the filter fills, and that drift went straight
 * into the slope (-1.4 us over the 16 s wait: +95 ppb, which the software
 * PI, ki 0.001, then takes minutes to work off).  The sample that ends the
 * wait (SERVO_JUMP) still steps by the offset with the current delay.
 */
static int64_t
clock_wait_offset(const struct clockd *c, int64_t offset, int64_t delay)
{
	if (c->servo_state != SERVO_UNLOCKED || !c->wait_delay_valid)
		return offset;
	return offset + delay - c->wait_delay;
}

void
clock_synchronize(struct clockd *c, struct cport *p, int64_t t2_ns,
    int64_t offset, int64_t delay)
{
	enum servo_state st;
	double freq;
	unsigned i;

	if (c->servo == NULL || c->stepping)
		return;
	if (clock_spike(c, offset)) {
		log_info("master offset %10" PRId64 " spike, not used "
		    "(%" PRIu64 " so far)", offset, c->spikes);
		return;
	}
	/* currentDS shows what the servo used, not a rejected spike. */
	c->cds.offset_from_master = offset;
	c->cds.mean_path_delay = delay;
	c->last_offset = offset;
	freq = servo_sample(c->servo, clock_wait_offset(c, offset, delay),
	    (uint64_t)t2_ns, 1.0, &st);
	if (st == SERVO_UNLOCKED && !c->wait_delay_valid) {
		c->wait_delay = delay;
		c->wait_delay_valid = 1;
	} else if (st != SERVO_UNLOCKED) {
		c->wait_delay_valid = 0;
	}
	c->servo_state = st;
	if (cfg_get_int(c->cfg, NULL, "free_running")) {
		clock_log_sample(c, p, offset, c->freq_ppb, delay);
		return;
	}
	switch (st) {
	case SERVO_UNLOCKED:
		break;
	case SERVO_JUMP:
		(void)netd_clock_adjfreq(c->netd, ++c->clock_req_id, freq);
		c->freq_ppb = freq;
		c->step_id = ++c->clock_req_id;
		if (netd_clock_step(c->netd, c->step_id, -offset) == 0) {
			c->stepping = 1;
			log_info("stepping the clock by %+" PRId64 " ns",
			    -offset);
			for (i = 0; i < c->nports; i++)
				slave_reset(&c->ports[i]);
		}
		break;
	case SERVO_LOCKED:
	case SERVO_LOCKED_STABLE:
		(void)netd_clock_adjfreq(c->netd, ++c->clock_req_id, freq);
		c->freq_ppb = freq;
		if (p->state == PS_UNCALIBRATED)
			port_dispatch(p, EV_MASTER_CLOCK_SELECTED, 0);
		break;
	}
	clock_log_sample(c, p, offset, c->freq_ppb, delay);
}

/* ---- summary of the clock every so often is in clock_log_sample ---- */

/* ---- netd callbacks ---- */

static void
clock_cb_connected(void *arg, const Ptpsep__Netd__PortList *pl)
{
	struct clockd *c = arg;
	const uint8_t *id = NULL;
	unsigned i;

	if (pl->clock != NULL) {
		c->max_freq_ppb = pl->clock->max_freq_ppb;
		c->step_allowed = pl->clock->step_allowed;
	}
	for (i = 0; i < pl->n_ports; i++)
		if (pl->ports[i]->clock_identity.len == PTP_CLOCK_ID_LEN) {
			id = pl->ports[i]->clock_identity.data;
			break;
		}
	if (!c->have_ports) {
		if (id == NULL)
			fatalx("netd reports no port with a MAC address: "
			    "no clockIdentity to take");
		memcpy(c->dds.clock_identity, id, PTP_CLOCK_ID_LEN);
		c->nports = pl->n_ports < CLOCKD_MAX_PORTS ? pl->n_ports :
		    CLOCKD_MAX_PORTS;
		c->dds.number_ports = (uint16_t)c->nports;
		for (i = 0; i < c->nports; i++)
			if (port_create(c, &c->ports[i], i,
			    pl->ports[i]->iface, pl->ports[i]->transport,
			    pl->ports[i]->link_up) != 0)
				fatalx("cannot set up port %u", i);
		c->have_ports = 1;
		clock_update_grandmaster(c);
	} else if (pl->n_ports != c->nports) {
		fatalx("netd now has %zu ports, not %u: restart clockd",
		    pl->n_ports, c->nports);
	}
	/* Read the clock's frequency first: a restarted clockd carries on
	 * from it instead of stepping (the servo starts from there). */
	(void)netd_clock_read(c->netd, CLOCK_REQ_STATUS);
	for (i = 0; i < c->nports; i++) {
		struct cport *p = &c->ports[i];

		p->link_up = pl->ports[i]->link_up;
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
}

static void
clock_cb_rx_frame(void *arg, const Ptpsep__Netd__RxFrame *f)
{
	struct clockd *c = arg;

	if (f->port_index < c->nports)
		port_rx(&c->ports[f->port_index], f);
}

static void
clock_cb_tx_timestamp(void *arg, const Ptpsep__Netd__TxTimestamp *t)
{
	struct clockd *c = arg;
	unsigned idx = COOKIE_PORT(t->cookie);
	struct ptp_timestamp ts = { 0, 0 };
	int ok = t->status == PTPSEP__NETD__TX_TS_STATUS__TXTS_OK &&
	    t->ts != NULL;

	if (idx >= c->nports || idx != t->port_index)
		return;
	if (ok) {
		ts.sec = t->ts->seconds;
		ts.nsec = t->ts->nanoseconds;
	}
	port_tx_ts(&c->ports[idx], COOKIE_TYPE(t->cookie),
	    COOKIE_SEQ(t->cookie), ok, &ts);
}

static void
clock_cb_clock_reply(void *arg, const Ptpsep__Netd__ClockReply *r)
{
	struct clockd *c = arg;
	int ok = r->status == PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK;

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
			log_warnx("netd refused the step (reason %d)",
			    (int)r->reason);
			servo_reset(c->servo);
			return;
		}
		c->step_guard = 1;
		c->step_mono = clock_mono_ns();
		c->step_now = r->now ? (int64_t)r->now->seconds * 1000000000LL +
		    r->now->nanoseconds : 0;
		if (r->now == NULL)
			c->step_guard = 0;
		return;
	}
	if (!ok)
		log_warnx("netd refused a clock request (reason %d)",
		    (int)r->reason);
}

static void
clock_cb_link_event(void *arg, const Ptpsep__Netd__LinkEvent *e)
{
	struct clockd *c = arg;

	if (e->port_index < c->nports)
		port_link(&c->ports[e->port_index], e->link_up);
}

static const struct netd_client_cbs clock_netd_cbs = {
	.connected = clock_cb_connected,
	.disconnected = clock_cb_disconnected,
	.rx_frame = clock_cb_rx_frame,
	.tx_timestamp = clock_cb_tx_timestamp,
	.clock_reply = clock_cb_clock_reply,
	.link_event = clock_cb_link_event,
};

int
clock_init(struct clockd *c, struct event_base *base, struct cfg *cfg)
{
	memset(c, 0, sizeof(*c));
	c->base = base;
	c->cfg = cfg;
	c->slave_port = -1;
	/* Request ids after the one reserved for the start-up status read. */
	c->clock_req_id = CLOCK_REQ_STATUS;
	c->max_freq_ppb = 500000.0;
	c->step_allowed = 1;

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

	c->t_bmc = evtimer_new(base, clock_ev_bmc, c);
	c->netd = netd_client_new(base, cfg_get_str(cfg, NULL, "netd_socket"),
	    &clock_netd_cbs, c);
	if (c->t_bmc == NULL || c->netd == NULL)
		return -1;
	netd_client_start(c->netd);
	return 0;
}

void
clock_fini(struct clockd *c)
{
	unsigned i;

	netd_client_free(c->netd);
	for (i = 0; i < c->nports; i++)
		port_destroy(&c->ports[i]);
	if (c->servo != NULL)
		servo_destroy(c->servo);
	event_free(c->t_bmc);
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
	if (enable && (!p->link_up || !netd_client_ready(c->netd)))
		port_dispatch(p, EV_FAULT_DETECTED, 0);
	return 0;
}
