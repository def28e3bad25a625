/*
 * netd_client.c - clockd's connection to netd (see netd_client.h).
 *
 * netd is trusted more than clockd is by netd, but its messages are still
 * decoded by the same strict ipc_recv() and checked for sequence: a
 * message out of order drops the connection and we reconnect.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/event.h>

#include "log.h"
#include "netd_client.h"

#define NC_BACKOFF_MIN_MS	100
#define NC_BACKOFF_MAX_MS	5000
#define NC_BURST		64

enum nc_state {
	NC_IDLE,	/* waiting to retry */
	NC_HELLO,	/* connected, Hello sent, waiting for netd's Hello */
	NC_PORTS,	/* Hello ok, waiting for PortList */
	NC_READY,
};

struct netd_client {
	struct event_base	*base;
	char			*path;
	struct netd_client_cbs	 cbs;
	void			*arg;
	int			 fd;
	enum nc_state		 state;
	struct event		*ev;
	struct event		*retry;
	int			 backoff_ms;
	int			 logged_down;
};

static void nc_ev_read(evutil_socket_t fd, short what, void *arg);
static void nc_ev_retry(evutil_socket_t fd, short what, void *arg);

struct netd_client *
netd_client_new(struct event_base *base, const char *path,
    const struct netd_client_cbs *cbs, void *arg)
{
	struct netd_client *nc = calloc(1, sizeof(*nc));

	if (nc == NULL || (nc->path = strdup(path)) == NULL) {
		free(nc);
		return NULL;
	}
	nc->base = base;
	nc->cbs = *cbs;
	nc->arg = arg;
	nc->fd = -1;
	nc->backoff_ms = NC_BACKOFF_MIN_MS;
	nc->retry = evtimer_new(base, nc_ev_retry, nc);
	if (nc->retry == NULL) {
		free(nc->path);
		free(nc);
		return NULL;
	}
	return nc;
}

static void
nc_close(struct netd_client *nc)
{
	int was_ready = nc->state == NC_READY;

	if (nc->ev != NULL) {
		event_free(nc->ev);
		nc->ev = NULL;
	}
	if (nc->fd >= 0)
		close(nc->fd);
	nc->fd = -1;
	nc->state = NC_IDLE;
	if (was_ready && nc->cbs.disconnected != NULL)
		nc->cbs.disconnected(nc->arg);
}

static void
nc_schedule_retry(struct netd_client *nc)
{
	struct timeval tv;

	tv.tv_sec = nc->backoff_ms / 1000;
	tv.tv_usec = (nc->backoff_ms % 1000) * 1000;
	evtimer_add(nc->retry, &tv);
	nc->backoff_ms *= 2;
	if (nc->backoff_ms > NC_BACKOFF_MAX_MS)
		nc->backoff_ms = NC_BACKOFF_MAX_MS;
}

void
netd_client_free(struct netd_client *nc)
{
	if (nc == NULL)
		return;
	nc->cbs.disconnected = NULL;
	nc_close(nc);
	event_free(nc->retry);
	free(nc->path);
	free(nc);
}

int
netd_client_ready(const struct netd_client *nc)
{
	return nc->state == NC_READY;
}

static int
nc_send(struct netd_client *nc, Ptpsep__Netd__NetdMsg *m)
{
	int rc;

	if (nc->fd < 0)
		return -1;
	rc = ipc_send_netd(nc->fd, m);
	if (rc == IPC_OK)
		return 0;
	if (rc != IPC_E_AGAIN) {
		log_rl(LOG_LVL_WARN, "netd: send: %s (%s)", ipc_strerror(rc),
		    ipc_detail());
		nc_close(nc);
		nc_schedule_retry(nc);
	}
	return -1;
}

static void
nc_connect(struct netd_client *nc)
{
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	struct sockaddr_un sun;
	Ptpsep__Hello h;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", nc->path);
	nc->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (nc->fd < 0 ||
	    connect(nc->fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		if (!nc->logged_down)
			log_rl(LOG_LVL_WARN, "netd: connect %s: %s", nc->path,
			    strerror(errno));
		nc->logged_down = 1;
		if (nc->fd >= 0)
			close(nc->fd);
		nc->fd = -1;
		nc_schedule_retry(nc);
		return;
	}
	/* Non-blocking after connect: a full netd queue must not stall us. */
	evutil_make_socket_nonblocking(nc->fd);
	nc->ev = event_new(nc->base, nc->fd, EV_READ | EV_PERSIST, nc_ev_read,
	    nc);
	if (nc->ev == NULL || event_add(nc->ev, NULL) != 0) {
		nc_close(nc);
		nc_schedule_retry(nc);
		return;
	}
	nc->state = NC_HELLO;
	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CLOCKD);
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_HELLO;
	m.hello = &h;
	(void)nc_send(nc, &m);
}

void
netd_client_start(struct netd_client *nc)
{
	if (nc->state == NC_IDLE && nc->fd < 0)
		nc_connect(nc);
}

static void
nc_ev_retry(evutil_socket_t fd, short what, void *arg)
{
	nc_connect(arg);
}

/* Returns 0 to go on, -1 after the connection was dropped. */
static int
nc_handle(struct netd_client *nc, Ptpsep__Netd__NetdMsg *m)
{
	int rc;

	if (m->body_case == PTPSEP__NETD__NETD_MSG__BODY_ERROR) {
		log_rl(LOG_LVL_WARN, "netd: error %d: %s", (int)m->error->code,
		    m->error->message);
		return -1;
	}
	switch (nc->state) {
	case NC_HELLO:
		if (m->body_case != PTPSEP__NETD__NETD_MSG__BODY_HELLO) {
			log_rl(LOG_LVL_WARN,
			    "netd: first message is not Hello");
			return -1;
		}
		rc = ipc_hello_check(m->hello, PTPSEP__ROLE__ROLE_NETD);
		if (rc != IPC_OK) {
			log_rl(LOG_LVL_WARN, "netd: %s", ipc_detail());
			return -1;
		}
		nc->state = NC_PORTS;
		return 0;
	case NC_PORTS:
		if (m->body_case != PTPSEP__NETD__NETD_MSG__BODY_PORT_LIST) {
			log_rl(LOG_LVL_WARN, "netd: expected the port list");
			return -1;
		}
		nc->state = NC_READY;
		nc->backoff_ms = NC_BACKOFF_MIN_MS;
		nc->logged_down = 0;
		log_rl(LOG_LVL_INFO, "connected to netd: %zu port(s)",
		    m->port_list->n_ports);
		if (nc->cbs.connected != NULL)
			nc->cbs.connected(nc->arg, m->port_list);
		return 0;
	case NC_READY:
		break;
	case NC_IDLE:
		return -1;
	}
	switch (m->body_case) {
	case PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME:
		nc->cbs.rx_frame(nc->arg, m->rx_frame);
		break;
	case PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP:
		nc->cbs.tx_timestamp(nc->arg, m->tx_timestamp);
		break;
	case PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY:
		nc->cbs.clock_reply(nc->arg, m->clock_reply);
		break;
	case PTPSEP__NETD__NETD_MSG__BODY_LINK_EVENT:
		nc->cbs.link_event(nc->arg, m->link_event);
		break;
	default:
		log_rl(LOG_LVL_WARN, "netd: unexpected message %u",
		    (unsigned)m->body_case);
		return -1;
	}
	return 0;
}

static void
nc_ev_read(evutil_socket_t fd, short what, void *arg)
{
	struct netd_client *nc = arg;
	Ptpsep__Netd__NetdMsg *m;
	int i, rc;

	for (i = 0; i < NC_BURST && nc->fd >= 0; i++) {
		rc = ipc_recv_netd(nc->fd, &m);
		if (rc == IPC_E_AGAIN)
			return;
		if (rc != IPC_OK) {
			if (rc == IPC_E_EOF)
				log_rl(LOG_LVL_WARN,
				    "netd closed the connection");
			else
				log_rl(LOG_LVL_WARN, "netd: %s (%s)",
				    ipc_strerror(rc),
				    ipc_detail());
			nc_close(nc);
			nc_schedule_retry(nc);
			return;
		}
		rc = nc_handle(nc, m);
		ipc_free(&m->base);
		if (rc != 0) {
			nc_close(nc);
			nc_schedule_retry(nc);
			return;
		}
	}
}

void
netd_tx_frame_fill(Ptpsep__Netd__TxFrame *f, Ptpsep__Netd__Address *a,
    unsigned port, int event, enum netd_dest dest,
    const struct netd_addr *unicast, const uint8_t *payload, size_t len,
    uint64_t cookie, int want_ts)
{
	f->port_index = port;
	f->msg_class = event ? PTPSEP__MSG_CLASS__MSG_CLASS_EVENT :
	    PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
	switch (dest) {
	case NETD_DEST_PRIMARY:
		f->dest = PTPSEP__NETD__DESTINATION__DEST_PRIMARY;
		break;
	case NETD_DEST_PDELAY:
		f->dest = PTPSEP__NETD__DESTINATION__DEST_PDELAY;
		break;
	case NETD_DEST_UNICAST:
		f->dest = PTPSEP__NETD__DESTINATION__DEST_UNICAST;
		/* none given: netd refuses the frame (no address) */
		if (unicast != NULL) {
			a->family = unicast->family;
			a->addr.data = (uint8_t *)unicast->b;
			a->addr.len = unicast->len;
			f->unicast = a;
		}
		break;
	}
	f->payload.data = (uint8_t *)payload;
	f->payload.len = len;
	f->cookie = cookie;
	f->want_tx_ts = want_ts;
}

int
netd_send_frame(struct netd_client *nc, unsigned port, int event,
    enum netd_dest dest, const struct netd_addr *unicast,
    const uint8_t *payload, size_t len, uint64_t cookie, int want_ts)
{
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__TxFrame f = PTPSEP__NETD__TX_FRAME__INIT;
	Ptpsep__Netd__Address a = PTPSEP__NETD__ADDRESS__INIT;

	if (nc->state != NC_READY)
		return -1;
	netd_tx_frame_fill(&f, &a, port, event, dest, unicast, payload, len,
	    cookie, want_ts);
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME;
	m.tx_frame = &f;
	return nc_send(nc, &m);
}

static int
nc_clock(struct netd_client *nc, Ptpsep__Netd__ClockRequest *r)
{
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;

	if (nc->state != NC_READY)
		return -1;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST;
	m.clock_request = r;
	return nc_send(nc, &m);
}

int
netd_clock_read(struct netd_client *nc, uint64_t id)
{
	Ptpsep__Netd__ClockRequest r = PTPSEP__NETD__CLOCK_REQUEST__INIT;
	Ptpsep__Netd__ClockGetStatus gs = PTPSEP__NETD__CLOCK_GET_STATUS__INIT;

	r.id = id;
	r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_GET_STATUS;
	r.get_status = &gs;
	return nc_clock(nc, &r);
}

int
netd_clock_adjfreq(struct netd_client *nc, uint64_t id, double ppb)
{
	Ptpsep__Netd__ClockRequest r = PTPSEP__NETD__CLOCK_REQUEST__INIT;
	Ptpsep__Netd__ClockAdjFreq af = PTPSEP__NETD__CLOCK_ADJ_FREQ__INIT;

	r.id = id;
	af.freq_ppb = ppb;
	r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ;
	r.adj_freq = &af;
	return nc_clock(nc, &r);
}

int
netd_clock_step(struct netd_client *nc, uint64_t id, int64_t ns)
{
	Ptpsep__Netd__ClockRequest r = PTPSEP__NETD__CLOCK_REQUEST__INIT;
	Ptpsep__Netd__ClockStep st = PTPSEP__NETD__CLOCK_STEP__INIT;

	r.id = id;
	st.offset_ns = ns;
	r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_STEP;
	r.step = &st;
	return nc_clock(nc, &r);
}
