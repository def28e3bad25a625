/*
 * clock_posix.c - the clocks the kernel keeps: CLOCK_REALTIME ("system")
 * and PTP hardware clocks (/dev/ptpN), both driven through clock_adjtime()
 * by way of the driver seam (drv.h), which tests replace.
 *
 * SAFETY: the system backend really slews and steps this machine's clock.
 * No test calls it; tests use the virtual clock.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timex.h>
#include <unistd.h>
#include <linux/ptp_clock.h>

#include "drv.h"
#include "log.h"
#include "clock.h"

/* Dynamic POSIX clock id of an open character device (clock_gettime(2)). */
#define CLOCKFD			3
#define FD_TO_CLOCKID(fd)	((clockid_t)((((unsigned int)~(fd)) << 3) | CLOCKFD))

/*
 * The kernel's ADJ_FREQUENCY range for CLOCK_REALTIME is +-500 ppm
 * (MAXFREQ); larger requests would be silently clamped by the kernel, so
 * they are refused here instead.
 */
#define SYSTEM_MAX_ADJ_PPB	500000.0

struct pclock {
	struct clock	 base;	/* first: struct clock * casts to it */
	int		 fd;	/* PHC only, -1 for the system clock */
};

static struct pclock *
to_pclock(struct clock *c)
{
	return (struct pclock *)c;
}

static int
pclock_gettime(struct clock *c, struct timespec *ts)
{
	if (clock_gettime(c->base_clkid, ts) != 0)
		return -errno;
	return 0;
}

/*
 * timex.freq is in "scaled ppm": ppm with a 16-bit binary fraction.  The
 * caller has bounded |ppb| by max_adj_ppb (an int), so no overflow.
 */
static long
ppb_to_scaled_ppm(double ppb)
{
	double s = ppb * 65.536;

	return (long)(s < 0 ? s - 0.5 : s + 0.5);
}

static int
pclock_adjfreq(struct clock *c, double ppb)
{
	struct timex tx;

	if (!isfinite(ppb) || fabs(ppb) > c->max_adj_ppb)
		return -ERANGE;
	memset(&tx, 0, sizeof(tx));
	tx.modes = ADJ_FREQUENCY;
	tx.freq = ppb_to_scaled_ppm(ppb);
	return drv()->adjtime(c->base_clkid, &tx);
}

static int
pclock_getfreq(struct clock *c, double *ppb)
{
	struct timex tx;
	int err;

	memset(&tx, 0, sizeof(tx));	/* modes 0: read only */
	if ((err = drv()->adjtime(c->base_clkid, &tx)) != 0)
		return err;
	*ppb = (double)tx.freq / 65.536;
	return 0;
}

static int
pclock_step(struct clock *c, int64_t ns)
{
	struct timex tx;
	struct timespec d;

	if (ns > CLOCK_MAX_STEP_NS || ns < -CLOCK_MAX_STEP_NS)
		return -ERANGE;
	/*
	 * ADJ_SETOFFSET adds time.tv_sec + time.tv_usec to the clock; with
	 * ADJ_NANO tv_usec holds nanoseconds and must be in [0, 1e9), so a
	 * negative offset is (-(n+1) s) + (1e9 - r) ns.  The addition is
	 * done in the kernel: no read-modify-write race.
	 */
	d = clock_ns_to_ts(ns);
	memset(&tx, 0, sizeof(tx));
	tx.modes = ADJ_SETOFFSET | ADJ_NANO;
	tx.time.tv_sec = d.tv_sec;
	tx.time.tv_usec = d.tv_nsec;
	return drv()->adjtime(c->base_clkid, &tx);
}

/*
 * The kernel's leap second for CLOCK_REALTIME: STA_INS (STA_DEL) makes it
 * repeat (skip) 23:59:59 at the next UTC midnight, and ADJ_TAI sets the
 * offset CLOCK_TAI keeps.  ADJ_STATUS writes the whole status, so it is
 * read first and only the leap bits change (STA_PLL, STA_UNSYNC and the
 * others stay as ntpd or the operator left them).  A PHC counts TAI and
 * takes no leap (leap_allowed 0: clock_set_leap() never gets here).
 */
static int
pclock_set_leap(struct clock *c, int leap, int tai, int set_tai)
{
	struct timex tx;
	int err;

	if (c->kind != CLOCK_KIND_SYSTEM)
		return -EOPNOTSUPP;
	memset(&tx, 0, sizeof(tx));	/* modes 0: read only */
	if ((err = drv()->adjtime(c->base_clkid, &tx)) != 0)
		return err;
	tx.status &= ~(STA_INS | STA_DEL);
	if (leap > 0)
		tx.status |= STA_INS;
	else if (leap < 0)
		tx.status |= STA_DEL;
	tx.modes = ADJ_STATUS;
	if (set_tai) {
		tx.modes |= ADJ_TAI;
		tx.constant = tai;
	}
	return drv()->adjtime(c->base_clkid, &tx);
}

/* Timestamps are already in this clock's timescale. */
static int
pclock_to_timescale(struct clock *c, struct timespec raw, struct timespec *out)
{
	if (raw.tv_nsec < 0 || raw.tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	*out = raw;
	return 0;
}

static void
pclock_destroy(struct clock *c)
{
	struct pclock *pc = to_pclock(c);

	if (pc->fd >= 0)
		close(pc->fd);
	free(pc);
}

int
clock_phc_fd(struct clock *c)
{
	return c->kind == CLOCK_KIND_PHC ? to_pclock(c)->fd : -1;
}

static const struct clock_ops pclock_ops = {
	.gettime = pclock_gettime,
	.adjfreq = pclock_adjfreq,
	.step = pclock_step,
	.getfreq = pclock_getfreq,
	.to_timescale = pclock_to_timescale,
	.set_leap = pclock_set_leap,
	.destroy = pclock_destroy,
};

struct clock *
clock_system_open(void)
{
	struct pclock *pc;

	if ((pc = calloc(1, sizeof(*pc))) == NULL)
		return NULL;
	pc->base.ops = &pclock_ops;
	pc->base.kind = CLOCK_KIND_SYSTEM;
	snprintf(pc->base.name, sizeof(pc->base.name), "system");
	pc->base.max_adj_ppb = SYSTEM_MAX_ADJ_PPB;
	pc->base.base_clkid = CLOCK_REALTIME;
	pc->base.leap_allowed = 1;	/* CLOCK_REALTIME counts UTC */
	pc->fd = -1;
	return &pc->base;
}

struct clock *
clock_phc_open(const char *path)
{
	struct ptp_clock_caps caps;
	struct timespec res;
	struct pclock *pc;
	struct stat st;
	int fd, saved, err;

	/*
	 * O_RDWR: the kernel allows clock_adjtime() on a dynamic clock only
	 * through an fd opened for writing, and this fd is what lets netd
	 * keep disciplining the PHC after it drops root.
	 */
	if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0) {
		saved = errno;
		log_warn("open %s", path);
		errno = saved;
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode)) {
		log_warnx("%s: not a character device", path);
		close(fd);
		errno = ENODEV;
		return NULL;
	}
	if ((pc = calloc(1, sizeof(*pc))) == NULL)
		goto no_mem;
	pc->fd = fd;
	pc->base.ops = &pclock_ops;
	pc->base.kind = CLOCK_KIND_PHC;
	snprintf(pc->base.name, sizeof(pc->base.name), "%s", path);
	pc->base.base_clkid = FD_TO_CLOCKID(fd);
	/* Both fail on a character device that is not a PHC. */
	if ((err = drv()->getres(pc->base.base_clkid, &res)) != 0) {
		saved = -err;
		log_warnx("%s: clock_getres: %s", path, strerror(saved));
		goto no_clock;
	}
	if ((err = drv()->phc_caps(fd, &caps)) != 0) {
		saved = -err;
		log_warnx("%s: PTP_CLOCK_GETCAPS: %s", path, strerror(saved));
		goto no_clock;
	}
	if (caps.max_adj <= 0) {
		log_warnx("%s: reports no frequency adjustment (max_adj %d)",
		    path, caps.max_adj);
		saved = ENOTSUP;
		goto no_clock;
	}
	pc->base.max_adj_ppb = caps.max_adj;
	log_info("%s: PHC, max_adj %d ppb, resolution %ld ns", path,
	    caps.max_adj, (long)res.tv_nsec);
	return &pc->base;

no_clock:
	free(pc);
	close(fd);
	errno = saved;
	return NULL;
no_mem:
	saved = errno;
	close(fd);
	errno = saved;
	return NULL;
}
