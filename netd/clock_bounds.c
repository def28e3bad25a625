/*
 * clock_bounds.c - the limits netd puts on clockd's clock requests.
 *
 * Pure functions (no clock, no I/O): the caller passes "now", so the tests
 * drive the rate window with a counter.  A request outside the bounds is
 * refused with its reason, never clamped: a clamped request would let a
 * servo believe it got what it asked for.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "clock.h"

int
clock_bounds_validate(const struct clock_bounds *b)
{
	if (!isfinite(b->max_freq_ppb) || b->max_freq_ppb <= 0.0)
		return -EINVAL;
	if (b->max_steps > CLOCK_MAX_STEPS_LIMIT)
		return -EINVAL;
	if (b->step_interval_ns < 0)
		return -EINVAL;
	/* A count without a window (or the reverse) is a config mistake. */
	if ((b->max_steps == 0) != (b->step_interval_ns == 0))
		return -EINVAL;
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

enum clock_status
clock_check_request(const struct clock_bounds *b,
    const struct clock_bounds_state *st, const struct clock_req *req,
    int64_t now_ns)
{
	switch (req->op) {
	case CLOCK_OP_ADJFREQ:
		if (!isfinite(req->freq_ppb))
			return CLOCK_ST_INVALID;
		if (fabs(req->freq_ppb) > b->max_freq_ppb)
			return CLOCK_ST_OUT_OF_BOUNDS;
		return CLOCK_ST_OK;
	case CLOCK_OP_STEP:
		if (req->step_ns > CLOCK_MAX_STEP_NS ||
		    req->step_ns < -CLOCK_MAX_STEP_NS)
			return CLOCK_ST_INVALID;
		if (!b->allow_step)
			return CLOCK_ST_STEP_NOT_ALLOWED;
		if (b->max_steps > 0 && b->step_interval_ns > 0 &&
		    steps_in_window(st, b->step_interval_ns, now_ns) >=
		    b->max_steps)
			return CLOCK_ST_RATE_LIMITED;
		return CLOCK_ST_OK;
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
	}
	return "?";
}
