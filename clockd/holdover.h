/*
 * holdover.h - holdover: the clock lost its last grandmaster while its
 * servo was locked, and runs on at the last frequency netd has (netd
 * keeps it; nothing resets it when the master goes).  What a
 * grandmaster-capable clock then announces as its clockClass follows a
 * schedule of two keys:
 *
 *   holdover_clock_class  the class announced in holdover (0: off, the
 *                         clock's own clockClass at once, as without
 *                         holdover);
 *   holdover_timeout      seconds after which the clock's own clockClass
 *                         is announced again (0: the holdover class lasts
 *                         until a grandmaster returns).
 *
 * ITU-T G.8275.1's 6 -> 7 -> 140 (or 150, 160) is clockClass 140,
 * holdover_clock_class 7, holdover_timeout the oscillator's holdover
 * specification.  IEEE 1588-2019 7.6.2.5 gives the meaning of the
 * classes (7: a clock that was 6 and is in holdover within its
 * specification); the schedule itself is the profile's (doc/design.md).
 *
 * Pure: no I/O, no clock reads; every time comes in as an argument (ns of
 * clock_now()).
 */
#ifndef PTPSEP_CLOCKD_HOLDOVER_H
#define PTPSEP_CLOCKD_HOLDOVER_H

#include <stdint.h>

struct holdover {
	uint8_t		 clock_class;	/* holdover_clock_class; 0: off */
	int64_t		 timeout_ns;	/* 0: until a grandmaster returns */
	int		 slave_only;	/* shows holdover, never announces */
	int		 following;	/* a foreign grandmaster is selected */
	int		 active;
	int64_t		 since;		/* entered, ns */
};

/* From the keys (holdover_clock_class, holdover_timeout in s). */
void	hold_init(struct holdover *h, int clock_class, int64_t timeout_s,
	    int slave_only);
/*
 * The state decision selected a foreign master (9.3.3: Ebest better than
 * D0).  Leaves holdover; returns 1 if it was in holdover.
 */
int	hold_follow(struct holdover *h);
/*
 * The state decision found no foreign master at all (no Erbest on any
 * port).  Enters holdover when one was followed until now and the servo
 * was locked (locked); returns 1 if it entered.
 */
int	hold_lost(struct holdover *h, int locked, int64_t now);
/*
 * D0 won over a foreign master's Ebest: not a loss (the operator made
 * this clock better, or the master degraded); a holdover goes on.
 */
void	hold_outranked(struct holdover *h);
/* 1 while in holdover. */
int	hold_active(const struct holdover *h);
/* Time in holdover, ns (0 when not). */
int64_t	hold_duration(const struct holdover *h, int64_t now);
/*
 * The clockClass to announce now, base being defaultDS's: the holdover
 * class until the timeout, then base; base when not in holdover, when
 * off, and always for a slave-only clock.
 */
uint8_t	hold_clock_class(const struct holdover *h, uint8_t base,
	    int64_t now);
/* ns until hold_clock_class() changes by itself; -1 when it never will. */
int64_t	hold_expires_in(const struct holdover *h, int64_t now);

#endif /* PTPSEP_CLOCKD_HOLDOVER_H */
