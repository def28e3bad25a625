/*
 * metrics.c - `ptpctl metrics`: the state of both daemons as OpenMetrics
 * text (https://github.com/OpenObservability/OpenMetrics), for a
 * Prometheus textfile collector or an HTTP wrapper.
 *
 * Every family has # TYPE and # HELP; counters are exposed with the
 * _total suffix; label values are escaped; the exposition ends with
 * "# EOF".  Names start with ptpsep_.  A daemon that is not reachable
 * shows as ptpsep_up{daemon="..."} 0 and its families are left out.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ctl.h"

/* Label values: backslash, double quote and newline escaped. */
static void
ctl_om_label(FILE *out, const char *v)
{
	for (; v != NULL && *v != '\0'; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(out, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", out);
		else
			fputc(*v, out);
	}
}

static void
ctl_om_family(FILE *out, const char *name, const char *type,
    const char *help)
{
	fprintf(out, "# TYPE %s %s\n# HELP %s %s\n", name, type, name, help);
}

static void
ctl_om_double(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.17g\n", v);
	else
		fputs("NaN\n", out);
}

/* name{port="N",iface="X"[,extra="v"]} */
static void
ctl_om_port(FILE *out, const char *name, unsigned port, const char *iface,
    const char *xk, const char *xv)
{
	fprintf(out, "%s{port=\"%u\",iface=\"", name, port);
	ctl_om_label(out, iface);
	fputc('"', out);
	if (xk != NULL) {
		fprintf(out, ",%s=\"", xk);
		ctl_om_label(out, xv);
		fputc('"', out);
	}
	fputs("} ", out);
}

static void ctl_metrics_unicast(FILE *, const Ptpsep__Ctl__Status *);

static void
ctl_metrics_clockd(FILE *out, const Ptpsep__Ctl__Status *st)
{
	char id[32], gm[32], sn[32];
	size_t i;

	ctl_fmt_identity(id, sizeof(id), &st->clock_identity);
	ctl_fmt_identity(gm, sizeof(gm), &st->gm_identity);
	ctl_om_family(out, "ptpsep_clock", "info",
	    "This clock and its grandmaster.");
	fputs("ptpsep_clock_info{clock_identity=\"", out);
	ctl_om_label(out, id);
	fputs("\",gm_identity=\"", out);
	ctl_om_label(out, gm);
	fputs("\"} 1\n", out);
	ctl_om_family(out, "ptpsep_offset_nanoseconds", "gauge",
	    "Offset from master (currentDS.offsetFromMaster), ns.");
	fprintf(out, "ptpsep_offset_nanoseconds %" PRId64 "\n", st->offset_ns);
	ctl_om_family(out, "ptpsep_mean_path_delay_nanoseconds", "gauge",
	    "Mean path delay (currentDS.meanDelay), ns.");
	fprintf(out, "ptpsep_mean_path_delay_nanoseconds %" PRId64 "\n",
	    st->mean_path_delay_ns);
	ctl_om_family(out, "ptpsep_frequency_ppb", "gauge",
	    "Frequency adjustment of the clock, ppb.");
	fputs("ptpsep_frequency_ppb ", out);
	ctl_om_double(out, st->freq_ppb);
	ctl_om_family(out, "ptpsep_servo_state", "gauge",
	    "Servo state: 0 unlocked, 1 jump, 2 locked.");
	fprintf(out, "ptpsep_servo_state %d\n",
	    st->servo_state == PTPSEP__CTL__SERVO_STATE__SERVO_STATE_LOCKED ?
	    2 : st->servo_state == PTPSEP__CTL__SERVO_STATE__SERVO_STATE_JUMP ?
	    1 : 0);
	ctl_om_family(out, "ptpsep_clock_refusal", "gauge",
	    "Why the clock is not steered as the servo wants: 0 none, "
	    "1 step_not_allowed, 2 step_too_large, 3 rate_limited, "
	    "4 out_of_bounds, 5 netd_unreachable, 6 clock_failed.");
	fprintf(out, "ptpsep_clock_refusal %d\n", (int)st->clock_refusal);
	ctl_om_family(out, "ptpsep_gm_clock_class", "gauge",
	    "clockClass of the grandmaster.");
	fprintf(out, "ptpsep_gm_clock_class %u\n", (unsigned)st->gm_clock_class);
	ctl_om_family(out, "ptpsep_steps_removed", "gauge",
	    "currentDS.stepsRemoved.");
	fprintf(out, "ptpsep_steps_removed %u\n", (unsigned)st->steps_removed);
	ctl_om_family(out, "ptpsep_clock_class", "gauge",
	    "clockClass this clock announces as grandmaster now (defaultDS's, "
	    "or holdover_clock_class in holdover).");
	fprintf(out, "ptpsep_clock_class %u\n", (unsigned)st->clock_class);
	ctl_om_family(out, "ptpsep_holdover", "gauge",
	    "1 in holdover: the last grandmaster lost while the servo was "
	    "locked.");
	fprintf(out, "ptpsep_holdover %d\n", st->holdover ? 1 : 0);
	ctl_om_family(out, "ptpsep_holdover_seconds", "gauge",
	    "Time in holdover, s (0 when not).");
	fprintf(out, "ptpsep_holdover_seconds %.3f\n",
	    (double)st->holdover_ms / 1e3);
	if (st->system_clock != NULL) {
		const Ptpsep__Ctl__SystemClockStatus *y = st->system_clock;

		/* The second servo (sync_system_clock 1, doc/design.md). */
		ctl_om_family(out, "ptpsep_system_clock_offset_nanoseconds",
		    "gauge", "The follower minus the leader of the system "
		    "clock and the PTP clock, UTC offset applied, ns.");
		fprintf(out, "ptpsep_system_clock_offset_nanoseconds %" PRId64
		    "\n", y->offset_ns);
		ctl_om_family(out, "ptpsep_system_clock_frequency_ppb",
		    "gauge", "Frequency adjustment of the follower, ppb.");
		fputs("ptpsep_system_clock_frequency_ppb ", out);
		ctl_om_double(out, y->freq_ppb);
		ctl_om_family(out, "ptpsep_system_clock_servo_state", "gauge",
		    "The system clock servo's state: 0 unlocked, 1 jump, "
		    "2 locked.");
		fprintf(out, "ptpsep_system_clock_servo_state %d\n",
		    y->servo_state ==
		    PTPSEP__CTL__SERVO_STATE__SERVO_STATE_LOCKED ? 2 :
		    y->servo_state ==
		    PTPSEP__CTL__SERVO_STATE__SERVO_STATE_JUMP ? 1 : 0);
		ctl_om_family(out, "ptpsep_system_clock_source", "gauge",
		    "Which clock leads: 0 none, 1 phc (the system clock "
		    "follows it), 2 system (the PTP clock follows it).");
		fprintf(out, "ptpsep_system_clock_source %d\n",
		    (int)y->source);
	}
	ctl_om_family(out, "ptpsep_port_state", "gauge",
	    "portState of IEEE 1588-2019 Table 20 (9 SLAVE, 6 MASTER, ...).");
	for (i = 0; i < st->n_ports; i++) {
		const Ptpsep__Ctl__PortStatus *p = st->ports[i];

		ctl_om_port(out, "ptpsep_port_state", p->port_number,
		    p->iface, "state", ctl_port_state_name(p->state, sn,
		    sizeof(sn)));
		fprintf(out, "%d\n", (int)p->state);
	}
	ctl_om_family(out, "ptpsep_port_state_seconds", "gauge",
	    "Time in the current port state, s.");
	for (i = 0; i < st->n_ports; i++) {
		const Ptpsep__Ctl__PortStatus *p = st->ports[i];

		ctl_om_port(out, "ptpsep_port_state_seconds", p->port_number,
		    p->iface, NULL, NULL);
		fprintf(out, "%.3f\n", (double)p->since_state_change_ms / 1e3);
	}
	ctl_metrics_unicast(out, st);
}

/* One counter or gauge of the ports' unicast servers (PortStatus.unicast). */
#define CTL_UNI_SRV(out, st, name, type, help, field) do {		\
	size_t i_;							\
	ctl_om_family((out), (name), (type), (help));			\
	for (i_ = 0; i_ < (st)->n_ports; i_++) {			\
		const Ptpsep__Ctl__PortStatus *p_ = (st)->ports[i_];	\
		if (p_->unicast == NULL || p_->unicast->server == NULL)	\
			continue;					\
		ctl_om_port((out), strcmp((type), "counter") == 0 ?	\
		    name "_total" : (name), p_->port_number, p_->iface,	\
		    NULL, NULL);					\
		fprintf((out), "%" PRIu64 "\n",				\
		    (uint64_t)p_->unicast->server->field);		\
	}								\
} while (0)

/* The unicast negotiation of the ports that have it (clockd/port_uneg.c). */
static void
ctl_metrics_unicast(FILE *out, const Ptpsep__Ctl__Status *st)
{
	static const char *const reasons[] = { "table_full", "period",
	    "duration", "other" };
	int srv = 0, cli = 0, peer = 0;
	size_t i, k;

	for (i = 0; i < st->n_ports; i++) {
		const Ptpsep__Ctl__PortUnicast *u = st->ports[i]->unicast;

		srv |= u != NULL && u->server != NULL;
		cli |= u != NULL && u->client != NULL;
		peer |= u != NULL && u->client != NULL &&
		    u->client->peer != NULL;
	}
	if (srv) {
		CTL_UNI_SRV(out, st, "ptpsep_unicast_clients", "gauge",
		    "Unicast clients holding a grant now.", clients);
		CTL_UNI_SRV(out, st, "ptpsep_unicast_grants", "counter",
		    "Unicast transmission grants sent (renewals too).",
		    grants);
		ctl_om_family(out, "ptpsep_unicast_refused", "counter",
		    "Unicast transmission requests refused, by reason: "
		    "table_full (unicast_max_clients), period (faster than "
		    "unicast_min_log_interval), duration (0), other.");
		for (i = 0; i < st->n_ports; i++) {
			const Ptpsep__Ctl__PortStatus *p = st->ports[i];
			const Ptpsep__Ctl__UnicastService *s;
			uint64_t v[4];

			if (p->unicast == NULL || p->unicast->server == NULL)
				continue;
			s = p->unicast->server;
			v[0] = s->refused_table_full;
			v[1] = s->refused_period;
			v[2] = s->refused_duration;
			v[3] = s->refused - v[0] - v[1] - v[2];
			for (k = 0; k < 4; k++) {
				ctl_om_port(out, "ptpsep_unicast_refused_total",
				    p->port_number, p->iface, "reason",
				    reasons[k]);
				fprintf(out, "%" PRIu64 "\n", v[k]);
			}
		}
		CTL_UNI_SRV(out, st, "ptpsep_unicast_cancelled", "counter",
		    "Unicast grants ended by the client's CANCEL.", cancelled);
		CTL_UNI_SRV(out, st, "ptpsep_unicast_unknown_cancels",
		    "counter", "CANCELs of no grant (acknowledged).",
		    unknown_cancels);
		CTL_UNI_SRV(out, st, "ptpsep_unicast_expired", "counter",
		    "Unicast grants that ran out unrenewed.", expired);
	}
	if (cli) {
		ctl_om_family(out, "ptpsep_unicast_master_state", "gauge",
		    "A unicast master of the port's table as its client sees "
		    "it: 1 wait, 2 have_ann, 3 need_sydy, 4 have_sydy.");
		for (i = 0; i < st->n_ports; i++) {
			const Ptpsep__Ctl__PortStatus *p = st->ports[i];

			if (p->unicast == NULL || p->unicast->client == NULL)
				continue;
			for (k = 0; k < p->unicast->client->n_masters; k++) {
				const Ptpsep__Ctl__UnicastMaster *m =
				    p->unicast->client->masters[k];

				ctl_om_port(out, "ptpsep_unicast_master_state",
				    p->port_number, p->iface, "address",
				    m->address);
				fprintf(out, "%d\n", (int)m->state);
			}
		}
	}
	if (peer) {
		ctl_om_family(out, "ptpsep_unicast_peer_granted", "gauge",
		    "1 while the peer_address grants Pdelay_Resp.");
		for (i = 0; i < st->n_ports; i++) {
			const Ptpsep__Ctl__PortStatus *p = st->ports[i];
			const Ptpsep__Ctl__UnicastPeer *pe;

			if (p->unicast == NULL || p->unicast->client == NULL ||
			    (pe = p->unicast->client->peer) == NULL)
				continue;
			ctl_om_port(out, "ptpsep_unicast_peer_granted",
			    p->port_number, p->iface, "address", pe->address);
			fprintf(out, "%d\n", pe->grant != NULL);
		}
	}
}

static const char *
ctl_port_iface(const Ptpsep__Ctl__NetdPortInfo *p)
{
	return p->port != NULL ? p->port->iface : "";
}

static unsigned
ctl_port_no(const Ptpsep__Ctl__NetdPortInfo *p)
{
	return p->port != NULL ? (unsigned)p->port->index + 1 : 0u;
}

static void
ctl_metrics_netd(FILE *out, const Ptpsep__Ctl__NetdInfo *ni)
{
	char nbuf[48];
	size_t i, k;

	ctl_om_family(out, "ptpsep_netd_clockd_connected", "gauge",
	    "1 while a clockd is connected to netd.");
	fprintf(out, "ptpsep_netd_clockd_connected %d\n",
	    ni->client_connected ? 1 : 0);
	ctl_om_family(out, "ptpsep_netd_client_connections", "counter",
	    "clockd connections netd accepted since it started.");
	fprintf(out, "ptpsep_netd_client_connections_total %" PRIu64 "\n",
	    ni->client_connections);
	ctl_om_family(out, "ptpsep_netd_client_backlog_closes", "counter",
	    "clockd connections netd closed because clockd did not read.");
	fprintf(out, "ptpsep_netd_client_backlog_closes_total %" PRIu64 "\n",
	    ni->client_backlog_closes);
	ctl_om_family(out, "ptpsep_netd_rx_frames", "counter",
	    "PTP frames received and relayed, by port and class.");
	for (i = 0; i < ni->n_ports; i++) {
		const Ptpsep__Ctl__NetdPortInfo *p = ni->ports[i];

		ctl_om_port(out, "ptpsep_netd_rx_frames_total", ctl_port_no(p),
		    ctl_port_iface(p), "class", "event");
		fprintf(out, "%" PRIu64 "\n", p->rx_event);
		ctl_om_port(out, "ptpsep_netd_rx_frames_total", ctl_port_no(p),
		    ctl_port_iface(p), "class", "general");
		fprintf(out, "%" PRIu64 "\n", p->rx_general);
	}
	ctl_om_family(out, "ptpsep_netd_tx_frames", "counter",
	    "PTP frames sent, by port and class.");
	for (i = 0; i < ni->n_ports; i++) {
		const Ptpsep__Ctl__NetdPortInfo *p = ni->ports[i];

		ctl_om_port(out, "ptpsep_netd_tx_frames_total", ctl_port_no(p),
		    ctl_port_iface(p), "class", "event");
		fprintf(out, "%" PRIu64 "\n", p->tx_event);
		ctl_om_port(out, "ptpsep_netd_tx_frames_total", ctl_port_no(p),
		    ctl_port_iface(p), "class", "general");
		fprintf(out, "%" PRIu64 "\n", p->tx_general);
	}
	ctl_om_family(out, "ptpsep_netd_tx_timestamps_missing", "counter",
	    "Transmit timestamps the kernel never delivered.");
	for (i = 0; i < ni->n_ports; i++) {
		const Ptpsep__Ctl__NetdPortInfo *p = ni->ports[i];

		ctl_om_port(out, "ptpsep_netd_tx_timestamps_missing_total",
		    ctl_port_no(p), ctl_port_iface(p), NULL, NULL);
		fprintf(out, "%" PRIu64 "\n", p->tx_ts_missing);
	}
	ctl_om_family(out, "ptpsep_netd_rx_dropped", "counter",
	    "Received frames netd dropped, by reason.");
	for (i = 0; i < ni->n_ports; i++) {
		const Ptpsep__Ctl__NetdPortInfo *p = ni->ports[i];

		for (k = 0; k < p->n_rx_dropped; k++) {
			ctl_om_port(out, "ptpsep_netd_rx_dropped_total",
			    ctl_port_no(p), ctl_port_iface(p), "reason",
			    ctl_enum_name(
			    &ptpsep__ctl__rx_drop_reason__descriptor,
			    p->rx_dropped[k]->reason, "RX_DROP_", 0, nbuf,
			    sizeof(nbuf)));
			fprintf(out, "%" PRIu64 "\n", p->rx_dropped[k]->count);
		}
	}
	ctl_om_family(out, "ptpsep_netd_refused", "counter",
	    "Requests of clockd netd refused, by reason (port 0: clock).");
	for (i = 0; i < ni->n_refused; i++) {
		ctl_om_port(out, "ptpsep_netd_refused_total", 0, "", "reason",
		    ctl_enum_name(&ptpsep__refuse_reason__descriptor,
		    ni->refused[i]->reason, "REFUSE_", 0, nbuf, sizeof(nbuf)));
		fprintf(out, "%" PRIu64 "\n", ni->refused[i]->count);
	}
	for (i = 0; i < ni->n_ports; i++) {
		const Ptpsep__Ctl__NetdPortInfo *p = ni->ports[i];

		for (k = 0; k < p->n_refused; k++) {
			ctl_om_port(out, "ptpsep_netd_refused_total",
			    ctl_port_no(p), ctl_port_iface(p), "reason",
			    ctl_enum_name(&ptpsep__refuse_reason__descriptor,
			    p->refused[k]->reason, "REFUSE_", 0, nbuf,
			    sizeof(nbuf)));
			fprintf(out, "%" PRIu64 "\n", p->refused[k]->count);
		}
	}
}

void
ctl_metrics(FILE *out, const Ptpsep__Ctl__Status *st,
    const Ptpsep__Ctl__NetdInfo *ni)
{
	ctl_om_family(out, "ptpsep_up", "gauge",
	    "1 if ptpctl reached the daemon's control socket.");
	fprintf(out, "ptpsep_up{daemon=\"clockd\"} %d\n", st != NULL);
	fprintf(out, "ptpsep_up{daemon=\"netd\"} %d\n", ni != NULL);
	if (st != NULL)
		ctl_metrics_clockd(out, st);
	if (ni != NULL)
		ctl_metrics_netd(out, ni);
	fputs("# EOF\n", out);
	fflush(out);
}
