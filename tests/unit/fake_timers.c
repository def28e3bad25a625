/*
 * fake_timers.c - see fake_timers.h.
 */
#include "config.h"

#include <string.h>

#include "fake_timers.h"

int64_t			 fake_now_ns;
struct fake_timer	 fake_timers[FAKE_TIMERS_MAX];

void
fake_timers_reset(void)
{
	fake_now_ns = 0;
	memset(fake_timers, 0, sizeof(fake_timers));
}

int64_t
fake_now(void *ctx)
{
	(void)ctx;
	return fake_now_ns;
}

struct env_timer *
fake_timer_new(void *ctx, env_timer_cb cb, void *arg)
{
	unsigned i;

	(void)ctx;
	for (i = 0; i < FAKE_TIMERS_MAX; i++)
		if (!fake_timers[i].used) {
			fake_timers[i].used = 1;
			fake_timers[i].cb = cb;
			fake_timers[i].arg = arg;
			return (struct env_timer *)&fake_timers[i];
		}
	return NULL;
}

void
fake_timer_free(void *ctx, struct env_timer *t)
{
	(void)ctx;
	memset(t, 0, sizeof(struct fake_timer));
}

void
fake_timer_arm(void *ctx, struct env_timer *t, int64_t delay)
{
	(void)ctx;
	fake_timer_of(t)->armed = 1;
	fake_timer_of(t)->due = fake_now_ns + delay;
}

void
fake_timer_cancel(void *ctx, struct env_timer *t)
{
	(void)ctx;
	fake_timer_of(t)->armed = 0;
}

int
fake_timer_pending(void *ctx, const struct env_timer *t)
{
	(void)ctx;
	return ((const struct fake_timer *)t)->armed;
}
