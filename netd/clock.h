/*
 * clock.h - the clocks ptp-netd disciplines on behalf of clockd.
 *
 * One ops struct (as linuxptp's servo/transport), three backends:
 *
 *   system     CLOCK_REALTIME, through clock_adjtime().  Needs CAP_SYS_TIME.
 *   /dev/ptpN  a PTP hardware clock; the fd is opened O_RDWR before the
 *              privilege drop and kept for the life of netd, so no capability
 *              is needed afterwards (the kernel checks FMODE_WRITE on the fd).
 *   virtual    a software clock kept inside netd as an offset and a
 *              frequency over CLOCK_REALTIME (doc/design.md, "The
 *              bounds on the clock": network namespaces share
 *              CLOCK_REALTIME, and no test may touch the real clock).
 *
 * Every timestamp netd relays passes through clock_to_timescale(): "raw" is
 * a timestamp in the clock's base timescale (CLOCK_REALTIME for system and
 * virtual, i.e. software timestamps; the PHC's own time for a PHC, i.e.
 * hardware timestamps of that PHC), the result is in the timescale clockd
 * disciplines.  Only the virtual clock changes it.
 *
 * Clock requests from clockd are untrusted: clock_check_request() is the
 * pure bounds check (netd/clock_bounds.c), clock_apply() checks then acts.
 */
#ifndef PTPSEP_NETD_CLOCK_H
#define PTPSEP_NETD_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC	1000000000LL

enum clock_kind {
	CLOCK_KIND_SYSTEM,
	CLOCK_KIND_PHC,
	CLOCK_KIND_VIRTUAL,
};

struct cfg;
struct clock;

/*
 * Every op returns 0 or a negative errno.  adjfreq() sets the frequency
 * adjustment (ppb, positive = faster) absolutely, not incrementally, as
 * clock_adjtime(ADJ_FREQUENCY) does; getfreq() reads it back.
 */
struct clock_ops {
	int (*gettime)(struct clock *c, struct timespec *ts);
	int (*adjfreq)(struct clock *c, double ppb);
	int (*step)(struct clock *c, int64_t ns);
	int (*getfreq)(struct clock *c, double *ppb);
	int (*to_timescale)(struct clock *c, struct timespec raw,
	    struct timespec *out);
	/* Arm (+1, -1) or cancel (0) a leap second; set_tai: TAI - UTC. */
	int (*set_leap)(struct clock *c, int leap, int tai, int set_tai);
	void (*destroy)(struct clock *c);
};

/* Base that every backend embeds first (container_of style). */
struct clock {
	const struct clock_ops	*ops;
	enum clock_kind		 kind;
	char			 name[64];
	/* Largest |ppb| the backend can do (hardware or kernel limit). */
	double			 max_adj_ppb;
	/* Clock the raw timestamps are in (CLOCK_REALTIME or the PHC's). */
	clockid_t		 base_clkid;
	/* Steps clock_apply() made (ClockState.steps, ptpctl netd). */
	uint64_t		 steps;
	/*
	 * Whether the clock counts UTC and may take a leap second
	 * (ClockInfo.leap_allowed): set by the backend (system, virtual:
	 * yes; PHC: no, it counts TAI), then cleared by netd for a clock
	 * on PTP time or with kernel_leap 0.  clock_apply() refuses a
	 * ClockSetLeap on a clock without it (NOT_SUPPORTED).
	 */
	int			 leap_allowed;
	int			 leap;		/* armed: +1, -1, 0 none */
	int			 tai_offset;	/* last set, TAI - UTC (s) */
	/* Leap seconds applied (the virtual clock: at its midnight). */
	uint64_t		 leaps;
};

/*
 * Raw time source of the virtual clock: CLOCK_REALTIME in netd, a counter
 * in the tests so that they are deterministic.
 */
typedef int (*clock_now_fn)(void *arg, struct timespec *ts);

struct clock_params {
	/* virtual only: start offset from CLOCK_REALTIME (ns). */
	int64_t		 virtual_offset_ns;
	/* virtual only: the clock's own frequency error (ppb). */
	double		 virtual_freq_ppb;
	/* virtual only: NULL means CLOCK_REALTIME. */
	clock_now_fn	 now;
	void		*now_arg;
};

/*
 * device: "system", "virtual" or a PHC path ("/dev/ptp0").  Returns NULL
 * with errno set (and a log line) on failure.
 */
struct clock	*clock_open(const char *device, const struct clock_params *p);
void		 clock_close(struct clock *c);

int	clock_read(struct clock *c, struct timespec *ts);
int	clock_adjfreq(struct clock *c, double ppb);
int	clock_step(struct clock *c, int64_t ns);
int	clock_getfreq(struct clock *c, double *ppb);
int	clock_to_timescale(struct clock *c, struct timespec raw,
	    struct timespec *out);
/*
 * Arms (+1 insert, -1 delete) or cancels (0) a leap second at the clock's
 * next UTC midnight, and with set_tai sets TAI - UTC (the kernel's
 * ADJ_TAI).  No bounds: clock_apply() checks them.  -EOPNOTSUPP on a
 * clock that is not leap_allowed.
 */
int	clock_set_leap(struct clock *c, int leap, int tai, int set_tai);
const char *clock_kind_name(enum clock_kind kind);

/* Backends (clock_posix.c, clock_virtual.c). */
struct clock	*clock_system_open(void);
struct clock	*clock_phc_open(const char *path);
struct clock	*vclock_open(const struct clock_params *p);

/* The PHC's open fd, -1 for a clock that is not a PHC. */
int		 clock_phc_fd(struct clock *c);

/* What a clock is now (ctl.proto ClockState). */
struct clock_state {
	/* virtual only (have_offset): the clock minus CLOCK_REALTIME, ns */
	int	have_offset;
	int64_t	offset_from_realtime_ns;
	double	freq_ppb;
	uint64_t steps;
	int	leap;		/* armed */
	int	tai_offset;
	uint64_t leaps;		/* applied */
};
/*
 * raw: the CLOCK_REALTIME time to map (tests), NULL: read it now.
 * Returns 0 or a negative errno.
 */
int	clock_get_state(struct clock *c, const struct timespec *raw,
	    struct clock_state *st);

/*
 * ---- the system clock against the PTP clock (clock_cmp.c) ------------
 *
 * With sync_system_clock 1 netd keeps a second clock, the system clock
 * (CLOCK_REALTIME, or a virtual one for tests), and answers clockd's
 * ClockCompare with the system clock minus the PTP clock (doc/design.md).
 * The methods are netd.proto's SysoffMethod values: a PHC is measured
 * with sysoff.h's ioctls, and two clocks both kept over CLOCK_REALTIME
 * (system, virtual) by mapping one CLOCK_REALTIME read through both, which
 * is exact.
 */
enum clock_cmp_method {
	CLOCK_CMP_NONE = 0,
	CLOCK_CMP_PRECISE,	/* = SYSOFF_PRECISE ... */
	CLOCK_CMP_EXTENDED,
	CLOCK_CMP_BASIC,
	CLOCK_CMP_SAME_BASE,
};

/* At most one compare per this many ns (CLOCK_MONOTONIC): RATE_LIMITED. */
#define CLOCK_CMP_MIN_INTERVAL_NS	10000000LL

struct clock_cmp {
	int64_t			sys_minus_ptp_ns;	/* raw, no UTC offset */
	struct timespec		ptp_time;	/* the PTP clock at the sample */
	uint32_t		delay_ns;	/* read bracket, 0: exact */
	enum clock_cmp_method	method;
};

/*
 * How ptp and sys can be compared: SAME_BASE when both are kept over
 * CLOCK_REALTIME, else ptp must be a PHC and the first sysoff method it
 * answers (samples per measurement) is taken.  CLOCK_CMP_NONE (with a
 * log line) when neither works.
 */
enum clock_cmp_method clock_cmp_probe(struct clock *ptp, struct clock *sys,
	    int samples);
/*
 * One comparison by method.  raw (SAME_BASE only, tests): the
 * CLOCK_REALTIME instant to map, NULL: read it now.  0 or -errno.
 */
int	clock_compare(struct clock *ptp, struct clock *sys,
	    enum clock_cmp_method method, int samples,
	    const struct timespec *raw, struct clock_cmp *out);
/*
 * Pure: may a compare run at now_ns (CLOCK_MONOTONIC)?  *last_ns is the
 * last accepted one, < 0 none; updated when the answer is yes.
 */
int	clock_cmp_due(int64_t *last_ns, int64_t now_ns);
const char *clock_cmp_method_name(enum clock_cmp_method m);

/*
 * int64 ns -> timespec (tv_nsec in [0, 1e9)).  The other way is
 * ptp_timespec_to_ns() (lib/ptp_time.h), the one checked conversion.
 */
struct timespec clock_ns_to_ts(int64_t ns);

/* ---- bounds on clockd's requests (clock_bounds.c, pure) ---------------- */

/* The step rate window remembers at most this many steps. */
#define CLOCK_MAX_STEPS_LIMIT	64
/* No step may exceed 2^62 ns (~146 years): keeps every sum in int64. */
#define CLOCK_MAX_STEP_NS	(INT64_C(1) << 62)

enum clock_op {
	CLOCK_OP_ADJFREQ,
	CLOCK_OP_STEP,
	/* ClockSetLeap: an armed leap is bounded as a 1 s step */
	CLOCK_OP_LEAP,
};

enum clock_status {
	CLOCK_ST_OK = 0,
	CLOCK_ST_OUT_OF_BOUNDS,		/* |freq| > max_freq_ppb */
	CLOCK_ST_STEP_NOT_ALLOWED,	/* allow_step 0 */
	/* max_steps already in the window, or a frequency change sooner
	 * than min_adj_interval_ns after the last one */
	CLOCK_ST_RATE_LIMITED,
	CLOCK_ST_INVALID,		/* NaN/inf, |step| > 2^62, bad op */
	CLOCK_ST_STEP_TOO_LARGE,	/* |step| > max_step_ns */
	CLOCK_ST_NOT_SUPPORTED,		/* a leap on a clock not on UTC */
};

struct clock_bounds {
	double		max_freq_ppb;	/* >= 0 (0: only 0 ppb) */
	int		allow_step;
	/* Largest |step|, ns; 0 = no operator limit (2^62 still holds). */
	int64_t		max_step_ns;
	/*
	 * At most max_steps steps in any step_interval_ns; max_steps 0 = no
	 * limit (the interval is then unused).
	 */
	unsigned	max_steps;
	int64_t		step_interval_ns;
	/* Least time between two frequency changes, ns; 0 = no limit. */
	int64_t		min_adj_interval_ns;
};

/* Times (caller's monotonic ns) of the most recent steps, a ring. */
struct clock_bounds_state {
	int64_t		step_time[CLOCK_MAX_STEPS_LIMIT];
	unsigned	head;		/* next slot to write */
	unsigned	count;		/* valid entries, <= limit */
	int		have_adj;	/* a frequency change accepted */
	int64_t		adj_time;	/* ... at this time */
};

struct clock_req {
	enum clock_op	op;
	double		freq_ppb;	/* CLOCK_OP_ADJFREQ */
	int64_t		step_ns;	/* CLOCK_OP_STEP */
	/* CLOCK_OP_LEAP: +1, -1, 0 (cancel); tai_offset when set_tai */
	int		leap;
	int		tai_offset;
	int		set_tai;
	/* Not a bound: which clock (relay.c), ClockRequest.system_clock. */
	int		system_clock;
};

/* 0, or -EINVAL for a bounds configuration that cannot be enforced. */
int	clock_bounds_validate(const struct clock_bounds *b);
/*
 * The bounds of a configuration (max_freq_ppb, allow_step, max_step_ns,
 * max_steps_per_interval, step_limit_interval, min_adj_interval_ms),
 * validated.  Returns 0, or -EINVAL with a message in why.
 */
int	clock_bounds_from_cfg(const struct cfg *cfg, struct clock_bounds *b,
	    char *why, size_t len);
void	clock_bounds_state_init(struct clock_bounds_state *st);
/*
 * Pure: may this request be executed now?  now_ns must come from a clock
 * that requests cannot move (CLOCK_MONOTONIC in netd), so that stepping
 * the disciplined clock cannot reopen the rate window.  Never clamps.
 */
enum clock_status clock_check_request(const struct clock_bounds *b,
	    const struct clock_bounds_state *st, const struct clock_req *req,
	    int64_t now_ns);
/* Remember an executed step for the rate window. */
void	clock_bounds_record_step(struct clock_bounds_state *st, int64_t now_ns);
/* Remember an executed frequency change (min_adj_interval_ns). */
void	clock_bounds_record_adj(struct clock_bounds_state *st,
	    int64_t now_ns);
const char *clock_status_name(enum clock_status st);
const char *clock_op_name(enum clock_op op);
/* ClockSetLeap.tai_offset range (s): 37 in 2017, room for centuries. */
#define CLOCK_TAI_OFFSET_MAX	1000
/*
 * Whether netd answers a request (doc/design.md, the channel): a read, a
 * step and every refusal get a ClockReply; an accepted frequency change
 * does not (one message per servo sample, not two; clockd counts the
 * rate limit from its own send).  ok: executed without error.
 */
int	clock_reply_due(int is_read, const struct clock_req *req, int ok);

/*
 * Checks req, and when allowed executes it on c (recording a step).
 * Returns 0 and *status CLOCK_ST_OK on success; -EPERM with *status the
 * refusal reason; or the backend's negative errno (*status CLOCK_ST_OK).
 */
int	clock_apply(struct clock *c, const struct clock_bounds *b,
	    struct clock_bounds_state *st, const struct clock_req *req,
	    int64_t now_ns, enum clock_status *status);

#endif /* PTPSEP_NETD_CLOCK_H */
