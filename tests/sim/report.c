/*
 * report.c - what ptpsim prints: a sample of every node every
 * sample_interval (the per-sample trace) and the summary.
 *
 * The offset of a node is its clock minus the reference at the same true
 * instant: true time, or the clock of the [sim] reference node.  Every
 * figure is printed in a fixed format from integers or from doubles
 * computed in a fixed order, so that the output is byte-identical for a
 * seed.
 *
 * Summary, per node:
 *   rms_ns, max_ns  over the samples at or after measure_from;
 *   lock_s          the start of the run of samples with |offset| under
 *                   lock_threshold that lasts until the first [events]
 *                   action (or the end); -1 if the last sample before it
 *                   is not under the threshold;
 *   steps           clock steps netd executed; steps_after_lock those at
 *                   or after lock_s;
 *   refusals        clock requests netd refused (its bounds);
 *   state_changes   port state changes, all ports, the whole run;
 *   unlocked_s      time after lock_s with |offset| at or over the
 *                   threshold (sample_interval per such sample);
 *   crashes         [events] crashes of its clockd;
 *   gm              the node whose clockIdentity is its parentDS
 *                   grandmasterIdentity at the end ("down": crashed);
 *   gm_changes,     how often that identity changed after the first one
 *   gm_change_s     the engine took (itself, on start), and when last;
 *   slave_s         when a port of the node first went UNCALIBRATED or
 *                   SLAVE (a master was chosen; -1: never): lock_s -
 *                   slave_s is the servo's part of the time to lock;
 *   netd_closes     connections netd closed because the engine broke
 *                   the protocol (netd's check.c; should be 0);
 *   wakeups         events that reached the engine (clockd's wake-ups:
 *                   a frame, a TX time stamp, a reply, a timer, ...);
 *   to_netd,        clockd's datagrams to netd, what each event sent
 *   to_netd_msgs    leaving together (clockd/netd_client.c's outbox),
 *                   and the messages in them.
 * and for a node with a system clock (sync_system_clock 1), whose offset
 * is the system clock minus true UTC (the reference less the [sim]
 * utc_offset; the PTP clock's stays on true time, TAI):
 *   sys_rms_ns,     as rms_ns, max_ns and lock_s, of the system clock,
 *   sys_max_ns,     and the mean of its offset over the same samples
 *   sys_lock_s,     (a compare's bias shows there);
 *   sys_mean_ns
 *   sys_steps,      its steps netd executed, its requests netd refused;
 *   sys_refusals
 *   cmps,           ClockCompares netd answered, and refused (its rate
 *   cmp_refusals    limit, CLOCK_CMP_MIN_INTERVAL_NS);
 *   cmp             the compare model (sim_sysoff).
 * The trace's lines of such a node go on with sys_offset_ns sys_freq_ppb
 * sys_servo: the system clock's offset, netd's frequency adjustment of it
 * and clockd's second servo's state.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clockd/clockd.h"
#include "sim.h"

static char
state_letter(enum fsm_state s)
{
	switch (s) {
	case PS_INITIALIZING:	return 'I';
	case PS_FAULTY:		return 'F';
	case PS_DISABLED:	return 'D';
	case PS_LISTENING:	return 'L';
	case PS_PRE_MASTER:	return 'P';
	case PS_MASTER:		return 'M';
	case PS_PASSIVE:	return 'A';
	case PS_UNCALIBRATED:	return 'U';
	case PS_SLAVE:		return 'S';
	}
	return '?';
}

static int64_t
node_offset(struct sim *sim, struct sim_node *n)
{
	int64_t ref = sim_true_ns(sim);

	if (sim->sc.reference >= 0)
		ref = node_clock_now(&sim->nodes[sim->sc.reference]);
	return node_clock_now(n) - ref;
}

static int64_t
node_sys_offset(struct sim *sim, struct sim_node *n)
{
	int64_t ref = sim_true_utc_ns(sim);

	if (sim->sc.reference >= 0)
		ref = node_clock_now(&sim->nodes[sim->sc.reference]) -
		    (int64_t)sim->sc.utc_offset_s * SIM_NSEC;
	return node_sys_now(n) - ref;
}

int
report_init(struct sim *sim)
{
	const struct sim_scenario *sc = &sim->sc;
	const char *base = strrchr(sc->path, '/');
	unsigned i;

	for (i = 0; i < sim->nnodes; i++) {
		memset(&sim->acc[i], 0, sizeof(sim->acc[i]));
		sim->acc[i].lock_t = -1;
		sim->acc[i].run_start = -1;
		memset(&sim->sys_acc[i], 0, sizeof(sim->sys_acc[i]));
		sim->sys_acc[i].lock_t = -1;
		sim->sys_acc[i].run_start = -1;
	}
	if (sim->trace != NULL && sim->trace != stdout)
		fprintf(sim->trace, "# t_s node offset_ns reported_ns "
		    "freq_ppb servo ports%s\n", sim->any_sys ?
		    " [sys_offset_ns sys_freq_ppb sys_servo]" : "");
	if (sim->quiet)
		return 0;
	printf("# ptpsim %s seed %" PRIu64 " duration %.3f s, %u nodes, "
	    "%u links, sample every %.3f s\n", base != NULL ? base + 1 :
	    sc->path, sc->seed, (double)sc->duration_ns / 1e9, sim->nnodes,
	    sim->nlinks, (double)sc->sample_ns / 1e9);
	printf("# offset: node clock - %s%s (ns); reported: its "
	    "offsetFromMaster; freq: netd's adjustment (ppb)\n",
	    sc->reference >= 0 ? "clock of node " : "true time",
	    sc->reference >= 0 ? sc->nodes[sc->reference].name : "");
	printf("# ports: I initializing F faulty D disabled L listening "
	    "P pre-master M master A passive U uncalibrated S slave\n");
	if (sim->any_sys)
		printf("# sys_offset: system clock - (%s - %d s) (ns), the "
		    "nodes with sync_system_clock 1\n", sc->reference >= 0 ?
		    sc->nodes[sc->reference].name : "true time",
		    sc->utc_offset_s);
	if (sim->trace != NULL && sim->trace != stdout)
		return 0;
	printf("# t_s node offset_ns reported_ns freq_ppb servo ports%s\n",
	    sim->any_sys ? " [sys_offset_ns sys_freq_ppb sys_servo]" : "");
	return 0;
}

static void
acc_add(struct sim *sim, struct sim_sample_acc *a, int64_t off)
{
	const struct sim_scenario *sc = &sim->sc;
	int64_t t = sim->now, mag = off < 0 ? -off : off;
	int bad = mag >= sc->lock_threshold_ns;

	if (t >= sc->measure_from_ns) {
		a->sum_sq += (double)off * (double)off;
		a->sum += (double)off;
		a->n++;
		if (mag > a->max_abs)
			a->max_abs = mag;
	}
	if (t < sim->first_event_t || a->n_lockwin == 0) {
		/* Still in the window in which lock is looked for. */
		a->n_lockwin++;
		if (bad)
			a->run_start = -1;
		else if (a->run_start < 0)
			a->run_start = t;
		a->lock_t = a->run_start;
	} else if (a->lock_t >= 0 && bad) {
		a->unlocked_ns += sc->sample_ns;
	}
}

void
report_sample(struct sim *sim)
{
	char ports[SIM_MAX_PORTS + 1];
	unsigned i, p;

	for (i = 0; i < sim->nnodes; i++) {
		struct sim_node *n = &sim->nodes[i];
		int64_t off = node_offset(sim, n), soff = 0;
		char sys[80] = "";

		acc_add(sim, &sim->acc[i], off);
		if (n->has_sys) {
			soff = node_sys_offset(sim, n);
			acc_add(sim, &sim->sys_acc[i], soff);
			snprintf(sys, sizeof(sys), " %" PRId64 " %.3f %s", soff,
			    n->sys_adj_ppb, n->c == NULL ? "down" :
			    servo_state_name(n->c->sys.state));
		}
		if (sim->trace == NULL)
			continue;
		if (n->c == NULL) {
			fprintf(sim->trace, "%.3f %s %" PRId64 " 0 %.3f down "
			    "-%s\n", (double)sim->now / 1e9, n->spec->name,
			    off, n->adj_ppb, sys);
			continue;
		}
		for (p = 0; p < n->c->nports && p < SIM_MAX_PORTS; p++)
			ports[p] = state_letter(n->c->ports[p].state);
		ports[p] = '\0';
		fprintf(sim->trace, "%.3f %s %" PRId64 " %" PRId64 " %.3f %s "
		    "%s%s\n", (double)sim->now / 1e9, n->spec->name, off,
		    n->c->cds.offset_from_master, n->adj_ppb,
		    servo_state_name(n->c->servo_state),
		    p > 0 ? ports : "-", sys);
	}
}

/* The node a node takes for its grandmaster, by clockIdentity. */
static const char *
gm_name(const struct sim *sim, const struct sim_node *n)
{
	unsigned i;

	if (n->c == NULL)
		return "down";
	for (i = 0; i < sim->nnodes; i++)
		if (memcmp(sim->nodes[i].clock_id, n->c->pds.gm_identity,
		    8) == 0)
			return sim->nodes[i].spec->name;
	return "unknown";
}

void
report_summary(struct sim *sim)
{
	const struct sim_scenario *sc = &sim->sc;
	unsigned i;
	size_t k;

	printf("# %" PRIu64 " events\n", sim->events);
	for (i = 0; i < sim->nlinks; i++)
		printf("# link %s: %" PRIu64 " frames, %" PRIu64 " lost\n",
		    sim->links[i].spec->name, sim->links[i].frames,
		    sim->links[i].lost);
	printf("# summary: rms/max over t >= %.3f s; lock: |offset| < %"
	    PRId64 " ns from lock_s until %s\n",
	    (double)sc->measure_from_ns / 1e9, sc->lock_threshold_ns,
	    sc->nacts > 0 ? "the first event" : "the end");
	printf("%-12s %12s %12s %10s %6s %6s %8s %7s %10s\n", "node",
	    "rms_ns", "max_ns", "lock_s", "steps", "after", "refused",
	    "states", "unlocked_s");
	for (i = 0; i < sim->nnodes; i++) {
		struct sim_node *n = &sim->nodes[i];
		struct sim_sample_acc *a = &sim->acc[i];
		double rms = a->n > 0 ? sqrt(a->sum_sq / (double)a->n) : 0.0;
		unsigned after = 0;

		for (k = 0; k < n->st.nstep_t; k++)
			if (a->lock_t >= 0 && n->st.step_t[k] >= a->lock_t)
				after++;
		n->st.steps_after_lock = after;
		printf("%-12s %12.1f %12" PRId64 " %10.3f %6u %6u %8u %7u "
		    "%10.3f\n", n->spec->name, rms, a->max_abs,
		    a->lock_t >= 0 ? (double)a->lock_t / 1e9 : -1.0,
		    n->st.steps, after, n->st.refusals, n->st.state_changes,
		    (double)a->unlocked_ns / 1e9);
	}
	if (sim->any_sys) {
		printf("# system clocks - true UTC\n");
		printf("%-12s %12s %12s %10s %6s %8s %8s %10s\n", "node",
		    "rms_ns", "max_ns", "lock_s", "steps", "refused",
		    "cmps", "cmp");
	}
	for (i = 0; i < sim->nnodes; i++) {
		struct sim_node *n = &sim->nodes[i];
		struct sim_sample_acc *a = &sim->sys_acc[i];

		if (!n->has_sys)
			continue;
		printf("%-12s %12.1f %12" PRId64 " %10.3f %6u %8u %8u %10s\n",
		    n->spec->name, a->n > 0 ? sqrt(a->sum_sq / (double)a->n) :
		    0.0, a->max_abs, a->lock_t >= 0 ?
		    (double)a->lock_t / 1e9 : -1.0, n->st.sys_steps,
		    n->st.sys_refusals, n->st.cmps,
		    sim_sysoff_name(n->cmp.kind));
	}
	for (i = 0; i < sim->nnodes; i++) {
		struct sim_node *n = &sim->nodes[i];
		struct sim_sample_acc *a = &sim->acc[i];

		printf("SUMMARY node=%s rms_ns=%.1f max_ns=%" PRId64
		    " lock_s=%.3f steps=%u steps_after_lock=%u refusals=%u"
		    " state_changes=%u unlocked_s=%.3f crashes=%u gm=%s"
		    " gm_changes=%u gm_change_s=%.3f slave_s=%.3f"
		    " netd_closes=%u wakeups=%lu to_netd=%lu"
		    " to_netd_msgs=%lu",
		    n->spec->name,
		    a->n > 0 ? sqrt(a->sum_sq / (double)a->n) : 0.0,
		    a->max_abs,
		    a->lock_t >= 0 ? (double)a->lock_t / 1e9 : -1.0,
		    n->st.steps, n->st.steps_after_lock, n->st.refusals,
		    n->st.state_changes, (double)a->unlocked_ns / 1e9,
		    n->st.crashes, gm_name(sim, n), n->st.gm_changes,
		    n->st.gm_change_t >= 0 ?
		    (double)n->st.gm_change_t / 1e9 : -1.0,
		    n->st.slave_t >= 0 ? (double)n->st.slave_t / 1e9 : -1.0,
		    n->st.netd_closes, n->st.wakeups, n->st.to_netd,
		    n->st.to_netd_msgs);
		if (!n->has_sys) {
			putchar('\n');
			continue;
		}
		a = &sim->sys_acc[i];
		printf(" sys_rms_ns=%.1f sys_max_ns=%" PRId64 " sys_lock_s=%.3f"
		    " sys_mean_ns=%.1f sys_steps=%u sys_refusals=%u cmps=%u"
		    " cmp_refusals=%u cmp=%s\n", a->n > 0 ?
		    sqrt(a->sum_sq / (double)a->n) : 0.0, a->max_abs,
		    a->lock_t >= 0 ? (double)a->lock_t / 1e9 : -1.0,
		    a->n > 0 ? a->sum / (double)a->n : 0.0, n->st.sys_steps,
		    n->st.sys_refusals, n->st.cmps, n->st.cmp_refusals,
		    sim_sysoff_name(n->cmp.kind));
	}
}
