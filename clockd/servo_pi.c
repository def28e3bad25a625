/*
 * servo_pi.c - the proportional-integral servo, ptp4l's "pi".
 *
 * Same behaviour and constants as linuxptp's pi.c:
 *  - Sample 1 is kept.  Sample 2 comes at least min(0.016 / ki, 1000) s
 *    later (plus a 0.1 % margin); until then every sample only replaces
 *    sample 2 and the state stays UNLOCKED.  The frequency error is then
 *    the slope of the offsets, added to the starting frequency, and the
 *    servo returns JUMP or LOCKED (servo_step_wanted()).
 *    One difference from ptp4l: the slope is a robust fit of the offsets
 *    of the wait (16 with software time stamps at 1 s), the median of the
 *    slopes of all pairs of them (Theil-Sen), not the line through the
 *    first and the last.  With software time stamps one late Sync (tens of
 *    us, seen on a busy host) at an end of the line, or anywhere in a
 *    least-squares fit, puts up to a ppm into the estimate, which the slow
 *    software integral (ki 0.001) then takes minutes to work off; the
 *    median of pairwise slopes ignores up to ~29 % of such samples.
 *  - Then each sample gives  freq = kp * offset + ki * offset + drift,
 *    where drift, the integral, takes the ki term only while freq is not
 *    clamped (anti-windup).  An offset above step_threshold starts over
 *    at sample 1 (the step then comes from sample 2's decision).
 *  - kp and ki derive from the sync interval T unless both constants are
 *    configured:  kp = min(kp_scale * T^kp_exponent, kp_norm_max / T),
 *    likewise ki; scales 0.7 / 0.3 with hardware, 0.1 / 0.001 with
 *    software time stamps; exponents -0.3 / 0.4, norm_max 0.7 / 0.3.
 *    Configured constants are used as they are, capped at 1.0 / T and
 *    2.0 / T so the loop cannot go unstable.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "ptp_time.h"
#include "servo_private.h"

#define PI_HWTS_KP_SCALE	0.7
#define PI_HWTS_KI_SCALE	0.3
#define PI_SWTS_KP_SCALE	0.1
#define PI_SWTS_KI_SCALE	0.001
#define PI_MAX_KP_NORM_MAX	1.0
#define PI_MAX_KI_NORM_MAX	2.0
/* Wait at least this long (s * ki) before estimating the frequency, and
 * never more than PI_FREQ_EST_MAX seconds. */
#define PI_FREQ_EST_KI		0.016
#define PI_FREQ_EST_MAX		1000.0
#define PI_FREQ_EST_MARGIN	0.001
/* Points kept for the robust frequency fit (pairs: n(n-1)/2 slopes). */
#define PI_FIT_POINTS		48

struct pi {
	struct servo base;
	int64_t offset[2];
	uint64_t local[2];
	int count;		/* samples taken towards the estimate, 0..2 */
	/* points of the wait for the fit; when full, every other one is
	 * dropped and only every stride-th sample is kept from then on */
	uint64_t pt_t[PI_FIT_POINTS];
	int64_t pt_o[PI_FIT_POINTS];
	int npts, stride, skip;
	double drift;		/* integral term, ppb (internal sign) */
	double last_freq;
	double kp, ki;
	/* the gains' laws, from the configuration */
	double kp_scale, kp_exponent, kp_norm_max;
	double ki_scale, ki_exponent, ki_norm_max;
};

static struct pi *
to_pi(struct servo *s)
{
	return servo_container_of(s, struct pi, base);
}

static void
pi_destroy(struct servo *s)
{
	free(to_pi(s));
}

static void
pi_fit_add(struct pi *p, int64_t offset, uint64_t local_ts)
{
	int i;

	if (p->skip++ % p->stride != 0)
		return;
	if (p->npts == PI_FIT_POINTS) {
		for (i = 0; i < PI_FIT_POINTS / 2; i++) {
			p->pt_t[i] = p->pt_t[2 * i];
			p->pt_o[i] = p->pt_o[2 * i];
		}
		p->npts = PI_FIT_POINTS / 2;
		p->stride *= 2;
	}
	p->pt_t[p->npts] = local_ts;
	p->pt_o[p->npts] = offset;
	p->npts++;
}

/* a - b as a double: exact when it fits int64, and defined when it does
 * not (offsets come from the network; int64 subtraction may overflow). */
static double
pi_diff(int64_t a, int64_t b)
{
	int64_t d;

	if (ptp_ns_sub(a, b, &d) == 0)
		return (double)d;
	return (double)a - (double)b;
}

static int
pi_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Theil-Sen: the median of the slopes (ns of offset per ns) of all pairs. */
static int
pi_fit_slope(const struct pi *p, double *slope)
{
	double v[PI_FIT_POINTS * (PI_FIT_POINTS - 1) / 2];
	size_t n = 0;
	int i, j;

	for (i = 0; i < p->npts; i++)
		for (j = i + 1; j < p->npts; j++)
			if (p->pt_t[j] > p->pt_t[i])
				v[n++] = pi_diff(p->pt_o[j], p->pt_o[i]) /
				    (double)(p->pt_t[j] - p->pt_t[i]);
	if (p->npts < 3 || n == 0)
		return -1;
	qsort(v, n, sizeof(v[0]), pi_cmp_double);
	*slope = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return 0;
}

/* Sample 2: estimate the frequency from the wait's offsets, decide the step. */
static double
pi_estimate(struct pi *p, int64_t offset, uint64_t local_ts,
    enum servo_state *state)
{
	double span, wait, slope;

	double fit;

	p->offset[1] = offset;
	p->local[1] = local_ts;
	if (p->local[0] < p->local[1])
		pi_fit_add(p, offset, local_ts);
	if (p->local[0] >= p->local[1]) {
		/* Time went back (clock stepped under us): start over. */
		p->count = 0;
		*state = SERVO_UNLOCKED;
		return p->last_freq;
	}
	span = (double)(p->local[1] - p->local[0]) / SERVO_NSEC_PER_SEC;
	span += span * PI_FREQ_EST_MARGIN;
	wait = PI_FREQ_EST_KI / p->ki;	/* ki 0: +inf, capped below */
	if (wait > PI_FREQ_EST_MAX)
		wait = PI_FREQ_EST_MAX;
	if (span < wait) {
		*state = SERVO_UNLOCKED;
		return p->last_freq;
	}

	/* Drift of the offset per ns of local time, as seen by a clock
	 * already running at -drift ppb. */
	slope = pi_diff(p->offset[1], p->offset[0]) /
	    (double)(p->local[1] - p->local[0]);
	/* The robust fit over the wait; needs 3 points. */
	if (pi_fit_slope(p, &fit) == 0)
		slope = fit;
	p->drift += (SERVO_NSEC_PER_SEC - p->drift) * slope;
	p->drift = servo_clamp(&p->base, p->drift);

	*state = servo_step_wanted(&p->base, fabs((double)offset)) ?
	    SERVO_JUMP : SERVO_LOCKED;
	p->count = 2;
	return p->drift;
}

static double
pi_sample(struct servo *s, int64_t offset, uint64_t local_ts, double weight,
    enum servo_state *state)
{
	struct pi *p = to_pi(s);
	double freq = p->last_freq, ki_term;

	switch (p->count) {
	case 0:
		p->offset[0] = offset;
		p->local[0] = local_ts;
		p->count = 1;
		p->npts = 0;
		p->stride = 1;
		p->skip = 0;
		pi_fit_add(p, offset, local_ts);
		*state = SERVO_UNLOCKED;
		break;
	case 1:
		freq = pi_estimate(p, offset, local_ts, state);
		break;
	default:
		/* Far off again: measure the frequency anew; the step, if
		 * any, comes with the estimate. */
		if (s->step_threshold > 0.0 &&
		    s->step_threshold < fabs((double)offset)) {
			p->count = 0;
			*state = SERVO_UNLOCKED;
			break;
		}
		ki_term = p->ki * (double)offset * weight;
		freq = p->kp * (double)offset * weight + p->drift + ki_term;
		if (freq < -s->max_frequency)
			freq = -s->max_frequency;
		else if (freq > s->max_frequency)
			freq = s->max_frequency;
		else
			p->drift += ki_term;	/* no windup when clamped */
		*state = SERVO_LOCKED;
		break;
	}
	p->last_freq = freq;
	return freq;
}

static void
pi_sync_interval(struct servo *s, double interval)
{
	struct pi *p = to_pi(s);

	p->kp = p->kp_scale * pow(interval, p->kp_exponent);
	if (p->kp > p->kp_norm_max / interval)
		p->kp = p->kp_norm_max / interval;
	p->ki = p->ki_scale * pow(interval, p->ki_exponent);
	if (p->ki > p->ki_norm_max / interval)
		p->ki = p->ki_norm_max / interval;
}

static void
pi_reset(struct servo *s)
{
	/* The drift (frequency) is kept, as in ptp4l. */
	to_pi(s)->count = 0;
}

static const struct servo_ops pi_ops = {
	.destroy = pi_destroy,
	.sample = pi_sample,
	.sync_interval = pi_sync_interval,
	.reset = pi_reset,
	.rate_ratio = NULL,
};

struct servo *
pi_create(const struct servo_pi_params *pp, double init_freq, int sw_ts)
{
	struct pi *p;

	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return NULL;
	p->base.ops = &pi_ops;
	p->drift = init_freq;
	p->last_freq = init_freq;
	p->kp_scale = pp->kp_scale;
	p->kp_exponent = pp->kp_exponent;
	p->kp_norm_max = pp->kp_norm_max;
	p->ki_scale = pp->ki_scale;
	p->ki_exponent = pp->ki_exponent;
	p->ki_norm_max = pp->ki_norm_max;

	if (pp->kp > 0.0 && pp->ki > 0.0) {
		/* Fixed constants, whatever the interval, unless unstable. */
		p->kp_scale = pp->kp;
		p->ki_scale = pp->ki;
		p->kp_exponent = 0.0;
		p->ki_exponent = 0.0;
		p->kp_norm_max = PI_MAX_KP_NORM_MAX;
		p->ki_norm_max = PI_MAX_KI_NORM_MAX;
	} else if (p->kp_scale == 0.0 || p->ki_scale == 0.0) {
		p->kp_scale = sw_ts ? PI_SWTS_KP_SCALE : PI_HWTS_KP_SCALE;
		p->ki_scale = sw_ts ? PI_SWTS_KI_SCALE : PI_HWTS_KI_SCALE;
	}
	return &p->base;
}

void
pi_get_gains(const struct servo *s, double *kp, double *ki)
{
	const struct pi *p = servo_container_of(s, const struct pi, base);

	*kp = p->kp;
	*ki = p->ki;
}
