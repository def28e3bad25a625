/*
 * clock_cmp.c - the system clock against the PTP clock, for clockd's
 * second servo (sync_system_clock 1, doc/design.md "the system clock from
 * the PHC").
 *
 * netd only measures: the raw difference, system minus PTP, as read, with
 * the PTP clock's time of the sample and the width of the read bracket.
 * Which clock follows which, and the UTC offset between the PTP timescale
 * and UTC, are clockd's.
 *
 *   PHC        sysoff.h: PTP_SYS_OFFSET_PRECISE, _EXTENDED or the basic
 *              ioctl, samples per measurement, the tightest bracket.  The
 *              CLOCK_REALTIME side is mapped through the system clock
 *              (identity for system, the virtual mapping for virtual).
 *   otherwise  both clocks are kept over CLOCK_REALTIME (system, virtual):
 *              one CLOCK_REALTIME read mapped through both, exact.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "log.h"
#include "ptp_time.h"
#include "clock.h"
#include "sysoff.h"

_Static_assert((int)CLOCK_CMP_PRECISE == (int)SYSOFF_PRECISE &&
    (int)CLOCK_CMP_EXTENDED == (int)SYSOFF_EXTENDED &&
    (int)CLOCK_CMP_BASIC == (int)SYSOFF_BASIC, "sysoff methods");

static int
cmp_same_base(const struct clock *c)
{
	return c->kind != CLOCK_KIND_PHC && c->base_clkid == CLOCK_REALTIME;
}

enum clock_cmp_method
clock_cmp_probe(struct clock *ptp, struct clock *sys, int samples)
{
	enum sysoff_method m;
	struct sysoff_result r;
	int rc;

	if (cmp_same_base(ptp) && cmp_same_base(sys))
		return CLOCK_CMP_SAME_BASE;
	if (ptp->kind != CLOCK_KIND_PHC || !cmp_same_base(sys)) {
		log_warnx("system clock %s against %s: no way to compare them",
		    sys->name, ptp->name);
		return CLOCK_CMP_NONE;
	}
	rc = sysoff_probe(clock_phc_fd(ptp), samples, &m, &r);
	if (rc < 0) {
		errno = -rc;
		log_warn("%s: no PTP_SYS_OFFSET* ioctl answers", ptp->name);
		return CLOCK_CMP_NONE;
	}
	log_info("%s against the system clock: %s, %d sample(s), bracket "
	    "%lld ns", ptp->name, sysoff_method_name(m), samples,
	    (long long)r.delay);
	return (enum clock_cmp_method)m;
}

static int
cmp_map(struct clock *c, int64_t raw, int64_t *out)
{
	struct timespec ts;
	int rc;

	if ((rc = clock_to_timescale(c, clock_ns_to_ts(raw), &ts)) < 0)
		return rc;
	return ptp_timespec_to_ns(ts, out);
}

int
clock_compare(struct clock *ptp, struct clock *sys,
    enum clock_cmp_method method, int samples, const struct timespec *raw,
    struct clock_cmp *out)
{
	struct sysoff_result r;
	struct timespec now;
	int64_t t, p, s;
	int rc;

	memset(out, 0, sizeof(*out));
	switch (method) {
	case CLOCK_CMP_SAME_BASE:
		if (!cmp_same_base(ptp) || !cmp_same_base(sys))
			return -EINVAL;
		if (raw == NULL) {
			if (clock_gettime(CLOCK_REALTIME, &now) != 0)
				return -errno;
			raw = &now;
		}
		if ((rc = ptp_timespec_to_ns(*raw, &t)) < 0 ||
		    (rc = cmp_map(ptp, t, &p)) < 0 ||
		    (rc = cmp_map(sys, t, &s)) < 0)
			return rc;
		break;
	case CLOCK_CMP_PRECISE:
	case CLOCK_CMP_EXTENDED:
	case CLOCK_CMP_BASIC:
		if (ptp->kind != CLOCK_KIND_PHC || !cmp_same_base(sys))
			return -EINVAL;
		rc = sysoff_measure(clock_phc_fd(ptp),
		    (enum sysoff_method)method, samples, &r);
		if (rc < 0)
			return rc;
		p = r.phc_ns;
		/* CLOCK_REALTIME at the sample, then the system clock's. */
		if (__builtin_add_overflow(r.phc_ns, r.sys_minus_phc, &t))
			return -ERANGE;
		if ((rc = cmp_map(sys, t, &s)) < 0)
			return rc;
		out->delay_ns = r.delay < 0 ? 0 : r.delay > UINT32_MAX ?
		    UINT32_MAX : (uint32_t)r.delay;
		break;
	default:
		return -EINVAL;
	}
	if (__builtin_sub_overflow(s, p, &out->sys_minus_ptp_ns))
		return -ERANGE;
	out->ptp_time = clock_ns_to_ts(p);
	out->method = method;
	return 0;
}

int
clock_cmp_due(int64_t *last_ns, int64_t now_ns)
{
	if (*last_ns >= 0 && now_ns - *last_ns < CLOCK_CMP_MIN_INTERVAL_NS &&
	    now_ns >= *last_ns)
		return 0;
	*last_ns = now_ns;
	return 1;
}

const char *
clock_cmp_method_name(enum clock_cmp_method m)
{
	switch (m) {
	case CLOCK_CMP_NONE:
		return "none";
	case CLOCK_CMP_PRECISE:
		return "precise";
	case CLOCK_CMP_EXTENDED:
		return "extended";
	case CLOCK_CMP_BASIC:
		return "basic";
	case CLOCK_CMP_SAME_BASE:
		return "same_base";
	}
	return "?";
}
