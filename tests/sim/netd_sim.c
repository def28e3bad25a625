/*
 * netd_sim.c - netd's clock requests in ptpsim: the same bounds netd
 * enforces (netd/clock_bounds.c: clock_bounds_from_cfg(),
 * clock_check_request(), the same RefuseReason mapping, check.c), applied
 * to the node's model clock, with the latency of the socket both ways.
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
 * clockd that sent it is still there, as netd reads what was queued.
 */
void
netd_sim_ev_request(struct sim *sim, struct sim_msg *m)
{
	struct sim_node *n = &sim->nodes[m->node];
	enum clock_status st = CLOCK_ST_OK;
	struct clock_req req;
	struct sim_msg *r;

	if (m->op != SIM_CLK_READ) {
		req.op = m->op == SIM_CLK_STEP ? CLOCK_OP_STEP :
		    CLOCK_OP_ADJFREQ;
		req.freq_ppb = m->ppb;
		req.step_ns = m->step_ns;
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
