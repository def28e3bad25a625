/*
 * servo_kf.c - "kalman", ptpsep's default servo: a two-state Kalman filter
 * (phase and frequency) with its noise estimated online, and a control law
 * that takes the estimated offset out over one Sync interval.
 *
 * Model (internal sign, servo_private.h; ns and ppb = ns/s):
 *   theta' = d - c	theta the offset (slave - master), c the correction
 *			in force (what this servo returned), d the clock's
 *			drift, the correction that would hold theta still;
 *   d' = w		w white, density q (ppb^2/s): random-walk frequency
 *			noise, the oscillator's wander;
 *   z = theta + v	v white, variance r (ns^2): the measurement noise of
 *			offsetFromMaster (IEEE 1588-2019 11.2).
 * The filter predicts over the actual time since the last sample with the
 * correction that was in force, updates on z, and returns
 * c = d + theta / T: the estimated offset is gone by the next Sync, the
 * minimum-variance law for this model (what remains at the next sample is
 * the estimation error).  The filter is therefore the whole design.
 *
 *  - Acquisition: with hardware time stamps sample 1 is kept and sample 2
 *    gives d from the slope of the two; with software ones, where one
 *    Sync in fifty is tens of us late, KF_ACQ_SW samples give d and the
 *    phase from their robust (Theil-Sen) line; then JUMP
 *    (servo_step_wanted(), on that phase) or LOCKED.
 *  - Noise, from the data rather than from configuration.  x, the phase
 *    the clock would have without corrections (z plus the integral of c),
 *    has second differences whose variance over a lag of tau is
 *    6 r + (2/3) q tau^3: white phase noise at the shortest lag, the
 *    wander (a difference of two frequency estimates) at long ones.  r
 *    comes from lag 1, q from the excess at lag KF_LAG less part of its
 *    standard error (with software time stamps the wander is a fraction
 *    of a percent of that variance: q is then KF_Q_MIN, not the noise of
 *    its estimate); until there are data the hw / sw priors count as a
 *    few samples.
 *  - Outliers (a software Sync time-stamped late): an innovation beyond
 *    KF_GATE standard deviations and KF_GATE_MIN is not used (the caller
 *    logs it as a spike, servo_last_outlier()).  Gated innovations in a
 *    row that tell a consistent story, over long enough, are a real
 *    change: on a growing line, a frequency step (the filter restarts
 *    from the fitted slope); at one level, an offset jump (a new master's
 *    time; the phase is opened); many of one sign, whatever they are.
 *  - A change below the gate shows up as a mean of the normalized
 *    innovations away from 0; past KF_BIAS the covariance is opened: the
 *    frequency when the innovations grow, the phase when they are flat.
 *  - servo_reset() (new master) keeps d, holds it for KF_RESUME_N
 *    samples and starts the phase again from their median; time going
 *    back (a step under us) does the same.
 * Figures against pi and linreg: tests/bench/results/servo.md.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "servo_private.h"

#define KF_GATE		4.0	/* innovations beyond 4 sigma ... */
#define KF_GATE_MIN	2000.0	/* ... and 2 us (as clock_servo.c's spike
				   filter): not used */
/* Gated innovations in a row, at least so many over at least so long
 * (late Syncs come in bursts as long as the host is busy, several at a
 * short Sync interval): */
#define KF_RUN		3	/* on a ramp: a frequency step */
#define KF_RUN_S	2.0
#define KF_LEVEL	6	/* at one level: an offset jump */
#define KF_LEVEL_S	4.0
#define KF_RUN_MAX	10	/* of one sign: a change */
#define KF_RUN_MAX_S	8.0
#define KF_RUN_CAP	160	/* the most kept (10 s at 16 Hz) */
#define KF_RESUME_N	3	/* samples after a reset: one may be late */
/* Samples before the first decision: with hardware time stamps two (the
 * drift from their slope, at once, as ptp4l); with software ones
 * KF_ACQ_SW, whose robust line gives the drift and the phase (a late Sync
 * among them moves neither), and by which time the path delay the step
 * rests on is a median of several exchanges. */
#define KF_ACQ_HW	2
#define KF_ACQ_SW	5
#define KF_ACQ_MAX	8
#define KF_BIAS		1.5	/* |mean normalized innovation| beyond */
#define KF_BIAS_AVG	8.0	/* samples in that mean */
#define KF_LAG		64	/* samples: the lag that sees the wander */
#define KF_HIST		(2 * KF_LAG + 1)
#define KF_SE_K		0.5	/* q: the excess less 0.5 standard errors */
#define KF_AVG_MAX	256.0	/* samples in the noise averages, at most */
#define KF_PRIOR_N	4.0	/* samples the priors are worth */
/* Priors: software time stamps on a busy host, hardware ones on a PHC. */
#define KF_SW_R0	(500.0 * 500.0)
#define KF_HW_R0	(50.0 * 50.0)
#define KF_Q_MIN	0.01	/* ppb^2/s: at least an ordinary crystal's */
/* The prior wander, ppb^2/s: it counts as KF_PRIOR_N samples of the long
 * lag's mean square, where the standard-error discount makes q start at
 * the floor; it then fades as the data come in (at 1 s: over minutes). */
#define KF_Q0		1.0
#define KF_R_MIN	1.0	/* ns^2 */
#define KF_DD_GATE	5.0	/* second differences beyond 5 rms ... */
#define KF_DD_N		16.0	/* ... once the averages hold 16 samples */

enum kf_phase {
	KF_EMPTY,	/* no sample since start or reset */
	KF_ONE,		/* one sample: the frequency comes with the next */
	KF_RESUME,	/* after a reset: KF_RESUME_N samples at the known
			   frequency, then their median is the phase */
	KF_RUN_,	/* filtering */
};

struct kf {
	struct servo base;
	enum kf_phase phase;
	double c;		/* correction in force, ppb (internal sign) */
	double theta, d;	/* the estimate after the last sample */
	double p00, p01, p11;	/* its covariance, ns^2, ns ppb, ppb^2 */
	int64_t z0;		/* sample 1 */
	int acq_n;		/* samples before the first decision */
	double az[KF_ACQ_MAX];	/* them, ns ... */
	double at[KF_ACQ_MAX];	/* ... at s from sample 1 */
	int naz;
	double rz[KF_RESUME_N];	/* the samples after a reset */
	int nrz;
	uint64_t t0;
	uint64_t last_ts;	/* local time of the last sample */
	int have_d;		/* d was measured (kept over a reset) */
	double interval;	/* Sync interval, s */
	double r, q;		/* the noise estimates in use */
	double r0;		/* the prior r */
	double fix_r, fix_q;	/* configured instead (0.0: estimate) */
	/* second differences of the free-running phase */
	double acc;		/* integral of c, ns */
	double hx[KF_HIST];	/* ring of x, ns ... */
	double ht[KF_HIST];	/* ... at local time, s (from t_ref) */
	uint64_t t_ref;
	int hn, hpos;
	double v1, vl;		/* mean squared lag-1 and lag-KF_LAG diffs */
	double n1, nl;		/* samples in them (priors included) */
	double tau1, taul;	/* their mean lags, s */
	/* outliers and changes */
	int run, run_sign;
	double run_nu[KF_RUN_CAP];	/* the run's innovations, ns */
	double run_t[KF_RUN_CAP];	/* s from the last used sample */
	double since;		/* s from the last used sample to this one */
	double last_nu;		/* the last used innovation, ns */
	double bias;		/* mean normalized innovation */
	uint64_t gated;
};

static struct kf *
to_kf(struct servo *s)
{
	return servo_container_of(s, struct kf, base);
}

static void
kf_destroy(struct servo *s)
{
	free(to_kf(s));
}

/* r and q from the averages of the second differences. */
/* tau^3 of the noise model: pow() costs ~125 instructions a call, and
 * kf_noise() runs at every sample. */
static inline double
kf_cube(double x)
{
	return x * x * x;
}

/* The correction in force since the last sample: the servo's own, or
 * what the clock was really set to (servo_applied()). */
static double
kf_in_force(const struct kf *k)
{
	return k->base.have_applied ? k->base.applied : k->c;
}

static void
kf_noise(struct kf *k)
{
	double wl, r, q, se;

	/*
	 * 6 r + (2/3) q tau^3 at either lag: two equations, two unknowns.
	 * The wander is the excess of the long lag over the short one, less
	 * KF_SE_K standard errors of that difference (a mean square of n
	 * Gaussian values has one of v sqrt(2 / n); the long lag's
	 * differences overlap, about n / KF_LAG of them independent): where
	 * the noise hides it (software time stamps) it is KF_Q_MIN, not the
	 * noise of its estimate.
	 */
	se = sqrt(2.0 * k->vl * k->vl / fmax(k->nl / KF_LAG, 1.0) +
	    2.0 * k->v1 * k->v1 / k->n1);
	q = 1.5 * (k->vl - k->v1 - KF_SE_K * se) /
	    (kf_cube(k->taul) - kf_cube(k->tau1));
	if (!(q >= KF_Q_MIN))
		q = KF_Q_MIN;
	wl = 2.0 / 3.0 * q * kf_cube(k->tau1);
	r = (k->v1 - wl) / 6.0;
	if (!(r >= KF_R_MIN))
		r = KF_R_MIN;
	k->r = k->fix_r > 0.0 ? k->fix_r : r;
	k->q = k->fix_q > 0.0 ? k->fix_q : q;
}

static void
kf_noise_prior(struct kf *k)
{
	k->tau1 = k->interval;
	k->taul = KF_LAG * k->interval;
	k->v1 = 6.0 * k->r0 + 2.0 / 3.0 * KF_Q0 * kf_cube(k->tau1);
	k->vl = 6.0 * k->r0 + 2.0 / 3.0 * KF_Q0 * kf_cube(k->taul);
	k->n1 = k->nl = KF_PRIOR_N;
	kf_noise(k);
}

static void
kf_hist_clear(struct kf *k)
{
	k->hn = 0;
	k->hpos = 0;
}

/* The second difference of x over lag m samples, scaled to a phase:
 * tau times the change of frequency between the two halves. */
static int
kf_diff(const struct kf *k, int m, double *dd, double *tau)
{
	int i0, i1, i2;
	double f1, f2;

	if (k->hn < 2 * m + 1)
		return -1;
	i2 = (k->hpos + KF_HIST - 1) % KF_HIST;
	i1 = (k->hpos + KF_HIST - 1 - m) % KF_HIST;
	i0 = (k->hpos + KF_HIST - 1 - 2 * m) % KF_HIST;
	if (!(k->ht[i2] > k->ht[i1] && k->ht[i1] > k->ht[i0]))
		return -1;
	f2 = (k->hx[i2] - k->hx[i1]) / (k->ht[i2] - k->ht[i1]);
	f1 = (k->hx[i1] - k->hx[i0]) / (k->ht[i1] - k->ht[i0]);
	*tau = (k->ht[i2] - k->ht[i0]) / 2.0;
	*dd = (f2 - f1) * *tau;
	return 0;
}

static void
kf_avg(double *v, double *n, double x)
{
	if (*n < KF_AVG_MAX)
		*n += 1.0;
	*v += (x - *v) / *n;
}

/* Once the data outweigh the prior, a difference beyond KF_DD_GATE of
 * its mean square is an outlier that passed the filter's gate early on. */
static int
kf_dd_ok(double v, double n, double dd)
{
	if (!isfinite(dd))
		return 0;
	return n < KF_DD_N || dd * dd <= KF_DD_GATE * KF_DD_GATE * v;
}

/* A sample the filter used: its free-running phase into the history. */
static void
kf_hist_add(struct kf *k, int64_t z, uint64_t ts)
{
	double dd, tau;

	if (k->hn == 0)
		k->t_ref = ts;
	k->hx[k->hpos] = (double)z + k->acc;
	k->ht[k->hpos] = (double)(int64_t)(ts - k->t_ref) / SERVO_NSEC_PER_SEC;
	k->hpos = (k->hpos + 1) % KF_HIST;
	if (k->hn < KF_HIST)
		k->hn++;
	if (kf_diff(k, 1, &dd, &tau) == 0 && kf_dd_ok(k->v1, k->n1, dd)) {
		kf_avg(&k->v1, &k->n1, dd * dd);
		k->tau1 += (tau - k->tau1) / k->n1;
	}
	if (kf_diff(k, KF_LAG, &dd, &tau) == 0 && kf_dd_ok(k->vl, k->nl, dd)) {
		kf_avg(&k->vl, &k->nl, dd * dd);
		k->taul += (tau - k->taul) / k->nl;
	}
	kf_noise(k);
}

/* The correction to return: the offset out by the next Sync. */
static double
kf_control(struct kf *k)
{
	k->c = servo_clamp(&k->base, k->d + k->theta / k->interval);
	return k->c;
}

/* Start the filter at offset z (ns) with the drift known to var pdd. */
static void
kf_start(struct kf *k, double z, double pdd, double pzd)
{
	k->theta = z;
	k->p00 = k->r;
	k->p01 = pzd;
	k->p11 = pdd;
	k->run = 0;
	k->since = 0.0;
	k->bias = 0.0;
	k->last_nu = 0.0;
	k->phase = KF_RUN_;
}

static int
kf_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
kf_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), kf_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/*
 * The acquisition's n samples (no correction changed among them): the
 * drift is the median of the pairwise slopes and the phase now the median
 * of the samples carried to now along it (Theil-Sen), so that one late
 * Sync moves neither.  Their variances are those of a least-squares line
 * (n equally spaced samples over span: slope 12 r (n-1) / (n (n+1)
 * span^2), end point 2 r (2n-1) / (n (n+1)), covariance 6 r (n-1) /
 * (n (n+1) span)), which for n = 2 is the two-sample slope exactly.
 */
static void
kf_line(struct kf *k, double *theta, double *slope, double *p00,
    double *pdd, double *pzd)
{
	double v[KF_ACQ_MAX * (KF_ACQ_MAX - 1) / 2], n = k->naz;
	double span = k->at[k->naz - 1] - k->at[0], end = k->at[k->naz - 1];
	int i, j, m = 0;

	for (i = 0; i < k->naz; i++)
		for (j = i + 1; j < k->naz; j++)
			if (k->at[j] > k->at[i])
				v[m++] = (k->az[j] - k->az[i]) /
				    (k->at[j] - k->at[i]);
	*slope = m > 0 ? kf_median(v, m) : 0.0;
	for (i = 0; i < k->naz; i++)
		v[i] = k->az[i] + *slope * (end - k->at[i]);
	*theta = kf_median(v, k->naz);
	*p00 = k->r * 2.0 * (2.0 * n - 1.0) / (n * (n + 1.0));
	*pdd = 12.0 * k->r * (n - 1.0) / (n * (n + 1.0) * span * span);
	*pzd = 6.0 * k->r * (n - 1.0) / (n * (n + 1.0) * span);
}

/* Samples 2..acq_n: then the drift from them, and the first decision. */
static double
kf_first(struct kf *k, int64_t z, uint64_t ts, enum servo_state *state)
{
	double dt = (double)(ts - k->t0) / SERVO_NSEC_PER_SEC;
	double slope = ((double)z - (double)k->z0) / dt;
	double theta = (double)z, p00 = k->r, pdd, pzd;

	if (k->acq_n > 2) {
		if (!(dt > k->at[k->naz - 1])) {
			*state = SERVO_UNLOCKED;
			return k->c;
		}
		k->az[k->naz] = (double)z;
		k->at[k->naz++] = dt;
		if (k->naz < k->acq_n) {
			*state = SERVO_UNLOCKED;
			return k->c;
		}
		kf_line(k, &theta, &slope, &p00, &pdd, &pzd);
	} else {
		/* d's error is the difference of two measurement errors
		 * over dt, correlated with the error of z (1.0 r / dt). */
		pdd = 2.0 * k->r / (dt * dt);
		pzd = k->r / dt;
	}
	k->acc += kf_in_force(k) * dt;
	kf_hist_add(k, z, ts);
	k->d = servo_clamp(&k->base, kf_in_force(k) + slope);
	k->have_d = 1;
	kf_start(k, theta, pdd, pzd);
	k->p00 = p00;
	k->last_ts = ts;
	if (servo_step_wanted(&k->base, fabs(theta))) {
		/* The caller steps by -z: the phase is then the line's
		 * value less z (0 for two samples). */
		k->theta = theta - (double)z;
		k->acc += (double)z;
		k->last_ts -= (uint64_t)z;
		kf_hist_clear(k);
		*state = SERVO_JUMP;
	} else {
		*state = SERVO_LOCKED;
	}
	return kf_control(k);
}

/*
 * KF_RUN or more gated innovations in a row: a frequency step of delta
 * gives innovations on a line of slope delta over t, the time since the
 * last used sample (the prediction goes on without it), growing away from
 * 0 (the line is fitted: with software time stamps the noise is a good
 * part of a 1 ppm step's innovation).
 * An offset jump gives a flat line, late time stamps anything (two late
 * Syncs in a row, one twice as late as the other, do happen: ptpsim's
 * model, seed 1048; three is what it takes).
 */
static int
kf_ramp(const double *nu, const double *t, int n, double sd, double *slope)
{
	double mt = 0.0, mn = 0.0, stt = 0.0, stn = 0.0, want;
	int i;

	for (i = 0; i < n; i++) {
		mt += t[i] / n;
		mn += nu[i] / n;
	}
	for (i = 0; i < n; i++) {
		stt += (t[i] - mt) * (t[i] - mt);
		stn += (t[i] - mt) * (nu[i] - mn);
	}
	if (!(stt > 0.0))
		return 0;
	*slope = stn / stt;
	/* growing away from the prediction, by more than the noise */
	if (!(*slope * mn > 0.0 &&
	    fabs(*slope * (t[n - 1] - t[0])) > 2.0 * sd))
		return 0;
	for (i = 0; i < n; i++) {
		want = mn + *slope * (t[i] - mt);
		if (fabs(nu[i] - want) > 0.1 * fabs(want) + 3.0 * sd)
			return 0;
	}
	return 1;
}

/*
 * The gated innovations of the run agree: the offset jumped (a new
 * master's time, a step elsewhere).  Late time stamps do not agree.
 */
static int
kf_level(const double *nu, int n, double sd)
{
	double lo = nu[0], hi = nu[0];
	int i;

	for (i = 1; i < n; i++) {
		lo = fmin(lo, nu[i]);
		hi = fmax(hi, nu[i]);
	}
	return hi - lo <= 0.25 * fmin(fabs(lo), fabs(hi)) + KF_GATE * sd;
}

/*
 * The innovations were far outside and agreed: the change is real, open
 * the covariance up to it.  An offset jump opens the phase alone (opening
 * the frequency too would swing it, and back again if the "jump" was a
 * long run of bad measurements); a run of no known shape opens the
 * frequency by what would explain it over the run.
 */
static void
kf_open(struct kf *k, double nu, double span, int level)
{
	k->p00 += nu * nu;
	if (!level)
		k->p11 += (nu / span) * (nu / span);
	k->bias = 0.0;
	/* x jumped with it: not a difference of the noise. */
	kf_hist_clear(k);
}

static double
kf_filter(struct kf *k, int64_t z, uint64_t ts, double weight,
    enum servo_state *state)
{
	double dt = (double)(ts - k->last_ts) / SERVO_NSEC_PER_SEC;
	double p00, p01, p11, q = k->q, r, s, nu, k0, k1, e, slope, span;
	int sign, level, n;

	/* Predict over dt with the correction that was in force. */
	k->since += dt;
	k->acc += kf_in_force(k) * dt;
	k->theta += (k->d - kf_in_force(k)) * dt;
	p00 = k->p00 + 2.0 * dt * k->p01 + dt * dt * k->p11 +
	    q * dt * dt * dt / 3.0;
	p01 = k->p01 + dt * k->p11 + q * dt * dt / 2.0;
	p11 = k->p11 + q * dt;
	k->last_ts = ts;

	r = k->r / (weight > 0.0 && weight <= 1.0 ? weight : 1.0);
	nu = (double)z - k->theta;
	s = p00 + r;
	sign = nu < 0.0 ? -1 : 1;
	if (fabs(nu) > KF_GATE * sqrt(s) && fabs(nu) > KF_GATE_MIN) {
		if (k->run == 0 || sign != k->run_sign)
			k->run = 0;
		k->run++;
		k->run_sign = sign;
		k->run_nu[k->run - 1] = nu;
		k->run_t[k->run - 1] = k->since;
		span = k->since - k->run_t[0];
		if (k->run >= KF_RUN && span >= KF_RUN_S &&
		    kf_ramp(k->run_nu, k->run_t, k->run, sqrt(s), &slope)) {
			/* A frequency step: the innovations give it (the
			 * slope of n points over span: 12 r / (n span^2)). */
			n = k->run;
			k->run = 0;
			k->d += slope;
			k->since = 0.0;
			kf_start(k, (double)z, p11 + 12.0 * r / (n * span *
			    span), 0.0);
			kf_hist_clear(k);
			kf_hist_add(k, z, ts);
			*state = SERVO_LOCKED;
			return kf_control(k);
		}
		level = k->run >= KF_LEVEL && span >= KF_LEVEL_S &&
		    kf_level(k->run_nu, k->run, sqrt(s));
		if (!level && k->run < KF_RUN_CAP &&
		    (k->run < KF_RUN_MAX || span < KF_RUN_MAX_S)) {
			/* Not used: the prediction stands. */
			k->base.outlier = 1;
			k->p00 = p00;
			k->p01 = p01;
			k->p11 = p11;
			k->gated++;
			*state = SERVO_LOCKED;
			return kf_control(k);
		}
		k->run = 0;
		/* Persistent: beyond step_threshold it is stepped away. */
		if (servo_step_wanted(&k->base, fabs((double)z))) {
			kf_start(k, 0.0, p11 + (nu / dt) * (nu / dt), 0.0);
			k->acc += (double)z;
			k->last_ts -= (uint64_t)z;
			kf_hist_clear(k);
			*state = SERVO_JUMP;
			return kf_control(k);
		}
		k->p00 = p00;
		k->p01 = p01;
		k->p11 = p11;
		kf_open(k, nu, k->since, level);
		p00 = k->p00;
		p11 = k->p11;
		s = p00 + r;
	} else {
		k->run = 0;
	}

	/* A bias of the innovations: something moved under the gate.  If
	 * this innovation differs from the last one as much as it is large,
	 * it is taken as a frequency change since the last sample (the
	 * covariance opened so that the update takes it: a 1 ppm step seen
	 * at once with hw stamps); if the last were alike, as an offset
	 * jump (the phase opened: a new master's time under the gate with
	 * sw stamps, which read as a frequency would overshoot). */
	e = nu / sqrt(s);
	k->bias += (e - k->bias) / KF_BIAS_AVG;
	if (fabs(k->bias) > KF_BIAS) {
		double w = (nu / dt) * (nu / dt);

		if (fabs(nu - k->last_nu) > 0.5 * fabs(nu)) {
			p11 += w;
			p01 += dt * w;
			p00 += dt * dt * w;
		} else {
			p00 += nu * nu;
		}
		s = p00 + r;
		k->bias = 0.0;
	}
	k->last_nu = nu;

	k0 = p00 / s;
	k1 = p01 / s;
	k->theta += k0 * nu;
	k->d += k1 * nu;
	k->p00 = (1.0 - k0) * p00;
	k->p01 = (1.0 - k0) * p01;
	k->p11 = p11 - k1 * p01;
	kf_hist_add(k, z, ts);
	k->since = 0.0;
	*state = SERVO_LOCKED;
	return kf_control(k);
}

/*
 * After a reset the frequency is held at the drift, so the offsets stay
 * where they are; the median of KF_RESUME_N of them starts the phase (the
 * first offset alone would let a late Sync move the clock by tens of us).
 * A step only if step_threshold asks for it, by this offset, as always.
 */
static double
kf_resume(struct kf *k, int64_t z, uint64_t ts, enum servo_state *state)
{
	double dt = (double)(ts - k->last_ts) / SERVO_NSEC_PER_SEC;
	double v[KF_RESUME_N], med;

	k->acc += kf_in_force(k) * dt;
	k->last_ts = ts;
	k->rz[k->nrz++] = (double)z;
	*state = SERVO_LOCKED;
	if (k->nrz < KF_RESUME_N)
		return k->c;
	memcpy(v, k->rz, sizeof(v));
	qsort(v, KF_RESUME_N, sizeof(v[0]), kf_cmp);
	med = v[KF_RESUME_N / 2];
	kf_start(k, med, k->p11 + k->q * KF_RESUME_N * k->interval, 0.0);
	kf_hist_clear(k);
	kf_hist_add(k, z, ts);
	if (servo_step_wanted(&k->base, fabs(med))) {
		k->theta = med - (double)z;
		k->acc += (double)z;
		k->last_ts -= (uint64_t)z;
		kf_hist_clear(k);
		*state = SERVO_JUMP;
	}
	return kf_control(k);
}

static double
kf_sample(struct servo *s, int64_t offset, uint64_t local_ts, double weight,
    enum servo_state *state)
{
	struct kf *k = to_kf(s);
	double f;

	if (k->phase != KF_EMPTY && local_ts <= k->last_ts) {
		/* Time went back (the clock was stepped under us). */
		k->phase = KF_EMPTY;
	}
	switch (k->phase) {
	case KF_EMPTY:
		k->z0 = offset;
		k->t0 = local_ts;
		k->last_ts = local_ts;
		kf_hist_clear(k);
		kf_hist_add(k, offset, local_ts);
		if (k->have_d && !s->first_update) {
			/* After a reset (new master): the drift is known;
			 * hold it while KF_RESUME_N offsets come in. */
			k->c = servo_clamp(s, k->d);
			k->rz[0] = (double)offset;
			k->nrz = 1;
			k->phase = KF_RESUME;
			*state = SERVO_LOCKED;
			return k->c;
		}
		k->az[0] = (double)offset;
		k->at[0] = 0.0;
		k->naz = 1;
		k->phase = KF_ONE;
		*state = SERVO_UNLOCKED;
		return k->c;
	case KF_ONE:
		return kf_first(k, offset, local_ts, state);
	case KF_RESUME:
		return kf_resume(k, offset, local_ts, state);
	default:
		break;
	}
	f = kf_filter(k, offset, local_ts, weight, state);
	if (!isfinite(f) || !isfinite(k->p00) || !isfinite(k->p11)) {
		/* Offsets of no physical clock: start over, keep nothing. */
		k->have_d = 0;
		k->d = 0.0;
		k->c = 0.0;
		k->phase = KF_EMPTY;
		kf_noise_prior(k);
		*state = SERVO_UNLOCKED;
		return 0.0;
	}
	return f;
}

static void
kf_sync_interval(struct servo *s, double interval)
{
	struct kf *k = to_kf(s);
	int fresh = k->interval == 0.0;

	k->interval = interval;
	if (fresh)
		kf_noise_prior(k);
}

static void
kf_reset(struct servo *s)
{
	struct kf *k = to_kf(s);

	/* The drift and the noise estimates are kept. */
	k->phase = KF_EMPTY;
	k->run = 0;
}

static const struct servo_ops kf_ops = {
	.destroy = kf_destroy,
	.sample = kf_sample,
	.sync_interval = kf_sync_interval,
	.reset = kf_reset,
	.rate_ratio = NULL,
};

struct servo *
kf_create(double init_freq, int sw_ts, double r, double q)
{
	struct kf *k;

	k = calloc(1, sizeof(*k));
	if (k == NULL)
		return NULL;
	k->base.ops = &kf_ops;
	k->c = init_freq;
	k->d = init_freq;
	k->r0 = sw_ts ? KF_SW_R0 : KF_HW_R0;
	k->acq_n = sw_ts ? KF_ACQ_SW : KF_ACQ_HW;
	k->r = k->r0;
	k->q = KF_Q_MIN;
	k->fix_r = r;
	k->fix_q = q;
	if (r > 0.0)
		k->r = k->r0 = r;
	if (q > 0.0)
		k->q = q;
	k->phase = KF_EMPTY;
	return &k->base;
}

void
kf_get_noise(const struct servo *s, double *r, double *q)
{
	const struct kf *k = servo_container_of(s, const struct kf, base);

	*r = k->r;
	*q = k->q;
}
