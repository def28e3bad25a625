/*
 * fake_timers.h - the engine's clock and timers (env.h) for unit tests
 * that drive clockd by hand: time stands still until the test sets
 * fake_now_ns, and an armed timer only records when it is due (the test
 * reads it and calls its callback itself).
 */
#ifndef PTPSEP_TEST_FAKE_TIMERS_H
#define PTPSEP_TEST_FAKE_TIMERS_H

#include <stdint.h>

#include "clockd/env.h"

#define FAKE_TIMERS_MAX	16

struct fake_timer {
	int		 used, armed;
	int64_t		 due;		/* fake_now_ns + delay when armed */
	env_timer_cb	 cb;
	void		*arg;
};

extern int64_t		 fake_now_ns;
extern struct fake_timer fake_timers[FAKE_TIMERS_MAX];

/* Time back to 0, every timer free. */
void	fake_timers_reset(void);

/* The env_ops members (ctx unused). */
int64_t	fake_now(void *ctx);
struct env_timer *fake_timer_new(void *ctx, env_timer_cb cb, void *arg);
void	fake_timer_free(void *ctx, struct env_timer *t);
void	fake_timer_arm(void *ctx, struct env_timer *t, int64_t delay);
void	fake_timer_cancel(void *ctx, struct env_timer *t);
int	fake_timer_pending(void *ctx, const struct env_timer *t);

static inline struct fake_timer *
fake_timer_of(struct env_timer *t)
{
	return (struct fake_timer *)t;
}

#endif
