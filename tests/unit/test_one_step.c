/*
 * test_one_step.c - clockd as a one-step clock (issue 14): clock_init()
 * takes twoStepFlag from time_stamping and twoStepFlag as ptp4l
 * harmonises them (cli_step_mode()); a one-step master sends its Sync
 * alone, without twoStepFlag, TX time stamp or Follow_Up (11.3.2); a
 * p2p1step responder sends its Pdelay_Resp alone with the request's
 * correctionField (11.4.3 c), a onestep one still answers two-step.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "cfg.h"
#include "clockd/clockd.h"
#include "ptp_msg.h"

/* What the engine handed to netd. */
static struct sent {
	int	 n;
	int	 event, want_ts;
	enum netd_dest dest;
	size_t	 len, fu_len;
	uint8_t	 payload[256];
} sent;

struct env_timer {
	int	unused;
};

static int64_t
f_now(void *ctx)
{
	(void)ctx;
	return 1000000000LL;
}

static struct env_timer *
f_timer_new(void *ctx, env_timer_cb cb, void *arg)
{
	(void)ctx; (void)cb; (void)arg;
	return calloc(1, sizeof(struct env_timer));
}

static void
f_timer_free(void *ctx, struct env_timer *t)
{
	(void)ctx;
	free(t);
}

static void
f_timer_arm(void *ctx, struct env_timer *t, int64_t delay)
{
	(void)ctx; (void)t; (void)delay;
}

static void
f_timer_cancel(void *ctx, struct env_timer *t)
{
	(void)ctx; (void)t;
}

static int
f_timer_pending(void *ctx, const struct env_timer *t)
{
	(void)ctx; (void)t;
	return 0;
}

static void
f_netd_start(void *ctx)
{
	(void)ctx;
}

static int
f_netd_ready(void *ctx)
{
	(void)ctx;
	return 1;
}

static int
f_send_frame(void *ctx, unsigned port, int event, enum netd_dest dest,
    const struct netd_addr *unicast, const uint8_t *payload, size_t len,
    uint64_t cookie, int want_ts, const uint8_t *fu, size_t fu_len)
{
	(void)ctx; (void)port; (void)unicast; (void)cookie; (void)fu;
	sent.n++;
	sent.event = event;
	sent.dest = dest;
	sent.want_ts = want_ts;
	sent.fu_len = fu_len;
	sent.len = len < sizeof(sent.payload) ? len : sizeof(sent.payload);
	memcpy(sent.payload, payload, sent.len);
	return 0;
}

static int
f_clock(void *ctx, uint64_t id)
{
	(void)ctx; (void)id;
	return 0;
}

static int
f_adjfreq(void *ctx, uint64_t id, double ppb)
{
	(void)ctx; (void)id; (void)ppb;
	return 0;
}

static int
f_step(void *ctx, uint64_t id, int64_t ns)
{
	(void)ctx; (void)id; (void)ns;
	return 0;
}

static const struct env_ops fake_ops = {
	.now = f_now,
	.timer_new = f_timer_new,
	.timer_free = f_timer_free,
	.timer_arm = f_timer_arm,
	.timer_cancel = f_timer_cancel,
	.timer_pending = f_timer_pending,
	.netd_start = f_netd_start,
	.netd_ready = f_netd_ready,
	.send_frame = f_send_frame,
	.clock_read = f_clock,
	.clock_adjfreq = f_adjfreq,
	.clock_step = f_step,
};
static const struct env fake_env = { &fake_ops, NULL };

static struct clockd clk;
static struct cfg *cfg;

/* clock_init() over a configuration text; one port, P2P. */
static struct cport *
start(const char *text)
{
	struct cport *p;

	cfg = cfg_new();
	assert_non_null(cfg);
	assert_int_equal(cfg_load_buffer(cfg, "t.cfg", text, strlen(text)),
	    0);
	memset(&clk, 0, sizeof(clk));
	assert_int_equal(clock_init(&clk, &fake_env, cfg), 0);
	p = &clk.ports[0];
	p->c = &clk;
	p->index = 0;
	p->identity.port_number = 1;
	p->delay_mechanism = DM_P2P;
	memset(&sent, 0, sizeof(sent));
	return p;
}

static int
teardown(void **state)
{
	(void)state;
	clock_fini(&clk);
	cfg_free(cfg);
	return 0;
}

static int
two_step_flag(void)
{
	return (sent.payload[6] & (PTP_FLAG_TWO_STEP >> 8)) != 0;
}

static int64_t
correction(void)
{
	uint64_t v = 0;
	int i;

	for (i = 8; i < 16; i++)
		v = v << 8 | sent.payload[i];
	return (int64_t)v;
}

static int
zero(size_t off, size_t n)
{
	size_t i;

	for (i = off; i < off + n; i++)
		if (sent.payload[i] != 0)
			return 0;
	return 1;
}

/* A Pdelay_Req from a neighbour with a correctionField. */
static void
pdelay_req(struct cport *p, int64_t corr)
{
	struct ptp_msg req;
	struct ptp_timestamp t2 = { 100, 500 };

	memset(&req, 0, sizeof(req));
	req.hdr.message_type = PTP_MT_PDELAY_REQ;
	req.hdr.sequence_id = 7;
	req.hdr.correction = corr;
	req.hdr.source_port_identity.port_number = 3;
	responder_rx_pdelay_req(p, &req, &t2);
}

static void
test_two_step_default(void **state)
{
	struct cport *p = start("[global]\n");

	(void)state;
	assert_int_equal(clk.dds.two_step, 1);
	master_send_sync(p);
	assert_int_equal(sent.n, 1);
	assert_true(sent.want_ts);
	assert_true(sent.fu_len > 0);
	assert_true(two_step_flag());
	pdelay_req(p, 0x12340000);
	assert_true(sent.want_ts);
	assert_true(two_step_flag());
	assert_int_equal(correction(), 0);	/* it goes in the follow-up */
}

/* hardware + twoStepFlag 0, and time_stamping onestep: one-step Sync. */
static void
test_one_step_sync(void **state)
{
	static const char *cf[] = {
		"[global]\ntwoStepFlag 0\n",
		"[global]\ntime_stamping onestep\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct cport *p = start(cf[i]);

		assert_int_equal(clk.dds.two_step, 0);
		assert_int_equal(clk.p2p_one_step, 0);
		master_send_sync(p);
		assert_int_equal(sent.n, 1);
		assert_int_equal(sent.payload[0] & 0x0f, PTP_MT_SYNC);
		assert_true(sent.event);
		assert_int_equal(sent.dest, NETD_DEST_PRIMARY);
		assert_false(sent.want_ts);
		assert_int_equal(sent.fu_len, 0);
		assert_false(two_step_flag());
		assert_true(zero(34, 10));	/* the NIC writes t1 */
		/* Pdelay_Resp stays two-step (HWTSTAMP_TX_ONESTEP_SYNC). */
		pdelay_req(p, 0x12340000);
		assert_int_equal(sent.n, 2);
		assert_true(sent.want_ts);
		assert_true(sent.fu_len > 0);
		assert_true(two_step_flag());
		if (i == 0)
			teardown(NULL);
	}
}

/* p2p1step: the Pdelay_Resp alone, the request's correctionField. */
static void
test_p2p1step_responder(void **state)
{
	struct cport *p = start("[global]\ntime_stamping p2p1step\n");

	(void)state;
	assert_int_equal(clk.dds.two_step, 0);
	assert_int_equal(clk.p2p_one_step, 1);
	pdelay_req(p, 0x12340000);
	assert_int_equal(sent.n, 1);
	assert_int_equal(sent.payload[0] & 0x0f, PTP_MT_PDELAY_RESP);
	assert_int_equal(sent.dest, NETD_DEST_PDELAY);
	assert_false(sent.want_ts);
	assert_int_equal(sent.fu_len, 0);
	assert_false(two_step_flag());
	assert_int_equal(correction(), 0x12340000);
	assert_true(zero(34, 10));	/* requestReceiptTimestamp */
	assert_int_equal(sent.payload[53], 3);	/* requestingPortIdentity */
	master_send_sync(p);
	assert_false(sent.want_ts);
	assert_false(two_step_flag());
}

/*
 * netd's PortList says how it stamps each port: clockd connects when that
 * is its own step, and exits naming both when not (netd would close the
 * connection at its first Sync).
 */
static int
connect_child(const char *text, int one_step)
{
	static const uint8_t id[8] = { 0, 1, 2, 0xff, 0xfe, 3, 4, 5 };
	struct netd_port_desc port = {
		.iface = "eth0", .transport = NETD_TR_L2, .link_up = 1,
		.clock_identity = id, .one_step = one_step,
	};
	struct netd_port_list pl = { .ports = &port, .nports = 1 };
	pid_t pid;
	int st;

	if ((pid = fork()) == 0) {
		cfg = cfg_new();
		if (cfg_load_buffer(cfg, "t.cfg", text, strlen(text)) != 0 ||
		    clock_init(&clk, &fake_env, cfg) != 0)
			_exit(3);
		pl.have_clock = 1;
		pl.clock.max_freq_ppb = 500000;
		pl.clock.step_allowed = 1;
		clock_netd_cbs.connected(&clk, &pl);
		_exit(clk.have_ports ? 0 : 4);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void
test_port_list_step(void **state)
{
	(void)state;
	assert_int_equal(connect_child("[global]\n", 0), 0);
	assert_int_equal(connect_child("[global]\ntwoStepFlag 0\n", 1), 0);
	assert_int_equal(connect_child("[global]\n", 1), 1);
	assert_int_equal(connect_child("[global]\ntwoStepFlag 0\n", 0), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_two_step_default, teardown),
		cmocka_unit_test_teardown(test_one_step_sync, teardown),
		cmocka_unit_test_teardown(test_p2p1step_responder, teardown),
		cmocka_unit_test(test_port_list_step),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
