/*
 * netd_sim.c - netd's clock requests in ptpsim: the same bounds netd
 * enforces (netd/clock_bounds.c: clock_bounds_from_cfg(),
 * clock_check_request(), the same RefuseReason mapping, check.c), applied
 * to the node's model clock, with the latency of the socket both ways;
 * TxFrames go through netd's check_send_frame() and ClockRequests through
 * check_clock_request() first: a violation closes the connection, as in
 * netd (relay.c).
 * netd's rate windows are on its monotonic clock: here simulated time.
 *
 * With sync_system_clock 1 netd keeps a second clock, the system clock
 * (netd/relay.c relay_clock_request(): ClockRequest.system_clock), under
 * the same bounds with a step window of its own, and answers ClockCompare
 * with the system clock minus the PTP clock as its compare model reads
 * them (model.h): the samples go through netd's own sysoff_best() and the
 * rate limit through clock_cmp_due(), as netd/clock_cmp.c.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "log.h"
#include "netd/netd.h"
#include "netd/sysoff.h"
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
	n->cmp_last_ns = -1;
	if (!n->has_sys)
		return 0;
	if ((n->sys_bstate = calloc(1, sizeof(struct clock_bounds_state))) ==
	    NULL)
		return -1;
	clock_bounds_state_init(n->sys_bstate);
	n->cmp_samples = cfg_get_int(n->cfg, NULL, "system_clock_samples");
	return 0;
}

void
netd_sim_sys_reset(struct sim_node *n)
{
	n->cmp_last_ns = -1;
	if (n->sys_bstate != NULL)
		clock_bounds_state_init(n->sys_bstate);
}

/* netd_sys_clock_info(): the PTP clock's bounds, on UTC, no PHC. */
int
netd_sim_sys_info(const struct sim_node *n, struct netd_clock_info *ci)
{
	if (!n->has_sys)
		return -1;
	memset(ci, 0, sizeof(*ci));
	netd_sim_clock_info(n, &ci->max_freq_ppb, &ci->step_allowed,
	    &ci->max_step_ns, &ci->min_adj_interval_ms);
	ci->ptp_timescale = 0;
	ci->phc_index = -1;
	ci->sysoff = (enum netd_sysoff)n->cmp.kind;
	ci->leap_allowed = 0;	/* no leap seconds in the simulator */
	ci->is_virtual = n->cmp.kind == SIM_SYSOFF_SAME_BASE;
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
	free(n->sys_bstate);
	n->bounds = n->bstate = n->sys_bstate = NULL;
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

int
netd_sim_clock_req(struct sim_node *n, const struct netd_clock_req *q)
{
	struct sim_msg *m;
	enum sim_clk_op op;

	switch (q->op) {
	case NETD_CLOCK_READ:
		op = SIM_CLK_READ;
		break;
	case NETD_CLOCK_ADJFREQ:
		op = SIM_CLK_ADJFREQ;
		break;
	case NETD_CLOCK_STEP:
		op = SIM_CLK_STEP;
		break;
	case NETD_CLOCK_COMPARE:
		op = SIM_CLK_COMPARE;
		break;
	case NETD_CLOCK_LEAP:
		op = SIM_CLK_LEAP;
		break;
	default:
		return -EINVAL;
	}
	m = sim_msg_get(n->sim, SE_CLOCK_REQ, n);
	m->cookie = q->id;
	m->op = (int)op;
	m->sys = q->system_clock != 0;
	m->ppb = q->freq_ppb;
	m->step_ns = q->step_ns;
	m->leap = q->leap;
	if (evq_push(&n->sim->q, &m->ev, n->sim->now + SIM_CLOCK_REQ_NS) != 0)
		fatalx("ptpsim: out of memory");
	return 0;
}

/* floor(v / q) * q */
static int64_t
quantize(int64_t v, int64_t q)
{
	int64_t rem;

	if (q <= 1)
		return v;
	rem = v % q;
	return v - (rem < 0 ? rem + q : rem);
}

/*
 * One compare (clock_compare()): both clocks at this instant, the PHC's
 * reading on its tick, the system clock's where the model puts its reads;
 * a bracket method's n samples through netd's sysoff_best().  The samples
 * share the instant: they are microseconds apart in netd, where the
 * clocks' rates move the result by far less than a nanosecond.
 */
static int
netd_sim_compare(struct sim_node *n, struct sim_msg *r)
{
	struct sysoff_sample smp[SYSOFF_MAX_SAMPLES];
	struct sysoff_result res;
	int64_t t = sim_true_ns(n->sim);
	int64_t p = sim_clock_read(&n->clock, t), s = sim_clock_read(&n->sys, t);
	double b, a;
	int i, ns = n->cmp_samples;

	r->have_cmp = 1;
	r->cmp_method = (int)n->cmp.kind;
	r->cmp_delay = 0;
	switch (n->cmp.kind) {
	case SIM_SYSOFF_SAME_BASE:
		r->cmp_ns = s - p;
		r->cmp_ptp_ns = p;
		return 0;
	case SIM_SYSOFF_PRECISE:
		sim_sysoff_sample(&n->cmp, &n->rng_cmp, &b, &a);
		p = quantize(p, n->cmp.quant_ns);
		r->cmp_ns = s + (int64_t)floor(b) - p;
		r->cmp_ptp_ns = p;
		return 0;
	case SIM_SYSOFF_EXTENDED:
	case SIM_SYSOFF_BASIC:
		break;
	}
	if (ns < 1 || ns > SYSOFF_MAX_SAMPLES)
		return -1;
	p = quantize(p, n->cmp.quant_ns);
	for (i = 0; i < ns; i++) {
		sim_sysoff_sample(&n->cmp, &n->rng_cmp, &b, &a);
		smp[i].sys_before = s + (int64_t)floor(b);
		smp[i].phc = p;
		smp[i].sys_after = s + (int64_t)floor(a);
	}
	if (sysoff_best(smp, ns, &res) != 0)
		return -1;
	r->cmp_ns = res.sys_minus_phc;
	r->cmp_ptp_ns = res.phc_ns;
	r->cmp_delay = res.delay < 0 ? 0 : res.delay > UINT32_MAX ?
	    UINT32_MAX : (uint32_t)res.delay;
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
 * The ClockRequest netd_client.c would send for m, through netd's own
 * check (check.c): -1 when it is a violation (netd closes).
 */
static int
netd_sim_check(struct sim_node *n, const struct sim_msg *m,
    struct clock_req *req, int *is_read)
{
	Ptpsep__Netd__ClockRequest cr = PTPSEP__NETD__CLOCK_REQUEST__INIT;
	Ptpsep__Netd__ClockGetStatus gs = PTPSEP__NETD__CLOCK_GET_STATUS__INIT;
	Ptpsep__Netd__ClockAdjFreq af = PTPSEP__NETD__CLOCK_ADJ_FREQ__INIT;
	Ptpsep__Netd__ClockStep cs = PTPSEP__NETD__CLOCK_STEP__INIT;
	Ptpsep__Netd__ClockCompare cc = PTPSEP__NETD__CLOCK_COMPARE__INIT;
	Ptpsep__Netd__ClockSetLeap sl = PTPSEP__NETD__CLOCK_SET_LEAP__INIT;
	const char *why;

	cr.id = m->cookie;
	cr.system_clock = m->sys;
	switch ((enum sim_clk_op)m->op) {
	case SIM_CLK_READ:
		cr.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_GET_STATUS;
		cr.get_status = &gs;
		break;
	case SIM_CLK_ADJFREQ:
		af.freq_ppb = m->ppb;
		cr.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ;
		cr.adj_freq = &af;
		break;
	case SIM_CLK_STEP:
		cs.offset_ns = m->step_ns;
		cr.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_STEP;
		cr.step = &cs;
		break;
	case SIM_CLK_COMPARE:
		cr.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_COMPARE;
		cr.compare = &cc;
		break;
	case SIM_CLK_LEAP:
		sl.leap = m->leap;
		cr.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_SET_LEAP;
		cr.set_leap = &sl;
		break;
	}
	if (check_clock_request(&cr, req, is_read, &why) != CHECK_OK) {
		node_netd_close(n, why);
		return -1;
	}
	return 0;
}

/*
 * netd acts on the request (relay_clock_request()): whether or not the
 * clockd that sent it is still there, as netd reads what was queued; not
 * after netd itself closed that connection.  Replies as netd does
 * (clock_reply_due()): not to an accepted frequency change; a compare is
 * always answered, with the PTP clock's time and frequency.
 */
void
netd_sim_ev_request(struct sim *sim, struct sim_msg *m)
{
	struct sim_node *n = &sim->nodes[m->node];
	enum clock_status st = CLOCK_ST_OK;
	struct clock_req req;
	struct sim_clock *clk = &n->clock;
	struct clock_bounds_state *bst = n->bstate;
	double *adj = &n->adj_ppb;
	unsigned *refusals = &n->st.refusals;
	struct sim_msg *r;
	int is_read, reason = 0;

	if (m->epoch != n->epoch)
		return;		/* netd closed that connection */
	if (netd_sim_check(n, m, &req, &is_read) != 0)
		return;
	r = sim_msg_get(sim, SE_CLOCK_REPLY, n);
	r->sys = req.system_clock;
	if (req.system_clock) {
		clk = &n->sys;
		bst = n->sys_bstate;
		adj = &n->sys_adj_ppb;
		refusals = &n->st.sys_refusals;
	}
	if (is_read == CHECK_CLOCK_COMPARE) {
		if (!n->has_sys)
			reason = PTPSEP__REFUSE_REASON__REFUSE_NOT_SUPPORTED;
		else if (!clock_cmp_due(&n->cmp_last_ns, sim->now))
			reason = PTPSEP__REFUSE_REASON__REFUSE_RATE_LIMITED;
		else if (netd_sim_compare(n, r) != 0)
			reason = PTPSEP__REFUSE_REASON__REFUSE_CLOCK_FAILED;
		if (reason != 0)
			n->st.cmp_refusals++;
		else
			n->st.cmps++;
		clk = &n->clock;
		adj = &n->adj_ppb;
	} else if (req.system_clock && !n->has_sys) {
		reason = PTPSEP__REFUSE_REASON__REFUSE_NOT_SUPPORTED;
		(*refusals)++;
	} else if (!is_read) {
		st = clock_check_request(n->bounds, bst, &req, sim->now);
		/* clock_apply(): neither clock here counts UTC with
		 * kernel_leap (ClockInfo.leap_allowed 0) */
		if (st == CLOCK_ST_OK && req.op == CLOCK_OP_LEAP)
			st = CLOCK_ST_NOT_SUPPORTED;
		if (st != CLOCK_ST_OK) {
			reason = check_refuse_reason(st);
			(*refusals)++;
		} else if (req.op == CLOCK_OP_ADJFREQ) {
			sim_clock_adjfreq(clk, sim_true_ns(sim), req.freq_ppb);
			*adj = req.freq_ppb;
			clock_bounds_record_adj(bst, sim->now);
			if (req.system_clock)
				n->st.sys_adjs++;
			else
				n->st.adjs++;
		} else {
			sim_clock_step(clk, sim_true_ns(sim), req.step_ns);
			clock_bounds_record_step(bst, sim->now);
			if (req.system_clock)
				n->st.sys_steps++;
			else
				record_step(n);
		}
	}
	/* An accepted frequency change is not answered, as in netd. */
	if (!clock_reply_due(is_read, &req, reason == 0)) {
		sim_msg_put(sim, r);
		return;
	}
	r->epoch = m->epoch;
	r->cookie = m->cookie;
	r->ok = reason == 0;
	r->reason = reason;
	r->ts = sim_clock_read(clk, sim_true_ns(sim));
	r->ppb = *adj;
	if (evq_push(&sim->q, &r->ev, sim->now + SIM_CLOCK_REPLY_NS) != 0)
		fatalx("ptpsim: out of memory");
}
