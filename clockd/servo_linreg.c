/*
 * servo_linreg.c - the adaptive linear-regression servo, ptp4l's "linreg".
 *
 * Same behaviour as linuxptp's linreg.c:
 *  - Each sample is a point (x, y): x the local time as the clock would
 *    read without any frequency correction (free-running time), y the
 *    master's time (corrected local time minus the offset).  Both are kept
 *    relative to a moving reference (the latest sample's time).
 *  - Regressions over the newest 4, 8, 16, 32 and 64 points.  Each keeps an
 *    average of how far its previous line missed the newest point (the
 *    plain mean over its first 10 updates, then an exponential average
 *    with factor 0.02).  The largest size whose error is within 5 % of
 *    the smallest wins.
 *  - frequency = (slope - 1) * 1e9 + intercept / (T * c) ppb, c = 1 for
 *    up to 16 points and size / 2 above (a gentler correction when the
 *    line is long); clamped to +-max_frequency.
 *  - The step rule (servo_step_wanted()) looks at |intercept| rather than
 *    at the raw offset; a step moves the reference by the offset so the
 *    history stays valid.  Fewer than 4 points: UNLOCKED.
 *  - rate_ratio = slope / (1 + frequency): master over local frequency,
 *    which the E2E delay arithmetic may use (ptp4l's tsproc does).
 * Leap seconds (ptp4l's linreg_leap) are not handled yet.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "servo_private.h"

#define LR_MIN_ORDER	2	/* 4 points */
#define LR_MAX_ORDER	6	/* 64 points */
#define LR_MAX_POINTS	(1u << LR_MAX_ORDER)
#define LR_NSIZES	(LR_MAX_ORDER - LR_MIN_ORDER + 1)
#define LR_ERR_SMOOTH	0.02	/* exponential average of the error */
#define LR_ERR_INITIAL	10	/* updates of plain mean before that */
#define LR_ERR_EQUALS	1.05	/* errors within 5 % are "equal" */

struct lr_point {
	uint64_t x;	/* free-running local time, ns */
	uint64_t y;	/* master time, ns */
};

struct lr_fit {
	double slope;		/* 0.0: no fit yet */
	double intercept;	/* y at the reference, ns */
	double err;		/* average prediction error, ns */
	int err_updates;
};

struct linreg {
	struct servo base;
	struct lr_point points[LR_MAX_POINTS];	/* ring */
	unsigned int num_points;
	unsigned int last_point;		/* index of the newest */
	struct lr_point reference;		/* "now" in x and y */
	double x_remainder;			/* sub-ns of reference.x */
	uint64_t last_update;			/* local time of last sample */
	struct lr_fit fits[LR_NSIZES];
	double clock_freq;	/* clock sign: what the clock is set to */
	double update_interval;	/* s */
	double frequency_ratio;
};

static struct linreg *
to_lr(struct servo *s)
{
	return servo_container_of(s, struct linreg, base);
}

static void
lr_destroy(struct servo *s)
{
	free(to_lr(s));
}

static void
lr_move_reference(struct linreg *l, int64_t dx, int64_t dy)
{
	unsigned int i;

	l->reference.x += (uint64_t)dx;
	l->reference.y += (uint64_t)dy;
	/* Keep every line's intercept relative to the new reference. */
	for (i = 0; i < LR_NSIZES; i++)
		l->fits[i].intercept += (double)dx * l->fits[i].slope -
		    (double)dy;
}

static void
lr_update_reference(struct linreg *l, uint64_t local_ts)
{
	int64_t dy;
	double dx;

	if (l->last_update != 0) {
		dy = (int64_t)(local_ts - l->last_update);
		/* The free-running clock advanced less by our correction. */
		dx = (double)dy / (1.0 + l->clock_freq / SERVO_NSEC_PER_SEC);
		dx += l->x_remainder;
		l->x_remainder = dx - (double)(int64_t)dx;
		lr_move_reference(l, (int64_t)dx, dy);
	}
	l->last_update = local_ts;
}

static void
lr_add_point(struct linreg *l, int64_t offset)
{
	l->last_point = (l->last_point + 1) % LR_MAX_POINTS;
	l->points[l->last_point].x = l->reference.x;
	l->points[l->last_point].y = l->reference.y - (uint64_t)offset;
	if (l->num_points < LR_MAX_POINTS)
		l->num_points++;
}

/* Fits every size that has enough points; sums grow with the size. */
static void
lr_regress(struct linreg *l)
{
	double x, y, y0, e, sx = 0.0, sy = 0.0, sxy = 0.0, sxx = 0.0;
	unsigned int i = 0, k, n, order;
	struct lr_fit *f;

	y0 = (double)(int64_t)(l->points[l->last_point].y - l->reference.y);
	for (order = LR_MIN_ORDER; order <= LR_MAX_ORDER; order++) {
		n = 1u << order;
		if (n > l->num_points)
			break;
		f = &l->fits[order - LR_MIN_ORDER];

		/* How far the previous line missed the new point. */
		if (f->slope != 0.0) {
			e = fabs(f->intercept - y0);
			if (f->err_updates < LR_ERR_INITIAL) {
				f->err = (f->err * f->err_updates + e) /
				    (f->err_updates + 1);
				f->err_updates++;
			} else {
				f->err += LR_ERR_SMOOTH * (e - f->err);
			}
		}

		for (; i < n; i++) {
			k = (LR_MAX_POINTS + l->last_point - i) % LR_MAX_POINTS;
			x = (double)(int64_t)(l->points[k].x - l->reference.x);
			y = (double)(int64_t)(l->points[k].y - l->reference.y);
			sx += x;
			sy += y;
			sxy += x * y;
			sxx += x * x;
		}
		f->slope = (sxy - sx * sy / n) / (sxx - sx * sx / n);
		f->intercept = (sy - f->slope * sx) / n;
	}
}

/* The largest order whose error is no worse than the best; 0: none. */
static unsigned int
lr_best_order(const struct linreg *l)
{
	unsigned int order, best = 0;
	const struct lr_fit *f;
	double best_err = 0.0;

	for (order = LR_MIN_ORDER; order <= LR_MAX_ORDER; order++) {
		f = &l->fits[order - LR_MIN_ORDER];
		if ((best == 0 && f->slope != 0.0) ||
		    (best_err * LR_ERR_EQUALS > f->err &&
		    f->err_updates >= LR_ERR_INITIAL)) {
			best = order;
			best_err = f->err;
		}
	}
	return best;
}

static double
lr_sample(struct servo *s, int64_t offset, uint64_t local_ts, double weight,
    enum servo_state *state)
{
	struct linreg *l = to_lr(s);
	const struct lr_fit *f;
	unsigned int order, corr;

	(void)weight;	/* as in ptp4l: linreg does not weight samples */
	/* The frequency set now is taken to apply from local_ts on; fine
	 * while the processing delay is short against the interval. */
	lr_update_reference(l, local_ts);
	lr_add_point(l, offset);
	lr_regress(l);

	order = lr_best_order(l);
	if (order < LR_MIN_ORDER) {
		*state = SERVO_UNLOCKED;
		return -l->clock_freq;
	}
	f = &l->fits[order - LR_MIN_ORDER];

	if (servo_step_wanted(s, fabs(f->intercept))) {
		/* The caller steps by -offset: move the history with it. */
		lr_move_reference(l, 0, -offset);
		l->last_update -= (uint64_t)offset;
		*state = SERVO_JUMP;
	} else {
		*state = SERVO_LOCKED;
	}

	l->clock_freq = SERVO_NSEC_PER_SEC * (f->slope - 1.0);
	corr = order <= 4 ? 1 : order / 2;
	l->clock_freq += f->intercept / l->update_interval / corr;
	l->clock_freq = servo_clamp(s, l->clock_freq);
	l->frequency_ratio = f->slope /
	    (1.0 + l->clock_freq / SERVO_NSEC_PER_SEC);
	return -l->clock_freq;
}

static void
lr_sync_interval(struct servo *s, double interval)
{
	to_lr(s)->update_interval = interval;
}

static void
lr_reset(struct servo *s)
{
	struct linreg *l = to_lr(s);
	unsigned int i;

	l->num_points = 0;
	l->last_update = 0;
	l->frequency_ratio = 1.0;
	for (i = 0; i < LR_NSIZES; i++) {
		l->fits[i].slope = 0.0;
		l->fits[i].err_updates = 0;
	}
}

static double
lr_rate_ratio(struct servo *s)
{
	return to_lr(s)->frequency_ratio;
}

static const struct servo_ops linreg_ops = {
	.destroy = lr_destroy,
	.sample = lr_sample,
	.sync_interval = lr_sync_interval,
	.reset = lr_reset,
	.rate_ratio = lr_rate_ratio,
};

struct servo *
linreg_create(double init_freq)
{
	struct linreg *l;

	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return NULL;
	l->base.ops = &linreg_ops;
	l->clock_freq = -init_freq;	/* internal sign -> clock sign */
	l->frequency_ratio = 1.0;
	l->update_interval = 1.0;
	return &l->base;
}
