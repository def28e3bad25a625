/*
 * servo.h - clock servos of ptp-clockd behind one ops struct.
 *
 * A servo turns a series of offsets from the master (offsetFromMaster,
 * IEEE 1588-2019 11.2, in ns: slave time minus master time) into the
 * frequency the local clock should run at, and says when the clock should
 * rather be stepped.  Two servos with the behaviour and defaults of
 * linuxptp's ptp4l: "pi" (proportional-integral) and "linreg" (linear
 * regression over 4..64 points); and ptpsep's default, "kalman" (a
 * phase and frequency Kalman filter that estimates its own noise,
 * servo_kf.c).  The code is pure: no I/O, no globals, no
 * clock reads; every time comes in as an argument, so the servos can be run
 * on a simulated clock (tests/unit/test_servo.c).
 *
 * Sign convention (differs from ptp4l's internal one, same behaviour):
 * every frequency here -- params.init_freq_ppb, the value servo_sample()
 * returns -- is the frequency offset to *set* on the clock, in ppb, with
 * clock_adjtime()'s and netd's ClockAdjFreq sign: positive runs the clock
 * faster.  ptp4l's servos work with the negated value and clock.c negates
 * it at both ends; here servo.c does that once.
 */
#ifndef PTPSEP_SERVO_H
#define PTPSEP_SERVO_H

#include <stdint.h>

/* clock_servo's values (lib/cfg.h enum cfg_servo) map onto these in
 * clock_servo.c. */
enum servo_type {
	SERVO_PI = 0,
	SERVO_LINREG = 1,
	SERVO_KALMAN = 2,
};

enum servo_state {
	SERVO_UNLOCKED,		/* still measuring; leave the clock alone */
	SERVO_JUMP,		/* set the frequency, then step by -offset */
	SERVO_LOCKED,		/* set the frequency */
	SERVO_LOCKED_STABLE,	/* LOCKED, and the last num_offset_values
				   offsets were below offset_threshold */
};

/* PI constants: the pi_* keys of ptp4l.conf, same meaning and defaults. */
struct servo_pi_params {
	double kp;		/* pi_proportional_const, 0.0: derive */
	double ki;		/* pi_integral_const, 0.0: derive */
	double kp_scale;	/* pi_proportional_scale, 0.0: hw/sw default */
	double kp_exponent;	/* pi_proportional_exponent, -0.3 */
	double kp_norm_max;	/* pi_proportional_norm_max, 0.7 */
	double ki_scale;	/* pi_integral_scale, 0.0: hw/sw default */
	double ki_exponent;	/* pi_integral_exponent, 0.4 */
	double ki_norm_max;	/* pi_integral_norm_max, 0.3 */
};

struct servo_params {
	/*
	 * The clock's own limit (netd's ClockInfo.max_freq_ppb) and the
	 * max_frequency key (ppb, 0: no limit).  As in ptp4l the servo's
	 * clamp is the clock's limit, lowered to max_frequency if that is
	 * set and smaller.
	 */
	double clock_max_freq_ppb;
	double max_frequency;
	/*
	 * Seconds, as in ptp4l.conf.  first_step_threshold applies to the
	 * first update only (JUMP above it), step_threshold to every update
	 * after it; 0.0 turns either off.  Whether a JUMP may be carried out
	 * (allow_step, max_step_ns) is the caller's business: clock.c slews
	 * when it may not.
	 */
	double step_threshold;
	double first_step_threshold;
	/* The clock's current frequency (netd's ClockReply.freq_ppb), so that
	 * a restarted clockd carries on from where the last one left off. */
	double init_freq_ppb;
	double sync_interval;	/* seconds, 2^logSyncInterval */
	int sw_ts;		/* software time stamps: the PI's sw defaults */
	/* servo_offset_threshold (ns, 0: off), servo_num_offset_values. */
	int64_t offset_threshold;
	int num_offset_values;
	struct servo_pi_params pi;
	/* The Kalman servo's noise, fixed instead of estimated (0.0: from
	 * the data): measurement variance, ns^2; frequency wander, ppb^2/s.
	 * For the reference filter of tests/unit/test_servo_sim.c. */
	double kalman_r;
	double kalman_q;
};

struct servo;

/* Fills *p with ptp4l's defaults (max_frequency 900000000, first step
 * 20 us, sync interval 1 s, ...); clock_max_freq_ppb 500000 (netd's
 * max_freq_ppb default). */
void servo_params_default(struct servo_params *p, int sw_ts);

/* NULL if type is unknown, a parameter is out of range (errno EINVAL:
 * sync_interval <= 0, negative thresholds or limits, NaN) or on ENOMEM. */
struct servo *servo_create(enum servo_type type,
    const struct servo_params *p);
void servo_destroy(struct servo *s);

/*
 * One offset measurement.  offset_ns: offsetFromMaster (slave - master);
 * local_ts_ns: local time of the measurement (the Sync's ingress time
 * stamp), must increase; weight: 1.0, or tsproc's weight in (0, 1].
 * Returns the frequency (ppb, see the sign convention above) to set, which
 * is within +-servo_max_frequency().  On SERVO_JUMP the caller sets the
 * frequency and then steps the clock by -offset_ns.
 */
double servo_sample(struct servo *s, int64_t offset_ns, uint64_t local_ts_ns,
    double weight, enum servo_state *state);

/*
 * Before the next servo_sample(): the mean frequency (ppb, the sign of
 * servo_sample()'s result) the clock ran at since the last sample, when
 * that was not what the servo asked (a change held back by netd's
 * min_adj_interval_ms, or refused).  The Kalman servo predicts the phase
 * with it instead of its own last output; PI and linreg ignore it.
 */
void servo_applied(struct servo *s, double freq_ppb);

/* The Sync interval changed (seconds > 0); the PI recomputes kp and ki. */
void servo_sync_interval(struct servo *s, double interval);
/* Forget the measurements (new master, ...); keeps the frequency. */
void servo_reset(struct servo *s);
/* Remote/local frequency ratio for the delay arithmetic; 1.0 for PI. */
double servo_rate_ratio(struct servo *s);

double servo_max_frequency(const struct servo *s);
int64_t servo_offset_threshold(const struct servo *s);
enum servo_type servo_get_type(const struct servo *s);
/* The PI's current gains (0.0 for other servos), for logs and tests. */
void servo_pi_gains(const struct servo *s, double *kp, double *ki);

/* "unlocked", "jump", "locked" (LOCKED_STABLE too): ptpctl's names. */
const char *servo_state_name(enum servo_state st);
/* 1 if the last sample was judged an outlier and used for nothing
 * (kalman's gate: clock_servo.c logs it as a spike); 0 otherwise. */
int servo_last_outlier(const struct servo *s);

/* The Kalman servo's current noise estimates: measurement variance r
 * (ns^2) and frequency wander q (ppb^2/s); 0.0 for other servos. */
void servo_kalman_noise(const struct servo *s, double *r, double *q);

/* "pi", "linreg", "kalman"; NULL if unknown. */
const char *servo_type_name(enum servo_type t);

#endif /* PTPSEP_SERVO_H */
