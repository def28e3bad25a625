/*
 * show.c - what ptpctl prints for each response: aligned text for people,
 * or with --json one JSON object per response with the field names that
 * ptpctl.8 documents (and doc/design.md, "Contract", fixes for `status`).
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "ctl.h"

void
ctl_fmt_identity(char *buf, size_t len, const ProtobufCBinaryData *id)
{
	const uint8_t *d = id->data;

	if (id->len != IPC_CLOCK_IDENTITY_LEN || d == NULL) {
		snprintf(buf, len, "%s", "");
		return;
	}
	snprintf(buf, len, "%02x%02x%02x.%02x%02x.%02x%02x%02x", d[0], d[1],
	    d[2], d[3], d[4], d[5], d[6], d[7]);
}

static void
ctl_fmt_port_identity(char *buf, size_t len, const Ptpsep__PortIdentity *p)
{
	char id[32];

	if (p == NULL) {
		snprintf(buf, len, "%s", "");
		return;
	}
	ctl_fmt_identity(id, sizeof(id), &p->clock_identity);
	snprintf(buf, len, "%s-%u", id, (unsigned)p->port_number);
}

const char *
ctl_enum_name(const ProtobufCEnumDescriptor *d, int v, const char *prefix,
    int upper, char *buf, size_t len)
{
	const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(d,
	    v);
	const char *n;
	size_t i;

	if (ev == NULL) {
		snprintf(buf, len, "%d", v);
		return buf;
	}
	n = ev->name;
	if (strncmp(n, prefix, strlen(prefix)) == 0)
		n += strlen(prefix);
	for (i = 0; n[i] != '\0' && i + 1 < len; i++)
		buf[i] = (char)(upper ? toupper((unsigned char)n[i]) :
		    tolower((unsigned char)n[i]));
	buf[i] = '\0';
	return buf;
}

const char *
ctl_port_state_name(int state, char *buf, size_t len)
{
	return ctl_enum_name(&ptpsep__ctl__port_state__descriptor, state,
	    "PORT_STATE_", 1, buf, len);
}

#define ENAME(desc, v, prefix) \
	ctl_enum_name(&(desc), (int)(v), (prefix), 0, nbuf, sizeof(nbuf))

static void
ctl_json_identity(struct ctl_json *j, const char *key,
    const ProtobufCBinaryData *id)
{
	char buf[32];

	ctl_fmt_identity(buf, sizeof(buf), id);
	if (buf[0] == '\0')
		ctl_json_null(j, key);
	else
		ctl_json_str(j, key, buf);
}

static void
ctl_json_port_identity(struct ctl_json *j, const char *key,
    const Ptpsep__PortIdentity *p)
{
	char buf[48];

	if (p == NULL) {
		ctl_json_null(j, key);
		return;
	}
	ctl_fmt_port_identity(buf, sizeof(buf), p);
	ctl_json_str(j, key, buf);
}

/* ---- status ---- */

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

/* ---- ports ---- */

void
ctl_show_ports(const Ptpsep__Ctl__Ports *ps, int json)
{
	char st[32], nbuf[32], pid[48], tr[32], ts[32];
	struct ctl_json j;
	size_t i;

	if (json) {
		ctl_json_init(&j, stdout);
		ctl_json_obj(&j, NULL);
		ctl_json_arr(&j, "ports");
	} else {
		printf("%-5s %-16s %-13s %-22s %-9s %-9s %-5s %-5s %s\n",
		    "PORT", "IFACE", "STATE", "PORT IDENTITY", "TRANSPORT",
		    "TSTAMP", "DELAY", "LINK", "ENABLED");
	}
	for (i = 0; i < ps->n_ports; i++) {
		const Ptpsep__Ctl__PortInfo *p = ps->ports[i];
		const Ptpsep__Ctl__PortStatus *s = p->status;

		ctl_fmt_port_identity(pid, sizeof(pid), p->port_identity);
		ctl_enum_name(&ptpsep__transport__descriptor, p->transport,
		    "TRANSPORT_", 0, tr, sizeof(tr));
		ctl_enum_name(&ptpsep__timestamp_mode__descriptor, p->ts_mode,
		    "TS_MODE_", 0, ts, sizeof(ts));
		if (json) {
			ctl_json_obj(&j, NULL);
			ctl_json_uint(&j, "port", s ? s->port_number : 0);
			ctl_json_str(&j, "iface", s ? s->iface : NULL);
			ctl_json_str(&j, "state", ctl_port_state_name(s ?
			    s->state : 0, st, sizeof(st)));
			ctl_json_double(&j, "since_state_change_s", s ?
			    (double)s->since_state_change_ms / 1e3 : 0.0);
			ctl_json_port_identity(&j, "port_identity",
			    p->port_identity);
			ctl_json_str(&j, "transport", tr);
			ctl_json_str(&j, "ts_mode", ts);
			ctl_json_str(&j, "delay_mechanism", ENAME(
			    ptpsep__ctl__delay_mechanism__descriptor,
			    p->delay_mechanism, "DELAY_MECHANISM_"));
			ctl_json_bool(&j, "link_up", p->link_up);
			ctl_json_bool(&j, "enabled", p->enabled);
			ctl_json_end_obj(&j);
			continue;
		}
		printf("%-5u %-16s %-13s %-22s %-9s %-9s %-5s %-5s %s\n",
		    s ? (unsigned)s->port_number : 0u, s ? s->iface : "",
		    ctl_port_state_name(s ? s->state : 0, st, sizeof(st)),
		    pid, tr, ts, ENAME(ptpsep__ctl__delay_mechanism__descriptor,
		    p->delay_mechanism, "DELAY_MECHANISM_"),
		    p->link_up ? "up" : "down", p->enabled ? "yes" : "no");
	}
	if (json) {
		ctl_json_end_arr(&j);
		ctl_json_end_obj(&j);
		ctl_json_done(&j);
	}
	fflush(stdout);
}

/* ---- datasets ---- */

/*
 * One row of a dataset: either a JSON member or an aligned "name value"
 * line.  Keeps each dataset's fields in one list for both outputs.
 */
struct ctl_row {
	struct ctl_json	*j;
	int		 json;
};

static void
row_uint(struct ctl_row *r, const char *k, uint64_t v)
{
	if (r->json)
		ctl_json_uint(r->j, k, v);
	else
		printf("  %-44s %" PRIu64 "\n", k, v);
}

static void
row_int(struct ctl_row *r, const char *k, int64_t v)
{
	if (r->json)
		ctl_json_int(r->j, k, v);
	else
		printf("  %-44s %" PRId64 "\n", k, v);
}

static void
row_bool(struct ctl_row *r, const char *k, int v)
{
	if (r->json)
		ctl_json_bool(r->j, k, v);
	else
		printf("  %-44s %s\n", k, v ? "true" : "false");
}

static void
row_str(struct ctl_row *r, const char *k, const char *v)
{
	if (r->json)
		ctl_json_str(r->j, k, v);
	else
		printf("  %-44s %s\n", k, v != NULL ? v : "");
}

static void
row_identity(struct ctl_row *r, const char *k, const ProtobufCBinaryData *id)
{
	char buf[32];

	if (r->json) {
		ctl_json_identity(r->j, k, id);
		return;
	}
	ctl_fmt_identity(buf, sizeof(buf), id);
	row_str(r, k, buf);
}

static void
row_port_identity(struct ctl_row *r, const char *k,
    const Ptpsep__PortIdentity *p)
{
	char buf[48];

	if (r->json) {
		ctl_json_port_identity(r->j, k, p);
		return;
	}
	ctl_fmt_port_identity(buf, sizeof(buf), p);
	row_str(r, k, buf);
}

static void
row_quality(struct ctl_row *r, const char *prefix,
    const Ptpsep__ClockQuality *q)
{
	char k[64];

	snprintf(k, sizeof(k), "%sclock_class", prefix);
	row_uint(r, k, q ? q->clock_class : 0);
	snprintf(k, sizeof(k), "%sclock_accuracy", prefix);
	row_uint(r, k, q ? q->clock_accuracy : 0);
	snprintf(k, sizeof(k), "%soffset_scaled_log_variance", prefix);
	row_uint(r, k, q ? q->offset_scaled_log_variance : 0);
}

static void
ctl_show_default_ds(struct ctl_row *r, const Ptpsep__Ctl__DefaultDS *d)
{
	row_identity(r, "clock_identity", &d->clock_identity);
	row_uint(r, "number_ports", d->number_ports);
	row_quality(r, "", d->clock_quality);
	row_uint(r, "priority1", d->priority1);
	row_uint(r, "priority2", d->priority2);
	row_uint(r, "domain_number", d->domain_number);
	row_bool(r, "slave_only", d->slave_only);
	row_bool(r, "two_step_flag", d->two_step_flag);
	row_uint(r, "sdo_id", d->sdo_id);
}

void
ctl_show_dataset(struct ctl_json *j, const char *key,
    const Ptpsep__Ctl__Dataset *d, int json)
{
	struct ctl_row r = { j, json };
	char st[32], nbuf[32];
	const Ptpsep__Ctl__CurrentDS *c;
	const Ptpsep__Ctl__ParentDS *p;
	const Ptpsep__Ctl__TimePropertiesDS *t;
	const Ptpsep__Ctl__PortDS *pd;
	static const char *const titles[] = {
		"", "defaultDS", "currentDS", "parentDS", "timePropertiesDS",
		"portDS",
	};

	if (json)
		ctl_json_obj(j, key);
	else if ((unsigned)d->ds_case < sizeof(titles) / sizeof(titles[0]))
		printf("%s\n", titles[d->ds_case]);
	switch (d->ds_case) {
	case PTPSEP__CTL__DATASET__DS_DEFAULT_DS:
		ctl_show_default_ds(&r, d->default_ds);
		break;
	case PTPSEP__CTL__DATASET__DS_CURRENT_DS:
		c = d->current_ds;
		row_uint(&r, "steps_removed", c->steps_removed);
		row_int(&r, "offset_from_master_ns", c->offset_from_master_ns);
		row_int(&r, "mean_delay_ns", c->mean_delay_ns);
		break;
	case PTPSEP__CTL__DATASET__DS_PARENT_DS:
		p = d->parent_ds;
		row_port_identity(&r, "parent_port_identity",
		    p->parent_port_identity);
		row_bool(&r, "parent_stats", p->parent_stats);
		row_uint(&r, "observed_parent_offset_scaled_log_variance",
		    p->observed_parent_offset_scaled_log_variance);
		row_int(&r, "observed_parent_clock_phase_change_rate",
		    p->observed_parent_clock_phase_change_rate);
		row_identity(&r, "grandmaster_identity",
		    &p->grandmaster_identity);
		row_quality(&r, "grandmaster_", p->grandmaster_clock_quality);
		row_uint(&r, "grandmaster_priority1", p->grandmaster_priority1);
		row_uint(&r, "grandmaster_priority2", p->grandmaster_priority2);
		break;
	case PTPSEP__CTL__DATASET__DS_TIME_PROPERTIES_DS:
		t = d->time_properties_ds;
		row_int(&r, "current_utc_offset", t->current_utc_offset);
		row_bool(&r, "current_utc_offset_valid",
		    t->current_utc_offset_valid);
		row_bool(&r, "leap59", t->leap59);
		row_bool(&r, "leap61", t->leap61);
		row_bool(&r, "time_traceable", t->time_traceable);
		row_bool(&r, "frequency_traceable", t->frequency_traceable);
		row_bool(&r, "ptp_timescale", t->ptp_timescale);
		row_uint(&r, "time_source", t->time_source);
		break;
	case PTPSEP__CTL__DATASET__DS_PORT_DS:
		pd = d->port_ds;
		row_port_identity(&r, "port_identity", pd->port_identity);
		row_str(&r, "port_state", ctl_port_state_name(pd->port_state,
		    st, sizeof(st)));
		row_int(&r, "log_min_delay_req_interval",
		    pd->log_min_delay_req_interval);
		row_int(&r, "mean_link_delay_ns", pd->mean_link_delay_ns);
		row_int(&r, "log_announce_interval", pd->log_announce_interval);
		row_uint(&r, "announce_receipt_timeout",
		    pd->announce_receipt_timeout);
		row_int(&r, "log_sync_interval", pd->log_sync_interval);
		row_str(&r, "delay_mechanism", ENAME(
		    ptpsep__ctl__delay_mechanism__descriptor,
		    pd->delay_mechanism, "DELAY_MECHANISM_"));
		row_int(&r, "log_min_pdelay_req_interval",
		    pd->log_min_pdelay_req_interval);
		row_uint(&r, "version_number", pd->version_number);
		row_uint(&r, "minor_version_number", pd->minor_version_number);
		row_int(&r, "delay_asymmetry_ns", pd->delay_asymmetry_ns);
		break;
	default:
		break;
	}
	if (json)
		ctl_json_end_obj(j);
}

void
ctl_show_default(struct ctl_json *j, const Ptpsep__Ctl__DefaultDS *d,
    int json)
{
	struct ctl_row r = { j, json };

	if (json)
		ctl_json_obj(j, "default_ds");
	else
		printf("defaultDS\n");
	ctl_show_default_ds(&r, d);
	if (json)
		ctl_json_end_obj(j);
}

/* ---- foreign masters ---- */

void
ctl_show_foreign(const Ptpsep__Ctl__ForeignMasters *f, int json)
{
	char pid[48], gm[32];
	struct ctl_json j;
	size_t i;

	if (json) {
		ctl_json_init(&j, stdout);
		ctl_json_obj(&j, NULL);
		ctl_json_arr(&j, "foreign_masters");
	} else {
		printf("%-5s %-22s %-4s %-9s %-8s %-18s %-4s %-5s %-4s %-6s "
		    "%-4s %s\n", "PORT", "FOREIGN PORT IDENTITY", "ANN",
		    "QUALIFIED", "AGE", "GRANDMASTER", "PRI1", "CLASS", "ACC",
		    "VAR", "PRI2", "STEPS");
	}
	for (i = 0; i < f->n_masters; i++) {
		const Ptpsep__Ctl__ForeignMaster *m = f->masters[i];
		const Ptpsep__ClockQuality *q = m->gm_clock_quality;

		ctl_fmt_port_identity(pid, sizeof(pid), m->port_identity);
		ctl_fmt_identity(gm, sizeof(gm), &m->gm_identity);
		if (json) {
			ctl_json_obj(&j, NULL);
			ctl_json_uint(&j, "port", m->port_number);
			ctl_json_port_identity(&j, "port_identity",
			    m->port_identity);
			ctl_json_uint(&j, "announce_messages",
			    m->announce_messages);
			ctl_json_bool(&j, "qualified", m->qualified);
			ctl_json_double(&j, "last_announce_s",
			    (double)m->last_announce_ms / 1e3);
			ctl_json_identity(&j, "gm_identity", &m->gm_identity);
			ctl_json_uint(&j, "gm_priority1", m->gm_priority1);
			ctl_json_uint(&j, "gm_clock_class",
			    q ? q->clock_class : 0);
			ctl_json_uint(&j, "gm_clock_accuracy",
			    q ? q->clock_accuracy : 0);
			ctl_json_uint(&j, "gm_offset_scaled_log_variance",
			    q ? q->offset_scaled_log_variance : 0);
			ctl_json_uint(&j, "gm_priority2", m->gm_priority2);
			ctl_json_uint(&j, "steps_removed", m->steps_removed);
			ctl_json_uint(&j, "time_source", m->time_source);
			ctl_json_int(&j, "current_utc_offset",
			    m->current_utc_offset);
			ctl_json_end_obj(&j);
			continue;
		}
		printf("%-5u %-22s %-4u %-9s %-8.1f %-18s %-4u %-5u 0x%02x "
		    "0x%04x %-4u %u\n", (unsigned)m->port_number, pid,
		    (unsigned)m->announce_messages, m->qualified ? "yes" : "no",
		    (double)m->last_announce_ms / 1e3, gm,
		    (unsigned)m->gm_priority1, q ? (unsigned)q->clock_class : 0,
		    q ? (unsigned)q->clock_accuracy : 0,
		    q ? (unsigned)q->offset_scaled_log_variance : 0,
		    (unsigned)m->gm_priority2, (unsigned)m->steps_removed);
	}
	if (json) {
		ctl_json_end_arr(&j);
		ctl_json_end_obj(&j);
		ctl_json_done(&j);
	} else if (f->n_masters == 0) {
		printf("(no foreign master heard)\n");
	}
	fflush(stdout);
}

/* ---- netd ---- */

static void
ctl_json_counts_drop(struct ctl_json *j, const char *key,
    Ptpsep__Ctl__RxDropCount *const *c, size_t n)
{
	char nbuf[48];
	size_t i;

	ctl_json_obj(j, key);
	for (i = 0; i < n; i++)
		ctl_json_uint(j, ENAME(ptpsep__ctl__rx_drop_reason__descriptor,
		    c[i]->reason, "RX_DROP_"), c[i]->count);
	ctl_json_end_obj(j);
}

static void
ctl_json_counts_refused(struct ctl_json *j, const char *key,
    Ptpsep__Ctl__RefusedCount *const *c, size_t n)
{
	char nbuf[48];
	size_t i;

	ctl_json_obj(j, key);
	for (i = 0; i < n; i++)
		ctl_json_uint(j, ENAME(ptpsep__refuse_reason__descriptor,
		    c[i]->reason, "REFUSE_"), c[i]->count);
	ctl_json_end_obj(j);
}

static uint64_t
ctl_sum_drop(Ptpsep__Ctl__RxDropCount *const *c, size_t n)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += c[i]->count;
	return s;
}

static uint64_t
ctl_sum_refused(Ptpsep__Ctl__RefusedCount *const *c, size_t n)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += c[i]->count;
	return s;
}

/* A clock of netd's (NetdInfo.clock, .system_clock); null when absent. */
static void
ctl_json_netd_clock(struct ctl_json *j, const char *key,
    const Ptpsep__Netd__ClockInfo *c, int sys)
{
	char nbuf[48];

	if (c == NULL) {
		ctl_json_null(j, key);
		return;
	}
	ctl_json_obj(j, key);
	ctl_json_str(j, "device", c->device);
	ctl_json_double(j, "max_freq_ppb", c->max_freq_ppb);
	ctl_json_bool(j, "step_allowed", c->step_allowed);
	ctl_json_int(j, "max_step_ns", c->max_step_ns);
	ctl_json_uint(j, "min_adj_interval_ms", c->min_adj_interval_ms);
	ctl_json_bool(j, "ptp_timescale", c->ptp_timescale);
	ctl_json_int(j, "phc_index", c->phc_index);
	/* How netd compares the system clock with the PTP clock. */
	if (sys)
		ctl_json_str(j, "sysoff", ENAME(
		    ptpsep__netd__sysoff_method__descriptor, c->sysoff,
		    "SYSOFF_"));
	ctl_json_end_obj(j);
}

/* NetdInfo.clock_state, .system_clock_state; null when absent. */
static void
ctl_json_clock_state(struct ctl_json *j, const char *key,
    const Ptpsep__Ctl__ClockState *st)
{
	if (st == NULL) {
		ctl_json_null(j, key);
		return;
	}
	ctl_json_obj(j, key);
	ctl_json_int(j, "offset_from_realtime_ns",
	    st->offset_from_realtime_ns);
	ctl_json_double(j, "freq_ppb", st->freq_ppb);
	ctl_json_uint(j, "steps", st->steps);
	ctl_json_int(j, "leap", st->leap);
	ctl_json_int(j, "tai_offset", st->tai_offset);
	ctl_json_uint(j, "leaps", st->leaps);
	ctl_json_end_obj(j);
}

static void
ctl_show_netd_json(const Ptpsep__Ctl__NetdInfo *n)
{
	char nbuf[48], mac[24], id[32];
	struct ctl_json j;
	size_t i, k;

	ctl_json_init(&j, stdout);
	ctl_json_obj(&j, NULL);
	ctl_json_str(&j, "software_version", n->software_version);
	ctl_json_netd_clock(&j, "clock", n->clock, 0);
	ctl_json_clock_state(&j, "clock_state", n->clock_state);
	ctl_json_netd_clock(&j, "system_clock", n->system_clock, 1);
	ctl_json_clock_state(&j, "system_clock_state",
	    n->system_clock_state);
	ctl_json_counts_refused(&j, "system_clock_refused",
	    n->system_clock_refused, n->n_system_clock_refused);
	ctl_json_bool(&j, "client_connected", n->client_connected);
	ctl_json_uint(&j, "client_connections", n->client_connections);
	ctl_json_uint(&j, "client_backlog_closes", n->client_backlog_closes);
	ctl_json_counts_refused(&j, "refused", n->refused, n->n_refused);
	ctl_json_arr(&j, "ports");
	for (i = 0; i < n->n_ports; i++) {
		const Ptpsep__Ctl__NetdPortInfo *p = n->ports[i];
		const Ptpsep__Netd__Port *pt = p->port;

		ctl_json_obj(&j, NULL);
		ctl_json_uint(&j, "index", pt ? pt->index : 0);
		ctl_json_str(&j, "iface", pt ? pt->iface : NULL);
		ctl_json_str(&j, "transport", ENAME(ptpsep__transport__descriptor,
		    pt ? pt->transport : 0, "TRANSPORT_"));
		ctl_json_str(&j, "ts_mode", ENAME(
		    ptpsep__timestamp_mode__descriptor, pt ? pt->ts_mode : 0,
		    "TS_MODE_"));
		/* The driver's PHC (/dev/ptpN) with hardware time stamps. */
		ctl_json_int(&j, "phc_index", pt ? pt->phc_index : -1);
		/* The NIC writes the Sync's time (twoStepFlag 0). */
		ctl_json_bool(&j, "one_step", pt ? pt->one_step : 0);
		ctl_json_bool(&j, "link_up", pt ? pt->link_up : 0);
		if (pt != NULL && pt->mac.len == IPC_MAC_LEN) {
			snprintf(mac, sizeof(mac),
			    "%02x:%02x:%02x:%02x:%02x:%02x", pt->mac.data[0],
			    pt->mac.data[1], pt->mac.data[2], pt->mac.data[3],
			    pt->mac.data[4], pt->mac.data[5]);
			ctl_json_str(&j, "mac", mac);
		} else {
			ctl_json_null(&j, "mac");
		}
		if (pt != NULL) {
			ctl_fmt_identity(id, sizeof(id), &pt->clock_identity);
			ctl_json_str(&j, "clock_identity", id[0] ? id : NULL);
		} else {
			ctl_json_null(&j, "clock_identity");
		}
		ctl_json_arr(&j, "sockets");
		for (k = 0; k < p->n_sockets; k++) {
			const Ptpsep__Ctl__SocketInfo *s = p->sockets[k];

			ctl_json_obj(&j, NULL);
			ctl_json_str(&j, "msg_class", ENAME(
			    ptpsep__msg_class__descriptor, s->msg_class,
			    "MSG_CLASS_"));
			ctl_json_uint(&j, "protocol", s->protocol);
			ctl_json_bool(&j, "filter_attached",
			    s->filter_attached);
			ctl_json_bool(&j, "filter_locked", s->filter_locked);
			ctl_json_end_obj(&j);
		}
		ctl_json_end_arr(&j);
		ctl_json_uint(&j, "rx_event", p->rx_event);
		ctl_json_uint(&j, "rx_general", p->rx_general);
		ctl_json_uint(&j, "tx_event", p->tx_event);
		ctl_json_uint(&j, "tx_general", p->tx_general);
		ctl_json_uint(&j, "tx_ts_missing", p->tx_ts_missing);
		ctl_json_uint(&j, "unicast_peers", p->unicast_peers);
		ctl_json_uint(&j, "unicast_peers_max", p->unicast_peers_max);
		ctl_json_uint(&j, "unicast_peers_refused",
		    p->unicast_peers_refused);
		ctl_json_uint(&j, "unicast_tx_rate_limited",
		    p->unicast_tx_rate_limited);
		ctl_json_counts_drop(&j, "rx_dropped", p->rx_dropped,
		    p->n_rx_dropped);
		ctl_json_counts_refused(&j, "refused", p->refused,
		    p->n_refused);
		ctl_json_end_obj(&j);
	}
	ctl_json_end_arr(&j);
	ctl_json_end_obj(&j);
	ctl_json_done(&j);
}

static void
ctl_show_netd_clock_state(const char *what, const Ptpsep__Ctl__ClockState *st)
{
	char label[32];

	if (st == NULL)
		return;
	snprintf(label, sizeof(label), "%s state", what);
	printf("%-20s freq %.3f ppb, %" PRIu64 " step(s), %" PRId64
	    " ns from CLOCK_REALTIME (virtual clocks)\n", label,
	    st->freq_ppb, st->steps, st->offset_from_realtime_ns);
	snprintf(label, sizeof(label), "%s leap", what);
	printf("%-20s %s, TAI offset %d s, %" PRIu64 " leap(s) applied\n",
	    label, st->leap > 0 ? "insert armed" : st->leap < 0 ?
	    "delete armed" : "none armed", (int)st->tai_offset, st->leaps);
}

void
ctl_show_netd(const Ptpsep__Ctl__NetdInfo *n, int json)
{
	char nbuf[48], tr[32], ts[32];
	size_t i, k;

	if (json) {
		ctl_show_netd_json(n);
		return;
	}
	printf("%-20s %s\n", "software version", n->software_version);
	if (n->clock != NULL) {
		printf("%-20s %s\n", "clock device", n->clock->device);
		printf("%-20s %.0f ppb\n", "max frequency",
		    n->clock->max_freq_ppb);
		printf("%-20s %s\n", "step allowed",
		    n->clock->step_allowed ? "yes" : "no");
		printf("%-20s %s\n", "clock timescale",
		    n->clock->ptp_timescale ? "PTP (TAI)" : "ARB or UTC");
	}
	ctl_show_netd_clock_state("clock", n->clock_state);
	if (n->system_clock != NULL) {
		printf("%-20s %s, compared by %s\n", "system clock",
		    n->system_clock->device, ENAME(
		    ptpsep__netd__sysoff_method__descriptor,
		    n->system_clock->sysoff, "SYSOFF_"));
		ctl_show_netd_clock_state("system clock",
		    n->system_clock_state);
		for (i = 0; i < n->n_system_clock_refused; i++)
			printf("%-20s %-24s %" PRIu64 "\n",
			    "system clock refused", ENAME(
			    ptpsep__refuse_reason__descriptor,
			    n->system_clock_refused[i]->reason, "REFUSE_"),
			    n->system_clock_refused[i]->count);
	}
	printf("%-20s %s (%" PRIu64 " connections since start, %" PRIu64
	    " closed because clockd did not read)\n",
	    "clockd connected", n->client_connected ? "yes" : "no",
	    n->client_connections, n->client_backlog_closes);
	for (i = 0; i < n->n_refused; i++)
		printf("%-20s %-24s %" PRIu64 "\n", "refused",
		    ENAME(ptpsep__refuse_reason__descriptor,
		    n->refused[i]->reason, "REFUSE_"), n->refused[i]->count);
	printf("\n%-5s %-16s %-9s %-9s %-5s %-10s %-10s %-10s %-10s %-8s "
	    "%-8s %s\n", "PORT", "IFACE", "TRANSPORT", "TSTAMP", "LINK",
	    "RX EVENT", "RX GENERAL", "TX EVENT", "TX GENERAL", "TS MISS",
	    "DROPPED", "REFUSED");
	for (i = 0; i < n->n_ports; i++) {
		const Ptpsep__Ctl__NetdPortInfo *p = n->ports[i];
		const Ptpsep__Netd__Port *pt = p->port;

		ctl_enum_name(&ptpsep__transport__descriptor, pt ?
		    pt->transport : 0, "TRANSPORT_", 0, tr, sizeof(tr));
		ctl_enum_name(&ptpsep__timestamp_mode__descriptor, pt ?
		    pt->ts_mode : 0, "TS_MODE_", 0, ts, sizeof(ts));
		printf("%-5u %-16s %-9s %-9s %-5s %-10" PRIu64 " %-10" PRIu64
		    " %-10" PRIu64 " %-10" PRIu64 " %-8" PRIu64 " %-8" PRIu64
		    " %" PRIu64 "\n", pt ? (unsigned)pt->index + 1 : 0u,
		    pt ? pt->iface : "", tr, ts,
		    pt && pt->link_up ? "up" : "down", p->rx_event,
		    p->rx_general, p->tx_event, p->tx_general,
		    p->tx_ts_missing, ctl_sum_drop(p->rx_dropped,
		    p->n_rx_dropped), ctl_sum_refused(p->refused,
		    p->n_refused));
		printf("      unicast peers %" PRIu64 " of %" PRIu64
		    ", not learned (full) %" PRIu64 ", TX rate-limited %"
		    PRIu64 "\n", p->unicast_peers, p->unicast_peers_max,
		    p->unicast_peers_refused, p->unicast_tx_rate_limited);
		for (k = 0; k < p->n_sockets; k++) {
			const Ptpsep__Ctl__SocketInfo *s = p->sockets[k];

			printf("      socket %-8s protocol 0x%04x filter %s%s\n",
			    ENAME(ptpsep__msg_class__descriptor, s->msg_class,
			    "MSG_CLASS_"), (unsigned)s->protocol,
			    s->filter_attached ? "attached" : "none",
			    s->filter_locked ? ", locked" : "");
		}
	}
	fflush(stdout);
}
