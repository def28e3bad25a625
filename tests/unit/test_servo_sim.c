/*
 * test_servo_sim.c - the servos side by side on a simulated slave, with a
 * hardware and a software time-stamp model, and the issue 12 goals for
 * the default servo ("kalman") asserted exactly (deterministic: seeded
 * PRNG, no wall clock).
 *
 * The slave: E2E at logSyncInterval 0 through ptp4l's arithmetic
 * (delay.c, a moving median of 10 path delays, filter.c), its clock
 * 1.5 s and +80 ppm off at the start, with random-walk frequency noise.
 *   hw: every time stamp has Gaussian jitter (4 ns) and is cut to 8 ns;
 *   sw: Gaussian jitter of 300 ns, and 2 % of the slave's receive time
 *       stamps late by an exponential amount (mean 15 us): the late Syncs
 *       of a busy host (tests/bench/results: ~1 in 70 Syncs on veth).
 * pi and linreg get their offsets through clock_servo.c's spike filter,
 * as in the engine; kalman gates them itself.
 * Figures (the simulator knows the true offset):
 *   lock   first time from which |true offset| < 1 us to the end;
 *   rms    true offset over the last 200 s; max likewise;
 *   noise  the per-sample measurement noise: measured minus true offset,
 *          RMS of its core (1.4826 * median absolute value, which leaves
 *          the late Syncs out);
 *   bound  the same run with the Kalman servo told the true noise
 *          (kalman_r: the measured noise variance, kalman_q: the model's
 *          wander): the best this filter and control law can do.
 * Run with the test's output (make check prints it in the log) to get the
 * table of tests/bench/results/servo.md.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "clockd/delay.h"
#include "clockd/filter.h"
#include "clockd/servo.h"
#include "tests/sim/model.h"

#define NS		1000000000LL
#define T0		(INT64_C(1700000000) * NS)
#define NMAX		4096

struct rng {
	uint64_t s;
};

static double
rng_uniform(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return ((r->s * UINT64_C(2685821657736338717)) >> 11) * 0x1p-53;
}

static double
rng_gauss(struct rng *r, double sigma)
{
	double u1 = rng_uniform(r), u2 = rng_uniform(r);

	if (u1 < 1e-300)
		u1 = 1e-300;
	return sigma * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* M_PTPSIM: ptpsim's software model (tests/sim/model.h), calibrated on
 * veth: a bimodal receive latency and 2 % of frames 25-120 us late. */
enum model { M_HW, M_SW, M_PTPSIM };
static struct sim_rng simrng;
static struct sim_ts_model simts;

struct sim {
	enum servo_type type;
	enum model model;
	double duration;	/* s */
	double fstep_at;	/* s, 0: none: +1 ppm of the slave's own */
	double gm_at;		/* s, 0: none: new master, 2 us later */
	double kalman_r, kalman_q;	/* the reference filter */
	uint64_t seed;
};

struct res {
	double lock;		/* s, -1: never */
	int jumps, jumps_after_lock, unlocked_after_lock;
	double rms, max;	/* true offset, last 200 s */
	double noise, noise_rms;	/* measurement noise: core, all */
	double event_max;	/* max |true offset| after the event */
	double relock;		/* s after the event to |offset| < 1 us */
	double est_r, est_q;	/* the Kalman servo's estimates at the end */
};

/* The model's oscillator: random-walk frequency, ppb^2/s. */
#define WANDER_Q	0.05

static struct ptp_timestamp
ts_of(int64_t ns)
{
	struct ptp_timestamp t = { (uint64_t)(ns / NS), (uint32_t)(ns % NS) };

	return t;
}

static const char *
model_name(enum model m)
{
	return m == M_HW ? "hw" : m == M_SW ? "sw" : "sw-ptpsim";
}

/* A time stamp of true time T on a clock x ns ahead (the master: x 0). */
static int64_t
stamp(struct rng *rng, enum model m, int64_t T, long double x, int late_ok)
{
	int64_t L;
	double v;

	if (m == M_PTPSIM) {
		/* late_ok: a receive stamp; the master's too (t4) */
		return T + (int64_t)floorl(x + sim_ts_error(&simts, &simrng,
		    late_ok));
	}
	if (m == M_HW) {
		L = T + (int64_t)floorl(x + rng_gauss(rng, 4.0));
		return L - ((L % 8) + 8) % 8;	/* 8 ns quantization */
	}
	v = rng_gauss(rng, 300.0);
	/* draw either way, so that every servo sees the same noise */
	if (rng_uniform(rng) < 0.02 && late_ok)
		v += -15000.0 * log(1.0 - rng_uniform(rng));
	else
		(void)rng_uniform(rng);
	return T + (int64_t)llroundl(x) + (int64_t)llround(v);
}

/*
 * clock_servo.c's spike filter, which the engine puts in front of every
 * servo: while locked, an offset beyond 6 times the mean |offset| and
 * beyond 2 us is dropped, up to 3 in a row.
 */
struct spike {
	double jitter;
	int run;
};

static int
spike(struct spike *sp, int locked, int64_t offset)
{
	double a = fabs((double)offset);

	if (!locked) {
		sp->jitter = 1000.0;
		sp->run = 0;
		return 0;
	}
	if (sp->run < 3 && a > 6.0 * sp->jitter && a > 2000.0) {
		sp->run++;
		return 1;
	}
	sp->run = 0;
	sp->jitter += (a - sp->jitter) / 16.0;
	return 0;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
run(const struct sim *c, struct res *r)
{
	static double err[NMAX], tru[NMAX], tt[NMAX];
	struct servo_params p;
	struct servo *s;
	struct filter *flt;
	struct rng rng = { c->seed };
	struct delay_sync sy, prev;
	struct delay_req rq;
	enum servo_state st;
	long double x = 1.5e9L;	/* slave - master, ns */
	double own = 80000.0, fadj = 0.0, f, sum2 = 0.0, ev = 0.0;
	double delay = c->model == M_HW ? 500.0 : 50000.0;
	int sw = c->model != M_HW;
	int64_t T, mpd = 0, off, gm = 0, raw;
	int k, n = (int)c->duration, nm = 0, have_delay = 0, locked = 0;
	int sync_ok, prev_ok = 0, have_rr, in_lock = 0;
	struct spike sp = { 0 };
	double rr;

	assert_true(n <= NMAX);
	sim_rng_seed(&simrng, c->seed, 1);
	sim_ts_model_default(&simts, SIM_TS_SW);
	servo_params_default(&p, sw);
	p.kalman_r = c->kalman_r;
	p.kalman_q = c->kalman_q;
	s = servo_create(c->type, &p);
	assert_non_null(s);
	flt = filter_create(FILTER_MOVING_MEDIAN, 10);
	assert_non_null(flt);
	*r = (struct res){ .lock = -1.0, .relock = -1.0 };
	T = T0;
#define ADVANCE(to) do { \
	x += (long double)(own + fadj) * 1e-9L * (long double)((to) - T); \
	T = (to); \
} while (0)
	for (k = 0; k < n; k++) {
		ADVANCE(T0 + k * NS);
		own += rng_gauss(&rng, sqrt(WANDER_Q));
		if (c->fstep_at > 0.0 && k == (int)c->fstep_at)
			own += 1000.0;
		if (c->gm_at > 0.0 && k == (int)c->gm_at) {
			/* the new grandmaster's time is 2 us later */
			gm = 2000;
			servo_reset(s);
		}
		/* Sync: t1 from the master, t2 on the slave d later. */
		sy.t1 = ts_of(stamp(&rng, c->model, T + gm, 0.0L, 0));
		sy.corr_sync = sy.corr_follow_up = 0;
		ADVANCE(T + (int64_t)delay);
		sy.t2 = ts_of(stamp(&rng, c->model, T, x, 1));
		sync_ok = 1;
		/* the engine's rate ratio (port_slave.c), never across a
		 * step */
		have_rr = prev_ok && delay_sync_rate_ratio(&prev, &sy,
		    &rr) == 0;
		prev = sy;
		prev_ok = 1;
		if (have_delay) {
			assert_int_equal(delay_offset(&sy, 0, mpd, &off, NULL),
			    0);
			/* the truth: this clock against the master's time */
			tru[nm] = (double)(x - gm);
			err[nm] = (double)off - tru[nm];
			tt[nm] = (double)(T - T0) / NS;
			nm++;
			/* the kalman servo gates outliers itself (and
			 * clock_servo.c leaves it the offsets) */
			if (c->type != SERVO_KALMAN &&
			    spike(&sp, in_lock, off))
				goto dreq;
			f = servo_sample(s, off, (uint64_t)(T + (int64_t)x),
			    1.0, &st);
			in_lock = st == SERVO_LOCKED ||
			    st == SERVO_LOCKED_STABLE;
			assert_true(fabs(f) <= servo_max_frequency(s));
			if (st == SERVO_JUMP) {
				fadj = f;
				x -= off;
				r->jumps++;
				prev_ok = 0;
				if (locked)
					r->jumps_after_lock++;
				sync_ok = 0;
			} else if (st != SERVO_UNLOCKED) {
				fadj = f;
				locked = 1;
			} else if (locked) {
				r->unlocked_after_lock++;
			}
		}
dreq:
		/* Delay_Req half a second later. */
		ADVANCE(T0 + k * NS + NS / 2);
		rq.t3 = ts_of(stamp(&rng, c->model, T, x, 0));
		rq.t4 = ts_of(stamp(&rng, c->model, T + (int64_t)delay + gm,
		    0.0L, c->model == M_PTPSIM));
		rq.corr_delay_resp = 0;
		if (sync_ok && have_rr) {
			assert_true(delay_e2e(&sy, &rq, 0, rr, &raw,
			    NULL) >= 0);
			mpd = filter_sample(flt, raw);
			have_delay = 1;
		}
	}
#undef ADVANCE
	if (getenv("SERVO_SIM_TRACE") != NULL &&
	    (uint64_t)atoll(getenv("SERVO_SIM_TRACE")) == c->seed)
		for (k = 0; k < nm; k++)
			print_message("%s %s t %.0f true %.0f err %.0f\n",
			    servo_type_name(c->type), model_name(c->model),
			    tt[k], tru[k], err[k]);
	/* lock: from the last sample at or above 1 us on */
	for (k = nm - 1; k >= 0 && fabs(tru[k]) < 1000.0; k--)
		;
	r->lock = k < nm - 1 ? tt[k + 1] : -1.0;
	for (k = 0; k < nm; k++) {
		if (tt[k] < c->duration - 200.0)
			continue;
		sum2 += tru[k] * tru[k];
		r->max = fmax(r->max, fabs(tru[k]));
	}
	r->rms = sqrt(sum2 / (double)(nm - (int)(c->duration - 200.0) + 1));
	ev = c->fstep_at > 0.0 ? c->fstep_at : c->gm_at;
	if (ev > 0.0) {
		int last = -1;

		for (k = 0; k < nm; k++) {
			if (tt[k] < ev)
				continue;
			r->event_max = fmax(r->event_max, fabs(tru[k]));
			if (fabs(tru[k]) >= 1000.0)
				last = k;
		}
		r->relock = last < 0 ? 0.0 : tt[last] + 1.0 - ev;
	}
	/* measurement noise after the lock: core and plain RMS */
	{
		int m = 0;
		double s2 = 0.0;

		for (k = 0; k < nm; k++) {
			if (tt[k] < c->duration - 200.0)
				continue;
			s2 += err[k] * err[k];
			err[m++] = fabs(err[k]);
		}
		qsort(err, (size_t)m, sizeof(err[0]), cmp_d);
		r->noise = 1.4826 * err[m / 2];
		r->noise_rms = sqrt(s2 / m);
	}
	servo_kalman_noise(s, &r->est_r, &r->est_q);
	filter_destroy(flt);
	servo_destroy(s);
}

static void
show(const char *what, const struct sim *c, const struct res *r,
    double bound)
{
	print_message("| %s | %s | %s | %.0f | %.1f | %.1f | %d | %.1f | "
	    "%.1f | %.2f |\n", what, model_name(c->model),
	    servo_type_name(c->type), r->lock, r->rms, r->max, r->jumps,
	    r->noise, r->noise_rms, bound > 0.0 ? r->rms / bound : 0.0);
}

/* The reference: the Kalman servo told the true noise of this run. */
static double
bound_of(const struct sim *c, const struct res *r)
{
	struct sim o = *c;
	struct res ro;

	o.type = SERVO_KALMAN;
	o.kalman_r = r->noise * r->noise;
	o.kalman_q = WANDER_Q;
	run(&o, &ro);
	return ro.rms;
}

/*
 * 1.5 s and +80 ppm off, 600 s, NSEEDS seeds: the acquisition and
 * steady-state goals of issue 12 for kalman, every seed (lock time: the
 * median with software time stamps, where 1 us is two standard deviations
 * of a single measurement and a run's lock time is a tail event); the
 * first seed's figures of every servo printed.
 */
#define NSEEDS	20

static void
acquire(enum model m, uint64_t seed0)
{
	static const enum servo_type types[] = {
		SERVO_PI, SERVO_LINREG, SERVO_KALMAN,
	};
	struct sim c = { .model = m, .duration = 600.0 };
	double lk[NSEEDS], bound;
	struct res r;
	size_t i;
	int j;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		c.type = types[i];
		c.seed = seed0;
		run(&c, &r);
		show("acquire", &c, &r, bound_of(&c, &r));
	}
	c.type = SERVO_KALMAN;
	for (j = 0; j < NSEEDS; j++) {
		c.seed = seed0 + (uint64_t)j;
		run(&c, &r);
		bound = bound_of(&c, &r);
		assert_int_equal(r.jumps, 1);
		assert_int_equal(r.jumps_after_lock, 0);
		assert_int_equal(r.unlocked_after_lock, 0);
		assert_true(r.lock > 0.0);
		lk[j] = r.lock;
		if (m == M_HW) {
			assert_true(r.lock <= 5.0);
			assert_true(r.rms <= 1.5 * bound);
		} else {
			assert_true(r.rms <= 0.5 * r.noise);
		}
	}
	qsort(lk, NSEEDS, sizeof(lk[0]), cmp_d);
	print_message("kalman %s: lock time median %.1f s, worst %.1f s over "
	    "%d seeds\n", model_name(m), lk[NSEEDS / 2], lk[NSEEDS - 1],
	    NSEEDS);
	assert_true(lk[NSEEDS / 2] <= (m == M_HW ? 5.0 : 10.0));
}

static void
test_acquire_hw(void **state)
{
	(void)state;
	print_message("| case | model | servo | lock s | rms ns | max ns | "
	    "steps | noise ns (core) | noise ns (rms) | rms / bound |\n");
	acquire(M_HW, 100);
}

static void
test_acquire_sw(void **state)
{
	(void)state;
	acquire(M_SW, 200);
}

/* A frequency step of 1 ppm (temperature) or a new grandmaster 2 us
 * apart, after 300 s: no step, the offset back under 1 us. */
static void
event(enum model m, int gm, uint64_t seed)
{
	static const enum servo_type types[] = {
		SERVO_PI, SERVO_LINREG, SERVO_KALMAN,
	};
	struct sim c = { .model = m, .duration = 600.0, .seed = seed };
	struct res r;
	size_t i;

	if (gm)
		c.gm_at = 300.0;
	else
		c.fstep_at = 300.0;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		c.type = types[i];
		run(&c, &r);
		print_message("| %s | %s | %s | %.0f | %.0f | %d |\n",
		    gm ? "new GM +2 us" : "+1 ppm", model_name(m),
		    servo_type_name(c.type), r.event_max, r.relock, r.jumps);
		if (c.type != SERVO_KALMAN)
			continue;
		assert_int_equal(r.jumps, 1);
		assert_int_equal(r.unlocked_after_lock, 0);
		assert_true(r.relock >= 0.0);
		assert_true(r.relock <= 30.0);
		assert_true(r.event_max < (m == M_HW ? 3000.0 : 6000.0));
	}
}

static void
test_events(void **state)
{
	(void)state;
	print_message("| event | model | servo | max ns after | back < 1 us "
	    "after s | steps |\n");
	event(M_HW, 0, 31);
	event(M_SW, 0, 32);
	event(M_HW, 1, 33);
	event(M_SW, 1, 34);
}

/* The noise estimates find the model's: r within a factor 2 of the
 * measured noise variance, q within a factor 4 of the wander (hw: with sw
 * time stamps the wander is far below what the noise lets one see). */
static void
test_noise_estimates(void **state)
{
	struct sim c = { .type = SERVO_KALMAN, .model = M_HW,
	    .duration = 600.0, .seed = 41 };
	struct res r;
	double v;

	(void)state;
	run(&c, &r);
	v = r.noise * r.noise;
	print_message("hw: r %.1f ns^2 (noise %.1f^2 = %.1f), q %.4f ppb^2/s "
	    "(model %.4f)\n", r.est_r, r.noise, v, r.est_q, WANDER_Q);
	assert_true(r.est_r > v / 2.0 && r.est_r < v * 2.0);
	assert_true(r.est_q > WANDER_Q / 4.0 && r.est_q < WANDER_Q * 4.0);
	c.model = M_SW;
	run(&c, &r);
	v = r.noise * r.noise;
	print_message("sw: r %.0f ns^2 (noise %.1f^2 = %.0f), q %.4f ppb^2/s\n",
	    r.est_r, r.noise, v, r.est_q);
	assert_true(r.est_r > v / 2.0 && r.est_r < v * 2.0);
	c.model = M_PTPSIM;
	run(&c, &r);
	print_message("sw-ptpsim: r %.0f ns^2 (noise %.1f^2 = %.0f, rms %.1f^2)"
	    ", q %.4f ppb^2/s\n", r.est_r, r.noise, r.noise * r.noise,
	    r.noise_rms, r.est_q);
}

/*
 * kalman against pi over 40 seeds of each model: median lock time and
 * median steady-state rms no worse, and no run that goes far astray:
 * ptpsim's software model once had two late Syncs in a row read as a
 * frequency ramp (seed 1048: the clock driven 500 us off); its worst run
 * now follows 6 offsets 11 us off (a disturbed path delay, seed 1085).
 */
static void
test_vs_pi(void **state)
{
	enum { N = 40 };
	double lk[2][N], rm[2][N], worst = 0.0;
	struct sim c = { .duration = 600.0 };
	struct res r;
	int m, i, j;

	(void)state;
	for (m = M_HW; m <= M_PTPSIM; m++) {
		for (i = 0; i < 2; i++) {
			c.type = i == 0 ? SERVO_PI : SERVO_KALMAN;
			c.model = (enum model)m;
			for (j = 0; j < N; j++) {
				/* 1048 .. 1087: both runs named above */
				c.seed = 1048 + (uint64_t)j;
				run(&c, &r);
				lk[i][j] = r.lock < 0.0 ? 1e9 : r.lock;
				rm[i][j] = r.rms;
				assert_int_equal(r.jumps, 1);
				if (i == 1 && m == M_PTPSIM)
					worst = fmax(worst, r.max);
			}
			qsort(lk[i], N, sizeof(double), cmp_d);
			qsort(rm[i], N, sizeof(double), cmp_d);
		}
		print_message("%s: lock median pi %.0f s, kalman %.0f s; rms "
		    "median pi %.1f ns, kalman %.1f ns\n", model_name(m),
		    lk[0][N / 2], lk[1][N / 2], rm[0][N / 2], rm[1][N / 2]);
		assert_true(lk[1][N / 2] <= lk[0][N / 2]);
		assert_true(rm[1][N / 2] <= rm[0][N / 2]);
	}
	print_message("sw-ptpsim: worst max |offset| of kalman %.0f ns\n",
	    worst);
	assert_true(worst < 15000.0);
}

/* SERVO_SIM_SWEEP=N: lock time and rms over seeds 1..N, per model and
 * servo (median and worst), for the report. */
static void
sweep(int nseeds)
{
	static const enum servo_type types[] = {
		SERVO_PI, SERVO_LINREG, SERVO_KALMAN,
	};
	static double lk[1000], rm[1000], mx[1000], rb[1000], nz[1000];
	struct sim c = { .duration = 600.0 };
	struct res r;
	int m, i, j, bad;

	if (nseeds > 1000)
		nseeds = 1000;
	print_message("| model | servo | lock s median | lock s worst | "
	    "rms ns median | rms ns worst | max ns worst | rms / bound "
	    "median | rms / noise median | runs with a 2nd step |\n");
	for (m = M_HW; m <= M_PTPSIM; m++) {
		for (i = 0; i < 3; i++) {
			bad = 0;
			for (j = 0; j < nseeds; j++) {
				c.model = (enum model)m;
				c.type = types[i];
				c.seed = 1000 + (uint64_t)j;
				c.kalman_r = getenv("KF_R") ?
				    atof(getenv("KF_R")) : 0.0;
				c.kalman_q = getenv("KF_Q") ?
				    atof(getenv("KF_Q")) : 0.0;
				run(&c, &r);
				lk[j] = r.lock < 0 ? 1e9 : r.lock;
				rm[j] = r.rms;
				mx[j] = r.max;
				nz[j] = r.rms / r.noise;
				rb[j] = r.rms / bound_of(&c, &r);
				bad += r.jumps != 1;
				if (getenv("SERVO_SIM_BAD") && (r.max > 3000.0
				    || r.lock > 10.0))
					print_message("seed %d %s %s max %.0f "
					    "lock %.0f\n", 1000 + j,
					    model_name(m),
					    servo_type_name(types[i]), r.max,
					    r.lock);
			}
			qsort(lk, (size_t)nseeds, sizeof(double), cmp_d);
			qsort(rm, (size_t)nseeds, sizeof(double), cmp_d);
			qsort(mx, (size_t)nseeds, sizeof(double), cmp_d);
			qsort(rb, (size_t)nseeds, sizeof(double), cmp_d);
			qsort(nz, (size_t)nseeds, sizeof(double), cmp_d);
			print_message("| %s | %s | %.0f | %.0f | %.1f | %.1f | "
			    "%.1f | %.2f | %.2f | %d |\n", model_name(m),
			    servo_type_name(types[i]), lk[nseeds / 2],
			    lk[nseeds - 1], rm[nseeds / 2], rm[nseeds - 1],
			    mx[nseeds - 1], rb[nseeds / 2], nz[nseeds / 2],
			    bad);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acquire_hw),
		cmocka_unit_test(test_acquire_sw),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_noise_estimates),
		cmocka_unit_test(test_vs_pi),
	};

	if (getenv("SERVO_SIM_SWEEP") != NULL) {
		sweep(atoi(getenv("SERVO_SIM_SWEEP")));
		return 0;
	}

	return cmocka_run_group_tests(tests, NULL, NULL);
}
