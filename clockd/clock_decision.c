/*
 * clock_decision.c - the state decision over all ports (IEEE 1588-2019
 * 9.3.2 state decision event, 9.3.3 state decision algorithm): each
 * port's Erbest (foreign.c), the BMCA over them and this clock's D0
 * (bmc.c), the datasets that follow the result (9.3.5, clock_datasets.c),
 * and the recommended state handed to each port's FSM (fsm.c).  Pure
 * decisions are in bmc.c, fsm.c and holdover.c; this file only gathers
 * their input and acts on their output.  The decision runs from a zero-delay timer,
 * so that several reasons for one in a burst cost one run.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "clockd.h"
#include "log.h"

static void	clock_hold_lost(struct clockd *, int64_t);
static void	clock_hold_follow(struct clockd *, int64_t);
static void	clock_hold_arm(struct clockd *, int64_t);
static void	clock_ev_hold(void *);

/* The state decision event (9.3.2): BMCA over all ports, datasets, FSMs. */
void
clock_ev_bmc(void *arg)
{
	struct clockd *c = arg;
	struct bmc_port_input in[CLOCKD_MAX_PORTS];
	struct bmc_dataset erbest[CLOCKD_MAX_PORTS], d0;
	const struct fm_entry *entry[CLOCKD_MAX_PORTS];
	int64_t now = clock_now(c);
	unsigned i;
	int best, slave_changed = 0;
	struct ptp_port_identity new_parent;
	struct ptp_clock_quality q0;

	if (!c->have_ports)
		return;
	/* D0 with the class this clock would announce: in holdover a
	 * returning grandmaster of a better class wins, a worse one does not
	 * (G.8275.1's use of the holdover classes). */
	q0 = c->dds.quality;
	q0.clock_class = clock_class_now(c);
	bmc_dataset_from_default(&d0, c->dds.priority1, &q0,
	    c->dds.priority2, c->dds.clock_identity);
	d0.local_priority = c->dds.local_priority;
	for (i = 0; i < c->nports; i++) {
		struct cport *p = &c->ports[i];

		fm_prune(&p->foreign, now);
		entry[i] = NULL;
		if (p->kind != FSM_MASTER_ONLY)
			entry[i] = fm_best(&p->foreign, &p->identity, now,
			    &erbest[i]);
		in[i].erbest = entry[i] ? &erbest[i] : NULL;
		in[i].state = p->state;
		in[i].master_only = p->kind == FSM_MASTER_ONLY;
		in[i].decision = BMC_D_NONE;
	}
	/* clock_class_threshold: a master of a worse class is not used
	 * (ptp4l 4.x ignores its Announces). */
	if (bmc_apply_class_threshold(in, c->nports, (unsigned)cfg_get_int(
	    c->cfg, NULL, "clock_class_threshold")) > 0)
		log_rl(LOG_LVL_WARN, "a master's clockClass is above "
		    "clock_class_threshold %d: not used",
		    cfg_get_int(c->cfg, NULL, "clock_class_threshold"));
	best = bmc_select(&d0, in, c->nports,
	    (c->dds.slave_only ? BMC_F_SLAVE_ONLY : 0) |
	    (c->dscmp == BMC_DSCMP_G8275 ? BMC_F_G8275 : 0));

	/* 9.3.5: the datasets follow Ebest, or this clock when D0 wins. */
	memset(&new_parent, 0, sizeof(new_parent));
	if (best < 0 ||
	    bmc_a_better(bmc_compare_with(c->dscmp, &d0, &erbest[best]))) {
		if (best < 0)
			clock_hold_lost(c, now);
		else
			hold_outranked(&c->hold);
		if (!c->dds.slave_only)
			clock_update_grandmaster(c);
	} else {
		clock_hold_follow(c, now);
		new_parent = entry[best]->hdr.source_port_identity;
		slave_changed = !ptp_port_identity_equal(&new_parent,
		    &c->pds.parent_port_identity);
		clock_update_slave(c, entry[best]);
		if (slave_changed) {
			char id[32];

			snprintf(id, sizeof(id),
			    "%02x%02x%02x.%02x%02x.%02x%02x%02x-%u",
			    new_parent.clock_identity[0],
			    new_parent.clock_identity[1],
			    new_parent.clock_identity[2],
			    new_parent.clock_identity[3],
			    new_parent.clock_identity[4],
			    new_parent.clock_identity[5],
			    new_parent.clock_identity[6],
			    new_parent.clock_identity[7],
			    new_parent.port_number);
			log_info("selected best master clock %s", id);
			c->gm_changed_at = now;
			/* A new master's time: nothing to compare with. */
			cpol_sanity_reset(&c->sanity);
			cpol_sanity_set_freq(&c->sanity, c->freq_ppb);
		}
	}
	for (i = 0; i < c->nports; i++) {
		enum fsm_event ev = bmc_decision_event(in[i].decision);

		port_dispatch(&c->ports[i], ev,
		    in[i].decision == BMC_D_S1 ? slave_changed : 0);
	}
	clock_hold_arm(c, now);
}

/* ---- the BMCA's keys ---- */

/*
 * dataset_comparison picks the comparison (bmc.h): G.8275.x, the telecom
 * profiles' alternate BMCA (G.8275.1/G.8275.2 6.3), with D0's
 * localPriority from G.8275.defaultDS.localPriority, as ptp4l.
 */
int
clock_bmca_init(struct clockd *c)
{
	/* enum bmc_dscmp's values are the key's (lib/cfg_keys.c) */
	c->dscmp = cfg_get_int(c->cfg, NULL, "dataset_comparison") ==
	    BMC_DSCMP_G8275 ? BMC_DSCMP_G8275 : BMC_DSCMP_IEEE1588;
	c->dds.local_priority = (uint8_t)cfg_get_int(c->cfg, NULL,
	    "G.8275.defaultDS.localPriority");
	if (c->dscmp == BMC_DSCMP_G8275)
		log_info("data set comparison G.8275.x, defaultDS."
		    "localPriority %u", (unsigned)c->dds.local_priority);
	return 0;
}

/* The comparison, the port's localPriority (read for every comparison,
 * used by G.8275.x's) and maxStepsRemoved (9.3.2.5 e, every profile,
 * as ptp4l: a clock-wide key applied by each port). */
void
clock_port_bmca_init(struct clockd *c, struct cport *p, const char *pn)
{
	fm_set_bmca(&p->foreign, c->dscmp,
	    (uint8_t)cfg_get_int(c->cfg, pn, "G.8275.portDS.localPriority"),
	    (uint8_t)cfg_get_int(c->cfg, NULL, "maxStepsRemoved"));
}

/* ---- holdover (holdover.h) ---- */

int
clock_hold_init(struct clockd *c)
{
	hold_init(&c->hold, cfg_get_int(c->cfg, NULL, "holdover_clock_class"),
	    cfg_get_int(c->cfg, NULL, "holdover_timeout"), c->dds.slave_only);
	c->t_hold = env_timer_new(&c->env, clock_ev_hold, c);
	return c->t_hold == NULL ? -1 : 0;
}

uint8_t
clock_class_now(const struct clockd *c)
{
	return hold_clock_class(&c->hold, c->dds.quality.clock_class,
	    clock_now(c));
}

/* No foreign master on any port: holdover if the servo had locked. */
static void
clock_hold_lost(struct clockd *c, int64_t now)
{
	int locked = c->servo_state == SERVO_LOCKED ||
	    c->servo_state == SERVO_LOCKED_STABLE;

	if (!hold_lost(&c->hold, locked, now))
		return;
	if (c->dds.slave_only || c->hold.clock_class == 0)
		log_info("holdover: the last grandmaster is lost; keeping "
		    "the last frequency");
	else if (c->hold.timeout_ns == 0)
		log_info("holdover: the last grandmaster is lost; announcing "
		    "clockClass %u until one returns",
		    (unsigned)c->hold.clock_class);
	else
		log_info("holdover: the last grandmaster is lost; announcing "
		    "clockClass %u, %u after %lld s",
		    (unsigned)c->hold.clock_class,
		    (unsigned)c->dds.quality.clock_class,
		    (long long)(c->hold.timeout_ns / 1000000000));
}

static void
clock_hold_follow(struct clockd *c, int64_t now)
{
	int64_t d = hold_duration(&c->hold, now);

	if (hold_follow(&c->hold))
		log_info("holdover ends after %.1f s: a grandmaster is back",
		    (double)d / 1e9);
}

/* The schedule's next change re-runs the decision, so that parentDS and
 * the Announces carry the new class on time. */
static void
clock_hold_arm(struct clockd *c, int64_t now)
{
	int64_t in = hold_expires_in(&c->hold, now);

	if (in < 0)
		env_timer_cancel(&c->env, c->t_hold);
	else
		env_timer_arm(&c->env, c->t_hold, in);
}

static void
clock_ev_hold(void *arg)
{
	struct clockd *c = arg;

	log_info("holdover: %.0f s; announcing clockClass %u",
	    (double)hold_duration(&c->hold, clock_now(c)) / 1e9,
	    (unsigned)clock_class_now(c));
	clock_state_decision_soon(c);
}

void
clock_state_decision_soon(struct clockd *c)
{
	if (!env_timer_pending(&c->env, c->t_bmc))
		env_timer_arm(&c->env, c->t_bmc, 0);
}

void
clock_port_state_changed(struct clockd *c, struct cport *p,
    enum fsm_state old)
{
	if (p->state == PS_SLAVE || p->state == PS_UNCALIBRATED) {
		if (c->slave_port != (int)p->index && c->servo != NULL)
			servo_sync_interval(c->servo,
			    (double)port_interval_ns(p->log_sync_interval) /
			    1e9);
		c->slave_port = (int)p->index;
	} else if (c->slave_port == (int)p->index) {
		c->slave_port = -1;
	}
	/* A port leaving or entering service changes the decision. */
	if (old == PS_INITIALIZING || p->state == PS_FAULTY ||
	    p->state == PS_DISABLED || p->state == PS_LISTENING)
		clock_state_decision_soon(c);
}
