/*
 * sysclk.h - clockd's second servo: the system clock and the PTP clock
 * kept together (sync_system_clock 1; issue 14, doc/design.md), the
 * built-in counterpart of linuxptp's `phc2sys -a -r'.
 *
 * netd owns both clocks and compares them (ClockCompare: the system clock
 * minus the PTP clock, raw); clockd decides which follows which, applies
 * the UTC offset between their timescales and steers the follower within
 * the follower's bounds.  The direction: while a port is SLAVE or
 * UNCALIBRATED (or the clock is in holdover) the system clock follows the
 * PTP clock; while this clock is the grandmaster the PTP clock follows the
 * system clock (fed by NTP, chrony or GNSS), through clock_servo.c so that
 * the PTP clock keeps one rate accounting; else neither is steered.
 *
 * The pure parts (direction, UTC offset, the sign of the offset) are
 * exported for tests/unit/test_sysclk.c; the rest is glue over env.h.
 */
#ifndef PTPSEP_CLOCKD_SYSCLK_H
#define PTPSEP_CLOCKD_SYSCLK_H

#include <stdint.h>

#include "clock_policy.h"
#include "netd_types.h"
#include "servo.h"

struct clockd;
struct env_timer;

enum sysclk_dir {
	SYSCLK_OFF = 0,		/* neither is steered */
	SYSCLK_SYS_FOLLOWS_PTP,	/* a slave: the system clock follows */
	SYSCLK_PTP_FOLLOWS_SYS,	/* the grandmaster: the PTP clock follows */
};

struct sysclk {
	int			 have;		/* netd has a system clock */
	struct netd_clock_info	 info;		/* its bounds */
	enum sysclk_dir		 dir;
	struct servo		*servo;
	enum servo_state	 state;		/* shown; unlocked unless steered */
	int64_t			 period_ns;	/* system_clock_update_rate */
	struct env_timer	*t_cmp;
	uint64_t		 cmp_id;	/* the compare in flight, 0: none */
	uint64_t		 cmp_drop;	/* one from before a step */
	int64_t			 cmp_sent;
	uint64_t		 status_id;	/* the system clock's read */
	/* the last sample */
	int			 have_sample;
	int64_t			 offset_ns;	/* follower minus leader, UTC */
	uint32_t		 delay_ns;
	enum netd_sysoff	 method;
	int			 utc_offset_s;	/* applied */
	/* the system clock's frequency in effect (ppb) */
	double			 sys_freq;
	int			 sys_freq_known;
	int64_t			 adj_last;	/* the last sent to it */
	/* its steps: in flight, refused (learnt), slewing instead */
	int			 stepping;
	uint64_t		 step_id;
	int64_t			 step_ns;
	int			 step_allowed;
	uint64_t		 refused_step_ns;
	int			 slewing;
	double			 slew_base;
	uint64_t		 slew_done_ns;
	enum clock_refusal	 refusal;
	uint64_t		 samples, steps;
	uint64_t		 leap_held;	/* samples held (sysclk_leap_hold) */
};

/* ---- pure ---- */
/* Which clock follows which: slave (a port SLAVE or UNCALIBRATED),
 * grandmaster (this clock, a port MASTER), holdover (holdover.h). */
enum sysclk_dir sysclk_direction(int slave, int grandmaster, int holdover);
/*
 * The UTC offset (s) between the clocks: the system clock counts UTC, the
 * PTP clock TAI when ptp_tai (7.2.4).  As grandmaster the own announced
 * currentUtcOffset (tds_offset); as a slave the offset believed (believed,
 * cpol_utc_update()) when the grandmaster's timescale is PTP (flags of
 * timePropertiesDS, 8.2.4), else 0: an ARB grandmaster's time is taken as
 * it is, and the PTP clock then counts it.
 */
int	sysclk_utc_offset(int ptp_tai, int grandmaster, uint16_t flags,
	    int tds_offset, int believed);
/*
 * The follower minus the leader (ns) from netd's raw system-minus-PTP
 * difference with utc_s applied: 0 when the clocks agree.  0, or -ERANGE
 * beyond int64 ns.  SYSCLK_OFF: as SYS_FOLLOWS_PTP (shown).
 */
int	sysclk_offset(enum sysclk_dir dir, int64_t sys_minus_ptp, int utc_s,
	    int64_t *offset);
/*
 * 1 when a sample taken at utc_ns (the PTP clock's time as UTC) is held
 * back around a leap second: timePropertiesDS announces leap61 (leap59,
 * flags) and utc_ns is in the last second of the day (for leap59 the last
 * two: 23:59:59 does not exist) or past midnight while the flag stays.  A
 * UTC system clock repeats (skips) a second there and the PTP clock does
 * not, so until the grandmaster's new currentUtcOffset arrives the two
 * differ by a second that is no error of either: no servo reaction, no
 * step (issue 14 item 3).
 */
int	sysclk_leap_hold(uint16_t flags, int64_t utc_ns);
const char *sysclk_dir_name(enum sysclk_dir dir);

/* ---- glue (the engine) ---- */
/* clock_init(): the key, the timer; 0 or -1. */
int	sysclk_init(struct clockd *c);
void	sysclk_fini(struct clockd *c);
/* netd's PortList (clock_netd.c): its system clock, or none. */
void	sysclk_connected(struct clockd *c, const struct netd_port_list *pl);
void	sysclk_disconnected(struct clockd *c);
/* netd stepped the PTP clock for its own servo. */
void	sysclk_ptp_stepped(struct clockd *c);
/* 1 when r is the system clock's or a compare's (consumed), else 0. */
int	sysclk_reply(struct clockd *c, const struct netd_clock_reply *r);

#endif /* PTPSEP_CLOCKD_SYSCLK_H */
