/*
 * clock_virtual.c - a software clock kept by netd over CLOCK_REALTIME.
 *
 *   virtual(t) = base_virt + (t - base_real) * (1 + f * 1e-15)
 *
 * t is the raw CLOCK_REALTIME time (or the injected source of the tests),
 * f the effective frequency in parts per 10^15 ("ppq"): the configured
 * error of the clock (virtual_clock_freq_ppb) plus the adjustment clockd
 * last asked for.  All arithmetic is integer: int64 ns, __int128 for the
 * product, and the fraction is rounded toward minus infinity, so
 *
 *   - for a given f the result is exact to within 1 ns (floor of the exact
 *     rational value); the only other error is the quantisation of ppb to
 *     ppq, at most 5e-16 * elapsed (0.05 ns a day);
 *   - the mapping is non-decreasing in t for any |f| < 10^15, so converted
 *     timestamps never run backward between steps.
 *
 * adjfreq() and step() start a new segment (base_real = now) instead of
 * changing the current one: adjfreq's segment starts where the old one is
 * at that instant, so time is continuous; a step's starts that plus the
 * step.  The last VCLOCK_SEGS segments are kept so that a timestamp taken
 * just before a request but converted after it uses the frequency and
 * offset in force when it was taken.  The piecewise mapping is continuous
 * at each adjfreq boundary, so monotonicity holds across them too.
 *
 * A leap second (set_leap) is emulated as the kernel does it for
 * CLOCK_REALTIME: armed +1, the clock reads 1 s less from the instant it
 * reaches the next UTC midnight (virtual time a multiple of 86400 s), so
 * 23:59:59 repeats; armed -1, it reads 1 s more from 23:59:59, which is
 * skipped.  Either is a segment pushed at the crossing, found the first
 * time a raw time past it is read or converted (or before a request
 * starts a segment), then the leap is disarmed and counted: once only.
 * A step or frequency change keeps an armed leap, as the kernel keeps
 * STA_INS; a step that jumps over the midnight does not apply it.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ptp_time.h"
#include "clock.h"

#define VCLOCK_SEGS		8
#define PPQ_PER_PPB		1000000.0
#define PPQ_SCALE		((__int128)1000000000000000LL)	/* 1e15 */
/*
 * 10% each for the error and the adjustment keeps |f| < 1e15 by far, so
 * the clock never runs backward.
 */
#define VCLOCK_MAX_ADJ_PPB	100000000.0
#define VCLOCK_DAY_NS		(86400 * NSEC_PER_SEC)

struct vseg {
	int64_t	from;		/* raw time at which the segment starts */
	/*
	 * The mapping: virtual time virt at raw time real, which is from
	 * except for a leap's segment, which keeps the base of the one
	 * before shifted by 1 s, so that it reads exactly 1 s off it.
	 */
	int64_t	real;
	int64_t	virt;
	int64_t	freq_ppq;	/* effective frequency in the segment */
};

struct vclock {
	struct clock	 base;	/* first */
	clock_now_fn	 now;
	void		*now_arg;
	int64_t		 err_ppq;	/* the clock's own frequency error */
	double		 adj_ppb;	/* what adjfreq() last set */
	struct vseg	 seg[VCLOCK_SEGS];	/* oldest first */
	unsigned	 nseg;
	int64_t		 leap_from;	/* raw time the leap was armed */
};

/*
 * Nearest ppq.  |ppb| is bounded by VCLOCK_MAX_ADJ_PPB before this is
 * called, so the cast cannot overflow.  (Not llround(): no libm in netd.)
 */
static int64_t
ppb_to_ppq(double ppb)
{
	double q = ppb * PPQ_PER_PPB;

	return (int64_t)(q < 0 ? q - 0.5 : q + 0.5);
}

static struct vclock *
to_vclock(struct clock *c)
{
	return (struct vclock *)c;
}

static int
realtime_now(void *arg, struct timespec *ts)
{
	(void)arg;
	return clock_gettime(CLOCK_REALTIME, ts) == 0 ? 0 : -errno;
}

static int
vclock_raw_now(struct vclock *vc, int64_t *ns)
{
	struct timespec ts;
	int rc;

	if ((rc = vc->now(vc->now_arg, &ts)) < 0)
		return rc;
	return ptp_timespec_to_ns(ts, ns);
}

/* Rounds toward minus infinity (C's / truncates toward zero); den > 0. */
static __int128
floor_div(__int128 num, __int128 den)
{
	__int128 q = num / den;

	if (num % den != 0 && num < 0)
		q--;
	return q;
}

static int
seg_map(const struct vseg *s, int64_t t, int64_t *out)
{
	__int128 d = (__int128)t - s->real;
	__int128 v = (__int128)s->virt + d +
	    floor_div(d * s->freq_ppq, PPQ_SCALE);

	if (v > INT64_MAX || v < INT64_MIN)
		return -ERANGE;
	*out = (int64_t)v;
	return 0;
}

/* The newest segment that had started at t, else the oldest. */
static const struct vseg *
seg_for(const struct vclock *vc, int64_t t)
{
	unsigned i;

	for (i = vc->nseg; i-- > 0;)
		if (vc->seg[i].from <= t)
			return &vc->seg[i];
	return &vc->seg[0];
}

/*
 * Starts a segment at raw time now with virtual time virt.  If the raw
 * clock went backward (someone stepped CLOCK_REALTIME) the history no
 * longer orders, so it is dropped.
 */
static void
seg_push(struct vclock *vc, int64_t now, int64_t virt, int64_t freq_ppq)
{
	if (vc->nseg > 0 && now < vc->seg[vc->nseg - 1].from)
		vc->nseg = 0;
	if (vc->nseg == VCLOCK_SEGS) {
		memmove(&vc->seg[0], &vc->seg[1],
		    (VCLOCK_SEGS - 1) * sizeof(vc->seg[0]));
		vc->nseg--;
	}
	vc->seg[vc->nseg].from = now;
	vc->seg[vc->nseg].real = now;
	vc->seg[vc->nseg].virt = virt;
	vc->seg[vc->nseg].freq_ppq = freq_ppq;
	vc->nseg++;
}

/*
 * The first raw time in [from, ...) at which segment s reads x or more;
 * s maps non-decreasingly and reads x at most a few ns after the
 * estimate, so the correction loops run a step or two.
 */
static int
seg_crossing(const struct vseg *s, int64_t from, int64_t x, int64_t *tc)
{
	__int128 d = (__int128)(x - s->virt) * PPQ_SCALE /
	    (PPQ_SCALE + s->freq_ppq);
	int64_t t, v;
	int rc;

	if (d > INT64_MAX - s->real)
		return -ERANGE;
	t = s->real + (int64_t)d;
	if (t < from)
		t = from;
	for (;;) {
		if ((rc = seg_map(s, t, &v)) < 0)
			return rc;
		if (v >= x)
			break;
		t++;
	}
	while (t > from) {
		if ((rc = seg_map(s, t - 1, &v)) < 0)
			return rc;
		if (v < x)
			break;
		t--;
	}
	*tc = t;
	return 0;
}

/*
 * Applies an armed leap second whose instant has come by raw time t:
 * insert at the first UTC midnight after the clock read when it was
 * armed (or when the current segment started, if later), delete at the
 * 23:59:59 before it.
 */
static int
vclock_leap_catchup(struct vclock *vc, int64_t t)
{
	const struct vseg *cur = &vc->seg[vc->nseg - 1];
	int leap = vc->base.leap;
	int64_t from, vfrom, vt, at, tc, off, real, virt;
	int rc;

	if (leap == 0 || t < cur->from)
		return 0;
	from = vc->leap_from > cur->from ? vc->leap_from : cur->from;
	if (t < from)
		return 0;
	if ((rc = seg_map(cur, from, &vfrom)) < 0 ||
	    (rc = seg_map(cur, t, &vt)) < 0)
		return rc;
	off = leap > 0 ? 0 : -NSEC_PER_SEC;
	/*
	 * A clock stepped to the ends of int64 has no midnight to reach:
	 * the leap is dropped rather than failing every conversion.
	 */
	if (vfrom > INT64_MAX - NSEC_PER_SEC ||
	    __builtin_mul_overflow((int64_t)floor_div(vfrom - off, VCLOCK_DAY_NS) +
	    1, VCLOCK_DAY_NS, &at) || __builtin_add_overflow(at, off, &at) ||
	    __builtin_sub_overflow(cur->virt, leap * NSEC_PER_SEC, &virt)) {
		log_warnx("%s: leap second dropped: the clock is out of "
		    "range", vc->base.name);
		vc->base.leap = 0;
		return 0;
	}
	if (vt < at)
		return 0;
	if ((rc = seg_crossing(cur, from, at, &tc)) < 0)
		return rc;
	/* 00:00:00 reads 23:59:59 again; 23:59:59 reads 00:00:00. */
	real = cur->real;
	seg_push(vc, tc, virt, cur->freq_ppq);
	vc->seg[vc->nseg - 1].real = real;
	vc->base.leap = 0;
	vc->base.leaps++;
	log_info("%s: leap second %s at raw %lld ns", vc->base.name,
	    leap > 0 ? "inserted" : "deleted", (long long)tc);
	return 0;
}

static int
vclock_to_timescale(struct clock *c, struct timespec raw, struct timespec *out)
{
	struct vclock *vc = to_vclock(c);
	int64_t t, v;
	int rc;

	if ((rc = ptp_timespec_to_ns(raw, &t)) < 0)
		return rc;
	if ((rc = vclock_leap_catchup(vc, t)) < 0)
		return rc;
	if ((rc = seg_map(seg_for(vc, t), t, &v)) < 0)
		return rc;
	*out = clock_ns_to_ts(v);
	return 0;
}

/*
 * Reading "now" is where netd notices CLOCK_REALTIME stepped backward
 * under it (raw time before the newest segment): the clock then goes on
 * from where the newest segment says it is, and the history, which no
 * longer orders, is dropped.  (A raw timestamp older than the whole history
 * is otherwise converted with the oldest segment, so that the mapping stays
 * monotonic.)
 */
static int
vclock_gettime(struct clock *c, struct timespec *ts)
{
	struct vclock *vc = to_vclock(c);
	const struct vseg *cur = &vc->seg[vc->nseg - 1];
	int64_t now, virt;
	int rc;

	if ((rc = vclock_raw_now(vc, &now)) < 0)
		return rc;
	if (now < cur->from) {
		if ((rc = seg_map(cur, now, &virt)) < 0)
			return rc;
		seg_push(vc, now, virt, cur->freq_ppq);
	}
	return vclock_to_timescale(c, clock_ns_to_ts(now), ts);
}

static int
vclock_adjfreq(struct clock *c, double ppb)
{
	struct vclock *vc = to_vclock(c);
	const struct vseg *cur;
	int64_t now, virt;
	int rc;

	if (!isfinite(ppb) || fabs(ppb) > c->max_adj_ppb)
		return -ERANGE;
	if ((rc = vclock_raw_now(vc, &now)) < 0 ||
	    (rc = vclock_leap_catchup(vc, now)) < 0)
		return rc;
	cur = &vc->seg[vc->nseg - 1];
	/* Continuity: the new segment starts where the current one is now. */
	if ((rc = seg_map(cur, now, &virt)) < 0)
		return rc;
	seg_push(vc, now, virt, vc->err_ppq + ppb_to_ppq(ppb));
	vc->adj_ppb = ppb;
	return 0;
}

static int
vclock_step(struct clock *c, int64_t ns)
{
	struct vclock *vc = to_vclock(c);
	const struct vseg *cur;
	int64_t now, virt;
	int rc;

	if (ns > CLOCK_MAX_STEP_NS || ns < -CLOCK_MAX_STEP_NS)
		return -ERANGE;
	if ((rc = vclock_raw_now(vc, &now)) < 0 ||
	    (rc = vclock_leap_catchup(vc, now)) < 0)
		return rc;
	cur = &vc->seg[vc->nseg - 1];
	if ((rc = seg_map(cur, now, &virt)) < 0)
		return rc;
	if (__builtin_add_overflow(virt, ns, &virt))
		return -ERANGE;
	seg_push(vc, now, virt, cur->freq_ppq);
	return 0;
}

static int
vclock_getfreq(struct clock *c, double *ppb)
{
	*ppb = to_vclock(c)->adj_ppb;
	return 0;
}

/*
 * A leap due before now is applied first, so that the new one is armed
 * from now: the clock reaches its next midnight after this instant.  The
 * TAI offset is only remembered (clock_set_leap()).
 */
static int
vclock_set_leap(struct clock *c, int leap, int tai, int set_tai)
{
	struct vclock *vc = to_vclock(c);
	int64_t now;
	int rc;

	(void)tai;
	(void)set_tai;
	if ((rc = vclock_raw_now(vc, &now)) < 0 ||
	    (rc = vclock_leap_catchup(vc, now)) < 0)
		return rc;
	vc->leap_from = now;
	return 0;
}

static void
vclock_destroy(struct clock *c)
{
	free(to_vclock(c));
}

static const struct clock_ops vclock_ops = {
	.gettime = vclock_gettime,
	.adjfreq = vclock_adjfreq,
	.step = vclock_step,
	.getfreq = vclock_getfreq,
	.to_timescale = vclock_to_timescale,
	.set_leap = vclock_set_leap,
	.destroy = vclock_destroy,
};

struct clock *
vclock_open(const struct clock_params *p)
{
	struct vclock *vc;
	int64_t now, virt;
	int rc;

	if (!isfinite(p->virtual_freq_ppb) ||
	    fabs(p->virtual_freq_ppb) > VCLOCK_MAX_ADJ_PPB) {
		log_warnx("virtual_clock_freq_ppb %g: beyond +-%g",
		    p->virtual_freq_ppb, VCLOCK_MAX_ADJ_PPB);
		errno = ERANGE;
		return NULL;
	}
	if ((vc = calloc(1, sizeof(*vc))) == NULL)
		return NULL;
	vc->base.ops = &vclock_ops;
	vc->base.kind = CLOCK_KIND_VIRTUAL;
	snprintf(vc->base.name, sizeof(vc->base.name), "virtual");
	vc->base.max_adj_ppb = VCLOCK_MAX_ADJ_PPB;
	vc->base.base_clkid = CLOCK_REALTIME;
	/* Counts UTC unless netd puts it on PTP time (main.c). */
	vc->base.leap_allowed = 1;
	vc->now = p->now != NULL ? p->now : realtime_now;
	vc->now_arg = p->now_arg;
	vc->err_ppq = ppb_to_ppq(p->virtual_freq_ppb);
	if ((rc = vclock_raw_now(vc, &now)) < 0 ||
	    __builtin_add_overflow(now, p->virtual_offset_ns, &virt)) {
		log_warnx("virtual clock: cannot start at offset %lld ns",
		    (long long)p->virtual_offset_ns);
		free(vc);
		errno = rc < 0 ? -rc : ERANGE;
		return NULL;
	}
	seg_push(vc, now, virt, vc->err_ppq);
	log_info("virtual clock: offset %lld ns, frequency error %.3f ppb",
	    (long long)p->virtual_offset_ns, p->virtual_freq_ppb);
	return &vc->base;
}
