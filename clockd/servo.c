/*
 * servo.c - the servo factory and what every servo shares: the step rule,
 * the frequency clamp, the "locked stable" test, the sign convention.
 *
 * Behaviour follows linuxptp's servo.c (ptp4l 3.1): thresholds in seconds
 * from the configuration become ns, a step threshold of 0 is off, the
 * frequency clamp is the clock's limit lowered to max_frequency, and
 * LOCKED_STABLE means num_offset_values consecutive offsets below
 * offset_threshold.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "servo.h"
#include "servo_private.h"

void
servo_params_default(struct servo_params *p, int sw_ts)
{
	*p = (struct servo_params){
		.clock_max_freq_ppb = 500000.0,
		.max_frequency = 900000000.0,
		.step_threshold = 0.0,
		.first_step_threshold = 0.00002,
		.init_freq_ppb = 0.0,
		.sync_interval = 1.0,
		.sw_ts = sw_ts,
		.offset_threshold = 0,
		.num_offset_values = 10,
		.pi = {
			.kp = 0.0,
			.ki = 0.0,
			.kp_scale = 0.0,
			.kp_exponent = -0.3,
			.kp_norm_max = 0.7,
			.ki_scale = 0.0,
			.ki_exponent = 0.4,
			.ki_norm_max = 0.3,
		},
	};
}

static int
params_valid(const struct servo_params *p)
{
	const struct servo_pi_params *pi = &p->pi;

	/* isfinite() and >= 0 together also refuse NaN. */
	if (!(isfinite(p->clock_max_freq_ppb) && p->clock_max_freq_ppb >= 0.0))
		return 0;
	if (!(isfinite(p->max_frequency) && p->max_frequency >= 0.0))
		return 0;
	if (!(p->step_threshold >= 0.0 && p->first_step_threshold >= 0.0))
		return 0;
	if (!(isfinite(p->init_freq_ppb) && isfinite(p->sync_interval) &&
	    p->sync_interval > 0.0))
		return 0;
	if (p->offset_threshold < 0 || p->num_offset_values < 0)
		return 0;
	if (!(isfinite(p->kalman_r) && p->kalman_r >= 0.0 &&
	    isfinite(p->kalman_q) && p->kalman_q >= 0.0))
		return 0;
	if (!(pi->kp >= 0.0 && pi->ki >= 0.0 && pi->kp_scale >= 0.0 &&
	    pi->ki_scale >= 0.0 && pi->kp_norm_max > 0.0 &&
	    pi->ki_norm_max > 0.0 && isfinite(pi->kp_exponent) &&
	    isfinite(pi->ki_exponent)))
		return 0;
	return 1;
}

struct servo *
servo_create(enum servo_type type, const struct servo_params *p)
{
	struct servo *s;
	double init;

	if (p == NULL || !params_valid(p)) {
		errno = EINVAL;
		return NULL;
	}
	/* The servos keep ptp4l's sign: the correction, not the frequency. */
	init = -p->init_freq_ppb;
	switch (type) {
	case SERVO_PI:
		s = pi_create(&p->pi, init, p->sw_ts);
		break;
	case SERVO_LINREG:
		s = linreg_create(init);
		break;
	case SERVO_KALMAN:
		s = kf_create(init, p->sw_ts, p->kalman_r, p->kalman_q);
		break;
	default:
		errno = EINVAL;
		return NULL;
	}
	if (s == NULL)
		return NULL;

	s->type = type;
	s->step_threshold = p->step_threshold > 0.0 ?
	    p->step_threshold * SERVO_NSEC_PER_SEC : 0.0;
	s->first_step_threshold = p->first_step_threshold > 0.0 ?
	    p->first_step_threshold * SERVO_NSEC_PER_SEC : 0.0;
	s->max_frequency = p->clock_max_freq_ppb;
	if (p->max_frequency > 0.0 && s->max_frequency > p->max_frequency)
		s->max_frequency = p->max_frequency;
	s->first_update = 1;
	s->offset_threshold = p->offset_threshold;
	s->num_offset_values = p->num_offset_values;
	s->curr_offset_values = p->num_offset_values;
	s->ops->sync_interval(s, p->sync_interval);
	return s;
}

void
servo_destroy(struct servo *s)
{
	if (s != NULL)
		s->ops->destroy(s);
}

int
servo_step_wanted(const struct servo *s, double abs_offset)
{
	if (s->first_update && s->first_step_threshold > 0.0 &&
	    s->first_step_threshold < abs_offset)
		return 1;
	if (s->step_threshold > 0.0 && s->step_threshold < abs_offset)
		return 1;
	return 0;
}

double
servo_clamp(const struct servo *s, double v)
{
	if (v < -s->max_frequency)
		return -s->max_frequency;
	if (v > s->max_frequency)
		return s->max_frequency;
	return v;
}

/* 1 once num_offset_values offsets in a row were below the threshold. */
static int
offset_stable(struct servo *s, int64_t offset)
{
	uint64_t mag;

	if (s->offset_threshold == 0)
		return 0;
	mag = offset < 0 ? -(uint64_t)offset : (uint64_t)offset;
	if (mag < (uint64_t)s->offset_threshold) {
		if (s->curr_offset_values > 0)
			s->curr_offset_values--;
	} else {
		s->curr_offset_values = s->num_offset_values;
	}
	return s->curr_offset_values == 0;
}

double
servo_sample(struct servo *s, int64_t offset_ns, uint64_t local_ts_ns,
    double weight, enum servo_state *state)
{
	double r;

	if (offset_ns == INT64_MIN)	/* keep -offset defined */
		offset_ns = -INT64_MAX;
	s->outlier = 0;
	r = s->ops->sample(s, offset_ns, local_ts_ns, weight, state);
	s->have_applied = 0;
	switch (*state) {
	case SERVO_UNLOCKED:
		s->curr_offset_values = s->num_offset_values;
		break;
	case SERVO_JUMP:
		s->curr_offset_values = s->num_offset_values;
		s->first_update = 0;
		break;
	case SERVO_LOCKED:
		if (offset_stable(s, offset_ns))
			*state = SERVO_LOCKED_STABLE;
		s->first_update = 0;
		break;
	case SERVO_LOCKED_STABLE:
		/* The implementations never return it. */
		break;
	}
	/* Internal sign to the clock's (servo.h). */
	return -r;
}

void
servo_sync_interval(struct servo *s, double interval)
{
	if (!(isfinite(interval) && interval > 0.0))
		return;
	s->ops->sync_interval(s, interval);
}

void
servo_reset(struct servo *s)
{
	s->have_applied = 0;
	s->ops->reset(s);
}

void
servo_applied(struct servo *s, double freq_ppb)
{
	if (!isfinite(freq_ppb))
		return;
	s->applied = -freq_ppb;
	s->have_applied = 1;
}

double
servo_rate_ratio(struct servo *s)
{
	return s->ops->rate_ratio != NULL ? s->ops->rate_ratio(s) : 1.0;
}

double
servo_max_frequency(const struct servo *s)
{
	return s->max_frequency;
}

int64_t
servo_offset_threshold(const struct servo *s)
{
	return s->offset_threshold;
}

enum servo_type
servo_get_type(const struct servo *s)
{
	return s->type;
}

void
servo_pi_gains(const struct servo *s, double *kp, double *ki)
{
	if (s->type == SERVO_PI) {
		pi_get_gains(s, kp, ki);
	} else {
		*kp = 0.0;
		*ki = 0.0;
	}
}

int
servo_last_outlier(const struct servo *s)
{
	return s->outlier;
}

void
servo_kalman_noise(const struct servo *s, double *r, double *q)
{
	if (s->type == SERVO_KALMAN) {
		kf_get_noise(s, r, q);
	} else {
		*r = 0.0;
		*q = 0.0;
	}
}

const char *
servo_state_name(enum servo_state st)
{
	switch (st) {
	case SERVO_UNLOCKED:
		return "unlocked";
	case SERVO_JUMP:
		return "jump";
	case SERVO_LOCKED:
	case SERVO_LOCKED_STABLE:
		return "locked";
	}
	return "unknown";
}

const char *
servo_type_name(enum servo_type t)
{
	switch (t) {
	case SERVO_PI:
		return "pi";
	case SERVO_LINREG:
		return "linreg";
	case SERVO_KALMAN:
		return "kalman";
	}
	return NULL;
}
