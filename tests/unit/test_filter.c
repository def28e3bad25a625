/* test_filter.c - moving median / average of the path delay, tsproc modes. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "clockd/filter.h"

static void
test_create_bounds(void **state)
{
	struct filter *f;

	(void)state;
	errno = 0;
	assert_null(filter_create(FILTER_MOVING_MEDIAN, 0));
	assert_int_equal(errno, EINVAL);
	assert_null(filter_create(FILTER_MOVING_AVERAGE, -3));
	assert_null(filter_create(FILTER_MOVING_MEDIAN, FILTER_MAX_LENGTH + 1));
	assert_null(filter_create((enum filter_type)7, 10));
	f = filter_create(FILTER_MOVING_MEDIAN, FILTER_MAX_LENGTH);
	assert_non_null(f);
	filter_destroy(f);
	filter_destroy(NULL);
}

/* Warm-up: the median of what is there; even counts average the middle. */
static void
test_median_warmup(void **state)
{
	struct filter *f = filter_create(FILTER_MOVING_MEDIAN, 5);

	(void)state;
	assert_int_equal(filter_sample(f, 100), 100);		/* {100} */
	assert_int_equal(filter_sample(f, 10), 55);		/* {10,100} */
	assert_int_equal(filter_sample(f, 40), 40);		/* {10,40,100} */
	assert_int_equal(filter_sample(f, 41), 40);		/* 40,41: 40.5 */
	assert_int_equal(filter_count(f), 4);
	assert_int_equal(filter_sample(f, 1000), 41);
	assert_int_equal(filter_count(f), 5);
	/* Full: 100 (oldest) goes -> {10,40,41,1000,7} */
	assert_int_equal(filter_sample(f, 7), 40);
	/* 10 goes -> {40,41,1000,7,7} */
	assert_int_equal(filter_sample(f, 7), 40);
	/* 40 goes -> {41,1000,7,7,7} */
	assert_int_equal(filter_sample(f, 7), 7);
	filter_reset(f);
	assert_int_equal(filter_count(f), 0);
	assert_int_equal(filter_sample(f, -5), -5);
	filter_destroy(f);
}

/* Even window: mean of the two middle values, truncated toward zero. */
static void
test_median_even(void **state)
{
	struct filter *f = filter_create(FILTER_MOVING_MEDIAN, 4);
	int i;

	(void)state;
	for (i = 0; i < 8; i++)
		filter_sample(f, 1000 * (i % 2));	/* 0,1000,0,1000,... */
	assert_int_equal(filter_sample(f, 0), 500);	/* {1000,0,1000,0} */
	filter_reset(f);
	filter_sample(f, -3);
	assert_int_equal(filter_sample(f, -4), -3);	/* -3.5 -> -3 */
	filter_sample(f, 5);
	assert_int_equal(filter_sample(f, 6), 1);	/* {-4,-3,5,6}: 1 */
	/* Extreme values do not overflow. */
	filter_reset(f);
	filter_sample(f, INT64_MAX);
	assert_int_equal(filter_sample(f, INT64_MAX - 2), INT64_MAX - 1);
	filter_destroy(f);
}

/* A length-1 median is the raw value; spikes shorter than half the window
 * never show. */
static void
test_median_outliers(void **state)
{
	struct filter *f1 = filter_create(FILTER_MOVING_MEDIAN, 1);
	struct filter *f10 = filter_create(FILTER_MOVING_MEDIAN, 10);
	int i;

	(void)state;
	assert_int_equal(filter_sample(f1, 3), 3);
	assert_int_equal(filter_sample(f1, -9), -9);
	for (i = 0; i < 100; i++) {
		int64_t v = (i % 10 < 4) ? 1000000 : 50000 + i % 3;

		if (i >= 10)
			assert_in_range(filter_sample(f10, v), 50000, 50002);
		else
			filter_sample(f10, v);
	}
	filter_destroy(f1);
	filter_destroy(f10);
}

static void
test_average(void **state)
{
	struct filter *f = filter_create(FILTER_MOVING_AVERAGE, 3);

	(void)state;
	assert_int_equal(filter_sample(f, 9), 9);
	assert_int_equal(filter_sample(f, 0), 4);	/* 4.5 truncated */
	assert_int_equal(filter_sample(f, 3), 4);
	assert_int_equal(filter_sample(f, 30), 11);	/* {0,3,30} */
	assert_int_equal(filter_sample(f, -33), 0);	/* {3,30,-33} */
	assert_int_equal(filter_sample(f, -4), -2);	/* -7/3 -> -2 */
	filter_reset(f);
	assert_int_equal(filter_sample(f, INT64_MAX), INT64_MAX);
	assert_int_equal(filter_sample(f, INT64_MAX), INT64_MAX);
	assert_int_equal(filter_sample(f, INT64_MAX), INT64_MAX);
	assert_int_equal(filter_sample(f, INT64_MAX), INT64_MAX);
	filter_destroy(f);
}

static void
test_tsproc(void **state)
{
	int64_t d;
	double w;

	(void)state;
	assert_int_equal(filter_tsproc(FILTER_TSPROC_FILTER, 200, 100, &d, &w),
	    0);
	assert_int_equal(d, 100);
	assert_true(w == 1.0);
	filter_tsproc(FILTER_TSPROC_RAW, 200, 100, &d, &w);
	assert_int_equal(d, 200);
	assert_true(w == 1.0);
	filter_tsproc(FILTER_TSPROC_FILTER_WEIGHT, 200, 100, &d, &w);
	assert_int_equal(d, 100);
	assert_true(w == 0.5);
	filter_tsproc(FILTER_TSPROC_RAW_WEIGHT, 200, 100, &d, &w);
	assert_int_equal(d, 200);
	assert_true(w == 0.5);
	filter_tsproc(FILTER_TSPROC_RAW_WEIGHT, 50, 100, &d, &w);
	assert_true(w == 1.0);		/* capped */
	filter_tsproc(FILTER_TSPROC_RAW_WEIGHT, -50, 100, &d, &w);
	assert_true(w == 1.0);		/* not positive: no weighting */
	assert_int_equal(filter_tsproc(FILTER_TSPROC_FILTER, 1, 2, &d, NULL),
	    0);
	assert_int_equal(filter_tsproc((enum filter_tsproc)9, 1, 2, &d, &w),
	    -1);
}

/* filter_band_mean(): the mean within 3 robust sd of the median, which
 * for a skewed window is not the median; a late sample stays out. */
static void
test_band_mean(void **state)
{
	static const int64_t v[] = { 100, 110, 120, 130, 140, 150, 160, 170,
	    180, 100000 };
	struct filter *f = filter_create(FILTER_MOVING_MEDIAN, 10);
	size_t i;

	(void)state;
	assert_int_equal(filter_band_mean(f, 3.0), 0);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		filter_sample(f, v[i]);
	/* median 145, MAD 25, band 111: 100..180 in, 100000 out */
	assert_int_equal(filter_band_mean(f, 3.0), 140);
	/* band 1.5 x 1.4826 x 25 = 55.6: 100 (45 off) still in */
	assert_int_equal(filter_band_mean(f, 1.5), 140);
	/* band 0.5 x 1.4826 x 25 = 18.5: 130..160 */
	assert_int_equal(filter_band_mean(f, 0.5), 145);
	filter_destroy(f);

	/* one-sided queueing: the median 6 under the mean (MAD 10, band
	 * 44.5: all in) */
	f = filter_create(FILTER_MOVING_MEDIAN, 5);
	filter_sample(f, 1000);
	filter_sample(f, 1000);
	filter_sample(f, 1010);
	filter_sample(f, 1030);
	assert_int_equal(filter_sample(f, 1040), 1010);
	assert_int_equal(filter_band_mean(f, 3.0), 1016);
	filter_destroy(f);

	/* all equal: MAD 0, the value itself */
	f = filter_create(FILTER_MOVING_MEDIAN, 3);
	filter_sample(f, 7);
	filter_sample(f, 7);
	filter_sample(f, 7);
	assert_int_equal(filter_band_mean(f, 3.0), 7);
	filter_destroy(f);

	/* a moving average: its average */
	f = filter_create(FILTER_MOVING_AVERAGE, 4);
	filter_sample(f, 10);
	filter_sample(f, 30);
	assert_int_equal(filter_band_mean(f, 3.0), 20);
	filter_destroy(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_bounds),
		cmocka_unit_test(test_median_warmup),
		cmocka_unit_test(test_median_even),
		cmocka_unit_test(test_median_outliers),
		cmocka_unit_test(test_average),
		cmocka_unit_test(test_tsproc),
		cmocka_unit_test(test_band_mean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
