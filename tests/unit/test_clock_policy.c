/*
 * test_clock_policy.c - clockd's decisions under netd's bounds
 * (clockd/clock_policy.c): what may be stepped, the slew that replaces a
 * step, the state that is reported, the UTC offset (IEEE 1588-2019 7.2.4,
 * 8.2.4) and the sanity check of sanity_freq_limit.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "clockd/clock_policy.h"
#include "ptp_msg.h"

#define NS	1000000000LL
#define ROGUE	1000000000000000000LL	/* 10^18 ns, ~31.7 years */

/* ---- steps ---- */

static void
test_step_check(void **state)
{
	struct cpol_bounds b = { 1, 0, 0 };

	(void)state;
	/* No operator bound: any step. */
	assert_int_equal(cpol_step_check(&b, ROGUE), CR_NONE);
	assert_int_equal(cpol_step_check(&b, INT64_MIN), CR_NONE);
	/* max_step_ns 1 ms: the rogue grandmaster's offset is refused, in
	 * either direction, INT64_MIN too (no -INT64_MIN). */
	b.max_step_ns = 1000000;
	assert_int_equal(cpol_step_check(&b, ROGUE), CR_STEP_TOO_LARGE);
	assert_int_equal(cpol_step_check(&b, -ROGUE), CR_STEP_TOO_LARGE);
	assert_int_equal(cpol_step_check(&b, INT64_MIN), CR_STEP_TOO_LARGE);
	assert_int_equal(cpol_step_check(&b, INT64_MAX), CR_STEP_TOO_LARGE);
	assert_int_equal(cpol_step_check(&b, 1000001), CR_STEP_TOO_LARGE);
	assert_int_equal(cpol_step_check(&b, 1000000), CR_NONE);
	assert_int_equal(cpol_step_check(&b, -1000000), CR_NONE);
	/* A refused size: only smaller ones are asked for. */
	b.max_step_ns = 0;
	b.refused_step_ns = 5000;
	assert_int_equal(cpol_step_check(&b, 5000), CR_STEP_TOO_LARGE);
	assert_int_equal(cpol_step_check(&b, -4999), CR_NONE);
	/* allow_step 0: none at all. */
	b.step_allowed = 0;
	b.refused_step_ns = 0;
	assert_int_equal(cpol_step_check(&b, 1), CR_STEP_NOT_ALLOWED);
	assert_int_equal(cpol_step_check(&b, ROGUE), CR_STEP_NOT_ALLOWED);
	assert_string_equal(cpol_refusal_name(CR_STEP_NOT_ALLOWED),
	    "step_not_allowed");
	assert_string_equal(cpol_refusal_name(CR_STEP_TOO_LARGE),
	    "step_too_large");
	assert_string_equal(cpol_refusal_name(CR_NONE), "none");
	assert_string_equal(cpol_refusal_name(CR_NETD_UNREACHABLE),
	    "netd_unreachable");
}

static void
test_slew_freq(void **state)
{
	(void)state;
	/* Slave ahead: slower, at most the bound. */
	assert_float_equal(cpol_slew_freq(100.0, ROGUE, 500000.0), -500000.0,
	    0.0);
	assert_float_equal(cpol_slew_freq(100.0, -ROGUE, 500000.0), 500000.0,
	    0.0);
	assert_float_equal(cpol_slew_freq(0.0, INT64_MIN, 1000.0), 1000.0,
	    0.0);
	/* Small: half the offset per second, around the base. */
	assert_float_equal(cpol_slew_freq(100.0, 1000, 500000.0), -400.0,
	    1e-9);
	assert_float_equal(cpol_slew_freq(-80000.0, -20000, 500000.0),
	    -70000.0, 1e-9);
}

/* The slew on a simulated clock: 10 ms off, 500 ppm bound, clock 80 ppm
 * fast which the base frequency -80000 ppb corrects.  The offset goes to
 * below 20 us without ever changing sign (no overshoot), in about the time
 * the bound allows, and never moves faster than the bound. */
static void
test_slew_converges(void **state)
{
	double off = 10e6, f, prev;
	int s;

	(void)state;
	for (s = 0; s < 200 && fabs(off) > 20000.0; s++) {
		f = cpol_slew_freq(-80000.0, (int64_t)off, 500000.0);
		assert_true(fabs(f) <= 500000.0);
		prev = off;
		off += (80000.0 + f) * 1.0;	/* ns gained in 1 s */
		assert_true(off > 0.0);
		assert_true(prev - off <= 500000.0 + 80000.0);
	}
	assert_true(fabs(off) <= 20000.0);
	/* 10 ms at 0.42 ms/s net is ~22 s; the halving tail adds ~6 s. */
	assert_in_range(s, 19, 32);
}

static void
test_report_state(void **state)
{
	struct cpol_bounds b = { 1, 1000000, 0 };

	(void)state;
	assert_int_equal(cpol_report_state(SERVO_LOCKED, 999999, &b, 0),
	    SERVO_LOCKED);
	assert_int_equal(cpol_report_state(SERVO_LOCKED_STABLE, -1000000, &b,
	    0), SERVO_LOCKED_STABLE);
	/* Beyond max_step_ns: never locked. */
	assert_int_equal(cpol_report_state(SERVO_LOCKED, 1000001, &b, 0),
	    SERVO_UNLOCKED);
	assert_int_equal(cpol_report_state(SERVO_LOCKED_STABLE, -ROGUE, &b,
	    0), SERVO_UNLOCKED);
	assert_int_equal(cpol_report_state(SERVO_LOCKED, INT64_MIN, &b, 0),
	    SERVO_UNLOCKED);
	/* Slewing what could not be stepped: never locked. */
	assert_int_equal(cpol_report_state(SERVO_LOCKED, 10, &b, 1),
	    SERVO_UNLOCKED);
	/* No operator bound, allow_step 0: the servo's state. */
	b.max_step_ns = 0;
	b.step_allowed = 0;
	assert_int_equal(cpol_report_state(SERVO_LOCKED, ROGUE, &b, 0),
	    SERVO_LOCKED);
	assert_int_equal(cpol_report_state(SERVO_JUMP, 5, &b, 0), SERVO_JUMP);
	assert_int_equal(cpol_report_state(SERVO_UNLOCKED, 5, &b, 0),
	    SERVO_UNLOCKED);
}

/* ---- UTC ---- */

static void
test_utc_update(void **state)
{
	int u = 37;

	(void)state;
	/* Valid and traceable: believed, smaller too. */
	cpol_utc_update(&u, 36, PTP_FLAG_UTC_OFFSET_VALID |
	    PTP_FLAG_TIME_TRACEABLE | PTP_FLAG_PTP_TIMESCALE);
	assert_int_equal(u, 36);
	/* Valid but not traceable, smaller: not believed. */
	cpol_utc_update(&u, 30, PTP_FLAG_UTC_OFFSET_VALID);
	assert_int_equal(u, 36);
	/* Not valid, 0 (an unset field): not believed. */
	cpol_utc_update(&u, 0, PTP_FLAG_PTP_TIMESCALE);
	assert_int_equal(u, 36);
	/* Larger: believed whatever the flags (ptp4l). */
	cpol_utc_update(&u, 38, 0);
	assert_int_equal(u, 38);
}

static void
test_utc_correction(void **state)
{
	uint16_t ptp = PTP_FLAG_PTP_TIMESCALE;

	(void)state;
	/* A UTC clock (system, virtual) under a PTP grandmaster: +37 s,
	 * with or without currentUtcOffsetValid (ptp4l applies its own
	 * utc_offset either way). */
	assert_int_equal(cpol_utc_correction(1, ptp, 37), 37);
	assert_int_equal(cpol_utc_correction(1, ptp |
	    PTP_FLAG_UTC_OFFSET_VALID, 37), 37);
	/* An ARB grandmaster (ptp4l on CLOCK_REALTIME, ours on the system
	 * or virtual clock), valid flag or not: nothing. */
	assert_int_equal(cpol_utc_correction(1, 0, 37), 0);
	assert_int_equal(cpol_utc_correction(1, PTP_FLAG_UTC_OFFSET_VALID,
	    37), 0);
	/* A PHC (PTP time) under either: nothing. */
	assert_int_equal(cpol_utc_correction(0, ptp, 37), 0);
	assert_int_equal(cpol_utc_correction(0, 0, 37), 0);
}

/* The offset a UTC slave measures against a TAI master, in step, is
 * -37 s; corrected it is 0. */
static void
test_utc_offset_in_step(void **state)
{
	int64_t master_tai = 1767225600LL * NS + 37 * NS;
	int64_t slave_utc = 1767225600LL * NS;
	int64_t offset = slave_utc - master_tai;

	(void)state;
	offset += (int64_t)cpol_utc_correction(1, PTP_FLAG_PTP_TIMESCALE,
	    37) * NS;
	assert_true(offset == 0);
}

/* ---- sanity_freq_limit ---- */

static void
test_sanity(void **state)
{
	struct cpol_sanity s;
	int64_t ts = 1767225600LL * NS, mono = 1000 * NS;
	int i;

	(void)state;
	cpol_sanity_init(&s, 200000000.0);	/* ptp4l's default, 20 % */
	/* Frequency not known yet: no judgement. */
	assert_int_equal(cpol_sanity_sample(&s, ts, mono), 0);
	cpol_sanity_set_freq(&s, 0.0);
	assert_int_equal(cpol_sanity_sample(&s, ts, mono), 0);
	/* A clock that keeps time: sane, every second. */
	for (i = 1; i <= 5; i++)
		assert_int_equal(cpol_sanity_sample(&s, ts + i * NS,
		    mono + i * NS), 0);
	/* Less than a second later: not compared. */
	assert_int_equal(cpol_sanity_sample(&s, ts + 5 * NS + NS / 2,
	    mono + 5 * NS + 1), 0);
	/* 1.3 s in 1 s: 30 % fast, beyond 20 %. */
	assert_int_equal(cpol_sanity_sample(&s, ts + 6 * NS + 3 * NS / 10,
	    mono + 6 * NS), 1);
	assert_int_equal(s.suspect, 1);
	/* Not compared (too soon): still suspect. */
	assert_int_equal(cpol_sanity_sample(&s, ts + 6 * NS + 4 * NS / 10,
	    mono + 6 * NS + 1), 0);
	assert_int_equal(s.suspect, 1);
	/* It jumped back by 5 s. */
	assert_int_equal(cpol_sanity_sample(&s, ts + 2 * NS,
	    mono + 7 * NS), -1);
	assert_int_equal(s.suspect, 1);
	/* A step clockd made is accounted for; a passed check clears it. */
	cpol_sanity_step(&s, 10 * NS);
	assert_int_equal(cpol_sanity_sample(&s, ts + 13 * NS,
	    mono + 8 * NS), 0);
	assert_int_equal(s.suspect, 0);
	/* Running 30 % fast because clockd set +30 %: sane. */
	cpol_sanity_set_freq(&s, 300000000.0);
	assert_int_equal(cpol_sanity_sample(&s, ts + 14 * NS + 3 * NS / 10,
	    mono + 9 * NS), 0);
	/* Reset (new master): the next sample only starts over. */
	cpol_sanity_reset(&s);
	cpol_sanity_set_freq(&s, 0.0);
	assert_int_equal(cpol_sanity_sample(&s, ROGUE, mono + 10 * NS), 0);
	assert_int_equal(cpol_sanity_sample(&s, ROGUE + NS, mono + 11 * NS),
	    0);
	/* A jump beyond int64 ns: insane, no overflow. */
	assert_int_equal(cpol_sanity_sample(&s, INT64_MIN + 5,
	    mono + 12 * NS), -1);
	/* Limit 0: off. */
	cpol_sanity_init(&s, 0.0);
	cpol_sanity_set_freq(&s, 0.0);
	assert_int_equal(cpol_sanity_sample(&s, ts, mono), 0);
	assert_int_equal(cpol_sanity_sample(&s, ts + 100 * NS, mono + NS), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_check),
		cmocka_unit_test(test_slew_freq),
		cmocka_unit_test(test_slew_converges),
		cmocka_unit_test(test_report_state),
		cmocka_unit_test(test_utc_update),
		cmocka_unit_test(test_utc_correction),
		cmocka_unit_test(test_utc_offset_in_step),
		cmocka_unit_test(test_sanity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
