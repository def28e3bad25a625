/*
 * clock_policy.h - the pure decisions of clock.c about what clockd may ask
 * netd to do to the clock, and what it then says about the clock.
 *
 *  - Steps: netd bounds them (allow_step, max_step_ns in ClockInfo);
 *    clockd never asks for a step netd would refuse.  An offset it may not
 *    step away is slewed away within the frequency bound, and the clock is
 *    never reported locked while the offset is beyond the step bound.
 *  - The UTC offset: a clock counting UTC (the system clock, netd's
 *    virtual clock) under a grandmaster on the PTP timescale takes
 *    currentUtcOffset off the offset, with ptp4l's rule for which UTC
 *    offset to believe (IEEE 1588-2019 7.2.4, 8.2.4).
 *  - The sanity check of sanity_freq_limit: the clock's frequency, as its
 *    time stamps advance against CLOCK_MONOTONIC, corrected for the
 *    frequency clockd set, is beyond the limit: the clock jumped or runs
 *    wild, and the servo starts over (ptp4l's clockcheck).
 *
 * No I/O, no clock reads: every time comes in as an argument.
 */
#ifndef PTPSEP_CLOCKD_CLOCK_POLICY_H
#define PTPSEP_CLOCKD_CLOCK_POLICY_H

#include <stdint.h>

#include "servo.h"

/* Why the clock is not disciplined as the servo wants; ctl.proto's
 * ClockRefusal has the same values. */
enum clock_refusal {
	CR_NONE = 0,
	CR_STEP_NOT_ALLOWED = 1,	/* allow_step 0 */
	CR_STEP_TOO_LARGE = 2,		/* |step| beyond max_step_ns */
	CR_RATE_LIMITED = 3,		/* netd: too many adjustments */
	CR_OUT_OF_BOUNDS = 4,		/* netd refused a frequency */
	CR_NETD_UNREACHABLE = 5,	/* no netd: nothing is disciplined */
	CR_CLOCK_FAILED = 6,		/* netd: the clock call failed */
};

/* "none", "step_not_allowed", ...: ptpctl's names. */
const char *cpol_refusal_name(enum clock_refusal r);

/* netd's bounds on clock requests (ClockInfo). */
struct cpol_bounds {
	int step_allowed;
	uint64_t max_step_ns;		/* 0: no operator limit */
	/* a step of at least this size was refused (0: none); only smaller
	 * ones are asked for until netd says its bounds again */
	uint64_t refused_step_ns;
};

/* May clockd ask for a step by -offset?  CR_NONE, or why not. */
enum clock_refusal cpol_step_check(const struct cpol_bounds *b,
    int64_t offset);

/*
 * The frequency (ppb, clock sign) that slews an offset (slave - master, ns)
 * away: base, the frequency the servo found for the clock, minus half the
 * offset per second (so half of it is gone a second later and the slew
 * never overshoots), limited to +-max_ppb.
 */
double	cpol_slew_freq(double base, int64_t offset, double max_ppb);

/*
 * The state to report: the servo's state, but never locked while the
 * clock is slewing an offset away it could not step, nor while |offset|
 * exceeds the operator's step bound max_step_ns.
 */
enum servo_state cpol_report_state(enum servo_state st, int64_t offset,
    const struct cpol_bounds *b, int slewing);

/*
 * UTC.  *utc_offset is the UTC offset the clock believes (s), from the
 * utc_offset key at start; an Announce's currentUtcOffset replaces it when
 * currentUtcOffsetValid and timeTraceable are set, or when it is larger
 * (ptp4l: a smaller one without both flags is not believed).
 */
void	cpol_utc_update(int *utc_offset, int current_utc_offset,
	    uint16_t flags);
/*
 * Seconds to add to offsetFromMaster: utc_offset when this clock counts
 * UTC and the grandmaster's timescale is PTP (ptpTimescale: it counts
 * TAI, 37 s ahead of UTC in 2017..), 0 otherwise.
 */
int	cpol_utc_correction(int local_counts_utc, uint16_t flags,
	    int utc_offset);

/* The sanity check (sanity_freq_limit, ppb; 0: off). */
struct cpol_sanity {
	double limit;
	int freq_known;
	double cur_freq, min_freq, max_freq;	/* since the last sample */
	int have_last;
	int64_t last_ts, last_mono;
	/* The last comparison failed: the clock is not to be called locked
	 * until one passes (samples < 1 s apart are not compared). */
	int suspect;
};

void	cpol_sanity_init(struct cpol_sanity *s, double limit_ppb);
void	cpol_sanity_reset(struct cpol_sanity *s);
/* The frequency (ppb, clock sign) was set. */
void	cpol_sanity_set_freq(struct cpol_sanity *s, double ppb);
/* The clock was stepped by step_ns. */
void	cpol_sanity_step(struct cpol_sanity *s, int64_t step_ns);
/*
 * A time stamp ts of the clock (ns) taken at mono (CLOCK_MONOTONIC ns).
 * Since the last sample (at least 1 s apart on both clocks), did the clock
 * advance faster or slower than the frequencies set meanwhile explain, by
 * more than the limit?  1: faster (or jumped forward), -1: slower (or
 * jumped back), 0: sane or not known yet.
 */
int	cpol_sanity_sample(struct cpol_sanity *s, int64_t ts, int64_t mono);

#endif /* PTPSEP_CLOCKD_CLOCK_POLICY_H */
