/*
 * ptpsim - N instances of clockd's engine on one simulated network, in
 * simulated time (issue 12, item 2; sim.h says how it is put together).
 *
 *   ptpsim [-q] [-s SEED] [-d SECONDS] [-o FILE] [-l LEVEL] SCENARIO
 *
 * stdout: a header, one line per node per sample ("t_s node offset_ns
 * reported_ns freq_ppb servo ports"), then the summary table and one
 * "SUMMARY node=..." line per node.  -q prints only the summary, -o FILE
 * writes the per-sample lines to FILE instead, -s and -d override the
 * scenario's seed and duration, -l the engine's log level (stderr;
 * default 3, errors only; from 4, warning, each line is tagged with the
 * simulated time and the node).  Exit 0, or 1 on a bad scenario.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfg.h"
#include "clockd/clockd.h"
#include "log.h"
#include "sim.h"

static void
usage(void)
{
	fprintf(stderr, "usage: ptpsim [-q] [-s SEED] [-d SECONDS] "
	    "[-o FILE] [-l LEVEL] SCENARIO\n");
	exit(1);
}

static void
sim_push(struct sim *sim, struct sim_ev *ev, int64_t t)
{
	if (evq_push(&sim->q, ev, t) != 0)
		fatalx("ptpsim: out of memory");
}

static const char *
act_name(const struct sim_action *a)
{
	switch (a->kind) {
	case SA_LINK_DOWN:	return "link down";
	case SA_LINK_UP:	return "link up";
	case SA_LINK_SET:	return "link set";
	case SA_NODE_CRASH:	return "crash";
	case SA_NODE_RESTART:	return "restart";
	case SA_NODE_FREQ_STEP:	return "freq_step";
	case SA_NODE_CLOCK_STEP:	return "clock_step";
	case SA_NODE_NETD_RESTART:	return "netd_restart";
	case SA_NODE_SET:	return "set";
	case SA_NODE_PORT:	return "port";
	}
	return "?";
}

/*
 * With -l warning or more, the engine's log lines (stderr) say the
 * simulated time (to the µs) and the node.  Set before every call into an
 * engine, it would take half the run time at the default level (errors
 * only, i.e. fatal ones), so it is skipped there.
 */
static void
log_tag(const struct sim *sim, const struct sim_node *n)
{
	static const struct sim_node *last_n;
	static int64_t last_us = -1;
	int64_t us = sim->now / 1000;
	char tag[64];

	if (!log_enabled(LOG_LVL_WARN) || (n == last_n && us == last_us))
		return;
	last_n = n;
	last_us = us;
	snprintf(tag, sizeof(tag), "%lld.%06lld %s",
	    (long long)(us / 1000000), (long long)(us % 1000000),
	    n->spec->name);
	log_set_message_tag(tag);
}

/* A scenario action; a pointless one (crash a crashed node) is said on
 * stderr and skipped. */
static void
run_action(struct sim *sim, struct sim_action *a)
{
	struct sim_node *n = &sim->nodes[a->target];
	struct sim_link *l = &sim->links[a->target];
	int rc = 0;

	switch (a->kind) {
	case SA_LINK_DOWN:
	case SA_LINK_UP:
		net_link_set(sim, a->target, a->kind == SA_LINK_UP);
		return;
	case SA_LINK_SET:
		if (strcmp(a->key, "delay") == 0)
			l->model.delay_ns = llround(a->value);
		else if (strcmp(a->key, "pdv") == 0)
			l->model.pdv_ns = a->value;
		else if (strcmp(a->key, "asymmetry") == 0)
			l->model.asym_ns = llround(a->value);
		else
			l->model.loss = a->value;
		return;
	default:
		log_tag(sim, n);
		break;
	}
	switch (a->kind) {
	case SA_LINK_DOWN:
	case SA_LINK_UP:
	case SA_LINK_SET:
		break;
	case SA_NODE_CRASH:
		if (n->c == NULL)
			rc = -1;
		node_crash(n);
		break;
	case SA_NODE_RESTART:
		if (n->c != NULL)
			rc = -1;
		else if (node_start(n) != 0)
			fatalx("ptpsim: node %s: cannot restart",
			    n->spec->name);
		break;
	case SA_NODE_FREQ_STEP:
		sim_clock_freq_step(&n->clock, sim_true_ns(sim), a->value);
		return;
	case SA_NODE_CLOCK_STEP:
		sim_clock_step(&n->clock, sim_true_ns(sim), a->step_ns);
		return;
	case SA_NODE_NETD_RESTART:
		node_netd_restart(n);
		break;
	case SA_NODE_SET:
		if (n->c == NULL)
			rc = -1;
		else if (strcmp(a->key, "clockClass") == 0)
			rc = clock_set_clock_class(n->c, (uint8_t)a->value);
		else if (strcmp(a->key, "priority1") == 0)
			rc = clock_set_priority1(n->c, (uint8_t)a->value);
		else
			rc = clock_set_priority2(n->c, (uint8_t)a->value);
		break;
	case SA_NODE_PORT:
		rc = n->c == NULL ? -1 : clock_set_port_enabled(n->c,
		    node_port_of_link(n, a->key), a->value != 0);
		break;
	}
	if (rc != 0)
		fprintf(stderr, "%s:%u: node %s: %s refused or pointless at "
		    "%.3f s\n", sim->sc.path, a->line, n->spec->name,
		    act_name(a), (double)sim->now / 1e9);
	node_after_event(n);
}

static void
dispatch(struct sim *sim, struct sim_ev *ev)
{
	struct sim_msg *m = (struct sim_msg *)ev;
	struct sim_node *n;

	switch (ev->kind) {
	case SE_TIMER:
		n = node_of_timer(ev);
		log_tag(sim, n);
		node_ev_timer(ev);
		node_after_event(n);
		return;
	case SE_ACTION:
		run_action(sim, (struct sim_action *)ev);
		return;
	case SE_START:
		n = (struct sim_node *)(void *)((char *)ev -
		    offsetof(struct sim_node, start_ev));
		log_tag(sim, n);
		if (node_start(n) != 0)
			fatalx("ptpsim: node %s: cannot start", n->spec->name);
		node_after_event(n);
		return;
	case SE_SAMPLE:
		report_sample(sim);
		sim->next_sample += sim->sc.sample_ns;
		if (sim->next_sample <= sim->sc.duration_ns)
			sim_push(sim, ev, sim->next_sample);
		return;
	default:
		break;
	}
	/* The pooled messages, each for one node. */
	log_tag(sim, &sim->nodes[m->node]);
	switch (ev->kind) {
	case SE_FRAME:
		net_ev_frame(sim, m);
		break;
	case SE_TXTS:
		net_ev_txts(sim, m);
		break;
	case SE_CLOCK_REQ:
		netd_sim_ev_request(sim, m);
		break;
	case SE_CLOCK_REPLY:
		node_ev_clock_reply(sim, m);
		break;
	case SE_CONNECT:
		n = &sim->nodes[m->node];
		if (n->c != NULL && m->epoch == n->epoch)
			node_ev_connect(n);
		break;
	case SE_LINK_EVENT:
		node_ev_link_event(sim, m);
		break;
	case SE_DISCONNECT:
		node_ev_disconnect(sim, m);
		break;
	default:
		break;
	}
	node_after_event(&sim->nodes[m->node]);
	sim_msg_put(sim, m);
}

static int
sim_setup(struct sim *sim)
{
	struct sim_scenario *sc = &sim->sc;
	unsigned i;
	size_t k;

	if (evq_init(&sim->q) != 0)
		return -1;
	/* The engine's random() (Delay_Req spread, announce timeouts). */
	srandom((unsigned)(sc->seed ^ (sc->seed >> 32)));
	sim->nlinks = sc->nlinks;
	for (i = 0; i < sc->nlinks; i++) {
		struct sim_link *l = &sim->links[i];

		l->index = i;
		l->spec = &sc->links[i];
		l->model = sc->links[i].model;
		l->up = 1;
		sim_rng_seed(&l->rng, sc->seed, 0x300 + i);
	}
	sim->nnodes = sc->nnodes;
	for (i = 0; i < sc->nnodes; i++)
		if (node_init(sim, &sim->nodes[i], i) != 0)
			return -1;
	sim->first_event_t = sc->duration_ns + 1;
	for (k = 0; k < sc->nacts; k++) {
		struct sim_action *a = &sc->acts[k];

		a->ev.kind = SE_ACTION;
		a->ev.idx = -1;
		if (a->t > sc->duration_ns)
			continue;
		if (a->t < sim->first_event_t)
			sim->first_event_t = a->t;
		sim_push(sim, &a->ev, a->t);
	}
	sim->sample_ev.kind = SE_SAMPLE;
	sim->sample_ev.idx = -1;
	sim->next_sample = 0;
	sim_push(sim, &sim->sample_ev, 0);
	for (i = 0; i < sc->nnodes; i++) {
		struct sim_node *n = &sim->nodes[i];

		if (n->spec->start_ns == 0) {
			if (node_start(n) != 0)
				return -1;
			continue;
		}
		n->start_ev.kind = SE_START;
		n->start_ev.idx = -1;
		sim_push(sim, &n->start_ev, n->spec->start_ns);
	}
	return 0;
}

static void
sim_teardown(struct sim *sim)
{
	struct sim_msg *m;
	struct sim_ev *ev;
	unsigned i;

	for (i = 0; i < sim->nnodes; i++)
		node_crash(&sim->nodes[i]);
	while ((ev = evq_pop(&sim->q)) != NULL)
		if (ev->kind != SE_ACTION && ev->kind != SE_SAMPLE &&
		    ev->kind != SE_TIMER && ev->kind != SE_START)
			sim_msg_put(sim, (struct sim_msg *)ev);
	for (i = 0; i < sim->nnodes; i++)
		node_fini(&sim->nodes[i]);
	while ((m = sim->free_msgs) != NULL) {
		sim->free_msgs = m->next;
		free(m);
	}
	evq_fini(&sim->q);
	scenario_free(&sim->sc);
}

int
main(int argc, char **argv)
{
	struct sim *sim;
	const char *out = NULL;
	struct sim_ev *ev;
	int ch, level = LOG_LVL_ERR, have_seed = 0, quiet = 0;
	int64_t dur = -1;
	uint64_t seed = 0;
	char *end;

	while ((ch = getopt(argc, argv, "qs:d:o:l:h")) != -1) {
		switch (ch) {
		case 'q':
			quiet = 1;
			break;
		case 's':
			errno = 0;
			seed = strtoull(optarg, &end, 0);
			if (errno != 0 || *end != '\0' || end == optarg)
				usage();
			have_seed = 1;
			break;
		case 'd': {
			double d = strtod(optarg, &end);

			if (*end != '\0' || end == optarg || !(d > 0) ||
			    d > 1e7)
				usage();
			dur = llround(d * 1e9);
			break;
		}
		case 'o':
			out = optarg;
			break;
		case 'l':
			level = log_level_parse(optarg);
			if (level < 0)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	/* The engine logs to stderr only: stdout is the simulation's. */
	log_init("clockd", 1, (enum log_level)level);
	if ((sim = calloc(1, sizeof(*sim))) == NULL)
		return 1;
	sim->quiet = quiet;
	if (scenario_load(&sim->sc, argv[argc - 1]) != 0) {
		free(sim);
		return 1;
	}
	if (have_seed)
		sim->sc.seed = seed;
	if (dur > 0)
		sim->sc.duration_ns = dur;
	sim->trace = sim->quiet ? NULL : stdout;
	if (out != NULL && (sim->trace = fopen(out, "w")) == NULL) {
		fprintf(stderr, "%s: %s\n", out, strerror(errno));
		scenario_free(&sim->sc);
		free(sim);
		return 1;
	}
	if (sim_setup(sim) != 0) {
		if (sim->trace != NULL && sim->trace != stdout)
			fclose(sim->trace);
		sim_teardown(sim);
		free(sim);
		return 1;
	}
	report_init(sim);
	while ((ev = (struct sim_ev *)evq_peek(&sim->q)) != NULL &&
	    ev->t <= sim->sc.duration_ns) {
		ev = evq_pop(&sim->q);
		sim->now = ev->t;
		sim->events++;
		dispatch(sim, ev);
	}
	sim->now = sim->sc.duration_ns;
	report_summary(sim);
	if (sim->trace != NULL && sim->trace != stdout)
		fclose(sim->trace);
	sim_teardown(sim);
	free(sim);
	return 0;
}
