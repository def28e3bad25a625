/* test_nbr.c - the neighbour delay check of P2P ports (asCapable). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "clockd/nbr.h"

/* ptp4l's defaults: min_neighbor_prop_delay -20 ms, thresh 20 ms. */
static void
test_defaults_pass_sane_links(void **state)
{
	struct nbr n;

	(void)state;
	nbr_init(&n, -20000000, 20000000);
	assert_true(nbr_as_capable(&n));
	assert_int_equal(nbr_judge(&n, 0), NBR_OK);
	assert_int_equal(nbr_judge(&n, 35000), NBR_OK);	/* veth, sw ts */
	assert_int_equal(nbr_judge(&n, -500), NBR_OK);
	assert_int_equal(nbr_sample(&n, 40000), 0);
	assert_true(nbr_as_capable(&n));
	assert_int_equal(n.rejected, 0);
}

/* The bounds are inclusive, as ptp4l's "> thresh" and "< min". */
static void
test_bounds_inclusive(void **state)
{
	struct nbr n;

	(void)state;
	nbr_init(&n, -100, 1000);
	assert_int_equal(nbr_judge(&n, 1000), NBR_OK);
	assert_int_equal(nbr_judge(&n, 1001), NBR_TOO_LONG);
	assert_int_equal(nbr_judge(&n, -100), NBR_OK);
	assert_int_equal(nbr_judge(&n, -101), NBR_TOO_SHORT);
	assert_int_equal(nbr_judge(&n, INT64_MAX), NBR_TOO_LONG);
	assert_int_equal(nbr_judge(&n, INT64_MIN), NBR_TOO_SHORT);
}

/* A neighbour too far makes the port not asCapable, back in range it is
 * again; nbr_sample() says when it changes, once. */
static void
test_transitions(void **state)
{
	struct nbr n;

	(void)state;
	nbr_init(&n, -1, 50000);
	assert_int_equal(nbr_sample(&n, 30000), 0);
	assert_int_equal(nbr_sample(&n, 60000), 1);
	assert_false(nbr_as_capable(&n));
	assert_int_equal(n.last, NBR_TOO_LONG);
	assert_int_equal(n.last_ns, 60000);
	assert_int_equal(nbr_sample(&n, 70000), 0);	/* still out */
	assert_false(nbr_as_capable(&n));
	assert_int_equal(nbr_sample(&n, -2), 0);	/* out the other way */
	assert_int_equal(n.last, NBR_TOO_SHORT);
	assert_int_equal(n.rejected, 3);
	assert_int_equal(nbr_sample(&n, 49999), 1);
	assert_true(nbr_as_capable(&n));
	assert_int_equal(n.last, NBR_OK);
}

/* A zero threshold (the range allows it) accepts only 0 .. 0 ns. */
static void
test_zero_thresh(void **state)
{
	struct nbr n;

	(void)state;
	nbr_init(&n, -1, 0);
	assert_int_equal(nbr_sample(&n, 1), 1);
	assert_false(nbr_as_capable(&n));
	assert_int_equal(nbr_sample(&n, 0), 1);
	assert_true(nbr_as_capable(&n));
}

/* A zeroed struct (a port set up without nbr_init()) checks nothing. */
static void
test_zeroed_checks_nothing(void **state)
{
	struct nbr n;

	(void)state;
	memset(&n, 0, sizeof(n));
	assert_true(nbr_as_capable(&n));
	assert_int_equal(nbr_sample(&n, 123456789), 0);
	assert_true(nbr_as_capable(&n));
	assert_int_equal(n.rejected, 0);
}

static void
test_names(void **state)
{
	(void)state;
	assert_string_equal(nbr_verdict_name(NBR_TOO_LONG),
	    "above neighborPropDelayThresh");
	assert_string_equal(nbr_verdict_name(NBR_TOO_SHORT),
	    "below min_neighbor_prop_delay");
	assert_string_equal(nbr_verdict_name(NBR_OK), "in range");
	assert_string_equal(nbr_verdict_name((enum nbr_verdict)9), "?");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_pass_sane_links),
		cmocka_unit_test(test_bounds_inclusive),
		cmocka_unit_test(test_transitions),
		cmocka_unit_test(test_zero_thresh),
		cmocka_unit_test(test_zeroed_checks_nothing),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
