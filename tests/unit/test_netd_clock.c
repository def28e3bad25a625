/*
 * test_netd_clock.c - netd's clocks: the virtual clock's arithmetic, the
 * bounds on clock requests, the clean failure of a missing PHC, and the
 * system clock as a second clock compared with the PTP clock.
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
#include "drv_fake.h"

#define SEC	NSEC_PER_SEC
/* A realistic raw time: 2024-ish in ns since the epoch. */
#define T0	(INT64_C(1700000000) * SEC + 123456789)

struct fake_time {
	int64_t	ns;
};

static int
fake_now(void *arg, struct timespec *ts)
{
	*ts = clock_ns_to_ts(((struct fake_time *)arg)->ns);
	return 0;
}

static struct clock *
open_virtual(struct fake_time *ft, int64_t offset, double freq)
{
	struct clock_params p;

	memset(&p, 0, sizeof(p));
	p.virtual_offset_ns = offset;
	p.virtual_freq_ppb = freq;
	p.now = fake_now;
	p.now_arg = ft;
	return clock_open("virtual", &p);
}

static int64_t
vnow(struct clock *c)
{
	struct timespec ts;
	int64_t ns;

	assert_int_equal(clock_read(c, &ts), 0);
	assert_int_equal(ptp_timespec_to_ns(ts, &ns), 0);
	return ns;
}

static int64_t
conv(struct clock *c, int64_t raw)
{
	struct timespec out;
	int64_t ns;

	assert_int_equal(clock_to_timescale(c, clock_ns_to_ts(raw), &out), 0);
	assert_true(out.tv_nsec >= 0 && out.tv_nsec < SEC);
	assert_int_equal(ptp_timespec_to_ns(out, &ns), 0);
	return ns;
}

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

static const struct clock_bounds bounds = {
	.max_freq_ppb = 500000.0,
	.allow_step = 1,
	.max_steps = 3,
	.step_interval_ns = 10 * SEC,
};

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
		cmocka_unit_test(test_sysclk_independent),
		cmocka_unit_test(test_cmp_same_base),
		cmocka_unit_test(test_cmp_phc),
		cmocka_unit_test(test_cmp_due),
		cmocka_unit_test(test_sysclk_bounds_apart),
		cmocka_unit_test(test_vclock_leap_insert),
		cmocka_unit_test(test_vclock_leap_delete),
		cmocka_unit_test(test_vclock_leap_cancel),
		cmocka_unit_test(test_vclock_leap_kept),
		cmocka_unit_test(test_vclock_leap_range),
		cmocka_unit_test(test_apply_leap),
		cmocka_unit_test(test_system_leap_drv),
	};

	log_init("test", 1, LOG_LVL_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
