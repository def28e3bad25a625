/*
 * ptp_time.c - checked arithmetic on times from the network (ptp_time.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "ptp_time.h"

#define PTP_NS_PER_S	1000000000LL

static int
fits_int64(__int128 v)
{
	return v >= INT64_MIN && v <= INT64_MAX;
}

int
ptp_time_to_ns(const struct ptp_timestamp *ts, int64_t *ns)
{
	__int128 v;

	if (ts->nsec >= PTP_NS_PER_S)
		return -EINVAL;
	/* sec < 2^48 on the wire, but the struct holds 64 bits: a value
	 * above INT64_MAX s is out of range before the multiplication. */
	if (ts->sec > (uint64_t)INT64_MAX)
		return -ERANGE;
	v = (__int128)ts->sec * PTP_NS_PER_S + ts->nsec;
	if (!fits_int64(v))
		return -ERANGE;
	*ns = (int64_t)v;
	return 0;
}

int
ptp_time_sub(const struct ptp_timestamp *a, const struct ptp_timestamp *b,
    int64_t *ns)
{
	__int128 v;

	if (a->nsec >= PTP_NS_PER_S || b->nsec >= PTP_NS_PER_S)
		return -EINVAL;
	/* Each side below 2^64 * 1e9 < 2^94: no overflow in __int128. */
	v = ((__int128)a->sec - (__int128)b->sec) * PTP_NS_PER_S +
	    ((int64_t)a->nsec - (int64_t)b->nsec);
	if (!fits_int64(v))
		return -ERANGE;
	*ns = (int64_t)v;
	return 0;
}

int
ptp_time_from_ns(int64_t ns, struct ptp_timestamp *ts)
{
	if (ns < 0)
		return -ERANGE;
	ts->sec = (uint64_t)(ns / PTP_NS_PER_S);
	ts->nsec = (uint32_t)(ns % PTP_NS_PER_S);
	return 0;
}

int
ptp_timespec_to_ns(struct timespec ts, int64_t *ns)
{
	__int128 v;

	if (ts.tv_nsec < 0 || ts.tv_nsec >= PTP_NS_PER_S)
		return -EINVAL;
	v = (__int128)ts.tv_sec * PTP_NS_PER_S + ts.tv_nsec;
	if (!fits_int64(v))
		return -ERANGE;
	*ns = (int64_t)v;
	return 0;
}

int
ptp_ns_add(int64_t a, int64_t b, int64_t *r)
{
	int64_t v;

	if (__builtin_add_overflow(a, b, &v))
		return -ERANGE;
	*r = v;
	return 0;
}

int
ptp_ns_sub(int64_t a, int64_t b, int64_t *r)
{
	int64_t v;

	if (__builtin_sub_overflow(a, b, &v))
		return -ERANGE;
	*r = v;
	return 0;
}

int64_t
ptp_ns_sat_add(int64_t a, int64_t b)
{
	int64_t v;

	if (__builtin_add_overflow(a, b, &v))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return v;
}

int64_t
ptp_ns_sat_sub(int64_t a, int64_t b)
{
	int64_t v;

	if (__builtin_sub_overflow(a, b, &v))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return v;
}

int64_t
ptp_ns_sat_neg(int64_t a)
{
	return a == INT64_MIN ? INT64_MAX : -a;
}

uint64_t
ptp_ns_abs(int64_t a)
{
	return a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
}

int64_t
ptp_ns_from_double(double v)
{
	if (isnan(v))
		return 0;
	/* 2^63 is exactly representable; anything at or above it saturates. */
	if (v >= 9223372036854775808.0)
		return INT64_MAX;
	if (v <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)llround(v);
}
