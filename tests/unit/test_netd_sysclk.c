/*
 * test_netd_sysclk.c - netd's second clock, the system clock
 * (sync_system_clock): two clocks kept apart, their comparison
 * (clock_cmp.c) over one raw time or a PHC's PTP_SYS_OFFSET answers, and
 * leap seconds on a clock that counts UTC (a virtual clock's repeated
 * 23:59:59, the kernel's STA_INS through the driver seam, the bounds).
 *
 * Split from test_netd_clock.c, which keeps the virtual clock's
 * arithmetic and the bounds.  Nothing here adjusts a real clock.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cfg.h"
#include "log.h"
#include "ptp_time.h"
#include "netd/clock.h"
#include "drv_fake.h"
#include "netd_clock_fake.h"

/* ---- the system clock, netd's second clock (clock_cmp.c) ------------- */

#define TAI_NS	(INT64_C(37) * SEC)

/*
 * Two virtual clocks over one raw time, as netd keeps the PTP clock and
 * the system clock with system_clock_device virtual: what is done to one
 * leaves the other as it was.
 */
static void
test_sysclk_independent(void **state)
{
	struct fake_time ft = { T0 };
	struct clock *ptp, *sys;

	(void)state;
	ptp = open_virtual(&ft, TAI_NS, 0.0);
	sys = open_virtual(&ft, -3 * SEC, 0.0);
	assert_non_null(ptp);
	assert_non_null(sys);
	assert_int_equal(clock_adjfreq(sys, 50000.0), 0);
	ft.ns += SEC;
	assert_int_equal(vnow(ptp), T0 + TAI_NS + SEC);
	assert_int_equal(vnow(sys), T0 - 3 * SEC + SEC + 50000);
	assert_int_equal(clock_step(ptp, -SEC), 0);
	assert_int_equal(vnow(sys), T0 - 2 * SEC + 50000);
	assert_int_equal(vnow(ptp), T0 + TAI_NS);
	clock_close(ptp);
	clock_close(sys);
}

/* Both over CLOCK_REALTIME: one raw instant mapped through both, exact. */
static void
test_cmp_same_base(void **state)
{
	struct fake_time ft = { T0 };
	struct clock *ptp, *sys, *rt;
	struct timespec raw = clock_ns_to_ts(T0);
	struct clock_cmp c;
	int64_t p;

	(void)state;
	ptp = open_virtual(&ft, TAI_NS, 0.0);
	sys = open_virtual(&ft, -3 * SEC, 20000.0);
	rt = clock_open("system", NULL);
	assert_non_null(ptp);
	assert_non_null(sys);
	assert_non_null(rt);
	assert_int_equal(clock_cmp_probe(ptp, sys, 5), CLOCK_CMP_SAME_BASE);
	assert_int_equal(clock_cmp_probe(ptp, rt, 5), CLOCK_CMP_SAME_BASE);
	assert_int_equal(clock_compare(ptp, sys, CLOCK_CMP_SAME_BASE, 5, &raw,
	    &c), 0);
	assert_true(c.sys_minus_ptp_ns == -40 * SEC);
	assert_int_equal(ptp_timespec_to_ns(c.ptp_time, &p), 0);
	assert_true(p == T0 + TAI_NS);
	assert_int_equal(c.delay_ns, 0);
	assert_int_equal(c.method, CLOCK_CMP_SAME_BASE);
	/* 1 s later the system clock's +20 ppm error shows, to the ns. */
	raw = clock_ns_to_ts(T0 + SEC);
	assert_int_equal(clock_compare(ptp, sys, CLOCK_CMP_SAME_BASE, 5, &raw,
	    &c), 0);
	assert_true(c.sys_minus_ptp_ns == -40 * SEC + 20000);
	/* The real system clock against the virtual PTP clock: -37 s. */
	assert_int_equal(clock_compare(ptp, rt, CLOCK_CMP_SAME_BASE, 5, &raw,
	    &c), 0);
	assert_true(c.sys_minus_ptp_ns == -TAI_NS);
	/* A PHC method for clocks that are no PHC is an error. */
	assert_int_equal(clock_compare(ptp, sys, CLOCK_CMP_BASIC, 5, &raw,
	    &c), -EINVAL);
	assert_int_equal(clock_compare(ptp, sys, CLOCK_CMP_NONE, 5, &raw,
	    &c), -EINVAL);
	clock_close(ptp);
	clock_close(sys);
	clock_close(rt);
}

static struct ptp_clock_time
pct(int64_t ns)
{
	struct ptp_clock_time t;

	memset(&t, 0, sizeof(t));
	t.sec = ns / SEC;
	t.nsec = (unsigned)(ns % SEC);
	return t;
}

/*
 * A PHC (on TAI) against a virtual system clock 3 s behind CLOCK_REALTIME,
 * through the fake driver: no PTP_SYS_OFFSET_PRECISE (EOPNOTSUPP, as
 * without PTM/ART), so EXTENDED; five brackets of 2-3 us, one of 900 ns
 * with the PHC read 400 ns after its start.  Its midpoint, T0 + 450,
 * gives CLOCK_REALTIME - PHC = -37 s + 50 ns; the system clock is then
 * 3 s behind that.
 */
static void
test_cmp_phc(void **state)
{
	struct fake_time ft = { T0 };
	struct drv_fake_phc phc;
	struct clock *ptp, *sys;
	struct clock_cmp c;
	int64_t b, p;
	int i;

	(void)state;
	memset(&phc, 0, sizeof(phc));
	phc.caps.max_adj = 500000;
	phc.precise_err = -EOPNOTSUPP;
	for (i = 0; i < 5; i++) {
		b = T0 + 10000 * i;
		phc.extended.ts[i][0] = pct(b);
		phc.extended.ts[i][1] = pct(b + TAI_NS + 1000);
		phc.extended.ts[i][2] = pct(b + 2000 + 200 * i);
	}
	b = T0 + 30000;
	phc.extended.ts[3][1] = pct(b + TAI_NS + 400);
	phc.extended.ts[3][2] = pct(b + 900);
	drv_fake_install(NULL, 0, &phc);
	/* /dev/null stands in for /dev/ptpN; every call goes to the fake. */
	ptp = clock_phc_open("/dev/null");
	sys = open_virtual(&ft, -3 * SEC, 0.0);
	assert_non_null(ptp);
	assert_non_null(sys);
	assert_true(clock_phc_fd(ptp) >= 0);
	assert_int_equal(clock_phc_fd(sys), -1);
	assert_int_equal(clock_cmp_probe(ptp, sys, 5), CLOCK_CMP_EXTENDED);
	assert_int_equal(clock_compare(ptp, sys, CLOCK_CMP_EXTENDED, 5, NULL,
	    &c), 0);
	assert_true(c.sys_minus_ptp_ns == -40 * SEC + 50);
	assert_int_equal(ptp_timespec_to_ns(c.ptp_time, &p), 0);
	assert_true(p == b + TAI_NS + 400);
	assert_int_equal(c.delay_ns, 900);
	assert_int_equal(c.method, CLOCK_CMP_EXTENDED);
	/* SAME_BASE is not a way to compare a PHC. */
	assert_int_equal(clock_compare(ptp, sys, CLOCK_CMP_SAME_BASE, 5, NULL,
	    &c), -EINVAL);
	/* A driver that answers no PTP_SYS_OFFSET* at all: no compare. */
	phc.extended_err = phc.basic_err = -EOPNOTSUPP;
	assert_int_equal(clock_cmp_probe(ptp, sys, 5), CLOCK_CMP_NONE);
	assert_int_equal(clock_compare(ptp, sys, CLOCK_CMP_EXTENDED, 5, NULL,
	    &c), -EOPNOTSUPP);
	/* The system clock must be over CLOCK_REALTIME, not a PHC. */
	assert_int_equal(clock_cmp_probe(sys, ptp, 5), CLOCK_CMP_NONE);
	clock_close(ptp);
	clock_close(sys);
	drv_fake_remove();
}

/* At most one compare per CLOCK_CMP_MIN_INTERVAL_NS (10 ms). */
static void
test_cmp_due(void **state)
{
	int64_t last = -1;

	(void)state;
	assert_true(clock_cmp_due(&last, 5 * SEC));
	assert_true(last == 5 * SEC);
	assert_false(clock_cmp_due(&last, 5 * SEC));
	assert_false(clock_cmp_due(&last, 5 * SEC + 9999999));
	assert_true(last == 5 * SEC);
	assert_true(clock_cmp_due(&last, 5 * SEC + 10000000));
	assert_false(clock_cmp_due(&last, 5 * SEC + 15000000));
	assert_true(clock_cmp_due(&last, 5 * SEC + 20000000));
}

/*
 * The second clock's step window is its own: with one step per window,
 * a step of the PTP clock does not use up the system clock's, and each
 * clock counts the steps made to it (ClockState.steps).
 */
static void
test_sysclk_bounds_apart(void **state)
{
	struct fake_time ft = { T0 };
	struct clock_bounds b = {
		.max_freq_ppb = 1000.0, .allow_step = 1, .max_steps = 1,
		.step_interval_ns = 60 * SEC,
	};
	struct clock_bounds_state st, sys_st;
	struct clock_req r = { .op = CLOCK_OP_STEP, .step_ns = SEC };
	struct clock_state cs;
	struct timespec raw = clock_ns_to_ts(T0);
	enum clock_status s;
	struct clock *ptp, *sys, *rt;

	(void)state;
	ptp = open_virtual(&ft, TAI_NS, 0.0);
	sys = open_virtual(&ft, -3 * SEC, 0.0);
	assert_non_null(ptp);
	assert_non_null(sys);
	clock_bounds_state_init(&st);
	clock_bounds_state_init(&sys_st);
	assert_int_equal(clock_apply(ptp, &b, &st, &r, 0, &s), 0);
	assert_int_equal(clock_apply(sys, &b, &sys_st, &r, 0, &s), 0);
	assert_int_equal(clock_apply(sys, &b, &sys_st, &r, SEC, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_RATE_LIMITED);
	assert_int_equal(clock_get_state(ptp, &raw, &cs), 0);
	assert_true(cs.steps == 1);
	assert_true(cs.have_offset);
	assert_true(cs.offset_from_realtime_ns == TAI_NS + SEC);
	assert_int_equal(clock_get_state(sys, &raw, &cs), 0);
	assert_true(cs.steps == 1);		/* the refused one not counted */
	assert_true(cs.offset_from_realtime_ns == -2 * SEC);
	r.op = CLOCK_OP_ADJFREQ;
	r.freq_ppb = 700.0;
	assert_int_equal(clock_apply(sys, &b, &sys_st, &r, 2 * SEC, &s), 0);
	assert_int_equal(clock_get_state(sys, &raw, &cs), 0);
	assert_true(cs.freq_ppb == 700.0);
	assert_int_equal(clock_get_state(ptp, &raw, &cs), 0);
	assert_true(cs.freq_ppb == 0.0);
	/* The real system clock: no offset from itself to report. */
	rt = clock_open("system", NULL);
	assert_non_null(rt);
	assert_int_equal(clock_get_state(rt, NULL, &cs), 0);
	assert_false(cs.have_offset);
	clock_close(rt);
	clock_close(ptp);
	clock_close(sys);
}

/* ---- leap seconds (ClockSetLeap) ------------------------------------ */

/* A UTC midnight: 2023-11-15T00:00:00Z, the first after T0. */
#define MIDNIGHT	(INT64_C(1700006400) * SEC)
/* A virtual clock offset that reads MIDNIGHT - 3 s at raw T0. */
#define OFF_3S		(MIDNIGHT - 3 * SEC - T0)

/*
 * Armed +1, the virtual clock does what the kernel does to
 * CLOCK_REALTIME: at 00:00:00 it reads 23:59:59 again, so 23:59:59
 * repeats; a timestamp taken before the midnight keeps its time; the
 * leap is applied once, then disarmed and counted, not counted as a step.
 */
static void
test_vclock_leap_insert(void **state)
{
	struct fake_time ft = { T0 };
	struct timespec raw;
	struct clock_state cs;
	struct clock *c;

	(void)state;
	c = open_virtual(&ft, OFF_3S, 0.0);
	assert_non_null(c);
	assert_true(c->leap_allowed);
	assert_int_equal(vnow(c), MIDNIGHT - 3 * SEC);
	assert_int_equal(clock_set_leap(c, 1, 37, 1), 0);
	assert_int_equal(c->leap, 1);
	assert_int_equal(conv(c, T0 + 2 * SEC + SEC / 2),
	    MIDNIGHT - SEC / 2);
	assert_int_equal(conv(c, T0 + 3 * SEC - 1), MIDNIGHT - 1);
	assert_true(c->leaps == 0);
	/* 23:59:60 reads 23:59:59.000000000 */
	assert_int_equal(conv(c, T0 + 3 * SEC), MIDNIGHT - SEC);
	assert_int_equal(conv(c, T0 + 3 * SEC + SEC / 2), MIDNIGHT - SEC / 2);
	assert_int_equal(conv(c, T0 + 4 * SEC), MIDNIGHT);
	/* Taken before the midnight, converted after: the old time. */
	assert_int_equal(conv(c, T0 + 3 * SEC - 1), MIDNIGHT - 1);
	assert_int_equal(c->leap, 0);
	assert_true(c->leaps == 1);
	assert_true(c->steps == 0);
	ft.ns = T0 + 10 * SEC;
	assert_int_equal(vnow(c), MIDNIGHT + 6 * SEC);
	raw = clock_ns_to_ts(ft.ns);
	assert_int_equal(clock_get_state(c, &raw, &cs), 0);
	assert_true(cs.offset_from_realtime_ns == OFF_3S - SEC);
	assert_int_equal(cs.leap, 0);
	assert_int_equal(cs.tai_offset, 37);
	assert_true(cs.leaps == 1);
	assert_true(cs.steps == 0);
	/* Once only: the next midnight passes without a repeat. */
	ft.ns = T0 + 86400 * SEC + 10 * SEC;
	assert_int_equal(vnow(c), MIDNIGHT + 86400 * SEC + 6 * SEC);
	assert_true(c->leaps == 1);
	clock_close(c);
}

/* Armed -1: 23:59:59 is skipped, 23:59:58.999999999 -> 00:00:00. */
static void
test_vclock_leap_delete(void **state)
{
	struct fake_time ft = { T0 };
	struct clock *c;

	(void)state;
	c = open_virtual(&ft, OFF_3S, 0.0);
	assert_non_null(c);
	assert_int_equal(clock_set_leap(c, -1, 0, 0), 0);
	assert_int_equal(conv(c, T0 + 2 * SEC - 1), MIDNIGHT - SEC - 1);
	assert_int_equal(conv(c, T0 + 2 * SEC), MIDNIGHT);
	assert_int_equal(conv(c, T0 + 3 * SEC), MIDNIGHT + SEC);
	assert_true(c->leaps == 1);
	assert_int_equal(c->leap, 0);
	assert_int_equal(c->tai_offset, 0);
	clock_close(c);
}

/* Cancelled before the midnight: nothing happens at it. */
static void
test_vclock_leap_cancel(void **state)
{
	struct fake_time ft = { T0 };
	struct clock *c;

	(void)state;
	c = open_virtual(&ft, OFF_3S, 0.0);
	assert_non_null(c);
	assert_int_equal(clock_set_leap(c, 1, 0, 0), 0);
	ft.ns = T0 + SEC;
	assert_int_equal(clock_set_leap(c, 0, 0, 0), 0);
	ft.ns = T0 + 5 * SEC;
	assert_int_equal(vnow(c), MIDNIGHT + 2 * SEC);
	assert_true(c->leaps == 0);
	clock_close(c);
	/*
	 * A cancel that comes after the midnight, before anything read the
	 * clock, does not undo the leap: it was due (the kernel's tick).
	 */
	ft.ns = T0;
	c = open_virtual(&ft, OFF_3S, 0.0);
	assert_non_null(c);
	assert_int_equal(clock_set_leap(c, 1, 0, 0), 0);
	ft.ns = T0 + 5 * SEC;
	assert_int_equal(clock_set_leap(c, 0, 0, 0), 0);
	assert_true(c->leaps == 1);
	assert_int_equal(vnow(c), MIDNIGHT + SEC);
	clock_close(c);
}

/*
 * A clock at the end of int64 (a hostile clockd's steps) has no midnight
 * to reach: the leap is dropped, conversions go on without overflow.
 */
static void
test_vclock_leap_range(void **state)
{
	struct fake_time ft = { T0 };
	struct clock *c;

	(void)state;
	c = open_virtual(&ft, INT64_MAX - T0 - 10 * SEC, 0.0);
	assert_non_null(c);
	assert_int_equal(clock_set_leap(c, -1, 0, 0), 0);
	assert_int_equal(conv(c, T0 + 5 * SEC), INT64_MAX - 5 * SEC);
	assert_int_equal(c->leap, 0);
	assert_true(c->leaps == 0);
	clock_close(c);
}

/* First raw time at which c (pure, never armed) reads v or more. */
static int64_t
first_raw_at(struct clock *c, int64_t lo, int64_t hi, int64_t v)
{
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if (conv(c, mid) >= v)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * An armed leap survives a frequency change and a step (the kernel keeps
 * STA_INS), and the repeat starts at the exact nanosecond the clock
 * reaches midnight at its frequency, even when first noticed seconds
 * later: the same clock without the leap is the reference.
 */
static void
test_vclock_leap_kept(void **state)
{
	struct fake_time ft = { T0 };
	struct clock *c, *ref;
	int64_t tc, later;
	int i;

	(void)state;
	c = open_virtual(&ft, OFF_3S - 20 * SEC, 12345.678);
	ref = open_virtual(&ft, OFF_3S - 20 * SEC, 12345.678);
	assert_non_null(c);
	assert_non_null(ref);
	assert_int_equal(clock_set_leap(c, 1, 0, 0), 0);
	for (i = 0; i < 2; i++) {
		struct clock *k = i == 0 ? c : ref;

		ft.ns = T0 + SEC;
		assert_int_equal(clock_adjfreq(k, -7777.0), 0);
		ft.ns = T0 + 2 * SEC;
		assert_int_equal(clock_step(k, 16 * SEC + 12345), 0);
		ft.ns = T0 + 3 * SEC;
		assert_int_equal(clock_adjfreq(k, 333.25), 0);
	}
	assert_int_equal(c->leap, 1);
	assert_true(c->leaps == 0);
	tc = first_raw_at(ref, T0 + 3 * SEC, T0 + 10 * SEC, MIDNIGHT);
	/* First noticed 2 s after the crossing. */
	later = tc + 2 * SEC;
	assert_int_equal(conv(c, later), conv(ref, later) - SEC);
	assert_true(c->leaps == 1);
	assert_int_equal(conv(c, tc - 1), conv(ref, tc - 1));
	assert_true(conv(c, tc - 1) < MIDNIGHT);
	assert_int_equal(conv(c, tc), MIDNIGHT - SEC);
	assert_int_equal(conv(c, tc), conv(ref, tc) - SEC);
	assert_true(c->steps == 0);	/* clock_step() is not clock_apply() */
	clock_close(c);
	clock_close(ref);
}

/*
 * Through clock_apply(): an armed leap is bounded as a 1 s step (refused
 * with allow_step 0 or max_step_ns under 1 s, counted in the step
 * window), a cancel always passes, and a clock on TAI refuses any leap.
 */
static void
test_apply_leap(void **state)
{
	struct fake_time ft = { T0 };
	struct clock_bounds b = bounds;
	struct clock_bounds_state st;
	struct clock_req r = { .op = CLOCK_OP_LEAP, .leap = 1 };
	enum clock_status s;
	struct clock *c;

	(void)state;
	c = open_virtual(&ft, OFF_3S, 0.0);
	assert_non_null(c);
	clock_bounds_state_init(&st);
	b.allow_step = 0;
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_STEP_NOT_ALLOWED);
	r.leap = -1;
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), -EPERM);
	assert_int_equal(c->leap, 0);
	r.leap = 0;
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), 0);
	assert_int_equal(s, CLOCK_ST_OK);
	b.allow_step = 1;
	b.max_step_ns = 100000000;	/* 0.1 s */
	r.leap = 1;
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_STEP_TOO_LARGE);
	b.max_step_ns = SEC;
	b.max_steps = 1;
	r.set_tai = 1;
	r.tai_offset = 37;
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), 0);
	assert_int_equal(c->leap, 1);
	assert_int_equal(c->tai_offset, 37);
	/* The leap used the window's one step. */
	r.op = CLOCK_OP_STEP;
	r.step_ns = 1000;
	assert_int_equal(clock_apply(c, &b, &st, &r, SEC, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_RATE_LIMITED);
	r.op = CLOCK_OP_LEAP;
	assert_int_equal(clock_apply(c, &b, &st, &r, SEC, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_RATE_LIMITED);
	r.leap = 0;			/* a cancel passes a full window */
	assert_int_equal(clock_apply(c, &b, &st, &r, SEC, &s), 0);
	assert_int_equal(c->leap, 0);
	r.tai_offset = 1001;
	assert_int_equal(clock_apply(c, &b, &st, &r, SEC, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_INVALID);
	r.tai_offset = 37;
	r.leap = 2;
	assert_int_equal(clock_apply(c, &b, &st, &r, SEC, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_INVALID);
	assert_true(c->steps == 0);
	/* On PTP time (TAI): refused whatever the bounds, window unused. */
	c->leap_allowed = 0;
	clock_bounds_state_init(&st);
	r.leap = 1;
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_NOT_SUPPORTED);
	r.leap = 0;
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_NOT_SUPPORTED);
	assert_int_equal(clock_set_leap(c, 1, 0, 0), -EOPNOTSUPP);
	assert_int_equal(c->leap, 0);
	assert_int_equal(st.count, 0);
	assert_string_equal(clock_op_name(CLOCK_OP_LEAP), "leap");
	assert_string_equal(clock_status_name(CLOCK_ST_NOT_SUPPORTED),
	    "NOT_SUPPORTED");
	clock_close(c);
}

/*
 * The system clock's leap is the kernel's, through the driver seam (the
 * fake here: nothing reaches CLOCK_REALTIME): the status is read, only
 * STA_INS/STA_DEL change, ADJ_TAI sets the offset when asked.
 */
static void
test_system_leap_drv(void **state)
{
	struct drv_fake_phc phc;
	struct clock *c;

	(void)state;
	memset(&phc, 0, sizeof(phc));
	phc.adj_status = STA_PLL | STA_NANO | STA_DEL;
	drv_fake_install(NULL, 0, &phc);
	c = clock_open("system", NULL);
	assert_non_null(c);
	assert_true(c->leap_allowed);
	assert_int_equal(clock_set_leap(c, 1, 37, 1), 0);
	assert_int_equal(phc.adj_calls, 2);	/* read, then write */
	assert_int_equal(phc.last.modes, ADJ_STATUS | ADJ_TAI);
	assert_int_equal(phc.last.status, STA_PLL | STA_NANO | STA_INS);
	assert_int_equal(phc.last.constant, 37);
	assert_int_equal(c->leap, 1);
	assert_int_equal(c->tai_offset, 37);
	phc.adj_status = STA_PLL | STA_INS;
	assert_int_equal(clock_set_leap(c, -1, 0, 0), 0);
	assert_int_equal(phc.last.modes, ADJ_STATUS);
	assert_int_equal(phc.last.status, STA_PLL | STA_DEL);
	assert_int_equal(clock_set_leap(c, 0, 0, 0), 0);
	assert_int_equal(phc.last.status, STA_PLL);
	assert_int_equal(phc.adj_calls, 6);
	assert_int_equal(c->leap, 0);
	assert_int_equal(c->tai_offset, 37);
	/* A refused write leaves the clock's record as it was. */
	phc.adj_err = -EPERM;
	assert_int_equal(clock_set_leap(c, 1, 0, 0), -EPERM);
	assert_int_equal(c->leap, 0);
	clock_close(c);
	drv_fake_remove();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysclk_independent),
		cmocka_unit_test(test_cmp_same_base),
		cmocka_unit_test(test_cmp_phc),
		cmocka_unit_test(test_cmp_due),
		cmocka_unit_test(test_sysclk_bounds_apart),
		cmocka_unit_test(test_vclock_leap_insert),
		cmocka_unit_test(test_vclock_leap_delete),
		cmocka_unit_test(test_vclock_leap_cancel),
		cmocka_unit_test(test_vclock_leap_range),
		cmocka_unit_test(test_vclock_leap_kept),
		cmocka_unit_test(test_apply_leap),
		cmocka_unit_test(test_system_leap_drv),
	};

	log_init("test", 1, LOG_LVL_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
