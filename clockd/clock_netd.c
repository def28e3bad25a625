/*
 * clock_netd.c - netd's messages into the engine (clock_netd_cbs): the
 * PortList on every (re)connection (ClockInfo's bounds, the ports and the
 * clockIdentity, 7.5.2.2), a lost connection (ports FAULTY, nothing
 * disciplined), received frames, TX time stamps, ClockReplies and link
 * events.  They arrive as netd_types.h's structs, translated from the
 * channel's protobuf by netd_client.c (the daemon) or built by the
 * simulator; no wire type reaches this file (doc/design.md).  What the
 * servo does with a reply is clock_servo.c's.
 */
#include "config.h"

#include <string.h>

#include "clockd.h"
#include "log.h"
#include "ptp_time.h"

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
	c->adj_id = 0;
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
	/*
	 * netd closes the connection on a two-step Sync to a one-step port
	 * (netd/check.c check_one_step()): daemons started on configurations
	 * that differ in time_stamping/twoStepFlag would loop on that.
	 */
	for (i = 0; i < c->nports; i++)
		if ((pl->ports[i].one_step != 0) == (c->dds.two_step != 0))
			fatalx("netd stamps port %u (%s) %s-step but clockd "
			    "is a %s-step clock: start both daemons with the "
			    "same time_stamping and twoStepFlag", i,
			    pl->ports[i].iface, pl->ports[i].one_step ? "one" :
			    "two", c->dds.two_step ? "two" : "one");
	/* Read the clock's frequency first: a restarted clockd carries on
	 * from it instead of stepping (the servo starts from there). */
	(void)env_clock_read(&c->env, CLOCK_REQ_STATUS);
	sysclk_connected(c, pl);
	clock_leap_connected(c, pl);
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
	c->adj_id = 0;
	if (c->t_adj != NULL)
		env_timer_cancel(&c->env, c->t_adj);
	clock_refuse(c, CR_NETD_UNREACHABLE, 0);
	sysclk_disconnected(c);
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

	/* a leap second armed on either clock (clock_leap.c) */
	if (clock_leap_set_reply(c, r))
		return;
	/* the system clock's and the compares (sysclk.c) */
	if (sysclk_reply(c, r))
		return;
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
	if (clock_leap_reply(c, r))
		return;
	if (r->id == c->step_id && c->stepping) {
		c->stepping = 0;
		if (!ok) {
			clock_step_refused(c, r->refusal);
			return;
		}
		cpol_sanity_step(&c->sanity, c->step_ns);
		sysclk_ptp_stepped(c);
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
	/* netd answers a frequency change only to refuse it (netd.proto) */
	if (!ok)
		clock_adj_refused(c, r->id, r->refusal, r->freq_ppb);
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
