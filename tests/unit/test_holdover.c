/*
 * test_holdover.c - the holdover schedule (clockd/holdover.c): entered only
 * when the last grandmaster is lost with the servo locked, the holdover
 * clockClass until holdover_timeout then the own class, 0 = off, timeout
 * 0 = until a grandmaster returns, a slave-only clock that shows holdover
 * but never announces, and the end when a grandmaster returns.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "clockd/holdover.h"

#define S	1000000000LL

/* One step of a table: what the state decision saw, at time t (s). */
enum step_kind {
	FOLLOW,		/* a foreign master selected */
	LOST_LOCKED,	/* no foreign master; the servo was locked */
	LOST_UNLOCKED,	/* no foreign master; the servo was not locked */
	OUTRANKED,	/* D0 better than a foreign Ebest */
	LOOK,		/* nothing new: check the schedule only */
};

struct step {
	enum step_kind	kind;
	int64_t		t_ms;
	int		ret;		/* hold_follow/hold_lost's result */
	int		active;
	uint8_t		cls;		/* hold_clock_class(base 248) */
	int64_t		dur_ms;		/* hold_duration */
	int64_t		exp_ms;		/* hold_expires_in, -1: never */
};

struct sched {
	const char	*name;
	int		 cls, timeout_s, slave_only;
	struct step	 steps[10];
	unsigned	 n;
};

#define BASE	248

static const struct sched scheds[] = {
	{ "G.8275.1-like: 7 for 10 s, then the own class", 7, 10, 0, {
	    /* Not following yet: a loss at start is no holdover. */
	    { LOST_LOCKED, 0, 0, 0, BASE, 0, -1 },
	    { FOLLOW, 1000, 0, 0, BASE, 0, -1 },
	    { LOST_LOCKED, 5000, 1, 1, 7, 0, 10000 },
	    /* A second decision while in holdover: it goes on. */
	    { LOST_LOCKED, 6000, 0, 1, 7, 1000, 9000 },
	    { LOOK, 14999, 0, 1, 7, 9999, 1 },
	    { LOOK, 15000, 0, 1, BASE, 10000, -1 },
	    { LOOK, 99000, 0, 1, BASE, 94000, -1 },
	    /* The grandmaster returns: holdover ends. */
	    { FOLLOW, 100000, 1, 0, BASE, 0, -1 },
	    { LOST_LOCKED, 101000, 1, 1, 7, 0, 10000 } }, 9 },
	{ "not locked: no holdover", 7, 10, 0, {
	    { FOLLOW, 0, 0, 0, BASE, 0, -1 },
	    { LOST_UNLOCKED, 1000, 0, 0, BASE, 0, -1 },
	    /* Nor after, without a master to follow again. */
	    { LOST_LOCKED, 2000, 0, 0, BASE, 0, -1 },
	    { FOLLOW, 3000, 0, 0, BASE, 0, -1 },
	    { LOST_LOCKED, 4000, 1, 1, 7, 0, 10000 } }, 5 },
	{ "0: off, the own class at once, holdover still shown", 0, 10, 0, {
	    { FOLLOW, 0, 0, 0, BASE, 0, -1 },
	    { LOST_LOCKED, 1000, 1, 1, BASE, 0, -1 },
	    { LOOK, 5000, 0, 1, BASE, 4000, -1 },
	    { FOLLOW, 6000, 1, 0, BASE, 0, -1 } }, 4 },
	{ "timeout 0: the holdover class until a master returns", 7, 0, 0, {
	    { FOLLOW, 0, 0, 0, BASE, 0, -1 },
	    { LOST_LOCKED, 1000, 1, 1, 7, 0, -1 },
	    { LOOK, 1000000000, 0, 1, 7, 999999000, -1 },
	    { FOLLOW, 1000001000, 1, 0, BASE, 0, -1 } }, 4 },
	{ "slave-only: shows holdover, never announces its class", 7, 10, 1, {
	    { FOLLOW, 0, 0, 0, BASE, 0, -1 },
	    { LOST_LOCKED, 1000, 1, 1, BASE, 0, -1 },
	    { LOOK, 3000, 0, 1, BASE, 2000, -1 },
	    { FOLLOW, 4000, 1, 0, BASE, 0, -1 } }, 4 },
	{ "outranked by its own holdover class: holdover goes on", 7, 10, 0, {
	    { FOLLOW, 0, 0, 0, BASE, 0, -1 },
	    { LOST_LOCKED, 1000, 1, 1, 7, 0, 10000 },
	    /* A class-248 master appears and loses against D0's 7. */
	    { OUTRANKED, 2000, 0, 1, 7, 1000, 9000 },
	    { LOOK, 11000, 0, 1, BASE, 10000, -1 } }, 4 },
	{ "outranked while following: no holdover (not a loss)", 7, 10, 0, {
	    { FOLLOW, 0, 0, 0, BASE, 0, -1 },
	    { OUTRANKED, 1000, 0, 0, BASE, 0, -1 },
	    { LOST_LOCKED, 2000, 0, 0, BASE, 0, -1 } }, 3 },
};

static void
test_schedules(void **state)
{
	size_t i;
	unsigned j;

	(void)state;
	for (i = 0; i < sizeof(scheds) / sizeof(scheds[0]); i++) {
		const struct sched *sc = &scheds[i];
		struct holdover h;

		hold_init(&h, sc->cls, sc->timeout_s, sc->slave_only);
		for (j = 0; j < sc->n; j++) {
			const struct step *st = &sc->steps[j];
			int64_t now = st->t_ms * 1000000;
			int r = 0;

			print_message("%s, step %u\n", sc->name, j);
			switch (st->kind) {
			case FOLLOW:
				r = hold_follow(&h);
				break;
			case LOST_LOCKED:
				r = hold_lost(&h, 1, now);
				break;
			case LOST_UNLOCKED:
				r = hold_lost(&h, 0, now);
				break;
			case OUTRANKED:
				hold_outranked(&h);
				break;
			case LOOK:
				break;
			}
			assert_int_equal(r, st->ret);
			assert_int_equal(hold_active(&h), st->active);
			assert_int_equal(hold_clock_class(&h, BASE, now),
			    st->cls);
			assert_int_equal(hold_duration(&h, now),
			    st->dur_ms * 1000000);
			assert_int_equal(hold_expires_in(&h, now),
			    st->exp_ms < 0 ? -1 : st->exp_ms * 1000000);
		}
	}
}

/* The longest timeout the key allows: no overflow in ns. */
static void
test_long_timeout(void **state)
{
	struct holdover h;
	int64_t t = 2147483647LL * S;

	(void)state;
	hold_init(&h, 7, 2147483647, 0);
	hold_follow(&h);
	assert_int_equal(hold_lost(&h, 1, 5), 1);
	assert_int_equal(hold_expires_in(&h, 5), t);
	assert_int_equal(hold_clock_class(&h, 140, t + 4), 7);
	assert_int_equal(hold_clock_class(&h, 140, t + 5), 140);
	/* A clock that went back in time: no negative duration. */
	assert_int_equal(hold_duration(&h, 4), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedules),
		cmocka_unit_test(test_long_timeout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
