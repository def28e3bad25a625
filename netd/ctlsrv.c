/*
 * ctlsrv.c - netd_ctl_socket: read-only view of netd for ptpctl.
 *
 * Anyone local may read netd's ports, sockets and counters (the socket is
 * 0666); nothing on this socket changes netd, so every request other than
 * Hello and NetdInfoRequest is answered with ERROR_NOT_SUPPORTED.  The
 * socket, the Hello and the limits on clients (their number, their rate, a
 * client that breaks the protocol is dropped) are lib/ctlsock.c, shared
 * with clockd's control socket.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ctlsock.h"
#include "log.h"
#include "netd.h"

typedef Ptpsep__Ctl__CtlRequest CtlRequest;
typedef Ptpsep__Ctl__CtlResponse CtlResponse;

static int ctlsrv_serve(void *arg, struct ctlsock_client *cl,
    const CtlRequest *req);

static const struct ctlsock_ops ctlsrv_ops = {
	.name = "netd_ctl_socket",
	.role = PTPSEP__ROLE__ROLE_NETD,
	.serve = ctlsrv_serve,
};

int
ctlsrv_listen(struct netd *nd, const char *path)
{
	/* Read-only information: any local user may ask (doc/design.md). */
	nd->ctl = ctlsock_listen(nd->base, path, 0666, &ctlsrv_ops, nd);
	return nd->ctl != NULL ? 0 : -1;
}

void
ctlsrv_close_all(struct netd *nd)
{
	ctlsock_close(nd->ctl, 0);
	nd->ctl = NULL;
}

/* Appends the non-zero counters of arr as RefusedCount entries. */
static size_t
ctlsrv_refused(const uint64_t *arr, Ptpsep__Ctl__RefusedCount *store,
    Ptpsep__Ctl__RefusedCount **ptrs, size_t cap)
{
	static const Ptpsep__Ctl__RefusedCount init =
	    PTPSEP__CTL__REFUSED_COUNT__INIT;
	size_t n = 0;
	int i;

	for (i = 1; i < NETD_REFUSE_MAX && n < cap; i++) {
		if (arr[i] == 0)
			continue;
		store[n] = init;
		store[n].reason = i;
		store[n].count = arr[i];
		ptrs[n] = &store[n];
		n++;
	}
	return n;
}

struct ctlsrv_port_buf {
	Ptpsep__Ctl__NetdPortInfo info;
	Ptpsep__Netd__Port port;
	uint8_t idbuf[14];
	Ptpsep__Ctl__SocketInfo sock[TC_NUM];
	Ptpsep__Ctl__SocketInfo *sockp[TC_NUM];
	Ptpsep__Ctl__RxDropCount drop[NETD_RXDROP_MAX];
	Ptpsep__Ctl__RxDropCount *dropp[NETD_RXDROP_MAX];
	Ptpsep__Ctl__RefusedCount ref[NETD_REFUSE_MAX];
	Ptpsep__Ctl__RefusedCount *refp[NETD_REFUSE_MAX];
};

static void
ctlsrv_port(struct netd_port *p, struct ctlsrv_port_buf *b)
{
	static const Ptpsep__Ctl__NetdPortInfo iinit =
	    PTPSEP__CTL__NETD_PORT_INFO__INIT;
	static const Ptpsep__Ctl__SocketInfo sinit =
	    PTPSEP__CTL__SOCKET_INFO__INIT;
	static const Ptpsep__Ctl__RxDropCount dinit =
	    PTPSEP__CTL__RX_DROP_COUNT__INIT;
	const struct transport_counters *k = &p->tp.cnt;
	uint64_t drops[NETD_RXDROP_MAX];
	int c, i;
	size_t n = 0;

	b->info = iinit;
	port_describe(p, &b->port, b->idbuf);
	b->info.port = &b->port;
	for (c = 0; c < TC_NUM; c++) {
		b->sock[c] = sinit;
		b->sock[c].msg_class = c == TC_EVENT ?
		    PTPSEP__MSG_CLASS__MSG_CLASS_EVENT :
		    PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
		b->sock[c].protocol = p->params.kind == TR_L2 ? 0x88F7 :
		    (c == TC_EVENT ? PTP_EVENT_PORT : PTP_GENERAL_PORT);
		b->sock[c].filter_attached = p->is_open;
		b->sock[c].filter_locked = p->is_open;
		b->sockp[c] = &b->sock[c];
	}
	b->info.n_sockets = p->is_open ? TC_NUM : 0;
	b->info.sockets = b->sockp;
	b->info.rx_event = k->rx[TC_EVENT];
	b->info.rx_general = k->rx[TC_GENERAL];
	b->info.tx_event = k->tx[TC_EVENT];
	b->info.tx_general = k->tx[TC_GENERAL];
	b->info.tx_ts_missing = k->tx_ts_missing;
	/* The peer table of the open port (a fresh one at each open). */
	b->info.unicast_peers = p->tp.peers.count;
	b->info.unicast_peers_max = p->tp.peers.pa.max;
	b->info.unicast_peers_refused = p->tp.peers.st.full;
	b->info.unicast_tx_rate_limited = k->tx_limited;

	memcpy(drops, p->rxdrop, sizeof(drops));
	drops[PTPSEP__CTL__RX_DROP_REASON__RX_DROP_TRUNCATED] += k->rx_truncated;
	/*
	 * An OTHERHOST frame (another host's unicast, a VLAN without an
	 * interface here) that got past the filter failed the user-space
	 * check as much as a bad header did: count it, or a filter that
	 * leaks them would go unnoticed.
	 */
	drops[PTPSEP__CTL__RX_DROP_REASON__RX_DROP_MALFORMED] +=
	    k->rx_too_short + k->rx_bad_version + k->rx_bad_length +
	    k->rx_bad_pkttype;
	drops[PTPSEP__CTL__RX_DROP_REASON__RX_DROP_WRONG_CLASS] +=
	    k->rx_wrong_class;
	for (i = 1; i < NETD_RXDROP_MAX; i++) {
		if (drops[i] == 0)
			continue;
		b->drop[n] = dinit;
		b->drop[n].reason = i;
		b->drop[n].count = drops[i];
		b->dropp[n] = &b->drop[n];
		n++;
	}
	b->info.n_rx_dropped = n;
	b->info.rx_dropped = b->dropp;
	b->info.n_refused = ctlsrv_refused(p->refused, b->ref, b->refp,
	    NETD_REFUSE_MAX);
	b->info.refused = b->refp;
}

void
netd_clock_info(struct netd *nd, Ptpsep__Netd__ClockInfo *ci)
{
	static const Ptpsep__Netd__ClockInfo init =
	    PTPSEP__NETD__CLOCK_INFO__INIT;
	int64_t ms = nd->bounds.min_adj_interval_ns / 1000000;

	*ci = init;
	ci->device = nd->clock_device;
	ci->max_freq_ppb = nd->bounds.max_freq_ppb;
	ci->step_allowed = nd->bounds.allow_step;
	ci->max_step_ns = nd->bounds.max_step_ns;
	ci->min_adj_interval_ms = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
	ci->ptp_timescale = nd->ptp_timescale;
	ci->phc_index = nd->phc_index;
	ci->leap_allowed = nd->clk != NULL && nd->clk->leap_allowed;
}

int
netd_sys_clock_info(struct netd *nd, Ptpsep__Netd__ClockInfo *ci)
{
	if (nd->sysclk == NULL)
		return -1;
	/* The same bounds keys as the PTP clock (doc/design.md). */
	netd_clock_info(nd, ci);
	ci->device = (char *)nd->sysclk_device;	/* ClockInfo's names */
	ci->ptp_timescale = 0;		/* the system clock counts UTC */
	ci->phc_index = -1;
	ci->leap_allowed = nd->sysclk->leap_allowed;
	ci->sysoff = (Ptpsep__Netd__SysoffMethod)nd->cmp_method;
	return 0;
}

/* ClockState of c, NULL when it cannot be read. */
static Ptpsep__Ctl__ClockState *
ctlsrv_clock_state(struct clock *c, Ptpsep__Ctl__ClockState *m)
{
	static const Ptpsep__Ctl__ClockState init =
	    PTPSEP__CTL__CLOCK_STATE__INIT;
	struct clock_state st;

	if (c == NULL || clock_get_state(c, NULL, &st) != 0)
		return NULL;
	*m = init;
	m->offset_from_realtime_ns = st.offset_from_realtime_ns;
	m->freq_ppb = st.freq_ppb;
	m->steps = st.steps;
	m->leap = st.leap;
	m->tai_offset = st.tai_offset;
	m->leaps = st.leaps;
	return m;
}

static int
ctlsrv_netd_info(struct netd *nd, struct ctlsock_client *cl)
{
	CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Ctl__NetdInfo info = PTPSEP__CTL__NETD_INFO__INIT;
	Ptpsep__Netd__ClockInfo ci = PTPSEP__NETD__CLOCK_INFO__INIT;
	Ptpsep__Netd__ClockInfo sci = PTPSEP__NETD__CLOCK_INFO__INIT;
	Ptpsep__Ctl__ClockState cst, sst;
	Ptpsep__Ctl__NetdPortInfo *pp[IPC_MAX_PORTS];
	Ptpsep__Ctl__RefusedCount ref[NETD_REFUSE_MAX];
	Ptpsep__Ctl__RefusedCount *refp[NETD_REFUSE_MAX];
	Ptpsep__Ctl__RefusedCount sref[NETD_REFUSE_MAX];
	Ptpsep__Ctl__RefusedCount *srefp[NETD_REFUSE_MAX];
	uint64_t glob[NETD_REFUSE_MAX];
	struct ctlsrv_port_buf *bufs;
	size_t i, n = nd->nports < IPC_MAX_PORTS ? nd->nports : IPC_MAX_PORTS;
	int j, rc;

	bufs = calloc(n ? n : 1, sizeof(*bufs));
	if (bufs == NULL) {
		return ctlsock_error(cl, PTPSEP__ERROR_CODE__ERROR_INTERNAL,
		    "out of memory");
	}
	for (i = 0; i < n; i++) {
		ctlsrv_port(&nd->ports[i], &bufs[i]);
		pp[i] = &bufs[i].info;
	}
	for (j = 0; j < NETD_REFUSE_MAX; j++)
		glob[j] = nd->clock_refused[j] + nd->conn_refused[j];
	info.software_version = (char *)PACKAGE_VERSION;
	netd_clock_info(nd, &ci);
	info.clock = &ci;
	info.client_connected = relay_connected(nd);
	info.n_ports = n;
	info.ports = pp;
	info.n_refused = ctlsrv_refused(glob, ref, refp, NETD_REFUSE_MAX);
	info.refused = refp;
	info.client_connections = nd->client_connections;
	info.client_backlog_closes = nd->client_backlog_closes;
	info.clock_state = ctlsrv_clock_state(nd->clk, &cst);
	if (netd_sys_clock_info(nd, &sci) == 0) {
		info.system_clock = &sci;
		info.system_clock_state = ctlsrv_clock_state(nd->sysclk, &sst);
	}
	/* Without a system clock: the requests refused NOT_SUPPORTED. */
	info.n_system_clock_refused = ctlsrv_refused(nd->sys_refused, sref,
	    srefp, NETD_REFUSE_MAX);
	info.system_clock_refused = srefp;
	r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_NETD_INFO;
	r.netd_info = &info;
	rc = ctlsock_reply(cl, &r);
	free(bufs);
	return rc;
}

static int
ctlsrv_serve(void *arg, struct ctlsock_client *cl, const CtlRequest *req)
{
	struct netd *nd = arg;

	if (req->body_case == PTPSEP__CTL__CTL_REQUEST__BODY_NETD_INFO)
		return ctlsrv_netd_info(nd, cl);
	return ctlsock_error(cl, PTPSEP__ERROR_CODE__ERROR_NOT_SUPPORTED,
	    "ptp-netd serves only NetdInfo; ask ptp-clockd");
}
