/*
 * node.c - a simulated host: clockd's real engine (struct clockd from
 * clockd/libclockd.a) on env.h ops served by the simulator, and the part
 * of netd it talks to (the PortList, LinkEvents; clock requests are in
 * netd_sim.c, frames in net.c).
 *
 * The engine's monotonic "now" is the simulated time (plus SIM_MONO0_NS,
 * so that it is never 0); its timers are events of the one queue.  netd's
 * clock (the model clock, model.h) belongs to the node, not to the engine:
 * a crash frees the engine and leaves the clock running at the frequency
 * netd last set, as netd keeps its clock when clockd dies.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "clockd/clockd.h"
#include "ipc.h"		/* IPC_BATCH_MAX */
#include "log.h"
#include "sim.h"

/* The env_timer of env.h, here an event of the simulator's queue. */
struct env_timer {
	struct sim_ev		 ev;	/* first: the queue holds &ev */
	struct sim_node		*n;
	env_timer_cb		 cb;
	void			*arg;
	struct env_timer	*prev, *next;	/* the node's live timers */
};

/* ---- env ops (ctx: the struct sim_node) ---- */

static int64_t
ne_now(void *ctx)
{
	struct sim_node *n = ctx;

	return SIM_MONO0_NS + n->sim->now;
}

static struct env_timer *
ne_timer_new(void *ctx, env_timer_cb cb, void *arg)
{
	struct sim_node *n = ctx;
	struct env_timer *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->ev.kind = SE_TIMER;
	t->ev.idx = -1;
	t->n = n;
	t->cb = cb;
	t->arg = arg;
	t->next = n->timers;
	if (n->timers != NULL)
		n->timers->prev = t;
	n->timers = t;
	return t;
}

static void
ne_timer_free(void *ctx, struct env_timer *t)
{
	struct sim_node *n = ctx;

	evq_remove(&n->sim->q, &t->ev);
	if (t->prev != NULL)
		t->prev->next = t->next;
	else
		n->timers = t->next;
	if (t->next != NULL)
		t->next->prev = t->prev;
	free(t);
}

static void
ne_timer_arm(void *ctx, struct env_timer *t, int64_t delay_ns)
{
	struct sim_node *n = ctx;

	evq_remove(&n->sim->q, &t->ev);
	if (evq_push(&n->sim->q, &t->ev, n->sim->now + delay_ns) != 0)
		fatalx("ptpsim: out of memory");
}

static void
ne_timer_cancel(void *ctx, struct env_timer *t)
{
	struct sim_node *n = ctx;

	evq_remove(&n->sim->q, &t->ev);
}

static int
ne_timer_pending(void *ctx, const struct env_timer *t)
{
	(void)ctx;
	return t->ev.idx >= 0;
}

static void
ne_netd_start(void *ctx)
{
	struct sim_node *n = ctx;
	struct sim_msg *m = sim_msg_get(n->sim, SE_CONNECT, n);

	if (evq_push(&n->sim->q, &m->ev, n->sim->now + SIM_CONNECT_NS) != 0)
		fatalx("ptpsim: out of memory");
}

static int
ne_netd_ready(void *ctx)
{
	struct sim_node *n = ctx;

	return n->connected;
}

static int
ne_send_frame(void *ctx, unsigned port, int event, enum netd_dest dest,
    const struct netd_addr *unicast, const uint8_t *payload, size_t len,
    uint64_t cookie, int want_ts, const uint8_t *fu, size_t fu_len)
{
	struct sim_node *n = ctx;
	const uint8_t *dst = NULL;
	const char *why;

	if (!n->connected)
		return -1;
	if (netd_sim_check_frame(n, port, event, dest, unicast, payload, len,
	    want_ts, fu, fu_len, &why) != 0) {
		node_netd_close(n, why);
		return -1;
	}
	if (dest == NETD_DEST_UNICAST) {
		/* Only L2 is simulated: a unicast address is a MAC. */
		if (unicast == NULL || unicast->len != 6 ||
		    unicast->family != NETD_AF_MAC)
			return -1;
		dst = unicast->b;
	}
	n->out_n++;
	return net_send(n, port, event, (int)dest, dst, payload, len, cookie,
	    want_ts, fu, fu_len);
}

static int
ne_clock_read(void *ctx, uint64_t id)
{
	struct sim_node *n = ctx;

	if (!n->connected)
		return -1;
	n->out_n++;
	return netd_sim_request(n, id, SIM_CLK_READ, 0.0, 0);
}

static int
ne_clock_adjfreq(void *ctx, uint64_t id, double ppb)
{
	struct sim_node *n = ctx;

	if (!n->connected)
		return -1;
	n->out_n++;
	return netd_sim_request(n, id, SIM_CLK_ADJFREQ, ppb, 0);
}

static int
ne_clock_step(void *ctx, uint64_t id, int64_t ns)
{
	struct sim_node *n = ctx;

	if (!n->connected)
		return -1;
	n->out_n++;
	return netd_sim_request(n, id, SIM_CLK_STEP, 0.0, ns);
}

/* The system clock's requests and the compares (sysclk.c). */
static int
ne_clock_req(void *ctx, const struct netd_clock_req *q)
{
	struct sim_node *n = ctx;

	if (!n->connected)
		return -1;
	n->out_n++;
	return netd_sim_clock_req(n, q);
}

static const struct env_ops node_env_ops = {
	.now = ne_now,
	.timer_new = ne_timer_new,
	.timer_free = ne_timer_free,
	.timer_arm = ne_timer_arm,
	.timer_cancel = ne_timer_cancel,
	.timer_pending = ne_timer_pending,
	.netd_start = ne_netd_start,
	.netd_ready = ne_netd_ready,
	.send_frame = ne_send_frame,
	.clock_read = ne_clock_read,
	.clock_adjfreq = ne_clock_adjfreq,
	.clock_step = ne_clock_step,
	.clock_req = ne_clock_req,
};

/* ---- the node's configuration ---- */

struct buf {
	char	*s;
	size_t	 len, cap;
};

static int
buf_add(struct buf *b, const char *a, const char *c, const char *d)
{
	size_t need = strlen(a) + strlen(c) + strlen(d) + 1;

	if (b->len + need >= b->cap) {
		size_t cap = (b->cap + need) * 2;
		char *s = realloc(b->s, cap);

		if (s == NULL)
			return -1;
		b->s = s;
		b->cap = cap;
	}
	b->len += (size_t)snprintf(b->s + b->len, b->cap - b->len, "%s%s%s",
	    a, c, d);
	return 0;
}

static void
node_cfg_diag(void *arg, const struct cfg_diag *d)
{
	const struct sim_node *n = arg;

	fprintf(stderr, "%s: node %s: %s: %s\n", n->sim->sc.path,
	    n->spec->name, d->severity == CFG_SEV_ERROR ? "error" : "warning",
	    d->text);
}

/*
 * The node's keys as a ptp4l.conf: [global] with clock_device virtual
 * (what the tests run: netd's clock in the clockd timescale) and the
 * node's keys, then one [LINK] section per port with its "@LINK" keys.
 */
static int
node_cfg(struct sim_node *n)
{
	const struct sim_node_spec *ns = n->spec;
	const struct sim_scenario *sc = &n->sim->sc;
	struct buf b = { NULL, 0, 0 };
	unsigned p;
	size_t i;
	int rc = -1;

	if ((n->cfg = cfg_new()) == NULL)
		return -1;
	cfg_set_diag(n->cfg, node_cfg_diag, n);
	if (buf_add(&b, "[global]\n", "clock_device virtual\n", "") != 0)
		goto out;
	for (i = 0; i < ns->nkv; i++)
		if (ns->kv[i].port == NULL && (buf_add(&b, ns->kv[i].key, " ",
		    ns->kv[i].value) != 0 || buf_add(&b, "\n", "", "") != 0))
			goto out;
	for (p = 0; p < n->nports; p++) {
		const char *ln = sc->links[n->ports[p].link].name;

		if (buf_add(&b, "[", ln, "]\n") != 0)
			goto out;
		for (i = 0; i < ns->nkv; i++)
			if (ns->kv[i].port != NULL &&
			    strcmp(ns->kv[i].port, ln) == 0 &&
			    (buf_add(&b, ns->kv[i].key, " ",
			    ns->kv[i].value) != 0 ||
			    buf_add(&b, "\n", "", "") != 0))
				goto out;
	}
	if (cfg_load_buffer(n->cfg, ns->name, b.s, b.len) != 0 ||
	    cfg_error_count(n->cfg) > 0)
		goto out;
	for (p = 0; p < n->nports; p++)
		if (cfg_add_port(n->cfg, sc->links[n->ports[p].link].name) < 0)
			goto out;
	rc = 0;
out:
	free(b.s);
	return rc;
}

/* ---- life of a node ---- */

int
node_init(struct sim *sim, struct sim_node *n, unsigned index)
{
	const struct sim_scenario *sc = &sim->sc;
	const char *tsname;
	unsigned l, e;
	int kind;

	memset(n, 0, sizeof(*n));
	n->st.gm_change_t = -1;
	n->st.slave_t = -1;
	n->sim = sim;
	n->index = index;
	n->spec = &sc->nodes[index];
	n->env.ops = &node_env_ops;
	n->env.ctx = n;
	/* Ports in file order of the links; locally administered MACs that
	 * name the node and port, the clockIdentity from the first (EUI-64,
	 * 7.5.2.2.2), so that BMCA ties break by file order. */
	for (l = 0; l < sc->nlinks; l++)
		for (e = 0; e < sc->links[l].nends; e++) {
			struct sim_port *p;

			if (sc->links[l].ends[e] != index)
				continue;
			p = &n->ports[n->nports];
			p->link = l;
			p->end = e;
			p->mac[0] = 0x02;
			p->mac[1] = 0x00;
			p->mac[2] = (uint8_t)(index >> 8);
			p->mac[3] = (uint8_t)index;
			p->mac[4] = (uint8_t)n->nports;
			p->mac[5] = 0x01;
			sim->links[l].end_port[e] = n->nports;
			n->nports++;
		}
	memcpy(n->clock_id, n->ports[0].mac, 3);
	n->clock_id[3] = 0xff;
	n->clock_id[4] = 0xfe;
	memcpy(n->clock_id + 5, n->ports[0].mac + 3, 3);
	if (node_cfg(n) != 0) {
		fprintf(stderr, "%s: node %s: bad configuration\n", sc->path,
		    n->spec->name);
		return -1;
	}
	n->has_sys = cfg_get_int(n->cfg, NULL, "sync_system_clock") != 0;
	if (netd_sim_init(n) != 0)
		return -1;
	/* Streams: 0x100 + node for its clock, 0x200 + node for its time
	 * stamps, 0x300 + link for links (net.c), 0x400 + node for its
	 * system clock, 0x500 + node for its compares. */
	sim_rng_seed(&n->rng_clock, sc->seed, 0x100 + index);
	sim_rng_seed(&n->rng_ts, sc->seed, 0x200 + index);
	sim_clock_init(&n->clock, sim_true_ns(sim), n->spec->offset_ns,
	    n->spec->freq_ppb, n->spec->wander, &n->rng_clock);
	kind = n->spec->ts_kind;
	if (kind < 0) {
		tsname = cfg_get_enum_name(n->cfg, NULL, "time_stamping");
		kind = tsname != NULL && strcmp(tsname, "software") == 0 ?
		    SIM_TS_SW : SIM_TS_HW;
	}
	sim_ts_model_default(&n->ts, (enum sim_ts_kind)kind);
	scenario_ts_apply(n->spec, &n->ts);
	if (n->has_sys) {
		/* What netd would compare: a PHC beside CLOCK_REALTIME with
		 * hardware stamps (most NICs' drivers offer _EXTENDED), the
		 * virtual pair of sysclk.sh with software ones. */
		int sk = n->spec->sysoff_kind;

		if (sk < 0)
			sk = kind == SIM_TS_HW ? SIM_SYSOFF_EXTENDED :
			    SIM_SYSOFF_SAME_BASE;
		sim_rng_seed(&n->rng_sys, sc->seed, 0x400 + index);
		sim_rng_seed(&n->rng_cmp, sc->seed, 0x500 + index);
		/* on the true time axis, reading UTC */
		sim_clock_init(&n->sys, sim_true_ns(sim),
		    n->spec->sys_offset_ns - (sim_true_ns(sim) -
		    sim_true_utc_ns(sim)), n->spec->sys_freq_ppb,
		    n->spec->sys_wander, &n->rng_sys);
		sim_sysoff_model_default(&n->cmp, (enum sim_sysoff_kind)sk);
		scenario_sysoff_apply(n->spec, &n->cmp);
		sim->any_sys = 1;
	}
	return 0;
}

int
node_start(struct sim_node *n)
{
	unsigned i;

	if (n->c != NULL)
		return 0;
	n->connected = 0;
	for (i = 0; i < SIM_MAX_PORTS; i++)
		n->last_state[i] = 0;
	if ((n->c = calloc(1, sizeof(*n->c))) == NULL)
		return -1;
	if (clock_init(n->c, &n->env, n->cfg) != 0) {
		fprintf(stderr, "node %s: clock_init failed\n", n->spec->name);
		return -1;
	}
	return 0;
}

void
node_crash(struct sim_node *n)
{
	unsigned leaked = 0;

	if (n->c == NULL)
		return;
	clock_fini(n->c);
	free(n->c);
	n->c = NULL;
	/* Timers clock_fini() left behind would fire into freed memory. */
	while (n->timers != NULL) {
		ne_timer_free(n, n->timers);
		leaked++;
	}
	if (leaked > 0)
		fprintf(stderr, "node %s: clock_fini left %u timer(s)\n",
		    n->spec->name, leaked);
	n->connected = 0;
	n->epoch++;
	n->st.crashes++;
}

void
node_fini(struct sim_node *n)
{
	node_crash(n);	/* after the summary: not counted there */
	netd_sim_fini(n);
	cfg_free(n->cfg);
	n->cfg = NULL;
	free(n->st.step_t);
	n->st.step_t = NULL;
}

unsigned
node_port_of_link(const struct sim_node *n, const char *link)
{
	unsigned i;

	for (i = 0; i < n->nports; i++)
		if (strcmp(n->sim->links[n->ports[i].link].spec->name,
		    link) == 0)
			return i;
	return n->nports;
}

int64_t
node_clock_now(struct sim_node *n)
{
	return sim_clock_read(&n->clock, sim_true_ns(n->sim));
}

int64_t
node_sys_now(struct sim_node *n)
{
	return sim_clock_read(&n->sys, sim_true_ns(n->sim));
}

void
node_after_event(struct sim_node *n)
{
	static const uint8_t none[8];
	unsigned i;

	/*
	 * The outbox of netd_client.c: what the engine sent during this
	 * event leaves after it, one datagram per IPC_BATCH_MAX messages
	 * (netd_sim.c has checked and acted on each already, as netd acts
	 * on a batch's messages in order).
	 */
	n->st.wakeups += n->woke != 0;
	n->st.to_netd += (n->out_n + IPC_BATCH_MAX - 1) / IPC_BATCH_MAX;
	n->st.to_netd_msgs += n->out_n;
	n->woke = 0;
	n->out_n = 0;
	if (n->c == NULL)
		return;
	if (memcmp(n->c->pds.gm_identity, n->last_gm, 8) != 0 &&
	    memcmp(n->c->pds.gm_identity, none, 8) != 0) {
		if (memcmp(n->last_gm, none, 8) != 0) {
			n->st.gm_changes++;
			n->st.gm_change_t = n->sim->now;
		}
		memcpy(n->last_gm, n->c->pds.gm_identity, 8);
	}
	for (i = 0; i < n->c->nports && i < SIM_MAX_PORTS; i++)
		if ((int)n->c->ports[i].state != n->last_state[i]) {
			if (n->last_state[i] != 0)
				n->st.state_changes++;
			n->last_state[i] = (int)n->c->ports[i].state;
			if (n->st.slave_t < 0 &&
			    (n->c->ports[i].state == PS_UNCALIBRATED ||
			    n->c->ports[i].state == PS_SLAVE))
				n->st.slave_t = n->sim->now;
		}
}

void
node_ev_timer(struct sim_ev *ev)
{
	struct env_timer *t = (struct env_timer *)ev;

	t->n->woke = 1;
	t->cb(t->arg);
}

struct sim_node *
node_of_timer(struct sim_ev *ev)
{
	return ((struct env_timer *)ev)->n;
}

/* netd's Hello and PortList (relay.c relay_send_port_list()). */
void
node_ev_connect(struct sim_node *n)
{
	struct netd_port_desc ports[SIM_MAX_PORTS];
	struct netd_port_list pl;
	unsigned i;

	memset(&pl, 0, sizeof(pl));
	memset(ports, 0, sizeof(ports));	/* two-step, no PHC, ... */
	for (i = 0; i < n->nports; i++) {
		struct sim_link *l = &n->sim->links[n->ports[i].link];

		ports[i].iface = l->spec->name;
		ports[i].transport = NETD_TR_L2;
		ports[i].link_up = l->up;
		ports[i].clock_identity = n->clock_id;
	}
	pl.ports = ports;
	pl.nports = n->nports;
	pl.have_clock = 1;
	pl.clock.phc_index = -1;	/* the sim's netd has no PHC */
	netd_sim_clock_info(n, &pl.clock.max_freq_ppb,
	    &pl.clock.step_allowed, &pl.clock.max_step_ns,
	    &pl.clock.min_adj_interval_ms);
	/* netd/main.c: a PTP clock beside a system clock counts TAI */
	pl.clock.ptp_timescale = n->has_sys;
	pl.have_sys_clock = netd_sim_sys_info(n, &pl.sys_clock) == 0;
	n->connected = 1;
	n->woke = 1;
	clock_netd_cbs.connected(n->c, &pl);
}

/* netd_client.c's first retry after a lost connection (NC_BACKOFF_MIN_MS). */
#define NODE_RECONNECT_NS	100000000

/* The connection ends under clockd; it notices at once (EOF). */
static void
node_disconnect(struct sim_node *n)
{
	struct sim_msg *m;

	n->connected = 0;
	n->epoch++;
	m = sim_msg_get(n->sim, SE_DISCONNECT, n);
	if (evq_push(&n->sim->q, &m->ev, n->sim->now) != 0)
		fatalx("ptpsim: out of memory");
}

void
node_netd_close(struct sim_node *n, const char *why)
{
	if (!n->connected)
		return;
	n->st.netd_closes++;
	fprintf(stderr, "%.6f node %s: netd closes the connection: %s\n",
	    (double)n->sim->now / 1e9, n->spec->name, why);
	node_disconnect(n);
}

void
node_netd_restart(struct sim_node *n)
{
	struct sim_clock *k = &n->clock;

	/* A clockd still connecting or waiting to retry simply gets the new
	 * netd at its next attempt; a connected one loses it. */
	if (n->connected)
		node_disconnect(n);
	netd_sim_bounds_reset(n);
	(void)sim_clock_read(k, sim_true_ns(n->sim));
	k->phase = sim_true_ns(n->sim) + n->spec->offset_ns;
	k->frac = 0.0;
	sim_clock_adjfreq(k, sim_true_ns(n->sim), 0.0);
	n->adj_ppb = 0.0;
	if (!n->has_sys)
		return;
	/* and its system clock, virtual as the PTP clock is */
	netd_sim_sys_reset(n);
	k = &n->sys;
	(void)sim_clock_read(k, sim_true_ns(n->sim));
	k->phase = sim_true_utc_ns(n->sim) + n->spec->sys_offset_ns;
	k->frac = 0.0;
	sim_clock_adjfreq(k, sim_true_ns(n->sim), 0.0);
	n->sys_adj_ppb = 0.0;
}

/* clockd reads EOF: its ports go FAULTY; it reconnects later. */
void
node_ev_disconnect(struct sim *sim, struct sim_msg *m)
{
	struct sim_node *n = &sim->nodes[m->node];
	struct sim_msg *c;

	if (n->c == NULL || m->epoch != n->epoch)
		return;
	clock_netd_cbs.disconnected(n->c);
	c = sim_msg_get(sim, SE_CONNECT, n);
	if (evq_push(&sim->q, &c->ev, sim->now + NODE_RECONNECT_NS) != 0)
		fatalx("ptpsim: out of memory");
}

void
node_link_changed(struct sim_node *n, unsigned port)
{
	struct sim_msg *m = sim_msg_get(n->sim, SE_LINK_EVENT, n);

	m->port = port;
	m->ok = n->sim->links[n->ports[port].link].up;
	if (evq_push(&n->sim->q, &m->ev, n->sim->now + SIM_LINK_EVENT_NS) != 0)
		fatalx("ptpsim: out of memory");
}

void
node_ev_link_event(struct sim *sim, struct sim_msg *m)
{
	struct sim_node *n = &sim->nodes[m->node];
	struct netd_link_event e;

	if (n->c == NULL || !n->connected || m->epoch != n->epoch)
		return;
	e.port = m->port;
	e.up = m->ok;
	n->woke = 1;
	clock_netd_cbs.link_event(n->c, &e);
}

/* netd's ClockReply reaches the clockd that asked (netd_sim.c acted). */
void
node_ev_clock_reply(struct sim *sim, struct sim_msg *m)
{
	struct sim_node *n = &sim->nodes[m->node];
	struct netd_clock_reply rep;

	if (n->c == NULL || !n->connected || m->epoch != n->epoch)
		return;
	memset(&rep, 0, sizeof(rep));
	rep.id = m->cookie;
	rep.ok = m->ok;
	/* netd's RefuseReason (check_refuse_reason()) as netd_client.c
	 * translates it */
	rep.refusal = m->ok ? CR_NONE :
	    netd_refusal_of((Ptpsep__RefuseReason)m->reason);
	rep.have_now = 1;
	rep.now.sec = (uint64_t)(m->ts / SIM_NSEC);
	rep.now.nsec = (uint32_t)(m->ts % SIM_NSEC);
	rep.freq_ppb = m->ppb;
	rep.system_clock = m->sys;
	if (m->have_cmp) {
		rep.have_offset = 1;
		rep.offset.sys_minus_ptp_ns = m->cmp_ns;
		rep.offset.have_ptp_time = m->cmp_ptp_ns >= 0;
		rep.offset.ptp_time.sec = (uint64_t)(m->cmp_ptp_ns / SIM_NSEC);
		rep.offset.ptp_time.nsec = (uint32_t)(m->cmp_ptp_ns % SIM_NSEC);
		rep.offset.delay_ns = m->cmp_delay;
		rep.offset.method = (enum netd_sysoff)m->cmp_method;
	}
	n->woke = 1;
	clock_netd_cbs.clock_reply(n->c, &rep);
}
