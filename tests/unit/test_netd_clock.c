/*
 * test_netd_clock.c - netd's clocks: the virtual clock's arithmetic, the
 * bounds on clock requests, and the clean failure of a missing PHC (the
 * system clock as a second clock: test_netd_sysclk.c).
 *
 * The virtual clock runs on an injected raw time source (a counter), so
 * every expectation is exact.  Nothing here adjusts a real clock: the
 * system backend is only opened and read.
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

#include "netd_clock_fake.h"

/* ---- timespec helpers ------------------------------------------------- */

static void
test_ts_conversion(void **state)
{
	struct timespec ts;
	int64_t ns;

	ts = clock_ns_to_ts(-1);
	assert_int_equal(ts.tv_sec, -1);
	assert_int_equal(ts.tv_nsec, SEC - 1);
	assert_int_equal(ptp_timespec_to_ns(ts, &ns), 0);
	assert_int_equal(ns, -1);
	ts = clock_ns_to_ts(-3 * SEC);
	assert_int_equal(ts.tv_sec, -3);
	assert_int_equal(ts.tv_nsec, 0);
	ts.tv_sec = 1;
	ts.tv_nsec = SEC;
	assert_int_equal(ptp_timespec_to_ns(ts, &ns), -EINVAL);
	ts.tv_nsec = -1;
	assert_int_equal(ptp_timespec_to_ns(ts, &ns), -EINVAL);
	ts.tv_sec = INT64_MAX / SEC + 1;
	ts.tv_nsec = 0;
	assert_int_equal(ptp_timespec_to_ns(ts, &ns), -ERANGE);
}

/* ---- virtual clock ---------------------------------------------------------- */

static void
test_vclock_start_offset(void **state)
{
	struct fake_time ft = { T0 };
	struct clock *c;

	c = open_virtual(&ft, 5 * SEC + 7, 0.0);
	assert_non_null(c);
	assert_int_equal(c->kind, CLOCK_KIND_VIRTUAL);
	assert_int_equal(vnow(c), T0 + 5 * SEC + 7);
	ft.ns += 3600 * SEC;
	assert_int_equal(vnow(c), T0 + 3600 * SEC + 5 * SEC + 7);
	clock_close(c);

	/* Negative offsets, also below a second boundary. */
	ft.ns = T0;
	c = open_virtual(&ft, -123456790, 0.0);
	assert_non_null(c);
	assert_int_equal(vnow(c), T0 - 123456790);
	assert_int_equal(conv(c, T0 + 1), T0 - 123456789);
	clock_close(c);
}

static void
test_vclock_freq_error(void **state)
{
	struct fake_time ft = { T0 };
	struct clock *c;
	double f;

	c = open_virtual(&ft, 0, 100.0);
	assert_non_null(c);
	ft.ns += SEC;
	assert_int_equal(vnow(c), T0 + SEC + 100);
	ft.ns = T0 + 10 * SEC;
	assert_int_equal(vnow(c), T0 + 10 * SEC + 1000);
	/* getfreq reports the adjustment, not the clock's own error. */
	assert_int_equal(clock_getfreq(c, &f), 0);
	assert_true(f == 0.0);
	clock_close(c);

	ft.ns = T0;
	c = open_virtual(&ft, -SEC, -250.5);
	assert_non_null(c);
	ft.ns += 2 * SEC;
	assert_int_equal(vnow(c), T0 - SEC + 2 * SEC - 501);
	/* Rounded toward minus infinity: -250.5 ns after 1 s is -251. */
	assert_int_equal(conv(c, T0 + SEC), T0 - SEC + SEC - 251);
	clock_close(c);
}

static void
test_vclock_adjfreq_continuity(void **state)
{
	struct fake_time ft = { T0 };
	struct clock *c;
	int64_t before, t1;
	double f;

	c = open_virtual(&ft, 42, 50.0);
	assert_non_null(c);
	ft.ns = T0 + 3300 * (SEC / 1000);	/* 3.3 s later */
	before = vnow(c);
	assert_int_equal(before, T0 + 42 + 3300000000 + 165);
	assert_int_equal(clock_adjfreq(c, -1234.5), 0);
	/*
	 * No jump at the re-base instant; either side of it, exact floors:
	 * 1 ns at -1184.5 ppb is 0.9999988 ns, 1 ms is 999998.8155 ns.
	 */
	assert_int_equal(vnow(c), before);
	assert_int_equal(conv(c, ft.ns), before);
	assert_int_equal(conv(c, ft.ns + 1), before);
	assert_int_equal(conv(c, ft.ns + 1000000), before + 999998);
	/* Just before it, the old segment: 165 ns of error became 164.99.. */
	assert_int_equal(conv(c, ft.ns - 1), before - 2);
	assert_int_equal(clock_getfreq(c, &f), 0);
	assert_true(f == -1234.5);
	/* Effective frequency = error + adjustment = -1184.5 ppb. */
	t1 = ft.ns;
	ft.ns = t1 + SEC;
	assert_int_equal(vnow(c), before + SEC - 1185);
	ft.ns = t1 + 2 * SEC;
	assert_int_equal(vnow(c), before + 2 * SEC - 2369);
	/* Back to 0 adjustment: only the error remains. */
	before = vnow(c);
	assert_int_equal(clock_adjfreq(c, 0.0), 0);
	assert_int_equal(vnow(c), before);
	ft.ns += 10 * SEC;
	assert_int_equal(vnow(c), before + 10 * SEC + 500);
	clock_close(c);
}

static void
test_vclock_history(void **state)
{
	struct fake_time ft = { T0 };
	struct clock *c;
	int64_t early, v_early;

	c = open_virtual(&ft, 0, 0.0);
	assert_non_null(c);
	ft.ns = T0 + 10 * SEC;
	early = ft.ns - 5000000;	/* an RX timestamp 5 ms before */
	v_early = conv(c, early);
	assert_int_equal(clock_adjfreq(c, 100000.0), 0);
	/*
	 * Converted after the request, it still gets the mapping in force
	 * when it was taken (100 ppm * 5 ms would have been 500 ns off).
	 */
	assert_int_equal(conv(c, early), v_early);
	assert_int_equal(clock_step(c, SEC), 0);
	assert_int_equal(conv(c, early), v_early);
	assert_int_equal(conv(c, ft.ns), ft.ns + SEC);
	clock_close(c);
}

static void
test_vclock_step(void **state)
{
	struct fake_time ft = { T0 };
	struct clock *c;
	int64_t v;

	c = open_virtual(&ft, 0, 1000.0);
	assert_non_null(c);
	ft.ns += SEC;
	v = vnow(c);
	assert_int_equal(v, T0 + SEC + 1000);
	assert_int_equal(clock_step(c, 1500000000), 0);
	assert_int_equal(vnow(c), v + 1500000000);
	assert_int_equal(clock_step(c, -2 * SEC - 1), 0);
	assert_int_equal(vnow(c), v - 500000001);
	/* The frequency survives steps. */
	ft.ns += SEC;
	assert_int_equal(vnow(c), v - 500000001 + SEC + 1000);
	/* Out-of-range steps change nothing. */
	v = vnow(c);
	assert_int_equal(clock_step(c, CLOCK_MAX_STEP_NS + 1), -ERANGE);
	assert_int_equal(clock_step(c, -CLOCK_MAX_STEP_NS - 1), -ERANGE);
	assert_int_equal(vnow(c), v);
	clock_close(c);
}

static void
test_vclock_precision_long_span(void **state)
{
	static const int64_t spans[] = {
		1, 999, SEC, 86400 * SEC, INT64_C(10) * 86400 * SEC,
		INT64_C(365) * 86400 * SEC, INT64_C(36500) * 86400 * SEC,
	};
	struct fake_time ft = { T0 };
	struct clock *c;
	size_t i;

	/* 12.345678 ppb = 12345678 parts per 1e15, exactly representable. */
	c = open_virtual(&ft, 0, 12.345678);
	assert_non_null(c);
	for (i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
		__int128 exact = (__int128)spans[i] * 12345678;
		int64_t want = T0 + spans[i] +
		    (int64_t)(exact / 1000000000000000LL);
		long double ref = (long double)spans[i] * 12.345678e-9L;
		int64_t got = conv(c, T0 + spans[i]);

		assert_int_equal(got, want);
		/* Within 1 ns of the real-number value. */
		assert_true(fabsl((long double)(got - T0 - spans[i]) - ref) <
		    1.0L);
	}
	/* 10 days at 12.345678 ppb is 10666665.792 ns: floor. */
	assert_int_equal(conv(c, T0 + 10 * 86400 * SEC) - T0 - 10 * 86400 * SEC,
	    10666665);
	clock_close(c);
}

static void
test_vclock_monotonic(void **state)
{
	static const double freqs[] = { -99999999.0, -1234.567, 0.0, 0.001,
	    77777.7, 99999999.0 };
	struct fake_time ft;
	struct clock *c;
	int64_t raw, prev, v;
	unsigned seed = 1;
	size_t i;
	int k;

	for (i = 0; i < sizeof(freqs) / sizeof(freqs[0]); i++) {
		ft.ns = T0;
		c = open_virtual(&ft, -777, freqs[i]);
		assert_non_null(c);
		/* Re-bases with other frequencies in between: continuous. */
		ft.ns = T0 + 500;
		assert_int_equal(clock_adjfreq(c, -freqs[i] / 3), 0);
		ft.ns = T0 + 900;
		assert_int_equal(clock_adjfreq(c, 31.25), 0);
		prev = INT64_MIN;
		/* Every ns across the re-bases, then random strides. */
		for (raw = T0 - 200; raw < T0 + 1200; raw++) {
			v = conv(c, raw);
			assert_true(v >= prev);
			if (freqs[i] >= 0)
				assert_true(v > prev || prev == INT64_MIN);
			prev = v;
		}
		for (k = 0; k < 20000; k++) {
			seed = seed * 1103515245u + 12345u;
			raw += 1 + (seed >> 8) % 1000000007;
			v = conv(c, raw);
			assert_true(v > prev);
			prev = v;
		}
		clock_close(c);
	}
}

static void
test_vclock_bad_input(void **state)
{
	struct fake_time ft = { T0 };
	struct timespec bad = { 1, SEC }, out;
	struct clock *c;

	c = open_virtual(&ft, 0, 0.0);
	assert_non_null(c);
	assert_int_equal(clock_to_timescale(c, bad, &out), -EINVAL);
	assert_int_equal(clock_adjfreq(c, NAN), -ERANGE);
	assert_int_equal(clock_adjfreq(c, INFINITY), -ERANGE);
	assert_int_equal(clock_adjfreq(c, 1e9), -ERANGE);
	assert_int_equal(clock_adjfreq(c, -100000000.5), -ERANGE);
	/* Far beyond the representable range: an error, not a wrap. */
	assert_int_equal(clock_step(c, CLOCK_MAX_STEP_NS), 0);
	assert_int_equal(clock_step(c, CLOCK_MAX_STEP_NS), -ERANGE);
	clock_close(c);

	assert_null(open_virtual(&ft, 0, 1e9));
	assert_int_equal(errno, ERANGE);
	assert_null(open_virtual(&ft, 0, NAN));
	assert_null(open_virtual(&ft, INT64_MAX, 0.0));
	assert_int_equal(errno, ERANGE);
}

static void
test_vclock_realtime_backward(void **state)
{
	struct fake_time ft = { T0 };
	struct clock *c;
	int64_t v;

	c = open_virtual(&ft, 0, 0.0);
	assert_non_null(c);
	ft.ns = T0 + 10 * SEC;
	assert_int_equal(clock_step(c, SEC), 0);
	/* Someone steps CLOCK_REALTIME back 20 s under netd. */
	ft.ns = T0 - 10 * SEC;
	v = vnow(c);
	assert_int_equal(v, T0 - 10 * SEC + SEC);	/* step kept */
	assert_int_equal(clock_adjfreq(c, 10.0), 0);
	assert_int_equal(vnow(c), v);
	ft.ns += SEC;
	assert_int_equal(vnow(c), v + SEC + 10);
	clock_close(c);
}

/* ---- the kernel's clocks, without adjusting them ------------------------ */

static int
count_fds(void)
{
	int fd, n = 0;

	for (fd = 0; fd < 256; fd++)
		if (fcntl(fd, F_GETFD) != -1)
			n++;
	return n;
}

static void
test_phc_missing(void **state)
{
	int before = count_fds();

	errno = 0;
	assert_null(clock_open("/dev/ptp99", NULL));
	assert_int_equal(errno, ENOENT);
	/* A character device that is no PHC: refused, fd closed. */
	errno = 0;
	assert_null(clock_phc_open("/dev/null"));
	assert_true(errno != 0);
	/* A regular file: not even a character device. */
	assert_null(clock_phc_open("/etc/passwd"));
	assert_int_equal(errno, ENODEV);
	assert_null(clock_open("/etc/passwd", NULL));
	assert_null(clock_open("bogus", NULL));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(count_fds(), before);
}

static void
test_system_read_only(void **state)
{
	struct timespec a, b;
	struct clock *c;

	c = clock_open("system", NULL);
	assert_non_null(c);
	assert_int_equal(c->kind, CLOCK_KIND_SYSTEM);
	assert_string_equal(clock_kind_name(c->kind), "system");
	assert_true(c->max_adj_ppb == 500000.0);
	assert_int_equal(clock_read(c, &a), 0);
	assert_int_equal(clock_to_timescale(c, a, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	/* adjfreq/step/getfreq are never called here: real clock. */
	clock_close(c);
}

/* ---- bounds --------------------------------------------------------------- */


static enum clock_status
check_freq(const struct clock_bounds *b, double ppb)
{
	struct clock_bounds_state st;
	struct clock_req r = { .op = CLOCK_OP_ADJFREQ, .freq_ppb = ppb };

	clock_bounds_state_init(&st);
	return clock_check_request(b, &st, &r, 0);
}

static void
test_bounds_freq(void **state)
{
	assert_int_equal(check_freq(&bounds, 0.0), CLOCK_ST_OK);
	assert_int_equal(check_freq(&bounds, 500000.0), CLOCK_ST_OK);
	assert_int_equal(check_freq(&bounds, -500000.0), CLOCK_ST_OK);
	assert_int_equal(check_freq(&bounds, 500000.001),
	    CLOCK_ST_OUT_OF_BOUNDS);
	assert_int_equal(check_freq(&bounds, -500000.001),
	    CLOCK_ST_OUT_OF_BOUNDS);
	assert_int_equal(check_freq(&bounds, 1e300), CLOCK_ST_OUT_OF_BOUNDS);
	assert_int_equal(check_freq(&bounds, NAN), CLOCK_ST_INVALID);
	assert_int_equal(check_freq(&bounds, -NAN), CLOCK_ST_INVALID);
	assert_int_equal(check_freq(&bounds, INFINITY), CLOCK_ST_INVALID);
	assert_int_equal(check_freq(&bounds, -INFINITY), CLOCK_ST_INVALID);
	assert_string_equal(clock_status_name(CLOCK_ST_OUT_OF_BOUNDS),
	    "OUT_OF_BOUNDS");
}

static void
test_bounds_step_not_allowed(void **state)
{
	struct clock_bounds b = bounds;
	struct clock_bounds_state st;
	struct clock_req r = { .op = CLOCK_OP_STEP, .step_ns = 1000 };

	b.allow_step = 0;
	clock_bounds_state_init(&st);
	assert_int_equal(clock_check_request(&b, &st, &r, 0),
	    CLOCK_ST_STEP_NOT_ALLOWED);
	r.step_ns = 0;
	assert_int_equal(clock_check_request(&b, &st, &r, 0),
	    CLOCK_ST_STEP_NOT_ALLOWED);
	/* Frequency requests are unaffected. */
	assert_int_equal(check_freq(&b, 10.0), CLOCK_ST_OK);
	assert_string_equal(clock_status_name(CLOCK_ST_STEP_NOT_ALLOWED),
	    "STEP_NOT_ALLOWED");
}

static void
test_bounds_step_magnitude(void **state)
{
	struct clock_bounds_state st;
	struct clock_req r = { .op = CLOCK_OP_STEP,
	    .step_ns = CLOCK_MAX_STEP_NS };

	clock_bounds_state_init(&st);
	assert_int_equal(clock_check_request(&bounds, &st, &r, 0),
	    CLOCK_ST_OK);
	r.step_ns = -CLOCK_MAX_STEP_NS;
	assert_int_equal(clock_check_request(&bounds, &st, &r, 0),
	    CLOCK_ST_OK);
	r.step_ns = CLOCK_MAX_STEP_NS + 1;
	assert_int_equal(clock_check_request(&bounds, &st, &r, 0),
	    CLOCK_ST_INVALID);
	r.step_ns = INT64_MIN;
	assert_int_equal(clock_check_request(&bounds, &st, &r, 0),
	    CLOCK_ST_INVALID);
	r.op = (enum clock_op)42;
	assert_int_equal(clock_check_request(&bounds, &st, &r, 0),
	    CLOCK_ST_INVALID);
}

static void
test_bounds_rate_window(void **state)
{
	struct clock_bounds_state st;
	struct clock_req r = { .op = CLOCK_OP_STEP, .step_ns = -5000 };
	int64_t t;

	clock_bounds_state_init(&st);
	/* 3 steps allowed at t = 0, 1, 2 s. */
	for (t = 0; t < 3; t++) {
		assert_int_equal(clock_check_request(&bounds, &st, &r, t * SEC),
		    CLOCK_ST_OK);
		clock_bounds_record_step(&st, t * SEC);
	}
	assert_int_equal(clock_check_request(&bounds, &st, &r, 3 * SEC),
	    CLOCK_ST_RATE_LIMITED);
	assert_int_equal(clock_check_request(&bounds, &st, &r, 10 * SEC - 1),
	    CLOCK_ST_RATE_LIMITED);
	/* The window slides: the step at 0 s leaves it at exactly 10 s. */
	assert_int_equal(clock_check_request(&bounds, &st, &r, 10 * SEC),
	    CLOCK_ST_OK);
	clock_bounds_record_step(&st, 10 * SEC);
	assert_int_equal(clock_check_request(&bounds, &st, &r, 10 * SEC + 1),
	    CLOCK_ST_RATE_LIMITED);
	assert_int_equal(clock_check_request(&bounds, &st, &r, 11 * SEC),
	    CLOCK_ST_OK);
	/* Long after: all forgotten. */
	assert_int_equal(clock_check_request(&bounds, &st, &r, 1000 * SEC),
	    CLOCK_ST_OK);
	/* Frequency requests are never rate limited. */
	r.op = CLOCK_OP_ADJFREQ;
	assert_int_equal(clock_check_request(&bounds, &st, &r, 3 * SEC),
	    CLOCK_ST_OK);
	assert_string_equal(clock_status_name(CLOCK_ST_RATE_LIMITED),
	    "RATE_LIMITED");
}

static void
test_bounds_rate_ring(void **state)
{
	struct clock_bounds b = bounds;
	struct clock_bounds_state st;
	struct clock_req r = { .op = CLOCK_OP_STEP, .step_ns = 1 };
	int64_t t;

	/* The largest window: 64 steps in 1000 s, after the ring wrapped. */
	b.max_steps = CLOCK_MAX_STEPS_LIMIT;
	b.step_interval_ns = 1000 * SEC;
	clock_bounds_state_init(&st);
	for (t = 0; t < 200; t++)
		clock_bounds_record_step(&st, t);	/* old, 1 ns apart */
	for (t = 0; t < CLOCK_MAX_STEPS_LIMIT; t++) {
		assert_int_equal(clock_check_request(&b, &st, &r,
		    5000 * SEC + t), CLOCK_ST_OK);
		clock_bounds_record_step(&st, 5000 * SEC + t);
	}
	assert_int_equal(clock_check_request(&b, &st, &r, 5000 * SEC + 100),
	    CLOCK_ST_RATE_LIMITED);
	/* Without a limit configured, never rate limited. */
	b.max_steps = 0;
	b.step_interval_ns = 0;
	assert_int_equal(clock_check_request(&b, &st, &r, 5000 * SEC + 100),
	    CLOCK_ST_OK);
}

static void
test_bounds_validate(void **state)
{
	struct clock_bounds b = bounds;

	assert_int_equal(clock_bounds_validate(&b), 0);
	b.max_freq_ppb = NAN;
	assert_int_equal(clock_bounds_validate(&b), -EINVAL);
	b.max_freq_ppb = -1.0;
	assert_int_equal(clock_bounds_validate(&b), -EINVAL);
	/* 0 is what the key table allows: only 0 ppb is accepted. */
	b.max_freq_ppb = 0.0;
	assert_int_equal(clock_bounds_validate(&b), 0);
	assert_int_equal(check_freq(&b, 0.0), CLOCK_ST_OK);
	assert_int_equal(check_freq(&b, 0.001), CLOCK_ST_OUT_OF_BOUNDS);
	b = bounds;
	b.max_steps = CLOCK_MAX_STEPS_LIMIT + 1;
	assert_int_equal(clock_bounds_validate(&b), -EINVAL);
	b = bounds;
	b.step_interval_ns = 0;
	assert_int_equal(clock_bounds_validate(&b), -EINVAL);
	b.max_steps = 0;
	assert_int_equal(clock_bounds_validate(&b), 0);
	b.step_interval_ns = -1;
	assert_int_equal(clock_bounds_validate(&b), -EINVAL);
	/* max_steps 0 (no limit) with a window, as the key table allows. */
	b = bounds;
	b.max_steps = 0;
	b.step_interval_ns = 60 * SEC;
	assert_int_equal(clock_bounds_validate(&b), 0);
	b = bounds;
	b.max_step_ns = -1;
	assert_int_equal(clock_bounds_validate(&b), -EINVAL);
	b = bounds;
	b.min_adj_interval_ns = -1;
	assert_int_equal(clock_bounds_validate(&b), -EINVAL);
}

/* max_step_ns: at the bound accepted, one ns past it refused. */
static void
test_bounds_max_step(void **state)
{
	struct clock_bounds b = bounds;
	struct clock_bounds_state st;
	struct clock_req r = { .op = CLOCK_OP_STEP, .step_ns = SEC };

	b.max_step_ns = SEC;
	clock_bounds_state_init(&st);
	assert_int_equal(clock_check_request(&b, &st, &r, 0), CLOCK_ST_OK);
	r.step_ns = -SEC;
	assert_int_equal(clock_check_request(&b, &st, &r, 0), CLOCK_ST_OK);
	r.step_ns = SEC + 1;
	assert_int_equal(clock_check_request(&b, &st, &r, 0),
	    CLOCK_ST_STEP_TOO_LARGE);
	r.step_ns = -SEC - 1;
	assert_int_equal(clock_check_request(&b, &st, &r, 0),
	    CLOCK_ST_STEP_TOO_LARGE);
	/* The step of the issue: 3e18 ns (95 years). */
	r.step_ns = INT64_C(3000000000000000000);
	assert_int_equal(clock_check_request(&b, &st, &r, 0),
	    CLOCK_ST_STEP_TOO_LARGE);
	r.step_ns = -INT64_C(3000000000000000000);
	assert_int_equal(clock_check_request(&b, &st, &r, 0),
	    CLOCK_ST_STEP_TOO_LARGE);
	/* Beyond 2^62 it stays INVALID (a malformed request). */
	r.step_ns = INT64_MIN;
	assert_int_equal(clock_check_request(&b, &st, &r, 0),
	    CLOCK_ST_INVALID);
	/* allow_step 0 is said first: no step at all. */
	b.allow_step = 0;
	r.step_ns = SEC + 1;
	assert_int_equal(clock_check_request(&b, &st, &r, 0),
	    CLOCK_ST_STEP_NOT_ALLOWED);
	/* max_step_ns 0: no operator limit, only 2^62. */
	b = bounds;
	r.step_ns = INT64_C(3000000000000000000);
	assert_int_equal(clock_check_request(&b, &st, &r, 0), CLOCK_ST_OK);
	/* The largest configurable bound is no limit below 2^62 either. */
	b.max_step_ns = INT64_MAX;
	r.step_ns = CLOCK_MAX_STEP_NS;
	assert_int_equal(clock_check_request(&b, &st, &r, 0), CLOCK_ST_OK);
	r.step_ns = -CLOCK_MAX_STEP_NS;
	assert_int_equal(clock_check_request(&b, &st, &r, 0), CLOCK_ST_OK);
	assert_string_equal(clock_status_name(CLOCK_ST_STEP_TOO_LARGE),
	    "STEP_TOO_LARGE");
}

/* A step refused as too large leaves the clock and the window alone. */
static void
test_apply_step_too_large(void **state)
{
	struct fake_time ft = { T0 };
	struct clock_bounds b = bounds;
	struct clock_bounds_state st;
	struct clock_req r = { .op = CLOCK_OP_STEP,
	    .step_ns = INT64_C(3000000000000000000) };
	enum clock_status s;
	struct clock *c;

	b.max_step_ns = SEC;
	b.max_steps = 1;
	c = open_virtual(&ft, 0, 0.0);
	assert_non_null(c);
	clock_bounds_state_init(&st);
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_STEP_TOO_LARGE);
	assert_int_equal(vnow(c), T0);
	r.step_ns = SEC + 1;
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_STEP_TOO_LARGE);
	assert_int_equal(vnow(c), T0);
	/* The one step of the window is still there. */
	r.step_ns = SEC;
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), 0);
	assert_int_equal(s, CLOCK_ST_OK);
	assert_int_equal(vnow(c), T0 + SEC);
	clock_close(c);
}

/* max_steps 0 means no limit, whatever step_interval_ns says. */
static void
test_bounds_max_steps_unlimited(void **state)
{
	struct clock_bounds b = bounds;
	struct clock_bounds_state st;
	struct clock_req r = { .op = CLOCK_OP_STEP, .step_ns = 1000 };
	int64_t t;

	b.max_steps = 0;
	b.step_interval_ns = 60 * SEC;
	assert_int_equal(clock_bounds_validate(&b), 0);
	clock_bounds_state_init(&st);
	for (t = 0; t < 3 * CLOCK_MAX_STEPS_LIMIT; t++) {
		assert_int_equal(clock_check_request(&b, &st, &r, t),
		    CLOCK_ST_OK);
		clock_bounds_record_step(&st, t);
	}
}

/* min_adj_interval_ns: a frequency change sooner than that is refused. */
static void
test_bounds_min_adj_interval(void **state)
{
	struct clock_bounds b = bounds;
	struct clock_bounds_state st;
	struct clock_req r = { .op = CLOCK_OP_ADJFREQ, .freq_ppb = 100.0 };
	const int64_t ms = 1000000, t0 = 5 * SEC;

	b.min_adj_interval_ns = 10 * ms;
	clock_bounds_state_init(&st);
	/* The first change is never too soon. */
	assert_int_equal(clock_check_request(&b, &st, &r, t0), CLOCK_ST_OK);
	clock_bounds_record_adj(&st, t0);
	assert_int_equal(clock_check_request(&b, &st, &r, t0),
	    CLOCK_ST_RATE_LIMITED);
	assert_int_equal(clock_check_request(&b, &st, &r, t0 + 10 * ms - 1),
	    CLOCK_ST_RATE_LIMITED);
	assert_int_equal(clock_check_request(&b, &st, &r, t0 + 10 * ms),
	    CLOCK_ST_OK);
	/* "now" before the last change (cannot happen with MONOTONIC). */
	assert_int_equal(clock_check_request(&b, &st, &r, t0 - 1),
	    CLOCK_ST_RATE_LIMITED);
	assert_int_equal(clock_check_request(&b, &st, &r, INT64_MIN),
	    CLOCK_ST_RATE_LIMITED);
	/* Far after: no overflow, allowed. */
	assert_int_equal(clock_check_request(&b, &st, &r, INT64_MAX),
	    CLOCK_ST_OK);
	/* Out of bounds is said before too soon; steps are not affected. */
	r.freq_ppb = 600000.0;
	assert_int_equal(clock_check_request(&b, &st, &r, t0),
	    CLOCK_ST_OUT_OF_BOUNDS);
	r.op = CLOCK_OP_STEP;
	r.step_ns = 1;
	assert_int_equal(clock_check_request(&b, &st, &r, t0), CLOCK_ST_OK);
	/* 0: no limit. */
	b.min_adj_interval_ns = 0;
	r.op = CLOCK_OP_ADJFREQ;
	r.freq_ppb = 1.0;
	assert_int_equal(clock_check_request(&b, &st, &r, t0), CLOCK_ST_OK);
}

/*
 * A burst of frequency changes through clock_apply(): only the first of
 * each interval is executed, a refused one does not restart the interval,
 * and the clock keeps the last accepted frequency.
 */
static void
test_apply_adj_burst(void **state)
{
	struct fake_time ft = { T0 };
	struct clock_bounds b = bounds;
	struct clock_bounds_state st;
	struct clock_req r = { .op = CLOCK_OP_ADJFREQ };
	const int64_t ms = 1000000;
	enum clock_status s;
	struct clock *c;
	int i, ok = 0, limited = 0;
	double f;

	b.min_adj_interval_ns = 1 * ms;
	c = open_virtual(&ft, 0, 0.0);
	assert_non_null(c);
	clock_bounds_state_init(&st);
	/* 100 requests 100 us apart: 10 ms, so 10 of them pass. */
	for (i = 0; i < 100; i++) {
		r.freq_ppb = 1000.0 + i;
		if (clock_apply(c, &b, &st, &r, i * 100000, &s) == 0) {
			assert_int_equal(s, CLOCK_ST_OK);
			ok++;
		} else {
			assert_int_equal(s, CLOCK_ST_RATE_LIMITED);
			limited++;
		}
	}
	assert_int_equal(ok, 10);
	assert_int_equal(limited, 90);
	assert_int_equal(clock_getfreq(c, &f), 0);
	assert_true(f == 1090.0);	/* accepted at 9 ms */
	clock_close(c);
}

/*
 * netd answers a read, a step and every refusal, not an accepted
 * frequency change (netd.proto, ClockRequest).
 */
static void
test_reply_due(void **state)
{
	struct clock_req adj = { .op = CLOCK_OP_ADJFREQ, .freq_ppb = 12.5 };
	struct clock_req step = { .op = CLOCK_OP_STEP, .step_ns = 1000 };

	(void)state;
	assert_false(clock_reply_due(0, &adj, 1));
	assert_true(clock_reply_due(0, &adj, 0));
	assert_true(clock_reply_due(0, &step, 1));
	assert_true(clock_reply_due(0, &step, 0));
	/* a read's req is not filled in (check_clock_request) */
	assert_true(clock_reply_due(1, &adj, 1));
}

static void
quiet_diag(void *arg, const struct cfg_diag *d)
{
	(void)arg;
	(void)d;
}

/* The bounds of a configuration, from the keys of the key table. */
static int
bounds_of(const char *key, const char *value, struct clock_bounds *b)
{
	struct cfg *cfg = cfg_new();
	char why[256] = "";
	int rc;

	assert_non_null(cfg);
	cfg_set_diag(cfg, quiet_diag, NULL);	/* refusals are expected */
	if (cfg_set_from_string(cfg, NULL, key, value) != 0) {
		cfg_free(cfg);
		return 1;	/* the key table refused the value */
	}
	rc = clock_bounds_from_cfg(cfg, b, why, sizeof(why));
	if (rc != 0)
		print_message("%s %s: %s\n", key, value, why);
	cfg_free(cfg);
	return rc;
}

/*
 * What --check-config accepts, netd enforces: every value of the key
 * table's range of each bound key gives bounds that validate (the ends,
 * and 0 = no limit), and a value past the range is the key table's error.
 */
static void
test_bounds_agree_with_keys(void **state)
{
	static const char *const keys[] = {
		"max_freq_ppb", "allow_step", "max_step_ns",
		"max_steps_per_interval", "step_limit_interval",
		"min_adj_interval_ms",
	};
	struct clock_bounds b;
	char v[64];
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct cfg_key *k = cfg_key_find(keys[i]);

		assert_non_null(k);
		if (k->type == CFG_T_DOUBLE) {
			snprintf(v, sizeof(v), "%.17g", k->dmin);
			assert_int_equal(bounds_of(keys[i], v, &b), 0);
			snprintf(v, sizeof(v), "%.17g", k->dmax);
			assert_int_equal(bounds_of(keys[i], v, &b), 0);
			snprintf(v, sizeof(v), "%.17g", k->dmax * 2);
			assert_int_equal(bounds_of(keys[i], v, &b), 1);
			continue;
		}
		snprintf(v, sizeof(v), "%lld", (long long)k->imin);
		assert_int_equal(bounds_of(keys[i], v, &b), 0);
		snprintf(v, sizeof(v), "%lld", (long long)k->imax);
		assert_int_equal(bounds_of(keys[i], v, &b), 0);
		if (k->imax < INT64_MAX) {
			snprintf(v, sizeof(v), "%lld", (long long)k->imax + 1);
			assert_int_equal(bounds_of(keys[i], v, &b), 1);
		}
	}
	/* The values netd then holds. */
	assert_int_equal(bounds_of("max_steps_per_interval", "0", &b), 0);
	assert_int_equal(b.max_steps, 0);
	assert_true(b.step_interval_ns >= SEC);
	assert_int_equal(bounds_of("max_step_ns", "1000000000", &b), 0);
	assert_int_equal(b.max_step_ns, SEC);
	assert_int_equal(bounds_of("min_adj_interval_ms", "0", &b), 0);
	assert_int_equal(b.min_adj_interval_ns, 0);
	assert_int_equal(bounds_of("min_adj_interval_ms", "250", &b), 0);
	assert_int_equal(b.min_adj_interval_ns, 250 * 1000000LL);
	/* The defaults: max_step_ns 0, 4 steps per 60 s, 1 ms. */
	assert_int_equal(bounds_of("allow_step", "1", &b), 0);
	assert_int_equal(b.max_step_ns, 0);
	assert_int_equal(b.max_steps, 4);
	assert_int_equal(b.step_interval_ns, 60 * SEC);
	assert_int_equal(b.min_adj_interval_ns, 1000000);
}

static void
test_apply(void **state)
{
	struct fake_time ft = { T0 };
	struct clock_bounds b = bounds;
	struct clock_bounds_state st;
	struct clock_req r = { .op = CLOCK_OP_ADJFREQ, .freq_ppb = 600000.0 };
	enum clock_status s;
	struct clock *c;
	double f;

	b.max_steps = 1;
	c = open_virtual(&ft, 0, 0.0);
	assert_non_null(c);
	clock_bounds_state_init(&st);
	/* Refused: clock untouched. */
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_OUT_OF_BOUNDS);
	assert_int_equal(clock_getfreq(c, &f), 0);
	assert_true(f == 0.0);
	r.freq_ppb = -400000.0;
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), 0);
	assert_int_equal(s, CLOCK_ST_OK);
	assert_int_equal(clock_getfreq(c, &f), 0);
	assert_true(f == -400000.0);
	r.op = CLOCK_OP_STEP;
	r.step_ns = SEC;
	assert_int_equal(clock_apply(c, &b, &st, &r, 0, &s), 0);
	assert_int_equal(vnow(c), T0 + SEC);
	assert_int_equal(clock_apply(c, &b, &st, &r, SEC, &s), -EPERM);
	assert_int_equal(s, CLOCK_ST_RATE_LIMITED);
	assert_int_equal(vnow(c), T0 + SEC);
	clock_close(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ts_conversion),
		cmocka_unit_test(test_vclock_start_offset),
		cmocka_unit_test(test_vclock_freq_error),
		cmocka_unit_test(test_vclock_adjfreq_continuity),
		cmocka_unit_test(test_vclock_history),
		cmocka_unit_test(test_vclock_step),
		cmocka_unit_test(test_vclock_precision_long_span),
		cmocka_unit_test(test_vclock_monotonic),
		cmocka_unit_test(test_vclock_bad_input),
		cmocka_unit_test(test_vclock_realtime_backward),
		cmocka_unit_test(test_phc_missing),
		cmocka_unit_test(test_system_read_only),
		cmocka_unit_test(test_bounds_freq),
		cmocka_unit_test(test_bounds_step_not_allowed),
		cmocka_unit_test(test_bounds_step_magnitude),
		cmocka_unit_test(test_bounds_rate_window),
		cmocka_unit_test(test_bounds_rate_ring),
		cmocka_unit_test(test_bounds_validate),
		cmocka_unit_test(test_bounds_max_step),
		cmocka_unit_test(test_bounds_max_steps_unlimited),
		cmocka_unit_test(test_bounds_min_adj_interval),
		cmocka_unit_test(test_bounds_agree_with_keys),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_apply_step_too_large),
		cmocka_unit_test(test_apply_adj_burst),
		cmocka_unit_test(test_reply_due),
	};

	log_init("test", 1, LOG_LVL_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
