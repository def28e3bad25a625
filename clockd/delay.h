/*
 * delay.h - the delay mechanisms' arithmetic (IEEE 1588-2019 11.2-11.4, 11.6).
 *
 * Pure functions of the time stamps and correctionFields of one exchange.
 *
 * Units.  Time stamps are struct ptp_timestamp (5.3.3; seconds up to 2^48).
 * correctionFields and every result except the offset in ns are TimeInterval
 * (5.3.2, 7.3.4.2): int64_t in ns * 2^16 ("scaled ns"), so a fractional ns
 * from a transparent clock is not lost.  Internally every quantity is a
 * __int128 in scaled ns: a 2^48 s time stamp is below 2^94 in that unit,
 * so differences of any two time stamps are exact; only the final halving
 * truncates (toward zero, below 2^-16 ns).  A result that does not fit its
 * type is -ERANGE, never wrapped.
 *
 * delayAsymmetry (11.6), `asym` below, scaled ns, positive when the
 * master-to-slave (responder-to-requester) path is the longer:
 *  - the requester sends Delay_Req / Pdelay_Req with correctionField
 *    delay_req_correction(asym) = -asym (11.6.3, 11.6.4), which the
 *    responder returns in Delay_Resp / Pdelay_Resp(_Follow_Up);
 *  - the functions here add asym to the correctionField of the Sync and of
 *    the Pdelay_Resp on receipt (11.6.2, 11.6.4).
 * So the mean path delay comes out free of the asymmetry and the offset has
 * it taken off: offset = t2 - t1 - corrections - asym - meanPathDelay.
 * Pass every correctionField as received.
 *
 * Rate ratio.  rate_ratio multiplies the interval measured by the local
 * clock, as ptp4l's tsproc does: (t2 - t3) for E2E (the linreg servo's
 * servo_rate_ratio()), (t4 - t1) for P2P (neighborRateRatio, 11.4.2).
 * 1.0 (or 0.0) means none; clockd passes 1.0 for now, and neighborRateRatio
 * is not measured yet.
 */
#ifndef PTPSEP_DELAY_H
#define PTPSEP_DELAY_H

#include <stdint.h>

#include "ptp_msg.h"

/* The Sync side of an exchange, E2E and P2P alike. */
struct delay_sync {
	/* Sync originTimestamp (one-step) or Follow_Up
	 * preciseOriginTimestamp (two-step). */
	struct ptp_timestamp t1;
	struct ptp_timestamp t2;	/* Sync ingress, local clock */
	int64_t corr_sync;		/* correctionField of the Sync */
	int64_t corr_follow_up;		/* of the Follow_Up; 0 if one-step */
};

/* E2E: Delay_Req and Delay_Resp (11.3). */
struct delay_req {
	struct ptp_timestamp t3;	/* Delay_Req egress, local clock */
	struct ptp_timestamp t4;	/* Delay_Resp receiveTimestamp */
	int64_t corr_delay_resp;	/* correctionField of Delay_Resp */
};

/*
 * P2P: Pdelay_Req / Pdelay_Resp / Pdelay_Resp_Follow_Up (11.4).
 * Two-step responder: t2 requestReceiptTimestamp, t3
 * responseOriginTimestamp.  A one-step responder, or a two-step one
 * that puts the turnaround into the correctionField (11.4.3 b), sends zero
 * time stamps: leave t2 and t3 zero and the same formula holds.
 */
struct delay_pdelay {
	struct ptp_timestamp t1;	/* Pdelay_Req egress, local clock */
	struct ptp_timestamp t2;	/* Pdelay_Resp requestReceiptTimestamp */
	struct ptp_timestamp t3;	/* Pdelay_Resp_Follow_Up
					   responseOriginTimestamp */
	struct ptp_timestamp t4;	/* Pdelay_Resp ingress, local clock */
	int64_t corr_resp;		/* correctionField of Pdelay_Resp */
	int64_t corr_resp_fup;		/* of Pdelay_Resp_Follow_Up; 0 if
					   one-step */
};

/* Counters kept by the caller, updated by the functions when not NULL. */
struct delay_stats {
	uint64_t negative;	/* path delays below zero (DELAY_NEGATIVE) */
	uint64_t invalid;	/* -EINVAL / -ERANGE */
};

/*
 * Returned (> 0) with a negative path delay, which is still computed and
 * stored.  ptp4l (tsproc.c) does not drop those: it logs at debug level
 * and feeds them to the delay filter, whose median takes care of a rare
 * outlier; clockd should do the same to behave like ptp4l, and count them.
 */
#define DELAY_NEGATIVE	1

/*
 * E2E meanPathDelay (11.3.2):
 *   [(t2 - t3) * rr + (t4 - t1) - (corr_sync + corr_follow_up + asym)
 *    - corr_delay_resp] / 2
 * Returns 0, DELAY_NEGATIVE, -EINVAL (nanoseconds >= 10^9, seconds above
 * 2^48 - 1, rate_ratio not finite or <= 0) or -ERANGE (> 2^47 ns).
 */
int delay_e2e(const struct delay_sync *sync, const struct delay_req *req,
    int64_t asym, double rate_ratio, int64_t *mean_path_delay,
    struct delay_stats *st);

/*
 * P2P meanLinkDelay (11.4.2):
 *   [(t4 - t1) * nrr - (t3 - t2) - (corr_resp + asym) - corr_resp_fup] / 2
 * Same returns as delay_e2e().
 */
int delay_p2p(const struct delay_pdelay *pd, int64_t asym,
    double neighbor_rate_ratio, int64_t *mean_link_delay,
    struct delay_stats *st);

/*
 * offsetFromMaster (11.2, 11.3.2, 11.4.2), for either mechanism:
 *   t2 - t1 - (corr_sync + corr_follow_up + asym) - path_delay
 * path_delay is the (filtered) meanPathDelay or meanLinkDelay, scaled ns.
 * *offset_ns is rounded to the nearest ns (what the servo takes);
 * *offset_scaled, if not NULL, is the TimeInterval, saturated at
 * +-INT64_MAX (7.3.4.2) when the offset is beyond 2^47 ns.
 * Returns 0, -EINVAL (bad time stamp) or -ERANGE (offset beyond int64 ns).
 */
int delay_offset(const struct delay_sync *sync, int64_t asym,
    int64_t path_delay, int64_t *offset_ns, int64_t *offset_scaled);

/*
 * Master/local frequency ratio from two Syncs a (older) and b (newer):
 *   ((t1b + corr_b) - (t1a + corr_a)) / (t2b - t2a)
 * For delay_e2e()'s rate_ratio while the servo has not corrected the
 * frequency yet: a clock 80 ppm off and a Delay_Req 0.5 s after the Sync
 * make the E2E delay 20 us short, and the first step inherits that error.
 * ptp4l passes 1.0 with the PI servo (only linreg has a ratio), so it has
 * that error; passing this ratio removes it.  The pair must not straddle
 * a step of the local clock.  Returns 0, -EINVAL (bad time stamp, b not
 * after a on either clock) or -ERANGE (ratio off by more than 1 %).
 */
int delay_sync_rate_ratio(const struct delay_sync *a,
    const struct delay_sync *b, double *rate_ratio);

/* correctionField to send in Delay_Req and Pdelay_Req (11.6.3, 11.6.4). */
int64_t delay_req_correction(int64_t asym);

/* A time stamp as int64 ns, and the difference of two: lib/ptp_time.h
 * (ptp_time_to_ns, ptp_time_sub), shared with netd. */
/* Scaled ns to ns, rounded to nearest, halves away from zero. */
int64_t delay_scaled_to_ns(int64_t scaled);
/* ns to scaled ns, saturated at +-INT64_MAX beyond 2^47 ns. */
int64_t delay_ns_to_scaled(int64_t ns);

#endif /* PTPSEP_DELAY_H */
