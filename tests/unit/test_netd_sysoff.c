/*
 * test_netd_sysoff.c - the PHC <-> CLOCK_REALTIME offset (netd/sysoff.c)
 * through the fake driver seam: the tightest of n brackets and its
 * midpoint, the PRECISE -> EXTENDED -> BASIC fallback, each method's
 * layout, and malformed answers.  The PHC keeps TAI, 37 s ahead of the
 * system clock's UTC, as a PHC steered by a PTP grandmaster does.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "netd/sysoff.h"
#include "drv_fake.h"

#define NS	1000000000LL
#define T0	1764720000LL		/* 2025-12-03T00:00:00Z, UTC */
#define TAI	37LL			/* TAI - UTC since 2017 */

static int
teardown(void **state)
{
	(void)state;
	drv_fake_remove();
	return 0;
}

static struct ptp_clock_time
pct(int64_t ns)
{
	struct ptp_clock_time t;

	memset(&t, 0, sizeof(t));
	t.sec = ns / NS;
	t.nsec = (unsigned)(ns % NS);
	return t;
}

static void
test_best(void **state)
{
	struct sysoff_sample s[SYSOFF_MAX_SAMPLES];
	struct sysoff_result r;
	int i;

	(void)state;
	/* One sample: its bracket, its midpoint. */
	s[0].sys_before = T0 * NS + 1000;
	s[0].phc = (T0 + TAI) * NS + 1600;
	s[0].sys_after = T0 * NS + 2000;
	assert_int_equal(sysoff_best(s, 1, &r), 0);
	assert_true(r.delay == 1000);
	assert_true(r.phc_ns == (T0 + TAI) * NS + 1600);
	assert_true(r.sys_minus_phc == -TAI * NS - 100);	/* 1500 - 1600 */

	/* 25 samples, widths 3000 - 50 i ns except one of 180 ns at 17. */
	for (i = 0; i < SYSOFF_MAX_SAMPLES; i++) {
		s[i].sys_before = T0 * NS + 10000 * i;
		s[i].sys_after = s[i].sys_before + 3000 - 50 * i;
		s[i].phc = s[i].sys_before + TAI * NS + 700;
	}
	s[17].sys_after = s[17].sys_before + 180;
	s[17].phc = s[17].sys_before + TAI * NS + 95;
	assert_int_equal(sysoff_best(s, SYSOFF_MAX_SAMPLES, &r), 0);
	assert_true(r.delay == 180);
	assert_true(r.sys_minus_phc == -TAI * NS - 5);	/* 90 - 95 */
	/* Equal widths: the first. */
	s[3].sys_after = s[3].sys_before + 180;
	assert_int_equal(sysoff_best(s, SYSOFF_MAX_SAMPLES, &r), 0);
	assert_true(r.phc_ns == s[3].phc);

	/* A bracket running backwards (a step in between) is skipped. */
	s[3].sys_after = s[3].sys_before - 1;
	s[17].sys_after = s[17].sys_before - 1;
	assert_int_equal(sysoff_best(s, SYSOFF_MAX_SAMPLES, &r), 0);
	assert_true(r.delay == 3000 - 50 * 24);
	assert_int_equal(sysoff_best(&s[3], 1, &r), -EINVAL);
	/* n out of range. */
	assert_int_equal(sysoff_best(s, 0, &r), -EINVAL);
	assert_int_equal(sysoff_best(s, SYSOFF_MAX_SAMPLES + 1, &r), -EINVAL);
}

/* An EXTENDED answer: n brackets of width w + 100 i, PHC at 1/3. */
static void
fill_extended(struct drv_fake_phc *phc, int n, int64_t w)
{
	int i;

	for (i = 0; i < n; i++) {
		int64_t b = T0 * NS + 50000 * i, a = b + w + 100 * (n - 1 - i);

		phc->extended.ts[i][0] = pct(b);
		phc->extended.ts[i][1] = pct(b + TAI * NS + (a - b) / 3);
		phc->extended.ts[i][2] = pct(a);
	}
}

static void
test_probe_order(void **state)
{
	struct drv_fake_phc phc;
	struct sysoff_result r;
	enum sysoff_method m;
	int64_t b;
	int i;

	(void)state;
	memset(&phc, 0, sizeof(phc));
	drv_fake_install(NULL, 0, &phc);

	/* PRECISE answers: one instant, no bracket. */
	phc.precise.device = pct((T0 + TAI) * NS + 250);
	phc.precise.sys_realtime = pct(T0 * NS + 240);
	assert_int_equal(sysoff_probe(-1, 5, &m, &r), 0);
	assert_int_equal(m, SYSOFF_PRECISE);
	assert_true(r.sys_minus_phc == -TAI * NS - 10);
	assert_true(r.delay == 0);
	assert_int_equal(phc.sysoff_calls, 1);
	assert_string_equal(sysoff_method_name(m), "PTP_SYS_OFFSET_PRECISE");

	/* No PRECISE (no PTM/ART): EXTENDED, the last bracket tightest. */
	phc.precise_err = -EOPNOTSUPP;
	fill_extended(&phc, 5, 1500);
	phc.sysoff_calls = 0;
	assert_int_equal(sysoff_probe(-1, 5, &m, &r), 0);
	assert_int_equal(m, SYSOFF_EXTENDED);
	assert_int_equal(phc.sysoff_calls, 2);
	assert_true(r.delay == 1500);
	assert_true(r.sys_minus_phc == -TAI * NS + 750 - 500);

	/* Neither: the basic ioctl, sys/phc interleaved, 2n + 1 stamps. */
	phc.extended_err = -EOPNOTSUPP;
	b = T0 * NS;
	for (i = 0; i < 2 * 5 + 1; i++)
		phc.basic.ts[i] = pct(i % 2 ? b + 1000 * i + TAI * NS + 400 :
		    b + 1000 * i - (i == 6 ? 600 : 0));
	/* Sample 2 (stamps 4, 5, 6): 2000 - 600 = 1400 ns, the tightest. */
	phc.sysoff_calls = 0;
	assert_int_equal(sysoff_probe(-1, 5, &m, &r), 0);
	assert_int_equal(m, SYSOFF_BASIC);
	assert_int_equal(phc.sysoff_calls, 3);
	assert_true(r.delay == 1400);
	assert_true(r.phc_ns == b + 5000 + TAI * NS + 400);
	/* midpoint 4000 + 700 - (5000 + 400) */
	assert_true(r.sys_minus_phc == -TAI * NS - 700);

	/* None at all: the last error, method none. */
	phc.basic_err = -EOPNOTSUPP;
	assert_int_equal(sysoff_probe(-1, 5, &m, &r), -EOPNOTSUPP);
	assert_int_equal(m, SYSOFF_NONE);
	assert_int_equal(sysoff_probe(-1, 0, &m, &r), -EINVAL);
	assert_int_equal(sysoff_probe(-1, 26, &m, &r), -EINVAL);
}

static void
test_samples_1_and_25(void **state)
{
	struct drv_fake_phc phc;
	struct sysoff_result r;

	(void)state;
	memset(&phc, 0, sizeof(phc));
	drv_fake_install(NULL, 0, &phc);
	fill_extended(&phc, SYSOFF_MAX_SAMPLES, 800);
	assert_int_equal(sysoff_measure(-1, SYSOFF_EXTENDED,
	    SYSOFF_MAX_SAMPLES, &r), 0);
	assert_true(r.delay == 800);
	/* n = 1: only the first bracket counts, however wide. */
	assert_int_equal(sysoff_measure(-1, SYSOFF_EXTENDED, 1, &r), 0);
	assert_true(r.delay == 800 + 100 * (SYSOFF_MAX_SAMPLES - 1));
	assert_int_equal(sysoff_measure(-1, SYSOFF_NONE, 1, &r), -EINVAL);
}

static void
test_malformed_answers(void **state)
{
	struct drv_fake_phc phc;
	struct sysoff_result r;

	(void)state;
	memset(&phc, 0, sizeof(phc));
	drv_fake_install(NULL, 0, &phc);
	phc.precise.device = pct((T0 + TAI) * NS);
	phc.precise.sys_realtime = pct(T0 * NS);
	phc.precise.device.nsec = 1000000000u;		/* not < 1e9 */
	assert_int_equal(sysoff_measure(-1, SYSOFF_PRECISE, 1, &r), -EINVAL);
	phc.precise.device.nsec = 0;
	phc.precise.device.sec = -1;			/* before 1970 */
	assert_int_equal(sysoff_measure(-1, SYSOFF_PRECISE, 1, &r), -EINVAL);
	phc.precise.device.sec = INT64_MAX / NS;	/* would overflow */
	assert_int_equal(sysoff_measure(-1, SYSOFF_PRECISE, 1, &r), -EINVAL);
	/* One bad stamp spoils an EXTENDED answer. */
	fill_extended(&phc, 3, 1000);
	phc.extended.ts[2][2].nsec = 2000000000u;
	assert_int_equal(sysoff_measure(-1, SYSOFF_EXTENDED, 3, &r), -EINVAL);
	/* Every bracket backwards. */
	fill_extended(&phc, 1, 1000);
	phc.extended.ts[0][2] = pct(T0 * NS - 1);
	assert_int_equal(sysoff_measure(-1, SYSOFF_EXTENDED, 1, &r), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_best),
		cmocka_unit_test_teardown(test_probe_order, teardown),
		cmocka_unit_test_teardown(test_samples_1_and_25, teardown),
		cmocka_unit_test_teardown(test_malformed_answers, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
