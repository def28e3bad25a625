/*
 * holdover.c - when the clock is in holdover and which clockClass it
 * announces meanwhile (holdover.h).  The glue is clock_decision.c.
 */
#include "config.h"

#include <string.h>

#include "holdover.h"

#define NS_PER_S	1000000000LL

void
hold_init(struct holdover *h, int clock_class, int64_t timeout_s,
    int slave_only)
{
	memset(h, 0, sizeof(*h));
	h->clock_class = (uint8_t)clock_class;
	/* The key's range (0..INT_MAX s) keeps this inside an int64. */
	h->timeout_ns = timeout_s * NS_PER_S;
	h->slave_only = slave_only;
}

int
hold_follow(struct holdover *h)
{
	int was = h->active;

	h->following = 1;
	h->active = 0;
	h->since = 0;
	return was;
}

int
hold_lost(struct holdover *h, int locked, int64_t now)
{
	int entered = 0;

	/* Only a clock that had good time keeps it: an unlocked servo's
	 * frequency is no better than the oscillator's own. */
	if (h->following && locked && !h->active) {
		h->active = 1;
		h->since = now;
		entered = 1;
	}
	h->following = 0;
	return entered;
}

void
hold_outranked(struct holdover *h)
{
	h->following = 0;
}

int
hold_active(const struct holdover *h)
{
	return h->active;
}

int64_t
hold_duration(const struct holdover *h, int64_t now)
{
	if (!h->active || now < h->since)
		return 0;
	return now - h->since;
}

uint8_t
hold_clock_class(const struct holdover *h, uint8_t base, int64_t now)
{
	if (!h->active || h->clock_class == 0 || h->slave_only)
		return base;
	if (h->timeout_ns != 0 && hold_duration(h, now) >= h->timeout_ns)
		return base;
	return h->clock_class;
}

int64_t
hold_expires_in(const struct holdover *h, int64_t now)
{
	int64_t d;

	if (!h->active || h->clock_class == 0 || h->slave_only ||
	    h->timeout_ns == 0)
		return -1;
	d = hold_duration(h, now);
	return d >= h->timeout_ns ? -1 : h->timeout_ns - d;
}
