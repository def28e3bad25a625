/*
 * test_clock_env.c - clockd's engine on an injected env (clockd/env.h):
 * its frequency changes never come closer than netd's min_adj_interval_ms
 * (issue 11's known bug, issue 12 item 1), a PASSIVE port stays
 * PASSIVE, and the daemon's env (env_event.c) never fires a timer before
 * its time.
 *
 * The engine runs for real (clock_init, clock_netd_cbs, clock_synchronize,
 * the PI servo) against a fake world: a slave clock with a frequency error,
 * Syncs every second, and a netd that applies clock requests LAT_NS after
 * they were sent (in order; a request now and then later: netd busy),
 * judges them with netd's own bounds code (netd/clock_bounds.c), and
 * answers LAT_NS later, as netd does: a read, a step, a refusal, never an
 * accepted frequency change (clock_reply_due()).  Whenever nothing is on
 * its way, clockd's frequency in effect (ptpctl status) must be netd's.  The world is one
 * event loop like libevent's: each dispatch starts at a time "cache" and
 * clockd's work in it takes time, so now() runs ahead of cache; netd's
 * replies that arrive while clockd is still busy are read in the same
 * dispatch (nc_ev_read's burst).  With early_arm, a timer armed in a
 * dispatch counts from its start (libevent's cached time), not from now():
 * it fires up to a dispatch's work early.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include <event2/event.h>

#include "cfg.h"
#include "clockd/clockd.h"
#include "clockd/env_event.h"
#include "log.h"
#include "netd/clock.h"
#include "ptp_msg.h"

#define MS		1000000LL
#define S		1000000000LL
#define LAT_NS		(20 * 1000LL)	/* clockd <-> netd, each way */
#define RX_COST_NS	(300 * 1000LL)	/* clockd's work on a Sync */
#define OP_COST_NS	(30 * 1000LL)	/* ... and on each request */
#define INTERVAL_MS	1500
#define MAX_Q		64

struct ftimer {
	int		 used, armed;
	int64_t		 due;
	env_timer_cb	 cb;
	void		*arg;
};

struct nreq {			/* on its way to netd */
	int		 op;	/* 0 read, 1 adjfreq, 2 step */
	uint64_t	 id;
	double		 ppb;
	int64_t		 ns, at;
};

struct nrep {			/* on its way back */
	uint64_t	 id;
	int		 ok, reason;
	double		 freq;
	int64_t		 at;
};

static struct world {
	int		 early_arm;
	int64_t		 cache, work;
	struct ftimer	 t[MAX_Q];
	struct nreq	 req[MAX_Q];
	unsigned	 nreq;
	struct nrep	 rep[MAX_Q];
	unsigned	 nrep;
	/* netd and its clock: offset x_ns from the master at x_at */
	struct clock_bounds b;
	struct clock_bounds_state st;
	double		 freq, err_ppb;
	int64_t		 x_ns, x_at;
	unsigned	 adjs, steps, refused;
	int64_t		 last_adj, min_gap;
	int64_t		 next_sync;
	int64_t		 sync_period;	/* 0: 1 s */
	/* every spike_every-th frequency change reaches netd spike_ns late */
	unsigned	 spike_every, nadj_sent;
	int64_t		 spike_ns;
	unsigned	 checks, checks_after_refusal;
} W;

static struct clockd clk;
static struct cfg *cfg;

static int64_t
w_offset(int64_t t)
{
	return W.x_ns + (int64_t)llround((W.err_ppb + W.freq) * 1e-9 *
	    (double)(t - W.x_at));
}

/* ---- the fake env ---- */

static int64_t
f_now(void *ctx)
{
	(void)ctx;
	return W.cache + W.work;
}

static struct env_timer *
f_timer_new(void *ctx, env_timer_cb cb, void *arg)
{
	unsigned i;

	(void)ctx;
	for (i = 0; i < MAX_Q; i++)
		if (!W.t[i].used) {
			W.t[i].used = 1;
			W.t[i].armed = 0;
			W.t[i].cb = cb;
			W.t[i].arg = arg;
			return (struct env_timer *)&W.t[i];
		}
	return NULL;
}

static void
f_timer_free(void *ctx, struct env_timer *t)
{
	(void)ctx;
	memset(t, 0, sizeof(struct ftimer));
}

static void
f_timer_arm(void *ctx, struct env_timer *et, int64_t delay)
{
	struct ftimer *t = (struct ftimer *)et;

	(void)ctx;
	t->armed = 1;
	t->due = (W.early_arm ? W.cache : W.cache + W.work) + delay;
}

static void
f_timer_cancel(void *ctx, struct env_timer *et)
{
	(void)ctx;
	((struct ftimer *)et)->armed = 0;
}

static int
f_timer_pending(void *ctx, const struct env_timer *et)
{
	(void)ctx;
	return ((const struct ftimer *)et)->armed;
}

static void
f_netd_start(void *ctx)
{
	(void)ctx;
}

static int
f_netd_ready(void *ctx)
{
	(void)ctx;
	return 1;
}

static int
f_send_frame(void *ctx, unsigned port, int event, enum netd_dest dest,
    const struct netd_addr *unicast, const uint8_t *payload, size_t len,
    uint64_t cookie, int want_ts, const uint8_t *fu, size_t fu_len)
{
	(void)ctx; (void)port; (void)event; (void)dest; (void)unicast;
	(void)payload; (void)len; (void)cookie; (void)want_ts;
	(void)fu; (void)fu_len;
	return 0;
}

static int
f_request(int op, uint64_t id, double ppb, int64_t ns)
{
	struct nreq *r;

	assert_true(W.nreq < MAX_Q);
	r = &W.req[W.nreq++];
	r->op = op;
	r->id = id;
	r->ppb = ppb;
	r->ns = ns;
	r->at = f_now(NULL) + LAT_NS;
	if (op == 1 && W.spike_every > 0 && ++W.nadj_sent % W.spike_every == 0)
		r->at += W.spike_ns;
	/* netd reads its socket in order */
	if (W.nreq > 1 && r->at < W.req[W.nreq - 2].at)
		r->at = W.req[W.nreq - 2].at;
	W.work += OP_COST_NS;
	return 0;
}

static int
f_clock_read(void *ctx, uint64_t id)
{
	(void)ctx;
	return f_request(0, id, 0, 0);
}

static int
f_clock_adjfreq(void *ctx, uint64_t id, double ppb)
{
	(void)ctx;
	return f_request(1, id, ppb, 0);
}

static int
f_clock_step(void *ctx, uint64_t id, int64_t ns)
{
	(void)ctx;
	return f_request(2, id, 0, ns);
}

static const struct env_ops fake_ops = {
	.now = f_now,
	.timer_new = f_timer_new,
	.timer_free = f_timer_free,
	.timer_arm = f_timer_arm,
	.timer_cancel = f_timer_cancel,
	.timer_pending = f_timer_pending,
	.netd_start = f_netd_start,
	.netd_ready = f_netd_ready,
	.send_frame = f_send_frame,
	.clock_read = f_clock_read,
	.clock_adjfreq = f_clock_adjfreq,
	.clock_step = f_clock_step,
};
static const struct env fake_env = { &fake_ops, NULL };

/* ---- netd ---- */

/* netd takes the requests that reached it by t, as relay.c does. */
static void
netd_run(int64_t t)
{
	struct clock_req cr;
	struct nrep *p;
	unsigned i;

	for (i = 0; i < W.nreq && W.req[i].at <= t; i++) {
		struct nreq *r = &W.req[i];

		assert_true(W.nrep < MAX_Q);
		p = &W.rep[W.nrep++];
		memset(p, 0, sizeof(*p));
		p->id = r->id;
		p->ok = 1;
		p->at = r->at + LAT_NS;
		if (r->op == 0) {
			p->freq = W.freq;
			continue;
		}
		memset(&cr, 0, sizeof(cr));
		cr.op = r->op == 1 ? CLOCK_OP_ADJFREQ : CLOCK_OP_STEP;
		cr.freq_ppb = r->ppb;
		cr.step_ns = r->ns;
		if (clock_check_request(&W.b, &W.st, &cr, r->at) !=
		    CLOCK_ST_OK) {
			p->ok = 0;
			p->reason = PTPSEP__REFUSE_REASON__REFUSE_RATE_LIMITED;
			p->freq = W.freq;
			W.refused++;
			continue;
		}
		W.x_ns = w_offset(r->at);
		W.x_at = r->at;
		if (r->op == 1) {
			if (W.adjs > 0 && r->at - W.last_adj < W.min_gap)
				W.min_gap = r->at - W.last_adj;
			W.adjs++;
			W.last_adj = r->at;
			W.freq = r->ppb;
			clock_bounds_record_adj(&W.st, r->at);
		} else {
			W.steps++;
			W.x_ns += r->ns;
			clock_bounds_record_step(&W.st, r->at);
		}
		p->freq = W.freq;
		if (!clock_reply_due(0, &cr, 1))
			W.nrep--;	/* no answer to an accepted change */
	}
	memmove(W.req, W.req + i, (W.nreq - i) * sizeof(W.req[0]));
	W.nreq -= i;
}

/* clockd reads the replies that reached it by t (one dispatch's burst). */
static int
replies_run(int64_t t)
{
	struct netd_clock_reply r;
	struct nrep p;
	int n = 0;

	for (;;) {
		netd_run(t);
		if (W.nrep == 0 || W.rep[0].at > t)
			return n;
		p = W.rep[0];
		memmove(W.rep, W.rep + 1, --W.nrep * sizeof(W.rep[0]));
		memset(&r, 0, sizeof(r));
		r.id = p.id;
		r.ok = p.ok;
		r.refusal = p.ok ? CR_NONE :
		    netd_refusal_of((Ptpsep__RefuseReason)p.reason);
		r.freq_ppb = p.freq;
		clock_netd_cbs.clock_reply(&clk, &r);
		W.work += OP_COST_NS;
		n++;
		t = W.cache + W.work;
	}
}

/* ---- the loop ---- */

/* Nothing on its way and nothing waiting: clockd's frequency is netd's. */
static void
check_freq(void)
{
	if (W.nreq > 0 || W.nrep > 0 || clk.adj_pending || clk.servo == NULL)
		return;
	assert_true(clk.freq_ppb == W.freq);
	W.checks++;
	if (W.refused > 0)
		W.checks_after_refusal++;
}

static void
run_until(int64_t end)
{
	for (;;) {
		int64_t t = W.next_sync;
		struct ftimer *ft = NULL;
		unsigned i;

		netd_run(W.cache + W.work);
		for (i = 0; i < MAX_Q; i++)
			if (W.t[i].armed && W.t[i].due < t) {
				t = W.t[i].due;
				ft = &W.t[i];
			}
		if (W.nreq > 0 && W.req[0].at < t) {
			/* netd works on its own: clockd's time is not its */
			netd_run(W.req[0].at);
			continue;
		}
		if (W.nrep > 0 && W.rep[0].at < t) {
			t = W.rep[0].at;
			ft = NULL;
		}
		if (t > end)
			return;
		/* A dispatch starts when clockd is free again. */
		W.cache = t > W.cache + W.work ? t : W.cache + W.work;
		W.work = 0;
		if (replies_run(W.cache) > 0) {
			;
		} else if (ft != NULL) {
			ft->armed = 0;
			ft->cb(ft->arg);
		} else {
			int64_t now = W.cache, off = w_offset(now);

			W.work += RX_COST_NS;
			clock_synchronize(&clk, &clk.ports[0], now + off, off,
			    1000);
			W.next_sync += W.sync_period ? W.sync_period : S;
		}
		/* The rest of the burst: replies that came meanwhile. */
		replies_run(W.cache + W.work);
		check_freq();
	}
}

/* netd's PortList: one port, ClockInfo with min_adj_interval_ms. */
static void
connect_netd(void)
{
	static const uint8_t id[8] = { 0, 1, 2, 0xff, 0xfe, 3, 4, 5 };
	struct netd_port_desc port = {
		.iface = "eth0", .transport = NETD_TR_L2, .link_up = 1,
		.clock_identity = id,
	};
	struct netd_port_list pl = { .ports = &port, .nports = 1 };

	pl.have_clock = 1;
	pl.clock.max_freq_ppb = W.b.max_freq_ppb;
	pl.clock.step_allowed = 1;
	pl.clock.min_adj_interval_ms = INTERVAL_MS;
	clock_netd_cbs.connected(&clk, &pl);
}

static int
setup(void **state)
{
	(void)state;
	memset(&W, 0, sizeof(W));
	W.b.max_freq_ppb = 500000;
	W.b.allow_step = 1;
	W.b.min_adj_interval_ns = INTERVAL_MS * MS;
	clock_bounds_state_init(&W.st);
	W.x_ns = 1000000;		/* 1 ms off */
	W.err_ppb = 20000;		/* and 20 ppm fast */
	W.min_gap = INT64_MAX;
	W.cache = 100 * S;
	cfg = cfg_new();
	assert_non_null(cfg);
	assert_int_equal(cfg_set_int(cfg, NULL, "clientOnly", 1), 0);
	/* ptp4l's PI: what is tested is the rate limit, not a servo */
	assert_int_equal(cfg_set_int(cfg, NULL, "clock_servo", CFG_SERVO_PI),
	    0);
	return 0;
}

/* The same with the default servo (kalman). */
static int
setup_kalman(void **state)
{
	setup(state);
	assert_int_equal(cfg_set_int(cfg, NULL, "clock_servo",
	    CFG_SERVO_KALMAN), 0);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	clock_fini(&clk);
	cfg_free(cfg);
	return 0;
}

/* Starts clockd at W.cache, its first Sync sync_after later; runs 60 s. */
static void
run_pair(int64_t sync_after)
{
	int64_t t0 = W.cache;

	assert_int_equal(clock_init(&clk, &fake_env, cfg), 0);
	connect_netd();
	W.next_sync = t0 + sync_after;
	run_until(t0 + 60 * S);
	print_message("adjs %u steps %u refused %u min gap %.3f s, offset "
	    "%" PRId64 " ns, freq %.0f ppb\n", W.adjs, W.steps, W.refused,
	    (double)W.min_gap / 1e9, w_offset(W.cache), W.freq);
	assert_int_equal(W.refused, 0);
	assert_int_equal(W.steps, 1);
	assert_true(W.min_gap >= INTERVAL_MS * MS);
	/* not starved either: about one change per interval */
	assert_true(W.adjs >= 60 * 1000 / INTERVAL_MS - 4);
	assert_true(clk.servo_state == SERVO_LOCKED ||
	    clk.servo_state == SERVO_LOCKED_STABLE);
	assert_true(llabs(w_offset(W.cache)) < 1000);
	assert_true(W.checks > 0);
}

/*
 * The step at lock: the servo's JUMP sends a frequency and a step while
 * a Sync is being handled; netd's reply to the frequency is read in the
 * same burst, and the next change is due min_adj_interval_ms later.  A
 * timer counted from the dispatch's start fires before that.
 */
static void
test_interval_at_step(void **state)
{
	(void)state;
	W.early_arm = 1;
	run_pair(500 * MS);
}

/* The same with timers that keep time exactly. */
static void
test_interval_exact_timers(void **state)
{
	(void)state;
	run_pair(500 * MS);
}

/*
 * A clockd (re)connecting to a netd whose clock was changed just before
 * (by the clockd before it): its first change must wait too.
 */
static void
test_interval_after_reconnect(void **state)
{
	(void)state;
	clock_bounds_record_adj(&W.st, W.cache - 100 * MS);
	W.adjs = 1;
	W.last_adj = W.cache - 100 * MS;
	run_pair(200 * MS);
}

/*
 * netd busy now and then: every 4th change reaches it 60 ms late, so the
 * change after that one reaches it 60 ms less after it than clockd sent
 * them apart.  clockd counts the interval from its sends: its margin
 * (an eighth of 1.5 s, at most 100 ms) covers that, nothing is refused.
 */
static void
test_interval_latency_jitter(void **state)
{
	(void)state;
	W.spike_every = 4;
	W.spike_ns = 60 * MS;
	run_pair(500 * MS);
	assert_true(W.nadj_sent >= 8);
}

/*
 * Beyond the margin: every 4th change reaches netd 400 ms late, and the
 * one after it is refused RATE_LIMITED.  clockd then takes netd's word
 * for the frequency in effect, the one before (checked whenever nothing
 * is on its way), and sends the newest again an interval after the
 * refusal: never refused itself, so there are no more refusals than late
 * changes, and the clock still locks.
 */
static void
test_refused_change_reverts(void **state)
{
	int64_t t0 = W.cache;

	(void)state;
	W.spike_every = 4;
	W.spike_ns = 400 * MS;
	assert_int_equal(clock_init(&clk, &fake_env, cfg), 0);
	connect_netd();
	W.next_sync = t0 + 500 * MS;
	run_until(t0 + 60 * S);
	print_message("adjs %u sent %u refused %u checks %u (%u after a "
	    "refusal), offset %" PRId64 " ns\n", W.adjs, W.nadj_sent,
	    W.refused, W.checks, W.checks_after_refusal, w_offset(W.cache));
	assert_true(W.refused >= 2);
	assert_true(W.refused <= W.nadj_sent / 4);
	assert_true(W.checks_after_refusal > 0);
	assert_true(W.min_gap >= INTERVAL_MS * MS);
	assert_true(clk.servo_state == SERVO_LOCKED ||
	    clk.servo_state == SERVO_LOCKED_STABLE);
	/* a change in four held back twice as long: PI's offset stays
	 * near a microsecond (kalman's near 0, told what was in force) */
	assert_true(llabs(w_offset(W.cache)) < 5000);
}

/* ---- a PASSIVE port stays PASSIVE while the better master speaks ---- */

/* An Announce from a grandmaster better than this clock (priority1 100). */
static void
rx_announce(uint16_t seq)
{
	static const uint8_t gm[PTP_CLOCK_ID_LEN] = { 9, 9, 9, 9, 9, 9, 9, 9 };
	struct netd_rx f;
	struct ptp_msg m;
	uint8_t buf[128];
	int len;

	memset(&m, 0, sizeof(m));
	m.hdr.message_type = PTP_MT_ANNOUNCE;
	m.hdr.version = PTP_VERSION;
	m.hdr.sequence_id = seq;
	m.hdr.log_message_interval = 1;
	memcpy(m.hdr.source_port_identity.clock_identity, gm, sizeof(gm));
	m.hdr.source_port_identity.port_number = 1;
	m.body.announce.grandmaster_priority1 = 100;
	m.body.announce.grandmaster_priority2 = 128;
	m.body.announce.grandmaster_clock_quality.clock_class = 6;
	m.body.announce.grandmaster_clock_quality.clock_accuracy = 0x21;
	m.body.announce.grandmaster_clock_quality.offset_scaled_log_variance =
	    0x4e5d;
	memcpy(m.body.announce.grandmaster_identity, gm, sizeof(gm));
	len = ptp_msg_pack(&m, buf, sizeof(buf));
	assert_true(len > 0);
	memset(&f, 0, sizeof(f));
	f.port = 0;
	f.payload = buf;
	f.len = (size_t)len;
	clock_netd_cbs.rx_frame(&clk, &f);
}

/*
 * A clock of clockClass 6 hearing a better one (priority1 100 < 110) on
 * its only port: PASSIVE (9.3.3, P1), and it stays there as long as that
 * master's Announces keep coming, every 2 s for 120 s.  It used to go
 * MASTER at each announce receipt timeout (about every 7 s) and back.
 */
static void
test_passive_stays(void **state)
{
	int64_t t0 = W.cache, t;
	unsigned masters = 0, passive = 0;
	uint16_t seq = 0;

	(void)state;
	assert_int_equal(cfg_set_int(cfg, NULL, "clientOnly", 0), 0);
	assert_int_equal(cfg_set_int(cfg, NULL, "clockClass", 6), 0);
	assert_int_equal(cfg_set_int(cfg, NULL, "priority1", 110), 0);
	assert_int_equal(clock_init(&clk, &fake_env, cfg), 0);
	connect_netd();
	W.next_sync = INT64_MAX;	/* no Sync: Announces only */
	for (t = t0 + S; t < t0 + 120 * S; t += 2 * S) {
		run_until(t);
		W.cache = t;
		W.work = 0;
		rx_announce(seq++);
		if (clk.ports[0].state == PS_MASTER)
			masters++;
		if (clk.ports[0].state == PS_PASSIVE)
			passive++;
		if (passive > 0)
			assert_int_equal(clk.ports[0].state, PS_PASSIVE);
	}
	print_message("PASSIVE at %u of 60 Announces, MASTER at %u\n",
	    passive, masters);
	assert_true(passive >= 55);
}

/* ---- env_event.c: a timer never fires before its time ---- */

struct ee_probe {
	const struct env	*env;
	struct env_timer	*t;
	struct event		*wake;
	struct timeval		 wake_tv;
	int64_t			 armed_at, fired_at;
	int			 fired;
};

/*
 * sanity_freq_limit with the default servo: a clock 300 ppm off the rate
 * it was set to fails the clock check at every comparison, and the servo
 * must start over each time, as ptp4l's does, so the clock is never
 * reported locked.  The check compares samples >= 1 s apart: with Syncs
 * 0.999 s apart (a master a little fast, or jitter) every other sample is
 * compared, so the servo has one sample between two checks.  kalman's servo_reset() keeps the drift
 * (right for a new master), and with it alone the insane clock was locked
 * again at the sample after each check.  The same clock with the check off
 * (limit 0) locks: what keeps it unlocked is the check.
 */
static unsigned
run_insane(int limit)
{
	int64_t t0 = W.cache;
	unsigned i, locked = 0;

	assert_int_equal(cfg_set_int(cfg, NULL, "clock_servo",
	    CFG_SERVO_KALMAN), 0);
	assert_int_equal(cfg_set_int(cfg, NULL, "sanity_freq_limit", limit),
	    0);
	W.err_ppb = 300000;
	W.sync_period = S - MS;
	assert_int_equal(clock_init(&clk, &fake_env, cfg), 0);
	connect_netd();
	W.next_sync = t0 + S / 2;
	for (i = 1; i <= 60; i++) {
		run_until(t0 + (int64_t)i * S);
		if (i > 10 && (clk.servo_state == SERVO_LOCKED ||
		    clk.servo_state == SERVO_LOCKED_STABLE))
			locked++;
	}
	print_message("sanity_freq_limit %d: %u of 50 samples locked, %"
	    PRIu64 " clock check failures\n", limit, locked, clk.insane);
	return locked;
}

static void
test_insane_never_locks(void **state)
{
	(void)state;
	assert_int_equal(run_insane(100000), 0);
	assert_true(clk.insane >= 20);
}

static void
test_insane_check_off_locks(void **state)
{
	(void)state;
	assert_true(run_insane(0) >= 40);
	assert_int_equal(clk.insane, 0);
}

static void
ee_fired(void *arg)
{
	struct ee_probe *pr = arg;

	pr->fired_at = env_now(pr->env);
	pr->fired = 1;
}

static void
ee_nothing(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
}

static void
ee_busy_then_arm(evutil_socket_t fd, short what, void *arg)
{
	struct ee_probe *pr = arg;
	int64_t t0 = env_now(pr->env);

	(void)fd;
	(void)what;
	/* A callback that works 20 ms before it arms a timer (a burst of
	 * netd messages, a log line on a slow disk): libevent counts the
	 * timer from the time it cached when the loop woke. */
	while (env_now(pr->env) - t0 < 20 * MS)
		;
	pr->armed_at = env_now(pr->env);
	env_timer_arm(pr->env, pr->t, 30 * MS);
	/* Another event in between (a Sync, an Announce) wakes the loop,
	 * which then takes the timer's deadline by a fresh clock. */
	evtimer_add(pr->wake, &pr->wake_tv);
}

static void
test_env_event_never_early(void **state)
{
	struct event_base *base = event_base_new();
	struct env_event *ee;
	struct ee_probe pr;
	struct event *kick;
	struct timeval zero = { 0, 0 };
	static const struct netd_client_cbs no_cbs;

	(void)state;
	assert_non_null(base);
	ee = env_event_new(base, "/nonexistent/netd.sock", &no_cbs, NULL);
	assert_non_null(ee);
	memset(&pr, 0, sizeof(pr));
	pr.env = env_event_env(ee);
	pr.t = env_timer_new(pr.env, ee_fired, &pr);
	assert_non_null(pr.t);
	kick = evtimer_new(base, ee_busy_then_arm, &pr);
	assert_non_null(kick);
	pr.wake = evtimer_new(base, ee_nothing, NULL);
	assert_non_null(pr.wake);
	pr.wake_tv.tv_usec = 5000;
	evtimer_add(kick, &zero);
	event_base_dispatch(base);
	assert_true(pr.fired);
	print_message("armed for 30 ms, fired after %.3f ms\n",
	    (double)(pr.fired_at - pr.armed_at) / 1e6);
	assert_true(pr.fired_at - pr.armed_at >= 30 * MS);
	event_free(kick);
	event_free(pr.wake);
	env_timer_free(pr.env, pr.t);
	env_event_free(ee);
	event_base_free(base);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_interval_exact_timers,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_interval_at_step,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_interval_after_reconnect,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_interval_exact_timers,
		    setup_kalman, teardown),
		cmocka_unit_test_setup_teardown(test_interval_at_step,
		    setup_kalman, teardown),
		cmocka_unit_test_setup_teardown(test_interval_after_reconnect,
		    setup_kalman, teardown),
		cmocka_unit_test_setup_teardown(test_interval_latency_jitter,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_interval_latency_jitter,
		    setup_kalman, teardown),
		cmocka_unit_test_setup_teardown(test_refused_change_reverts,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_change_reverts,
		    setup_kalman, teardown),
		cmocka_unit_test_setup_teardown(test_passive_stays, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_insane_never_locks, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_insane_check_off_locks,
		    setup, teardown),
		cmocka_unit_test(test_env_event_never_early),
	};

	log_init("test_clock_env", 1, LOG_LVL_WARN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
