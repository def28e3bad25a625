/*
 * test_sim_core.c - ptpsim's event queue (evq.c) and scenario parser
 * (scenario.c).  The simulator's determinism rests on the queue's order:
 * by time, then by insertion, also after removals and re-arms.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/sim/sim.h"

#define NEV	200

static void
test_evq_order(void **state)
{
	struct sim_evq q;
	struct sim_ev ev[NEV];
	const struct sim_ev *e;
	int64_t last_t = -1;
	uint64_t last_seq = 0;
	unsigned i, n = 0;

	(void)state;
	assert_int_equal(evq_init(&q), 0);
	/* Many ties: times 0..9, pushed in a scrambled order. */
	for (i = 0; i < NEV; i++) {
		ev[i].idx = -1;
		assert_int_equal(evq_push(&q, &ev[i], (int64_t)((i * 7) % 10)),
		    0);
	}
	while ((e = evq_pop(&q)) != NULL) {
		assert_int_equal(e->idx, -1);
		assert_true(e->t > last_t ||
		    (e->t == last_t && e->seq > last_seq));
		/* Same time: first pushed, first out. */
		if (e->t == last_t)
			assert_true(e->seq == last_seq + 10);
		last_t = e->t;
		last_seq = e->seq;
		n++;
	}
	assert_int_equal(n, NEV);
	evq_fini(&q);
}

static void
test_evq_remove_rearm(void **state)
{
	struct sim_evq q;
	struct sim_ev ev[NEV];
	const struct sim_ev *e;
	int64_t last = -1;
	unsigned i, n = 0;

	(void)state;
	assert_int_equal(evq_init(&q), 0);
	for (i = 0; i < NEV; i++) {
		ev[i].idx = -1;
		assert_int_equal(evq_push(&q, &ev[i], 1000 - (int64_t)i), 0);
	}
	/* Cancel every third, re-arm every fifth later than all others. */
	for (i = 0; i < NEV; i += 3) {
		evq_remove(&q, &ev[i]);
		assert_int_equal(ev[i].idx, -1);
		evq_remove(&q, &ev[i]);	/* twice: harmless */
	}
	for (i = 1; i < NEV; i += 5) {
		if (i % 3 == 0)
			continue;
		evq_remove(&q, &ev[i]);
		assert_int_equal(evq_push(&q, &ev[i], 5000), 0);
	}
	assert_non_null(evq_peek(&q));
	while ((e = evq_pop(&q)) != NULL) {
		unsigned k = (unsigned)(e - ev);

		assert_true(k % 3 != 0);
		assert_true(e->t >= last);
		if (k % 5 == 1)
			assert_int_equal(e->t, 5000);
		else
			assert_int_equal(e->t, 1000 - (int64_t)k);
		last = e->t;
		n++;
	}
	for (i = 0, last = 0; i < NEV; i++)
		last += i % 3 != 0;
	assert_int_equal(n, last);
	assert_null(evq_peek(&q));
	evq_fini(&q);
}

/* Loads text as a scenario file; returns scenario_load()'s result. */
static int
load(struct sim_scenario *s, const char *text)
{
	char path[] = "/tmp/test_sim_core.XXXXXX";
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	rc = scenario_load(s, path);
	unlink(path);
	return rc;
}

static const char good[] =
    "# a comment\n"
    "[sim]\n"
    "duration 100   # s\n"
    "seed 7\n"
    "sample_interval 0.5\n"
    "measure_from 10\n"
    "lock_threshold 500\n"
    "reference gm\n"
    "utc_offset 36\n"
    "[node gm]\n"
    "clockClass 6\n"
    "@l2 logSyncInterval -3\n"
    "sim_wander 0.01\n"
    "[node s1]\n"
    "clientOnly 1\n"
    "sim_offset -1500000000\n"
    "sim_freq 80000\n"
    "sim_ts software\n"
    "sim_ts_jitter 250.5\n"
    "sim_ts_quant 8\n"
    "sim_ts_tail_p 0\n"
    "sim_start 30\n"
    "sim_txts_latency 5000000\n"
    "sim_sys_offset -3000000000\n"
    "sim_sys_freq 20000\n"
    "sim_sys_wander 0.02\n"
    "sim_sysoff basic\n"
    "sim_sysoff_bracket 1800\n"
    "sim_sysoff_latch_hi 0.5\n"
    "sim_sysoff_quant 4\n"
    "[link l1]\n"
    "ends gm s1\n"
    "delay 500\n"
    "pdv 20\n"
    "asymmetry -40\n"
    "loss 0.01\n"
    "[link l2]\n"
    "ends s1 gm\n"
    "[events]\n"
    "50 node s1 crash\n"
    "20 link l1 down\n"
    "20 link l1 set delay 700\n"
    "60 node s1 restart\n"
    "70 node gm set clockClass 248\n"
    "80 node gm freq_step -1000.5\n"
    "90 node gm port l2 disable\n"
    "95 node s1 clock_step -100000000000\n"
    "96 node gm netd_restart\n";

static void
test_scenario_good(void **state)
{
	struct sim_scenario s;

	(void)state;
	assert_int_equal(load(&s, good), 0);
	assert_int_equal(s.duration_ns, 100 * SIM_NSEC);
	assert_int_equal(s.seed, 7);
	assert_int_equal(s.sample_ns, SIM_NSEC / 2);
	assert_int_equal(s.measure_from_ns, 10 * SIM_NSEC);
	assert_int_equal(s.lock_threshold_ns, 500);
	assert_int_equal(s.reference, 0);
	assert_int_equal(s.utc_offset_s, 36);
	assert_int_equal(s.nnodes, 2);
	assert_int_equal(s.nlinks, 2);
	/* gm: clockClass for clockd, @l2 for its port on l2; sim_* kept. */
	assert_int_equal(s.nodes[0].nkv, 2);
	assert_null(s.nodes[0].kv[0].port);
	assert_string_equal(s.nodes[0].kv[1].port, "l2");
	assert_string_equal(s.nodes[0].kv[1].key, "logSyncInterval");
	assert_string_equal(s.nodes[0].kv[1].value, "-3");
	assert_true(s.nodes[0].wander == 0.01);
	assert_int_equal(s.nodes[0].ts_kind, -1);
	assert_int_equal(s.nodes[1].offset_ns, -1500000000LL);
	assert_true(s.nodes[1].freq_ppb == 80000.0);
	assert_int_equal(s.nodes[1].ts_kind, SIM_TS_SW);
	{
		struct sim_ts_model m;

		memset(&m, 0, sizeof(m));
		m.tail_p = 0.5;
		m.jitter_ns = 1.0;
		scenario_ts_apply(&s.nodes[1], &m);
		assert_true(m.jitter_ns == 250.5);
		assert_int_equal(m.quant_ns, 8);
		assert_true(m.tail_p == 0.0);
		assert_true(m.latency_ns == 0.0);	/* not set: kept */
	}
	/* The system clock's keys and its compare's. */
	assert_int_equal(s.nodes[0].sysoff_kind, -1);
	assert_int_equal(s.nodes[0].sys_offset_ns, 0);
	assert_int_equal(s.nodes[1].sys_offset_ns, -3000000000LL);
	assert_true(s.nodes[1].sys_freq_ppb == 20000.0);
	assert_true(s.nodes[1].sys_wander == 0.02);
	assert_int_equal(s.nodes[1].sysoff_kind, SIM_SYSOFF_BASIC);
	{
		struct sim_sysoff_model m;

		sim_sysoff_model_default(&m, SIM_SYSOFF_BASIC);
		scenario_sysoff_apply(&s.nodes[1], &m);
		assert_true(m.bracket_ns == 1800.0);
		assert_true(m.latch_hi == 0.5);
		assert_int_equal(m.quant_ns, 4);
		assert_true(m.latch_lo == 0.15);	/* not set: kept */
		assert_true(m.tail_ns == 1500.0);
	}
	assert_int_equal(s.links[0].ends[0], 0);
	assert_int_equal(s.links[0].ends[1], 1);
	assert_int_equal(s.links[1].ends[0], 1);
	assert_int_equal(s.links[0].model.delay_ns, 500);
	assert_true(s.links[0].model.pdv_ns == 20.0);
	assert_int_equal(s.links[0].model.asym_ns, -40);
	assert_true(s.links[0].model.loss == 0.01);
	/* Events sorted by time, file order among equal times. */
	assert_int_equal(s.nacts, 9);
	assert_int_equal(s.nodes[1].start_ns, 30 * SIM_NSEC);
	assert_int_equal(s.nodes[1].txts_ns, 5000000);
	assert_int_equal(s.nodes[0].start_ns, 0);
	assert_int_equal(s.nodes[0].txts_ns, -1);
	assert_int_equal(s.acts[0].kind, SA_LINK_DOWN);
	assert_int_equal(s.acts[1].kind, SA_LINK_SET);
	assert_string_equal(s.acts[1].key, "delay");
	assert_true(s.acts[1].value == 700.0);
	assert_int_equal(s.acts[2].kind, SA_NODE_CRASH);
	assert_int_equal(s.acts[2].target, 1);
	assert_int_equal(s.acts[3].kind, SA_NODE_RESTART);
	assert_int_equal(s.acts[4].kind, SA_NODE_SET);
	assert_string_equal(s.acts[4].key, "clockClass");
	assert_true(s.acts[4].value == 248.0);
	assert_int_equal(s.acts[5].kind, SA_NODE_FREQ_STEP);
	assert_true(s.acts[5].value == -1000.5);
	assert_int_equal(s.acts[5].t, 80 * SIM_NSEC);
	assert_int_equal(s.acts[6].kind, SA_NODE_PORT);
	assert_string_equal(s.acts[6].key, "l2");
	assert_true(s.acts[6].value == 0.0);
	assert_int_equal(s.acts[7].kind, SA_NODE_CLOCK_STEP);
	assert_int_equal(s.acts[7].step_ns, -100000000000LL);
	assert_int_equal(s.acts[8].kind, SA_NODE_NETD_RESTART);
	assert_int_equal(s.acts[8].target, 0);
	scenario_free(&s);
}

static void
test_scenario_bad(void **state)
{
	static const char *bad[] = {
		"[sim]\nduration 10\n",			/* no node */
		"duration 10\n[node a]\n",		/* key outside */
		"[sim]\nfoo 1\n",			/* unknown key */
		"[sim]\nduration -1\n[node a]\n",
		"[sim]\nsample_interval 0\n",
		"[node a]\n[node a]\n",			/* twice */
		"[node a]\n[link l]\nends a\n",		/* one end */
		"[node a]\n[link l]\nends a b\n",	/* no node b */
		"[node a]\n[node b]\n[link l]\nends a a\n",
		"[node a]\n[node b]\n",			/* on no link */
		"[node a]\nsim_bogus 1\n[node b]\n[link l]\nends a b\n",
		"[node a]\nsim_ts fast\n",
		"[node a]\nsim_ts_bogus 1\n[node b]\n[link l]\nends a b\n",
		"[node a]\nsim_ts_tail_p 2\n[node b]\n[link l]\nends a b\n",
		"[node a]\nsim_ts_quant 0\n[node b]\n[link l]\nends a b\n",
		"[node a]\n@l9 logSyncInterval 0\n[node b]\n[link l]\n"
		    "ends a b\n",			/* not on l9 */
		"[node a]\nclockClass\n",		/* no value */
		"[node a]\n[node b]\n[link l]\nends a b\nloss 2\n",
		"[node a]\n[node b]\n[link l]\nends a b\n[events]\n"
		    "5 node c crash\n",
		"[node a]\n[node b]\n[link l]\nends a b\n[events]\n"
		    "5 link l wobble\n",
		"[node a]\n[node b]\n[link l]\nends a b\n[events]\n"
		    "5 node a set domainNumber 3\n",
		"[node a]\n[node b]\n[link l]\nends a b\n[events]\n"
		    "5 node a set clockClass 300\n",
		"[sim]\nduration 10\n[node a]\n[node b]\n[link l]\n"
		    "ends a b\n[events]\n11 node a crash\n",
		"[sim]\nreference z\n[node a]\n[node b]\n[link l]\n"
		    "ends a b\n",
		"[node a]\n[node b]\n[node c]\n[link l]\nends a b\n"
		    "[link m]\nends b c\n[events]\n5 node a port m "
		    "disable\n",			/* a not on m */
		"[node a]\n[node b]\n[link l]\nends a b\n[events]\n"
		    "5 node a port l off\n",
		"[sim]\nduration 10\n[node a]\nsim_start 11\n[node b]\n"
		    "[link l]\nends a b\n",
		"[node a]\n[node b]\n[link l]\nends a b\n[events]\n"
		    "5 node a clock_step 1.5\n",
		"[node a]\n[node b]\n[link l]\nends a b\n[events]\n"
		    "5 node a netd_restart now\n",
		"[node a]\nsim_sysoff ptm\n[node b]\n[link l]\nends a b\n",
		"[node a]\nsim_sysoff_bogus 1\n[node b]\n[link l]\n"
		    "ends a b\n",
		"[node a]\nsim_sysoff_latch_lo 1.5\n[node b]\n[link l]\n"
		    "ends a b\n",
		"[node a]\nsim_sys_freq fast\n[node b]\n[link l]\n"
		    "ends a b\n",
		"[node a]\nsim_sys_bogus 1\n[node b]\n[link l]\n"
		    "ends a b\n",
		"[sim]\nutc_offset -1\n[node a]\n[node b]\n[link l]\n"
		    "ends a b\n",
		"[bogus]\n",
		"[node a b]\n",
		"[node a/b]\n",
	};
	struct sim_scenario s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (load(&s, bad[i]) == 0)
			fail_msg("accepted bad scenario %zu:\n%s", i, bad[i]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evq_order),
		cmocka_unit_test(test_evq_remove_rearm),
		cmocka_unit_test(test_scenario_good),
		cmocka_unit_test(test_scenario_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
