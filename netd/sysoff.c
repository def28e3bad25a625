/*
 * sysoff.c - PHC to CLOCK_REALTIME offset measurement (sysoff.h).
 *
 * The kernel's answers are checked like any input: a nanosecond field
 * outside [0, 1e9) or seconds that overflow int64 ns make the answer
 * malformed (-EINVAL), never a wrong offset.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "drv.h"
#include "sysoff.h"

#define NS	1000000000LL

_Static_assert(SYSOFF_MAX_SAMPLES == PTP_MAX_SAMPLES,
    "one bound for the samples of every method");

const char *
sysoff_method_name(enum sysoff_method m)
{
	switch (m) {
	case SYSOFF_PRECISE:	return "PTP_SYS_OFFSET_PRECISE";
	case SYSOFF_EXTENDED:	return "PTP_SYS_OFFSET_EXTENDED";
	case SYSOFF_BASIC:	return "PTP_SYS_OFFSET";
	case SYSOFF_NONE:	break;
	}
	return "none";
}

int
sysoff_best(const struct sysoff_sample *s, int n, struct sysoff_result *out)
{
	int i, best = -1;
	int64_t w, bw = 0;

	if (n < 1 || n > SYSOFF_MAX_SAMPLES)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (s[i].sys_after < s[i].sys_before)
			continue;
		/* Both within +-292 years of the epoch: no overflow. */
		w = s[i].sys_after - s[i].sys_before;
		if (best < 0 || w < bw) {
			best = i;
			bw = w;
		}
	}
	if (best < 0)
		return -EINVAL;
	out->delay = bw;
	out->phc_ns = s[best].phc;
	/* The PHC was read somewhere in the bracket: its middle. */
	out->sys_minus_phc = s[best].sys_before + bw / 2 - s[best].phc;
	return 0;
}

/* A ptp_clock_time as ns since the epoch; -EINVAL if malformed. */
static int
sysoff_ns(const struct ptp_clock_time *t, int64_t *ns)
{
	/* 0 .. 2^62 ns (year 2116): differences of two cannot overflow. */
	if (t->nsec >= NS || t->sec < 0 || t->sec > (INT64_MAX / 2) / NS)
		return -EINVAL;
	*ns = t->sec * NS + t->nsec;
	return 0;
}

static int
sysoff_precise(int fd, struct sysoff_result *out)
{
	struct ptp_sys_offset_precise p;
	int64_t dev, sys;
	int err;

	memset(&p, 0, sizeof(p));
	if ((err = drv()->sysoff_precise(fd, &p)) != 0)
		return err;
	if (sysoff_ns(&p.device, &dev) != 0 ||
	    sysoff_ns(&p.sys_realtime, &sys) != 0)
		return -EINVAL;
	/* One instant read by both clocks: no bracket. */
	out->sys_minus_phc = sys - dev;
	out->phc_ns = dev;
	out->delay = 0;
	return 0;
}

static int
sysoff_extended(int fd, int n, struct sysoff_result *out)
{
	struct ptp_sys_offset_extended e;
	struct sysoff_sample s[SYSOFF_MAX_SAMPLES];
	int i, err;

	memset(&e, 0, sizeof(e));
	e.n_samples = (unsigned)n;
	if ((err = drv()->sysoff_extended(fd, &e)) != 0)
		return err;
	for (i = 0; i < n; i++)
		if (sysoff_ns(&e.ts[i][0], &s[i].sys_before) != 0 ||
		    sysoff_ns(&e.ts[i][1], &s[i].phc) != 0 ||
		    sysoff_ns(&e.ts[i][2], &s[i].sys_after) != 0)
			return -EINVAL;
	return sysoff_best(s, n, out);
}

static int
sysoff_basic(int fd, int n, struct sysoff_result *out)
{
	struct ptp_sys_offset b;
	struct sysoff_sample s[SYSOFF_MAX_SAMPLES];
	int i, err;

	memset(&b, 0, sizeof(b));
	b.n_samples = (unsigned)n;
	if ((err = drv()->sysoff_basic(fd, &b)) != 0)
		return err;
	/* sys, phc, sys, phc, ..., sys: 2n + 1 stamps, each sys shared. */
	for (i = 0; i < n; i++)
		if (sysoff_ns(&b.ts[2 * i], &s[i].sys_before) != 0 ||
		    sysoff_ns(&b.ts[2 * i + 1], &s[i].phc) != 0 ||
		    sysoff_ns(&b.ts[2 * i + 2], &s[i].sys_after) != 0)
			return -EINVAL;
	return sysoff_best(s, n, out);
}

int
sysoff_measure(int fd, enum sysoff_method m, int n, struct sysoff_result *out)
{
	if (n < 1 || n > SYSOFF_MAX_SAMPLES)
		return -EINVAL;
	switch (m) {
	case SYSOFF_PRECISE:	return sysoff_precise(fd, out);
	case SYSOFF_EXTENDED:	return sysoff_extended(fd, n, out);
	case SYSOFF_BASIC:	return sysoff_basic(fd, n, out);
	case SYSOFF_NONE:	break;
	}
	return -EINVAL;
}

int
sysoff_probe(int fd, int n, enum sysoff_method *method,
    struct sysoff_result *out)
{
	static const enum sysoff_method order[] = {
		SYSOFF_PRECISE, SYSOFF_EXTENDED, SYSOFF_BASIC,
	};
	size_t i;
	int err = -EOPNOTSUPP;

	*method = SYSOFF_NONE;
	if (n < 1 || n > SYSOFF_MAX_SAMPLES)
		return -EINVAL;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if ((err = sysoff_measure(fd, order[i], n, out)) == 0) {
			*method = order[i];
			return 0;
		}
	}
	return err;
}
