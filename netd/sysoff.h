/*
 * sysoff.h - the offset between a PHC and CLOCK_REALTIME, as phc2sys
 * measures it: PTP_SYS_OFFSET_PRECISE (a cross time stamp taken by the
 * hardware, e.g. PCIe PTM or Intel ART), else PTP_SYS_OFFSET_EXTENDED
 * (the driver brackets its PHC read with two system clock reads), else
 * the basic PTP_SYS_OFFSET (the core brackets the driver's gettime).  Of n
 * samples the tightest bracket wins and its midpoint is taken.
 *
 * sysoff_best() is pure; sysoff_probe()/sysoff_measure() ask through the
 * driver seam (drv.h).  Nothing calls them yet: the system clock steered
 * from the PHC (issue 14, item 2) will.
 */
#ifndef PTPSEP_NETD_SYSOFF_H
#define PTPSEP_NETD_SYSOFF_H

#include <stdint.h>

enum sysoff_method {
	SYSOFF_NONE = 0,
	SYSOFF_PRECISE,
	SYSOFF_EXTENDED,
	SYSOFF_BASIC,
};

/* 1 .. PTP_MAX_SAMPLES (linux/ptp_clock.h) samples per measurement. */
#define SYSOFF_MAX_SAMPLES	25

/* One bracket: system clock before, PHC, system clock after (ns). */
struct sysoff_sample {
	int64_t	sys_before;
	int64_t	phc;
	int64_t	sys_after;
};

/* One measurement's result. */
struct sysoff_result {
	int64_t	sys_minus_phc;	/* CLOCK_REALTIME - PHC at phc_ns, ns */
	int64_t	phc_ns;		/* the PHC's reading of the sample */
	int64_t	delay;		/* the bracket's width, ns (0: PRECISE) */
};

/*
 * The sample of the tightest bracket (the first of equals); brackets
 * running backwards (the system clock stepped in between) are skipped.
 * 0, or -EINVAL when n is out of range or no bracket is valid.
 */
int	sysoff_best(const struct sysoff_sample *s, int n,
	    struct sysoff_result *out);
/*
 * The first method the PHC behind fd answers (PRECISE, EXTENDED, BASIC)
 * with one measurement of n samples in *out.  0, or the last -errno with
 * *method SYSOFF_NONE.
 */
int	sysoff_probe(int fd, int n, enum sysoff_method *method,
	    struct sysoff_result *out);
/* One measurement by method; 0 or -errno (-EINVAL: a malformed answer). */
int	sysoff_measure(int fd, enum sysoff_method method, int n,
	    struct sysoff_result *out);
const char *sysoff_method_name(enum sysoff_method);

#endif /* PTPSEP_NETD_SYSOFF_H */
