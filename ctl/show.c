/*
 * show.c - what ptpctl prints for each response: aligned text for people,
 * or with --json one JSON object per response with the field names that
 * ptpctl.8 documents (and doc/design.md, "Contract", fixes for `status`).
 * Here the formatters every show*.c shares (show.h), `ports` and
 * `foreign`; show_status.c `status`, show_ds.c `datasets`, show_netd.c
 * `netd`.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "ctl.h"
#include "show.h"

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

void
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

void
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

void
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
