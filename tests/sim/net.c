/*
 * net.c - ptpsim's links: what netd's sockets and the wire do to a frame.
 *
 * A frame sent on a port goes to every other end of the port's link
 * (multicast; a unicast frame to the end with that MAC), each copy with
 * its own loss draw and delay (model.h), in the order sent: from one end
 * to another a link is a FIFO (queues delay frames, never reorder them),
 * and frames due at the same nanosecond arrive in the order sent.  Its receive time stamp is taken
 * when it arrives, from the receiver's clock and time-stamp model; the
 * sender's TX time stamp, when asked for, from the sender's clock at the
 * send, reaches the engine a little later, as netd's error-queue read
 * does.  A link that is down carries nothing, also not the frames on it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "clockd/clockd.h"
#include "log.h"
#include "sim.h"

/* TX time stamp to engine: the error queue read and the relay. */
#define NET_TXTS_HW_NS	1000
#define NET_TXTS_SW_NS	4000

struct sim_msg *
sim_msg_get(struct sim *sim, enum sim_ev_kind kind, const struct sim_node *n)
{
	struct sim_msg *m = sim->free_msgs;

	if (m != NULL)
		sim->free_msgs = m->next;
	else if ((m = malloc(sizeof(*m))) == NULL)
		fatalx("ptpsim: out of memory");
	m->ev.kind = kind;
	m->ev.idx = -1;
	m->node = n != NULL ? n->index : 0;
	m->epoch = n != NULL ? n->epoch : 0;
	m->port = 0;
	m->ok = 0;
	m->len = 0;
	m->sys = 0;
	m->have_cmp = 0;
	return m;
}

void
sim_msg_put(struct sim *sim, struct sim_msg *m)
{
	m->next = sim->free_msgs;
	sim->free_msgs = m;
}

static void
push(struct sim *sim, struct sim_msg *m, int64_t t)
{
	if (evq_push(&sim->q, &m->ev, t) != 0)
		fatalx("ptpsim: out of memory");
}

static void
ns_to_ts(int64_t ns, struct ptp_timestamp *ts)
{
	ts->sec = (uint64_t)(ns / SIM_NSEC);
	ts->nsec = (uint32_t)(ns % SIM_NSEC);
}

int
net_send(struct sim_node *n, unsigned port, int event, int dest,
    const uint8_t *dst_mac, const uint8_t *payload, size_t len,
    uint64_t cookie, int want_ts, const uint8_t *fu, size_t fu_len)
{
	struct sim *sim = n->sim;
	struct sim_link *l;
	unsigned e, me;
	int dir;

	(void)dest;
	/* netd's check_send_frame() would close the connection. */
	if (port >= n->nports || len > SIM_PAYLOAD_MAX ||
	    fu_len > SIM_PAYLOAD_MAX)
		fatalx("ptpsim: node %s sent a frame netd refuses (port %u, "
		    "%zu bytes)", n->spec->name, port, len);
	l = &sim->links[n->ports[port].link];
	me = n->ports[port].end;
	if (want_ts) {
		struct sim_msg *m = sim_msg_get(sim, SE_TXTS, n);

		m->port = port;
		m->cookie = cookie;
		m->ok = l->up;
		m->len = fu != NULL ? fu_len : 0;
		if (m->len > 0)
			memcpy(m->payload, fu, m->len);
		if (l->up)
			m->ts = sim_ts_stamp(&n->ts, &n->rng_ts,
			    node_clock_now(n), 0);
		push(sim, m, sim->now + (n->spec->txts_ns >= 0 ?
		    n->spec->txts_ns : n->ts.kind == SIM_TS_HW ?
		    NET_TXTS_HW_NS : NET_TXTS_SW_NS));
	}
	if (!l->up)
		return 0;
	dir = me == 0 ? 0 : 1;
	for (e = 0; e < l->spec->nends; e++) {
		struct sim_node *to = &sim->nodes[l->spec->ends[e]];
		unsigned tp = l->end_port[e];
		struct sim_msg *m;
		int64_t at;

		if (e == me)
			continue;
		if (dst_mac != NULL && memcmp(dst_mac, to->ports[tp].mac, 6))
			continue;
		l->frames++;
		if (sim_link_lost(&l->model, &l->rng)) {
			l->lost++;
			continue;
		}
		m = sim_msg_get(sim, SE_FRAME, to);
		m->port = tp;
		m->event = event;
		memcpy(m->src_mac, n->ports[port].mac, 6);
		memcpy(m->payload, payload, len);
		m->len = len;
		at = sim->now + sim_link_delay(&l->model, &l->rng, dir);
		if (at < l->last_arrival[me][e])
			at = l->last_arrival[me][e];
		l->last_arrival[me][e] = at;
		push(sim, m, at);
	}
	return 0;
}

/* A frame arrives: netd stamps it and relays it (RxFrame). */
void
net_ev_frame(struct sim *sim, struct sim_msg *m)
{
	struct sim_node *n = &sim->nodes[m->node];
	struct sim_link *l = &sim->links[n->ports[m->port].link];
	struct netd_rx f;

	if (!l->up || n->c == NULL || !n->connected)
		return;
	f.port = m->port;
	f.event = m->event;
	f.payload = m->payload;
	f.len = m->len;
	f.have_ts = m->event;
	if (m->event)
		ns_to_ts(sim_ts_stamp(&n->ts, &n->rng_ts, node_clock_now(n), 1),
		    &f.ts);
	else
		f.ts.sec = f.ts.nsec = 0;
	f.src_family = NETD_AF_MAC;
	f.src = m->src_mac;
	f.src_len = 6;
	n->woke = 1;
	clock_netd_cbs.rx_frame(n->c, &f);
}

/* The TX time stamp reaches the engine that asked for it. */
void
net_ev_txts(struct sim *sim, struct sim_msg *m)
{
	struct sim_node *n = &sim->nodes[m->node];
	struct netd_txts t;

	/* netd forgets what it owed a clockd that went away. */
	if (n->c == NULL || !n->connected || m->epoch != n->epoch)
		return;
	t.cookie = m->cookie;
	t.port = m->port;
	t.ok = m->ok;
	if (m->ok)
		ns_to_ts(m->ts, &t.ts);
	else
		t.ts.sec = t.ts.nsec = 0;
	if (m->ok && m->len > 0) {
		/* netd sends the follow-up itself; the engine hears of the
		 * timestamp only when that fails (link down since). */
		if (sim->links[n->ports[m->port].link].up &&
		    netd_sim_follow_up(n, m, &t.ts) == 0)
			return;
		t.ok = 0;
		t.ts.sec = t.ts.nsec = 0;
	}
	n->woke = 1;
	clock_netd_cbs.tx_timestamp(n->c, &t);
}

void
net_link_set(struct sim *sim, unsigned link, int up)
{
	struct sim_link *l = &sim->links[link];
	unsigned e;

	if (!l->up == !up)
		return;
	l->up = up ? 1 : 0;
	for (e = 0; e < l->spec->nends; e++)
		node_link_changed(&sim->nodes[l->spec->ends[e]],
		    l->end_port[e]);
}
