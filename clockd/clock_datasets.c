/*
 * clock_datasets.c - the clock's datasets (IEEE 1588-2019 8.2: defaultDS
 * 8.2.1, currentDS 8.2.2, parentDS 8.2.3, timePropertiesDS 8.2.4) and
 * their updates (9.3.5): this clock as grandmaster (Tables 30/31, M1/M2),
 * parent and grandmaster from Ebest's Announce (Table 33, S1) and from
 * each later Announce of the parent, and the UTC offset believed from
 * timePropertiesDS (clock_policy.h).  The state decision that chooses
 * between them is clock_decision.c.
 */
#include "config.h"

#include <string.h>

#include "cfg.h"
#include "clockd.h"
#include "log.h"

int
clock_is_own(const struct clockd *c, const uint8_t *clock_identity)
{
	return memcmp(c->dds.clock_identity, clock_identity,
	    PTP_CLOCK_ID_LEN) == 0;
}

int
clock_counts_ptp_time(const struct cfg *cfg)
{
	enum cfg_clock_kind kind = CFG_CLK_SYSTEM;	/* a bad value */
	int idx;

	if (cfg_clock_device_parse(cfg_get_str(cfg, NULL, "clock_device"),
	    &kind, &idx) == 0 && kind == CFG_CLK_AUTO)
		kind = cfg_clock_auto_kind(cfg_get_int(cfg, NULL,
		    "time_stamping"));
	/* With sync_system_clock 1 a virtual clock plays a PHC: it counts
	 * TAI and the system clock beside it UTC (sysclk.h). */
	return kind == CFG_CLK_PHC || (kind == CFG_CLK_VIRTUAL &&
	    cfg_get_int(cfg, NULL, "sync_system_clock"));
}

/* Tables 30/31 (M1, M2): this clock is the grandmaster. */
void
clock_update_grandmaster(struct clockd *c)
{
	struct cfg *cfg = c->cfg;

	c->cds.steps_removed = 0;
	c->cds.offset_from_master = 0;
	c->cds.mean_path_delay = 0;
	memset(&c->pds.parent_port_identity, 0,
	    sizeof(c->pds.parent_port_identity));
	memcpy(c->pds.parent_port_identity.clock_identity,
	    c->dds.clock_identity, PTP_CLOCK_ID_LEN);
	memcpy(c->pds.gm_identity, c->dds.clock_identity, PTP_CLOCK_ID_LEN);
	c->pds.gm_quality = c->dds.quality;
	/* In holdover, the schedule's class (holdover.h). */
	c->pds.gm_quality.clock_class = clock_class_now(c);
	c->pds.gm_priority1 = c->dds.priority1;
	c->pds.gm_priority2 = c->dds.priority2;
	c->tds.current_utc_offset = (int16_t)cfg_get_int(cfg, NULL,
	    "utc_offset");
	/* Not traceable.  The system clock, and netd's virtual clock over
	 * it, count UTC: ARB timescale, as ptp4l announces for CLOCK_REALTIME
	 * (a PTP-timescale flag would make a slave on the system clock take
	 * currentUtcOffset off every offset, 7.2.4); a PHC, and a virtual
	 * clock beside a system clock (sync_system_clock 1), count PTP time
	 * (clock_counts_ptp_time()).
	 * currentUtcOffset is the operator's utc_offset, announced as known
	 * (currentUtcOffsetValid, 8.2.4.3) so that a slave need not guess. */
	c->tds.flags = PTP_FLAG_UTC_OFFSET_VALID |
	    (clock_counts_ptp_time(cfg) ? PTP_FLAG_PTP_TIMESCALE : 0);
	c->tds.time_source = (uint8_t)cfg_get_int(cfg, NULL, "timeSource");
	clock_leap_gm_time_properties(c);
}

/* The UTC offset to believe from the parent's timePropertiesDS (8.2.4). */
static void
clock_utc_update(struct clockd *c)
{
	int old = c->utc_offset;

	cpol_utc_update(&c->utc_offset, c->tds.current_utc_offset,
	    c->tds.flags);
	if (c->utc_offset != old)
		log_info("UTC offset now %d s (was %d)", c->utc_offset, old);
}

/* Table 33 (S1): parent and grandmaster from the Announce of Ebest. */
void
clock_update_slave(struct clockd *c, const struct fm_entry *e)
{
	c->cds.steps_removed = e->announce.steps_removed + 1;
	c->pds.parent_port_identity = e->hdr.source_port_identity;
	memcpy(c->pds.gm_identity, e->announce.grandmaster_identity,
	    PTP_CLOCK_ID_LEN);
	c->pds.gm_quality = e->announce.grandmaster_clock_quality;
	c->pds.gm_priority1 = e->announce.grandmaster_priority1;
	c->pds.gm_priority2 = e->announce.grandmaster_priority2;
	c->tds.current_utc_offset = e->announce.current_utc_offset;
	c->tds.flags = e->hdr.flags & 0x00ff;
	c->tds.time_source = e->announce.time_source;
	clock_utc_update(c);
}

void
clock_update_from_parent(struct clockd *c, const struct ptp_msg *m)
{
	const struct ptp_announce *a = &m->body.announce;

	c->cds.steps_removed = a->steps_removed + 1;
	memcpy(c->pds.gm_identity, a->grandmaster_identity, PTP_CLOCK_ID_LEN);
	c->pds.gm_quality = a->grandmaster_clock_quality;
	c->pds.gm_priority1 = a->grandmaster_priority1;
	c->pds.gm_priority2 = a->grandmaster_priority2;
	c->tds.current_utc_offset = a->current_utc_offset;
	c->tds.flags = m->hdr.flags & 0x00ff;
	c->tds.time_source = a->time_source;
	clock_utc_update(c);
}
