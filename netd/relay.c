/*
 * relay.c - netd's side of the clockd connection (netd_socket).
 *
 * One client at a time, checked with SO_PEERCRED (clockd_user or root).
 * Each side sends Hello first; netd then sends the PortList.  After that
 * clockd sends TxFrame and ClockRequest, netd sends RxFrame, TxTimestamp,
 * ClockReply and LinkEvent, either side possibly several in one NetdBatch
 * (doc/design.md, "Batches").  Everything the client sends is checked
 * (check.c); a message that breaks the protocol closes the connection and
 * is logged, and netd waits for the next clockd (doc/design.md,
 * "Treating clockd as hostile").  Clock requests beyond the configured
 * bounds are refused with a ClockReply and the connection stays: a servo
 * may legitimately ask for more than the bounds allow.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/event.h>

#include "log.h"
#include "netd.h"
#include "usock.h"

/* Datagrams of a client read (and dropped) before it is closed. */
#define RELAY_BURST	64
/*
 * clockd's messages handled per wake-up.  One: reading on until EAGAIN
 * cost a recvmsg that found nothing after nearly every message.  The
 * socket is level-triggered, so a second message wakes the loop again,
 * after the ports have had their turn.
 */
#define RELAY_MSGS_PER_WAKEUP	1
/* Absorbs bursts of RxFrames while clockd is busy. */
#define RELAY_SNDBUF	(1024 * 1024)
/*
 * A connection that has not said Hello after this long is closed: it holds
 * the one client slot, so a silent connection from the clockd user (or a
 * clockd stuck before its Hello) would otherwise keep every later clockd
 * out.  clockd sends its Hello as soon as it has connected.
 */
#define RELAY_HELLO_TIMEOUT_S	5

static void relay_ev_accept(evutil_socket_t fd, short what, void *arg);
static void relay_ev_client(evutil_socket_t fd, short what, void *arg);
static void relay_ev_hello_timeout(evutil_socket_t fd, short what, void *arg);
static void relay_ev_outq(evutil_socket_t fd, short what, void *arg);
static void relay_ev_coal(evutil_socket_t fd, short what, void *arg);

int
relay_listen(struct netd *nd, const char *path, uid_t sock_uid,
    gid_t sock_gid)
{
	char why[256];
	int fd;

	/*
	 * netd_user:<clockd's group> 0660, made without bind/chown/chmod by
	 * path: a symlink planted there is refused, never followed.
	 */
	fd = usock_listen(path, SOCK_SEQPACKET, 0660, sock_uid, sock_gid, 4, 0,
	    why, sizeof(why));
	if (fd < 0) {
		log_warnx("netd_socket: %s", why);
		return fd;
	}
	nd->listen_fd = fd;
	nd->listen_ev = event_new(nd->base, fd, EV_READ | EV_PERSIST,
	    relay_ev_accept, nd);
	if (nd->listen_ev == NULL || event_add(nd->listen_ev, NULL) != 0)
		return -ENOMEM;
	nd->hello_tmo = evtimer_new(nd->base, relay_ev_hello_timeout, nd);
	if (nd->hello_tmo == NULL)
		return -ENOMEM;
	outq_clear(&nd->outq);
	nd->outq_tmo = evtimer_new(nd->base, relay_ev_outq, nd);
	nd->coal_tmo = evtimer_new(nd->base, relay_ev_coal, nd);
	if (nd->outq_tmo == NULL || nd->coal_tmo == NULL)
		return -ENOMEM;
	return 0;
}

int
relay_connected(const struct netd *nd)
{
	return nd->client_fd >= 0 && nd->client_ready;
}

/* Sends an Error and closes fd; for connections we refuse or end. */
static void
relay_refuse_fd(int fd, Ptpsep__ErrorCode code, const char *text)
{
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Error e;

	ipc_error_init(&e, code, text);
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_ERROR;
	m.error = &e;
	(void)ipc_send_netd(fd, &m);
	/* What the client sent (its Hello, the rest of a burst) is read
	 * first, so that it gets the Error, not a reset. */
	usock_drain(fd, RELAY_BURST);
	close(fd);
}

/* Ends the connection; with why, after an Error{code, why} and a log line. */
static void
relay_end_client(struct netd *nd, Ptpsep__ErrorCode code, const char *why)
{
	size_t i;

	if (nd->client_fd < 0)
		return;
	if (nd->hello_tmo != NULL)
		evtimer_del(nd->hello_tmo);
	/* What was held for this client is not the next one's. */
	outq_clear(&nd->outq);
	if (nd->outq_tmo != NULL)
		evtimer_del(nd->outq_tmo);
	/* Stop watching the fd before it is closed (and its number reused). */
	if (nd->client_ev != NULL) {
		event_free(nd->client_ev);
		nd->client_ev = NULL;
	}
	if (why != NULL) {
		log_rl(LOG_LVL_WARN, "closing the clockd connection: %s", why);
		relay_refuse_fd(nd->client_fd, code, why);
	} else {
		close(nd->client_fd);
	}
	nd->client_fd = -1;
	nd->client_ready = 0;
	/* Timestamps owed to the old client are not owed to the next one. */
	for (i = 0; i < nd->nports; i++)
		port_txmap_clear(&nd->ports[i]);
}

void
relay_close_client(struct netd *nd, const char *why)
{
	relay_end_client(nd, PTPSEP__ERROR_CODE__ERROR_PROTOCOL, why);
}

/*
 * Sends m to clockd.  When clockd's queue is full (it is not reading) an
 * RxFrame may be dropped, and the caller counts it (RELAY_DROPPABLE); any
 * other message may not: a lost ClockReply would leave clockd waiting for
 * its step forever, a lost TxTimestamp or LinkEvent would leave a port in
 * the wrong state.  Then the connection is closed instead, loudly, and
 * clockd reconnects and starts from the clock's state.
 */
#define RELAY_DROPPABLE	1
#define RELAY_MUST	0

/* Sends one datagram already packed; the policy of relay_send(). */
static int
relay_send_packed(struct netd *nd, const uint8_t *buf, size_t len,
    int droppable)
{
	int rc;

	if (nd->client_fd < 0)
		return -1;
	rc = ipc_send_packed(nd->client_fd, buf, len);
	if (rc == IPC_OK)
		return 0;
	if (rc == IPC_E_AGAIN && droppable)
		return -1;
	if (rc == IPC_E_AGAIN) {
		nd->client_backlog_closes++;
		relay_close_client(nd, "clockd is not reading (its queue is "
		    "full) and a message that may not be dropped is due");
		return -1;
	}
	log_rl(LOG_LVL_WARN, "send to clockd: %s (%s)", ipc_strerror(rc),
	    ipc_detail());
	relay_close_client(nd, NULL);
	return -1;
}

/* The held RxFrames of a batch clockd's full queue did not take. */
static void
relay_count_held_drops(struct netd *nd)
{
	const struct outq *q = &nd->outq;
	size_t i;

	for (i = 0; i < q->n; i++)
		if (q->m[i].kind == OUTQ_RX && q->m[i].port < nd->nports)
			nd->ports[q->m[i].port].rxdrop[
			    PTPSEP__CTL__RX_DROP_REASON__RX_DROP_CLIENT_BACKLOG]++;
}

/*
 * Sends what is held, alone or as one batch, and empties the queue.
 * 0, or -1 when it was dropped (all RxFrames) or the connection closed.
 */
static int
relay_flush(struct netd *nd)
{
	uint8_t buf[IPC_MAX_MSG];
	size_t len;
	int droppable, rc;

	if (nd->outq.n == 0)
		return 0;
	evtimer_del(nd->outq_tmo);
	/* outq_hold() kept the sum of what is held within IPC_MAX_MSG. */
	len = outq_build(&nd->outq, NULL, 0, buf, sizeof(buf));
	droppable = outq_droppable(&nd->outq);
	if (len == 0) {
		relay_close_client(nd, NULL);
		log_warnx("held messages for clockd did not fit a datagram");
		return -1;
	}
	rc = relay_send_packed(nd, buf, len, droppable);
	if (rc < 0 && nd->client_fd >= 0)
		relay_count_held_drops(nd);
	outq_clear(&nd->outq);
	return rc;
}

/*
 * The end of a receive coalescing (port_rx_coalesce()): what the ports'
 * event sockets got meanwhile is read, and goes to clockd with what was
 * held, in one datagram where it fits.
 */
static void
relay_ev_coal(evutil_socket_t fd, short what, void *arg)
{
	struct netd *nd = arg;
	int more;

	(void)fd;
	(void)what;
	evtimer_del(nd->coal_tmo);
	nd->draining = 1;
	nd->coal_again_ns = 0;
	more = port_rx_drain(nd);
	nd->draining = 0;
	/* Still Delay_Reqs to hold (relay_hold()): coalesce on. */
	port_rx_end(nd, nd->coal_again_ns > 0);
	(void)relay_flush(nd);
	if (more) {
		/* Left in the socket: after clockd has had these. */
		struct timeval tv = { 0, PORT_DRAIN_AGAIN_US };

		(void)evtimer_add(nd->coal_tmo, &tv);
	} else if (nd->coal_again_ns > 0) {
		struct timeval tv = { 0, nd->coal_again_ns / 1000 };

		(void)evtimer_add(nd->coal_tmo, &tv);
	}
}

static void
relay_ev_outq(evutil_socket_t fd, short what, void *arg)
{
	struct netd *nd = arg;

	(void)fd;
	(void)what;
	/* Due together (relay_hold()): the read first, then one send. */
	if (evtimer_pending(nd->coal_tmo, NULL)) {
		relay_ev_coal(fd, what, arg);
		return;
	}
	(void)relay_flush(nd);
}

static int64_t
relay_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/*
 * Holds m for the next send (outq.h); with no room, sends what is held
 * first.  Sends at once when the queue is then full, so that the next
 * message still finds room beside it in one batch.  0, or -1 as
 * relay_send().
 */
static int
relay_hold(struct netd *nd, const NetdMsg *m, enum outq_kind k,
    unsigned port, int64_t hold_ns)
{
	int64_t now = relay_mono_ns();
	int rc;

	if (nd->client_fd < 0)
		return -1;
	if ((rc = outq_hold(&nd->outq, &m->base, k, port, now, hold_ns)) < 0) {
		if (relay_flush(nd) < 0 && nd->client_fd < 0)
			return -1;
		rc = outq_hold(&nd->outq, &m->base, k, port, now, hold_ns);
		if (rc < 0)
			return -1;	/* cannot be: the queue was empty */
	}
	if (nd->outq.n >= OUTQ_HELD_MAX)
		return relay_flush(nd);
	if (rc > 0) {
		struct timeval tv = { 0, (nd->outq.deadline_ns - now) / 1000 };

		(void)evtimer_add(nd->outq_tmo, &tv);
	}
	/* A Delay_Req held for company (only those are held that long):
	 * the next ones are read together when the hold ends.  A port whose
	 * socket a batch put back on the loop, or another port, joins a
	 * coalescing under way and is drained with it. */
	if (k != OUTQ_RX || hold_ns < OUTQ_DREQ_HOLD_NS)
		return 0;
	if (nd->draining) {
		/* relay_ev_coal() coalesces on for the longest. */
		if (hold_ns > nd->coal_again_ns)
			nd->coal_again_ns = hold_ns;
	} else if (port < nd->nports && !nd->ports[port].coalescing &&
	    port_rx_coalesce(&nd->ports[port]) &&
	    !evtimer_pending(nd->coal_tmo, NULL)) {
		struct timeval tv = { 0, hold_ns / 1000 };

		(void)evtimer_add(nd->coal_tmo, &tv);
	}
	return 0;
}

/*
 * Sends m to clockd, after what is held and in one datagram with it when
 * it fits (doc/design.md, "Batches"); the droppable policy above applies
 * to the whole datagram: it may be dropped only when every message in it
 * may.
 */
static int
relay_send(struct netd *nd, const NetdMsg *m, int droppable)
{
	uint8_t one[IPC_MAX_MSG], buf[IPC_MAX_MSG];
	size_t len, blen;
	int rc;

	if (nd->client_fd < 0)
		return -1;
	if (ipc_encode(&m->base, one, sizeof(one), &len) != IPC_OK) {
		log_rl(LOG_LVL_WARN, "send to clockd: %s", ipc_detail());
		relay_close_client(nd, NULL);
		return -1;
	}
	if (nd->outq.n == 0)
		return relay_send_packed(nd, one, len, droppable);
	blen = outq_build(&nd->outq, one, len, buf, sizeof(buf));
	if (blen == 0) {
		/* Too large together: what is held goes first, alone. */
		if (relay_flush(nd) < 0 && nd->client_fd < 0)
			return -1;
		return relay_send_packed(nd, one, len, droppable);
	}
	evtimer_del(nd->outq_tmo);
	droppable = droppable && outq_droppable(&nd->outq);
	rc = relay_send_packed(nd, buf, blen, droppable);
	if (rc < 0 && nd->client_fd >= 0)
		relay_count_held_drops(nd);
	outq_clear(&nd->outq);
	return rc;
}

static void
relay_ev_accept(evutil_socket_t lfd, short what, void *arg)
{
	struct netd *nd = arg;
	struct usock_peer cred;
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Hello h;
	char why[64];
	int fd, sndbuf = RELAY_SNDBUF;

	if ((fd = usock_accept(lfd, &cred, why, sizeof(why))) < 0) {
		if (fd != -EAGAIN && fd != -EINTR)
			log_rl(LOG_LVL_WARN, "netd_socket: %s", why);
		return;
	}
	if (cred.uid != 0 && cred.uid != nd->client_uid) {
		log_rl(LOG_LVL_WARN, "refused netd_socket connection from uid "
		    "%u (pid %d): not clockd_user", (unsigned)cred.uid,
		    (int)cred.pid);
		nd->conn_refused[PTPSEP__REFUSE_REASON__REFUSE_NOT_PERMITTED]++;
		relay_refuse_fd(fd, PTPSEP__ERROR_CODE__ERROR_PERMISSION_DENIED,
		    "this user may not connect to ptp-netd");
		return;
	}
	if (nd->client_fd >= 0) {
		log_rl(LOG_LVL_WARN, "refused a second clockd connection "
		    "(pid %d)", (int)cred.pid);
		nd->conn_refused[PTPSEP__REFUSE_REASON__REFUSE_BUSY]++;
		relay_refuse_fd(fd, PTPSEP__ERROR_CODE__ERROR_BUSY,
		    "ptp-netd already serves a clockd");
		return;
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	nd->client_fd = fd;
	nd->client_ready = 0;
	nd->client_connections++;
	nd->client_ev = event_new(nd->base, fd, EV_READ | EV_PERSIST,
	    relay_ev_client, nd);
	if (nd->client_ev == NULL || event_add(nd->client_ev, NULL) != 0) {
		relay_close_client(nd, "out of memory");
		return;
	}
	log_rl(LOG_LVL_INFO, "clockd connected (uid %u, pid %d)",
	    (unsigned)cred.uid, (int)cred.pid);
	{
		struct timeval tv = { RELAY_HELLO_TIMEOUT_S, 0 };

		(void)evtimer_add(nd->hello_tmo, &tv);
	}
	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_NETD);
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_HELLO;
	m.hello = &h;
	(void)relay_send(nd, &m, RELAY_MUST);
}

static void
relay_ev_hello_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct netd *nd = arg;
	char why[48];

	(void)fd;
	(void)what;
	if (nd->client_fd < 0 || nd->client_ready)
		return;
	nd->conn_refused[PTPSEP__REFUSE_REASON__REFUSE_HELLO_TIMEOUT]++;
	snprintf(why, sizeof(why), "no Hello within %d s",
	    RELAY_HELLO_TIMEOUT_S);
	relay_close_client(nd, why);
}

static void
relay_send_port_list(struct netd *nd)
{
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__PortList pl = PTPSEP__NETD__PORT_LIST__INIT;
	Ptpsep__Netd__ClockInfo ci = PTPSEP__NETD__CLOCK_INFO__INIT;
	Ptpsep__Netd__ClockInfo sci = PTPSEP__NETD__CLOCK_INFO__INIT;
	Ptpsep__Netd__Port ports[IPC_MAX_PORTS];
	Ptpsep__Netd__Port *pp[IPC_MAX_PORTS];
	uint8_t bufs[IPC_MAX_PORTS][14];
	size_t i;

	for (i = 0; i < nd->nports && i < IPC_MAX_PORTS; i++) {
		port_describe(&nd->ports[i], &ports[i], bufs[i]);
		pp[i] = &ports[i];
	}
	pl.n_ports = i;
	pl.ports = pp;
	netd_clock_info(nd, &ci);
	pl.clock = &ci;
	if (netd_sys_clock_info(nd, &sci) == 0)
		pl.system_clock = &sci;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_PORT_LIST;
	m.port_list = &pl;
	(void)relay_send(nd, &m, RELAY_MUST);
}

static enum transport_kind
relay_kind_of_port(void *arg, unsigned i)
{
	struct netd *nd = arg;

	return nd->ports[i].params.kind;
}

/* Returns 0, or -1 after closing the connection. */
static int
relay_tx_frame(struct netd *nd, const Ptpsep__Netd__TxFrame *f)
{
	struct transport_dest dst;
	enum transport_class cls;
	const char *why;
	int reason;

	if (check_send_frame(f, nd->nports, relay_kind_of_port, nd, &cls,
	    &dst, &reason, &why) != CHECK_OK) {
		if (f->port_index < nd->nports)
			nd->ports[f->port_index].refused[reason]++;
		else
			nd->conn_refused[reason]++;
		relay_close_client(nd, why);
		return -1;
	}
	if (check_one_step(nd->ports[f->port_index].params.step, cls, f,
	    &reason, &why) != CHECK_OK) {
		nd->ports[f->port_index].refused[reason]++;
		relay_close_client(nd, why);
		return -1;
	}
	reason = port_send(&nd->ports[f->port_index], cls, &dst,
	    f->payload.data, f->payload.len, f->want_tx_ts, f->cookie,
	    f->follow_up.data, f->follow_up.len);
	if (reason != 0) {
		nd->ports[f->port_index].refused[reason]++;
		relay_close_client(nd,
		    "unicast TxFrame to an address the port has not heard from");
		return -1;
	}
	return 0;
}

/*
 * A ClockCompare (doc/design.md, the system clock from the PHC): always
 * answered; refused NOT_SUPPORTED without a system clock or a way to
 * compare, RATE_LIMITED sooner than CLOCK_CMP_MIN_INTERVAL_NS after the
 * last (a PHC measurement is up to 25 ioctls: a hostile clockd gets at
 * most 100 a second), each refusal counted with the system clock's.
 */
static void
relay_compare(struct netd *nd, Ptpsep__Netd__ClockReply *rep,
    Ptpsep__Netd__ClockOffset *off, Ptpsep__Timestamp *pt)
{
	struct clock_cmp cmp;
	int rc;

	rep->status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_REFUSED;
	if (nd->sysclk == NULL || nd->cmp_method == CLOCK_CMP_NONE)
		rep->reason = PTPSEP__REFUSE_REASON__REFUSE_NOT_SUPPORTED;
	else if (!clock_cmp_due(&nd->cmp_last_ns, relay_mono_ns()))
		rep->reason = PTPSEP__REFUSE_REASON__REFUSE_RATE_LIMITED;
	else if ((rc = clock_compare(nd->clk, nd->sysclk, nd->cmp_method,
	    nd->cmp_samples, NULL, &cmp)) < 0) {
		rep->reason = PTPSEP__REFUSE_REASON__REFUSE_CLOCK_FAILED;
		log_rl(LOG_LVL_WARN, "system clock compare: %s",
		    strerror(-rc));
	} else {
		rep->status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK;
		off->sys_minus_ptp_ns = cmp.sys_minus_ptp_ns;
		if (cmp.ptp_time.tv_sec >= 0) {
			pt->seconds = (uint64_t)cmp.ptp_time.tv_sec;
			pt->nanoseconds = (uint32_t)cmp.ptp_time.tv_nsec;
			off->ptp_time = pt;
		}
		off->delay_ns = cmp.delay_ns;
		off->method = (Ptpsep__Netd__SysoffMethod)cmp.method;
		rep->offset = off;
		return;
	}
	nd->sys_refused[rep->reason]++;
}

static int
relay_clock_request(struct netd *nd, const Ptpsep__Netd__ClockRequest *r)
{
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__ClockReply rep = PTPSEP__NETD__CLOCK_REPLY__INIT;
	Ptpsep__Netd__ClockOffset off = PTPSEP__NETD__CLOCK_OFFSET__INIT;
	Ptpsep__Timestamp now = PTPSEP__TIMESTAMP__INIT;
	Ptpsep__Timestamp pt = PTPSEP__TIMESTAMP__INIT;
	enum clock_status st = CLOCK_ST_OK;
	struct clock_bounds_state *bst = &nd->bstate;
	uint64_t *refused = nd->clock_refused;
	struct clock *clk = nd->clk;
	struct clock_req req;
	struct timespec ts;
	const char *why;
	double freq = 0;
	int is_read, rc = 0;

	if (check_clock_request(r, &req, &is_read, &why) != CHECK_OK) {
		nd->clock_refused[PTPSEP__REFUSE_REASON__REFUSE_BAD_REQUEST]++;
		relay_close_client(nd, why);
		return -1;
	}
	rep.id = r->id;
	rep.system_clock = req.system_clock;
	if (req.system_clock) {
		clk = nd->sysclk;
		bst = &nd->sys_bstate;
		refused = nd->sys_refused;
	}
	if (is_read == CHECK_CLOCK_COMPARE) {
		relay_compare(nd, &rep, &off, &pt);
	} else if (clk == NULL) {
		rep.status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_REFUSED;
		rep.reason = PTPSEP__REFUSE_REASON__REFUSE_NOT_SUPPORTED;
		refused[rep.reason]++;
		log_rl(LOG_LVL_INFO, "refused a system clock request: no "
		    "system clock (sync_system_clock 0)");
	} else {
		if (!is_read)
			rc = clock_apply(clk, &nd->bounds, bst, &req,
			    relay_mono_ns(), &st);
		if (st != CLOCK_ST_OK) {
			rep.status =
			    PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_REFUSED;
			rep.reason = check_refuse_reason(st);
			refused[rep.reason]++;
			log_info("refused %sclock %s: %s",
			    req.system_clock ? "system " : "",
			    clock_op_name(req.op), clock_status_name(st));
		} else if (rc < 0) {
			rep.status =
			    PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_REFUSED;
			rep.reason = PTPSEP__REFUSE_REASON__REFUSE_CLOCK_FAILED;
			refused[rep.reason]++;
			log_warnx("clock request failed: %s", strerror(-rc));
		} else {
			rep.status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK;
			if (req.op == CLOCK_OP_STEP && !is_read)
				log_info("%sclock stepped by %lld ns",
				    req.system_clock ? "system " : "",
				    (long long)req.step_ns);
		}
	}
	/*
	 * An accepted frequency change is not answered (clock_reply_due);
	 * a compare is always answered, as a read.
	 */
	if (!clock_reply_due(is_read, &req, rep.status ==
	    PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK))
		return 0;
	if (is_read == CHECK_CLOCK_COMPARE)
		clk = nd->clk;
	if (clk != NULL && clock_read(clk, &ts) == 0 && ts.tv_sec >= 0) {
		now.seconds = (uint64_t)ts.tv_sec;
		now.nanoseconds = (uint32_t)ts.tv_nsec;
		rep.now = &now;
	}
	if (clk != NULL && clock_getfreq(clk, &freq) == 0 && isfinite(freq))
		rep.freq_ppb = freq;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY;
	m.clock_reply = &rep;
	return relay_send(nd, &m, RELAY_MUST);
}

/*
 * clockd's first message must be its Hello (doc/design.md, "Interprocess
 * protocol"); then netd sends the PortList.  0, or -1 after closing.
 */
static int
relay_hello(struct netd *nd, const NetdMsg *m)
{
	Ptpsep__ErrorCode code;
	const char *why;

	code = usock_hello_check(&m->base, PTPSEP__ROLE__ROLE_CLOCKD, &why);
	if (code != PTPSEP__ERROR_CODE__ERROR_UNSPECIFIED) {
		/* A Hello refused is counted (NetdInfo.refused). */
		if (code == PTPSEP__ERROR_CODE__ERROR_VERSION_MISMATCH)
			nd->conn_refused[
			    PTPSEP__REFUSE_REASON__REFUSE_BAD_REQUEST]++;
		relay_end_client(nd, code, why);
		return -1;
	}
	nd->client_ready = 1;
	evtimer_del(nd->hello_tmo);
	relay_send_port_list(nd);
	return 0;
}

/*
 * Acts on one message of a ready client: a TxFrame or a ClockRequest, or
 * a NetdBatch of those, whose members are acted on in order exactly as if
 * each had come alone (doc/design.md, "Batches"); ipc_check() has already
 * refused a batch that is empty, too long, or holds a Hello, PortList,
 * Error or batch.  Anything else closes the connection, as does the first
 * member that does.  0, or -1 after closing.
 */
static int
relay_dispatch(struct netd *nd, const NetdMsg *m, int in_batch)
{
	char why[80];
	size_t i;
	int rc = 0;

	switch (m->body_case) {
	case PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME:
		return relay_tx_frame(nd, m->tx_frame);
	case PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST:
		if (nd->batching)
			port_batch_flush(nd);
		return relay_clock_request(nd, m->clock_request);
	case PTPSEP__NETD__NETD_MSG__BODY_BATCH:
		if (in_batch)
			break;		/* ipc_check() refuses it first */
		port_batch_begin(nd);
		for (i = 0; i < m->batch->n_msgs; i++)
			if ((rc = relay_dispatch(nd, m->batch->msgs[i], 1)) < 0)
				break;
		port_batch_end(nd);
		return rc;
	default:
		break;
	}
	snprintf(why, sizeof(why), "message %u is not one clockd may send%s",
	    (unsigned)m->body_case, in_batch ? " (in a batch)" : "");
	nd->conn_refused[PTPSEP__REFUSE_REASON__REFUSE_BAD_REQUEST]++;
	relay_close_client(nd, why);
	return -1;
}

static void
relay_ev_client(evutil_socket_t fd, short what, void *arg)
{
	struct netd *nd = arg;
	NetdMsg *m;
	char why[160];
	int i, rc;

	for (i = 0; i < RELAY_MSGS_PER_WAKEUP && nd->client_fd >= 0; i++) {
		rc = ipc_recv_netd(nd->client_fd, &m);
		if (rc == IPC_E_AGAIN)
			return;
		if (rc == IPC_E_EOF) {
			log_rl(LOG_LVL_INFO, "clockd disconnected");
			relay_close_client(nd, NULL);
			return;
		}
		if (rc != IPC_OK) {
			snprintf(why, sizeof(why), "%s (%s)", ipc_strerror(rc),
			    ipc_detail());
			nd->conn_refused[PTPSEP__REFUSE_REASON__REFUSE_BAD_REQUEST]++;
			relay_close_client(nd, why);
			return;
		}
		if (!nd->client_ready) {
			rc = relay_hello(nd, m);
			ipc_free(&m->base);
			if (rc < 0)
				return;
			continue;
		}
		rc = relay_dispatch(nd, m, 0);
		ipc_free(&m->base);
		if (rc < 0)
			return;
	}
}

static void
relay_ts(Ptpsep__Timestamp *t, const struct timespec *ts)
{
	t->seconds = ts->tv_sec < 0 ? 0 : (uint64_t)ts->tv_sec;
	t->nanoseconds = (uint32_t)ts->tv_nsec;
}

static Ptpsep__MsgClass
relay_class(enum transport_class cls)
{
	return cls == TC_EVENT ? PTPSEP__MSG_CLASS__MSG_CLASS_EVENT :
	    PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
}

int
relay_rx_frame(struct netd_port *p, enum transport_class cls,
    const struct transport_rx *rx)
{
	struct netd *nd = p->nd;
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__RxFrame f = PTPSEP__NETD__RX_FRAME__INIT;
	Ptpsep__Netd__Address src = PTPSEP__NETD__ADDRESS__INIT;
	Ptpsep__Timestamp ts = PTPSEP__TIMESTAMP__INIT;
	int64_t hold;

	if (!relay_connected(nd)) {
		p->rxdrop[PTPSEP__CTL__RX_DROP_REASON__RX_DROP_NO_CLIENT]++;
		return -1;
	}
	f.port_index = p->index;
	f.msg_class = relay_class(cls);
	f.payload.data = rx->buf;
	/*
	 * The PTP message only: transport_recv() checked that messageLength
	 * (13.3.2.4) is within the frame, and what follows it is Ethernet
	 * padding (a 44-octet Sync arrives as 46), not part of the message.
	 */
	f.payload.len = (size_t)rx->buf[2] << 8 | rx->buf[3];
	if (f.payload.len < PTP_MIN_MSG_LEN || f.payload.len > rx->len)
		f.payload.len = rx->len;
	/* netd.proto: rx_ts is for event messages (8.4.2), absent otherwise. */
	if (rx->have_ts && cls == TC_EVENT) {
		relay_ts(&ts, &rx->ts);
		f.rx_ts = &ts;
		f.ts_source = rx->hw ? PTPSEP__TIMESTAMP_MODE__TS_MODE_HARDWARE :
		    PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE;
	}
	switch (rx->src.len) {
	case 6:
		src.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_MAC;
		break;
	case 4:
		src.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV4;
		break;
	case 16:
		src.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV6;
		break;
	}
	if (src.family != PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_UNSPECIFIED) {
		src.addr.data = (uint8_t *)rx->src.b;
		src.addr.len = rx->src.len;
		f.source = &src;
	}
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME;
	m.rx_frame = &f;
	/*
	 * A two-step Sync waits for its Follow_Up, a Delay_Req for company
	 * (outq.h).
	 */
	if ((hold = outq_rx_hold(&nd->outq, cls == TC_EVENT, f.payload.data,
	    f.payload.len, relay_mono_ns(), (unsigned)p->tp.peers.count)) > 0)
		return relay_hold(nd, &m, OUTQ_RX, p->index, hold) == 0 ?
		    0 : -1;
	if (relay_send(nd, &m, RELAY_DROPPABLE) != 0) {
		p->rxdrop[PTPSEP__CTL__RX_DROP_REASON__RX_DROP_CLIENT_BACKLOG]++;
		return -1;
	}
	return 0;
}

static void
relay_txts_msg(struct netd_port *p, uint64_t cookie, Ptpsep__Netd__TxTsStatus st,
    const struct transport_txts *t)
{
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__TxTimestamp x = PTPSEP__NETD__TX_TIMESTAMP__INIT;
	Ptpsep__Timestamp ts = PTPSEP__TIMESTAMP__INIT;

	if (!relay_connected(p->nd))
		return;
	x.cookie = cookie;
	x.port_index = p->index;
	x.status = st;
	if (st == PTPSEP__NETD__TX_TS_STATUS__TXTS_OK) {
		relay_ts(&ts, &t->ts);
		x.ts = &ts;
		x.ts_source = t->hw ? PTPSEP__TIMESTAMP_MODE__TS_MODE_HARDWARE :
		    PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE;
	}
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP;
	m.tx_timestamp = &x;
	/* clockd uses it with the response to come (outq.h). */
	(void)relay_hold(p->nd, &m, OUTQ_TXTS, p->index, 0);
}

void
relay_tx_timestamp(struct netd_port *p, uint64_t cookie,
    const struct transport_txts *t)
{
	relay_txts_msg(p, cookie, t->status == TXTS_OK ?
	    PTPSEP__NETD__TX_TS_STATUS__TXTS_OK :
	    PTPSEP__NETD__TX_TS_STATUS__TXTS_MISSING, t);
}

void
relay_tx_failed(struct netd_port *p, uint64_t cookie)
{
	relay_txts_msg(p, cookie, PTPSEP__NETD__TX_TS_STATUS__TXTS_SEND_FAILED,
	    NULL);
}

void
relay_link_event(struct netd_port *p, int reopened)
{
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__LinkEvent ev = PTPSEP__NETD__LINK_EVENT__INIT;
	Ptpsep__Netd__Port port;
	uint8_t buf[14];

	if (!relay_connected(p->nd))
		return;
	port_describe(p, &port, buf);
	ev.port_index = p->index;
	ev.link_up = p->is_open && p->link_up;
	ev.reopened = reopened;
	ev.port = &port;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_LINK_EVENT;
	m.link_event = &ev;
	(void)relay_send(p->nd, &m, RELAY_MUST);
}
