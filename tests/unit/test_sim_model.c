/*
 * test_sim_model.c - tests/sim/model.c: ptpsim's random numbers, clocks,
 * time-stamp and link models.  The simulator's determinism and its clock
 * arithmetic rest on these.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "tests/sim/model.h"

#define NS_S		1000000000LL
#define T0		1700000000000000000LL	/* a clock value of today's size */
#define HOUR		(3600 * NS_S)

static void
test_rng_repeatable(void **state)
{
	struct sim_rng a, b;
	int i;

	(void)state;
	sim_rng_seed(&a, 42, 7);
	sim_rng_seed(&b, 42, 7);
	for (i = 0; i < 1000; i++)
		assert_true(sim_rng_next(&a) == sim_rng_next(&b));
	for (i = 0; i < 1000; i++)
		assert_true(sim_rng_gauss(&a) == sim_rng_gauss(&b));
	/* xoshiro256** from the state {1, 2, 3, 4}: its published outputs. */
	a.s[0] = 1;
	a.s[1] = 2;
	a.s[2] = 3;
	a.s[3] = 4;
	assert_true(sim_rng_next(&a) == 11520);
	assert_true(sim_rng_next(&a) == 0);
	assert_true(sim_rng_next(&a) == 1509978240);
	assert_true(sim_rng_next(&a) == 1215971899390074240ULL);
}

static void
test_rng_streams_differ(void **state)
{
	struct sim_rng r[4];
	uint64_t v[4][64];
	int i, j, k, same;

	(void)state;
	sim_rng_seed(&r[0], 1, 0);
	sim_rng_seed(&r[1], 1, 1);
	sim_rng_seed(&r[2], 2, 0);
	sim_rng_seed(&r[3], 0, 1);	/* seed and stream swapped */
	for (i = 0; i < 4; i++)
		for (k = 0; k < 64; k++)
			v[i][k] = sim_rng_next(&r[i]);
	for (i = 0; i < 4; i++)
		for (j = i + 1; j < 4; j++) {
			same = 0;
			for (k = 0; k < 64; k++)
				same += v[i][k] == v[j][k];
			assert_int_equal(same, 0);
		}
}

static void
test_rng_distributions(void **state)
{
	struct sim_rng r;
	double u, g, sum = 0, sum2 = 0, usum = 0, umin = 1, umax = 0;
	int i, n = 200000;

	(void)state;
	sim_rng_seed(&r, 3, 3);
	for (i = 0; i < n; i++) {
		u = sim_rng_uniform(&r);
		assert_true(u >= 0.0 && u < 1.0);
		usum += u;
		umin = u < umin ? u : umin;
		umax = u > umax ? u : umax;
		g = sim_rng_gauss(&r);
		sum += g;
		sum2 += g * g;
	}
	assert_true(fabs(usum / n - 0.5) < 0.005);
	assert_true(umin < 0.001 && umax > 0.999);
	/* Mean 0 and sd 1 to within ~5 standard errors. */
	assert_true(fabs(sum / n) < 0.012);
	assert_true(fabs(sqrt(sum2 / n) - 1.0) < 0.008);
}

/* The clock at t with a constant integer ppb: floor of the exact value. */
static int64_t
exact(int64_t off, int64_t t, int64_t ppb)
{
	__int128 x = (__int128)t * ppb;
	__int128 q = x / NS_S;

	if (x % NS_S != 0 && x < 0)
		q--;
	return T0 + off + t + (int64_t)q;
}

/*
 * An hour at +-100 ppm, read every ms, once at the end, and at irregular
 * spacing: every reading is the exact value to the ns.
 */
static void
test_clock_exact_hour(void **state)
{
	static const int64_t ppbs[] = { 100000, -100000, 99999, 500000, 0 };
	struct sim_clock c, once;
	int64_t t, v;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(ppbs) / sizeof(ppbs[0]); i++) {
		sim_clock_init(&c, T0, -1500000000LL, (double)ppbs[i], 0, NULL);
		sim_clock_init(&once, T0, -1500000000LL, (double)ppbs[i], 0,
		    NULL);
		for (t = 0; t <= HOUR; t += 1000000) {
			v = sim_clock_read(&c, T0 + t);
			assert_true(llabs(v - exact(-1500000000LL, t,
			    ppbs[i])) <= 1);
		}
		/* Integer ppb over whole ms: exactly representable. */
		if (ppbs[i] % 1000 == 0)
			assert_true(sim_clock_read(&c, T0 + HOUR) ==
			    exact(-1500000000LL, HOUR, ppbs[i]));
		assert_true(sim_clock_read(&once, T0 + HOUR) ==
		    exact(-1500000000LL, HOUR, ppbs[i]));
	}
	/* Irregular spacing (prime steps), 100 ppm. */
	sim_clock_init(&c, T0, 0, 100000, 0, NULL);
	for (t = 0; t < HOUR; t += 7919 * 1009)
		sim_clock_read(&c, T0 + t);
	assert_true(llabs(sim_clock_read(&c, T0 + HOUR) -
	    exact(0, HOUR, 100000)) <= 1);
	assert_true(sim_clock_read(&c, T0 + HOUR) == T0 + HOUR + 360000000LL);
}

static void
test_clock_adjfreq_step(void **state)
{
	struct sim_clock c;
	int64_t v;

	(void)state;
	/* +100 ppm error, corrected by -100 ppm after 10 s: stands still. */
	sim_clock_init(&c, T0, 5000, 100000, 0, NULL);
	assert_true(sim_clock_read(&c, T0) == T0 + 5000);
	sim_clock_adjfreq(&c, T0 + 10 * NS_S, -100000);
	assert_true(sim_clock_freq(&c) == 0.0);
	v = sim_clock_read(&c, T0 + 10 * NS_S);
	assert_true(v == T0 + 10 * NS_S + 5000 + 1000000);
	assert_true(sim_clock_read(&c, T0 + HOUR) == v + HOUR - 10 * NS_S);
	/* A step moves the reading by exactly the step, both ways. */
	sim_clock_step(&c, T0 + HOUR, -1000005000LL);
	assert_true(sim_clock_read(&c, T0 + HOUR) ==
	    v + HOUR - 10 * NS_S - 1000005000LL);
	sim_clock_step(&c, T0 + HOUR, 7);
	assert_true(sim_clock_read(&c, T0 + HOUR) ==
	    v + HOUR - 10 * NS_S - 1000004993LL);
	/* adjfreq is absolute, not cumulative. */
	sim_clock_adjfreq(&c, T0 + HOUR, -99000);
	sim_clock_adjfreq(&c, T0 + HOUR, -99000);
	assert_true(sim_clock_freq(&c) == 1000.0);
	/* Temperature: the oscillator's error changes, adj stays. */
	sim_clock_freq_step(&c, T0 + HOUR, -1000);
	assert_true(sim_clock_freq(&c) == 0.0);
	v = sim_clock_read(&c, T0 + HOUR);
	assert_true(sim_clock_read(&c, T0 + 2 * HOUR) == v + HOUR);
}

/* A read before the last one extrapolates back and changes nothing. */
static void
test_clock_read_back(void **state)
{
	struct sim_clock c, d;
	int64_t v;

	(void)state;
	sim_clock_init(&c, T0, 0, 100000, 0, NULL);
	sim_clock_init(&d, T0, 0, 100000, 0, NULL);
	sim_clock_read(&c, T0 + 10 * NS_S);
	v = sim_clock_read(&c, T0 + 5 * NS_S);
	assert_true(v == T0 + 5 * NS_S + 500000);
	sim_clock_read(&d, T0 + 10 * NS_S);
	assert_true(sim_clock_read(&c, T0 + 20 * NS_S) ==
	    sim_clock_read(&d, T0 + 20 * NS_S));
}

/*
 * Wander: the frequency's change over T has sd wander * sqrt(T) whatever
 * the spacing of the reads; over 1000 clocks of 100 s at 0.1 ppb/sqrt(s)
 * (sd 1 ppb), read every 1 s or once.
 */
static void
test_clock_wander(void **state)
{
	struct sim_rng r;
	struct sim_clock c;
	double s1 = 0, s2 = 0, p2 = 0, sd, phase;
	int i, k, n = 1000, every;

	(void)state;
	for (every = 0; every < 2; every++) {
		s1 = s2 = p2 = 0;
		sim_rng_seed(&r, 9, (uint64_t)every);
		for (i = 0; i < n; i++) {
			sim_clock_init(&c, T0, 0, 0, 0.1, &r);
			if (every)
				for (k = 1; k < 100; k++)
					sim_clock_read(&c, T0 + k * NS_S);
			phase = (double)(sim_clock_read(&c, T0 + 100 * NS_S) -
			    T0 - 100 * NS_S);
			s1 += sim_clock_freq(&c);
			s2 += sim_clock_freq(&c) * sim_clock_freq(&c);
			p2 += phase * phase;
		}
		sd = sqrt(s2 / n);
		assert_true(fabs(s1 / n) < 0.15);
		assert_true(sd > 0.9 && sd < 1.1);
		/*
		 * Phase of an integrated random walk: variance
		 * wander^2 T^3 / 3 = 0.01 * 1e6 / 3, sd 57.7 ns.
		 */
		sd = sqrt(p2 / n);
		assert_true(sd > 52 && sd < 64);
	}
}

static void
test_ts_hw(void **state)
{
	struct sim_ts_model m;
	struct sim_rng r;
	int64_t clk, v;
	double e, sum = 0, sum2 = 0;
	int i, n = 100000;

	(void)state;
	sim_ts_model_default(&m, SIM_TS_HW);
	assert_int_equal(m.quant_ns, 8);
	sim_rng_seed(&r, 5, 1);
	for (i = 0; i < n; i++) {
		clk = T0 + 12345 + i * 1001;
		v = sim_ts_stamp(&m, &r, clk, i & 1);
		assert_int_equal(v % 8, 0);
		/* Quantized down, after a few ns of jitter. */
		assert_true(v - clk > -8 - 40 && v - clk < 40);
		e = (double)(v - clk);
		sum += e;
		sum2 += e * e;
	}
	/*
	 * floor() to whole ns (-0.5 on average), then to 8 ns (-3.5 over
	 * the integer residues 0..7): mean -4 ns; sd sqrt(16 + 63/12) ~ 4.6.
	 */
	assert_true(fabs(sum / n + 4.0) < 0.1);
	assert_true(sqrt(sum2 / n - (sum / n) * (sum / n)) > 4.3);
	assert_true(sqrt(sum2 / n - (sum / n) * (sum / n)) < 4.9);
	/* Negative clock values quantize down too. */
	m.jitter_ns = m.tx_jitter_ns = 0;
	assert_true(sim_ts_stamp(&m, &r, -9, 0) == -16);
	assert_true(sim_ts_stamp(&m, &r, 17, 1) == 16);
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double sw_draws[100000];

/* The software model against the figures it is calibrated on (model.h). */
static void
test_ts_sw(void **state)
{
	struct sim_ts_model m;
	struct sim_rng r;
	double e, sum = 0, sum2 = 0;
	int i, n = 100000, tail = 0;

	(void)state;
	sim_ts_model_default(&m, SIM_TS_SW);
	sim_rng_seed(&r, 5, 2);
	for (i = 0; i < n; i++) {
		e = sim_ts_error(&m, &r, 1) - sim_ts_error(&m, &r, 0);
		sw_draws[i] = e;
		if (e > 20000)
			tail++;
		assert_true(e > -300 && e < 125000);
	}
	/* 1-3 % late by 25-120 µs: 2 % +- 4 standard errors. */
	assert_true(tail > 1820 && tail < 2180);
	qsort(sw_draws, (size_t)n, sizeof(sw_draws[0]), cmp_d);
	/* t2 - t1 quantiles (gm_offset.sh: 1322/2594/3175 ns), +-150 ns. */
	assert_true(fabs(sw_draws[n / 10] - 1322) < 150);
	assert_true(fabs(sw_draws[n / 2] - 2594) < 150);
	assert_true(fabs(sw_draws[n * 9 / 10] - 3175) < 150);
	/* The transmit side alone: N(0, 50). */
	for (i = 0; i < n; i++) {
		e = sim_ts_error(&m, &r, 0);
		sum += e;
		sum2 += e * e;
	}
	assert_true(fabs(sum / n) < 1);
	assert_true(fabs(sqrt(sum2 / n) - 50) < 1);
	/* quant 1: the stamp is the clock plus the floor of the error. */
	m.tail_p = m.fast_p = 0;
	m.jitter_ns = 0;
	assert_true(sim_ts_stamp(&m, &r, T0, 1) == T0 + 2700);
}

static void
test_link(void **state)
{
	struct sim_link_model l = { 500, 0, 0, 0 };
	struct sim_rng r;
	double sum = 0, sum2 = 0, d;
	int i, n = 100000, lost = 0;

	(void)state;
	sim_rng_seed(&r, 8, 8);
	assert_true(sim_link_delay(&l, &r, 0) == 500);
	assert_true(sim_link_delay(&l, &r, 1) == 500);
	/* Asymmetry: the difference is asym_ns exactly, also when odd. */
	l.asym_ns = 301;
	assert_true(sim_link_delay(&l, &r, 0) - sim_link_delay(&l, &r, 1) ==
	    301);
	assert_true(sim_link_delay(&l, &r, 0) + sim_link_delay(&l, &r, 1) ==
	    1001);
	/* Never negative. */
	l.asym_ns = -5000;
	assert_true(sim_link_delay(&l, &r, 1) == 3000);
	assert_true(sim_link_delay(&l, &r, 0) == 0);
	/* PDV: one-sided, mean and sd pdv_ns. */
	l.asym_ns = 0;
	l.pdv_ns = 100;
	for (i = 0; i < n; i++) {
		d = (double)sim_link_delay(&l, &r, i & 1) - 500;
		assert_true(d >= 0);
		sum += d;
		sum2 += d * d;
	}
	assert_true(fabs(sum / n - 100) < 2);
	assert_true(fabs(sqrt(sum2 / n - (sum / n) * (sum / n)) - 100) < 3);
	/* Loss. */
	assert_false(sim_link_lost(&l, &r));
	l.loss = 0.1;
	for (i = 0; i < n; i++)
		lost += sim_link_lost(&l, &r);
	assert_true(lost > 9000 && lost < 11000);
	l.loss = 1;
	assert_true(sim_link_lost(&l, &r));
}

/*
 * netd's reading of n samples (netd/sysoff.c sysoff_best()): the
 * tightest bracket, the first of equals, its midpoint (integer halving
 * as there); *err is the midpoint minus the latch, *w the bracket.
 */
static void
tightest(const struct sim_sysoff_model *m, struct sim_rng *r, int n,
    double *err, double *w)
{
	int64_t lo, hi, bw = -1, best_mid = 0;
	double b, a;
	int i;

	for (i = 0; i < n; i++) {
		sim_sysoff_sample(m, r, &b, &a);
		lo = (int64_t)floor(b);
		hi = (int64_t)floor(a);
		if (bw < 0 || hi - lo < bw) {
			bw = hi - lo;
			best_mid = lo + bw / 2;
		}
	}
	*err = (double)best_mid;
	*w = (double)bw;
}

/*
 * The compare models (model.h): each method's draws against the figures
 * it is built from, the tightest-of-5 reading netd makes of them, and
 * the same draws for the same stream.
 */
static void
test_sysoff(void **state)
{
	struct sim_sysoff_model m;
	struct sim_rng r, r2;
	enum sim_sysoff_kind k;
	double b, a, b2, a2, w, f, e, sum = 0, sum2 = 0, wsum = 0, fsum = 0;
	double emax = 0;
	int i, n = 100000;

	(void)state;
	/* Names both ways; nothing else is a method. */
	assert_int_equal(sim_sysoff_parse("precise", &k), 0);
	assert_int_equal(k, SIM_SYSOFF_PRECISE);
	assert_int_equal(sim_sysoff_parse("same_base", &k), 0);
	assert_int_equal(k, SIM_SYSOFF_SAME_BASE);
	assert_string_equal(sim_sysoff_name(SIM_SYSOFF_EXTENDED), "extended");
	assert_int_equal(sim_sysoff_parse("basic", &k), 0);
	assert_int_equal(k, SIM_SYSOFF_BASIC);
	assert_int_equal(sim_sysoff_parse("ptm", &k), -1);
	assert_int_equal(sim_sysoff_parse("", &k), -1);
	/* netd.proto's SysoffMethod values, as netd_sim.c passes them. */
	assert_int_equal(SIM_SYSOFF_PRECISE, 1);
	assert_int_equal(SIM_SYSOFF_SAME_BASE, 4);

	/* PRECISE: one read, N(0, 4 ns); the PHC's 8 ns tick. */
	sim_sysoff_model_default(&m, SIM_SYSOFF_PRECISE);
	assert_int_equal(m.quant_ns, 8);
	sim_rng_seed(&r, 9, 1);
	for (i = 0; i < n; i++) {
		sim_sysoff_sample(&m, &r, &b, &a);
		assert_true(b == a);
		sum += b;
		sum2 += b * b;
	}
	assert_true(fabs(sum / n) < 0.1);
	assert_true(fabs(sqrt(sum2 / n) - 4) < 0.1);

	/* EXTENDED: 1000 + Exp(300) ns, latched in [0.3, 0.7] of it. */
	sim_sysoff_model_default(&m, SIM_SYSOFF_EXTENDED);
	sim_rng_seed(&r, 9, 2);
	sum = 0;
	for (i = 0; i < n; i++) {
		sim_sysoff_sample(&m, &r, &b, &a);
		w = a - b;
		f = -b / w;
		assert_true(b < 0 && a > 0 && w >= 1000);
		assert_true(f >= 0.3 && f <= 0.7);
		e = (a + b) / 2;	/* the midpoint's error */
		assert_true(fabs(e) <= 0.2 * w + 1e-6);
		wsum += w;
		fsum += f;
		sum += e;
	}
	assert_true(fabs(wsum / n - 1300) < 5);
	assert_true(fabs(fsum / n - 0.5) < 0.003);
	assert_true(fabs(sum / n) < 2);
	/* netd's tightest of system_clock_samples 5: Exp(300)'s minimum of
	 * 5 is Exp(60); the error stays within 20 % of it, unbiased, sd
	 * 0.4 / sqrt(12) of ~1060 ns ~ 122 ns. */
	wsum = sum = sum2 = 0;
	for (i = 0; i < n / 5; i++) {
		tightest(&m, &r, 5, &e, &w);
		/* + 2: the whole-ns floors of both reads and of w / 2 */
		assert_true(fabs(e) <= 0.2 * w + 2);
		wsum += w;
		sum += e;
		sum2 += e * e;
	}
	assert_true(fabs(wsum / (n / 5) - 1060) < 5);
	assert_true(fabs(sum / (n / 5)) < 3);
	assert_true(fabs(sqrt(sum2 / (n / 5)) - 122) < 5);

	/* BASIC: 2500 + Exp(1500) ns, latched early ([0.15, 0.45]): the
	 * midpoint is always late, by 20 % of the bracket on average. */
	sim_sysoff_model_default(&m, SIM_SYSOFF_BASIC);
	sim_rng_seed(&r, 9, 3);
	wsum = sum = 0;
	for (i = 0; i < n; i++) {
		sim_sysoff_sample(&m, &r, &b, &a);
		w = a - b;
		e = (a + b) / 2;
		assert_true(w >= 2500);
		assert_true(e >= 0.05 * w - 1e-6 && e <= 0.35 * w + 1e-6);
		if (e > emax)
			emax = e;
		wsum += w;
		sum += e;
	}
	assert_true(fabs(wsum / n - 4000) < 20);
	assert_true(fabs(sum / n - 0.2 * wsum / n) < 5);
	assert_true(emax > 2000);	/* a long bracket: microseconds */

	/* SAME_BASE: exact. */
	sim_sysoff_model_default(&m, SIM_SYSOFF_SAME_BASE);
	sim_sysoff_sample(&m, &r, &b, &a);
	assert_true(b == 0 && a == 0);

	/* The same stream, the same draws. */
	sim_sysoff_model_default(&m, SIM_SYSOFF_EXTENDED);
	sim_rng_seed(&r, 77, 0x505);
	sim_rng_seed(&r2, 77, 0x505);
	for (i = 0; i < 1000; i++) {
		sim_sysoff_sample(&m, &r, &b, &a);
		sim_sysoff_sample(&m, &r2, &b2, &a2);
		assert_true(b == b2 && a == a2);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng_repeatable),
		cmocka_unit_test(test_rng_streams_differ),
		cmocka_unit_test(test_rng_distributions),
		cmocka_unit_test(test_clock_exact_hour),
		cmocka_unit_test(test_clock_adjfreq_step),
		cmocka_unit_test(test_clock_read_back),
		cmocka_unit_test(test_clock_wander),
		cmocka_unit_test(test_ts_hw),
		cmocka_unit_test(test_ts_sw),
		cmocka_unit_test(test_link),
		cmocka_unit_test(test_sysoff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
