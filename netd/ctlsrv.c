/*
 * ctlsrv.c - netd_ctl_socket: read-only view of netd for ptpctl.
 *
 * Anyone local may read netd's ports, sockets and counters (the socket is
 * 0666); nothing on this socket changes netd, so every request other than
 * Hello and NetdInfoRequest is answered with ERROR_NOT_SUPPORTED.  A client
 * that breaks the protocol is disconnected; the number of clients is
 * bounded so that a flood of connections cannot exhaust netd's fds.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/event.h>

#include "log.h"
#include "netd.h"

#define CTLSRV_MAX_CLIENTS	8

typedef Ptpsep__Ctl__CtlRequest CtlRequest;
typedef Ptpsep__Ctl__CtlResponse CtlResponse;

struct netd_ctl_client {
	struct netd_ctl_client	*next;
	struct netd		*nd;
	int			 fd;
	int			 hello;
	struct event		*ev;
};

static void ctlsrv_ev_accept(evutil_socket_t fd, short what, void *arg);
static void ctlsrv_ev_client(evutil_socket_t fd, short what, void *arg);

int
ctlsrv_listen(struct netd *nd, const char *path)
{
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		log_warnx("netd_ctl_socket %s: path too long", path);
		return -ENAMETOOLONG;
	}
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	(void)unlink(path);
	/* Read-only information: any local user may ask (DESIGN.md). */
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
	    chmod(path, 0666) != 0 || listen(fd, 8) != 0) {
		log_warn("netd_ctl_socket %s", path);
		close(fd);
		return -errno;
	}
	nd->ctl_fd = fd;
	nd->ctl_ev = event_new(nd->base, fd, EV_READ | EV_PERSIST,
	    ctlsrv_ev_accept, nd);
	if (nd->ctl_ev == NULL || event_add(nd->ctl_ev, NULL) != 0)
		return -ENOMEM;
	return 0;
}

static void
ctlsrv_drop(struct netd_ctl_client *c)
{
	struct netd *nd = c->nd;
	struct netd_ctl_client **pp;

	for (pp = &nd->ctl_clients; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	nd->ctl_nclients--;
	event_free(c->ev);
	close(c->fd);
	free(c);
}

void
ctlsrv_close_all(struct netd *nd)
{
	while (nd->ctl_clients != NULL)
		ctlsrv_drop(nd->ctl_clients);
	if (nd->ctl_ev != NULL)
		event_free(nd->ctl_ev);
	nd->ctl_ev = NULL;
	if (nd->ctl_fd >= 0)
		close(nd->ctl_fd);
	nd->ctl_fd = -1;
}

static void
ctlsrv_ev_accept(evutil_socket_t lfd, short what, void *arg)
{
	struct netd *nd = arg;
	struct netd_ctl_client *c;
	int fd;

	fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (nd->ctl_nclients >= CTLSRV_MAX_CLIENTS ||
	    (c = calloc(1, sizeof(*c))) == NULL) {
		close(fd);
		return;
	}
	c->nd = nd;
	c->fd = fd;
	c->ev = event_new(nd->base, fd, EV_READ | EV_PERSIST,
	    ctlsrv_ev_client, c);
	if (c->ev == NULL || event_add(c->ev, NULL) != 0) {
		if (c->ev != NULL)
			event_free(c->ev);
		close(fd);
		free(c);
		return;
	}
	c->next = nd->ctl_clients;
	nd->ctl_clients = c;
	nd->ctl_nclients++;
}

static void
ctlsrv_error(struct netd_ctl_client *c, Ptpsep__ErrorCode code,
    const char *text)
{
	CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Error e;

	ipc_error_init(&e, code, text);
	r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_ERROR;
	r.error = &e;
	(void)ipc_send_ctl_response(c->fd, &r);
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

static void
ctlsrv_netd_info(struct netd_ctl_client *c)
{
	struct netd *nd = c->nd;
	CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Ctl__NetdInfo info = PTPSEP__CTL__NETD_INFO__INIT;
	Ptpsep__Netd__ClockInfo ci = PTPSEP__NETD__CLOCK_INFO__INIT;
	Ptpsep__Ctl__NetdPortInfo *pp[IPC_MAX_PORTS];
	Ptpsep__Ctl__RefusedCount ref[NETD_REFUSE_MAX];
	Ptpsep__Ctl__RefusedCount *refp[NETD_REFUSE_MAX];
	uint64_t glob[NETD_REFUSE_MAX];
	struct ctlsrv_port_buf *bufs;
	size_t i, n = nd->nports < IPC_MAX_PORTS ? nd->nports : IPC_MAX_PORTS;
	int j;

	bufs = calloc(n ? n : 1, sizeof(*bufs));
	if (bufs == NULL) {
		ctlsrv_error(c, PTPSEP__ERROR_CODE__ERROR_INTERNAL,
		    "out of memory");
		return;
	}
	for (i = 0; i < n; i++) {
		ctlsrv_port(&nd->ports[i], &bufs[i]);
		pp[i] = &bufs[i].info;
	}
	for (j = 0; j < NETD_REFUSE_MAX; j++)
		glob[j] = nd->clock_refused[j] + nd->conn_refused[j];
	info.software_version = (char *)PACKAGE_VERSION;
	ci.device = nd->clock_device;
	ci.max_freq_ppb = nd->bounds.max_freq_ppb;
	ci.step_allowed = nd->bounds.allow_step;
	info.clock = &ci;
	info.client_connected = relay_connected(nd);
	info.n_ports = n;
	info.ports = pp;
	info.n_refused = ctlsrv_refused(glob, ref, refp, NETD_REFUSE_MAX);
	info.refused = refp;
	info.client_connections = nd->client_connections;
	r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_NETD_INFO;
	r.netd_info = &info;
	if (ipc_send_ctl_response(c->fd, &r) != IPC_OK)
		log_debug("ctl: send NetdInfo: %s", ipc_detail());
	free(bufs);
}

static void
ctlsrv_ev_client(evutil_socket_t fd, short what, void *arg)
{
	struct netd_ctl_client *c = arg;
	CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	CtlRequest *req;
	Ptpsep__Hello h;
	int rc;

	rc = ipc_recv_ctl_request(c->fd, &req);
	if (rc == IPC_E_AGAIN)
		return;
	if (rc != IPC_OK) {
		if (rc != IPC_E_EOF) {
			log_debug("ctl client: %s (%s)", ipc_strerror(rc),
			    ipc_detail());
			ctlsrv_error(c, PTPSEP__ERROR_CODE__ERROR_PROTOCOL,
			    ipc_strerror(rc));
		}
		ctlsrv_drop(c);
		return;
	}
	if (!c->hello) {
		if (req->body_case != PTPSEP__CTL__CTL_REQUEST__BODY_HELLO) {
			ctlsrv_error(c, PTPSEP__ERROR_CODE__ERROR_PROTOCOL,
			    "first message is not Hello");
			goto drop;
		}
		if (ipc_hello_check(req->hello, PTPSEP__ROLE__ROLE_CTL) !=
		    IPC_OK) {
			ctlsrv_error(c,
			    PTPSEP__ERROR_CODE__ERROR_VERSION_MISMATCH,
			    ipc_detail());
			goto drop;
		}
		c->hello = 1;
		ipc_hello_init(&h, PTPSEP__ROLE__ROLE_NETD);
		r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_HELLO;
		r.hello = &h;
		(void)ipc_send_ctl_response(c->fd, &r);
		ipc_free(&req->base);
		return;
	}
	switch (req->body_case) {
	case PTPSEP__CTL__CTL_REQUEST__BODY_NETD_INFO:
		ctlsrv_netd_info(c);
		break;
	case PTPSEP__CTL__CTL_REQUEST__BODY_HELLO:
		ctlsrv_error(c, PTPSEP__ERROR_CODE__ERROR_PROTOCOL,
		    "Hello sent twice");
		goto drop;
	default:
		ctlsrv_error(c, PTPSEP__ERROR_CODE__ERROR_NOT_SUPPORTED,
		    "ptp-netd serves only NetdInfo; ask ptp-clockd");
		break;
	}
	ipc_free(&req->base);
	return;
drop:
	ipc_free(&req->base);
	ctlsrv_drop(c);
}
