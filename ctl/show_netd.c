/*
 * show_netd.c - what `ptpctl netd` prints: ptp-netd's ports, sockets,
 * counters and clocks, as text or JSON
 * (show.c: the shared formatters).
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "ctl.h"
#include "show.h"

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
