/*
 * servo_private.h - what servo.c shares with the servo implementations.
 *
 * Inside the servos frequencies have ptp4l's sign: the correction to take
 * away from the clock (positive when the slave runs fast).  servo.c negates
 * at the API boundary (servo.h).
 */
#ifndef PTPSEP_SERVO_PRIVATE_H
#define PTPSEP_SERVO_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "servo.h"

#define SERVO_NSEC_PER_SEC	1e9

#define servo_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

struct servo_ops {
	void (*destroy)(struct servo *s);
	/* Returns the internal-sign frequency, sets *state UNLOCKED, JUMP
	 * or LOCKED. */
	double (*sample)(struct servo *s, int64_t offset, uint64_t local_ts,
	    double weight, enum servo_state *state);
	void (*sync_interval)(struct servo *s, double interval);
	void (*reset)(struct servo *s);
	double (*rate_ratio)(struct servo *s);	/* NULL: 1.0 */
};

struct servo {
	const struct servo_ops *ops;
	enum servo_type type;
	double max_frequency;		/* ppb, the clamp */
	double step_threshold;		/* ns, 0: off */
	double first_step_threshold;	/* ns, 0: off */
	int first_update;		/* no JUMP or LOCKED yet */
	int64_t offset_threshold;	/* ns, 0: no LOCKED_STABLE */
	int num_offset_values;
	int curr_offset_values;
	int outlier;			/* the last sample was not used */
	/* servo_applied(): internal sign, for the next sample only */
	int have_applied;
	double applied;
};

/*
 * The step rule of ptp4l's servos: step if this is the first update and
 * |offset| is above first_step_threshold, or at any time above
 * step_threshold (a threshold of 0 is off).
 */
int servo_step_wanted(const struct servo *s, double abs_offset);
/* v limited to +-max_frequency. */
double servo_clamp(const struct servo *s, double v);

/* The implementations' constructors; init_freq has the internal sign. */
struct servo *pi_create(const struct servo_pi_params *pp, double init_freq,
    int sw_ts);
struct servo *linreg_create(double init_freq);
struct servo *kf_create(double init_freq, int sw_ts, double r, double q);
void kf_get_noise(const struct servo *s, double *r, double *q);
void pi_get_gains(const struct servo *s, double *kp, double *ki);

#endif /* PTPSEP_SERVO_PRIVATE_H */
