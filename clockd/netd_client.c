/*
 * netd_client.c - clockd's connection to netd (see netd_client.h).
 *
 * netd is trusted more than clockd is by netd, but its messages are still
 * decoded by the same strict ipc_recv() and checked for sequence: a
 * message out of order drops the connection and we reconnect.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/event.h>

#include "log.h"
#include "netd_client.h"
#include "usock.h"

#define NC_BACKOFF_MIN_MS	100
#define NC_BACKOFF_MAX_MS	5000

/* The most a batch's or a member's tag and length take, for a length of
 * at most IPC_MAX_MSG (ipc_netd_batch_pack()). */
#define NC_HDR_MAX		4

/*
 * The most clockd keeps of datagrams netd's socket had no room for: a
 * grandmaster's second of 10,000 unicast clients (Sync with its Follow_Up,
 * Announce, Delay_Resp: ~30,000 TxFrames of ~100 octets) is ~3 MiB.
 */
#define NC_HELD_BYTES		(4u << 20)

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
	/*
	 * The outbox: what the engine sends during one turn of the loop,
	 * each message packed when it is queued (its payload is the
	 * caller's, valid during the call only), back to back in buf.  flush runs once the callbacks active in
	 * this turn of the loop are done (nc_queue()).
	 */
	struct event		*flush;
	uint8_t			*buf;		/* IPC_MAX_MSG octets */
	size_t			 used;
	unsigned		 n;
	size_t			 len[IPC_BATCH_MAX];
	/*
	 * Datagrams netd's socket had no room for (EAGAIN), each behind its
	 * length (4 octets), sent in order once it has (wev): a burst of a
	 * grandmaster's unicast service is more than the socket holds while
	 * netd works through it (issue 15).  At most NC_HELD_BYTES; beyond,
	 * a datagram is lost, as every one was before.
	 */
	struct event		*wev;		/* EV_WRITE on fd */
	uint8_t			*held;
	size_t			 held_off, held_len, held_cap;
	uint64_t		 held_lost;
};

static void nc_ev_read(evutil_socket_t fd, short what, void *arg);
static void nc_ev_retry(evutil_socket_t fd, short what, void *arg);
static void nc_ev_flush(evutil_socket_t fd, short what, void *arg);
static void nc_ev_write(evutil_socket_t fd, short what, void *arg);

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
	nc->flush = event_new(base, -1, 0, nc_ev_flush, nc);
	/* malloc, not calloc: only the pages a batch reaches become
	 * resident (tests/integration/memory.sh) */
	nc->buf = malloc(IPC_MAX_MSG);
	if (nc->retry == NULL || nc->flush == NULL || nc->buf == NULL) {
		if (nc->retry != NULL)
			event_free(nc->retry);
		if (nc->flush != NULL)
			event_free(nc->flush);
		free(nc->buf);
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
	if (nc->wev != NULL) {
		event_free(nc->wev);
		nc->wev = NULL;
	}
	nc->held_off = nc->held_len = 0;
	if (nc->fd >= 0)
		close(nc->fd);
	nc->fd = -1;
	nc->state = NC_IDLE;
	/* what was queued was for that connection */
	event_del(nc->flush);
	nc->used = 0;
	nc->n = 0;
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
	event_free(nc->flush);
	free(nc->held);
	free(nc->buf);
	free(nc->path);
	free(nc);
}

int
netd_client_ready(const struct netd_client *nc)
{
	return nc->state == NC_READY;
}

/*
 * What a send's result means for the connection: a full socket (netd
 * busy) loses what was sent and keeps the connection, anything else drops
 * it.  Returns 0 when sent.
 */
static int
nc_sent(struct netd_client *nc, int rc)
{
	if (rc == IPC_OK)
		return 0;
	if (rc == IPC_E_AGAIN)
		log_rl(LOG_LVL_DEBUG, "netd: socket full, datagram lost");
	else {
		log_rl(LOG_LVL_WARN, "netd: send: %s (%s)", ipc_strerror(rc),
		    ipc_detail());
		nc_close(nc);
		nc_schedule_retry(nc);
	}
	return -1;
}

/* Hello only: it goes at once and alone (netd.proto: never in a batch). */
static int
nc_send(struct netd_client *nc, Ptpsep__Netd__NetdMsg *m)
{
	if (nc->fd < 0)
		return -1;
	return nc_sent(nc, ipc_send_netd(nc->fd, m));
}

/* Keeps a datagram netd's socket had no room for; 0, or -1 when lost. */
static int
nc_hold(struct netd_client *nc, const uint8_t *dg, size_t len)
{
	size_t need = 4 + len, cap;
	uint32_t l = (uint32_t)len;
	uint8_t *b;

	if (nc->held_off > 0 && nc->held_len + need > nc->held_cap) {
		memmove(nc->held, nc->held + nc->held_off,
		    nc->held_len - nc->held_off);
		nc->held_len -= nc->held_off;
		nc->held_off = 0;
	}
	if (nc->held_len + need > nc->held_cap) {
		cap = nc->held_cap ? nc->held_cap * 2 : 64 * 1024;
		while (cap < nc->held_len + need)
			cap *= 2;
		if (cap > NC_HELD_BYTES)
			cap = NC_HELD_BYTES;
		if (nc->held_len + need > cap ||
		    (b = realloc(nc->held, cap)) == NULL) {
			nc->held_lost++;
			log_rl(LOG_LVL_WARN, "netd: its socket is full and %u "
			    "octets are held for it: datagram lost (%" PRIu64
			    " so far)", NC_HELD_BYTES, nc->held_lost);
			return -1;
		}
		nc->held = b;
		nc->held_cap = cap;
	}
	memcpy(nc->held + nc->held_len, &l, 4);
	memcpy(nc->held + nc->held_len + 4, dg, len);
	nc->held_len += need;
	if (nc->wev != NULL)
		(void)event_add(nc->wev, NULL);
	return 0;
}

/*
 * Sends one datagram, after those held (in order); one the socket has no
 * room for is held until it has (nc_ev_write()).  Another error drops the
 * connection (nc_sent()).
 */
static void
nc_out(struct netd_client *nc, const uint8_t *dg, size_t len)
{
	int rc;

	if (nc->held_off == nc->held_len) {
		rc = ipc_send_packed(nc->fd, dg, len);
		if (rc != IPC_E_AGAIN) {
			(void)nc_sent(nc, rc);
			return;
		}
	}
	(void)nc_hold(nc, dg, len);
}

static void
nc_ev_write(evutil_socket_t fd, short what, void *arg)
{
	struct netd_client *nc = arg;
	uint32_t l;
	int rc;

	(void)fd;
	(void)what;
	while (nc->held_off < nc->held_len) {
		memcpy(&l, nc->held + nc->held_off, 4);
		rc = ipc_send_packed(nc->fd, nc->held + nc->held_off + 4, l);
		if (rc == IPC_E_AGAIN) {
			(void)event_add(nc->wev, NULL);
			return;
		}
		nc->held_off += 4 + l;
		if (rc != IPC_OK) {
			(void)nc_sent(nc, rc);	/* closes: nc->held emptied */
			return;
		}
	}
	nc->held_off = nc->held_len = 0;
}

/*
 * Sends what is queued: one message as it was packed, two or more as one
 * NetdBatch.  The batch is put together from the members' packed octets:
 * an embedded message is its packed octets behind a tag and a length, so
 * the datagram is what protobuf_c_message_pack() makes of the NetdMsg
 * holding them.  None is a Hello (nc_send()); netd's ipc_check() sees the
 * batch whole, on receipt (test_netd_client decodes what leaves here).
 */
static void
nc_flush(struct netd_client *nc)
{
	uint8_t dg[IPC_MAX_MSG];
	const uint8_t *m[IPC_BATCH_MAX];
	size_t off, len;
	unsigned i, n = nc->n;

	nc->n = 0;
	nc->used = 0;
	if (n == 0 || nc->fd < 0 || nc->state != NC_READY)
		return;
	if (n == 1) {
		nc_out(nc, nc->buf, nc->len[0]);
		return;
	}
	for (i = 0, off = 0; i < n; off += nc->len[i], i++)
		m[i] = nc->buf + off;
	/* nc_queue() kept the members' sum within a datagram's room */
	len = ipc_netd_batch_pack(m, nc->len, n, dg, sizeof(dg));
	if (len == 0) {
		(void)nc_sent(nc, IPC_E_TOOBIG);
		return;
	}
	nc_out(nc, dg, len);
}

static void
nc_ev_flush(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	nc_flush(arg);
}

/*
 * Queues m for netd; it leaves when the loop has run the callbacks that
 * are active now (so all a callback sends, and what the others of the
 * same wake-up send, go together: one wake-up of netd instead of one per
 * message; issue 13).  The flush event has the one priority every event
 * of clockd has, and libevent runs an event made active during a turn
 * in that same turn, after those active before it: no extra epoll_wait.
 * A full outbox (IPC_BATCH_MAX messages, or IPC_MAX_MSG octets) is sent
 * first.  Returns 0 when queued: a send that then finds netd's socket
 * full keeps the datagram until netd has read (nc_out(), bounded).
 */
static int
nc_queue(struct netd_client *nc, const Ptpsep__Netd__NetdMsg *m)
{
	size_t len, room;
	int rc, tries;

	if (nc->state != NC_READY)
		return -1;
	for (tries = 0; tries < 2; tries++) {
		if (nc->n == IPC_BATCH_MAX)
			nc_flush(nc);
		if (nc->state != NC_READY)
			return -1;
		/* room for every header of the batch this one joins */
		room = IPC_MAX_MSG - nc->used;
		room = room > NC_HDR_MAX * (nc->n + 2) ?
		    room - NC_HDR_MAX * (nc->n + 2) : 0;
		rc = ipc_encode(&m->base, nc->buf + nc->used, room, &len);
		if (rc == IPC_E_TOOBIG && nc->n > 0) {
			nc_flush(nc);
			continue;
		}
		break;
	}
	if (rc != IPC_OK)
		return nc_sent(nc, rc);
	if (nc->n == 0)
		event_active(nc->flush, 0, 0);
	nc->len[nc->n++] = len;
	nc->used += len;
	return 0;
}

static void
nc_connect(struct netd_client *nc)
{
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Hello h;

	/* Non-blocking after connect: a full netd queue must not stall us. */
	nc->fd = usock_connect(nc->path, SOCK_SEQPACKET, 0, USOCK_NONBLOCK);
	if (nc->fd < 0) {
		if (!nc->logged_down)
			log_rl(LOG_LVL_WARN, "netd: connect %s: %s", nc->path,
			    strerror(-nc->fd));
		nc->logged_down = 1;
		nc->fd = -1;
		nc_schedule_retry(nc);
		return;
	}
	nc->ev = event_new(nc->base, nc->fd, EV_READ | EV_PERSIST, nc_ev_read,
	    nc);
	nc->wev = event_new(nc->base, nc->fd, EV_WRITE, nc_ev_write, nc);
	if (nc->ev == NULL || nc->wev == NULL ||
	    event_add(nc->ev, NULL) != 0) {
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

/*
 * The translation into the engine's types (netd_types.h): fields are
 * assigned, payloads and strings pointed to, nothing is copied or
 * allocated; the decoded message outlives the callback.
 */

_Static_assert(NETD_MAX_PAYLOAD == IPC_MAX_PTP_PAYLOAD,
    "NETD_MAX_PAYLOAD is the channel's bound");
_Static_assert((int)NETD_AF_MAC == PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_MAC &&
    (int)NETD_AF_IPV4 == PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV4 &&
    (int)NETD_AF_IPV6 == PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV6,
    "enum netd_af is netd.proto's AddrFamily");
_Static_assert((int)NETD_TR_L2 == PTPSEP__TRANSPORT__TRANSPORT_L2 &&
    (int)NETD_TR_UDP_IPV4 == PTPSEP__TRANSPORT__TRANSPORT_UDP_IPV4 &&
    (int)NETD_TR_UDP_IPV6 == PTPSEP__TRANSPORT__TRANSPORT_UDP_IPV6,
    "enum netd_transport is common.proto's Transport");
_Static_assert((int)NETD_SYSOFF_PRECISE == PTPSEP__NETD__SYSOFF_METHOD__SYSOFF_PRECISE &&
    (int)NETD_SYSOFF_EXTENDED == PTPSEP__NETD__SYSOFF_METHOD__SYSOFF_EXTENDED &&
    (int)NETD_SYSOFF_BASIC == PTPSEP__NETD__SYSOFF_METHOD__SYSOFF_BASIC &&
    (int)NETD_SYSOFF_SAME_BASE == PTPSEP__NETD__SYSOFF_METHOD__SYSOFF_SAME_BASE,
    "enum netd_sysoff is netd.proto's SysoffMethod");

static void
nc_ts(struct ptp_timestamp *ts, const Ptpsep__Timestamp *t)
{
	ts->sec = t->seconds;
	ts->nsec = t->nanoseconds;
}

static void
nc_clock_info(struct netd_clock_info *ci, const Ptpsep__Netd__ClockInfo *m)
{
	memset(ci, 0, sizeof(*ci));
	ci->phc_index = -1;
	if (m == NULL)
		return;
	ci->max_freq_ppb = m->max_freq_ppb;
	ci->step_allowed = m->step_allowed;
	ci->max_step_ns = m->max_step_ns;
	ci->min_adj_interval_ms = m->min_adj_interval_ms;
	ci->ptp_timescale = m->ptp_timescale;
	ci->phc_index = m->phc_index;
	/* ipc_check() let only known enum values through */
	ci->sysoff = (enum netd_sysoff)m->sysoff;
	ci->leap_allowed = m->leap_allowed;
	ci->is_virtual = m->device != NULL &&
	    strcmp(m->device, "virtual") == 0;
}

/* m has at most IPC_MAX_PORTS ports (nc_handle). */
static void
nc_port_list(struct netd_client *nc, const Ptpsep__Netd__PortList *m)
{
	struct netd_port_desc ports[IPC_MAX_PORTS];
	struct netd_port_list pl;
	size_t i;

	for (i = 0; i < m->n_ports; i++) {
		const Ptpsep__Netd__Port *p = m->ports[i];

		ports[i].iface = p->iface;
		ports[i].transport = (enum netd_transport)p->transport;
		ports[i].link_up = p->link_up;
		ports[i].one_step = p->one_step;
		ports[i].clock_identity =
		    p->clock_identity.len == PTP_CLOCK_ID_LEN ?
		    p->clock_identity.data : NULL;
	}
	pl.ports = ports;
	pl.nports = m->n_ports;
	pl.have_clock = m->clock != NULL;
	nc_clock_info(&pl.clock, m->clock);
	pl.have_sys_clock = m->system_clock != NULL;
	nc_clock_info(&pl.sys_clock, m->system_clock);
	if (nc->cbs.connected != NULL)
		nc->cbs.connected(nc->arg, &pl);
}

static void
nc_rx_frame(struct netd_client *nc, const Ptpsep__Netd__RxFrame *m)
{
	struct netd_rx f;

	f.port = m->port_index;
	f.event = m->msg_class == PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	f.payload = m->payload.data;
	f.len = m->payload.len;
	f.have_ts = m->rx_ts != NULL;
	if (f.have_ts)
		nc_ts(&f.ts, m->rx_ts);
	else
		f.ts.sec = f.ts.nsec = 0;
	if (m->source != NULL) {
		f.src_family = (enum netd_af)m->source->family;
		f.src = m->source->addr.data;
		f.src_len = m->source->addr.len;
	} else {
		f.src_family = NETD_AF_NONE;
		f.src = NULL;
		f.src_len = 0;
	}
	nc->cbs.rx_frame(nc->arg, &f);
}

static void
nc_tx_timestamp(struct netd_client *nc, const Ptpsep__Netd__TxTimestamp *m)
{
	struct netd_txts t;

	t.cookie = m->cookie;
	t.port = m->port_index;
	t.ok = m->status == PTPSEP__NETD__TX_TS_STATUS__TXTS_OK &&
	    m->ts != NULL;
	if (t.ok)
		nc_ts(&t.ts, m->ts);
	else
		t.ts.sec = t.ts.nsec = 0;
	nc->cbs.tx_timestamp(nc->arg, &t);
}

enum clock_refusal
netd_refusal_of(Ptpsep__RefuseReason reason)
{
	switch (reason) {
	case PTPSEP__REFUSE_REASON__REFUSE_STEP_NOT_ALLOWED:
		return CR_STEP_NOT_ALLOWED;
	case PTPSEP__REFUSE_REASON__REFUSE_STEP_TOO_LARGE:
		return CR_STEP_TOO_LARGE;
	case PTPSEP__REFUSE_REASON__REFUSE_RATE_LIMITED:
		return CR_RATE_LIMITED;
	case PTPSEP__REFUSE_REASON__REFUSE_OUT_OF_BOUNDS:
		return CR_OUT_OF_BOUNDS;
	default:
		return CR_CLOCK_FAILED;
	}
}

static void
nc_clock_reply(struct netd_client *nc, const Ptpsep__Netd__ClockReply *m)
{
	struct netd_clock_reply r;

	r.id = m->id;
	r.ok = m->status == PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK;
	r.refusal = r.ok ? CR_NONE : netd_refusal_of(m->reason);
	r.have_now = m->now != NULL;
	if (r.have_now)
		nc_ts(&r.now, m->now);
	else
		r.now.sec = r.now.nsec = 0;
	r.freq_ppb = m->freq_ppb;
	r.system_clock = m->system_clock;
	r.have_offset = m->offset != NULL;
	memset(&r.offset, 0, sizeof(r.offset));
	if (m->offset != NULL) {
		r.offset.sys_minus_ptp_ns = m->offset->sys_minus_ptp_ns;
		r.offset.have_ptp_time = m->offset->ptp_time != NULL;
		if (m->offset->ptp_time != NULL)
			nc_ts(&r.offset.ptp_time, m->offset->ptp_time);
		r.offset.delay_ns = m->offset->delay_ns;
		r.offset.method = (enum netd_sysoff)m->offset->method;
	}
	nc->cbs.clock_reply(nc->arg, &r);
}

static void
nc_link_event(struct netd_client *nc, const Ptpsep__Netd__LinkEvent *m)
{
	struct netd_link_event e;

	e.port = m->port_index;
	e.up = m->link_up;
	nc->cbs.link_event(nc->arg, &e);
}

static int nc_batch(struct netd_client *nc,
	    const Ptpsep__Netd__NetdBatch *b);
static int nc_dispatch(struct netd_client *nc,
	    const Ptpsep__Netd__NetdMsg *m);

/* Returns 0 to go on, -1 to drop the connection. */
static int
nc_handle(struct netd_client *nc, Ptpsep__Netd__NetdMsg *m)
{
	const char *why;

	if (m->body_case == PTPSEP__NETD__NETD_MSG__BODY_ERROR) {
		log_rl(LOG_LVL_WARN, "netd: error %d: %s", (int)m->error->code,
		    m->error->message);
		return -1;
	}
	switch (nc->state) {
	case NC_HELLO:
		if (usock_hello_check(&m->base, PTPSEP__ROLE__ROLE_NETD,
		    &why) != PTPSEP__ERROR_CODE__ERROR_UNSPECIFIED) {
			log_rl(LOG_LVL_WARN, "netd: %s", why);
			return -1;
		}
		nc->state = NC_PORTS;
		return 0;
	case NC_PORTS:
		if (m->body_case != PTPSEP__NETD__NETD_MSG__BODY_PORT_LIST) {
			log_rl(LOG_LVL_WARN, "netd: expected the port list");
			return -1;
		}
		/* ipc_check() has let no more through: said here again
		 * for nc_port_list()'s array */
		if (m->port_list->n_ports > IPC_MAX_PORTS) {
			log_rl(LOG_LVL_WARN, "netd: %zu ports",
			    m->port_list->n_ports);
			return -1;
		}
		nc->state = NC_READY;
		nc->backoff_ms = NC_BACKOFF_MIN_MS;
		nc->logged_down = 0;
		log_rl(LOG_LVL_INFO, "connected to netd: %zu port(s)",
		    m->port_list->n_ports);
		nc_port_list(nc, m->port_list);
		return 0;
	case NC_READY:
		break;
	case NC_IDLE:
		return -1;
	}
	if (m->body_case == PTPSEP__NETD__NETD_MSG__BODY_BATCH)
		return nc_batch(nc, m->batch);
	return nc_dispatch(nc, m);
}

/*
 * A NetdBatch: its messages in order, exactly as if each had come alone
 * (netd.proto).  ipc_check() has refused an empty batch, one of more than
 * IPC_BATCH_MAX messages and one holding what must stay alone; a member
 * nc_dispatch() does not take drops the connection all the same.  A
 * callback that lost the connection (a failed send) ends the batch.
 */
static int
nc_batch(struct netd_client *nc, const Ptpsep__Netd__NetdBatch *b)
{
	size_t i;

	for (i = 0; i < b->n_msgs; i++) {
		if (nc_dispatch(nc, b->msgs[i]) != 0)
			return -1;
		if (nc->state != NC_READY)
			return 0;
	}
	return 0;
}

/* A message of the NC_READY state, alone or out of a batch. */
static int
nc_dispatch(struct netd_client *nc, const Ptpsep__Netd__NetdMsg *m)
{
	switch (m->body_case) {
	case PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME:
		nc_rx_frame(nc, m->rx_frame);
		break;
	case PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP:
		nc_tx_timestamp(nc, m->tx_timestamp);
		break;
	case PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY:
		nc_clock_reply(nc, m->clock_reply);
		break;
	case PTPSEP__NETD__NETD_MSG__BODY_LINK_EVENT:
		nc_link_event(nc, m->link_event);
		break;
	default:
		log_rl(LOG_LVL_WARN, "netd: unexpected message %u",
		    (unsigned)m->body_case);
		return -1;
	}
	return 0;
}

/*
 * One datagram per wake-up: the event is level-triggered, so a second
 * queued datagram wakes the loop again, and netd's come one at a time (a
 * message, or a NetdBatch of what it had together): reading on until
 * EAGAIN cost a failing recvmsg per datagram (issue 13), as netd's
 * relay_ev_client() found for its side.
 */
static void
nc_ev_read(evutil_socket_t fd, short what, void *arg)
{
	struct netd_client *nc = arg;
	Ptpsep__Netd__NetdMsg *m;
	int rc;

	rc = ipc_recv_netd(nc->fd, &m);
	if (rc == IPC_E_AGAIN)
		return;
	if (rc != IPC_OK) {
		if (rc == IPC_E_EOF)
			log_rl(LOG_LVL_WARN, "netd closed the connection");
		else
			log_rl(LOG_LVL_WARN, "netd: %s (%s)",
			    ipc_strerror(rc), ipc_detail());
		nc_close(nc);
		nc_schedule_retry(nc);
		return;
	}
	rc = nc_handle(nc, m);
	ipc_free(&m->base);
	if (rc != 0) {
		nc_close(nc);
		nc_schedule_retry(nc);
	}
}

void
netd_tx_frame_fill(Ptpsep__Netd__TxFrame *f, Ptpsep__Netd__Address *a,
    unsigned port, int event, enum netd_dest dest,
    const struct netd_addr *unicast, const uint8_t *payload, size_t len,
    uint64_t cookie, int want_ts, const uint8_t *fu, size_t fu_len)
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
			a->family = (Ptpsep__Netd__AddrFamily)unicast->family;
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
	f->follow_up.data = (uint8_t *)fu;
	f->follow_up.len = fu != NULL ? fu_len : 0;
}

int
netd_send_frame(struct netd_client *nc, unsigned port, int event,
    enum netd_dest dest, const struct netd_addr *unicast,
    const uint8_t *payload, size_t len, uint64_t cookie, int want_ts,
    const uint8_t *fu, size_t fu_len)
{
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__TxFrame f = PTPSEP__NETD__TX_FRAME__INIT;
	Ptpsep__Netd__Address a = PTPSEP__NETD__ADDRESS__INIT;

	if (nc->state != NC_READY)
		return -1;
	netd_tx_frame_fill(&f, &a, port, event, dest, unicast, payload, len,
	    cookie, want_ts, fu, fu_len);
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME;
	m.tx_frame = &f;
	return nc_queue(nc, &m);
}

static int
nc_clock(struct netd_client *nc, Ptpsep__Netd__ClockRequest *r)
{
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;

	if (nc->state != NC_READY)
		return -1;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST;
	m.clock_request = r;
	return nc_queue(nc, &m);
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

int
netd_clock_req(struct netd_client *nc, const struct netd_clock_req *q)
{
	Ptpsep__Netd__ClockRequest r = PTPSEP__NETD__CLOCK_REQUEST__INIT;
	Ptpsep__Netd__ClockGetStatus gs = PTPSEP__NETD__CLOCK_GET_STATUS__INIT;
	Ptpsep__Netd__ClockAdjFreq af = PTPSEP__NETD__CLOCK_ADJ_FREQ__INIT;
	Ptpsep__Netd__ClockStep st = PTPSEP__NETD__CLOCK_STEP__INIT;
	Ptpsep__Netd__ClockCompare cmp = PTPSEP__NETD__CLOCK_COMPARE__INIT;
	Ptpsep__Netd__ClockSetLeap sl = PTPSEP__NETD__CLOCK_SET_LEAP__INIT;

	r.id = q->id;
	r.system_clock = q->system_clock != 0;
	switch (q->op) {
	case NETD_CLOCK_READ:
		r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_GET_STATUS;
		r.get_status = &gs;
		break;
	case NETD_CLOCK_ADJFREQ:
		af.freq_ppb = q->freq_ppb;
		r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ;
		r.adj_freq = &af;
		break;
	case NETD_CLOCK_STEP:
		st.offset_ns = q->step_ns;
		r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_STEP;
		r.step = &st;
		break;
	case NETD_CLOCK_COMPARE:
		/* netd.proto: a compare is never about one clock */
		r.system_clock = 0;
		r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_COMPARE;
		r.compare = &cmp;
		break;
	case NETD_CLOCK_LEAP:
		if (q->leap < -1 || q->leap > 1)
			return -1;
		sl.leap = q->leap;
		sl.set_tai = q->set_tai != 0;
		sl.tai_offset = q->set_tai ? q->tai_offset : 0;
		r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_SET_LEAP;
		r.set_leap = &sl;
		break;
	default:
		return -1;
	}
	return nc_clock(nc, &r);
}
