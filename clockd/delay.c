/*
 * delay.c - E2E and P2P delay and offset arithmetic (see delay.h).
 *
 * Everything is computed in __int128 scaled ns (ns * 2^16, the unit of the
 * correctionField, IEEE 1588-2019 7.3.4.2): exact for time stamps up to
 * 2^48 s and any correctionField, with no rounding until the result.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "delay.h"

typedef __int128 sns_t;	/* scaled ns */

#define SNS_SHIFT	16
#define SNS_ONE		((sns_t)1 << SNS_SHIFT)	/* 1 ns */
#define SNS_NSEC	1000000000

static int
ts_scaled(const struct ptp_timestamp *ts, sns_t *out)
{
	if (ts->nsec >= SNS_NSEC || ts->sec > PTP_MAX_SEC)
		return -EINVAL;
	*out = ((sns_t)ts->sec * SNS_NSEC + ts->nsec) * SNS_ONE;
	return 0;
}

static int
fits_int64(sns_t v)
{
	return v >= INT64_MIN && v <= INT64_MAX;
}

/* Scaled to whole ns, halves away from zero. */
static sns_t
sns_round_ns(sns_t v)
{
	if (v >= 0)
		return (v + SNS_ONE / 2) / SNS_ONE;
	return -((-v + SNS_ONE / 2) / SNS_ONE);
}

/* d * rr, computed as d + d * (rr - 1) so the big part stays exact. */
static int
apply_rate(sns_t *d, double rr)
{
	long double corr;

	if (rr == 0.0 || rr == 1.0)
		return 0;
	if (!isfinite(rr) || rr < 0.0)
		return -EINVAL;
	corr = (long double)*d * ((long double)rr - 1.0L);
	if (fabsl(corr) > 0x1p62L)
		return -ERANGE;
	*d += (sns_t)llroundl(corr);
	return 0;
}

/* Stores a path delay, counts and classifies it. */
static int
path_result(int rc, sns_t twice, int64_t *out, struct delay_stats *st)
{
	sns_t d;

	if (rc == 0) {
		d = twice / 2;	/* truncates toward zero: < 2^-16 ns */
		if (!fits_int64(d))
			rc = -ERANGE;
		else
			*out = (int64_t)d;
	}
	if (rc < 0) {
		if (st != NULL)
			st->invalid++;
		return rc;
	}
	if (*out < 0) {
		if (st != NULL)
			st->negative++;
		return DELAY_NEGATIVE;
	}
	return 0;
}

int
delay_e2e(const struct delay_sync *sync, const struct delay_req *req,
    int64_t asym, double rate_ratio, int64_t *mean_path_delay,
    struct delay_stats *st)
{
	sns_t t1, t2, t3, t4, t23 = 0, twice = 0;
	int rc;

	rc = ts_scaled(&sync->t1, &t1);
	if (rc == 0)
		rc = ts_scaled(&sync->t2, &t2);
	if (rc == 0)
		rc = ts_scaled(&req->t3, &t3);
	if (rc == 0)
		rc = ts_scaled(&req->t4, &t4);
	if (rc == 0) {
		/* 11.3.2: the slave's interval t2 - t3 on the master's scale. */
		t23 = t2 - t3;
		rc = apply_rate(&t23, rate_ratio);
	}
	if (rc == 0) {
		/* The Sync's correction with delayAsymmetry added (11.6.2);
		 * the Delay_Resp echoes the Delay_Req's -asym (11.6.3). */
		twice = t23 + (t4 - t1) -
		    ((sns_t)sync->corr_sync + sync->corr_follow_up + asym) -
		    req->corr_delay_resp;
	}
	return path_result(rc, twice, mean_path_delay, st);
}

int
delay_p2p(const struct delay_pdelay *pd, int64_t asym,
    double neighbor_rate_ratio, int64_t *mean_link_delay,
    struct delay_stats *st)
{
	sns_t t1, t2, t3, t4, t41 = 0, twice = 0;
	int rc;

	rc = ts_scaled(&pd->t1, &t1);
	if (rc == 0)
		rc = ts_scaled(&pd->t2, &t2);
	if (rc == 0)
		rc = ts_scaled(&pd->t3, &t3);
	if (rc == 0)
		rc = ts_scaled(&pd->t4, &t4);
	if (rc == 0) {
		/* 11.4.2: the requester's round trip, rate-corrected, less the
		 * responder's turnaround (time stamps, corrections or both). */
		t41 = t4 - t1;
		rc = apply_rate(&t41, neighbor_rate_ratio);
	}
	if (rc == 0) {
		/* Pdelay_Resp gets +asym on receipt (11.6.4); the -asym of
		 * the Pdelay_Req comes back in one of the corrections. */
		twice = t41 - (t3 - t2) -
		    ((sns_t)pd->corr_resp + asym) - pd->corr_resp_fup;
	}
	return path_result(rc, twice, mean_link_delay, st);
}

int
delay_offset(const struct delay_sync *sync, int64_t asym, int64_t path_delay,
    int64_t *offset_ns, int64_t *offset_scaled)
{
	sns_t t1, t2, off, ns;
	int rc;

	rc = ts_scaled(&sync->t1, &t1);
	if (rc == 0)
		rc = ts_scaled(&sync->t2, &t2);
	if (rc < 0)
		return rc;
	/* 11.2: offsetFromMaster = t2 - t1 - corrections - delay, with the
	 * Sync's correction made asymmetry-aware (11.6.2). */
	off = t2 - t1 - ((sns_t)sync->corr_sync + sync->corr_follow_up + asym) -
	    path_delay;
	ns = sns_round_ns(off);
	if (!fits_int64(ns))
		return -ERANGE;
	*offset_ns = (int64_t)ns;
	if (offset_scaled != NULL) {
		/* 7.3.4.2: too big for the field: largest value, signed. */
		if (off > INT64_MAX)
			*offset_scaled = INT64_MAX;
		else if (off < -INT64_MAX)
			*offset_scaled = -INT64_MAX;
		else
			*offset_scaled = (int64_t)off;
	}
	return 0;
}

int
delay_sync_rate_ratio(const struct delay_sync *a, const struct delay_sync *b,
    double *rate_ratio)
{
	sns_t a1, a2, b1, b2, master, local;
	long double rr;
	int rc;

	rc = ts_scaled(&a->t1, &a1);
	if (rc == 0)
		rc = ts_scaled(&a->t2, &a2);
	if (rc == 0)
		rc = ts_scaled(&b->t1, &b1);
	if (rc == 0)
		rc = ts_scaled(&b->t2, &b2);
	if (rc < 0)
		return rc;
	master = (b1 + b->corr_sync + b->corr_follow_up) -
	    (a1 + a->corr_sync + a->corr_follow_up);
	local = b2 - a2;
	if (master <= 0 || local <= 0)
		return -EINVAL;
	rr = (long double)master / (long double)local;
	if (rr < 0.99L || rr > 1.01L)
		return -ERANGE;
	*rate_ratio = (double)rr;
	return 0;
}

int64_t
delay_req_correction(int64_t asym)
{
	return asym == INT64_MIN ? INT64_MAX : -asym;
}

int64_t
delay_scaled_to_ns(int64_t scaled)
{
	return (int64_t)sns_round_ns(scaled);
}

int64_t
delay_ns_to_scaled(int64_t ns)
{
	sns_t v = (sns_t)ns * SNS_ONE;

	if (v > INT64_MAX)
		return INT64_MAX;
	if (v < -INT64_MAX)
		return -INT64_MAX;
	return (int64_t)v;
}
