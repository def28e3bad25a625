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
 * Not done here (the slave side of issue 14 item 3, next): the kernel's
 * leap flag and TAI offset (kernel_leap), the UTC clock repeating
 * 23:59:59, and holding the servo through the inserted second.  The hooks
 * for them: leap_utc_of() and leap_props_at() give the UTC instant and the
 * pending leap of any clock reading; clock_leap_reply() sees every read.
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
	int64_t clk_ns, utc_ns;

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
	if (clock_leap_is_gm(c))
		clock_leap_apply(c);
	env_timer_arm(&c->env, ls->t_read, leap_next_read_ns(&ls->tab,
	    utc_ns));
	return 1;
}
