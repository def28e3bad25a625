/*
 * leap.h - the leap second seen by a grandmaster with a leapfile: pure
 * (no clock, no I/O), over lib/leapfile.h's table.
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
 * time stamp in it belongs to: the hook for the next step (the slave's
 * servo takes no sample in it, as ptp4l; not used yet).
 */
int	leap_ambiguous(const struct leap_props *lp, int64_t utc_ns);

#endif /* PTPSEP_CLOCKD_LEAP_H */
