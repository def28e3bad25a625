/*
 * clock_policy.c - the pure decisions of clock.c: steps within netd's
 * bounds, slewing what may not be stepped, the state to report, the UTC
 * offset, and the sanity check of sanity_freq_limit.  See clock_policy.h.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "clock_policy.h"
#include "ptp_msg.h"
#include "ptp_time.h"

/* Below this the sanity check does not compare (ptp4l: 1 s). */
#define CPOL_SANITY_MIN_NS	1000000000LL
/* Seconds over which a slew takes half of the offset away. */
#define CPOL_SLEW_HALF_S	1.0

const char *
cpol_refusal_name(enum clock_refusal r)
{
	switch (r) {
	case CR_NONE:
		return "none";
	case CR_STEP_NOT_ALLOWED:
		return "step_not_allowed";
	case CR_STEP_TOO_LARGE:
		return "step_too_large";
	case CR_RATE_LIMITED:
		return "rate_limited";
	case CR_OUT_OF_BOUNDS:
		return "out_of_bounds";
	case CR_NETD_UNREACHABLE:
		return "netd_unreachable";
	case CR_CLOCK_FAILED:
		return "clock_failed";
	}
	return "unknown";
}

enum clock_refusal
cpol_step_check(const struct cpol_bounds *b, int64_t offset)
{
	uint64_t mag = ptp_ns_abs(offset);

	if (!b->step_allowed)
		return CR_STEP_NOT_ALLOWED;
	if (b->max_step_ns != 0 && mag > b->max_step_ns)
		return CR_STEP_TOO_LARGE;
	if (b->refused_step_ns != 0 && mag >= b->refused_step_ns)
		return CR_STEP_TOO_LARGE;
	return CR_NONE;
}

double
cpol_slew_freq(double base, int64_t offset, double max_ppb)
{
	/* 1 ppb is 1 ns per second. */
	double f = base - (double)offset / (2.0 * CPOL_SLEW_HALF_S);

	if (!isfinite(f))
		f = 0.0;
	if (f > max_ppb)
		f = max_ppb;
	if (f < -max_ppb)
		f = -max_ppb;
	return f;
}

enum servo_state
cpol_report_state(enum servo_state st, int64_t offset,
    const struct cpol_bounds *b, int slewing)
{
	if (st != SERVO_LOCKED && st != SERVO_LOCKED_STABLE)
		return st;
	if (slewing)
		return SERVO_UNLOCKED;
	if (b->max_step_ns != 0 && ptp_ns_abs(offset) > b->max_step_ns)
		return SERVO_UNLOCKED;
	return st;
}

/* ---- UTC (7.2.4, 8.2.4) ---- */

void
cpol_utc_update(int *utc_offset, int current_utc_offset, uint16_t flags)
{
	int trusted = (flags & PTP_FLAG_UTC_OFFSET_VALID) &&
	    (flags & PTP_FLAG_TIME_TRACEABLE);

	/* As ptp4l: believe a valid, traceable offset; otherwise only one
	 * that is larger than the configured one (leap seconds so far have
	 * only been added, and an unset field is 0). */
	if ((trusted && current_utc_offset != *utc_offset) ||
	    current_utc_offset > *utc_offset)
		*utc_offset = current_utc_offset;
}

int
cpol_utc_correction(int local_counts_utc, uint16_t flags, int utc_offset)
{
	/* A master on an ARB timescale: its time is taken as it is.  A
	 * clock counting PTP time (a PHC) under a PTP master: same scale. */
	if (!(flags & PTP_FLAG_PTP_TIMESCALE) || !local_counts_utc)
		return 0;
	/* Local UTC, master TAI: offset = UTC - TAI = -utc_offset when in
	 * step; adding utc_offset makes that 0. */
	return utc_offset;
}

/* ---- the sanity check ---- */

void
cpol_sanity_init(struct cpol_sanity *s, double limit_ppb)
{
	s->limit = limit_ppb;
	cpol_sanity_reset(s);
}

void
cpol_sanity_reset(struct cpol_sanity *s)
{
	s->freq_known = 0;
	s->have_last = 0;
	s->suspect = 0;
	s->min_freq = s->max_freq = s->cur_freq = 0.0;
}

void
cpol_sanity_set_freq(struct cpol_sanity *s, double ppb)
{
	if (!s->freq_known) {
		s->min_freq = s->max_freq = ppb;
	} else {
		if (ppb < s->min_freq)
			s->min_freq = ppb;
		if (ppb > s->max_freq)
			s->max_freq = ppb;
	}
	s->cur_freq = ppb;
	s->freq_known = 1;
}

void
cpol_sanity_step(struct cpol_sanity *s, int64_t step_ns)
{
	if (s->have_last && ptp_ns_add(s->last_ts, step_ns, &s->last_ts) != 0)
		s->have_last = 0;
}

int
cpol_sanity_sample(struct cpol_sanity *s, int64_t ts, int64_t mono)
{
	int64_t dts, dmono;
	double hi, lo;
	int r = 0;

	if (s->limit <= 0.0 || !s->freq_known)
		return 0;
	if (s->have_last) {
		if (ptp_ns_sub(ts, s->last_ts, &dts) != 0) {
			/* Beyond int64 ns: a jump if anything is. */
			s->have_last = 0;
			s->suspect = 1;
			return ts > s->last_ts ? 1 : -1;
		}
		dmono = mono - s->last_mono;
		if ((dts >= 0 && dts < CPOL_SANITY_MIN_NS) ||
		    dmono < CPOL_SANITY_MIN_NS)
			return 0;
		/* The clock's own frequency error (ppb) against CLOCK_MONOTONIC,
		 * with the frequency set taken out: the highest (lowest) it
		 * can be with the lowest (highest) frequency set meanwhile. */
		hi = 1e9 * ((double)dts / (1.0 + s->min_freq / 1e9) /
		    (double)dmono - 1.0);
		lo = 1e9 * ((double)dts / (1.0 + s->max_freq / 1e9) /
		    (double)dmono - 1.0);
		if (lo > s->limit)
			r = 1;
		else if (hi < -s->limit)
			r = -1;
		s->suspect = r != 0;
	}
	s->have_last = 1;
	s->last_ts = ts;
	s->last_mono = mono;
	s->min_freq = s->max_freq = s->cur_freq;
	return r;
}
