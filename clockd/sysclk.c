/*
 * sysclk.c - the system clock's servo (sysclk.h): every
 * 1/system_clock_update_rate s a ClockCompare to netd; its answer, the
 * system clock minus the PTP clock as read, becomes the follower's offset
 * (the UTC offset applied) and goes into a servo of its own, created from
 * the same keys as the PTP clock's (clock_servo, pi_*, step thresholds:
 * phc2sys reads ptp4l's), whose changes go to the follower within its
 * bounds: the system clock's ClockInfo, or the PTP clock's through
 * clock_steer_freq()/clock_steer_step().  A step that may not be asked
 * for, or that netd refused, is slewed away as the PTP clock's servo does
 * (clock_policy.h).  doc/design.md, "the system clock".
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cfg.h"
#include "clockd.h"
#include "log.h"
#include "ptp_time.h"

/* A compare unanswered this long is given up (netd always answers one;
 * a reconnection loses it). */
#define SYSCLK_CMP_LOST_PERIODS	4

/* ---- pure ---- */

enum sysclk_dir
sysclk_direction(int slave, int grandmaster, int holdover)
{
	/* phc2sys -a -r: a slave port's clock is the source of the system
	 * clock; in holdover it still is the best time this host has. */
	if (slave || holdover)
		return SYSCLK_SYS_FOLLOWS_PTP;
	if (grandmaster)
		return SYSCLK_PTP_FOLLOWS_SYS;
	return SYSCLK_OFF;
}

int
sysclk_utc_offset(int ptp_tai, int grandmaster, uint16_t flags,
    int tds_offset, int believed)
{
	if (!ptp_tai)
		return 0;
	if (grandmaster)
		return tds_offset;
	/* 7.2.4: an ARB grandmaster's epoch is its own; the PTP clock
	 * counts it and the system clock takes it as it is. */
	if (!(flags & PTP_FLAG_PTP_TIMESCALE))
		return 0;
	return believed;
}

int
sysclk_offset(enum sysclk_dir dir, int64_t sys_minus_ptp, int utc_s,
    int64_t *offset)
{
	int64_t o;

	/* In step: system = PTP - utc_s (UTC = TAI - currentUtcOffset). */
	if (ptp_ns_add(sys_minus_ptp, (int64_t)utc_s * 1000000000LL, &o) != 0)
		return -ERANGE;
	if (dir == SYSCLK_PTP_FOLLOWS_SYS) {
		if (o == INT64_MIN)
			return -ERANGE;
		o = -o;
	}
	*offset = o;
	return 0;
}

int
sysclk_leap_hold(uint16_t flags, int64_t utc_ns)
{
	int64_t s, m;
	int last;

	if (flags & PTP_FLAG_LEAP61)
		last = 1;
	else if (flags & PTP_FLAG_LEAP59)
		last = 2;
	else
		return 0;
	/* the flags are announced only in the 12 h before the midnight
	 * (8.2.4.4) and a few s after it: that midnight is the nearest */
	s = utc_ns / 1000000000LL - (utc_ns % 1000000000LL < 0);
	m = (s + 43200) / 86400 * 86400 - ((s + 43200) % 86400 < 0) * 86400;
	return s >= m - last;
}

const char *
sysclk_dir_name(enum sysclk_dir dir)
{
	switch (dir) {
	case SYSCLK_SYS_FOLLOWS_PTP:
		return "the system clock follows the PTP clock";
	case SYSCLK_PTP_FOLLOWS_SYS:
		return "the PTP clock follows the system clock";
	default:
		return "neither clock is steered";
	}
}

/* ---- glue ---- */

static void sysclk_ev_cmp(void *arg);

int
sysclk_init(struct clockd *c)
{
	struct sysclk *s = &c->sys;
	double hz = cfg_get_double(c->cfg, NULL, "system_clock_update_rate");

	memset(s, 0, sizeof(*s));
	s->period_ns = (int64_t)(1e9 / hz);
	s->state = SERVO_UNLOCKED;
	s->refusal = CR_NETD_UNREACHABLE;
	s->t_cmp = env_timer_new(&c->env, sysclk_ev_cmp, c);
	return s->t_cmp == NULL ? -1 : 0;
}

void
sysclk_fini(struct clockd *c)
{
	struct sysclk *s = &c->sys;

	if (s->servo != NULL)
		servo_destroy(s->servo);
	s->servo = NULL;
	env_timer_free(&c->env, s->t_cmp);
	s->t_cmp = NULL;
}

/* The follower's frequency now: where its servo starts. */
static double
sysclk_follower_freq(const struct clockd *c)
{
	const struct sysclk *s = &c->sys;

	return s->dir == SYSCLK_PTP_FOLLOWS_SYS ? c->freq_ppb : s->sys_freq;
}

static double
sysclk_follower_max(const struct clockd *c)
{
	const struct sysclk *s = &c->sys;

	return s->dir == SYSCLK_PTP_FOLLOWS_SYS ? c->max_freq_ppb :
	    s->info.max_freq_ppb;
}

/* (Re)creates the servo for the follower now, as clock_create_servo(). */
static int
sysclk_servo_new(struct clockd *c)
{
	struct sysclk *s = &c->sys;
	struct cfg *cfg = c->cfg;
	struct servo_params sp;
	int type;

	if (s->servo != NULL)
		servo_destroy(s->servo);
	s->servo = NULL;
	/* netd compares the clocks with no network between them: the
	 * hardware time stamps' PI constants, as phc2sys */
	s->slew_done_ns = clock_servo_params(cfg, 0, &sp);
	sp.clock_max_freq_ppb = sysclk_follower_max(c);
	sp.init_freq_ppb = sysclk_follower_freq(c);
	sp.sync_interval = (double)s->period_ns / 1e9;
	/*
	 * PI, or linreg when that is the clock_servo: phc2sys's two.  The
	 * kalman servo models a network path's delay noise, which a compare
	 * of two clocks of this host does not have: in sysclk.sh it held
	 * the system clock -200 ns behind the PHC at 4 Hz where PI holds it
	 * within +-30 ns.
	 */
	type = cfg_get_int(cfg, NULL, "clock_servo") == CFG_SERVO_LINREG ?
	    SERVO_LINREG : SERVO_PI;
	s->servo = servo_create(type, &sp);
	if (s->servo == NULL) {
		log_warnx("system clock: cannot create its servo");
		return -1;
	}
	s->state = SERVO_UNLOCKED;
	s->slewing = 0;
	return 0;
}

static void
sysclk_arm(struct clockd *c)
{
	struct sysclk *s = &c->sys;

	if (s->t_cmp != NULL && !env_timer_pending(&c->env, s->t_cmp))
		env_timer_arm(&c->env, s->t_cmp, s->period_ns);
}

void
sysclk_connected(struct clockd *c, const struct netd_port_list *pl)
{
	struct sysclk *s = &c->sys;
	struct netd_clock_req q;

	s->have = pl->have_sys_clock;
	s->cmp_id = 0;
	s->stepping = 0;
	s->state = SERVO_UNLOCKED;
	s->refusal = CR_NONE;
	if (!s->have) {
		if (s->t_cmp != NULL)
			env_timer_cancel(&c->env, s->t_cmp);
		return;
	}
	s->info = pl->sys_clock;
	/* netd may be a new one, and its clocks new: the servo starts over
	 * at the next sample, from the frequency read now */
	if (s->servo != NULL)
		servo_destroy(s->servo);
	s->servo = NULL;
	s->slewing = 0;
	s->cmp_drop = 0;
	s->step_allowed = s->info.step_allowed;
	s->refused_step_ns = 0;
	s->sys_freq_known = 0;
	s->adj_last = clock_now(c);
	/* Its frequency first: a restarted clockd carries on from it. */
	memset(&q, 0, sizeof(q));
	q.id = s->status_id = ++c->clock_req_id;
	q.op = NETD_CLOCK_READ;
	q.system_clock = 1;
	(void)env_clock_req(&c->env, &q);
	sysclk_arm(c);
}

void
sysclk_disconnected(struct clockd *c)
{
	struct sysclk *s = &c->sys;

	if (s->t_cmp != NULL)
		env_timer_cancel(&c->env, s->t_cmp);
	s->cmp_id = 0;
	s->stepping = 0;
	s->slewing = 0;
	s->state = SERVO_UNLOCKED;
	s->refusal = CR_NETD_UNREACHABLE;
}

static void
sysclk_ev_cmp(void *arg)
{
	struct clockd *c = arg;
	struct sysclk *s = &c->sys;
	struct netd_clock_req q;

	if (!s->have || !env_netd_ready(&c->env))
		return;
	sysclk_arm(c);
	if (s->cmp_id != 0 && clock_now(c) - s->cmp_sent <
	    SYSCLK_CMP_LOST_PERIODS * s->period_ns)
		return;
	memset(&q, 0, sizeof(q));
	q.id = ++c->clock_req_id;
	q.op = NETD_CLOCK_COMPARE;
	if (env_clock_req(&c->env, &q) != 0)
		return;
	s->cmp_id = q.id;
	s->cmp_sent = clock_now(c);
}

/* This clock is the grandmaster, a port of it master. */
static int
sysclk_is_gm(const struct clockd *c)
{
	unsigned i;

	if (c->cds.steps_removed != 0 || !clock_is_own(c, c->pds.gm_identity))
		return 0;
	for (i = 0; i < c->nports; i++)
		if (c->ports[i].state == PS_MASTER ||
		    c->ports[i].state == PS_PRE_MASTER)
			return 1;
	return 0;
}

static int
sysclk_is_slave(const struct clockd *c)
{
	const struct cport *p;

	if (c->slave_port < 0 || (unsigned)c->slave_port >= c->nports)
		return 0;
	p = &c->ports[c->slave_port];
	/* UNCALIBRATED at start: the PTP clock is still to be stepped
	 * onto the master's time; following it then would step the
	 * system clock twice (ptpsim: sys_steps 2).  Once its servo has
	 * locked (a new master, say), it is the best time there is. */
	if (p->state == PS_UNCALIBRATED)
		return c->servo_state == SERVO_LOCKED ||
		    c->servo_state == SERVO_LOCKED_STABLE;
	return p->state == PS_SLAVE;
}

/* The system clock's frequency, within its rate limit. */
static void
sysclk_adjfreq(struct clockd *c, double ppb)
{
	struct sysclk *s = &c->sys;
	struct netd_clock_req q;

	if (s->dir == SYSCLK_PTP_FOLLOWS_SYS) {
		clock_steer_freq(c, ppb);
		return;
	}
	/* One change per sample; netd's min_adj_interval_ms is far below
	 * the compare period unless both were set against each other. */
	if (clock_now(c) - s->adj_last <
	    (int64_t)s->info.min_adj_interval_ms * 1000000)
		return;
	memset(&q, 0, sizeof(q));
	q.id = ++c->clock_req_id;
	q.op = NETD_CLOCK_ADJFREQ;
	q.system_clock = 1;
	q.freq_ppb = ppb;
	s->adj_last = clock_now(c);
	if (env_clock_req(&c->env, &q) == 0)
		s->sys_freq = ppb;
}

static enum clock_refusal
sysclk_step_refusal(const struct clockd *c, int64_t offset)
{
	const struct sysclk *s = &c->sys;
	struct cpol_bounds b;

	b.step_allowed = s->step_allowed;
	b.max_step_ns = s->info.max_step_ns > 0 ?
	    (uint64_t)s->info.max_step_ns : 0;
	b.refused_step_ns = s->refused_step_ns;
	return cpol_step_check(&b, offset);
}

/* A step of the follower by -offset; CR_NONE when asked for. */
static enum clock_refusal
sysclk_step(struct clockd *c, int64_t offset)
{
	struct sysclk *s = &c->sys;
	struct netd_clock_req q;
	enum clock_refusal cr;

	if (s->dir == SYSCLK_PTP_FOLLOWS_SYS)
		return clock_steer_step(c, offset);
	cr = sysclk_step_refusal(c, offset);
	if (cr != CR_NONE)
		return cr;
	memset(&q, 0, sizeof(q));
	q.id = ++c->clock_req_id;
	q.op = NETD_CLOCK_STEP;
	q.system_clock = 1;
	q.step_ns = ptp_ns_sat_neg(offset);
	if (env_clock_req(&c->env, &q) == 0) {
		s->stepping = 1;
		s->step_id = q.id;
		s->step_ns = q.step_ns;
		log_info("stepping the system clock by %+" PRId64 " ns",
		    q.step_ns);
	}
	return CR_NONE;
}

static void
sysclk_refuse(struct clockd *c, enum clock_refusal cr, int64_t offset)
{
	struct sysclk *s = &c->sys;

	if (cr != CR_NONE && cr != s->refusal)
		log_warnx("system clock: offset %+" PRId64 " ns, cannot "
		    "step (%s): slewing", offset, cpol_refusal_name(cr));
	s->refusal = cr;
}

/* As clock_slew(): an offset that may not be stepped is slewed away. */
static void
sysclk_slew(struct clockd *c, int64_t offset)
{
	struct sysclk *s = &c->sys;
	enum clock_refusal cr = sysclk_step_refusal(c, offset);

	s->state = SERVO_UNLOCKED;
	if (s->dir == SYSCLK_SYS_FOLLOWS_PTP && cr == CR_NONE) {
		s->slewing = 0;
		sysclk_adjfreq(c, s->slew_base);
		s->state = SERVO_JUMP;
		(void)sysclk_step(c, offset);
		return;
	}
	if (ptp_ns_abs(offset) <= s->slew_done_ns) {
		s->slewing = 0;
		sysclk_adjfreq(c, s->slew_base);
		servo_reset(s->servo);
		sysclk_refuse(c, CR_NONE, offset);
		return;
	}
	sysclk_adjfreq(c, cpol_slew_freq(s->slew_base, offset,
	    servo_max_frequency(s->servo)));
}

static void
sysclk_slew_start(struct clockd *c, double base, enum clock_refusal cr,
    int64_t offset)
{
	struct sysclk *s = &c->sys;

	s->slewing = 1;
	s->slew_base = base;
	servo_reset(s->servo);
	sysclk_refuse(c, cr, offset);
	sysclk_slew(c, offset);
}

/* A compare's answer: one sample of the follower's offset. */
static void
sysclk_sample(struct clockd *c, const struct netd_clock_offset *o)
{
	struct sysclk *s = &c->sys;
	enum sysclk_dir dir;
	enum servo_state st;
	enum clock_refusal cr;
	int gm = sysclk_is_gm(c), utc;
	int64_t offset, ptp_ns;
	double freq;

	dir = sysclk_direction(sysclk_is_slave(c), gm, hold_active(&c->hold));
	if (dir != s->dir || s->servo == NULL) {
		if (dir != s->dir)
			log_info("system clock: %s", sysclk_dir_name(dir));
		s->dir = dir;
		if (dir != SYSCLK_OFF && sysclk_servo_new(c) != 0)
			return;
	}
	utc = sysclk_utc_offset(!c->local_utc, gm, c->tds.flags,
	    c->tds.current_utc_offset, c->utc_offset);
	if (sysclk_offset(dir, o->sys_minus_ptp_ns, utc, &offset) != 0)
		return;
	if (o->have_ptp_time && ptp_time_to_ns(&o->ptp_time, &ptp_ns) == 0 &&
	    sysclk_leap_hold(c->tds.flags, ptp_ns_sat_sub(ptp_ns,
	    (int64_t)utc * 1000000000LL))) {
		if (s->leap_held++ == 0)
			log_info("system clock: a leap second: its samples are "
			    "held until the new UTC offset");
		return;
	}
	if (s->leap_held != 0 && !(c->tds.flags &
	    (PTP_FLAG_LEAP61 | PTP_FLAG_LEAP59))) {
		log_info("system clock: %" PRIu64 " samples held over the "
		    "leap second", s->leap_held);
		s->leap_held = 0;
	}
	s->have_sample = 1;
	s->offset_ns = offset;
	s->delay_ns = o->delay_ns;
	s->method = o->method;
	s->utc_offset_s = utc;
	s->samples++;
	if (dir == SYSCLK_OFF) {
		s->state = SERVO_UNLOCKED;
		return;
	}
	/* A step in flight: the sample predates it or not, unknown. */
	if (s->stepping || (dir == SYSCLK_PTP_FOLLOWS_SYS && c->stepping))
		return;
	if (c->free_running) {
		s->state = SERVO_UNLOCKED;
		return;
	}
	if (s->slewing) {
		sysclk_slew(c, offset);
		return;
	}
	freq = servo_sample(s->servo, offset, (uint64_t)clock_now(c), 1.0,
	    &st);
	s->state = st;
	switch (st) {
	case SERVO_UNLOCKED:
		break;
	case SERVO_JUMP:
		cr = sysclk_step_refusal(c, offset);
		if (s->dir == SYSCLK_SYS_FOLLOWS_PTP && cr != CR_NONE) {
			sysclk_slew_start(c, freq, cr, offset);
			break;
		}
		sysclk_adjfreq(c, freq);
		cr = sysclk_step(c, offset);
		if (cr != CR_NONE)
			sysclk_slew_start(c, freq, cr, offset);
		break;
	case SERVO_LOCKED:
	case SERVO_LOCKED_STABLE:
		sysclk_adjfreq(c, freq);
		if (s->refusal != CR_NONE && s->refusal != CR_NETD_UNREACHABLE)
			sysclk_refuse(c, CR_NONE, offset);
		break;
	}
}

/* netd refused the system clock's step: learn its bound, slew instead. */
static void
sysclk_step_refused(struct clockd *c, enum clock_refusal cr)
{
	struct sysclk *s = &c->sys;
	int64_t offset = ptp_ns_sat_neg(s->step_ns);

	switch (cr) {
	case CR_STEP_NOT_ALLOWED:
		s->step_allowed = 0;
		break;
	case CR_STEP_TOO_LARGE:
		s->refused_step_ns = ptp_ns_abs(s->step_ns);
		break;
	default:
		break;
	}
	log_warnx("netd refused the system clock's step by %+" PRId64
	    " ns (%s)", s->step_ns, cpol_refusal_name(cr));
	s->state = SERVO_UNLOCKED;
	if (s->servo != NULL)
		sysclk_slew_start(c, s->sys_freq, cr, offset);
}

/*
 * The PTP clock's servo stepped it (a slave's first lock, a new
 * grandmaster): the system clock, following it, is that far off now.  Its
 * servo starts over, so that the step thresholds apply as at start
 * (rather than slewing seconds away at max_freq_ppb), and a compare in
 * flight, which may predate the step, is dropped.
 */
void
sysclk_ptp_stepped(struct clockd *c)
{
	struct sysclk *s = &c->sys;

	if (!s->have || s->dir == SYSCLK_PTP_FOLLOWS_SYS)
		return;
	if (s->servo != NULL)
		servo_destroy(s->servo);
	s->servo = NULL;
	s->slewing = 0;
	s->state = SERVO_UNLOCKED;
	s->cmp_drop = s->cmp_id;
	s->cmp_id = 0;
}

int
sysclk_reply(struct clockd *c, const struct netd_clock_reply *r)
{
	struct sysclk *s = &c->sys;

	if (s->cmp_drop != 0 && r->id == s->cmp_drop) {
		s->cmp_drop = 0;
		return 1;
	}

	if (s->cmp_id != 0 && r->id == s->cmp_id) {
		s->cmp_id = 0;
		if (r->ok && r->have_offset)
			sysclk_sample(c, &r->offset);
		return 1;
	}
	if (!r->system_clock)
		return 0;
	if (r->id == s->status_id) {
		if (r->ok) {
			s->sys_freq = r->freq_ppb;
			s->sys_freq_known = 1;
		}
		return 1;
	}
	if (s->stepping && r->id == s->step_id) {
		s->stepping = 0;
		if (!r->ok) {
			sysclk_step_refused(c, r->refusal);
			return 1;
		}
		s->steps++;
		if (s->refusal != CR_NONE)
			sysclk_refuse(c, CR_NONE, 0);
		return 1;
	}
	/* netd answers a frequency change only to refuse it */
	if (!r->ok) {
		if (isfinite(r->freq_ppb))
			s->sys_freq = r->freq_ppb;
		if (r->refusal == CR_RATE_LIMITED)
			s->adj_last = clock_now(c);
		sysclk_refuse(c, r->refusal, s->offset_ns);
	}
	return 1;
}
