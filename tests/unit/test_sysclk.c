/*
 * test_sysclk.c - clockd's system clock servo (clockd/sysclk.[ch]): the
 * direction table (phc2sys -a -r), the UTC offset between a TAI PTP clock
 * and a UTC system clock and the sign of the follower's offset, then the
 * engine on a fake env: compares at system_clock_update_rate, one in
 * flight, the system clock's frequency and step requests carrying
 * system_clock, a step the bounds forbid (or netd refuses) slewed instead,
 * the grandmaster direction steering the PTP clock through the PTP
 * clock's own requests, and an ARB grandmaster's time taken as it is.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cfg.h"
#include "clockd/clockd.h"
#include "fake_timers.h"
#include "clockd/sysclk.h"
#include "ptp_msg.h"

#define S		1000000000LL
#define TAI		(PTP_FLAG_PTP_TIMESCALE | PTP_FLAG_UTC_OFFSET_VALID | \
			 PTP_FLAG_TIME_TRACEABLE)

/* ---- pure ---- */

static void
test_direction(void **state)
{
	(void)state;
	/* slave, grandmaster, holdover */
	assert_int_equal(sysclk_direction(1, 0, 0), SYSCLK_SYS_FOLLOWS_PTP);
	assert_int_equal(sysclk_direction(0, 0, 1), SYSCLK_SYS_FOLLOWS_PTP);
	assert_int_equal(sysclk_direction(0, 1, 0), SYSCLK_PTP_FOLLOWS_SYS);
	/* a slave port wins over a master port of the same clock */
	assert_int_equal(sysclk_direction(1, 1, 0), SYSCLK_SYS_FOLLOWS_PTP);
	assert_int_equal(sysclk_direction(0, 0, 0), SYSCLK_OFF);
}

static void
test_utc_offset(void **state)
{
	(void)state;
	/* a PTP clock counting UTC itself: nothing between the two */
	assert_int_equal(sysclk_utc_offset(0, 0, TAI, 37, 37), 0);
	assert_int_equal(sysclk_utc_offset(0, 1, TAI, 37, 37), 0);
	/* grandmaster: its own announced offset */
	assert_int_equal(sysclk_utc_offset(1, 1, TAI, 36, 37), 36);
	/* slave of a PTP-timescale grandmaster: the offset believed */
	assert_int_equal(sysclk_utc_offset(1, 0, TAI, 35, 37), 37);
	/* slave of an ARB grandmaster: its time taken as it is */
	assert_int_equal(sysclk_utc_offset(1, 0, PTP_FLAG_UTC_OFFSET_VALID,
	    37, 37), 0);
}

static void
test_offset_sign(void **state)
{
	int64_t o = 1;

	(void)state;
	/* in step: the system clock 37 s behind the TAI clock */
	assert_int_equal(sysclk_offset(SYSCLK_SYS_FOLLOWS_PTP, -37 * S, 37,
	    &o), 0);
	assert_int_equal(o, 0);
	/* not applying the offset would be 37 s off */
	assert_int_equal(sysclk_offset(SYSCLK_SYS_FOLLOWS_PTP, -37 * S, 0,
	    &o), 0);
	assert_int_equal(o, -37 * S);
	/* the system clock 500 ns ahead: +500 for it, -500 for the PTP clock
	 * (it is behind its leader) */
	assert_int_equal(sysclk_offset(SYSCLK_SYS_FOLLOWS_PTP, -37 * S + 500,
	    37, &o), 0);
	assert_int_equal(o, 500);
	assert_int_equal(sysclk_offset(SYSCLK_PTP_FOLLOWS_SYS, -37 * S + 500,
	    37, &o), 0);
	assert_int_equal(o, -500);
	assert_int_equal(sysclk_offset(SYSCLK_SYS_FOLLOWS_PTP, INT64_MAX, 37,
	    &o), -ERANGE);
	assert_int_equal(sysclk_offset(SYSCLK_PTP_FOLLOWS_SYS, INT64_MIN, 0,
	    &o), -ERANGE);
}

#define D2017	1483228800LL	/* 2017-01-01 00:00:00 UTC, after a leap61 */

static void
test_leap_hold(void **state)
{
	(void)state;
	assert_false(sysclk_leap_hold(TAI, D2017 * S - S / 2));
	/* leap61: the last second of the day and after midnight, while the
	 * flag stays */
	assert_false(sysclk_leap_hold(PTP_FLAG_LEAP61, (D2017 - 6 * 3600) * S));
	assert_false(sysclk_leap_hold(PTP_FLAG_LEAP61, (D2017 - 2) * S));
	assert_true(sysclk_leap_hold(PTP_FLAG_LEAP61, (D2017 - 1) * S + 1));
	assert_true(sysclk_leap_hold(PTP_FLAG_LEAP61, D2017 * S + S / 2));
	assert_true(sysclk_leap_hold(PTP_FLAG_LEAP61, (D2017 + 3) * S));
	/* leap59: 23:59:59 does not exist, 23:59:58 is the last second */
	assert_false(sysclk_leap_hold(PTP_FLAG_LEAP59, (D2017 - 3) * S));
	assert_true(sysclk_leap_hold(PTP_FLAG_LEAP59, (D2017 - 2) * S));
}

/* ---- the engine on a fake env ---- */

#define NR	64
static struct {
	struct netd_clock_req req[NR];	/* clock_req calls */
	unsigned	 nreq;
	unsigned	 nadj, nstep;	/* the PTP clock's own requests */
	double		 adj_ppb;
	int64_t		 step_ns;
	uint64_t	 step_id;
} W;
static struct clockd clk;
static struct cfg *cfg;

static void f_netd_start(void *ctx) { (void)ctx; }
static int f_netd_ready(void *ctx) { (void)ctx; return 1; }

static int
f_send_frame(void *ctx, unsigned port, int event, enum netd_dest dest,
    const struct netd_addr *u, const uint8_t *p, size_t len, uint64_t cookie,
    int want_ts, const uint8_t *fu, size_t fu_len)
{
	(void)ctx; (void)port; (void)event; (void)dest; (void)u; (void)p;
	(void)len; (void)cookie; (void)want_ts; (void)fu; (void)fu_len;
	return 0;
}

static int f_clock_read(void *ctx, uint64_t id) { (void)ctx; (void)id;
	return 0; }

static int
f_adjfreq(void *ctx, uint64_t id, double ppb)
{
	(void)ctx; (void)id;
	W.nadj++;
	W.adj_ppb = ppb;
	return 0;
}

static int
f_step(void *ctx, uint64_t id, int64_t ns)
{
	(void)ctx;
	W.nstep++;
	W.step_ns = ns;
	W.step_id = id;
	return 0;
}

static int
f_clock_req(void *ctx, const struct netd_clock_req *r)
{
	(void)ctx;
	assert_true(W.nreq < NR);
	W.req[W.nreq++] = *r;
	return 0;
}

static const struct env_ops fops = {
	.now = fake_now, .timer_new = fake_timer_new,
	.timer_free = fake_timer_free, .timer_arm = fake_timer_arm,
	.timer_cancel = fake_timer_cancel, .timer_pending = fake_timer_pending, .netd_start = f_netd_start,
	.netd_ready = f_netd_ready, .send_frame = f_send_frame,
	.clock_read = f_clock_read, .clock_adjfreq = f_adjfreq,
	.clock_step = f_step, .clock_req = f_clock_req,
};

static struct fake_timer *
cmp_timer(void)
{
	return fake_timer_of(clk.sys.t_cmp);
}

/* The last request of op (the test fails if there is none). */
static const struct netd_clock_req *
last_req(enum netd_clock_op op)
{
	unsigned i;

	for (i = W.nreq; i > 0; i--)
		if (W.req[i - 1].op == op)
			return &W.req[i - 1];
	fail_msg("no clock request of op %d", (int)op);
	return &W.req[0];
}

static unsigned
count_req(enum netd_clock_op op)
{
	unsigned i, n = 0;

	for (i = 0; i < W.nreq; i++)
		n += W.req[i].op == op;
	return n;
}

/* A clockd with a virtual PTP clock (TAI with sync_system_clock 1) and a
 * system clock of these bounds, its status read answered. */
static void
start(const char *rate, int sys_step_allowed)
{
	static const uint8_t id[8] = { 0, 1, 2, 0xff, 0xfe, 3, 4, 5 };
	struct netd_port_desc port = {
		.iface = "eth0", .transport = NETD_TR_L2, .link_up = 0,
		.clock_identity = id,
	};
	struct netd_port_list pl = { .ports = &port, .nports = 1 };
	struct netd_clock_reply r = { .ok = 1, .system_clock = 1 };
	struct env env = { &fops, NULL };
	const struct netd_clock_req *q;

	memset(&W, 0, sizeof(W));
	fake_timers_reset();
	fake_now_ns = 1000 * S;
	cfg = cfg_new();
	assert_non_null(cfg);
	assert_int_equal(cfg_set_str(cfg, NULL, "clock_device", "virtual"), 0);
	assert_int_equal(cfg_set_from_string(cfg, NULL, "time_stamping", "software"),
	    0);
	assert_int_equal(cfg_set_int(cfg, NULL, "sync_system_clock", 1), 0);
	assert_int_equal(cfg_set_from_string(cfg, NULL, "system_clock_device",
	    "virtual"), 0);
	if (rate != NULL)
		assert_int_equal(cfg_set_from_string(cfg, NULL,
		    "system_clock_update_rate", rate), 0);
	assert_int_equal(clock_init(&clk, &env, cfg), 0);
	assert_false(clk.local_utc);	/* counts TAI: plays a PHC */
	pl.have_clock = 1;
	pl.clock.max_freq_ppb = 500000;
	pl.clock.step_allowed = 1;
	pl.clock.ptp_timescale = 1;
	pl.have_sys_clock = 1;
	pl.sys_clock.max_freq_ppb = 500000;
	pl.sys_clock.step_allowed = sys_step_allowed;
	pl.sys_clock.sysoff = NETD_SYSOFF_SAME_BASE;
	clock_netd_cbs.connected(&clk, &pl);
	{
		struct netd_clock_reply s = { .id = CLOCK_REQ_STATUS, .ok = 1 };

		clock_netd_cbs.clock_reply(&clk, &s);
	}
	/* the system clock's own status read */
	q = last_req(NETD_CLOCK_READ);
	assert_true(q->system_clock);
	r.id = q->id;
	r.freq_ppb = 20000.0;
	clock_netd_cbs.clock_reply(&clk, &r);
	assert_true(clk.sys.sys_freq_known);
}

static void
stop(void)
{
	clock_fini(&clk);
	cfg_free(cfg);
}

/* A slave of a grandmaster on the PTP timescale, currentUtcOffset 37. */
static void
be_slave(uint16_t flags)
{
	clk.ports[0].state = PS_SLAVE;
	clk.slave_port = 0;
	clk.cds.steps_removed = 1;
	clk.pds.gm_identity[0] = 0xaa;
	clk.tds.flags = flags;
	clk.tds.current_utc_offset = 37;
	clk.utc_offset = 37;
}

static void
be_gm(void)
{
	clk.ports[0].state = PS_MASTER;
	clk.slave_port = -1;
	clock_update_grandmaster(&clk);
}

/* The compare timer fires; the compare is answered with raw, taken at
 * the PTP clock's ptp_ns (0: no time given). */
static void
sample_at(int64_t raw, int64_t ptp_ns)
{
	struct netd_clock_reply r = { .ok = 1, .have_offset = 1 };
	const struct netd_clock_req *q;
	unsigned n = count_req(NETD_CLOCK_COMPARE);

	assert_true(cmp_timer()->armed);
	fake_now_ns = cmp_timer()->due;
	cmp_timer()->armed = 0;
	cmp_timer()->cb(cmp_timer()->arg);
	assert_int_equal(count_req(NETD_CLOCK_COMPARE), n + 1);
	q = last_req(NETD_CLOCK_COMPARE);
	assert_false(q->system_clock);
	r.id = q->id;
	r.offset.sys_minus_ptp_ns = raw;
	r.offset.method = NETD_SYSOFF_SAME_BASE;
	if (ptp_ns != 0) {
		r.offset.have_ptp_time = 1;
		r.offset.ptp_time.sec = (uint64_t)(ptp_ns / S);
		r.offset.ptp_time.nsec = (uint32_t)(ptp_ns % S);
	}
	clock_netd_cbs.clock_reply(&clk, &r);
}

static void
sample(int64_t raw)
{
	sample_at(raw, 0);
}

static void
test_rate(void **state)
{
	(void)state;
	start("4", 1);
	/* every 1/4 s */
	assert_true(cmp_timer()->armed);
	assert_int_equal(cmp_timer()->due - fake_now_ns, S / 4);
	fake_now_ns = cmp_timer()->due;
	cmp_timer()->armed = 0;
	cmp_timer()->cb(cmp_timer()->arg);
	assert_int_equal(count_req(NETD_CLOCK_COMPARE), 1);
	assert_int_equal(cmp_timer()->due - fake_now_ns, S / 4);
	/* unanswered: no second compare in flight a period later */
	fake_now_ns = cmp_timer()->due;
	cmp_timer()->armed = 0;
	cmp_timer()->cb(cmp_timer()->arg);
	assert_int_equal(count_req(NETD_CLOCK_COMPARE), 1);
	stop();
	/* the default: 1 Hz */
	start(NULL, 1);
	assert_int_equal(cmp_timer()->due - fake_now_ns, S);
	stop();
}

static void
test_slave_steps_system_clock(void **state)
{
	const struct netd_clock_req *q;

	(void)state;
	start(NULL, 1);
	be_slave(TAI);
	/* the system clock 3 s ahead of UTC: raw -37 s + 3 s */
	sample(-37 * S + 3 * S);
	assert_int_equal(clk.sys.dir, SYSCLK_SYS_FOLLOWS_PTP);
	assert_int_equal(clk.sys.offset_ns, 3 * S);
	assert_int_equal(clk.sys.utc_offset_s, 37);
	assert_int_equal(count_req(NETD_CLOCK_STEP), 0);
	sample(-37 * S + 3 * S);
	/* the servo's jump: a step by -3 s of the system clock only */
	q = last_req(NETD_CLOCK_STEP);
	assert_true(q->system_clock);
	assert_int_equal(q->step_ns, -3 * S);
	q = last_req(NETD_CLOCK_ADJFREQ);
	assert_true(q->system_clock);
	assert_int_equal(W.nstep, 0);		/* the PTP clock untouched */
	assert_int_equal(W.nadj, 0);
	/* netd accepts the step */
	{
		struct netd_clock_reply r = { .ok = 1, .system_clock = 1 };

		r.id = last_req(NETD_CLOCK_STEP)->id;
		clock_netd_cbs.clock_reply(&clk, &r);
	}
	assert_int_equal(clk.sys.steps, 1);
	/* in step: locked, frequency changes carry system_clock */
	sample(-37 * S + 10);
	sample(-37 * S + 5);
	assert_int_equal(clk.sys.state, SERVO_LOCKED);
	assert_true(last_req(NETD_CLOCK_ADJFREQ)->system_clock);
	assert_int_equal(clk.sys.refusal, CR_NONE);
	/* the PTP clock's own servo steps it by -5 s (netd accepts): the
	 * system clock's servo starts over and steps again, not slewing
	 * 5 s away at max_freq_ppb */
	clk.stepping = 1;
	clk.step_id = 999;
	clk.step_ns = -5 * S;
	{
		struct netd_clock_reply r = { .id = 999, .ok = 1 };

		clock_netd_cbs.clock_reply(&clk, &r);
	}
	assert_int_equal(clk.sys.state, SERVO_UNLOCKED);
	sample(-37 * S + 5 * S);
	sample(-37 * S + 5 * S);
	assert_int_equal(count_req(NETD_CLOCK_STEP), 2);
	assert_int_equal(last_req(NETD_CLOCK_STEP)->step_ns, -5 * S);
	assert_false(clk.sys.slewing);
	stop();
}

static void
test_refused_step_slews(void **state)
{
	const struct netd_clock_req *q;

	(void)state;
	/* the system clock's bounds forbid steps */
	start(NULL, 0);
	be_slave(TAI);
	sample(-37 * S + 3 * S);
	sample(-37 * S + 3 * S);
	assert_int_equal(count_req(NETD_CLOCK_STEP), 0);
	assert_int_equal(clk.sys.refusal, CR_STEP_NOT_ALLOWED);
	assert_true(clk.sys.slewing);
	q = last_req(NETD_CLOCK_ADJFREQ);
	assert_true(q->system_clock);
	assert_true(q->freq_ppb < -400000.0);	/* ahead: slower, at the bound */
	assert_int_not_equal(clk.sys.state, SERVO_LOCKED);
	stop();

	/* allowed, but netd refuses it (max_step_ns): slewed as well */
	start(NULL, 1);
	be_slave(TAI);
	sample(-37 * S - 2 * S);
	sample(-37 * S - 2 * S);
	q = last_req(NETD_CLOCK_STEP);
	{
		struct netd_clock_reply r = { .ok = 0, .system_clock = 1,
		    .refusal = CR_STEP_TOO_LARGE, .freq_ppb = 20000.0 };

		r.id = q->id;
		clock_netd_cbs.clock_reply(&clk, &r);
	}
	assert_true(clk.sys.slewing);
	assert_int_equal(clk.sys.refusal, CR_STEP_TOO_LARGE);
	assert_int_equal(clk.sys.refused_step_ns, 2 * S);
	q = last_req(NETD_CLOCK_ADJFREQ);
	assert_true(q->system_clock);
	assert_true(q->freq_ppb > 400000.0);	/* behind: faster */
	/* the next sample slews on, no second step of that size (a smaller
	 * one may be tried, as the PTP clock's servo does) */
	sample(-37 * S - 2 * S);
	assert_int_equal(count_req(NETD_CLOCK_STEP), 1);
	assert_true(last_req(NETD_CLOCK_ADJFREQ)->freq_ppb > 400000.0);
	stop();
}

static void
test_gm_steers_ptp_clock(void **state)
{
	(void)state;
	start(NULL, 1);
	be_gm();
	/* as grandmaster: currentUtcOffset 37 (utc_offset), PTP timescale */
	assert_true(clk.tds.flags & PTP_FLAG_PTP_TIMESCALE);
	assert_int_equal(clk.tds.current_utc_offset, 37);
	/* the PTP clock 1 ms ahead of the system clock's TAI */
	sample(-37 * S - 1000000);
	assert_int_equal(clk.sys.dir, SYSCLK_PTP_FOLLOWS_SYS);
	assert_int_equal(clk.sys.offset_ns, 1000000);
	sample(-37 * S - 1000000);
	/* the PTP clock's own step, by -1 ms; nothing on the system clock */
	assert_int_equal(W.nstep, 1);
	assert_int_equal(W.step_ns, -1000000);
	assert_int_equal(count_req(NETD_CLOCK_STEP), 0);
	assert_int_equal(count_req(NETD_CLOCK_ADJFREQ), 0);
	assert_true(W.nadj >= 1);
	stop();
}

static void
test_arb_gm_no_correction(void **state)
{
	(void)state;
	start(NULL, 1);
	be_slave(PTP_FLAG_UTC_OFFSET_VALID);	/* ARB */
	sample(5000);
	assert_int_equal(clk.sys.utc_offset_s, 0);
	assert_int_equal(clk.sys.offset_ns, 5000);
	stop();
}

/* A slave's UTC system clock repeats 23:59:59 (leap61): the second it
 * differs from the PTP clock moves neither servo nor clock. */
static void
test_leap_no_step(void **state)
{
	unsigned steps, adjs;

	(void)state;
	start(NULL, 1);
	be_slave(TAI | PTP_FLAG_LEAP61);
	/* in step a minute before the leap */
	sample_at(-37 * S, (D2017 + 37 - 60) * S);
	sample_at(-37 * S, (D2017 + 37 - 59) * S);
	sample_at(-37 * S, (D2017 + 37 - 58) * S);
	steps = count_req(NETD_CLOCK_STEP);
	adjs = count_req(NETD_CLOCK_ADJFREQ);
	/* the inserted second and after: the system clock 1 s behind */
	sample_at(-38 * S, (D2017 + 37) * S + S / 2);
	sample_at(-38 * S, (D2017 + 37 + 1) * S);
	sample_at(-38 * S, (D2017 + 37 + 2) * S);
	assert_int_equal(count_req(NETD_CLOCK_STEP), steps);
	assert_int_equal(count_req(NETD_CLOCK_ADJFREQ), adjs);
	assert_int_equal(clk.sys.leap_held, 3);
	/* the grandmaster's new offset, no flag: in step again */
	clk.tds.flags = TAI;
	clk.tds.current_utc_offset = 38;
	clk.utc_offset = 38;
	sample_at(-38 * S, (D2017 + 38 + 3) * S);
	assert_int_equal(clk.sys.offset_ns, 0);
	assert_int_equal(clk.sys.leap_held, 0);
	assert_int_equal(count_req(NETD_CLOCK_STEP), steps);
	stop();
}

static void
test_neither(void **state)
{
	(void)state;
	start(NULL, 1);
	clk.ports[0].state = PS_LISTENING;
	sample(-37 * S + 3 * S);
	sample(-37 * S + 3 * S);
	assert_int_equal(clk.sys.dir, SYSCLK_OFF);
	assert_int_equal(clk.sys.state, SERVO_UNLOCKED);
	assert_int_equal(count_req(NETD_CLOCK_STEP), 0);
	assert_int_equal(count_req(NETD_CLOCK_ADJFREQ), 0);
	assert_int_equal(W.nstep + W.nadj, 0);
	stop();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direction),
		cmocka_unit_test(test_utc_offset),
		cmocka_unit_test(test_offset_sign),
		cmocka_unit_test(test_leap_hold),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_slave_steps_system_clock),
		cmocka_unit_test(test_refused_step_slews),
		cmocka_unit_test(test_gm_steers_ptp_clock),
		cmocka_unit_test(test_arb_gm_no_correction),
		cmocka_unit_test(test_leap_no_step),
		cmocka_unit_test(test_neither),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
