/*
 * clock.c - the clock of ptp-clockd: its life (clock_init: defaultDS from
 * the configuration, 8.2.1; clock_fini) and its run-time settings (ptpctl
 * set: priority1/2 8.2.1.4, clockClass 7.6.2.5, port enable 9.2.6.4/5).
 *
 * The rest of the clock: clock_datasets.c (the datasets and their
 * updates, 8.2, 9.3.5), clock_decision.c (the state decision, 9.3.2,
 * 9.3.3), clock_netd.c (netd's messages into the engine), clock_servo.c
 * (the servo and its requests to netd).  Time, timers and netd are
 * reached through c->env only (env.h), so that the daemon (env_event.c)
 * and the simulator (tests/sim/) run these same objects.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "cfg.h"
#include "cli.h"
#include "clockd.h"
#include "log.h"

int
clock_init(struct clockd *c, const struct env *env, struct cfg *cfg)
{
	/* All but ports[]: see struct clockd. */
	memset(c, 0, offsetof(struct clockd, ports));
	c->env = *env;
	c->cfg = cfg;
	c->slave_port = -1;
	/* Request ids after the one reserved for the start-up status read. */
	c->clock_req_id = CLOCK_REQ_STATUS;
	c->max_freq_ppb = 500000.0;
	c->step_allowed = 1;
	c->local_utc = !clock_counts_ptp_time(cfg);
	c->utc_offset = cfg_get_int(cfg, NULL, "utc_offset");
	c->refusal = CR_NETD_UNREACHABLE;

	c->dds.priority1 = (uint8_t)cfg_get_int(cfg, NULL, "priority1");
	c->dds.priority2 = (uint8_t)cfg_get_int(cfg, NULL, "priority2");
	c->dds.domain_number = (uint8_t)cfg_get_int(cfg, NULL, "domainNumber");
	c->dds.slave_only = cfg_get_int(cfg, NULL, "clientOnly");
	/* twoStepFlag as ptp4l harmonises it with time_stamping (cli.h). */
	c->dds.two_step = cli_step_mode(cfg) == CLI_TWO_STEP;
	c->p2p_one_step = cli_step_mode(cfg) == CLI_P2P1STEP;
	c->dds.quality.clock_class = (uint8_t)cfg_get_int(cfg, NULL,
	    "clockClass");
	c->dds.quality.clock_accuracy = (uint8_t)cfg_get_int(cfg, NULL,
	    "clockAccuracy");
	c->dds.quality.offset_scaled_log_variance = (uint16_t)cfg_get_int(cfg,
	    NULL, "offsetScaledLogVariance");
	/* A slave-only clock has clockClass 255 (7.6.2.5). */
	if (c->dds.slave_only)
		c->dds.quality.clock_class = 255;

	c->t_bmc = env_timer_new(&c->env, clock_ev_bmc, c);
	c->t_adj = env_timer_new(&c->env, clock_ev_adj, c);
	if (c->t_bmc == NULL || c->t_adj == NULL || clock_hold_init(c) == -1 ||
	    clock_bmca_init(c) == -1)
		return -1;
	if (clock_leap_init(c) == -1)
		return -1;
	if (sysclk_init(c) == -1)
		return -1;
	env_netd_start(&c->env);
	return 0;
}

void
clock_fini(struct clockd *c)
{
	unsigned i;

	for (i = 0; i < c->nports; i++)
		port_destroy(&c->ports[i]);
	if (c->servo != NULL)
		servo_destroy(c->servo);
	c->servo = NULL;
	env_timer_free(&c->env, c->t_bmc);
	env_timer_free(&c->env, c->t_adj);
	clock_leap_fini(c);
	sysclk_fini(c);
	env_timer_free(&c->env, c->t_hold);
	c->t_bmc = c->t_adj = c->t_hold = NULL;
}

/* ---- run-time settings: ptpctl set, served by ctlsrv.c ---- */

/* defaultDS.priority1 (8.2.1.4.1); the next state decision applies it. */
int
clock_set_priority1(struct clockd *c, uint8_t v)
{
	c->dds.priority1 = v;
	clock_state_decision_soon(c);
	return 0;
}

/* defaultDS.priority2 (8.2.1.4.2). */
int
clock_set_priority2(struct clockd *c, uint8_t v)
{
	c->dds.priority2 = v;
	clock_state_decision_soon(c);
	return 0;
}

/* defaultDS.clockQuality.clockClass; -1 if refused (slave-only: 255). */
int
clock_set_clock_class(struct clockd *c, uint8_t v)
{
	/* A slave-only clock has clockClass 255 (7.6.2.5). */
	if (c->dds.slave_only && v != 255)
		return -1;
	c->dds.quality.clock_class = v;
	clock_state_decision_soon(c);
	return 0;
}

/* Port enable/disable (9.2.6.4, 9.2.6.5); -1 if there is no such port. */
int
clock_set_port_enabled(struct clockd *c, unsigned index, int enable)
{
	struct cport *p;

	if (index >= c->nports)
		return -1;
	p = &c->ports[index];
	if (!enable == !p->enabled)
		return 0;
	p->enabled = enable ? 1 : 0;
	port_dispatch(p, enable ? EV_DESIGNATED_ENABLED :
	    EV_DESIGNATED_DISABLED, 0);
	/* Enabled without a link or netd: FAULTY until they come. */
	if (enable && (!p->link_up || !env_netd_ready(&c->env)))
		port_dispatch(p, EV_FAULT_DETECTED, 0);
	return 0;
}
