/*
 * clock.c - clock factory, the generic wrappers and clock_apply().
 *
 * The backends are in clock_posix.c (system, PHC) and clock_virtual.c; the
 * bounds on requests in clock_bounds.c.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ptp_time.h"
#include "clock.h"

struct clock *
clock_open(const char *device, const struct clock_params *p)
{
	static const struct clock_params defaults;

	if (device == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (p == NULL)
		p = &defaults;
	if (strcmp(device, "system") == 0)
		return clock_system_open();
	if (strcmp(device, "virtual") == 0)
		return vclock_open(p);
	if (strncmp(device, "/dev/ptp", 8) == 0)
		return clock_phc_open(device);
	log_warnx("clock_device %s: not system, virtual or /dev/ptpN", device);
	errno = EINVAL;
	return NULL;
}

void
clock_close(struct clock *c)
{
	if (c != NULL)
		c->ops->destroy(c);
}

int
clock_read(struct clock *c, struct timespec *ts)
{
	return c->ops->gettime(c, ts);
}

int
clock_adjfreq(struct clock *c, double ppb)
{
	return c->ops->adjfreq(c, ppb);
}

int
clock_step(struct clock *c, int64_t ns)
{
	return c->ops->step(c, ns);
}

int
clock_getfreq(struct clock *c, double *ppb)
{
	return c->ops->getfreq(c, ppb);
}

int
clock_to_timescale(struct clock *c, struct timespec raw, struct timespec *out)
{
	return c->ops->to_timescale(c, raw, out);
}

int
clock_set_leap(struct clock *c, int leap, int tai, int set_tai)
{
	int rc;

	if (!c->leap_allowed)
		return -EOPNOTSUPP;
	if ((rc = c->ops->set_leap(c, leap, tai, set_tai)) < 0)
		return rc;
	c->leap = leap;
	if (set_tai)
		c->tai_offset = tai;
	return 0;
}

int
clock_get_state(struct clock *c, const struct timespec *raw,
    struct clock_state *st)
{
	struct timespec now, v;
	int64_t r, t;
	int rc;

	memset(st, 0, sizeof(*st));
	st->steps = c->steps;
	st->tai_offset = c->tai_offset;
	if ((rc = clock_getfreq(c, &st->freq_ppb)) < 0)
		return rc;
	if (c->kind != CLOCK_KIND_VIRTUAL) {
		st->leap = c->leap;
		st->leaps = c->leaps;
		return 0;
	}
	if (raw == NULL) {
		if (clock_gettime(CLOCK_REALTIME, &now) != 0)
			return -errno;
		raw = &now;
	}
	if ((rc = clock_to_timescale(c, *raw, &v)) < 0 ||
	    (rc = ptp_timespec_to_ns(*raw, &r)) < 0 ||
	    (rc = ptp_timespec_to_ns(v, &t)) < 0)
		return rc;
	st->offset_from_realtime_ns = t - r;
	st->have_offset = 1;
	/* After the conversion: it applies a leap that is due at raw. */
	st->leap = c->leap;
	st->leaps = c->leaps;
	return 0;
}

const char *
clock_kind_name(enum clock_kind kind)
{
	switch (kind) {
	case CLOCK_KIND_SYSTEM:
		return "system";
	case CLOCK_KIND_PHC:
		return "phc";
	case CLOCK_KIND_VIRTUAL:
		return "virtual";
	}
	return "?";
}

struct timespec
clock_ns_to_ts(int64_t ns)
{
	struct timespec ts;
	int64_t sec = ns / NSEC_PER_SEC, rem = ns % NSEC_PER_SEC;

	/* C division truncates toward zero; timespec wants nsec in [0, 1e9). */
	if (rem < 0) {
		rem += NSEC_PER_SEC;
		sec -= 1;
	}
	ts.tv_sec = (time_t)sec;
	ts.tv_nsec = (long)rem;
	return ts;
}

int
clock_apply(struct clock *c, const struct clock_bounds *b,
    struct clock_bounds_state *st, const struct clock_req *req,
    int64_t now_ns, enum clock_status *status)
{
	int rc;

	/* Whatever the bounds: a clock on TAI takes no leap second. */
	if (req->op == CLOCK_OP_LEAP && !c->leap_allowed)
		*status = CLOCK_ST_NOT_SUPPORTED;
	else
		*status = clock_check_request(b, st, req, now_ns);
	if (*status != CLOCK_ST_OK) {
		log_warnx("clock %s: %s request refused: %s", c->name,
		    clock_op_name(req->op), clock_status_name(*status));
		return -EPERM;
	}
	if (req->op == CLOCK_OP_LEAP) {
		rc = clock_set_leap(c, req->leap, req->tai_offset,
		    req->set_tai);
		/* Counted as the 1 s step it is, even if it failed. */
		if (req->leap != 0)
			clock_bounds_record_step(st, now_ns);
		if (rc == 0)
			log_info("clock %s: leap %+d %s%s", c->name, req->leap,
			    req->leap ? "armed for the next UTC midnight" :
			    "cancelled", req->set_tai ? ", TAI offset set" :
			    "");
	} else if (req->op == CLOCK_OP_ADJFREQ) {
		rc = clock_adjfreq(c, req->freq_ppb);
		/* As for steps: a failed attempt still starts the interval. */
		clock_bounds_record_adj(st, now_ns);
	} else {
		rc = clock_step(c, req->step_ns);
		/*
		 * A step the kernel refused still counts: a peer that keeps
		 * asking must not get more attempts than the window allows.
		 */
		clock_bounds_record_step(st, now_ns);
		if (rc == 0)
			c->steps++;
	}
	if (rc < 0) {
		errno = -rc;
		log_warn("clock %s: %s", c->name, clock_op_name(req->op));
	}
	return rc;
}
