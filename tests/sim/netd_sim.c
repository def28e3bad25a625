/*
 * netd_sim.c - netd's clock requests in ptpsim: the same bounds netd
 * enforces (netd/clock_bounds.c: clock_bounds_from_cfg(),
 * clock_check_request(), the same RefuseReason mapping, check.c), applied
 * to the node's model clock, with the latency of the socket both ways;
 * TxFrames go through netd's check_send_frame() and ClockRequests through
 * check_clock_request() first: a violation closes the connection, as in
 * netd (relay.c).
 * netd's rate windows are on its monotonic clock: here simulated time.
 */
#include "config.h"

#include <stdlib.h>

#include "log.h"
#include "netd/netd.h"
#include "sim.h"

static struct clock_bounds *
bounds(const struct sim_node *n)
{
	return n->bounds;
}

int
netd_sim_init(struct sim_node *n)
{
	char why[256];

	n->bounds = calloc(1, sizeof(struct clock_bounds));
	n->bstate = calloc(1, sizeof(struct clock_bounds_state));
	if (n->bounds == NULL || n->bstate == NULL)
		return -1;
	if (clock_bounds_from_cfg(n->cfg, n->bounds, why, sizeof(why)) != 0) {
		fprintf(stderr, "node %s: %s\n", n->spec->name, why);
		return -1;
	}
	clock_bounds_state_init(n->bstate);
	return 0;
}

void
netd_sim_bounds_reset(struct sim_node *n)
{
	clock_bounds_state_init(n->bstate);
}

void
netd_sim_fini(struct sim_node *n)
{
	free(n->bounds);
	free(n->bstate);
	n->bounds = n->bstate = NULL;
}

void
netd_sim_clock_info(const struct sim_node *n, double *max_freq_ppb,
    int *step_allowed, int64_t *max_step_ns, uint32_t *min_adj_ms)
{
	const struct clock_bounds *b = bounds(n);
	int64_t ms = b->min_adj_interval_ns / 1000000;

	*max_freq_ppb = b->max_freq_ppb;
	*step_allowed = b->allow_step;
	*max_step_ns = b->max_step_ns;
	*min_adj_ms = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

/* Every simulated port is L2 (no transports in the simulator). */
static enum transport_kind
netd_sim_kind(void *arg, unsigned port)
{
	(void)arg;
	(void)port;
	return TR_L2;
}

/* The TxFrame netd_client.c would send, through netd's own check. */
int
netd_sim_check_frame(const struct sim_node *n, unsigned port, int event,
    enum netd_dest dest, const struct netd_addr *unicast,
    const uint8_t *payload, size_t len, int want_ts, const uint8_t *fu,
    size_t fu_len, const char **why)
{
	Ptpsep__Netd__TxFrame f = PTPSEP__NETD__TX_FRAME__INIT;
	Ptpsep__Netd__Address a = PTPSEP__NETD__ADDRESS__INIT;
	enum transport_class cls;
	struct transport_dest dst;
	int reason;

	netd_tx_frame_fill(&f, &a, port, event, dest, unicast, payload, len, 0,
	    want_ts, fu, fu_len);
	return check_send_frame(&f, n->nports, netd_sim_kind, NULL, &cls,
	    &dst, &reason, why) == CHECK_OK ? 0 : -1;
}

/*
 * The TX timestamp is in: netd writes it into the follow-up it holds and
 * sends that at once, on the general socket to the event frame's
 * (multicast) destination, and tells clockd nothing (port_txts_done()).
 */
int
netd_sim_follow_up(struct sim_node *n, struct sim_msg *m,
    const struct ptp_timestamp *ts)
{
	check_fu_stamp(m->payload, m->len, ts->sec, ts->nsec);
	return net_send(n, m->port, 0, NETD_DEST_PRIMARY, NULL, m->payload,
	    m->len, 0, 0, NULL, 0);
}

int
netd_sim_request(struct sim_node *n, uint64_t id, enum sim_clk_op op,
    double ppb, int64_t step_ns)
{
	struct sim_msg *m = sim_msg_get(n->sim, SE_CLOCK_REQ, n);

	m->cookie = id;
	m->op = (int)op;
	m->ppb = ppb;
	m->step_ns = step_ns;
	if (evq_push(&n->sim->q, &m->ev, n->sim->now + SIM_CLOCK_REQ_NS) != 0)
		fatalx("ptpsim: out of memory");
	return 0;
}

static void
record_step(struct sim_node *n)
{
	struct sim_node_stats *st = &n->st;

	st->steps++;
	if (st->nstep_t == st->capstep_t) {
		size_t cap = st->capstep_t ? 2 * st->capstep_t : 16;
		int64_t *t = realloc(st->step_t, cap * sizeof(*t));

		if (t == NULL)
			fatalx("ptpsim: out of memory");
		st->step_t = t;
		st->capstep_t = cap;
	}
	st->step_t[st->nstep_t++] = n->sim->now;
}

/*
 * netd acts on the request (relay_clock_request()): whether or not the
 * clockd that sent it is still there, as netd reads what was queued; not
 * after netd itself closed that connection.  Replies as netd does
 * (clock_reply_due()): not to an accepted frequency change.
 */
void
netd_sim_ev_request(struct sim *sim, struct sim_msg *m)
{
	struct sim_node *n = &sim->nodes[m->node];
	enum clock_status st = CLOCK_ST_OK;
	struct clock_req req = { .op = CLOCK_OP_ADJFREQ };
	struct sim_msg *r;
	int is_read = 1;

	if (m->epoch != n->epoch)
		return;		/* netd closed that connection */
	if (m->op != SIM_CLK_READ) {
		Ptpsep__Netd__ClockRequest cr =
		    PTPSEP__NETD__CLOCK_REQUEST__INIT;
		Ptpsep__Netd__ClockAdjFreq af =
		    PTPSEP__NETD__CLOCK_ADJ_FREQ__INIT;
		Ptpsep__Netd__ClockStep cs = PTPSEP__NETD__CLOCK_STEP__INIT;
		const char *why;

		/* What netd checks before its bounds (check.c). */
		cr.id = m->cookie;
		if (m->op == SIM_CLK_STEP) {
			cs.offset_ns = m->step_ns;
			cr.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_STEP;
			cr.step = &cs;
		} else {
			af.freq_ppb = m->ppb;
			cr.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ;
			cr.adj_freq = &af;
		}
		if (check_clock_request(&cr, &req, &is_read, &why) !=
		    CHECK_OK) {
			node_netd_close(n, why);
			return;
		}
		st = clock_check_request(n->bounds, n->bstate, &req, sim->now);
		if (st != CLOCK_ST_OK) {
			n->st.refusals++;
		} else if (req.op == CLOCK_OP_ADJFREQ) {
			sim_clock_adjfreq(&n->clock, sim_true_ns(sim),
			    req.freq_ppb);
			n->adj_ppb = req.freq_ppb;
			clock_bounds_record_adj(n->bstate, sim->now);
			n->st.adjs++;
		} else {
			sim_clock_step(&n->clock, sim_true_ns(sim),
			    req.step_ns);
			clock_bounds_record_step(n->bstate, sim->now);
			record_step(n);
		}
	}
	/* An accepted frequency change is not answered, as in netd. */
	if (!clock_reply_due(is_read, &req, st == CLOCK_ST_OK))
		return;
	r = sim_msg_get(sim, SE_CLOCK_REPLY, n);
	r->epoch = m->epoch;
	r->cookie = m->cookie;
	r->ok = st == CLOCK_ST_OK;
	r->reason = st == CLOCK_ST_OK ? 0 : check_refuse_reason(st);
	r->ts = node_clock_now(n);
	r->ppb = n->adj_ppb;
	if (evq_push(&sim->q, &r->ev, sim->now + SIM_CLOCK_REPLY_NS) != 0)
		fatalx("ptpsim: out of memory");
}
