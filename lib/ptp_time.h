/*
 * ptp_time.h - checked arithmetic on times that come from the network.
 *
 * A PTP timestamp carries 48 bits of seconds (IEEE 1588-2019 5.3.3): up to
 * 2^48-1 s, which is ~2.8e23 ns and does not fit in int64.  A correction
 * field is a signed 64-bit count of 2^-16 ns (5.3.2).  Any host on a link
 * chooses these values, so every conversion and every sum or difference
 * of them goes through this module: it either gives the exact result or
 * says that there is none (-ERANGE), never wraps (signed overflow is
 * undefined behaviour in C, and the UBSan build aborts on it).
 *
 * netd and clockd both use it; it is pure (no clock, no I/O).
 */
#ifndef PTPSEP_PTP_TIME_H
#define PTPSEP_PTP_TIME_H

#include <stdint.h>
#include <time.h>

#include "ptp_msg.h"


/*
 * A wire timestamp as int64 ns: -EINVAL when nsec >= 1e9 (5.3.3 bounds
 * nanoseconds), -ERANGE when it lies beyond int64 (after the year 2262).
 */
int	ptp_time_to_ns(const struct ptp_timestamp *ts, int64_t *ns);
/*
 * a - b in ns, exact for any two wire timestamps (up to 2^48 s apart the
 * difference is computed in __int128): -EINVAL as above, -ERANGE when the
 * difference itself is beyond int64.
 */
int	ptp_time_sub(const struct ptp_timestamp *a,
	    const struct ptp_timestamp *b, int64_t *ns);
/* ns as a wire timestamp; -ERANGE for a negative time (before the epoch). */
int	ptp_time_from_ns(int64_t ns, struct ptp_timestamp *ts);
/* The same for a struct timespec (nsec outside [0, 1e9): -EINVAL). */
int	ptp_timespec_to_ns(struct timespec ts, int64_t *ns);

/* Checked: 0 and *r, or -ERANGE (and *r untouched) when it overflows. */
int	ptp_ns_add(int64_t a, int64_t b, int64_t *r);
int	ptp_ns_sub(int64_t a, int64_t b, int64_t *r);

/* Saturating, for values that are only shown or compared with a bound. */
int64_t	ptp_ns_sat_add(int64_t a, int64_t b);
int64_t	ptp_ns_sat_sub(int64_t a, int64_t b);
int64_t	ptp_ns_sat_neg(int64_t a);
/* |a| as uint64 (defined for INT64_MIN too). */
uint64_t ptp_ns_abs(int64_t a);
/* A double (ns) rounded to int64, saturating; NaN gives 0. */
int64_t	ptp_ns_from_double(double v);

#endif /* PTPSEP_PTP_TIME_H */
