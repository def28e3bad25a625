/*
 * clock_servo.c - the servo of ptp-clockd and its requests to netd: a slave
 * port's offsets go through the spike filter into the servo (PI or linear
 * regression), whose frequency changes and steps go to netd within the
 * bounds netd announced in ClockInfo (max_freq_ppb, allow_step,
 * max_step_ns, min_adj_interval_ms).  Where a step may not be asked for,
 * or netd refused one, the clock slews instead and the refusal is shown
 * (clock_refusal).  The pure decisions are in clock_policy.c; clock.c
 * holds the datasets, the BMCA and netd's callbacks.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "clockd.h"
#include "log.h"
#include "ptp_time.h"

/* After a step, Syncs time-stamped before it may still be in flight. */
#define STEP_GUARD_NS		(50 * 1000000LL)
/* A refusal's log line is repeated at most this often. */
#define REFUSAL_LOG_NS		(60 * 1000000000LL)
/* After netd rate-limited a step, the next one is asked no sooner. */
#define STEP_RETRY_NS		(10 * 1000000000LL)

/* ---- servo and clock requests ---- */

uint64_t
clock_servo_params(const struct cfg *cfg, int sw, struct servo_params *sp)
{
	servo_params_default(sp, sw);
	sp->max_frequency = cfg_get_int(cfg, NULL, "max_frequency");
	/* As in ptp4l.  With allow_step 0 (or beyond max_step_ns) the servo
	 * still says when it would step; the caller slews instead. */
	sp->step_threshold = cfg_get_double(cfg, NULL, "step_threshold");
	sp->first_step_threshold = cfg_get_double(cfg, NULL,
	    "first_step_threshold");
	sp->pi.kp = cfg_get_double(cfg, NULL, "pi_proportional_const");
	sp->pi.ki = cfg_get_double(cfg, NULL, "pi_integral_const");
	sp->pi.kp_scale = cfg_get_double(cfg, NULL, "pi_proportional_scale");
	sp->pi.kp_exponent = cfg_get_double(cfg, NULL,
	    "pi_proportional_exponent");
	sp->pi.kp_norm_max = cfg_get_double(cfg, NULL,
	    "pi_proportional_norm_max");
	sp->pi.ki_scale = cfg_get_double(cfg, NULL, "pi_integral_scale");
	sp->pi.ki_exponent = cfg_get_double(cfg, NULL, "pi_integral_exponent");
	sp->pi.ki_norm_max = cfg_get_double(cfg, NULL, "pi_integral_norm_max");
	/* a slew is done once within the step threshold (else 20 us) */
	return (uint64_t)(1e9 * (sp->step_threshold > 0.0 ?
	    sp->step_threshold : sp->first_step_threshold > 0.0 ?
	    sp->first_step_threshold : 0.00002));
}

void
clock_create_servo(struct clockd *c, double freq)
{
	struct cfg *cfg = c->cfg;
	struct servo_params sp;
	int sw = cfg_get_int(cfg, NULL, "time_stamping") == CFG_TS_SOFTWARE;

	c->slew_done_ns = clock_servo_params(cfg, sw, &sp);
	sp.clock_max_freq_ppb = c->max_freq_ppb;
	sp.init_freq_ppb = freq;
	sp.sync_interval = c->nports ? (double)port_interval_ns(
	    c->ports[0].log_sync_interval) / 1e9 : 1.0;
	switch (cfg_get_int(cfg, NULL, "clock_servo")) {
	case CFG_SERVO_LINREG:
		c->servo = servo_create(SERVO_LINREG, &sp);
		break;
	case CFG_SERVO_KALMAN:
		c->servo = servo_create(SERVO_KALMAN, &sp);
		break;
	default:
		c->servo = servo_create(SERVO_PI, &sp);
		break;
	}
	if (c->servo == NULL)
		fatalx("cannot create the servo (check the pi_* keys)");
	/* What the sample path asks: a key lookup is a bsearch and a few
	 * hundred instructions, too many for every Sync. */
	c->free_running = cfg_get_int(cfg, NULL, "free_running");
	c->summary_interval = cfg_get_int(cfg, NULL, "summary_interval");
	c->sw_ts = sw;
	c->adj_want = freq;
	c->feff_int = 0.0;
	c->feff_at = c->feff_from = clock_now(c);
	c->feff_off = 0;
	c->servo_state = SERVO_UNLOCKED;
	c->wait_delay_valid = 0;
	c->slewing = 0;
	cpol_sanity_init(&c->sanity, (double)cfg_get_int(cfg, NULL,
	    "sanity_freq_limit"));
	cpol_sanity_set_freq(&c->sanity, freq);
	log_info("servo %s, starting from %+.0f ppb",
	    servo_type_name(servo_get_type(c->servo)), freq);
}

static void
clock_log_sample(struct clockd *c, struct cport *p, int64_t offset,
    double freq, int64_t delay)
{
	int spl = c->summary_interval - p->log_sync_interval;
	int64_t n_per = spl > 0 ? (1LL << (spl > 20 ? 20 : spl)) : 1;
	int sn = c->servo_state == SERVO_LOCKED_STABLE ? 3 :
	    c->servo_state == SERVO_LOCKED ? 2 :
	    c->servo_state == SERVO_JUMP ? 1 : 0;

	/* ptp4l's lines, so that tools reading ptp4l's log read ours. */
	if (n_per <= 1) {
		log_info("master offset %10" PRId64 " s%d freq %+7.0f "
		    "path delay %9" PRId64, offset, sn, freq, delay);
		return;
	}
	c->sum_n++;
	c->sum_sq += (double)offset * (double)offset;
	if (ptp_ns_abs(offset) > (uint64_t)c->sum_max_abs)
		c->sum_max_abs = (int64_t)(ptp_ns_abs(offset) > INT64_MAX ?
		    INT64_MAX : ptp_ns_abs(offset));
	c->sum_freq += freq;
	c->sum_delay += (double)delay;
	if (c->sum_n >= n_per) {
		log_info("rms %4.0f max %4" PRId64 " freq %+6.0f delay %5.0f "
		    "s%d", sqrt(c->sum_sq / (double)c->sum_n), c->sum_max_abs,
		    c->sum_freq / (double)c->sum_n,
		    c->sum_delay / (double)c->sum_n, sn);
		c->sum_n = 0;
		c->sum_sq = c->sum_freq = c->sum_delay = 0;
		c->sum_max_abs = 0;
	}
}

int
clock_t2_ok(const struct clockd *c, int64_t t2)
{
	int64_t since;

	if (!c->step_guard)
		return 1;
	since = clock_now(c) - c->step_mono;
	if (since > 4 * 1000000000LL)
		return 1;
	/* Taken after the step: between the clock's time when netd answered
	 * and that time plus what has elapsed since. */
	return t2 >= ptp_ns_sat_sub(c->step_now, STEP_GUARD_NS) &&
	    t2 <= ptp_ns_sat_add(ptp_ns_sat_add(c->step_now, since),
	    STEP_GUARD_NS);
}

/*
 * Spike filter.  With software timestamps a Sync now and then reaches the
 * slave tens of microseconds late (the receiving CPU was busy): that
 * offset is a measurement error, not a clock error, and a PI servo fed
 * with it slews the clock away for tens of seconds.  While locked, an
 * offset beyond SPIKE_K times the recent mean |offset| (and beyond
 * SPIKE_FLOOR_NS) is not given to the servo; a run of SPIKE_MAX_RUN such
 * offsets in a row is taken as real (the master moved) and goes through.
 * ptp4l has no such filter; it is counted and logged.
 */
#define SPIKE_K		6.0
#define SPIKE_FLOOR_NS	2000.0
#define SPIKE_MAX_RUN	3
/* |offset| assumed at lock, before there is a history (software time
 * stamps on a veth: a few hundred ns to a microsecond). */
#define SPIKE_JITTER0	1000.0

static int
clock_spike(struct clockd *c, int64_t offset)
{
	double a = fabs((double)offset);

	if (c->servo_state != SERVO_LOCKED &&
	    c->servo_state != SERVO_LOCKED_STABLE) {
		c->jitter = SPIKE_JITTER0;
		c->spike_run = 0;
		return 0;
	}
	if (c->spike_run < SPIKE_MAX_RUN && a > SPIKE_K * c->jitter &&
	    a > SPIKE_FLOOR_NS) {
		c->spike_run++;
		c->spikes++;
		return 1;
	}
	c->spike_run = 0;
	c->jitter += (a - c->jitter) / 16.0;
	return 0;
}

/*
 * The offset the servo gets.  While it measures the frequency (UNLOCKED,
 * before its first estimate) the path delay is held at the value of the
 * wait's first sample: the physical delay does not change, but its filtered
 * estimate (a moving median of software time-stamped exchanges) drifts by a
 * microsecond or more while the filter fills, and that drift went straight
 * into the slope (-1.4 us over the 16 s wait: +95 ppb, which the software
 * PI, ki 0.001, then takes minutes to work off).  The sample that ends the
 * wait (SERVO_JUMP) still steps by the offset with the current delay.
 */
static int64_t
clock_wait_offset(const struct clockd *c, int64_t offset, int64_t delay)
{
	if (c->servo_state != SERVO_UNLOCKED || !c->wait_delay_valid)
		return offset;
	return ptp_ns_sat_sub(ptp_ns_sat_add(offset, delay), c->wait_delay);
}

/* ---- requests to netd, within its bounds ---- */

static void
clock_bounds(const struct clockd *c, struct cpol_bounds *b)
{
	b->step_allowed = c->step_allowed;
	b->max_step_ns = c->max_step_ns;
	b->refused_step_ns = c->refused_step_ns;
}

/*
 * The refusal in force: set by clockd's own decisions and by netd's
 * replies, shown by ptpctl status, logged when it changes and at most
 * once a minute while it lasts.
 */
void
clock_refuse(struct clockd *c, enum clock_refusal cr, int64_t offset)
{
	int64_t now = clock_now(c);
	double maxf = c->servo != NULL ? servo_max_frequency(c->servo) :
	    c->max_freq_ppb;

	c->refusal = cr;
	if (cr == CR_NONE || cr == CR_NETD_UNREACHABLE) {
		c->refusal_logged = cr;
		return;
	}
	if (cr == c->refusal_logged && now - c->refusal_log_at < REFUSAL_LOG_NS)
		return;
	c->refusal_logged = cr;
	c->refusal_log_at = now;
	switch (cr) {
	case CR_STEP_NOT_ALLOWED:
		log_warnx("offset %+" PRId64 " ns, but allow_step is 0: "
		    "slewing at most %.0f ppb instead, not locked", offset,
		    maxf);
		break;
	case CR_STEP_TOO_LARGE:
		log_warnx("offset %+" PRId64 " ns is beyond max_step_ns "
		    "%" PRIu64 ": slewing at most %.0f ppb instead, not locked",
		    offset, c->max_step_ns ? c->max_step_ns :
		    c->refused_step_ns, maxf);
		break;
	case CR_RATE_LIMITED:
		log_warnx("netd rate-limited a clock request "
		    "(min_adj_interval_ms, max_steps_per_interval)");
		break;
	case CR_OUT_OF_BOUNDS:
		log_warnx("netd refused a frequency beyond its max_freq_ppb "
		    "(%.0f)", c->max_freq_ppb);
		break;
	default:
		log_warnx("netd could not adjust the clock (%s)",
		    cpol_refusal_name(cr));
		break;
	}
}

/*
 * The least time from one frequency change sent to the next.  netd
 * measures min_adj_interval_ms between its receipts of the changes it
 * accepts; clockd, which has no answer to an accepted change (netd.proto),
 * counts from its sends.  A change that waited in the socket or in netd's
 * queue (netd busy with frames) longer than the next one would make the
 * next one look early: the margin, an eighth of the interval, at least
 * 1 ms and at most 100 ms, covers such a difference of latencies.  A
 * refusal all the same (RATE_LIMITED) is answered, and the interval then
 * counts from its receipt (clock_adj_refused).
 */
#define ADJ_MARGIN_MIN_NS	(1 * 1000000LL)
#define ADJ_MARGIN_MAX_NS	(100 * 1000000LL)

static int64_t
clock_adj_spacing(const struct clockd *c)
{
	int64_t m = c->min_adj_interval_ns / 8;

	if (c->min_adj_interval_ns <= 0)
		return 0;
	if (m < ADJ_MARGIN_MIN_NS)
		m = ADJ_MARGIN_MIN_NS;
	if (m > ADJ_MARGIN_MAX_NS)
		m = ADJ_MARGIN_MAX_NS;
	return c->min_adj_interval_ns + m;
}

/* The frequency in effect is now f (the mean since the last sample). */
static void
clock_freq_in_effect(struct clockd *c, double f)
{
	int64_t now = clock_now(c);

	c->feff_int += c->freq_ppb * (double)(now - c->feff_at);
	c->feff_at = now;
	c->freq_ppb = f;
}

/*
 * Before a servo sample: the mean frequency since the last one, if the
 * servo's was not in effect all along (held back by the rate limit,
 * refused).  Without it, the Kalman servo takes its own output for what
 * the clock ran at, and with min_adj_interval_ms longer than the Sync
 * interval its phase estimate went wrong at every held change (an offset
 * swinging by +-15 us, test_clock_env.c).
 */
static void
clock_freq_hint(struct clockd *c)
{
	int64_t now = clock_now(c);

	clock_freq_in_effect(c, c->freq_ppb);
	if (c->feff_off && now > c->feff_from)
		servo_applied(c->servo, c->feff_int /
		    (double)(now - c->feff_from));
	c->feff_int = 0.0;
	c->feff_from = now;
	c->feff_off = c->adj_pending;
}

/* Sends the newest frequency; unanswered, it is the one in effect. */
static void
clock_adjfreq_send(struct clockd *c)
{
	c->adj_pending = 0;
	c->adj_id = ++c->clock_req_id;
	c->adj_last = clock_now(c);
	if (env_clock_adjfreq(&c->env, c->adj_id, c->adj_want) == 0)
		clock_freq_in_effect(c, c->adj_want);
	cpol_sanity_set_freq(&c->sanity, c->adj_want);
	/* A frequency goes out: refused no more, unless netd says so again
	 * (its refusal is not logged again within the minute). */
	if (!c->slewing && c->refusal != CR_NONE &&
	    c->refusal != CR_STEP_TOO_LARGE &&
	    c->refusal != CR_NETD_UNREACHABLE)
		c->refusal = CR_NONE;
}

/* Arm the rate limit's timer for when the next change may go. */
static void
clock_adj_arm(struct clockd *c)
{
	int64_t left = clock_adj_spacing(c) - (clock_now(c) - c->adj_last);

	if (c->t_adj == NULL || env_timer_pending(&c->env, c->t_adj))
		return;
	env_timer_arm(&c->env, c->t_adj, left > 0 ? left : 0);
}

/* The rate limit's timer: the newest frequency, now that it may go. */
void
clock_ev_adj(void *arg)
{
	struct clockd *c = arg;

	if (!c->adj_pending || !env_netd_ready(&c->env))
		return;
	/* Whatever the timer: never inside the interval (see clock_adjfreq) */
	if (clock_now(c) - c->adj_last < clock_adj_spacing(c)) {
		clock_adj_arm(c);
		return;
	}
	clock_adjfreq_send(c);
}

/*
 * Set the frequency, never two changes closer than netd's
 * min_adj_interval_ms (it would refuse the second, RATE_LIMITED): a change
 * due sooner waits, and only the newest of those waiting is sent.  The
 * interval counts from the send of the last change, with a margin
 * (clock_adj_spacing); before the first, from the connection
 * (clock_cb_connected): a clockd before us may have changed the frequency
 * just before it.
 */
static void
clock_adjfreq(struct clockd *c, double ppb)
{
	c->adj_want = ppb;
	c->adj_pending = 1;
	if (clock_now(c) - c->adj_last >= clock_adj_spacing(c)) {
		if (c->t_adj != NULL)
			env_timer_cancel(&c->env, c->t_adj);
		clock_adjfreq_send(c);
		return;
	}
	c->feff_off = 1;
	clock_adj_arm(c);
}

/*
 * netd refused frequency change id.  If it was the last one sent, the
 * frequency in effect is the one before it, as netd says; after
 * RATE_LIMITED the newest frequency goes again, the interval counted
 * from now: after netd's receipt of the refused change, so after the
 * last one it accepted.  An older change refused is history: a newer one
 * went after it.
 */
void
clock_adj_refused(struct clockd *c, uint64_t id, enum clock_refusal cr,
    double freq_ppb)
{
	if (id == c->adj_id) {
		if (isfinite(freq_ppb))
			clock_freq_in_effect(c, freq_ppb);
		c->feff_off = 1;
		cpol_sanity_set_freq(&c->sanity, c->freq_ppb);
		if (cr == CR_RATE_LIMITED) {
			c->adj_last = clock_now(c);
			c->adj_pending = 1;
			clock_adj_arm(c);
		}
	}
	clock_refuse(c, cr, c->last_offset);
}

static void
clock_step(struct clockd *c, int64_t offset)
{
	unsigned i;

	c->step_ns = ptp_ns_sat_neg(offset);
	c->step_id = ++c->clock_req_id;
	if (env_clock_step(&c->env, c->step_id, c->step_ns) == 0) {
		c->stepping = 1;
		log_info("stepping the clock by %+" PRId64 " ns", c->step_ns);
		for (i = 0; i < c->nports; i++)
			slave_reset(&c->ports[i]);
	}
}

/* Why a step by -offset may not be asked for now (CR_NONE: it may). */
static enum clock_refusal
clock_step_refusal(const struct clockd *c, int64_t offset)
{
	struct cpol_bounds b;
	enum clock_refusal cr;

	clock_bounds(c, &b);
	cr = cpol_step_check(&b, offset);
	if (cr == CR_NONE && c->step_retry_at != 0 &&
	    clock_now(c) < c->step_retry_at)
		cr = CR_RATE_LIMITED;
	return cr;
}

/* The servo wanted a step that may not be made: slew from base instead. */
static void
clock_slew_start(struct clockd *c, double base, enum clock_refusal cr,
    int64_t offset)
{
	c->slewing = 1;
	c->slew_base = base;
	servo_reset(c->servo);
	clock_refuse(c, cr, offset);
}

/*
 * Slewing an offset away that could not be stepped: at most the servo's
 * frequency bound toward the master, never reported locked.  Once the
 * offset is within what may be stepped, the step the servo wanted is
 * made; once it is below the step threshold, the servo takes over again
 * (reset: it measures the frequency anew, the clock back at the
 * frequency the servo had found).
 */
static void
clock_slew(struct clockd *c, int64_t offset)
{
	enum clock_refusal cr = clock_step_refusal(c, offset);

	if (cr == CR_NONE) {
		c->slewing = 0;
		clock_adjfreq(c, c->slew_base);
		c->servo_state = SERVO_JUMP;
		clock_step(c, offset);
		return;
	}
	c->servo_state = SERVO_UNLOCKED;
	if (ptp_ns_abs(offset) <= c->slew_done_ns) {
		c->slewing = 0;
		clock_adjfreq(c, c->slew_base);
		servo_reset(c->servo);
		clock_refuse(c, CR_NONE, offset);
		log_info("offset %+" PRId64 " ns: slewed in, the servo takes "
		    "over", offset);
		return;
	}
	clock_adjfreq(c, cpol_slew_freq(c->slew_base, offset,
	    servo_max_frequency(c->servo)));
	clock_refuse(c, cr, offset);
}

void
clock_synchronize(struct clockd *c, struct cport *p, int64_t t2_ns,
    int64_t offset, int64_t delay)
{
	struct cpol_bounds b;
	enum servo_state st, shown;
	enum clock_refusal cr;
	double freq;
	int utc, sane;

	if (c->servo == NULL || c->stepping)
		return;
	/* 7.2.4: this clock counts UTC, the grandmaster TAI (ptpTimescale):
	 * the offset of clocks in step is -currentUtcOffset (as ptp4l). */
	clock_leap_update(c, t2_ns);
	utc = cpol_utc_correction(c->local_utc, c->tds.flags, c->utc_offset);
	/* A clock on UTC around a leap (8.2.4): no sample in the second it
	 * repeats (skips), which a time stamp cannot place; after its
	 * midnight the offset is the new one while the flag still shows. */
	if (utc != 0 && leap_sample_utc(c->tds.flags, utc, t2_ns, &utc))
		return;
	if (utc != 0 && ptp_ns_add(offset, (int64_t)utc * 1000000000LL,
	    &offset) != 0)
		return;		/* beyond int64 ns: no time of this era */
	sane = cpol_sanity_sample(&c->sanity, t2_ns, clock_now(c));
	if (sane != 0) {
		/* sanity_freq_limit: as ptp4l, the servo starts over.  A
		 * clock that stays insane would log every second: at most
		 * one line a minute, with the count. */
		c->insane++;
		if (c->insane_log_at == 0 ||
		    clock_now(c) - c->insane_log_at >= REFUSAL_LOG_NS) {
			c->insane_log_at = clock_now(c);
			log_warnx("clock check: the clock jumped %s or runs %s "
			    "than sanity_freq_limit allows; resetting the "
			    "servo (%" PRIu64 " so far)",
			    sane > 0 ? "forward" : "back",
			    sane > 0 ? "faster" : "slower", c->insane);
		}
		servo_reset(c->servo);
		c->servo_state = SERVO_UNLOCKED;
	}
	/* The kalman servo gates outliers against its own noise estimate,
	 * and tells a frequency step from a spike, which this cannot. */
	if (servo_get_type(c->servo) != SERVO_KALMAN &&
	    clock_spike(c, offset)) {
		log_info("master offset %10" PRId64 " spike, not used "
		    "(%" PRIu64 " so far)", offset, c->spikes);
		return;
	}
	/* currentDS shows what the servo used, not a rejected spike. */
	c->cds.offset_from_master = offset;
	c->cds.mean_path_delay = delay;
	c->last_offset = offset;
	if (c->slewing && !c->free_running) {
		clock_slew(c, offset);
		clock_log_sample(c, p, offset, c->adj_want, delay);
		return;
	}
	clock_freq_hint(c);
	freq = servo_sample(c->servo, clock_wait_offset(c, offset, delay),
	    (uint64_t)t2_ns, 1.0, &st);
	if (st == SERVO_UNLOCKED && !c->wait_delay_valid) {
		c->wait_delay = delay;
		c->wait_delay_valid = 1;
	} else if (st != SERVO_UNLOCKED) {
		c->wait_delay_valid = 0;
	}
	/* A clock that failed its last check is not locked, whatever the
	 * servo says, until a check passes again: ptp4l's PI, reset, needs
	 * two samples before it says more than "unlocked", but kalman's
	 * reset keeps its drift (right for a new master) and would call the
	 * clock locked at the very next sample, between two checks. */
	if (c->sanity.suspect &&
	    (st == SERVO_LOCKED || st == SERVO_LOCKED_STABLE))
		st = SERVO_UNLOCKED;
	c->servo_state = st;
	if (c->free_running) {
		clock_log_sample(c, p, offset, c->adj_want, delay);
		return;
	}
	switch (st) {
	case SERVO_UNLOCKED:
		break;
	case SERVO_JUMP:
		cr = clock_step_refusal(c, offset);
		if (cr != CR_NONE) {
			clock_slew_start(c, freq, cr, offset);
			clock_slew(c, offset);
			break;
		}
		clock_adjfreq(c, freq);
		clock_step(c, offset);
		break;
	case SERVO_LOCKED:
	case SERVO_LOCKED_STABLE:
		clock_adjfreq(c, freq);
		/* Never locked beyond the operator's step bound. */
		clock_bounds(c, &b);
		shown = cpol_report_state(st, offset, &b, 0);
		if (shown != st) {
			clock_refuse(c, CR_STEP_TOO_LARGE, offset);
		} else {
			if (c->refusal == CR_STEP_TOO_LARGE ||
			    c->refusal == CR_STEP_NOT_ALLOWED)
				clock_refuse(c, CR_NONE, offset);
			if (p->state == PS_UNCALIBRATED)
				port_dispatch(p, EV_MASTER_CLOCK_SELECTED, 0);
		}
		c->servo_state = shown;
		break;
	}
	if (servo_last_outlier(c->servo)) {
		/* kalman's own gate: the offset moved nothing */
		c->spikes++;
		log_info("master offset %10" PRId64 " spike, not used "
		    "(%" PRIu64 " so far)", offset, c->spikes);
		return;
	}
	clock_log_sample(c, p, offset, c->adj_want, delay);
}

/* ---- the PTP clock as the follower of the system clock (sysclk.c) ---- */

/* A frequency for the PTP clock, through the same rate limit. */
void
clock_steer_freq(struct clockd *c, double ppb)
{
	clock_adjfreq(c, ppb);
}

/* A step by -offset, if it may be asked for; else why not (nothing sent). */
enum clock_refusal
clock_steer_step(struct clockd *c, int64_t offset)
{
	enum clock_refusal cr;

	if (c->stepping)
		return CR_RATE_LIMITED;
	cr = clock_step_refusal(c, offset);
	if (cr == CR_NONE)
		clock_step(c, offset);
	return cr;
}

/* ---- netd's answers to the servo's requests ---- */

/* netd refused the step: learn its bound, and slew instead. */
void
clock_step_refused(struct clockd *c, enum clock_refusal cr)
{
	int64_t offset = ptp_ns_sat_neg(c->step_ns);

	switch (cr) {
	case CR_STEP_NOT_ALLOWED:
		c->step_allowed = 0;
		break;
	case CR_STEP_TOO_LARGE:
		c->refused_step_ns = ptp_ns_abs(c->step_ns);
		break;
	default:
		c->step_retry_at = clock_now(c) + STEP_RETRY_NS;
		break;
	}
	log_warnx("netd refused the step by %+" PRId64 " ns (%s)",
	    c->step_ns, cpol_refusal_name(cr));
	c->servo_state = SERVO_UNLOCKED;
	if (c->servo != NULL)
		clock_slew_start(c, c->adj_want, cr, offset);
}
