/*
 * show_status.c - what `ptpctl status` prints: the clock, the system
 * clock's servo, each port and its unicast negotiation, as text or JSON
 * (show.c: the shared formatters).
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "ctl.h"
#include "show.h"

static const char *
ctl_servo_name(int st)
{
	switch (st) {
	case PTPSEP__CTL__SERVO_STATE__SERVO_STATE_JUMP:
		return "jump";
	case PTPSEP__CTL__SERVO_STATE__SERVO_STATE_LOCKED:
		return "locked";
	default:
		return "unlocked";
	}
}

/* Status.clock_refusal: the ClockRefusal name without its prefix. */
static const char *
ctl_refusal_name(int r)
{
	switch (r) {
	case PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_NONE:
		return "none";
	case PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_STEP_NOT_ALLOWED:
		return "step_not_allowed";
	case PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_STEP_TOO_LARGE:
		return "step_too_large";
	case PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_RATE_LIMITED:
		return "rate_limited";
	case PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_OUT_OF_BOUNDS:
		return "out_of_bounds";
	case PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_NETD_UNREACHABLE:
		return "netd_unreachable";
	case PTPSEP__CTL__CLOCK_REFUSAL__CLOCK_REFUSAL_CLOCK_FAILED:
		return "clock_failed";
	default:
		return "unknown";
	}
}

/* Status.system_clock (doc/design.md): which clock leads. */
static const char *
ctl_sysclk_source(int src)
{
	switch (src) {
	case PTPSEP__CTL__SYSTEM_CLOCK_SOURCE__SYSTEM_CLOCK_SOURCE_PHC:
		return "phc";
	case PTPSEP__CTL__SYSTEM_CLOCK_SOURCE__SYSTEM_CLOCK_SOURCE_SYSTEM:
		return "system";
	default:
		return "none";
	}
}

static const char *
ctl_sysoff_name(int m)
{
	switch (m) {
	case PTPSEP__NETD__SYSOFF_METHOD__SYSOFF_PRECISE:
		return "precise";
	case PTPSEP__NETD__SYSOFF_METHOD__SYSOFF_EXTENDED:
		return "extended";
	case PTPSEP__NETD__SYSOFF_METHOD__SYSOFF_BASIC:
		return "basic";
	case PTPSEP__NETD__SYSOFF_METHOD__SYSOFF_SAME_BASE:
		return "same_base";
	default:
		return "none";
	}
}

static void
ctl_show_sysclk(const Ptpsep__Ctl__SystemClockStatus *y, struct ctl_json *j)
{
	if (j != NULL) {
		ctl_json_obj(j, "system_clock");
		ctl_json_str(j, "source", ctl_sysclk_source(y->source));
		ctl_json_int(j, "offset_ns", y->offset_ns);
		ctl_json_double(j, "freq_ppb", y->freq_ppb);
		ctl_json_str(j, "servo_state", ctl_servo_name(y->servo_state));
		ctl_json_str(j, "clock_refusal",
		    ctl_refusal_name(y->clock_refusal));
		ctl_json_str(j, "method", ctl_sysoff_name(y->method));
		ctl_json_uint(j, "delay_ns", y->delay_ns);
		ctl_json_int(j, "utc_offset_s", y->utc_offset_s);
		ctl_json_end_obj(j);
		return;
	}
	if (y->source == PTPSEP__CTL__SYSTEM_CLOCK_SOURCE__SYSTEM_CLOCK_SOURCE_PHC)
		printf("%-20s follows phc, ", "system clock");
	else if (y->source ==
	    PTPSEP__CTL__SYSTEM_CLOCK_SOURCE__SYSTEM_CLOCK_SOURCE_SYSTEM)
		printf("%-20s leads (phc follows), ", "system clock");
	else
		printf("%-20s not steered, ", "system clock");
	printf("offset %" PRId64 " ns, %+.3f ppb, %s (%s, UTC offset %d s)\n",
	    y->offset_ns, y->freq_ppb, ctl_servo_name(y->servo_state),
	    ctl_sysoff_name(y->method), (int)y->utc_offset_s);
}

/* ---- status: a port's unicast negotiation (PortStatus.unicast) ---- */

/* A negotiable messageType (Table 36) by name. */
static const char *
ctl_uni_type(unsigned t)
{
	switch (t) {
	case 0x0:	return "sync";
	case 0x3:	return "pdelay_resp";
	case 0x9:	return "delay_resp";
	case 0xb:	return "announce";
	default:	return "other";
	}
}

static void
ctl_json_uni_grant(struct ctl_json *j, const char *key,
    const Ptpsep__Ctl__UnicastGrant *g)
{
	ctl_json_obj(j, key);
	ctl_json_str(j, "message", ctl_uni_type(g->message_type));
	ctl_json_int(j, "log_period", g->log_period);
	ctl_json_double(j, "expires_in_s", (double)g->expires_in_ms / 1e3);
	ctl_json_end_obj(j);
}

static void
ctl_json_unicast(struct ctl_json *j, const Ptpsep__Ctl__PortUnicast *u)
{
	const Ptpsep__Ctl__UnicastService *s = u->server;
	const Ptpsep__Ctl__UnicastClient *c = u->client;
	char nbuf[32];
	size_t i, k;

	ctl_json_obj(j, "unicast");
	if (s != NULL) {
		ctl_json_obj(j, "server");
		ctl_json_uint(j, "clients", s->clients);
		ctl_json_uint(j, "max_clients", s->max_clients);
		ctl_json_uint(j, "grants", s->grants);
		ctl_json_obj(j, "refused");
		ctl_json_uint(j, "total", s->refused);
		ctl_json_uint(j, "table_full", s->refused_table_full);
		ctl_json_uint(j, "period", s->refused_period);
		ctl_json_uint(j, "duration", s->refused_duration);
		ctl_json_end_obj(j);
		ctl_json_uint(j, "cancelled", s->cancelled);
		ctl_json_uint(j, "unknown_cancels", s->unknown_cancels);
		ctl_json_uint(j, "expired", s->expired);
		ctl_json_end_obj(j);
	}
	if (c != NULL) {
		ctl_json_obj(j, "client");
		ctl_json_uint(j, "masters_total", c->masters_total);
		ctl_json_uint(j, "refusals", c->refusals);
		ctl_json_uint(j, "rogue", c->rogue);
		ctl_json_arr(j, "masters");
		for (i = 0; i < c->n_masters; i++) {
			const Ptpsep__Ctl__UnicastMaster *m = c->masters[i];

			ctl_json_obj(j, NULL);
			ctl_json_str(j, "address", m->address);
			ctl_json_str(j, "state", ENAME(
			    ptpsep__ctl__unicast_master_state__descriptor,
			    m->state, "UNICAST_MASTER_STATE_"));
			ctl_json_port_identity(j, "port_identity",
			    m->port_identity);
			ctl_json_arr(j, "grants");
			for (k = 0; k < m->n_grants; k++)
				ctl_json_uni_grant(j, NULL, m->grants[k]);
			ctl_json_end_arr(j);
			ctl_json_end_obj(j);
		}
		ctl_json_end_arr(j);
		if (c->peer != NULL) {
			ctl_json_obj(j, "peer");
			ctl_json_str(j, "address", c->peer->address);
			if (c->peer->grant != NULL)
				ctl_json_uni_grant(j, "grant", c->peer->grant);
			else
				ctl_json_null(j, "grant");
			ctl_json_uint(j, "grants", c->peer->grants);
			ctl_json_uint(j, "refusals", c->peer->refusals);
			ctl_json_uint(j, "cancels", c->peer->cancels);
			ctl_json_end_obj(j);
		}
		ctl_json_end_obj(j);
	}
	ctl_json_end_obj(j);
}

static void
ctl_text_unicast(const Ptpsep__Ctl__PortUnicast *u)
{
	const Ptpsep__Ctl__UnicastService *s = u->server;
	const Ptpsep__Ctl__UnicastClient *c = u->client;
	char nbuf[32];
	size_t i, k;

	if (s != NULL)
		printf("      unicast service: %u of %u clients, %" PRIu64
		    " granted, %" PRIu64 " refused (%" PRIu64 " table full, %"
		    PRIu64 " period, %" PRIu64 " duration), %" PRIu64
		    " cancelled, %" PRIu64 " unknown cancels, %" PRIu64
		    " expired\n", (unsigned)s->clients,
		    (unsigned)s->max_clients, s->grants, s->refused,
		    s->refused_table_full, s->refused_period,
		    s->refused_duration, s->cancelled, s->unknown_cancels,
		    s->expired);
	if (c == NULL)
		return;
	for (i = 0; i < c->n_masters; i++) {
		const Ptpsep__Ctl__UnicastMaster *m = c->masters[i];

		printf("      unicast master %s: %s", m->address, ENAME(
		    ptpsep__ctl__unicast_master_state__descriptor, m->state,
		    "UNICAST_MASTER_STATE_"));
		for (k = 0; k < m->n_grants; k++)
			printf(", %s 2^%d s",
			    ctl_uni_type(m->grants[k]->message_type),
			    (int)m->grants[k]->log_period);
		printf("\n");
	}
	if (c->masters_total > c->n_masters)
		printf("      (%u more unicast masters)\n",
		    (unsigned)(c->masters_total - c->n_masters));
	if (c->peer != NULL) {
		printf("      unicast peer %s: ", c->peer->address);
		if (c->peer->grant != NULL)
			printf("pdelay_resp 2^%d s",
			    (int)c->peer->grant->log_period);
		else
			printf("no grant");
		printf(" (%" PRIu64 " refusals)\n", c->peer->refusals);
	}
}

void
ctl_show_status(const Ptpsep__Ctl__Status *s, int json)
{
	char id[32], gm[32], st[32];
	uint64_t since = UINT64_MAX;
	struct ctl_json j;
	size_t i;

	ctl_fmt_identity(id, sizeof(id), &s->clock_identity);
	ctl_fmt_identity(gm, sizeof(gm), &s->gm_identity);
	for (i = 0; i < s->n_ports; i++)
		if (s->ports[i]->since_state_change_ms < since)
			since = s->ports[i]->since_state_change_ms;
	if (json) {
		ctl_json_init(&j, stdout);
		ctl_json_obj(&j, NULL);
		ctl_json_identity(&j, "clock_identity", &s->clock_identity);
		ctl_json_identity(&j, "gm_identity", &s->gm_identity);
		ctl_json_int(&j, "offset_ns", s->offset_ns);
		ctl_json_int(&j, "mean_path_delay_ns", s->mean_path_delay_ns);
		ctl_json_double(&j, "freq_ppb", s->freq_ppb);
		ctl_json_str(&j, "servo_state", ctl_servo_name(s->servo_state));
		ctl_json_str(&j, "clock_refusal",
		    ctl_refusal_name(s->clock_refusal));
		ctl_json_uint(&j, "gm_clock_class", s->gm_clock_class);
		ctl_json_uint(&j, "steps_removed", s->steps_removed);
		ctl_json_uint(&j, "clock_class", s->clock_class);
		/* Present only with dataset_comparison G.8275.x. */
		if (s->g8275 != NULL)
			ctl_json_uint(&j, "local_priority",
			    s->g8275->local_priority);
		/* Present only while in holdover (doc/design.md). */
		if (s->holdover)
			ctl_json_double(&j, "holdover_s",
			    (double)s->holdover_ms / 1e3);
		/* Present only with sync_system_clock 1 (doc/design.md). */
		if (s->system_clock != NULL)
			ctl_show_sysclk(s->system_clock, &j);
		if (since == UINT64_MAX)
			ctl_json_null(&j, "since_state_change_s");
		else
			ctl_json_double(&j, "since_state_change_s",
			    (double)since / 1e3);
		ctl_json_arr(&j, "ports");
		for (i = 0; i < s->n_ports; i++) {
			const Ptpsep__Ctl__PortStatus *p = s->ports[i];

			ctl_json_obj(&j, NULL);
			ctl_json_uint(&j, "port", p->port_number);
			ctl_json_str(&j, "iface", p->iface);
			ctl_json_str(&j, "state", ctl_port_state_name(p->state,
			    st, sizeof(st)));
			ctl_json_double(&j, "since_state_change_s",
			    (double)p->since_state_change_ms / 1e3);
			if (p->g8275 != NULL) {
				ctl_json_uint(&j, "local_priority",
				    p->g8275->local_priority);
				ctl_json_uint(&j, "max_steps_removed",
				    p->g8275->max_steps_removed);
			}
			/* Present only with unicast negotiation configured
			 * on the port (doc/design.md). */
			if (p->unicast != NULL)
				ctl_json_unicast(&j, p->unicast);
			ctl_json_end_obj(&j);
		}
		ctl_json_end_arr(&j);
		ctl_json_end_obj(&j);
		ctl_json_done(&j);
		return;
	}
	printf("%-20s %s\n", "clock identity", id[0] ? id : "(unknown)");
	printf("%-20s %s\n", "grandmaster", gm[0] ? gm : "(none)");
	printf("%-20s %u\n", "gm clock class", (unsigned)s->gm_clock_class);
	printf("%-20s %u\n", "steps removed", (unsigned)s->steps_removed);
	printf("%-20s %" PRId64 " ns\n", "offset from master", s->offset_ns);
	printf("%-20s %" PRId64 " ns\n", "mean path delay",
	    s->mean_path_delay_ns);
	printf("%-20s %+.3f ppb\n", "frequency", s->freq_ppb);
	printf("%-20s %s\n", "servo", ctl_servo_name(s->servo_state));
	printf("%-20s %s\n", "clock refusal", ctl_refusal_name(s->clock_refusal));
	printf("%-20s %u\n", "clock class", (unsigned)s->clock_class);
	if (s->g8275 != NULL)
		printf("%-20s %u\n", "local priority",
		    (unsigned)s->g8275->local_priority);
	if (s->holdover)
		printf("%-20s %.1f s (clockClass %u)\n", "holdover",
		    (double)s->holdover_ms / 1e3, (unsigned)s->clock_class);
	if (s->system_clock != NULL)
		ctl_show_sysclk(s->system_clock, NULL);
	if (since != UINT64_MAX)
		printf("%-20s %.1f s ago\n", "last state change",
		    (double)since / 1e3);
	printf("\n%-5s %-16s %-13s %s\n", "PORT", "IFACE", "STATE", "SINCE");
	for (i = 0; i < s->n_ports; i++) {
		const Ptpsep__Ctl__PortStatus *p = s->ports[i];

		printf("%-5u %-16s %-13s %.1f s\n", (unsigned)p->port_number,
		    p->iface, ctl_port_state_name(p->state, st, sizeof(st)),
		    (double)p->since_state_change_ms / 1e3);
		if (p->g8275 != NULL)
			printf("      localPriority %u, maxStepsRemoved %u\n",
			    (unsigned)p->g8275->local_priority,
			    (unsigned)p->g8275->max_steps_removed);
		if (p->unicast != NULL)
			ctl_text_unicast(p->unicast);
	}
	fflush(stdout);
}
