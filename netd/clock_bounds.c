/*
 * clock_bounds.c - the limits netd puts on clockd's clock requests.
 *
 * Pure functions (no clock, no I/O): the caller passes "now", so the tests
 * drive the rate windows with a counter.  A request outside the bounds is
 * refused with its reason, never clamped: a clamped request would let a
 * servo believe it got what it asked for.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "clock.h"

int
clock_bounds_validate(const struct clock_bounds *b)
{
	/* 0 is enforceable: only 0 ppb is accepted. */
	if (!isfinite(b->max_freq_ppb) || b->max_freq_ppb < 0.0)
		return -EINVAL;
	if (b->max_step_ns < 0 || b->min_adj_interval_ns < 0)
		return -EINVAL;
	if (b->max_steps > CLOCK_MAX_STEPS_LIMIT)
		return -EINVAL;
	/* A count needs a window; no count (no limit) ignores it. */
	if (b->step_interval_ns < 0 ||
	    (b->max_steps > 0 && b->step_interval_ns == 0))
		return -EINVAL;
	return 0;
}

int
clock_bounds_from_cfg(const struct cfg *cfg, struct clock_bounds *b,
    char *why, size_t len)
{
	int n, ivl, ms;

	memset(b, 0, sizeof(*b));
	b->max_freq_ppb = cfg_get_double(cfg, NULL, "max_freq_ppb");
	b->allow_step = cfg_get_int(cfg, NULL, "allow_step");
	b->max_step_ns = cfg_get_int64(cfg, NULL, "max_step_ns");
	n = cfg_get_int(cfg, NULL, "max_steps_per_interval");
	ivl = cfg_get_int(cfg, NULL, "step_limit_interval");
	ms = cfg_get_int(cfg, NULL, "min_adj_interval_ms");
	if (n < 0 || n > CLOCK_MAX_STEPS_LIMIT) {
		snprintf(why, len, "max_steps_per_interval %d: netd remembers "
		    "0 (no limit) to %d steps", n, CLOCK_MAX_STEPS_LIMIT);
		return -EINVAL;
	}
	if (ivl < 1) {
		snprintf(why, len, "step_limit_interval %d: must be at least "
		    "1 s", ivl);
		return -EINVAL;
	}
	if (ms < 0) {
		snprintf(why, len, "min_adj_interval_ms %d: must be 0 (no "
		    "limit) or more", ms);
		return -EINVAL;
	}
	b->max_steps = (unsigned)n;
	b->step_interval_ns = (int64_t)ivl * NSEC_PER_SEC;
	b->min_adj_interval_ns = (int64_t)ms * 1000000;
	if (clock_bounds_validate(b) != 0) {
		snprintf(why, len, "clock bounds cannot be enforced "
		    "(max_freq_ppb %g, max_step_ns %lld)", b->max_freq_ppb,
		    (long long)b->max_step_ns);
		return -EINVAL;
	}
	return 0;
}

void
clock_bounds_state_init(struct clock_bounds_state *st)
{
	memset(st, 0, sizeof(*st));
}

/* Steps recorded in (now - interval, now]. */
static unsigned
steps_in_window(const struct clock_bounds_state *st, int64_t interval,
    int64_t now_ns)
{
	unsigned i, n = 0;
	int64_t age;

	for (i = 0; i < st->count && i < CLOCK_MAX_STEPS_LIMIT; i++) {
		/* Saturating: a huge "now" jump must not wrap the age. */
		if (__builtin_sub_overflow(now_ns, st->step_time[i], &age))
			continue;
		if (age >= 0 && age < interval)
			n++;
		else if (age < 0)
			n++;	/* recorded "in the future": be strict */
	}
	return n;
}

/* Is a frequency change now closer than the limit to the last one? */
static int
adj_too_soon(const struct clock_bounds *b,
    const struct clock_bounds_state *st, int64_t now_ns)
{
	int64_t age;

	if (b->min_adj_interval_ns == 0 || !st->have_adj)
		return 0;
	if (__builtin_sub_overflow(now_ns, st->adj_time, &age))
		return now_ns < st->adj_time;	/* far before: strict */
	/* age < 0: recorded "in the future", be strict as for steps. */
	return age < b->min_adj_interval_ns;
}

/* A step of step_ns (|step_ns| <= 2^62) against the step bounds. */
static enum clock_status
step_check(const struct clock_bounds *b, const struct clock_bounds_state *st,
    int64_t step_ns, int64_t now_ns)
{
	if (!b->allow_step)
		return CLOCK_ST_STEP_NOT_ALLOWED;
	/* |step_ns| <= 2^62 here, so the negation cannot overflow. */
	if (b->max_step_ns > 0 && (step_ns > b->max_step_ns ||
	    -step_ns > b->max_step_ns))
		return CLOCK_ST_STEP_TOO_LARGE;
	if (b->max_steps > 0 &&
	    steps_in_window(st, b->step_interval_ns, now_ns) >= b->max_steps)
		return CLOCK_ST_RATE_LIMITED;
	return CLOCK_ST_OK;
}

enum clock_status
clock_check_request(const struct clock_bounds *b,
    const struct clock_bounds_state *st, const struct clock_req *req,
    int64_t now_ns)
{
	switch (req->op) {
	case CLOCK_OP_LEAP:
		if (req->leap < -1 || req->leap > 1 || (req->set_tai &&
		    (req->tai_offset < 0 ||
		    req->tai_offset > CLOCK_TAI_OFFSET_MAX)))
			return CLOCK_ST_INVALID;
		/* A cancel (or only a TAI offset) moves no clock. */
		if (req->leap == 0)
			return CLOCK_ST_OK;
		/*
		 * An armed leap moves the clock by 1 s at midnight: it is
		 * checked as a 1 s step, so a hostile clockd cannot use
		 * leaps to get round allow_step, max_step_ns or the step
		 * window (doc/design.md, the bounds on the clock).
		 */
		return step_check(b, st, -(int64_t)req->leap * NSEC_PER_SEC,
		    now_ns);
	case CLOCK_OP_ADJFREQ:
		if (!isfinite(req->freq_ppb))
			return CLOCK_ST_INVALID;
		if (fabs(req->freq_ppb) > b->max_freq_ppb)
			return CLOCK_ST_OUT_OF_BOUNDS;
		if (adj_too_soon(b, st, now_ns))
			return CLOCK_ST_RATE_LIMITED;
		return CLOCK_ST_OK;
	case CLOCK_OP_STEP:
		if (req->step_ns > CLOCK_MAX_STEP_NS ||
		    req->step_ns < -CLOCK_MAX_STEP_NS)
			return CLOCK_ST_INVALID;
		return step_check(b, st, req->step_ns, now_ns);
	}
	return CLOCK_ST_INVALID;
}

void
clock_bounds_record_step(struct clock_bounds_state *st, int64_t now_ns)
{
	st->step_time[st->head % CLOCK_MAX_STEPS_LIMIT] = now_ns;
	st->head = (st->head + 1) % CLOCK_MAX_STEPS_LIMIT;
	if (st->count < CLOCK_MAX_STEPS_LIMIT)
		st->count++;
}

void
clock_bounds_record_adj(struct clock_bounds_state *st, int64_t now_ns)
{
	st->have_adj = 1;
	st->adj_time = now_ns;
}

int
clock_reply_due(int is_read, const struct clock_req *req, int ok)
{
	return is_read || !ok || req->op != CLOCK_OP_ADJFREQ;
}

const char *
clock_status_name(enum clock_status st)
{
	switch (st) {
	case CLOCK_ST_OK:
		return "OK";
	case CLOCK_ST_OUT_OF_BOUNDS:
		return "OUT_OF_BOUNDS";
	case CLOCK_ST_STEP_NOT_ALLOWED:
		return "STEP_NOT_ALLOWED";
	case CLOCK_ST_RATE_LIMITED:
		return "RATE_LIMITED";
	case CLOCK_ST_INVALID:
		return "INVALID";
	case CLOCK_ST_STEP_TOO_LARGE:
		return "STEP_TOO_LARGE";
	case CLOCK_ST_NOT_SUPPORTED:
		return "NOT_SUPPORTED";
	}
	return "?";
}

const char *
clock_op_name(enum clock_op op)
{
	switch (op) {
	case CLOCK_OP_ADJFREQ:
		return "frequency";
	case CLOCK_OP_STEP:
		return "step";
	case CLOCK_OP_LEAP:
		return "leap";
	}
	return "?";
}
