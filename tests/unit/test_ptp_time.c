/*
 * test_ptp_time.c - lib/ptp_time.c: conversions and arithmetic on times
 * that come from the network, at the edges a hostile host can choose.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ptp_time.h"

#define TS(s, n)	((struct ptp_timestamp){ (s), (n) })
#define MAX48		0xFFFFFFFFFFFFULL
/* INT64_MAX ns = 9223372036 s + 854775807 ns (the year 2262). */
#define MAX_S		9223372036ULL
#define MAX_NS		854775807U

static void
test_to_ns(void **state)
{
	struct ptp_timestamp ts;
	int64_t ns = 42;

	(void)state;
	ts = TS(0, 0);
	assert_int_equal(ptp_time_to_ns(&ts, &ns), 0);
	assert_int_equal(ns, 0);
	ts = TS(1, 999999999);
	assert_int_equal(ptp_time_to_ns(&ts, &ns), 0);
	assert_int_equal(ns, 1999999999);
	ts = TS(MAX_S, MAX_NS);
	assert_int_equal(ptp_time_to_ns(&ts, &ns), 0);
	assert_int_equal(ns, INT64_MAX);

	/* One ns past INT64_MAX, and the largest wire value: no result,
	 * and *ns untouched. */
	ns = 42;
	ts = TS(MAX_S, MAX_NS + 1);
	assert_int_equal(ptp_time_to_ns(&ts, &ns), -ERANGE);
	ts = TS(MAX_S + 1, 0);
	assert_int_equal(ptp_time_to_ns(&ts, &ns), -ERANGE);
	ts = TS(MAX48, 0);			/* 2^48 - 1 s */
	assert_int_equal(ptp_time_to_ns(&ts, &ns), -ERANGE);
	ts = TS(MAX48, 999999999);
	assert_int_equal(ptp_time_to_ns(&ts, &ns), -ERANGE);
	ts = TS(UINT64_MAX, 0);			/* not on the wire, in the struct */
	assert_int_equal(ptp_time_to_ns(&ts, &ns), -ERANGE);
	ts = TS((uint64_t)INT64_MAX + 1, 0);
	assert_int_equal(ptp_time_to_ns(&ts, &ns), -ERANGE);
	assert_int_equal(ns, 42);

	/* nanoseconds is below 10^9 (5.3.3) */
	ts = TS(1, 1000000000);
	assert_int_equal(ptp_time_to_ns(&ts, &ns), -EINVAL);
	ts = TS(0, UINT32_MAX);
	assert_int_equal(ptp_time_to_ns(&ts, &ns), -EINVAL);
	ts = TS(MAX48, 1000000000);
	assert_int_equal(ptp_time_to_ns(&ts, &ns), -EINVAL);
	assert_int_equal(ns, 42);
}

static void
test_from_ns(void **state)
{
	struct ptp_timestamp ts = TS(7, 7);

	(void)state;
	assert_int_equal(ptp_time_from_ns(INT64_MAX, &ts), 0);
	assert_true(ts.sec == MAX_S && ts.nsec == MAX_NS);
	assert_int_equal(ptp_time_from_ns(0, &ts), 0);
	assert_true(ts.sec == 0 && ts.nsec == 0);
	assert_int_equal(ptp_time_from_ns(1000000001, &ts), 0);
	assert_true(ts.sec == 1 && ts.nsec == 1);
	ts = TS(7, 7);
	assert_int_equal(ptp_time_from_ns(-1, &ts), -ERANGE);
	assert_int_equal(ptp_time_from_ns(INT64_MIN, &ts), -ERANGE);
	assert_true(ts.sec == 7 && ts.nsec == 7);
}

static void
test_timespec(void **state)
{
	struct timespec t;
	int64_t ns = 42;

	(void)state;
	t.tv_sec = -1;
	t.tv_nsec = 5;
	assert_int_equal(ptp_timespec_to_ns(t, &ns), 0);
	assert_int_equal(ns, -999999995);
	t.tv_sec = (time_t)MAX_S;
	t.tv_nsec = MAX_NS;
	assert_int_equal(ptp_timespec_to_ns(t, &ns), 0);
	assert_int_equal(ns, INT64_MAX);
	t.tv_nsec++;
	assert_int_equal(ptp_timespec_to_ns(t, &ns), -ERANGE);
	/* INT64_MIN ns = -9223372037 s + 145224192 ns */
	t.tv_sec = -9223372037LL;
	t.tv_nsec = 145224192;
	assert_int_equal(ptp_timespec_to_ns(t, &ns), 0);
	assert_int_equal(ns, INT64_MIN);
	t.tv_nsec--;
	assert_int_equal(ptp_timespec_to_ns(t, &ns), -ERANGE);
	t.tv_sec = 0;
	t.tv_nsec = 1000000000;
	assert_int_equal(ptp_timespec_to_ns(t, &ns), -EINVAL);
	t.tv_nsec = -1;
	assert_int_equal(ptp_timespec_to_ns(t, &ns), -EINVAL);
}

static void
test_sub(void **state)
{
	struct ptp_timestamp a = TS(MAX48, 7), b = TS(MAX48 - 1, 999999999);
	int64_t ns = 42;

	(void)state;
	/* Exact near 2^48 s, where the ns values themselves do not fit. */
	assert_int_equal(ptp_time_sub(&a, &b, &ns), 0);
	assert_int_equal(ns, 8);
	assert_int_equal(ptp_time_sub(&b, &a, &ns), 0);
	assert_int_equal(ns, -8);
	a = TS(MAX48, 0);
	b = TS(MAX48, 0);
	assert_int_equal(ptp_time_sub(&a, &b, &ns), 0);
	assert_int_equal(ns, 0);
	/* 2^48 s apart: beyond int64 either way */
	ns = 42;
	b = TS(0, 0);
	assert_int_equal(ptp_time_sub(&a, &b, &ns), -ERANGE);
	assert_int_equal(ptp_time_sub(&b, &a, &ns), -ERANGE);
	a = TS(UINT64_MAX, 999999999);
	assert_int_equal(ptp_time_sub(&a, &b, &ns), -ERANGE);
	assert_int_equal(ptp_time_sub(&b, &a, &ns), -ERANGE);
	assert_int_equal(ns, 42);
	/* the edge of int64, both signs */
	a = TS(MAX_S, MAX_NS);
	assert_int_equal(ptp_time_sub(&a, &b, &ns), 0);
	assert_int_equal(ns, INT64_MAX);
	assert_int_equal(ptp_time_sub(&b, &a, &ns), 0);
	assert_int_equal(ns, -INT64_MAX);
	a = TS(MAX_S, MAX_NS + 1);
	assert_int_equal(ptp_time_sub(&a, &b, &ns), -ERANGE);
	/* -(INT64_MAX + 1) = INT64_MIN fits */
	assert_int_equal(ptp_time_sub(&b, &a, &ns), 0);
	assert_int_equal(ns, INT64_MIN);
	a = TS(1, 1000000000);
	assert_int_equal(ptp_time_sub(&a, &b, &ns), -EINVAL);
	assert_int_equal(ptp_time_sub(&b, &a, &ns), -EINVAL);
}

static void
test_checked(void **state)
{
	int64_t r = 42;

	(void)state;
	assert_int_equal(ptp_ns_add(INT64_MAX - 1, 1, &r), 0);
	assert_int_equal(r, INT64_MAX);
	r = 42;
	assert_int_equal(ptp_ns_add(INT64_MAX, 1, &r), -ERANGE);
	assert_int_equal(ptp_ns_add(INT64_MIN, -1, &r), -ERANGE);
	assert_int_equal(r, 42);
	assert_int_equal(ptp_ns_add(INT64_MIN, INT64_MAX, &r), 0);
	assert_int_equal(r, -1);
	assert_int_equal(ptp_ns_sub(0, INT64_MIN, &r), -ERANGE);
	assert_int_equal(ptp_ns_sub(-1, INT64_MAX, &r), 0);
	assert_int_equal(r, INT64_MIN);
	assert_int_equal(ptp_ns_sub(INT64_MAX, -1, &r), -ERANGE);
	assert_int_equal(ptp_ns_sub(INT64_MIN, 1, &r), -ERANGE);
}

static void
test_saturating(void **state)
{
	(void)state;
	assert_int_equal(ptp_ns_sat_add(INT64_MAX, 1), INT64_MAX);
	assert_int_equal(ptp_ns_sat_add(INT64_MAX, INT64_MAX), INT64_MAX);
	assert_int_equal(ptp_ns_sat_add(INT64_MIN, -1), INT64_MIN);
	assert_int_equal(ptp_ns_sat_add(INT64_MIN, INT64_MIN), INT64_MIN);
	assert_int_equal(ptp_ns_sat_add(INT64_MIN, INT64_MAX), -1);
	assert_int_equal(ptp_ns_sat_add(-5, 3), -2);
	assert_int_equal(ptp_ns_sat_sub(0, INT64_MIN), INT64_MAX);
	assert_int_equal(ptp_ns_sat_sub(INT64_MIN, 1), INT64_MIN);
	assert_int_equal(ptp_ns_sat_sub(INT64_MAX, -1), INT64_MAX);
	assert_int_equal(ptp_ns_sat_sub(-1, INT64_MAX), INT64_MIN);
	assert_int_equal(ptp_ns_sat_sub(3, 5), -2);
	assert_int_equal(ptp_ns_sat_neg(INT64_MIN), INT64_MAX);
	assert_int_equal(ptp_ns_sat_neg(INT64_MAX), -INT64_MAX);
	assert_int_equal(ptp_ns_sat_neg(0), 0);
	assert_true(ptp_ns_abs(INT64_MIN) == (uint64_t)1 << 63);
	assert_true(ptp_ns_abs(-1) == 1);
	assert_true(ptp_ns_abs(INT64_MAX) == (uint64_t)INT64_MAX);
}

static void
test_from_double(void **state)
{
	(void)state;
	assert_int_equal(ptp_ns_from_double(NAN), 0);
	assert_int_equal(ptp_ns_from_double(INFINITY), INT64_MAX);
	assert_int_equal(ptp_ns_from_double(-INFINITY), INT64_MIN);
	assert_int_equal(ptp_ns_from_double(9223372036854775808.0), INT64_MAX);
	assert_int_equal(ptp_ns_from_double(1e300), INT64_MAX);
	assert_int_equal(ptp_ns_from_double(-9223372036854775808.0),
	    INT64_MIN);
	assert_int_equal(ptp_ns_from_double(-1e300), INT64_MIN);
	assert_int_equal(ptp_ns_from_double(2.5), 3);
	assert_int_equal(ptp_ns_from_double(-2.5), -3);
	assert_int_equal(ptp_ns_from_double(-0.4), 0);
	/* the largest double below 2^63 converts exactly */
	assert_int_equal(ptp_ns_from_double(9223372036854774784.0),
	    INT64_C(9223372036854774784));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_to_ns),
		cmocka_unit_test(test_from_ns),
		cmocka_unit_test(test_timespec),
		cmocka_unit_test(test_sub),
		cmocka_unit_test(test_checked),
		cmocka_unit_test(test_saturating),
		cmocka_unit_test(test_from_double),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
