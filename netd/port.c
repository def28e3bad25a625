/*
 * port.c - one PTP port of netd: its sockets, their events, the TX
 * timestamps owed to clockd, and reopening after the link comes back.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "cfg.h"
#include "cli.h"
#include "log.h"
#include "netd.h"
#include "phc.h"
#include "tstamp.h"

/* Error-queue entries read per wake-up before yielding to the others. */
#define PORT_ERRQ_BURST	(4 * TRANSPORT_ERRQ_BATCH)
/* Frames read at a coalescing's end, at most (port_rx_drain()). */
#define PORT_DRAIN_MAX	256

static void port_ev_read(evutil_socket_t fd, short what, void *arg);
static void port_tx_failed(void *arg, enum transport_class cls,
    uint32_t ts_id);

/*
 * A MAC key's value (xx:xx:xx:xx:xx:xx, checked by the config layer) into
 * mac; it must be a group address: netd joins it and sends to it.
 */
static int
port_group_mac(const char *ifname, const char *key, const char *v,
    uint8_t mac[6])
{
	unsigned int b[6];
	int i;

	if (v == NULL || sscanf(v, "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1],
	    &b[2], &b[3], &b[4], &b[5]) != 6) {
		log_warnx("%s: %s: not a MAC address", ifname, key);
		return -1;
	}
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	if (!(mac[0] & 0x01)) {
		log_warnx("%s: %s %s is not a multicast address", ifname, key,
		    v);
		return -1;
	}
	return 0;
}

/*
 * The unicast peer table and TX limits (transport_peer.c): its size,
 * how long an unheard peer is kept, what one peer and the whole port may
 * be sent.  The port's burst is a tenth of a second of its rate.
 */
static void
port_init_peers(struct netd *nd, struct netd_port *p)
{
	struct transport_peer_params *pp = &p->params.peers;
	int rate;

	pp->max = (unsigned)cfg_get_int(nd->cfg, NULL, "max_unicast_peers");
	pp->timeout_s = (unsigned)cfg_get_int(nd->cfg, NULL,
	    "unicast_peer_timeout");
	pp->tx_rate = (unsigned)cfg_get_int(nd->cfg, NULL,
	    "unicast_peer_tx_rate");
	pp->tx_burst = (unsigned)cfg_get_int(nd->cfg, NULL,
	    "unicast_peer_tx_burst");
	rate = cfg_get_int(nd->cfg, NULL, "port_tx_rate");
	p->params.tx_rate = (unsigned)rate;
	p->params.tx_burst = (unsigned)rate / 10 + pp->tx_burst;
}

int
port_init(struct netd *nd, struct netd_port *p, unsigned index,
    const char *ifname)
{
	int trans, ts;

	memset(p, 0, sizeof(*p));
	p->nd = nd;
	p->index = index;
	p->tp.fd[TC_EVENT] = p->tp.fd[TC_GENERAL] = -1;
	p->phc_index = -1;
	if (strlen(ifname) >= sizeof(p->ifname))
		return -EINVAL;
	strcpy(p->ifname, ifname);

	trans = cfg_get_int(nd->cfg, ifname, "network_transport");
	switch (trans) {
	case CFG_TRANS_L2:	p->params.kind = TR_L2;		break;
	case CFG_TRANS_UDPV4:	p->params.kind = TR_UDP4;	break;
	case CFG_TRANS_UDPV6:	p->params.kind = TR_UDP6;	break;
	default:
		log_warnx("%s: network_transport not supported", ifname);
		return -ENOTSUP;
	}
	ts = cfg_get_int(nd->cfg, NULL, "time_stamping");
	switch (ts) {
	case CFG_TS_SOFTWARE:	p->params.ts_mode = TS_SOFTWARE;	break;
	case CFG_TS_HARDWARE:
	case CFG_TS_ONESTEP:
	case CFG_TS_P2P1STEP:	p->params.ts_mode = TS_HARDWARE;	break;
	default:
		log_warnx("%s: time_stamping %s is not supported by netd",
		    ifname, cfg_get_enum_name(nd->cfg, NULL, "time_stamping"));
		return -ENOTSUP;
	}
	p->params.step = port_step(nd->cfg);
	p->params.ifname = p->ifname;
	p->params.ttl = cfg_get_int(nd->cfg, ifname, "udp_ttl");
	p->params.dscp_event = cfg_get_int(nd->cfg, NULL, "dscp_event");
	p->params.dscp_general = cfg_get_int(nd->cfg, NULL, "dscp_general");
	p->params.tx_ts_timeout_ms =
	    cfg_get_int(nd->cfg, NULL, "tx_timestamp_timeout");
	port_init_peers(nd, p);
	/* Multicast groups: checked here, so a bad one fails at start. */
	p->params.dst_set = 1;
	p->params.udp6_scope = cfg_get_int(nd->cfg, ifname, "udp6_scope");
	if (port_group_mac(ifname, "ptp_dst_mac", cfg_get_str(nd->cfg, ifname,
	    "ptp_dst_mac"), p->params.primary_mac) != 0 ||
	    port_group_mac(ifname, "p2p_dst_mac", cfg_get_str(nd->cfg, ifname,
	    "p2p_dst_mac"), p->params.pdelay_mac) != 0)
		return -EINVAL;
	return 0;
}

enum transport_step
port_step(const struct cfg *cfg)
{
	switch (cli_step_mode(cfg)) {
	case CLI_ONE_STEP:	return TSTEP_ONE_SYNC;
	case CLI_P2P1STEP:	return TSTEP_ONE_P2P;
	default:		return TSTEP_TWO;
	}
}

/*
 * Hardware time stamps: the driver must still offer them and the port's
 * PHC must still be the clock's (an interface re-created under the same
 * name may sit on another NIC).  main_resolve_clock() checked the ports
 * present at start the same way.
 */
static int
port_check_phc(struct netd_port *p)
{
	struct phc_caps caps;
	char why[512];

	p->phc_index = -1;
	if (p->params.ts_mode != TS_HARDWARE)
		return 0;
	phc_probe(p->ifname, &caps);
	if (caps.err == -ENODEV)
		return 0;	/* transport_open() says so, and it is waited for */
	if (phc_port_reopen_check(&caps, p->params.kind, p->params.step,
	    p->nd->phc_index, why, sizeof(why)) != 0) {
		log_warnx("port %u: not opened: %s", p->index, why);
		return -1;
	}
	p->phc_index = caps.phc_index;
	return 0;
}

/*
 * The addresses of the port's unicast master table, and its peer_address,
 * are peers netd lets clockd send to before they were heard: a unicast
 * client speaks first (IEEE 1588-2019 16.1, its Signaling requests; the
 * P2P peer its Pdelay_Req).  Pinned after every open, since an open
 * starts a fresh peer table.  cfg_utab_check() (at start) made sure the
 * table exists and its addresses are of this port's transport.
 */
static int
port_pin_utab(struct netd_port *p)
{
	const struct cfg_utab *t = cfg_utab_port(p->nd->cfg, p->ifname);
	const struct cfg_uaddr *u;
	struct transport_addr a;
	char buf[64];
	size_t i;
	int rc;

	if (t == NULL)
		return 0;
	for (i = 0; i < t->count + (t->has_peer ? 1 : 0); i++) {
		u = i < t->count ? &t->addrs[i] : &t->peer;
		memset(&a, 0, sizeof(a));
		a.len = u->len;
		memcpy(a.b, u->b, u->len);
		if ((rc = transport_peer_pin(&p->tp.peers, &a)) < 0) {
			log_warnx("port %u (%s): cannot admit %s of unicast "
			    "master table %d: %s", p->index, p->ifname,
			    cfg_uaddr_str(u, buf, sizeof(buf)), t->table_id,
			    rc == -ENOSPC ? "peer table full (max_unicast_peers)"
			    : strerror(-rc));
			return rc;
		}
	}
	log_info("port %u: %zu address(es) of unicast master table %d "
	    "admitted", p->index, t->count + (t->has_peer ? 1 : 0),
	    t->table_id);
	return 0;
}

int
port_open(struct netd_port *p)
{
	int c, rc;

	if (p->is_open)
		return 0;
	if (port_check_phc(p) != 0)
		return -ENODEV;
	rc = transport_open(&p->tp, &p->params);
	if (rc < 0) {
		log_warnx("port %u (%s): cannot open: %s", p->index, p->ifname,
		    strerror(-rc));
		return rc;
	}
	p->tp.tx_failed = port_tx_failed;
	p->tp.tx_failed_arg = p;
	if ((rc = port_pin_utab(p)) < 0) {
		transport_close(&p->tp);
		return rc;
	}
	for (c = 0; c < TC_NUM; c++) {
		p->ev[c] = event_new(p->nd->base, transport_fd(&p->tp, c),
		    EV_READ | EV_PERSIST, port_ev_read, p);
		if (p->ev[c] == NULL || event_add(p->ev[c], NULL) != 0) {
			log_warnx("port %u: cannot watch its sockets", p->index);
			port_close(p);
			return -ENOMEM;
		}
	}
	p->is_open = 1;
	p->link_up = 1;
	log_info("port %u: %s %s, %s timestamps", p->index, p->ifname,
	    transport_kind_name(p->params.kind),
	    p->params.ts_mode == TS_HARDWARE ? "hardware" : "software");
	return 0;
}

void
port_close(struct netd_port *p)
{
	int c;

	for (c = 0; c < TC_NUM; c++) {
		if (p->ev[c] != NULL) {
			event_free(p->ev[c]);
			p->ev[c] = NULL;
		}
		p->quiet[c] = 0;
	}
	p->coalescing = 0;
	if (p->tp.fd[TC_EVENT] >= 0 || p->tp.fd[TC_GENERAL] >= 0)
		transport_close(&p->tp);
	p->is_open = 0;
	/* Timestamps still owed are reported missing, never dropped. */
	for (c = 0; c < NETD_TXMAP_MAX && p->txmap_used > 0; c++) {
		if (p->txmap[c].used) {
			p->txmap[c].used = 0;
			p->txmap_used--;
			relay_tx_failed(p, p->txmap[c].cookie);
		}
	}
}

void
port_txmap_clear(struct netd_port *p)
{
	int i;

	for (i = 0; i < NETD_TXMAP_MAX && p->txmap_used > 0; i++)
		if (p->txmap[i].used) {
			p->txmap[i].used = 0;
			p->txmap_used--;
		}
}

void
port_free(struct netd_port *p)
{
	free(p->txmap);
	p->txmap = NULL;
	p->txmap_used = 0;
}

/* The entry of ts_id: the ring is indexed by it (netd.h). */
static struct netd_txmap *
port_txmap_find(struct netd_port *p, uint32_t ts_id)
{
	struct netd_txmap *m;

	if (p->txmap == NULL)
		return NULL;
	m = &p->txmap[ts_id & (NETD_TXMAP_MAX - 1)];
	return m->used && m->ts_id == ts_id ? m : NULL;
}

/* The entry of ts_id, no longer owed: read it before the next send. */
static struct netd_txmap *
port_txmap_take(struct netd_port *p, uint32_t ts_id)
{
	struct netd_txmap *m = port_txmap_find(p, ts_id);

	if (m != NULL) {
		m->used = 0;
		p->txmap_used--;
	}
	return m;
}

/* Converts a kernel timestamp into the timescale of netd's clock. */
static int
port_convert(struct netd_port *p, struct timespec *ts)
{
	struct timespec out;
	int rc = clock_to_timescale(p->nd->clk, *ts, &out);

	if (rc == 0)
		*ts = out;
	return rc;
}

/*
 * The timestamp came: complete clockd's Follow_Up (or
 * Pdelay_Resp_Follow_Up) and send it now, in this wake-up, instead of
 * handing the timestamp to clockd and waiting for the message (netd.proto
 * TxFrame.follow_up; doc/design.md).  Returns 0 when it was sent.
 */
static int
port_send_follow_up(struct netd_port *p, struct netd_txmap *m,
    const struct transport_txts *t)
{
	uint32_t id;

	check_fu_stamp(m->fu, m->fu_len,
	    t->ts.tv_sec < 0 ? 0 : (uint64_t)t->ts.tv_sec,
	    (uint32_t)t->ts.tv_nsec);
	return transport_send(&p->tp, TC_GENERAL, &m->dst, m->fu, m->fu_len,
	    0, &id) == 0 ? 0 : -1;
}

static void
port_txts_done(struct netd_port *p, struct transport_txts *t)
{
	struct netd_txmap *m = port_txmap_take(p, t->id);

	if (m == NULL)
		return;		/* owed to a client that has gone */
	if (t->status == TXTS_OK && port_convert(p, &t->ts) != 0)
		t->status = TXTS_MISSING;
	if (m->fu_len > 0 && t->status == TXTS_OK) {
		if (port_send_follow_up(p, m, t) == 0)
			return;		/* clockd is owed nothing */
		relay_tx_failed(p, m->cookie);
		return;
	}
	relay_tx_timestamp(p, m->cookie, t);
}

/*
 * A send queued through a batch (transport_txq.c) that asked for a TX
 * time stamp failed when it left: clockd is told, as port_send() tells it
 * of one that fails at once.
 */
static void
port_tx_failed(void *arg, enum transport_class cls, uint32_t ts_id)
{
	struct netd_port *p = arg;
	struct netd_txmap *m = port_txmap_take(p, ts_id);

	(void)cls;
	if (m != NULL)
		relay_tx_failed(p, m->cookie);
}

/* Keeps clockd's follow_up template in the slot (bounded: check.c). */
static void
port_slot_keep_fu(struct netd_txmap *slot, const struct transport_dest *dst,
    const uint8_t *fu, size_t fu_len)
{
	slot->fu_len = 0;
	if (fu == NULL || fu_len == 0 || fu_len > sizeof(slot->fu))
		return;
	memcpy(slot->fu, fu, fu_len);
	slot->fu_len = fu_len;
	slot->dst = *dst;
}

/*
 * Reads the error queue for the TX timestamps owed on this socket, and
 * only while one is owed: an empty error queue costs a recvmsg that
 * returns EAGAIN, which it did before every frame.  Entries are read
 * TRANSPORT_ERRQ_BATCH to a system call (recvmmsg), so that a burst of
 * Sync time stamps costs a few calls, not one each.  Bounded, so that a
 * socket whose queue the kernel keeps filling yields to the others.
 * Returns how many entries were consumed.
 */
static int
port_read_errqueue(struct netd_port *p, enum transport_class cls, int all)
{
	struct transport_txts t[TRANSPORT_ERRQ_BATCH];
	int i, n, rc, total = 0, got;

	while (total < PORT_ERRQ_BURST) {
		if (!all && transport_tx_owed(&p->tp, cls) == 0)
			break;
		rc = transport_read_errqueue_batch(&p->tp, cls, t,
		    TRANSPORT_ERRQ_BATCH, &n);
		if (rc < 0)
			break;
		total += n;
		got = rc;
		for (i = 0; i < got; i++)
			port_txts_done(p, &t[i]);
		if (n < TRANSPORT_ERRQ_BATCH)
			break;		/* the queue is empty now */
	}
	return total;
}

/* A received frame to clockd, its time stamp on netd's clock's scale. */
static void
port_rx_deliver(struct netd_port *p, enum transport_class cls,
    struct transport_rx *rx)
{
	if (rx->have_ts && port_convert(p, &rx->ts) != 0)
		rx->have_ts = 0;
	relay_rx_frame(p, cls, rx);
}

/*
 * One wake-up of a port socket: the kernel has a frame for it, or an entry
 * on its error queue (a TX timestamp), which wakes the socket with
 * EPOLLERR, that libevent reports as EV_READ; or both.  Each wake-up
 * takes the timestamps owed, else one frame: no read probes for a second
 * frame until EAGAIN.  The socket is level-triggered, so what is left
 * wakes it again at once, after the loop has served the other sockets
 * (which is the fairness the old per-wake-up burst gave).  A wake-up that
 * finds no frame and owes no timestamp is an error-queue entry that
 * nobody waits for any more (one that came after its deadline): drained,
 * or the level-triggered EPOLLERR would wake the loop for ever.
 */
static int
port_read_one(struct netd_port *p, enum transport_class cls)
{
	struct transport_rx rx;
	uint8_t buf[PTP_MAX_MSG_LEN];
	int rc;

	if (transport_tx_owed(&p->tp, cls) > 0 &&
	    port_read_errqueue(p, cls, 0) > 0)
		return 1;
	memset(&rx, 0, sizeof(rx));
	rx.buf = buf;
	rx.cap = sizeof(buf);
	rc = transport_recv(&p->tp, cls, &rx);
	if (rc == -EAGAIN) {
		(void)port_read_errqueue(p, cls, 1);
		return 0;
	}
	if (rc <= 0)
		return 1;	/* dropped and counted by transport */
	port_rx_deliver(p, cls, &rx);
	return 1;
}

/*
 * What a coalescing socket gathered (port_rx_coalesce()): the TX stamps
 * owed, then the frames, TRANSPORT_RX_BATCH to a system call (recvmmsg),
 * until the socket is empty or about max were read.  Returns how many
 * frames were read.
 */
static int
port_read_batch(struct netd_port *p, enum transport_class cls, int max)
{
	static uint8_t buf[TRANSPORT_RX_BATCH][PTP_MAX_MSG_LEN];
	struct transport_rx rx[TRANSPORT_RX_BATCH];
	int i, n, total = 0;

	if (transport_tx_owed(&p->tp, cls) > 0)
		(void)port_read_errqueue(p, cls, 0);
	while (total < max) {
		for (i = 0; i < TRANSPORT_RX_BATCH; i++) {
			rx[i].buf = buf[i];
			rx[i].cap = sizeof(buf[i]);
		}
		if ((n = transport_recv_batch(&p->tp, cls, rx,
		    TRANSPORT_RX_BATCH)) <= 0)
			break;
		total += n;
		for (i = 0; i < n; i++) {
			if (rx[i].len > 0)	/* else dropped and counted */
				port_rx_deliver(p, cls, &rx[i]);
		}
		if (n < TRANSPORT_RX_BATCH)
			break;		/* the socket is empty */
	}
	return total;
}

static void
port_ev_read(evutil_socket_t fd, short what, void *arg)
{
	struct netd_port *p = arg;

	(void)what;
	(void)port_read_one(p, fd == transport_fd(&p->tp, TC_EVENT) ?
	    TC_EVENT : TC_GENERAL);
}

/*
 * A socket in the event loop makes the kernel wake it between the
 * software TX timestamp and the frame's departure: off the loop while it
 * sends (tstamp.c, "TX timestamps and the event loop").  Within a batch
 * of clockd's (port_batch_begin()), once for the whole batch rather than
 * twice a frame: a grandmaster's burst of Syncs costs two epoll_ctl calls
 * and one recvmmsg per NetdBatch.  1 when the socket is off the loop.
 */
static int
port_quiet_enter(struct netd_port *p, enum transport_class cls)
{
	if (p->quiet[cls])
		return 1;
	if (p->ev[cls] == NULL || event_del(p->ev[cls]) != 0)
		return 0;
	p->quiet[cls] = 1;
	return 1;
}

/*
 * The kernel queues a software TX timestamp in the sending context,
 * before the send returns: take them now, while the socket is off the
 * loop, rather than wake the loop (and run the expiry timer) for them.
 * One not there yet is reported once the socket is back in the loop.
 */
static void
port_quiet_leave(struct netd_port *p, enum transport_class cls)
{
	if (!p->quiet[cls])
		return;
	p->quiet[cls] = 0;
	(void)port_read_errqueue(p, cls, 0);
	netd_arm_tick(p->nd);	/* if one is still owed */
	if (event_add(p->ev[cls], NULL) != 0)
		log_warnx("port %u: cannot watch its %s socket again: it "
		    "receives nothing more", p->index,
		    cls == TC_EVENT ? "event" : "general");
}

/*
 * The end of a quiet send or batch on a coalescing event socket
 * (port_rx_coalesce()): it stays off the loop, so the stamps are taken
 * now, all of them: nothing would wake netd for the rest before the drain,
 * and they fill the socket's receive buffer meanwhile.  Bounded by what is
 * owed (the TX ring).
 */
static void
port_quiet_end(struct netd_port *p, enum transport_class cls)
{
	if (cls != TC_EVENT || !p->coalescing) {
		port_quiet_leave(p, cls);
		return;
	}
	while (port_read_errqueue(p, cls, 0) >= PORT_ERRQ_BURST)
		;
	netd_arm_tick(p->nd);
}

/*
 * A grandmaster's clients' Delay_Reqs come one at a time, and each woke
 * netd (at 1,000 clients at 1/s, 1,000 of its 1,165 wake-ups a second):
 * while one is held for company, the event socket stays off the loop and
 * what came meanwhile is read at the hold's end, in one wake-up, as a
 * NIC's interrupt coalescing does.  The receive time stamps are the
 * kernel's, taken on arrival, so nothing is less accurate; frames wait
 * at most the hold (outq_rx_hold(): 20 to 100 ms), which only a port that
 * receives Delay_Reqs often enough for holding ever does.
 */
int
port_rx_coalesce(struct netd_port *p)
{
	if (!p->is_open || !port_quiet_enter(p, TC_EVENT))
		return 0;
	p->coalescing = 1;
	return 1;
}

int
port_rx_drain(struct netd *nd)
{
	struct netd_port *p;
	size_t i;
	int more = 0;

	for (i = 0; i < nd->nports; i++) {
		p = &nd->ports[i];
		p->drained = 0;
		if (!p->coalescing)
			continue;
		if (!p->is_open) {
			p->coalescing = 0;
			continue;
		}
		p->drained = port_read_batch(p, TC_EVENT, PORT_DRAIN_MAX);
		/* More came than one drain reads: the socket stays off the
		 * loop, and the caller drains again soon. */
		if (p->drained >= PORT_DRAIN_MAX)
			more = 1;
	}
	return more;
}

/*
 * After a drain: with keep (what it read still called for holding), the
 * sockets stay off the loop and the next window's Delay_Reqs are read at
 * its end too, rather than the first of them waking netd to start it
 * (one wake-up, an epoll_ctl pair and a timer set per window: at 100
 * clients at 1/s a third of netd's wake-ups); a port whose drain read
 * nothing goes back all the same.  Else they go back, but a port that
 * had more than one drain reads.
 */
void
port_rx_end(struct netd *nd, int keep)
{
	struct netd_port *p;
	size_t i;

	for (i = 0; i < nd->nports; i++) {
		p = &nd->ports[i];
		if (!p->coalescing || p->drained >= PORT_DRAIN_MAX ||
		    (keep && p->drained > 0))
			continue;
		p->coalescing = 0;
		if (!nd->batching)
			port_quiet_leave(p, TC_EVENT);
	}
}

void
port_batch_begin(struct netd *nd)
{
	size_t i;

	nd->batching = 1;
	/* The batch's sends leave a socket's worth at once (sendmmsg,
	 * transport_txq.c) at port_batch_flush(). */
	for (i = 0; i < nd->nports; i++)
		if (nd->ports[i].is_open)
			transport_defer(&nd->ports[i].tp, 1);
}

void
port_batch_end(struct netd *nd)
{
	size_t i;

	port_batch_flush(nd);
	nd->batching = 0;
	for (i = 0; i < nd->nports; i++)
		if (nd->ports[i].is_open)
			transport_defer(&nd->ports[i].tp, 0);
}

void
port_batch_flush(struct netd *nd)
{
	struct netd_port *p;
	size_t i;
	int c;

	for (i = 0; i < nd->nports; i++) {
		p = &nd->ports[i];
		if (!p->is_open)
			continue;
		/* What the batch queued leaves first: its TX time stamps are
		 * then there to be read. */
		for (c = 0; c < TC_NUM; c++)
			transport_flush(&p->tp, (enum transport_class)c);
		/* A coalescing event socket stays off the loop until its
		 * drain (port_rx_drain()): back on it now, every Delay_Req
		 * that came meanwhile would wake netd once. */
		for (c = 0; c < TC_NUM; c++)
			port_quiet_end(p, (enum transport_class)c);
		/* The Follow_Ups those stamps completed, all at once. */
		transport_flush(&p->tp, TC_GENERAL);
	}
}

int
port_send(struct netd_port *p, enum transport_class cls,
    const struct transport_dest *dst, const uint8_t *payload, size_t len,
    int want_ts, uint64_t cookie, const uint8_t *fu, size_t fu_len)
{
	struct netd_txmap *slot = NULL;
	uint32_t ts_id = 0;
	int rc, quiet;

	if (!p->is_open) {
		if (want_ts)
			relay_tx_failed(p, cookie);
		return 0;	/* link down: not the client's fault */
	}
	if (dst->kind == TD_UNICAST && !transport_peer_known(&p->tp, &dst->addr))
		return PTPSEP__REFUSE_REASON__REFUSE_BAD_DESTINATION;
	if (want_ts) {
		if (p->txmap == NULL &&
		    (p->txmap = calloc(NETD_TXMAP_MAX, sizeof(*p->txmap))) == NULL) {
			relay_tx_failed(p, cookie);
			return 0;
		}
		/* The entry of the id the transport hands out next. */
		slot = &p->txmap[tstamp_tx_next_id(&p->tp) &
		    (NETD_TXMAP_MAX - 1)];
		if (slot->used) {
			/* More outstanding than the ring holds. */
			relay_tx_failed(p, cookie);
			return 0;
		}
	}
	quiet = tstamp_tx_quiet(p->params.ts_mode, want_ts) &&
	    port_quiet_enter(p, cls);
	rc = transport_send(&p->tp, cls, dst, payload, len, want_ts, &ts_id);
	if (rc == 0 && want_ts) {
		p->txmap_used++;
		slot->used = 1;
		slot->ts_id = ts_id;
		slot->cookie = cookie;
		port_slot_keep_fu(slot, dst, fu, fu_len);
		if (!quiet)
			netd_arm_tick(p->nd);
	}
	/* In a batch the socket stays off the loop until its end. */
	if (quiet && !p->nd->batching)
		port_quiet_end(p, cls);
	if (rc < 0) {
		if (rc == -EPERM)
			return PTPSEP__REFUSE_REASON__REFUSE_BAD_DESTINATION;
		/*
		 * Beyond a peer's or the port's TX limit: dropped and counted,
		 * the connection kept (a burst is not a protocol violation).
		 */
		if (rc == -EDQUOT)
			p->refused[PTPSEP__REFUSE_REASON__REFUSE_RATE_LIMITED]++;
		if (want_ts)
			relay_tx_failed(p, cookie);
	}
	return 0;
}

void
port_expire_tx(struct netd_port *p)
{
	struct transport_txts t;
	struct timespec now;

	if (!p->is_open)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	while (transport_expire_tx(&p->tp, &now, &t) == 1)
		port_txts_done(p, &t);
}

void
port_link_event(struct netd *nd, const char *ifname, int ifindex,
    int created, int up, int deleted)
{
	size_t i;

	for (i = 0; i < nd->nports; i++) {
		struct netd_port *p = &nd->ports[i];

		if (strcmp(p->ifname, ifname) != 0)
			continue;
		if (created && !deleted && p->is_open &&
		    ifindex == p->tp.ifindex) {
			/*
			 * The interface netd opened at start-up, listed by the
			 * link monitor's first dump.  nlmon reports the carrier
			 * with a separate UP right after CREATED, so take the
			 * link as down until then, without telling anyone: a
			 * down/up pair here would be a flap that never was.
			 */
			p->link_up = 0;
			continue;
		}
		if (deleted || (p->is_open && ifindex != p->tp.ifindex &&
		    created)) {
			/* The interface is gone (or is a new one). */
			log_info("port %u: %s %s", p->index, ifname,
			    deleted ? "deleted" : "re-created");
			port_close(p);
			p->link_up = 0;
			relay_link_event(p, 0);
			if (deleted)
				continue;
		}
		if ((created || up) && !p->is_open) {
			if (port_open(p) == 0) {
				p->reopens++;
				p->link_up = up;
				relay_link_event(p, 1);
			}
			continue;
		}
		if (p->is_open && p->link_up != up) {
			p->link_up = up;
			log_info("port %u: %s link %s", p->index, ifname,
			    up ? "up" : "down");
			relay_link_event(p, 0);
		}
	}
}

void
port_mac_changed(struct netd *nd, const char *ifname, int ifindex,
    const uint8_t *addr, size_t len)
{
	size_t i;

	if (len != sizeof(nd->ports[0].tp.mac))
		return;
	for (i = 0; i < nd->nports; i++) {
		struct netd_port *p = &nd->ports[i];

		if (strcmp(p->ifname, ifname) != 0 || !p->is_open ||
		    p->tp.ifindex != ifindex ||
		    memcmp(p->tp.mac, addr, len) == 0)
			continue;
		/*
		 * transport_open() read the MAC once; without this, L2
		 * frames would leave with the old source address and clockd
		 * would keep a clockIdentity (7.5.2.2.2) built from it.
		 */
		memcpy(p->tp.mac, addr, len);
		log_info("port %u: %s MAC changed", p->index, ifname);
		relay_link_event(p, 0);
	}
}

void
port_describe(struct netd_port *p, Ptpsep__Netd__Port *m, uint8_t *buf)
{
	static const Ptpsep__Netd__Port init = PTPSEP__NETD__PORT__INIT;

	*m = init;
	m->index = p->index;
	m->iface = p->ifname;
	switch (p->params.kind) {
	case TR_L2:	m->transport = PTPSEP__TRANSPORT__TRANSPORT_L2;	break;
	case TR_UDP4:	m->transport = PTPSEP__TRANSPORT__TRANSPORT_UDP_IPV4; break;
	case TR_UDP6:	m->transport = PTPSEP__TRANSPORT__TRANSPORT_UDP_IPV6; break;
	}
	m->ts_mode = p->params.ts_mode == TS_HARDWARE ?
	    PTPSEP__TIMESTAMP_MODE__TS_MODE_HARDWARE :
	    PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE;
	/* Sync is one-step in both modes (HWTSTAMP_TX_ONESTEP_P2P too). */
	m->one_step = p->params.ts_mode == TS_HARDWARE &&
	    p->params.step != TSTEP_TWO;
	m->phc_index = p->phc_index;
	m->link_up = p->is_open && p->link_up;
	if (p->is_open) {
		/* EUI-64 from the MAC, IEEE 1588-2019 7.5.2.2.2. */
		memcpy(buf, p->tp.mac, 6);
		buf[6] = p->tp.mac[0];
		buf[7] = p->tp.mac[1];
		buf[8] = p->tp.mac[2];
		buf[9] = 0xff;
		buf[10] = 0xfe;
		buf[11] = p->tp.mac[3];
		buf[12] = p->tp.mac[4];
		buf[13] = p->tp.mac[5];
		m->mac.data = buf;
		m->mac.len = 6;
		m->clock_identity.data = buf + 6;
		m->clock_identity.len = 8;
	}
}
