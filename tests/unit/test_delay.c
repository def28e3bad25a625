/*
 * test_delay.c - E2E and P2P delay and offset arithmetic with hand-computed
 * answers: corrections that are negative and fractional, delayAsymmetry,
 * rate ratios, seconds rollover, 48-bit seconds, malformed time stamps.
 * Scaled ns (2^-16 ns) are written as S(ns) + fraction * 65536.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "clockd/delay.h"
#include "ptp_time.h"

#define S(ns)		((int64_t)(ns) * 65536)	/* whole ns to scaled */
#define TS(s, n)	((struct ptp_timestamp){ (s), (n) })
#define MAX48		PTP_MAX_SEC

/* Two-step E2E, no corrections: delay 50 us, slave 500 ns ahead. */
static void
test_e2e_plain(void **state)
{
	struct delay_sync sy = { TS(1000, 0), TS(1000, 50500), 0, 0 };
	struct delay_req rq = { TS(1000, 500000000), TS(1000, 500049500), 0 };
	struct delay_stats st = { 0, 0 };
	int64_t mpd, off, offs;

	(void)state;
	assert_int_equal(delay_e2e(&sy, &rq, 0, 1.0, &mpd, &st), 0);
	assert_int_equal(mpd, S(50000));
	assert_int_equal(delay_offset(&sy, 0, mpd, &off, &offs), 0);
	assert_int_equal(off, 500);
	assert_int_equal(offs, S(500));
	assert_int_equal(st.negative + st.invalid, 0);
	/* rate_ratio 0.0 means "none" too */
	assert_int_equal(delay_e2e(&sy, &rq, 0, 0.0, &mpd, NULL), 0);
	assert_int_equal(mpd, S(50000));
}

/*
 * correctionFields Sync +1000.5 ns, Follow_Up -200.25 ns, Delay_Resp
 * +300.75 ns.  t2 - t1 = 50100, t4 - t3 = 51001:
 *   mpd = (50100 + 51001 - 800.25 - 300.75) / 2 = 50000
 *   offset = 50100 - 800.25 - 50000 = -700.25 -> -700 ns
 */
static void
test_e2e_corrections(void **state)
{
	struct delay_sync sy = { TS(2000, 0), TS(2000, 50100),
	    S(1000) + 32768, -(S(200) + 16384) };
	struct delay_req rq = { TS(2000, 200000000), TS(2000, 200051001),
	    S(300) + 49152 };
	int64_t mpd, off, offs;

	(void)state;
	assert_int_equal(delay_e2e(&sy, &rq, 0, 1.0, &mpd, NULL), 0);
	assert_int_equal(mpd, S(50000));
	assert_int_equal(delay_offset(&sy, 0, mpd, &off, &offs), 0);
	assert_int_equal(off, -700);
	assert_int_equal(offs, -(S(700) + 16384));

	/* One ns more on t4: mpd 50000.5, offset -700.75 -> -701. */
	rq.t4.nsec++;
	assert_int_equal(delay_e2e(&sy, &rq, 0, 1.0, &mpd, NULL), 0);
	assert_int_equal(mpd, S(50000) + 32768);
	assert_int_equal(delay_offset(&sy, 0, mpd, &off, &offs), 0);
	assert_int_equal(off, -701);
	assert_int_equal(offs, -(S(700) + 49152));
}

/*
 * 11.6: master-to-slave 51000 ns, slave-to-master 49000 ns: delayAsymmetry
 * +1000 ns, mean 50000, slave 300 ns ahead.  The Delay_Req carried -1000 ns
 * (delay_req_correction()), the Delay_Resp returns it.
 */
static void
test_e2e_asymmetry(void **state)
{
	int64_t asym = S(1000);
	struct delay_sync sy = { TS(10, 0), TS(10, 51300), 0, 0 };
	struct delay_req rq = { TS(10, 400000000), TS(10, 400048700),
	    delay_req_correction(asym) };
	int64_t mpd, off;

	(void)state;
	assert_int_equal(delay_req_correction(asym), -S(1000));
	assert_int_equal(delay_e2e(&sy, &rq, asym, 1.0, &mpd, NULL), 0);
	assert_int_equal(mpd, S(50000));
	assert_int_equal(delay_offset(&sy, asym, mpd, &off, NULL), 0);
	assert_int_equal(off, 300);
	/* Without the asymmetry known, the path looks symmetric. */
	rq.corr_delay_resp = 0;
	assert_int_equal(delay_e2e(&sy, &rq, 0, 1.0, &mpd, NULL), 0);
	assert_int_equal(mpd, S(50000));
	assert_int_equal(delay_offset(&sy, 0, mpd, &off, NULL), 0);
	assert_int_equal(off, 1300);
}

/* t1 and t2, t3 and t4 on either side of a second boundary. */
static void
test_e2e_rollover(void **state)
{
	struct delay_sync sy = { TS(99, 999999990), TS(100, 10), 0, 0 };
	struct delay_req rq = { TS(100, 999999995), TS(101, 5), 0 };
	int64_t mpd, off;

	(void)state;
	/* ((-999999985) + 1000000015) / 2 = 15; offset 20 - 15 */
	assert_int_equal(delay_e2e(&sy, &rq, 0, 1.0, &mpd, NULL), 0);
	assert_int_equal(mpd, S(15));
	assert_int_equal(delay_offset(&sy, 0, mpd, &off, NULL), 0);
	assert_int_equal(off, 5);
}

/* 48-bit seconds: exact, and what no longer fits is -ERANGE. */
static void
test_e2e_big_seconds(void **state)
{
	struct delay_sync sy = { TS(MAX48 - 1, 999999999), TS(MAX48, 49), 0,
	    0 };
	struct delay_req rq = { TS(MAX48, 1000), TS(MAX48, 1040), 0 };
	struct ptp_timestamp a = TS(MAX48, 7), b = TS(MAX48 - 1, 999999999);
	int64_t mpd, off, offs, ns;

	(void)state;
	assert_int_equal(delay_e2e(&sy, &rq, 0, 1.0, &mpd, NULL), 0);
	assert_int_equal(mpd, S(45));
	assert_int_equal(delay_offset(&sy, 0, mpd, &off, NULL), 0);
	assert_int_equal(off, 5);

	assert_int_equal(ptp_time_sub(&a, &b, &ns), 0);
	assert_int_equal(ns, 8);
	assert_int_equal(ptp_time_to_ns(&a, &ns), -ERANGE);
	a = TS(9223372036, 854775807);		/* INT64_MAX ns */
	assert_int_equal(ptp_time_to_ns(&a, &ns), 0);
	assert_int_equal(ns, INT64_MAX);
	a.nsec++;
	assert_int_equal(ptp_time_to_ns(&a, &ns), -ERANGE);

	/* Slave at 1e9 s, master at 2 s: offset fits ns, not TimeInterval */
	sy = (struct delay_sync){ TS(2, 0), TS(1000000000, 0), 0, 0 };
	assert_int_equal(delay_offset(&sy, 0, 0, &off, &offs), 0);
	assert_int_equal(off, INT64_C(999999998000000000));
	assert_int_equal(offs, INT64_MAX);
	sy.t1 = sy.t2;
	sy.t2 = TS(2, 0);
	assert_int_equal(delay_offset(&sy, 0, 0, &off, &offs), 0);
	assert_int_equal(offs, -INT64_MAX);
	/* Slave at 0 s, master at 2^48 - 1 s: not even ns fit. */
	sy = (struct delay_sync){ TS(MAX48, 0), TS(0, 0), 0, 0 };
	assert_int_equal(delay_offset(&sy, 0, 0, &off, NULL), -ERANGE);
	/* Path delay beyond a TimeInterval. */
	rq = (struct delay_req){ TS(0, 0), TS(MAX48, 0), 0 };
	sy = (struct delay_sync){ TS(0, 0), TS(0, 0), 0, 0 };
	assert_int_equal(delay_e2e(&sy, &rq, 0, 1.0, &mpd, NULL), -ERANGE);
}

static void
test_e2e_negative_invalid(void **state)
{
	struct delay_sync sy = { TS(5, 0), TS(5, 10), 0, 0 };
	struct delay_req rq = { TS(5, 1000), TS(5, 970), 0 };
	struct delay_stats st = { 0, 0 };
	int64_t mpd = 0;

	(void)state;
	/* (10 - 30) / 2: computed, reported and counted */
	assert_int_equal(delay_e2e(&sy, &rq, 0, 1.0, &mpd, &st),
	    DELAY_NEGATIVE);
	assert_int_equal(mpd, -S(10));
	assert_int_equal(st.negative, 1);

	rq.t4.nsec = 1000000000;
	assert_int_equal(delay_e2e(&sy, &rq, 0, 1.0, &mpd, &st), -EINVAL);
	rq.t4 = TS(MAX48 + 1, 0);
	assert_int_equal(delay_e2e(&sy, &rq, 0, 1.0, &mpd, &st), -EINVAL);
	rq.t4 = TS(5, 970);
	assert_int_equal(delay_e2e(&sy, &rq, 0, -1.0, &mpd, &st), -EINVAL);
	assert_int_equal(st.invalid, 3);
	assert_int_equal(st.negative, 1);
	sy.t2.nsec = 1000000000;
	assert_int_equal(delay_offset(&sy, 0, 0, &mpd, NULL), -EINVAL);
}

/* The slave clock is 100 ppm slow: (t2 - t3) scaled by 1.0001. */
static void
test_e2e_rate_ratio(void **state)
{
	struct delay_sync sy = { TS(10, 0), TS(10, 50000), 0, 0 };
	struct delay_req rq = { TS(11, 50000), TS(11, 200000), 0 };
	int64_t mpd;

	(void)state;
	/* (-1000000000 * 1.0001 + 1000200000) / 2 */
	assert_int_equal(delay_e2e(&sy, &rq, 0, 1.0001, &mpd, NULL), 0);
	assert_int_equal(mpd, S(50000));
	assert_int_equal(delay_e2e(&sy, &rq, 0, 1.0, &mpd, NULL), 0);
	assert_int_equal(mpd, S(100000));
}

/*
 * P2P two-step: round trip 110000 ns, turnaround 10000 ns, Follow_Up
 * correction 20.5 ns: (110000 - 10000 - 20.5) / 2 = 49989.75.
 * The responder's clock is 100 s off ours: only differences count.
 */
static void
test_p2p_two_step(void **state)
{
	struct delay_pdelay pd = { TS(500, 0), TS(600, 0), TS(600, 10000),
	    TS(500, 110000), 0, S(20) + 32768 };
	struct delay_stats st = { 0, 0 };
	int64_t mld;

	(void)state;
	assert_int_equal(delay_p2p(&pd, 0, 1.0, &mld, &st), 0);
	assert_int_equal(mld, S(49989) + 49152);
	/* A negative Pdelay_Resp correction (-0.25 ns) adds back. */
	pd.corr_resp = -16384;
	assert_int_equal(delay_p2p(&pd, 0, 1.0, &mld, &st), 0);
	assert_int_equal(mld, S(49989) + 57344);
	/* Rollover of t2/t3 across a second. */
	pd.t2 = TS(599, 999995000);
	pd.t3 = TS(600, 5000);
	pd.corr_resp = 0;
	pd.corr_resp_fup = 0;
	assert_int_equal(delay_p2p(&pd, 0, 1.0, &mld, &st), 0);
	assert_int_equal(mld, S(50000));
	/* Turnaround longer than the round trip */
	pd.t3 = TS(600, 200000);
	assert_int_equal(delay_p2p(&pd, 0, 1.0, &mld, &st), DELAY_NEGATIVE);
	assert_int_equal(st.negative, 1);
	pd.t1.nsec = 1000000000;
	assert_int_equal(delay_p2p(&pd, 0, 1.0, &mld, &st), -EINVAL);
	assert_int_equal(st.invalid, 1);
}

/* One-step responder: the turnaround (10000.25 ns) is in the Pdelay_Resp
 * correctionField, the time stamps are zero.  Same for a two-step one that
 * puts it into the Pdelay_Resp_Follow_Up (11.4.3). */
static void
test_p2p_one_step(void **state)
{
	struct delay_pdelay pd = { TS(500, 0), TS(0, 0), TS(0, 0),
	    TS(500, 110000), S(10000) + 16384, 0 };
	int64_t mld;

	(void)state;
	/* (110000 - 10000.25) / 2 = 49999.875 */
	assert_int_equal(delay_p2p(&pd, 0, 1.0, &mld, NULL), 0);
	assert_int_equal(mld, S(49999) + 57344);
	pd.corr_resp_fup = pd.corr_resp;
	pd.corr_resp = 0;
	assert_int_equal(delay_p2p(&pd, 0, 1.0, &mld, NULL), 0);
	assert_int_equal(mld, S(49999) + 57344);
}

/* Link 49000 ns requester->responder, 51000 back: asymmetry +1000 ns,
 * the Pdelay_Req's -1000 comes back in the Follow_Up. */
static void
test_p2p_asymmetry_rate(void **state)
{
	int64_t asym = S(1000), mld, off;
	struct delay_pdelay pd = { TS(7, 0), TS(8, 0), TS(8, 10000),
	    TS(7, 110000), 0, delay_req_correction(S(1000)) };
	/* Sync over this link: correction 200 ns from an upstream TC;
	 * t2 - t1 = 51000 (link) + 200 + 40 (our offset). */
	struct delay_sync sy = { TS(20, 0), TS(20, 51240), S(200), 0 };

	(void)state;
	assert_int_equal(delay_p2p(&pd, asym, 1.0, &mld, NULL), 0);
	assert_int_equal(mld, S(50000));
	assert_int_equal(delay_offset(&sy, asym, mld, &off, NULL), 0);
	assert_int_equal(off, 40);
	/* neighborRateRatio 0.9999: round trip 110011 ns of ours is
	 * 110000 of the responder's. */
	pd.t4 = TS(7, 110011);
	pd.corr_resp_fup = 0;
	assert_int_equal(delay_p2p(&pd, 0, 110000.0 / 110011.0, &mld, NULL),
	    0);
	assert_int_equal(mld, S(50000));
}

/* Master/local ratio from two Syncs, corrections included. */
static void
test_sync_rate_ratio(void **state)
{
	struct delay_sync a = { TS(10, 0), TS(20, 0), S(7), 0 };
	struct delay_sync b = { TS(11, 0), TS(21, 80000), S(7), 0 };
	double rr = 0.0;

	(void)state;
	assert_int_equal(delay_sync_rate_ratio(&a, &b, &rr), 0);
	assert_float_equal(rr, 1e9 / 1000080000.0, 1e-15);
	/* Follow_Up corrections count like the Sync's: +100 ns. */
	b.corr_follow_up = S(100);
	assert_int_equal(delay_sync_rate_ratio(&a, &b, &rr), 0);
	assert_float_equal(rr, 1000000100.0 / 1000080000.0, 1e-15);
	/* Out of order, beyond 1 %, malformed. */
	assert_int_equal(delay_sync_rate_ratio(&b, &a, &rr), -EINVAL);
	b.t2 = TS(21, 20000000);
	assert_int_equal(delay_sync_rate_ratio(&a, &b, &rr), -ERANGE);
	b.t2.nsec = 1000000000;
	assert_int_equal(delay_sync_rate_ratio(&a, &b, &rr), -EINVAL);
}

static void
test_conversions(void **state)
{
	struct ptp_timestamp t = TS(1, 5);
	int64_t ns;

	(void)state;
	assert_int_equal(delay_scaled_to_ns(S(3) + 32768), 4);
	assert_int_equal(delay_scaled_to_ns(-(S(3) + 32768)), -4);
	assert_int_equal(delay_scaled_to_ns(S(3) + 32767), 3);
	assert_int_equal(delay_scaled_to_ns(-(S(3) + 32767)), -3);
	assert_int_equal(delay_scaled_to_ns(-1), 0);
	assert_int_equal(delay_scaled_to_ns(INT64_MAX), INT64_C(1) << 47);
	assert_int_equal(delay_scaled_to_ns(INT64_MIN), -(INT64_C(1) << 47));
	assert_int_equal(delay_ns_to_scaled(-5), -S(5));
	assert_int_equal(delay_ns_to_scaled(INT64_C(1) << 47), INT64_MAX);
	assert_int_equal(delay_ns_to_scaled(-(INT64_C(1) << 47)), -INT64_MAX);
	assert_int_equal(ptp_time_to_ns(&t, &ns), 0);
	assert_int_equal(ns, 1000000005);
	assert_int_equal(delay_req_correction(INT64_MIN), INT64_MAX);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_e2e_plain),
		cmocka_unit_test(test_e2e_corrections),
		cmocka_unit_test(test_e2e_asymmetry),
		cmocka_unit_test(test_e2e_rollover),
		cmocka_unit_test(test_e2e_big_seconds),
		cmocka_unit_test(test_e2e_negative_invalid),
		cmocka_unit_test(test_e2e_rate_ratio),
		cmocka_unit_test(test_p2p_two_step),
		cmocka_unit_test(test_p2p_one_step),
		cmocka_unit_test(test_p2p_asymmetry_rate),
		cmocka_unit_test(test_sync_rate_ratio),
		cmocka_unit_test(test_conversions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
