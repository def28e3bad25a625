/*
 * leap.c - the grandmaster's leap-second announcement and the slave's
 * arming of it (leap.h): pure.
 */
#include "config.h"

#include "leap.h"
#include "ptp_msg.h"

#define NS	1000000000LL

/* floor division: a time before 1970 still lands in the right second */
static int64_t
floor_s(int64_t ns)
{
	return ns >= 0 ? ns / NS : -((-ns + NS - 1) / NS);
}

int
leap_utc_of(const struct leaptab *t, int64_t clk_ns, int counts_tai,
    int64_t *utc_ns)
{
	int64_t s = floor_s(clk_ns), utc_s;
	int off;

	if (!counts_tai) {
		if (leaptab_offset(t, s, &off) != 0)
			return -1;
		*utc_ns = clk_ns;
		return 0;
	}
	/* PTP time is TAI from 1970-01-01 00:00:00 TAI (7.2.2, 7.2.4) */
	if (leaptab_utc_from_tai(t, s, &utc_s, &off) != 0)
		return -1;
	*utc_ns = clk_ns - (int64_t)off * NS;
	return 0;
}

int
leap_props_at(const struct leaptab *t, int64_t utc_ns, struct leap_props *lp)
{
	int64_t s = floor_s(utc_ns), at;
	int delta;

	if (leaptab_offset(t, s, &lp->offset) != 0)
		return -1;
	lp->leap = 0;
	lp->leap_at_s = 0;
	if (leaptab_next(t, s, &at, &delta) && at - s <= LEAP_WINDOW_S) {
		lp->leap = delta;
		lp->leap_at_s = at;
	}
	return 0;
}

int
leap_ambiguous(const struct leap_props *lp, int64_t utc_ns)
{
	int64_t s = floor_s(utc_ns);

	if (lp->leap == 0)
		return 0;
	/* leap59: 23:59:58 is the last second of the day */
	return s == lp->leap_at_s - (lp->leap > 0 ? 1 : 2);
}

int64_t
leap_next_read_ns(const struct leaptab *t, int64_t utc_ns)
{
	int64_t s = floor_s(utc_ns), at, change, wait;
	int delta;

	if (!leaptab_next(t, s, &at, &delta))
		return LEAP_READ_FAR_NS;
	if (at - s <= LEAP_WINDOW_S) {
		change = at * NS;
		wait = LEAP_READ_NEAR_NS;
	} else {
		change = (at - LEAP_WINDOW_S) * NS;
		wait = LEAP_READ_FAR_NS;
	}
	if (change - utc_ns < wait)
		wait = change - utc_ns;
	return wait < 1000000 ? 1000000 : wait;
}

/* The midnight nearest s: the flag is shown in the 12 h before it
 * (LEAP_WINDOW_S) and a few s after it. */
static int64_t
nearest_midnight(int64_t s)
{
	int64_t h = s + LEAP_WINDOW_S;

	return (h / 86400 - (h % 86400 < 0)) * 86400;
}

enum leap_act
leap_slave_step(const struct leap_arm *cur, int flag, int64_t utc_ns,
    struct leap_arm *next)
{
	int64_t s = floor_s(utc_ns), m = nearest_midnight(s);

	*next = *cur;
	/* Past an armed midnight: netd applied it (or refused it, logged
	 * then); the kernel keeps STA_INS (its TIME_WAIT) until told: 0,
	 * LEAP_DONE_S after it, so that it cannot reach a UTC clock a few
	 * us behind this sample's before that clock's own midnight. */
	if (cur->leap != 0 && s >= cur->at_s + LEAP_DONE_S) {
		next->leap = 0;
		next->at_s = 0;
		return LEAP_ACT_DONE;
	}
	if (flag == 0) {
		if (cur->leap == 0)
			return LEAP_ACT_NONE;
		/* In the last second the grandmaster, a few us ahead, may
		 * have dropped the flag at its midnight: netd applies it, and
		 * a cancel now could come before the crossing. */
		if (s >= cur->at_s - 1)
			return LEAP_ACT_NONE;
		next->leap = 0;
		next->at_s = 0;
		return LEAP_ACT_CANCEL;
	}
	if (cur->leap == flag && cur->at_s == m)
		return LEAP_ACT_NONE;
	/* leap59: 23:59:58 is the last second before the skipped one */
	if (s >= m - (flag > 0 ? 1 : 2))
		return LEAP_ACT_NONE;
	next->leap = flag > 0 ? 1 : -1;
	next->at_s = m;
	return LEAP_ACT_ARM;
}

int
leap_sample_utc(uint16_t flags, int n, int64_t local_ns, int *utc)
{
	int64_t s = floor_s(local_ns), m = nearest_midnight(s);

	*utc = n;
	if (flags & PTP_FLAG_LEAP61) {
		if (s >= m - 1 && s < m)
			return 1;
		if (s >= m)
			*utc = n + 1;
	} else if (flags & PTP_FLAG_LEAP59) {
		/* 23:59:58, the last second before the skipped one */
		if (s >= m - 2 && s < m)
			return 1;
		if (s >= m)
			*utc = n - 1;
	}
	return 0;
}
