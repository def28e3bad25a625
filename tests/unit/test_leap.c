/*
 * test_leap.c - the grandmaster's leap-second announcement: clockd/leap.c
 * (pure) on tzdata's table, and clockd/clock_leap.c in the engine
 * (clock_init with a leapfile, netd's clock readings delivered through
 * clock_netd_cbs) across the 2016-12-31 insertion: currentUtcOffset 36
 * and no flag 13 h before, leap61 from 12 h before, 37 and no flag after;
 * the same from a clock counting PTP time (a PHC).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cfg.h"
#include "clockd/clockd.h"
#include "fake_timers.h"
#include "leapfile.h"
#include "log.h"
#include "ptp_msg.h"

#define S		1000000000LL
#define D2017		1483228800LL	/* 2017-01-01 00:00:00 UTC */
#define D2015_07	1435708800LL	/* 2015-07-01 */

static struct leaptab tab;

static void
load(void)
{
	struct leapfile_err err;

	assert_int_equal(leapfile_load(LEAP_VECTOR, &tab, &err), 0);
}

static void
test_props(void **state)
{
	struct leap_props lp;

	(void)state;
	load();
	/* 13 h before: 36 s, nothing pending */
	assert_int_equal(leap_props_at(&tab, (D2017 - 13 * 3600) * S, &lp), 0);
	assert_int_equal(lp.offset, 36);
	assert_int_equal(lp.leap, 0);
	/* 12 h before, to the ns: leap61 */
	assert_int_equal(leap_props_at(&tab, (D2017 - 12 * 3600) * S - 1,
	    &lp), 0);
	assert_int_equal(lp.leap, 0);
	assert_int_equal(leap_props_at(&tab, (D2017 - 12 * 3600) * S, &lp), 0);
	assert_int_equal(lp.leap, 1);
	assert_int_equal(lp.leap_at_s, D2017);
	assert_int_equal(lp.offset, 36);
	/* the last ns of 23:59:59 (and of the repeated one) */
	assert_int_equal(leap_props_at(&tab, D2017 * S - 1, &lp), 0);
	assert_int_equal(lp.leap, 1);
	assert_int_equal(lp.offset, 36);
	/* midnight: done */
	assert_int_equal(leap_props_at(&tab, D2017 * S, &lp), 0);
	assert_int_equal(lp.leap, 0);
	assert_int_equal(lp.offset, 37);
	/* 2015-06-30: the leap before */
	assert_int_equal(leap_props_at(&tab, (D2015_07 - 60) * S, &lp), 0);
	assert_int_equal(lp.leap, 1);
	assert_int_equal(lp.offset, 35);
	/* before 1972: none */
	assert_int_equal(leap_props_at(&tab, 0, &lp), -1);
	assert_int_equal(leap_props_at(&tab, -5 * S, &lp), -1);
}

/* The last second before the leap (a UTC clock repeats it). */
static void
test_ambiguous(void **state)
{
	struct leap_props lp;

	(void)state;
	load();
	assert_int_equal(leap_props_at(&tab, (D2017 - 2) * S, &lp), 0);
	assert_false(leap_ambiguous(&lp, (D2017 - 1) * S - 1));
	assert_true(leap_ambiguous(&lp, (D2017 - 1) * S));
	assert_true(leap_ambiguous(&lp, D2017 * S - 1));
	assert_false(leap_ambiguous(&lp, D2017 * S));
	/* nothing pending: never */
	assert_int_equal(leap_props_at(&tab, (D2017 + 10) * S, &lp), 0);
	assert_false(leap_ambiguous(&lp, (D2017 + 86400 - 1) * S));
	/* leap59: 23:59:58 is the last second of the day */
	lp.leap = -1;
	lp.leap_at_s = D2017;
	assert_true(leap_ambiguous(&lp, (D2017 - 2) * S));
	assert_false(leap_ambiguous(&lp, (D2017 - 1) * S));
}

/* A leap59 (a table edited to remove a second) announces leap59. */
static void
test_leap59(void **state)
{
	static const char f[] = "#@ 3991593600\n2272060800 10\n"
	    "2287785600 9\n";
	struct leapfile_err err;
	struct leap_props lp;
	int64_t at = 2287785600LL - LEAPFILE_NTP_UNIX;

	(void)state;
	assert_int_equal(leapfile_parse(f, sizeof(f) - 1, &tab, &err), 0);
	assert_int_equal(leap_props_at(&tab, (at - 100) * S, &lp), 0);
	assert_int_equal(lp.leap, -1);
	assert_int_equal(lp.offset, 10);
	assert_int_equal(leap_props_at(&tab, at * S, &lp), 0);
	assert_int_equal(lp.leap, 0);
	assert_int_equal(lp.offset, 9);
}

static void
test_utc_of(void **state)
{
	int64_t utc;

	(void)state;
	load();
	/* a UTC clock is its own UTC */
	assert_int_equal(leap_utc_of(&tab, D2017 * S + 5, 0, &utc), 0);
	assert_int_equal(utc, D2017 * S + 5);
	/* PTP time: TAI; 23:59:59.5 is TAI midnight + 35.5 s */
	assert_int_equal(leap_utc_of(&tab, (D2017 + 35) * S + S / 2, 1, &utc),
	    0);
	assert_int_equal(utc, (D2017 - 1) * S + S / 2);
	/* the inserted second: 23:59:59.5 again */
	assert_int_equal(leap_utc_of(&tab, (D2017 + 36) * S + S / 2, 1, &utc),
	    0);
	assert_int_equal(utc, (D2017 - 1) * S + S / 2);
	assert_int_equal(leap_utc_of(&tab, (D2017 + 37) * S, 1, &utc), 0);
	assert_int_equal(utc, D2017 * S);
	/* before 1972 */
	assert_int_equal(leap_utc_of(&tab, 0, 0, &utc), -1);
	assert_int_equal(leap_utc_of(&tab, 5 * S, 1, &utc), -1);
}

static void
test_next_read(void **state)
{
	(void)state;
	load();
	/* far: every LEAP_READ_FAR_NS */
	assert_int_equal(leap_next_read_ns(&tab, D2015_07 * S),
	    LEAP_READ_FAR_NS);
	/* after the last leap in the table */
	assert_int_equal(leap_next_read_ns(&tab, (D2017 + 10) * S),
	    LEAP_READ_FAR_NS);
	/* 5 s before the window opens: in 5 s */
	assert_int_equal(leap_next_read_ns(&tab, (D2017 - 12 * 3600 - 5) * S),
	    5 * S);
	/* in the window: every second, and right at midnight */
	assert_int_equal(leap_next_read_ns(&tab, (D2017 - 100) * S),
	    LEAP_READ_NEAR_NS);
	assert_int_equal(leap_next_read_ns(&tab, D2017 * S - S / 4), S / 4);
	/* never less than 1 ms */
	assert_int_equal(leap_next_read_ns(&tab, D2017 * S - 10), 1000000);
}

/* ---- the engine: a fake env with timers and recorded clock reads ---- */

static struct {
	uint64_t	 read_id;	/* the last read asked, 0: none */
	unsigned	 reads;
	unsigned	 nleap;		/* ClockSetLeap requests */
	struct netd_clock_req leap;	/* the last one */
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

static int
f_clock_read(void *ctx, uint64_t id)
{
	(void)ctx;
	W.read_id = id;
	W.reads++;
	return 0;
}

static int
f_adjfreq(void *ctx, uint64_t id, double ppb)
{
	(void)ctx; (void)id; (void)ppb;
	return 0;
}

static int
f_step(void *ctx, uint64_t id, int64_t ns)
{
	(void)ctx; (void)id; (void)ns;
	return 0;
}

static int
f_clock_req(void *ctx, const struct netd_clock_req *q)
{
	(void)ctx;
	if (q->op == NETD_CLOCK_LEAP) {
		W.nleap++;
		W.leap = *q;
	}
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

/* The leap reading's timer (the engine's others are not run here). */
static struct fake_timer *
leap_timer(void)
{
	return fake_timer_of(clk.leap.t_read);
}

static void
start(const char *clock_device)
{
	static const uint8_t id[8] = { 0, 1, 2, 0xff, 0xfe, 3, 4, 5 };
	struct netd_port_desc port = {
		.iface = "eth0", .transport = NETD_TR_L2, .link_up = 0,
		.clock_identity = id,
	};
	struct netd_port_list pl = { .ports = &port, .nports = 1 };
	struct env env = { &fops, NULL };

	memset(&W, 0, sizeof(W));
	fake_timers_reset();
	fake_now_ns = 1000 * S;
	cfg = cfg_new();
	assert_non_null(cfg);
	assert_int_equal(cfg_set_str(cfg, NULL, "leapfile", LEAP_VECTOR), 0);
	assert_int_equal(cfg_set_str(cfg, NULL, "clock_device", clock_device),
	    0);
	assert_int_equal(clock_init(&clk, &env, cfg), 0);
	clock_netd_cbs.connected(&clk, &pl);
	/* the start-up status read: answer it */
	{
		struct netd_clock_reply r = { .id = CLOCK_REQ_STATUS, .ok = 1 };

		clock_netd_cbs.clock_reply(&clk, &r);
	}
	W.read_id = 0;
}

static void
stop(void)
{
	clock_fini(&clk);
	cfg_free(cfg);
}

/* Runs the leap timer when due: it asks for a reading, answered at clock
 * time clk_ns; returns the delay the engine armed after the answer. */
static int64_t
read_at(int64_t clk_ns)
{
	struct netd_clock_reply r = { .ok = 1, .have_now = 1 };

	assert_true(leap_timer()->armed);
	fake_now_ns = leap_timer()->due;
	leap_timer()->armed = 0;
	leap_timer()->cb(leap_timer()->arg);
	assert_int_not_equal(W.read_id, 0);
	r.id = W.read_id;
	r.now.sec = (uint64_t)(clk_ns / S);
	r.now.nsec = (uint32_t)(clk_ns % S);
	W.read_id = 0;
	clock_netd_cbs.clock_reply(&clk, &r);
	assert_true(leap_timer()->armed);
	return leap_timer()->due - fake_now_ns;
}

static void
check_tds(int offset, uint16_t leap_flag)
{
	assert_int_equal(clk.tds.current_utc_offset, offset);
	assert_int_equal(clk.tds.flags & (PTP_FLAG_LEAP61 | PTP_FLAG_LEAP59),
	    leap_flag);
	assert_true(clk.tds.flags & PTP_FLAG_UTC_OFFSET_VALID);
}

static void
test_gm_virtual(void **state)
{
	int64_t d;

	(void)state;
	start("virtual");
	/* before the first reading: utc_offset (37), a reading at once */
	check_tds(37, 0);
	assert_false(clk.tds.flags & PTP_FLAG_PTP_TIMESCALE);
	assert_int_equal(leap_timer()->due, fake_now_ns);

	/* 2016-12-31 11:00 UTC: 36 s, no flag; the next read in 10 min */
	d = read_at((D2017 - 13 * 3600) * S);
	check_tds(36, 0);
	assert_int_equal(d, LEAP_READ_FAR_NS);
	/* 12:00:00.5: leap61; every second from now */
	d = read_at((D2017 - 12 * 3600) * S + S / 2);
	check_tds(36, PTP_FLAG_LEAP61);
	assert_int_equal(d, LEAP_READ_NEAR_NS);
	/* a state decision (clock_update_grandmaster) keeps it */
	clock_update_grandmaster(&clk);
	check_tds(36, PTP_FLAG_LEAP61);
	/* 23:59:59.7: still; the next read right at midnight */
	d = read_at(D2017 * S - 300 * 1000000LL);
	check_tds(36, PTP_FLAG_LEAP61);
	assert_int_equal(d, 300 * 1000000LL);
	/* 00:00:00.001: 37 s, no flag */
	d = read_at(D2017 * S + 1000000);
	check_tds(37, 0);
	assert_int_equal(d, LEAP_READ_FAR_NS);
	clock_update_grandmaster(&clk);
	check_tds(37, 0);
	/* a reply with another id is not the leap module's */
	{
		struct netd_clock_reply r = { .id = 12345, .ok = 1 };

		assert_int_equal(clock_leap_reply(&clk, &r), 0);
	}
	stop();
}

/* A PHC counts PTP time: the same announcements at the same UTC. */
static void
test_gm_phc(void **state)
{
	(void)state;
	start("/dev/ptp0");
	assert_true(clk.tds.flags & PTP_FLAG_PTP_TIMESCALE);
	(void)read_at((D2017 - 13 * 3600 + 36) * S);
	check_tds(36, 0);
	(void)read_at((D2017 - 12 * 3600 + 36) * S);
	check_tds(36, PTP_FLAG_LEAP61);
	/* a slave for a while (another grandmaster): no reading, and the
	 * last one is dropped; grandmaster again: utc_offset (no stale
	 * leap61) until a new reading, asked at once */
	clk.cds.steps_removed = 1;
	clk.pds.gm_identity[0] ^= 0xff;
	fake_now_ns = leap_timer()->due;
	leap_timer()->armed = 0;
	leap_timer()->cb(leap_timer()->arg);
	assert_int_equal(W.read_id, 0);
	assert_false(leap_timer()->armed);
	clock_update_grandmaster(&clk);
	check_tds(37, 0);
	assert_int_equal(leap_timer()->due, fake_now_ns);
	(void)read_at((D2017 - 12 * 3600 + 40) * S);
	check_tds(36, PTP_FLAG_LEAP61);
	/* TAI midnight + 36.5: the inserted second, 23:59:60 */
	(void)read_at((D2017 + 36) * S + S / 2);
	check_tds(36, PTP_FLAG_LEAP61);
	(void)read_at((D2017 + 37) * S);
	check_tds(37, 0);
	stop();
}

/* A clock before 1972 (a virtual clock placed there, say): utc_offset. */
static void
test_gm_before_1972(void **state)
{
	(void)state;
	start("virtual");
	(void)read_at(5 * S);
	check_tds(37, 0);
	stop();
}

/* No leapfile: no reading, utc_offset as before; a bad one: refused. */
static void
test_no_leapfile(void **state)
{
	static const uint8_t id[8] = { 0, 1, 2, 0xff, 0xfe, 3, 4, 5 };
	struct netd_port_desc port = {
		.iface = "eth0", .transport = NETD_TR_L2, .clock_identity = id,
	};
	struct netd_port_list pl = { .ports = &port, .nports = 1 };
	struct env env = { &fops, NULL };

	(void)state;
	memset(&W, 0, sizeof(W));
	fake_timers_reset();
	cfg = cfg_new();
	assert_int_equal(cfg_set_int(cfg, NULL, "utc_offset", 35), 0);
	assert_int_equal(clock_init(&clk, &env, cfg), 0);
	clock_netd_cbs.connected(&clk, &pl);
	assert_null(clk.leap.t_read);
	assert_int_equal(clk.tds.current_utc_offset, 35);
	assert_int_equal(W.reads, 1);	/* the status read only */
	clock_fini(&clk);
	cfg_free(cfg);

	cfg = cfg_new();
	assert_int_equal(cfg_set_str(cfg, NULL, "leapfile", "/nonexistent"),
	    0);
	assert_int_equal(clock_init(&clk, &env, cfg), -1);
	clock_fini(&clk);
	cfg_free(cfg);
}

/* ---- the slave's leap (and a grandmaster's own UTC clock) ---- */

static void
test_slave_step(void **state)
{
	struct leap_arm cur = { 0, 0 }, next;

	(void)state;
	/* no flag, nothing armed: nothing */
	assert_int_equal(leap_slave_step(&cur, 0, (D2017 - 40) * S, &next),
	    LEAP_ACT_NONE);
	/* leap61 40 s before: armed for the midnight, once */
	assert_int_equal(leap_slave_step(&cur, 1, (D2017 - 40) * S, &next),
	    LEAP_ACT_ARM);
	assert_int_equal(next.leap, 1);
	assert_int_equal(next.at_s, D2017);
	cur = next;
	assert_int_equal(leap_slave_step(&cur, 1, (D2017 - 39) * S, &next),
	    LEAP_ACT_NONE);
	assert_int_equal(leap_slave_step(&cur, 1, D2017 * S - 1, &next),
	    LEAP_ACT_NONE);
	/* the flag gone before the last second: cancel */
	assert_int_equal(leap_slave_step(&cur, 0, (D2017 - 2) * S, &next),
	    LEAP_ACT_CANCEL);
	assert_int_equal(next.leap, 0);
	/* ... in the last second: netd applies it, no request */
	assert_int_equal(leap_slave_step(&cur, 0, (D2017 - 1) * S, &next),
	    LEAP_ACT_NONE);
	assert_int_equal(next.leap, 1);
	/* 2 s past the midnight, flag or not: done (0 sent), not
	 * re-armed; before: as it is */
	assert_int_equal(leap_slave_step(&cur, 0, (D2017 + 2) * S - 1, &next),
	    LEAP_ACT_NONE);
	assert_int_equal(leap_slave_step(&cur, 1, (D2017 + 1) * S, &next),
	    LEAP_ACT_NONE);
	assert_int_equal(leap_slave_step(&cur, 0, (D2017 + 2) * S, &next),
	    LEAP_ACT_DONE);
	assert_int_equal(next.leap, 0);
	assert_int_equal(leap_slave_step(&cur, 1, (D2017 + 3) * S, &next),
	    LEAP_ACT_DONE);
	cur = next;
	assert_int_equal(cur.leap, 0);
	assert_int_equal(leap_slave_step(&cur, 1, (D2017 + 2) * S, &next),
	    LEAP_ACT_NONE);
	/* first seen in the last second (or the repeated one): too late,
	 * an arming would insert a second at the next midnight */
	assert_int_equal(leap_slave_step(&cur, 1, (D2017 - 1) * S, &next),
	    LEAP_ACT_NONE);
	/* 12 h before: armed; leap59 stops at 23:59:58 */
	assert_int_equal(leap_slave_step(&cur, 1, (D2017 - 43200) * S, &next),
	    LEAP_ACT_ARM);
	assert_int_equal(next.at_s, D2017);
	assert_int_equal(leap_slave_step(&cur, -1, (D2017 - 3) * S, &next),
	    LEAP_ACT_ARM);
	assert_int_equal(next.leap, -1);
	assert_int_equal(leap_slave_step(&cur, -1, (D2017 - 2) * S, &next),
	    LEAP_ACT_NONE);
	/* leap61 armed, the grandmaster now says leap59: re-armed */
	cur.leap = 1;
	cur.at_s = D2017;
	assert_int_equal(leap_slave_step(&cur, -1, (D2017 - 60) * S, &next),
	    LEAP_ACT_ARM);
	assert_int_equal(next.leap, -1);
}

static void
test_sample_utc(void **state)
{
	uint16_t f61 = PTP_FLAG_LEAP61 | PTP_FLAG_PTP_TIMESCALE;
	int u;

	(void)state;
	assert_int_equal(leap_sample_utc(f61, 36, (D2017 - 2) * S, &u), 0);
	assert_int_equal(u, 36);
	assert_int_equal(leap_sample_utc(f61, 36, (D2017 - 1) * S - 1, &u), 0);
	assert_int_equal(u, 36);
	/* 23:59:59 (twice): held */
	assert_int_equal(leap_sample_utc(f61, 36, (D2017 - 1) * S, &u), 1);
	assert_int_equal(leap_sample_utc(f61, 36, D2017 * S - 1, &u), 1);
	assert_int_equal(leap_sample_utc(f61, 36, D2017 * S, &u), 0);
	assert_int_equal(u, 37);
	assert_int_equal(leap_sample_utc(f61, 36, (D2017 + 3) * S, &u), 0);
	assert_int_equal(u, 37);
	/* leap59: 23:59:58 held, 23:59:59 skipped, 35 after */
	assert_int_equal(leap_sample_utc(PTP_FLAG_LEAP59, 36, (D2017 - 3) * S,
	    &u), 0);
	assert_int_equal(u, 36);
	assert_int_equal(leap_sample_utc(PTP_FLAG_LEAP59, 36, (D2017 - 2) * S,
	    &u), 1);
	assert_int_equal(leap_sample_utc(PTP_FLAG_LEAP59, 36, D2017 * S, &u),
	    0);
	assert_int_equal(u, 35);
	/* no flag: n */
	assert_int_equal(leap_sample_utc(0, 37, (D2017 - 1) * S, &u), 0);
	assert_int_equal(u, 37);
}

/* A slave (steps_removed 1) with kernel_leap 1: the parent's flags as
 * clock_synchronize() passes each sample's t2 (a PHC: TAI). */
static void
slave_start(int kernel_leap, int sys_leap, int ptp_leap)
{
	static const uint8_t id[8] = { 0, 1, 2, 0xff, 0xfe, 3, 4, 5 };
	struct netd_port_desc port = {
		.iface = "eth0", .transport = NETD_TR_L2, .clock_identity = id,
	};
	struct netd_port_list pl = { .ports = &port, .nports = 1,
	    .have_clock = 1, .have_sys_clock = 1 };
	struct env env = { &fops, NULL };
	struct netd_clock_reply r = { .id = CLOCK_REQ_STATUS, .ok = 1 };

	memset(&W, 0, sizeof(W));
	fake_timers_reset();
	fake_now_ns = 1000 * S;
	pl.clock.leap_allowed = ptp_leap;
	pl.clock.ptp_timescale = 1;
	pl.sys_clock.leap_allowed = sys_leap;
	cfg = cfg_new();
	assert_non_null(cfg);
	assert_int_equal(cfg_set_str(cfg, NULL, "clock_device", "/dev/ptp0"),
	    0);
	assert_int_equal(cfg_set_int(cfg, NULL, "kernel_leap", kernel_leap),
	    0);
	assert_int_equal(clock_init(&clk, &env, cfg), 0);
	clock_netd_cbs.connected(&clk, &pl);
	clock_netd_cbs.clock_reply(&clk, &r);
	clk.cds.steps_removed = 1;
	clk.tds.current_utc_offset = 36;
	clk.tds.flags = PTP_FLAG_PTP_TIMESCALE | PTP_FLAG_UTC_OFFSET_VALID;
}

static void
answer_leap(int ok)
{
	struct netd_clock_reply r = { .id = W.leap.id, .ok = ok,
	    .system_clock = W.leap.system_clock,
	    .refusal = ok ? CR_NONE : CR_STEP_NOT_ALLOWED };

	clock_netd_cbs.clock_reply(&clk, &r);
	assert_int_equal(clk.leap.set_id, 0);
}

#define TAI(utc_s)	(((utc_s) + 36) * S)

static void
test_slave_arm(void **state)
{
	(void)state;
	slave_start(1, 1, 0);
	clock_leap_update(&clk, TAI(D2017 - 50));
	assert_int_equal(W.nleap, 0);
	clk.tds.flags |= PTP_FLAG_LEAP61;
	clock_leap_update(&clk, TAI(D2017 - 40));
	assert_int_equal(W.nleap, 1);
	assert_int_equal(W.leap.op, NETD_CLOCK_LEAP);
	assert_int_equal(W.leap.system_clock, 1);
	assert_int_equal(W.leap.leap, 1);
	assert_int_equal(W.leap.set_tai, 0);	/* not timeTraceable */
	/* once: not again while in flight, nor after the answer */
	clock_leap_update(&clk, TAI(D2017 - 39));
	answer_leap(1);
	clock_leap_update(&clk, TAI(D2017 - 38));
	assert_int_equal(W.nleap, 1);
	/* the flag gone 10 s before: cancelled */
	clk.tds.flags &= (uint16_t)~PTP_FLAG_LEAP61;
	clock_leap_update(&clk, TAI(D2017 - 10));
	assert_int_equal(W.nleap, 2);
	assert_int_equal(W.leap.leap, 0);
	answer_leap(1);
	/* again, and this time through the midnight: no request there;
	 * then timeTraceable: the new offset set (set_tai), leap 0 */
	clk.tds.flags |= PTP_FLAG_LEAP61;
	clock_leap_update(&clk, TAI(D2017 - 5));
	assert_int_equal(W.nleap, 3);
	assert_int_equal(W.leap.leap, 1);
	answer_leap(1);
	clock_leap_update(&clk, TAI(D2017 - 1) + S / 2);
	assert_int_equal(W.nleap, 3);
	clock_leap_update(&clk, TAI(D2017) + S / 2);	/* the repeat */
	clock_leap_update(&clk, TAI(D2017 + 1) + S / 2);
	assert_int_equal(W.nleap, 3);
	/* 2 s after the midnight: 0 clears the kernel's flag, once */
	clock_leap_update(&clk, TAI(D2017 + 2) + S / 2);
	assert_int_equal(W.nleap, 4);
	assert_int_equal(W.leap.leap, 0);
	assert_int_equal(W.leap.set_tai, 0);
	answer_leap(1);
	clock_leap_update(&clk, TAI(D2017 + 2) + S / 2 + 1);
	assert_int_equal(W.nleap, 4);
	assert_int_equal(clk.leap.arm.leap, 0);
	clk.tds.current_utc_offset = 37;
	clk.tds.flags = PTP_FLAG_PTP_TIMESCALE | PTP_FLAG_UTC_OFFSET_VALID |
	    PTP_FLAG_TIME_TRACEABLE;
	clock_leap_update(&clk, (D2017 + 3 + 37) * S);
	assert_int_equal(W.nleap, 5);
	assert_int_equal(W.leap.leap, 0);
	assert_int_equal(W.leap.set_tai, 1);
	assert_int_equal(W.leap.tai_offset, 37);
	answer_leap(1);
	clock_leap_update(&clk, (D2017 + 4 + 37) * S);
	assert_int_equal(W.nleap, 5);
	stop();
}

/* The PTP clock when it counts UTC and the system clock takes none; a
 * refusal is not retried; with set_tai while valid and traceable. */
static void
test_slave_ptp_clock(void **state)
{
	(void)state;
	slave_start(1, 0, 1);
	clk.tds.flags |= PTP_FLAG_LEAP61 | PTP_FLAG_TIME_TRACEABLE;
	clock_leap_update(&clk, TAI(D2017 - 40));
	assert_int_equal(W.nleap, 1);
	assert_int_equal(W.leap.system_clock, 0);
	assert_int_equal(W.leap.leap, 1);
	assert_int_equal(W.leap.set_tai, 1);
	assert_int_equal(W.leap.tai_offset, 36);
	answer_leap(0);
	clock_leap_update(&clk, TAI(D2017 - 30));
	assert_int_equal(W.nleap, 1);
	stop();
}

/* kernel_leap 0, or no clock that takes a leap: nothing is sent. */
static void
test_slave_off(void **state)
{
	(void)state;
	slave_start(0, 1, 1);
	clk.tds.flags |= PTP_FLAG_LEAP61 | PTP_FLAG_TIME_TRACEABLE;
	clock_leap_update(&clk, TAI(D2017 - 40));
	assert_int_equal(W.nleap, 0);
	stop();
	slave_start(1, 0, 0);
	clk.tds.flags |= PTP_FLAG_LEAP61 | PTP_FLAG_TIME_TRACEABLE;
	clock_leap_update(&clk, TAI(D2017 - 40));
	assert_int_equal(W.nleap, 0);
	stop();
}

/* A grandmaster with a leapfile, kernel_leap 1 and a system clock its
 * PHC follows, virtual or not. */
static void
gm_sysclock_start(int is_virtual)
{
	static const uint8_t id[8] = { 0, 1, 2, 0xff, 0xfe, 3, 4, 5 };
	static struct netd_port_desc port = {
		.iface = "eth0", .transport = NETD_TR_L2, .clock_identity = id,
	};
	static struct env env = { &fops, NULL };
	struct netd_port_list pl = { .ports = &port, .nports = 1,
	    .have_clock = 1, .have_sys_clock = 1 };
	struct netd_clock_reply r = { .id = CLOCK_REQ_STATUS, .ok = 1 };

	memset(&W, 0, sizeof(W));
	fake_timers_reset();
	fake_now_ns = 1000 * S;
	pl.clock.ptp_timescale = 1;
	pl.sys_clock.leap_allowed = 1;
	pl.sys_clock.is_virtual = is_virtual;
	cfg = cfg_new();
	assert_non_null(cfg);
	assert_int_equal(cfg_set_str(cfg, NULL, "leapfile", LEAP_VECTOR), 0);
	assert_int_equal(cfg_set_str(cfg, NULL, "clock_device", "/dev/ptp0"),
	    0);
	assert_int_equal(cfg_set_int(cfg, NULL, "kernel_leap", 1), 0);
	assert_int_equal(clock_init(&clk, &env, cfg), 0);
	clock_netd_cbs.connected(&clk, &pl);
	clock_netd_cbs.clock_reply(&clk, &r);
	W.read_id = 0;
}

/* A grandmaster whose system clock is a real one (NTP, chrony or GNSS
 * keep it, and may smear the leap): it announces the leap and arms
 * nothing. */
static void
test_gm_real_sysclock(void **state)
{
	(void)state;
	gm_sysclock_start(0);
	(void)read_at(TAI(D2017 - 40));
	check_tds(36, PTP_FLAG_LEAP61);
	(void)read_at((D2017 + 37) * S + 1000000);
	check_tds(37, 0);
	(void)read_at((D2017 + 39) * S + 1000000);
	assert_int_equal(W.nleap, 0);
	stop();
}

/* The same with netd's virtual system clock, which stands in for an
 * NTP-fed clock in tests: the grandmaster arms it from its readings,
 * reads on every second while armed, and clears the flag 2 s after the
 * midnight. */
static void
test_gm_own_sysclock(void **state)
{
	int64_t d;

	(void)state;
	gm_sysclock_start(1);
	(void)read_at(TAI(D2017 - 13 * 3600));
	assert_int_equal(W.nleap, 0);
	(void)read_at(TAI(D2017 - 40));
	check_tds(36, PTP_FLAG_LEAP61);
	assert_int_equal(W.nleap, 1);
	assert_int_equal(W.leap.system_clock, 1);
	assert_int_equal(W.leap.leap, 1);
	answer_leap(1);
	/* midnight: 37, no flag; still read every second while armed */
	(void)read_at((D2017 + 36) * S + S / 2);	/* 23:59:60.5 */
	check_tds(36, PTP_FLAG_LEAP61);
	d = read_at((D2017 + 37) * S + 1000000);
	check_tds(37, 0);
	assert_int_equal(d, LEAP_READ_NEAR_NS);
	assert_int_equal(W.nleap, 1);
	(void)read_at((D2017 + 38) * S);
	assert_int_equal(W.nleap, 1);
	d = read_at((D2017 + 39) * S + 1000000);
	assert_int_equal(W.nleap, 2);
	assert_int_equal(W.leap.leap, 0);
	answer_leap(1);
	d = read_at((D2017 + 40) * S + 1000000);
	assert_int_equal(d, LEAP_READ_FAR_NS);
	stop();
}

/* A PTP clock on UTC under a TAI grandmaster: no sample in the second
 * it repeats; after its midnight N+1 while the flag still shows; then
 * the new offset announced. */
static void
test_servo_hold(void **state)
{
	int64_t t2;

	(void)state;
	slave_start(1, 0, 1);
	clk.local_utc = 1;
	clk.utc_offset = 36;
	clk.tds.flags |= PTP_FLAG_LEAP61;
	assert_non_null(clk.servo);
	t2 = (D2017 - 5) * S;
	clock_synchronize(&clk, &clk.ports[0], t2, -36 * S + 100, 500);
	assert_int_equal(clk.cds.offset_from_master, 100);
	/* the last second, and its repeat: held */
	t2 = (D2017 - 1) * S + S / 2;
	clock_synchronize(&clk, &clk.ports[0], t2, -36 * S + 5000, 500);
	assert_int_equal(clk.cds.offset_from_master, 100);
	clock_synchronize(&clk, &clk.ports[0], t2, -37 * S + 6000, 500);
	assert_int_equal(clk.cds.offset_from_master, 100);
	/* after the midnight, the flag still shown: 37 applied */
	t2 = D2017 * S + S / 2;
	clock_synchronize(&clk, &clk.ports[0], t2, -37 * S + 120, 500);
	assert_int_equal(clk.cds.offset_from_master, 120);
	/* the grandmaster's new offset */
	clk.tds.flags &= (uint16_t)~PTP_FLAG_LEAP61;
	clk.tds.current_utc_offset = 37;
	clk.utc_offset = 37;
	t2 = (D2017 + 2) * S;
	clock_synchronize(&clk, &clk.ports[0], t2, -37 * S + 90, 500);
	assert_int_equal(clk.cds.offset_from_master, 90);
	stop();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_props),
		cmocka_unit_test(test_leap59),
		cmocka_unit_test(test_ambiguous),
		cmocka_unit_test(test_utc_of),
		cmocka_unit_test(test_next_read),
		cmocka_unit_test(test_gm_virtual),
		cmocka_unit_test(test_gm_phc),
		cmocka_unit_test(test_gm_before_1972),
		cmocka_unit_test(test_no_leapfile),
		cmocka_unit_test(test_slave_step),
		cmocka_unit_test(test_sample_utc),
		cmocka_unit_test(test_slave_arm),
		cmocka_unit_test(test_slave_ptp_clock),
		cmocka_unit_test(test_slave_off),
		cmocka_unit_test(test_servo_hold),
		cmocka_unit_test(test_gm_own_sysclock),
		cmocka_unit_test(test_gm_real_sysclock),
	};

	log_init("test_leap", 1, LOG_LVL_WARN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
