/*
 * leap.h - the leap second seen by a grandmaster with a leapfile, over
 * lib/leapfile.h's table, and by a slave's clock that counts UTC (from
 * the flags): pure (no clock, no I/O).
 *
 * The grandmaster announces (IEEE 1588-2019 8.2.4, timePropertiesDS):
 * currentUtcOffset, TAI-UTC at its current time, from the table;
 * currentUtcOffsetValid; and leap61 (leap59) while the last minute of the
 * current UTC day has 61 (59) seconds, for which this clock, like ptp4l
 * and phc2sys, uses the 12 hours before the leap (LEAP_WINDOW_S): a slave
 * that joins later in the day still learns of it hours ahead, and a
 * clock a few seconds off near midnight does not take the next day's
 * flag for today's.  After the leap the flag is gone and the offset is
 * the new one.
 *
 * Times are int64 ns: the clock's own (clk_ns: PTP time when the clock
 * counts TAI, a PHC; POSIX UTC for the system and virtual clocks) and
 * POSIX UTC (utc_ns, Unix epoch, 86400 s a day; the inserted second
 * 23:59:60 is a second 23:59:59 again, as the kernel counts it).
 */
#ifndef PTPSEP_CLOCKD_LEAP_H
#define PTPSEP_CLOCKD_LEAP_H

#include <stdint.h>

#include "leapfile.h"

#define LEAP_WINDOW_S		(12 * 3600)
/* how often the grandmaster reads its clock: within the window, and
 * otherwise at most (a read also catches a stepped clock) */
#define LEAP_READ_NEAR_NS	1000000000LL
#define LEAP_READ_FAR_NS	(600 * 1000000000LL)

/* What the grandmaster announces at one instant. */
struct leap_props {
	int		 offset;	/* currentUtcOffset, s */
	int		 leap;		/* +1: leap61, -1: leap59, 0: none */
	int64_t		 leap_at_s;	/* the 00:00 UTC after it (Unix s) */
};

/*
 * UTC of the clock's time clk_ns (counts_tai: the clock counts PTP time):
 * 0, or -1 before 1972 (no integer TAI-UTC: the caller falls back to
 * utc_offset).
 */
int	leap_utc_of(const struct leaptab *t, int64_t clk_ns, int counts_tai,
	    int64_t *utc_ns);
/* The announcement at utc_ns: 0, or -1 before 1972. */
int	leap_props_at(const struct leaptab *t, int64_t utc_ns,
	    struct leap_props *lp);
/*
 * ns from utc_ns until the clock should be read again: the next change of
 * the announcement (the window opening, the leap itself) if sooner than
 * the read interval (LEAP_READ_NEAR_NS within the window, else
 * LEAP_READ_FAR_NS); never less than 1 ms.
 */
int64_t	leap_next_read_ns(const struct leaptab *t, int64_t utc_ns);
/*
 * 1 when utc_ns lies in the last second before a pending leap's midnight
 * (lp from leap_props_at()): the second 23:59:59 that a UTC clock counts
 * twice for leap61, or the last one before the skipped 23:59:59 for
 * leap59.  A slave's UTC-counting clock cannot tell which 23:59:59 a
 * time stamp in it belongs to (the slave's servos decide on the flags
 * alone: leap_sample_utc() below, sysclk_leap_hold()).
 */
int	leap_ambiguous(const struct leap_props *lp, int64_t utc_ns);

/*
 * The slave side (and a grandmaster's own UTC clock): a leap second armed
 * on the clock that counts UTC (netd's ClockSetLeap), from the leap61/59
 * flag of timePropertiesDS (8.2.4).  at_s is the 00:00 UTC it is armed
 * for (Unix s); leap 0: nothing armed.
 */
#define LEAP_DONE_S		2	/* s after the midnight: cleared */

struct leap_arm {
	int		 leap;
	int64_t		 at_s;
};

enum leap_act {
	LEAP_ACT_NONE,		/* as it is */
	LEAP_ACT_ARM,		/* send next->leap, armed for next->at_s */
	LEAP_ACT_CANCEL,	/* the flag went before the last second: 0 */
	LEAP_ACT_DONE,		/* LEAP_DONE_S past the midnight: netd
				 * applied it; 0
				 * clears the flag (the kernel keeps STA_INS
				 * until told, as ptp4l does) */
};

/*
 * What to do when timePropertiesDS shows flag (+1 leap61, -1 leap59, 0)
 * and the clock's UTC is utc_ns (POSIX, no leap applied yet: the PTP
 * clock's time less the offset believed before the leap).  A leap is
 * armed only before the last second of the day (the nearest midnight's,
 * as the flag is shown in the 12 h before it): inside it or after the
 * midnight a UTC clock may already have repeated its second, and an
 * arming then would insert a second at the next midnight.  *next is the
 * state after the action.
 */
enum leap_act leap_slave_step(const struct leap_arm *cur, int flag,
	    int64_t utc_ns, struct leap_arm *next);
/*
 * The UTC offset (s) *utc for a sample of a clock that counts UTC taken at
 * its time local_ns against a TAI grandmaster that announces n and flags:
 * n, but n+1 (leap61) or n-1 (leap59) once the local clock is past the
 * midnight while the grandmaster still shows the old n with the flag.
 * 1 (the sample is held) in the second the clock repeats (leap61: a time
 * stamp there cannot be placed) or in the one before the skip (leap59),
 * else 0.
 */
int	leap_sample_utc(uint16_t flags, int n, int64_t local_ns, int *utc);

#endif /* PTPSEP_CLOCKD_LEAP_H */
