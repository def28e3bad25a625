/*
 * clock_leap.c - the leapfile in the engine (leap.h): the grandmaster's
 * currentUtcOffset and leap61/leap59 (IEEE 1588-2019 8.2.4) from the tz
 * leap-seconds.list named by the `leapfile' key.
 *
 * clock_leap_init() reads the file once, at start, before the sandbox
 * (clockd already runs as clockd_user then, so a file that user cannot
 * read fails here, clearly); a missing or malformed file stops clockd.
 * As grandmaster, the engine reads netd's clock (the read the servo uses,
 * env_clock_read) every LEAP_READ_FAR_NS, every second in the 12 hours
 * before a leap, and right at the leap, to know where its clock is
 * against the table; each answer refreshes timePropertiesDS.  Without a
 * leapfile nothing here runs: utc_offset is announced as before.
 *
 * With `kernel_leap 1' (slave or grandmaster): when timePropertiesDS
 * shows leap61 (leap59), the leap is armed (ClockSetLeap) on the clock
 * that counts UTC: the system clock when netd has one that takes it
 * (ClockInfo.leap_allowed), else the PTP clock if it counts UTC; netd
 * makes it repeat (skip) 23:59:59 at its midnight, as the kernel's
 * STA_INS (STA_DEL).  A flag gone before the last second cancels it.
 * With currentUtcOffsetValid and timeTraceable (as ptp4l) the TAI offset
 * goes along (set_tai).  The servos take no sample in the ambiguous
 * second (sysclk_leap_hold(); clock_synchronize()), so no step.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cfg.h"
#include "clockd.h"
#include "log.h"
#include "ptp_time.h"

static void clock_leap_ev_read(void *arg);

static void
fmt_day(int64_t utc_s, char *buf, size_t len)
{
	time_t t = (time_t)utc_s;
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm) == 0)
		snprintf(buf, len, "%lld", (long long)utc_s);
}

int
clock_leap_init(struct clockd *c)
{
	struct leapstate *ls = &c->leap;
	const char *path = cfg_get_str(c->cfg, NULL, "leapfile");
	struct leapfile_err err;
	char why[160], day[40];

	memset(ls, 0, sizeof(*ls));
	ls->kernel_leap = cfg_get_int(c->cfg, NULL, "kernel_leap");
	ls->utc_clock = -1;
	if (path == NULL || *path == '\0')
		return 0;
	if (leapfile_load(path, &ls->tab, &err) != 0) {
		leapfile_format(&err, why, sizeof(why));
		log_warnx("leapfile %s: %s", path, why);
		return -1;
	}
	ls->have_tab = 1;
	ls->counts_tai = clock_counts_ptp_time(c->cfg);
	ls->t_read = env_timer_new(&c->env, clock_leap_ev_read, c);
	if (ls->t_read == NULL)
		return -1;
	fmt_day(ls->tab.e[ls->tab.n - 1].utc_s, day, sizeof(day));
	log_info("leapfile %s: %zu entries, the last %d s from %s", path,
	    ls->tab.n, ls->tab.e[ls->tab.n - 1].offset, day);
	/* An expired file: cli_check_leap() warned at start. */
	return 0;
}

void
clock_leap_fini(struct clockd *c)
{
	env_timer_free(&c->env, c->leap.t_read);
	c->leap.t_read = NULL;
}

static int
clock_leap_is_gm(const struct clockd *c)
{
	return c->cds.steps_removed == 0 && clock_is_own(c, c->pds.gm_identity);
}

/* timePropertiesDS from the last reading (8.2.4). */
static void
clock_leap_apply(struct clockd *c)
{
	const struct leap_props *lp = &c->leap.props;

	c->tds.current_utc_offset = (int16_t)lp->offset;
	c->tds.flags &= (uint16_t)~(PTP_FLAG_LEAP61 | PTP_FLAG_LEAP59);
	if (lp->leap > 0)
		c->tds.flags |= PTP_FLAG_LEAP61;
	else if (lp->leap < 0)
		c->tds.flags |= PTP_FLAG_LEAP59;
	c->tds.flags |= PTP_FLAG_UTC_OFFSET_VALID;
}

/* clock_update_grandmaster(): this clock is the grandmaster. */
void
clock_leap_gm_time_properties(struct clockd *c)
{
	struct leapstate *ls = &c->leap;

	if (!ls->have_tab)
		return;
	/* Until the first reading: utc_offset, as without a leapfile. */
	if (ls->have_props)
		clock_leap_apply(c);
	if (ls->read_id == 0 && !env_timer_pending(&c->env, ls->t_read))
		env_timer_arm(&c->env, ls->t_read, 0);
}

static void
clock_leap_ev_read(void *arg)
{
	struct clockd *c = arg;
	struct leapstate *ls = &c->leap;

	/* A slave takes timePropertiesDS from its parent: no reading, and
	 * the last one is dropped, so that a grandmaster again does not
	 * announce a stale leap flag before its first new reading. */
	if (!clock_leap_is_gm(c)) {
		ls->read_id = 0;
		ls->have_props = 0;
		return;
	}
	ls->read_id = ++c->clock_req_id;
	if (env_clock_read(&c->env, ls->read_id) != 0)
		ls->read_id = 0;
	/* again if no answer comes (netd gone, refused) */
	env_timer_arm(&c->env, ls->t_read, LEAP_READ_NEAR_NS);
}

static void
clock_leap_log(const struct leapstate *ls, const struct leap_props *old)
{
	const struct leap_props *lp = &ls->props;
	char day[40];

	if (lp->offset != old->offset)
		log_notice("leapfile: TAI-UTC %d s (was %d)", lp->offset,
		    old->offset);
	if (lp->leap != old->leap && lp->leap != 0) {
		fmt_day(lp->leap_at_s, day, sizeof(day));
		log_notice("leapfile: announcing %s before %s",
		    lp->leap > 0 ? "leap61" : "leap59", day);
	} else if (lp->leap != old->leap) {
		log_notice("leapfile: leap %s done", old->leap > 0 ?
		    "61" : "59");
	}
}

int
clock_leap_reply(struct clockd *c, const struct netd_clock_reply *r)
{
	struct leapstate *ls = &c->leap;
	struct leap_props old = ls->props;
	int64_t clk_ns, utc_ns, next;

	if (!ls->have_tab || ls->read_id == 0 || r->id != ls->read_id)
		return 0;
	ls->read_id = 0;
	if (!r->ok || !r->have_now || ptp_time_to_ns(&r->now, &clk_ns) != 0 ||
	    leap_utc_of(&ls->tab, clk_ns, ls->counts_tai, &utc_ns) != 0 ||
	    leap_props_at(&ls->tab, utc_ns, &ls->props) != 0) {
		/* before 1972, or no time: utc_offset, read again later */
		if (ls->have_props)
			log_warnx("leapfile: the clock's time is not in the "
			    "table; announcing utc_offset");
		ls->have_props = 0;
		env_timer_arm(&c->env, ls->t_read, LEAP_READ_FAR_NS);
		return 1;
	}
	if (!ls->have_props) {
		/* the first reading: against what was announced (utc_offset) */
		old.offset = c->tds.current_utc_offset;
		old.leap = 0;
	}
	ls->have_props = 1;
	clock_leap_log(ls, &old);
	/* Past the expiry the table may lack a newer leap: the last offset
	 * is still announced as valid, as utc_offset would be (8.2.4). */
	if (!ls->warned_expired &&
	    leaptab_expired(&ls->tab, utc_ns / 1000000000)) {
		char day[40];

		fmt_day(ls->tab.expires_s, day, sizeof(day));
		log_warnx("leapfile: the clock is past the file's expiry (%s):"
		    " announcing TAI-UTC %d s, a leap since would be missed",
		    day, ls->props.offset);
		ls->warned_expired = 1;
	}
	if (clock_leap_is_gm(c)) {
		clock_leap_apply(c);
		/* its own UTC clock too, as a slave's (what chrony does
		 * with the kernel's flag): a system clock that did not
		 * repeat the second would pull the PTP clock 1 s off */
		clock_leap_update(c, clk_ns);
	}
	next = leap_next_read_ns(&ls->tab, utc_ns);
	/* armed on its UTC clock: read on to clear it after the midnight
	 * (the kernel keeps STA_INS until told) */
	if (ls->arm.leap != 0 && next > LEAP_READ_NEAR_NS)
		next = LEAP_READ_NEAR_NS;
	env_timer_arm(&c->env, ls->t_read, next);
	return 1;
}

/* ---- the leap on the clock that counts UTC ---- */

void
clock_leap_connected(struct clockd *c, const struct netd_port_list *pl)
{
	struct leapstate *ls = &c->leap;

	/* a new netd (or this clockd anew): nothing armed by us there */
	memset(&ls->arm, 0, sizeof(ls->arm));
	ls->tai_sent = 0;
	ls->set_id = 0;
	ls->utc_clock = -1;
	ls->utc_clock_virtual = 0;
	if (pl->have_sys_clock && pl->sys_clock.leap_allowed) {
		ls->utc_clock = 1;
		ls->utc_clock_virtual = pl->sys_clock.is_virtual;
	} else if (pl->have_clock && pl->clock.leap_allowed) {
		ls->utc_clock = 0;
		ls->utc_clock_virtual = pl->clock.is_virtual;
	}
	if (ls->kernel_leap && ls->utc_clock < 0)
		log_info("kernel_leap: netd has no clock that counts UTC and "
		    "takes a leap second (kernel_leap 1 in netd's "
		    "configuration?): leap seconds are not armed");
}

static const char *
clock_leap_clock_name(const struct leapstate *ls)
{
	return ls->utc_clock == 1 ? "the system clock" : "the PTP clock";
}

void
clock_leap_update(struct clockd *c, int64_t ptp_ns)
{
	struct leapstate *ls = &c->leap;
	struct netd_clock_req q;
	struct leap_arm next;
	enum leap_act act;
	uint16_t f = c->tds.flags;
	int flag, want_tai, n;
	int64_t utc_ns = ptp_ns;
	char day[40];

	if (!ls->kernel_leap || ls->utc_clock < 0)
		return;
	/*
	 * A grandmaster's UTC clock is its source (NTP, chrony or GNSS keep
	 * it), not a clock it steers: those handle the leap themselves, and
	 * may slew or smear it, which a kernel STA_INS would turn into a
	 * step.  As ptp4l, only a clock this clockd follows a master with
	 * takes the leap, except netd's virtual clock, which stands in for
	 * such an NTP-fed clock in tests and has nobody else to arm it.
	 */
	if (clock_leap_is_gm(c) && !ls->utc_clock_virtual &&
	    ls->arm.leap == 0)
		return;
	flag = (f & PTP_FLAG_LEAP61) ? 1 : (f & PTP_FLAG_LEAP59) ? -1 : 0;
	n = (f & PTP_FLAG_UTC_OFFSET_VALID) ? c->tds.current_utc_offset :
	    c->utc_offset;
	/* UTC as if no leap yet: the offset announced before it */
	if (!c->local_utc && ptp_ns_add(ptp_ns, -(int64_t)n * 1000000000LL,
	    &utc_ns) != 0)
		return;
	act = leap_slave_step(&ls->arm, flag, utc_ns, &next);
	/* 8.2.4: the offset is worth setting only when valid and, as
	 * ptp4l requires, traceable */
	want_tai = (f & PTP_FLAG_UTC_OFFSET_VALID) &&
	    (f & PTP_FLAG_TIME_TRACEABLE) && n >= 0 && n <= 1000;
	if (act == LEAP_ACT_NONE && !(want_tai && next.leap == 0 &&
	    (!ls->tai_sent || ls->tai != n)))
		return;
	if (ls->set_id != 0)
		return;		/* one at a time: again at the next sample */
	if (act == LEAP_ACT_DONE) {
		fmt_day(ls->arm.at_s, day, sizeof(day));
		log_notice("leap second: %s at %s on %s done",
		    ls->arm.leap > 0 ? "insertion" : "deletion", day,
		    clock_leap_clock_name(ls));
	}
	memset(&q, 0, sizeof(q));
	q.id = ++c->clock_req_id;
	q.op = NETD_CLOCK_LEAP;
	q.system_clock = ls->utc_clock == 1;
	q.leap = next.leap;
	q.set_tai = want_tai;
	q.tai_offset = want_tai ? n : 0;
	if (env_clock_req(&c->env, &q) != 0)
		return;
	ls->set_id = q.id;
	ls->arm = next;
	if (want_tai) {
		ls->tai_sent = 1;
		ls->tai = n;
	}
	if (act == LEAP_ACT_ARM) {
		fmt_day(next.at_s, day, sizeof(day));
		log_notice("leap second: %s armed on %s for %s",
		    next.leap > 0 ? "leap61" : "leap59",
		    clock_leap_clock_name(ls), day);
	} else if (act == LEAP_ACT_CANCEL) {
		log_notice("leap second: the flag is gone before midnight: "
		    "cancelled on %s", clock_leap_clock_name(ls));
	}
}

int
clock_leap_set_reply(struct clockd *c, const struct netd_clock_reply *r)
{
	struct leapstate *ls = &c->leap;

	if (ls->set_id == 0 || r->id != ls->set_id)
		return 0;
	ls->set_id = 0;
	/* Not retried: netd's bounds (a leap counts as a 1 s step) do not
	 * change until it reconnects; the servo then sees the second. */
	if (!r->ok)
		log_warnx("leap second: %s refused it (%s)",
		    clock_leap_clock_name(ls), cpol_refusal_name(r->refusal));
	return 1;
}
