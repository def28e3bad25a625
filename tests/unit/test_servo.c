/*
 * test_servo.c - the PI, linreg and kalman servos, alone and on a simulated
 * clock (kalman's figures against the others: test_servo_sim.c).
 *
 * The simulation runs the whole numeric path of a slave as ptp4l does it:
 * E2E exchanges with noisy software time stamps (delay.c), the moving
 * median of the path delay (filter.c), offset into the servo, the servo's
 * frequency and step applied to a clock that is 1.5 s and +80 ppm off.
 * Deterministic: a seeded PRNG, no wall clock.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "clockd/delay.h"
#include "clockd/filter.h"
#include "clockd/servo.h"

#define NS		1000000000LL
#define T0		(INT64_C(1700000000) * NS)	/* master's start */

/* ---- deterministic Gaussian noise: xorshift64* + Box-Muller ---- */

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

/* ---- the simulated slave ---- */

static struct ptp_timestamp
delay_ts_from_ns(int64_t ns)
{
	struct ptp_timestamp t = { (uint64_t)(ns / NS), (uint32_t)(ns % NS) };

	return t;
}

static uint64_t
ts_ns(const struct ptp_timestamp *t)
{
	return t->sec * (uint64_t)NS + t->nsec;
}

struct sim_cfg {
	enum servo_type type;
	double interval;	/* Sync interval, s */
	double offset0;		/* slave - master at start, ns */
	double freq_err;	/* slave's own frequency error, ppb */
	double init_freq;	/* frequency netd reports at start, ppb */
	double sigma;		/* noise of each slave time stamp, ns */
	double delay;		/* one-way path delay, ns */
	double duration;	/* s */
	int full_reset;		/* reset the delay filter on a step */
	int use_rr;		/* delay_sync_rate_ratio() into delay_e2e() */
	uint64_t seed;
};

struct sim_res {
	int jumps;
	double lock_time;	/* s of the first LOCKED after the last step */
	int unlocked_after_lock;
	/* over the 60 s from lock_time, and the last 60 s of the run */
	double rms, max, meas_rms, meas_max;
	double late_rms, late_max;
	double freq;		/* last frequency set, ppb */
	double max_abs_freq;
};

struct win {
	double sum2, max, msum2, mmax;
	int n;
};

static void
win_add(struct win *w, double x, double m)
{
	w->sum2 += x * x;
	w->msum2 += m * m;
	w->max = fmax(w->max, fabs(x));
	w->mmax = fmax(w->mmax, fabs(m));
	w->n++;
}

static void
simulate(const struct sim_cfg *c, struct sim_res *res)
{
	struct servo_params p;
	struct servo *s;
	struct filter *flt;
	struct rng rng = { c->seed };
	struct delay_sync sy, prev;
	struct delay_req rq;
	double rr = 1.0;
	int prev_valid = 0, have_rr = 0;
	struct win early = { 0 }, late = { 0 };
	enum servo_state st;
	long double x = c->offset0;	/* slave clock - master time, ns */
	double fadj = c->init_freq, f;
	int64_t T = T0, Tnext, mpd = 0, off;
	int64_t step = (int64_t)(c->interval * NS);
	int sync_valid, have_delay = 0, k, n, dreq_every;

	servo_params_default(&p, 1);
	p.init_freq_ppb = c->init_freq;
	p.sync_interval = c->interval;
	s = servo_create(c->type, &p);
	assert_non_null(s);
	flt = filter_create(FILTER_MOVING_MEDIAN, 10);
	assert_non_null(flt);
	*res = (struct sim_res){ 0 };
	res->lock_time = -1.0;

	n = (int)(c->duration / c->interval);
	dreq_every = c->interval < 1.0 ? (int)(1.0 / c->interval) : 1;
#define ADVANCE(to) do { \
	x += (long double)(c->freq_err + fadj) * 1e-9L * (long double)((to) - T); \
	T = (to); \
} while (0)
#define SLAVE_TS(T_, sig) delay_ts_from_ns((T_) + (int64_t)llroundl(x) + \
	    (int64_t)llround(rng_gauss(&rng, (sig))))
	for (k = 0; k < n; k++) {
		/* Sync: sent at T, received d later. */
		Tnext = T0 + k * step;
		ADVANCE(Tnext);
		sy.t1 = delay_ts_from_ns(T);
		sy.corr_sync = sy.corr_follow_up = 0;
		ADVANCE(T + (int64_t)c->delay);
		sy.t2 = SLAVE_TS(T, c->sigma);
		sync_valid = 1;
		rr = 1.0;
		have_rr = 0;
		if (c->use_rr && prev_valid) {
			assert_int_equal(delay_sync_rate_ratio(&prev, &sy, &rr),
			    0);
			have_rr = 1;
		}
		prev = sy;
		prev_valid = 1;

		if (have_delay) {
			assert_int_equal(delay_offset(&sy, 0, mpd, &off, NULL),
			    0);
			f = servo_sample(s, off, ts_ns(&sy.t2), 1.0, &st);
			assert_true(fabs(f) <= servo_max_frequency(s));
			if (st == SERVO_JUMP) {
				fadj = f;
				x -= off;	/* step by -offset */
				res->jumps++;
				res->lock_time = -1.0;
				sync_valid = 0;	/* ptp4l: tsproc_reset(0) */
				prev_valid = 0;
				if (c->full_reset) {
					filter_reset(flt);
					have_delay = 0;
				}
			} else if (st != SERVO_UNLOCKED) {
				fadj = f;
				if (res->lock_time < 0.0)
					res->lock_time = (double)(T - T0) / NS;
			} else if (res->lock_time >= 0.0) {
				res->unlocked_after_lock++;
			}
			res->max_abs_freq = fmax(res->max_abs_freq, fabs(f));
			if (res->lock_time >= 0.0 && (double)(T - T0) / NS <
			    res->lock_time + 60.0)
				win_add(&early, (double)x, (double)off);
			if ((double)(T - T0) / NS >= c->duration - 60.0)
				win_add(&late, (double)x, (double)off);
		}

		/* Delay_Req half an interval later, about once a second. */
		if (k % dreq_every == 0) {
			ADVANCE(Tnext + step / 2);
			rq.t3 = SLAVE_TS(T, c->sigma);
			rq.t4 = delay_ts_from_ns(T + (int64_t)c->delay);
			rq.corr_delay_resp = 0;
			/* With rate ratios, wait for the first: a delay
			 * sample of another bias would bend the PI's
			 * frequency estimate. */
			if (sync_valid && (have_rr || !c->use_rr)) {
				int64_t raw;

				assert_true(delay_e2e(&sy, &rq, 0, rr, &raw,
				    NULL) >= 0);
				mpd = filter_sample(flt, raw);
				have_delay = 1;
			}
		}
	}
#undef ADVANCE
#undef SLAVE_TS
	res->freq = fadj;
	if (early.n > 0) {
		res->rms = sqrt(early.sum2 / early.n);
		res->max = early.max;
		res->meas_rms = sqrt(early.msum2 / early.n);
		res->meas_max = early.mmax;
	}
	if (late.n > 0) {
		res->late_rms = sqrt(late.sum2 / late.n);
		res->late_max = late.max;
	}
	filter_destroy(flt);
	servo_destroy(s);
}

static void
print_res(const char *name, const struct sim_cfg *c, const struct sim_res *r)
{
	print_message("%-6s T=%-6g lock %6.2f s, jumps %d; 60 s after lock: "
	    "rms %7.1f ns max %7.1f ns (measured rms %6.1f max %6.1f); "
	    "last 60 s: rms %6.1f max %6.1f; freq %.1f ppb\n", name,
	    c->interval, r->lock_time, r->jumps, r->rms, r->max, r->meas_rms,
	    r->meas_max, r->late_rms, r->late_max, r->freq);
}

static void
run_quality(enum servo_type type, double interval, uint64_t seed)
{
	struct sim_cfg c = {
		.type = type, .interval = interval, .offset0 = 1.5e9,
		.freq_err = 80000.0, .init_freq = 0.0, .sigma = 200.0,
		.delay = 50000.0, .duration = 300.0, .full_reset = 0,
		.use_rr = 1, .seed = seed,
	};
	struct sim_res r;

	simulate(&c, &r);
	print_res(servo_type_name(type), &c, &r);
	assert_int_equal(r.jumps, 1);
	assert_true(r.lock_time > 0.0);
	assert_int_equal(r.unlocked_after_lock, 0);
	/* The target: RMS < 1.5 us, max < 5 us over 60 s. */
	assert_true(r.rms < 1500.0);
	assert_true(r.max < 5000.0);
	assert_true(r.meas_rms < 1500.0);
	assert_true(r.meas_max < 5000.0);
	assert_true(r.late_rms < 1500.0);
	assert_true(r.late_max < 5000.0);
	/* the last frequency set, offset correction included */
	assert_true(fabs(r.freq + 80000.0) < 1000.0);
}

static void
test_sim_pi_1s(void **state)
{
	(void)state;
	run_quality(SERVO_PI, 1.0, 1);
	run_quality(SERVO_PI, 1.0, 2);
}

static void
test_sim_pi_16hz(void **state)
{
	(void)state;
	run_quality(SERVO_PI, 1.0 / 16, 3);
}

static void
test_sim_linreg_1s(void **state)
{
	(void)state;
	run_quality(SERVO_LINREG, 1.0, 4);
	run_quality(SERVO_LINREG, 1.0, 5);
}

static void
test_sim_linreg_16hz(void **state)
{
	(void)state;
	run_quality(SERVO_LINREG, 1.0 / 16, 6);
}

/* ptp4l's own handling of a step keeps the delay filter (tsproc_reset(0)):
 * its pre-step samples are biased by the unlocked frequency error. */
static void
test_sim_ptp4l_filter_keep(void **state)
{
	struct sim_cfg c = {
		.type = SERVO_PI, .interval = 1.0, .offset0 = 1.5e9,
		.freq_err = 80000.0, .sigma = 200.0, .delay = 50000.0,
		.duration = 300.0, .full_reset = 0, .seed = 7,
	};
	struct sim_res r;

	(void)state;
	simulate(&c, &r);
	print_res("pi/keep", &c, &r);
	assert_int_equal(r.jumps, 1);
	assert_true(r.late_rms < 1500.0);
}

/* A restarted clockd: the clock already runs at the right frequency and is
 * 3 us off, below first_step_threshold: no step, lock at once. */
static void
test_sim_restart(void **state)
{
	struct sim_cfg c = {
		.interval = 1.0, .offset0 = 3000.0, .freq_err = 80000.0,
		.init_freq = -80000.0, .sigma = 200.0, .delay = 50000.0,
		.duration = 120.0, .full_reset = 1,
	};
	struct sim_res r;

	(void)state;
	c.type = SERVO_PI;
	c.seed = 8;
	simulate(&c, &r);
	print_res("pi/rst", &c, &r);
	assert_int_equal(r.jumps, 0);
	assert_true(r.max < 5000.0);
	c.type = SERVO_LINREG;
	c.seed = 9;
	simulate(&c, &r);
	print_res("lr/rst", &c, &r);
	assert_int_equal(r.jumps, 0);
	assert_true(r.max < 5000.0);
}

/* ---- the servos alone ---- */

static struct servo *
make(enum servo_type type, int sw_ts, void (*tweak)(struct servo_params *))
{
	struct servo_params p;
	struct servo *s;

	servo_params_default(&p, sw_ts);
	if (tweak != NULL)
		tweak(&p);
	s = servo_create(type, &p);
	assert_non_null(s);
	return s;
}

/*
 * The PI's first frequency estimate is a robust fit: a clock 80 ppm fast,
 * offsets exact but for two Syncs 40 us late, one at each end of the
 * wait, still gives -80000 ppb within 10 ppb (the line through the ends,
 * as ptp4l draws it, would be ~2.5 ppm off).
 */
static void
test_pi_robust_estimate(void **state)
{
	struct servo *s;
	enum servo_state st = SERVO_UNLOCKED;
	double freq = 0;
	int64_t off;
	uint64_t t;
	int i;

	(void)state;
	s = make(SERVO_PI, 1, NULL);
	for (i = 0; i < 40 && st == SERVO_UNLOCKED; i++) {
		t = (uint64_t)i * 1000000000ULL + 1000000000000ULL;
		off = 1500000000LL + (int64_t)i * 80000;
		if (i == 0 || i == 16)
			off += 40000;
		freq = servo_sample(s, off, t, 1.0, &st);
	}
	assert_int_equal(st, SERVO_JUMP);
	assert_float_equal(freq, -80000.0, 10.0);
	servo_destroy(s);
}

/* ptp4l's PI gains: sw 0.1/0.001, hw 0.7/0.3 at 1 s; interval laws. */
static void
test_pi_gains(void **state)
{
	struct servo *s;
	double kp, ki;

	(void)state;
	s = make(SERVO_PI, 1, NULL);
	servo_pi_gains(s, &kp, &ki);
	assert_float_equal(kp, 0.1, 1e-12);
	assert_float_equal(ki, 0.001, 1e-12);
	servo_sync_interval(s, 1.0 / 16);
	servo_pi_gains(s, &kp, &ki);
	assert_float_equal(kp, 0.1 * pow(16.0, 0.3), 1e-12);
	assert_float_equal(ki, 0.001 * pow(16.0, -0.4), 1e-12);
	servo_destroy(s);

	s = make(SERVO_PI, 0, NULL);
	servo_pi_gains(s, &kp, &ki);
	assert_float_equal(kp, 0.7, 1e-12);
	assert_float_equal(ki, 0.3, 1e-12);
	servo_sync_interval(s, 1.0 / 16);
	servo_pi_gains(s, &kp, &ki);
	assert_float_equal(kp, 0.7 * pow(16.0, 0.3), 1e-12);
	assert_float_equal(ki, 0.3 * pow(16.0, -0.4), 1e-12);
	/* Long intervals hit norm_max / T: 0.7 * 64^-0.3 > 0.7 / 64 */
	servo_sync_interval(s, 64.0);
	servo_pi_gains(s, &kp, &ki);
	assert_float_equal(kp, 0.7 / 64, 1e-12);
	assert_float_equal(ki, 0.3 / 64, 1e-12);
	servo_sync_interval(s, 0.0);		/* ignored */
	servo_pi_gains(s, &kp, &ki);
	assert_float_equal(kp, 0.7 / 64, 1e-12);
	servo_destroy(s);
}

static void
fixed_consts(struct servo_params *p)
{
	p->pi.kp = 5.0;
	p->pi.ki = 0.5;
}

static void
scales_only(struct servo_params *p)
{
	p->pi.kp_scale = 0.2;
	p->pi.ki_scale = 0.02;
}

static void
test_pi_configured(void **state)
{
	struct servo *s;
	double kp, ki;

	(void)state;
	/* Configured constants: used as they are, capped at 1/T and 2/T. */
	s = make(SERVO_PI, 1, fixed_consts);
	servo_pi_gains(s, &kp, &ki);
	assert_float_equal(kp, 1.0, 1e-12);
	assert_float_equal(ki, 0.5, 1e-12);
	servo_sync_interval(s, 0.125);
	servo_pi_gains(s, &kp, &ki);
	assert_float_equal(kp, 5.0, 1e-12);
	assert_float_equal(ki, 0.5, 1e-12);
	servo_destroy(s);
	/* Configured scales override the hw/sw defaults. */
	s = make(SERVO_PI, 1, scales_only);
	servo_pi_gains(s, &kp, &ki);
	assert_float_equal(kp, 0.2, 1e-12);
	assert_float_equal(ki, 0.02, 1e-12);
	servo_destroy(s);
	s = make(SERVO_LINREG, 1, NULL);
	servo_pi_gains(s, &kp, &ki);
	assert_true(kp == 0.0 && ki == 0.0);
	servo_destroy(s);
}

/* 1.5 s off, +80 ppm: UNLOCKED until 16 s of history (0.016 / ki), then
 * JUMP with the frequency, then LOCKED. */
static void
test_pi_sequence(void **state)
{
	struct servo *s = make(SERVO_PI, 1, NULL);
	enum servo_state st;
	double f = 0.0;
	int k;

	(void)state;
	for (k = 0; k <= 15; k++) {
		f = servo_sample(s, 1500000000 + 80000 * k,
		    (uint64_t)T0 + (uint64_t)k * NS, 1.0, &st);
		assert_int_equal(st, SERVO_UNLOCKED);
		assert_true(f == 0.0);
	}
	f = servo_sample(s, 1500000000 + 80000 * 16, (uint64_t)T0 + 16 * NS,
	    1.0, &st);
	assert_int_equal(st, SERVO_JUMP);
	assert_float_equal(f, -80000.0, 1e-6);
	f = servo_sample(s, 0, (uint64_t)T0 + 17 * NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	assert_float_equal(f, -80000.0, 1e-6);
	/* +1000 ns: kp 0.1 and ki 0.001 -> 101 ppb less, integral 1 */
	f = servo_sample(s, 1000, (uint64_t)T0 + 18 * NS, 1.0, &st);
	assert_float_equal(f, -80101.0, 1e-6);
	f = servo_sample(s, 0, (uint64_t)T0 + 19 * NS, 1.0, &st);
	assert_float_equal(f, -80001.0, 1e-6);
	/* weight scales both terms */
	f = servo_sample(s, 1000, (uint64_t)T0 + 20 * NS, 0.5, &st);
	assert_float_equal(f, -80051.5, 1e-6);
	/* step_threshold 0: never steps again, however far */
	f = servo_sample(s, 10 * NS, (uint64_t)T0 + 21 * NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	assert_float_equal(f, -500000.0, 1e-6);		/* clamped */
	assert_string_equal(servo_state_name(st), "locked");
	servo_destroy(s);
}

/* Time going back (a step under the servo) restarts the estimate. */
static void
test_pi_time_back(void **state)
{
	struct servo *s = make(SERVO_PI, 0, NULL);
	enum servo_state st;

	(void)state;
	/* hw: ki 0.3 -> estimate after 0.053 s */
	servo_sample(s, 100, (uint64_t)T0, 1.0, &st);
	servo_sample(s, 100, (uint64_t)T0 - 1, 1.0, &st);
	assert_int_equal(st, SERVO_UNLOCKED);
	servo_sample(s, 100, (uint64_t)T0, 1.0, &st);
	assert_int_equal(st, SERVO_UNLOCKED);
	servo_sample(s, 110, (uint64_t)T0 + NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);	/* 110 ns < 20 us */
	servo_destroy(s);
}

static void
step_1ms(struct servo_params *p)
{
	p->step_threshold = 0.001;
	p->init_freq_ppb = 123.0;
}

/* step_threshold: a big offset when locked starts over; the step comes
 * with the next estimate, even though it is not the first update. */
static void
test_pi_step_threshold(void **state)
{
	struct servo *s = make(SERVO_PI, 0, step_1ms);
	enum servo_state st;
	double f;
	uint64_t t = (uint64_t)T0;

	(void)state;
	f = servo_sample(s, 50, t, 1.0, &st);
	assert_int_equal(st, SERVO_UNLOCKED);
	assert_float_equal(f, 123.0, 1e-9);	/* initial frequency kept */
	servo_sample(s, 50, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);	/* no step, no drift */
	servo_sample(s, 0, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	servo_sample(s, 5000000, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_UNLOCKED);
	servo_sample(s, 5000000, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_UNLOCKED);
	servo_sample(s, 5000000, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_JUMP);
	assert_string_equal(servo_state_name(st), "jump");
	/* Below the threshold after all, after a reset: LOCKED. */
	servo_reset(s);
	servo_sample(s, 900000, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_UNLOCKED);
	servo_sample(s, 900000, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	servo_destroy(s);
}

static void
tight_clamp(struct servo_params *p)
{
	p->clock_max_freq_ppb = 900000.0;
	p->max_frequency = 50000.0;
}

/* The clamp is min(clock limit, max_frequency), on every path. */
static void
test_clamp(void **state)
{
	struct servo *s = make(SERVO_PI, 1, tight_clamp);
	struct servo_params p;
	enum servo_state st;
	double f;
	int k;

	(void)state;
	assert_float_equal(servo_max_frequency(s), 50000.0, 0.0);
	/* +80 ppm of drift: the estimate itself is clamped */
	for (k = 0; k <= 16; k++)
		f = servo_sample(s, 80000 * k, (uint64_t)T0 + (uint64_t)k * NS,
		    1.0, &st);
	assert_int_equal(st, SERVO_JUMP);
	assert_float_equal(f, -50000.0, 1e-9);
	for (k = 0; k < 100; k++) {
		f = servo_sample(s, 1000000, (uint64_t)T0 + (17 + k) * NS,
		    1.0, &st);
		assert_float_equal(f, -50000.0, 1e-9);
	}
	/* No windup: one sample the other way leaves the clamp at once. */
	f = servo_sample(s, -1000, (uint64_t)T0 + 200 * NS, 1.0, &st);
	assert_true(f > -50000.0);
	servo_destroy(s);

	/* max_frequency 0: the clock's limit alone */
	servo_params_default(&p, 1);
	p.max_frequency = 0.0;
	p.clock_max_freq_ppb = 1234.0;
	s = servo_create(SERVO_LINREG, &p);
	assert_float_equal(servo_max_frequency(s), 1234.0, 0.0);
	for (k = 0; k < 8; k++) {
		f = servo_sample(s, 80000 * k, (uint64_t)T0 + (uint64_t)k * NS,
		    1.0, &st);
		assert_true(fabs(f) <= 1234.0);
	}
	servo_destroy(s);
}

static void
stable_3(struct servo_params *p)
{
	p->offset_threshold = 1000;
	p->num_offset_values = 3;
	p->sw_ts = 0;
}

static void
test_locked_stable(void **state)
{
	struct servo *s = make(SERVO_PI, 0, stable_3);
	enum servo_state st;
	uint64_t t = (uint64_t)T0;

	(void)state;
	assert_int_equal(servo_offset_threshold(s), 1000);
	servo_sample(s, 10, t, 1.0, &st);
	servo_sample(s, 10, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);		/* 1 of 3 */
	servo_sample(s, -10, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);		/* 2 of 3 */
	servo_sample(s, 10, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED_STABLE);
	assert_string_equal(servo_state_name(st), "locked");
	servo_sample(s, 5000, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	servo_sample(s, 0, t += NS, 1.0, &st);
	servo_sample(s, 0, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	servo_sample(s, 0, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED_STABLE);
	servo_destroy(s);
}

/* linreg: UNLOCKED until 4 points, then JUMP on |intercept|, LOCKED. */
static void
test_linreg_sequence(void **state)
{
	struct servo *s = make(SERVO_LINREG, 1, NULL);
	enum servo_state st;
	double f;
	int k;

	(void)state;
	assert_float_equal(servo_rate_ratio(s), 1.0, 0.0);
	for (k = 0; k < 3; k++) {
		f = servo_sample(s, 1500000000 + 80000 * k,
		    (uint64_t)T0 + (uint64_t)k * NS, 1.0, &st);
		assert_int_equal(st, SERVO_UNLOCKED);
		assert_true(f == 0.0);
	}
	f = servo_sample(s, 1500000000 + 80000 * 3, (uint64_t)T0 + 3 * NS,
	    1.0, &st);
	assert_int_equal(st, SERVO_JUMP);
	/* slope -80 ppm; the intercept, stepped away, still corrects */
	assert_true(f < -79000.0 && f > -81000.0);
	/* After the step (clock at -f), the offsets stay 0. */
	for (k = 4; k < 40; k++) {
		f = servo_sample(s, 0, (uint64_t)T0 + (uint64_t)k * NS -
		    1500240000, 1.0, &st);
		assert_int_equal(st, SERVO_LOCKED);
	}
	assert_true(fabs(servo_rate_ratio(s) - 1.0) < 1e-3);
	assert_string_equal(servo_type_name(SERVO_LINREG), "linreg");
	servo_destroy(s);
}

static void
no_first_step(struct servo_params *p)
{
	p->first_step_threshold = 0.0;
}

/* first_step_threshold 0 (and step_threshold 0): never a step, not even
 * at the first update, however far (ptp4l: 0 is off). */
static void
test_first_step_off(void **state)
{
	struct servo *s = make(SERVO_PI, 0, no_first_step);
	enum servo_state st;
	uint64_t t = (uint64_t)T0;

	(void)state;
	servo_sample(s, 10 * NS, t, 1.0, &st);
	assert_int_equal(st, SERVO_UNLOCKED);
	servo_sample(s, 10 * NS, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	servo_destroy(s);
	s = make(SERVO_LINREG, 0, no_first_step);
	for (int k = 0; k < 4; k++)
		servo_sample(s, 10 * NS, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	servo_destroy(s);
}

/* first_step_threshold only applies to the first update: default 20 us,
 * after the first LOCKED a 1 ms offset is slewed (step_threshold 0). */
static void
test_first_step_only_first(void **state)
{
	struct servo *s = make(SERVO_PI, 0, NULL);
	enum servo_state st;
	uint64_t t = (uint64_t)T0;

	(void)state;
	servo_sample(s, 100, t, 1.0, &st);
	servo_sample(s, 100, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	servo_sample(s, 1000000, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	/* A reset (new master) does not make it the first update again. */
	servo_reset(s);
	servo_sample(s, 1000000, t += NS, 1.0, &st);
	servo_sample(s, 1000000, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	servo_destroy(s);
}

/* linreg and step_threshold: after lock, an intercept beyond it steps. */
static void
test_linreg_step_threshold(void **state)
{
	struct servo *s = make(SERVO_LINREG, 0, step_1ms);
	enum servo_state st;
	uint64_t t = (uint64_t)T0;
	int k;

	(void)state;
	for (k = 0; k < 8; k++)
		servo_sample(s, 100, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	for (k = 0; k < 8 && st != SERVO_JUMP; k++)
		servo_sample(s, 50000000, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_JUMP);
	servo_destroy(s);
}

/* Offsets from a hostile master whose difference is beyond int64: the
 * estimate has the right sign (slave ever further ahead: slow down to the
 * bound), and no signed overflow (the UBSan build aborts on one). */
static void
test_pi_hostile_offsets(void **state)
{
	struct servo *s = make(SERVO_PI, 0, NULL);
	enum servo_state st;
	double f;

	(void)state;
	/* hw: ki 0.3, the estimate after 0.053 s; two samples, so the
	 * slope is the line through them. */
	servo_sample(s, -6 * (INT64_C(1) << 60), (uint64_t)T0, 1.0, &st);
	f = servo_sample(s, 6 * (INT64_C(1) << 60), (uint64_t)T0 + NS / 10,
	    1.0, &st);
	assert_int_equal(st, SERVO_JUMP);
	assert_float_equal(f, -500000.0, 1e-6);
	f = servo_sample(s, INT64_MIN, (uint64_t)T0 + NS / 5, 1.0, &st);
	assert_true(isfinite(f) && fabs(f) <= 500000.0);
	servo_destroy(s);
}

/* kalman: sample 1 UNLOCKED, sample 2 gives the frequency and the step,
 * then LOCKED with the offset taken out over the next interval. */
static void
test_kalman_sequence(void **state)
{
	struct servo *s = make(SERVO_KALMAN, 0, NULL);
	enum servo_state st;
	double f, r, q;

	(void)state;
	assert_string_equal(servo_type_name(SERVO_KALMAN), "kalman");
	f = servo_sample(s, 1500000000, (uint64_t)T0, 1.0, &st);
	assert_int_equal(st, SERVO_UNLOCKED);
	assert_true(f == 0.0);
	f = servo_sample(s, 1500080000, (uint64_t)T0 + NS, 1.0, &st);
	assert_int_equal(st, SERVO_JUMP);
	assert_float_equal(f, -80000.0, 1e-6);
	/* stepped by -1500080000: local time moved with it */
	f = servo_sample(s, 0, (uint64_t)T0 + 2 * NS - 1500080000, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	assert_float_equal(f, -80000.0, 1e-6);
	/* +100 ns: most of it is believed (the filter is young) and taken
	 * out over the next second */
	f = servo_sample(s, 100, (uint64_t)T0 + 3 * NS - 1500080000, 1.0, &st);
	assert_true(f < -80050.0 && f > -80200.0);
	servo_kalman_noise(s, &r, &q);
	assert_true(r > 0.0 && q > 0.0);
	servo_destroy(s);
	s = make(SERVO_PI, 0, NULL);
	servo_kalman_noise(s, &r, &q);
	assert_true(r == 0.0 && q == 0.0);
	servo_destroy(s);
}

/*
 * kalman after servo_reset() (new master): the frequency is kept and held
 * for 3 samples, whose median starts the phase: a late Sync (60 us) first
 * after the reset does not move the clock.  Before, the first offset
 * alone set the phase, and the frequency returned was 60 ppm off.
 */
static void
test_kalman_reset(void **state)
{
	struct servo *s = make(SERVO_KALMAN, 1, NULL);
	enum servo_state st;
	uint64_t t = (uint64_t)T0;
	double f = 0.0, locked;
	int k;

	(void)state;
	/* software time stamps: 5 samples before the first decision */
	servo_sample(s, -4000, t, 1.0, &st);
	for (k = 1; k < 4; k++) {
		servo_sample(s, -4000 + 5000 * k, t += NS, 1.0, &st);
		assert_int_equal(st, SERVO_UNLOCKED);
	}
	f = servo_sample(s, 16000, t += NS, 1.0, &st);
	/* 16000 ns < 20 us: no step; drifting +5 ppm, found */
	assert_int_equal(st, SERVO_LOCKED);
	assert_true(f < -4000.0);
	/* then the clock follows: offsets 0 */
	for (k = 0; k < 30; k++)
		f = servo_sample(s, 0, t += NS, 1.0, &st);
	assert_float_equal(f, -5000.0, 1000.0);
	locked = f;
	servo_reset(s);
	f = servo_sample(s, 60000, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	assert_float_equal(f, locked, 100.0);
	f = servo_sample(s, 200, t += NS, 1.0, &st);
	assert_float_equal(f, locked, 100.0);
	f = servo_sample(s, 300, t += NS, 1.0, &st);
	assert_int_equal(st, SERVO_LOCKED);
	/* the median, 300 ns, taken out over the next second */
	assert_true(fabs(f - locked) < 1000.0);
	assert_int_equal(servo_last_outlier(s), 0);
	/* locked, a late Sync: gated, shown as an outlier, frequency held */
	for (k = 0; k < 20; k++)
		servo_sample(s, 0, t += NS, 1.0, &st);
	f = servo_sample(s, 60000, t += NS, 1.0, &st);
	assert_int_equal(servo_last_outlier(s), 1);
	assert_float_equal(f, locked, 100.0);
	servo_sample(s, 0, t += NS, 1.0, &st);
	assert_int_equal(servo_last_outlier(s), 0);
	servo_destroy(s);
}

/*
 * kalman's acquisition with software time stamps: five samples, whose
 * robust line gives the drift and the phase the step is made from.  A
 * clock 1.5 s and +80 ppm off, one Sync 60 us late among them (the 2nd,
 * then the 5th, the one the step is made on): the drift is found within
 * 1 ppb, and the phase left after the step by -z is the lateness, so the
 * next (true) offset 0 is no surprise.  Before, the second sample decided
 * alone: 60 ppm off, and a step 60 us wrong that the filter believed.
 */
static void
test_kalman_acq_late(void **state)
{
	struct servo *s;
	enum servo_state st;
	uint64_t t;
	int64_t z;
	double f;
	int late, k;

	(void)state;
	for (late = 1; late <= 4; late += 3) {
		s = make(SERVO_KALMAN, 1, NULL);
		t = (uint64_t)T0;
		for (k = 0; k < 5; k++) {
			z = 1500000000 + 80000 * k + (k == late ? 60000 : 0);
			f = servo_sample(s, z, t, 1.0, &st);
			if (k < 4) {
				assert_int_equal(st, SERVO_UNLOCKED);
				t += NS;
			}
		}
		assert_int_equal(st, SERVO_JUMP);
		/* stepped by -z: the clock is now z - true = 60 us behind
		 * (late 4), which the servo knows: 60 ppm faster for the
		 * next second, then the offset is 0 */
		assert_float_equal(f, -80000.0 + (late == 4 ? 60000.0 : 0.0),
		    1.0);
		t += NS - (uint64_t)z;
		f = servo_sample(s, 0, t, 1.0, &st);
		assert_int_equal(st, SERVO_LOCKED);
		assert_int_equal(servo_last_outlier(s), 0);
		assert_float_equal(f, -80000.0, 1.0);
		servo_destroy(s);
	}
}

/* kalman on offsets beyond int64 differences and time going back. */
static void
test_kalman_hostile(void **state)
{
	struct servo *s = make(SERVO_KALMAN, 0, NULL);
	enum servo_state st;
	double f;
	int k;

	(void)state;
	servo_sample(s, -6 * (INT64_C(1) << 60), (uint64_t)T0, 1.0, &st);
	f = servo_sample(s, 6 * (INT64_C(1) << 60), (uint64_t)T0 + NS, 1.0,
	    &st);
	assert_true(isfinite(f) && fabs(f) <= 500000.0);
	for (k = 0; k < 20; k++) {
		f = servo_sample(s, k % 2 ? INT64_MIN : INT64_MAX,
		    (uint64_t)T0 + (uint64_t)(2 + k) * NS, 1.0, &st);
		assert_true(isfinite(f) && fabs(f) <= 500000.0);
	}
	/* time going back: UNLOCKED, starting over */
	f = servo_sample(s, 100, (uint64_t)T0, 1.0, &st);
	assert_true(isfinite(f));
	servo_destroy(s);
}

static void
test_create_invalid(void **state)
{
	struct servo_params p;

	(void)state;
	servo_params_default(&p, 1);
	p.sync_interval = 0.0;
	errno = 0;
	assert_null(servo_create(SERVO_PI, &p));
	assert_int_equal(errno, EINVAL);
	servo_params_default(&p, 1);
	p.step_threshold = NAN;
	assert_null(servo_create(SERVO_PI, &p));
	servo_params_default(&p, 1);
	p.pi.kp_norm_max = 0.0;
	assert_null(servo_create(SERVO_PI, &p));
	servo_params_default(&p, 1);
	assert_null(servo_create((enum servo_type)9, &p));
	assert_null(servo_create(SERVO_PI, NULL));
	assert_null(servo_type_name((enum servo_type)9));
	assert_string_equal(servo_state_name(SERVO_UNLOCKED), "unlocked");
	servo_destroy(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pi_gains),
		cmocka_unit_test(test_pi_robust_estimate),
		cmocka_unit_test(test_pi_configured),
		cmocka_unit_test(test_pi_sequence),
		cmocka_unit_test(test_pi_time_back),
		cmocka_unit_test(test_pi_step_threshold),
		cmocka_unit_test(test_clamp),
		cmocka_unit_test(test_locked_stable),
		cmocka_unit_test(test_linreg_sequence),
		cmocka_unit_test(test_create_invalid),
		cmocka_unit_test(test_first_step_off),
		cmocka_unit_test(test_first_step_only_first),
		cmocka_unit_test(test_linreg_step_threshold),
		cmocka_unit_test(test_pi_hostile_offsets),
		cmocka_unit_test(test_kalman_sequence),
		cmocka_unit_test(test_kalman_reset),
		cmocka_unit_test(test_kalman_acq_late),
		cmocka_unit_test(test_kalman_hostile),
		cmocka_unit_test(test_sim_pi_1s),
		cmocka_unit_test(test_sim_pi_16hz),
		cmocka_unit_test(test_sim_linreg_1s),
		cmocka_unit_test(test_sim_linreg_16hz),
		cmocka_unit_test(test_sim_ptp4l_filter_keep),
		cmocka_unit_test(test_sim_restart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
