/*
 * test_port_time.c - clockd's port code fed received messages whose time
 * stamps cannot be represented as int64 ns (issue 11, item 3).
 *
 * A PTP Timestamp holds up to 2^48 - 1 s (5.3.3); any host on a P2P link
 * can send a Pdelay_Resp and Pdelay_Resp_Follow_Up with t2 = t3 = 2^48 - 1
 * s.  t3 - t2 is then 0 and the link delay comes out plausible, but the
 * port's debug line converted each of them to int64 ns: signed overflow,
 * which the UBSan build aborts on.  Such a message must be dropped (and
 * counted), never used.  The frames go through port_rx(), as netd would
 * hand them over, with the log level at debug so every debug argument is
 * evaluated.
 *
 * And when the E2E slave's Delay_Req leaves: with the Sync sample it is
 * due at (port_slave.c, issue 13).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "clockd/clockd.h"
#include "log.h"
#include "ptp_msg.h"

#define MAX48		0xFFFFFFFFFFFFULL
#define SEQ		7

static struct clockd clk;

/* The engine's "now" (env.h), its timers and its sends to netd: the
 * frames sent and the last arming of a timer are recorded. */
static int64_t now_ns = 1000000000LL;
static struct {
	int		 nsent;
	unsigned	 type[8];	/* messageType of each frame sent */
	int		 narm;
	int64_t		 arm_ns;	/* the last timer_arm's delay */
} E;

static int64_t
fake_now(void *ctx)
{
	(void)ctx;
	return now_ns;
}

static void
fake_timer_arm(void *ctx, struct env_timer *t, int64_t delay_ns)
{
	(void)ctx;
	(void)t;
	E.narm++;
	E.arm_ns = delay_ns;
}

static int
fake_send_frame(void *ctx, unsigned port, int event, enum netd_dest dest,
    const struct netd_addr *unicast, const uint8_t *payload, size_t len,
    uint64_t cookie, int want_ts, const uint8_t *fu, size_t fu_len)
{
	(void)ctx;
	(void)port;
	(void)event;
	(void)dest;
	(void)unicast;
	(void)cookie;
	(void)want_ts;
	(void)fu;
	(void)fu_len;
	assert_true(len > 0);
	assert_true(E.nsent < 8);
	E.type[E.nsent++] = payload[0] & 0x0f;
	return 0;
}

static const struct env_ops fake_ops = {
	.now = fake_now,
	.timer_arm = fake_timer_arm,
	.send_frame = fake_send_frame,
};
static const uint8_t own_id[PTP_CLOCK_ID_LEN] = { 1, 1, 1, 1, 1, 1, 1, 1 };
static const uint8_t peer_id[PTP_CLOCK_ID_LEN] = { 2, 2, 2, 2, 2, 2, 2, 2 };

static int
setup(void **state)
{
	struct cport *p = &clk.ports[0];

	memset(&clk, 0, sizeof(clk));
	memset(&E, 0, sizeof(E));
	now_ns = 1000000000LL;
	clk.env.ops = &fake_ops;
	memcpy(clk.dds.clock_identity, own_id, PTP_CLOCK_ID_LEN);
	clk.slave_port = -1;
	clk.nports = 1;
	p->c = &clk;
	memcpy(p->identity.clock_identity, own_id, PTP_CLOCK_ID_LEN);
	p->identity.port_number = 1;
	p->state = PS_SLAVE;
	p->kind = FSM_ORDINARY;
	p->delay_mechanism = DM_P2P;
	p->delay_filter = filter_create(FILTER_MOVING_MEDIAN, 10);
	assert_non_null(p->delay_filter);
	/* parentDS: the peer is our master (for Sync / Follow_Up) */
	memcpy(clk.pds.parent_port_identity.clock_identity, peer_id,
	    PTP_CLOCK_ID_LEN);
	clk.pds.parent_port_identity.port_number = 1;
	*state = p;
	return 0;
}

static int
teardown(void **state)
{
	struct cport *p = *state;

	filter_destroy(p->delay_filter);
	p->delay_filter = NULL;
	return 0;
}

/* Packs m as the peer's and hands it to port_rx() with ingress time rx. */
static void
rx(struct cport *p, struct ptp_msg *m, uint64_t rx_sec)
{
	struct netd_rx f;
	uint8_t buf[128];
	int len;

	m->hdr.version = PTP_VERSION;
	memcpy(m->hdr.source_port_identity.clock_identity, peer_id,
	    PTP_CLOCK_ID_LEN);
	m->hdr.source_port_identity.port_number = 1;
	len = ptp_msg_pack(m, buf, sizeof(buf));
	assert_true(len > 0);
	memset(&f, 0, sizeof(f));
	f.payload = buf;
	f.len = (size_t)len;
	f.have_ts = 1;
	f.ts.sec = rx_sec;
	f.ts.nsec = 500;
	port_rx(p, &f);
}

/* One P2P exchange: Pdelay_Req sent at 1000 s (its TX timestamp comes
 * back), Pdelay_Resp with t2 received at 1000 s + 500 ns, then the
 * Pdelay_Resp_Follow_Up with t3. */
static void
pdelay_exchange(struct cport *p, struct ptp_timestamp t2,
    struct ptp_timestamp t3)
{
	struct ptp_timestamp t1 = { 1000, 0 };
	struct ptp_msg m;

	p->pdreq_pending = 1;
	p->pdreq_seq = SEQ;
	p->pd_have_t1 = p->pd_have_resp = p->pd_have_fup = 0;
	memset(&p->pd, 0, sizeof(p->pd));
	p2p_pdelay_req_tx_ts(p, SEQ, &t1);

	memset(&m, 0, sizeof(m));
	m.hdr.message_type = PTP_MT_PDELAY_RESP;
	m.hdr.flags = PTP_FLAG_TWO_STEP;
	m.hdr.sequence_id = SEQ;
	m.body.pdelay_resp.request_receipt_timestamp = t2;
	m.body.pdelay_resp.requesting_port_identity = p->identity;
	rx(p, &m, 1000);

	memset(&m, 0, sizeof(m));
	m.hdr.message_type = PTP_MT_PDELAY_RESP_FOLLOW_UP;
	m.hdr.sequence_id = SEQ;
	m.body.pdelay_resp_fup.response_origin_timestamp = t3;
	m.body.pdelay_resp_fup.requesting_port_identity = p->identity;
	rx(p, &m, 0);
}

/* The control: a sane exchange gives a link delay of 250 ns. */
static void
test_pdelay_sane(void **state)
{
	struct cport *p = *state;

	pdelay_exchange(p, (struct ptp_timestamp){ 5000, 100 },
	    (struct ptp_timestamp){ 5000, 100 });
	assert_int_equal(p->have_delay, 1);
	assert_int_equal(p->path_delay, 250 * 65536);
	assert_int_equal(p->dstats.invalid, 0);
	assert_int_equal(p->pdreq_pending, 0);
}

/* t2 = t3 = 2^48 - 1 s: dropped, counted, no delay sample. */
static void
test_pdelay_overflow(void **state)
{
	struct cport *p = *state;

	pdelay_exchange(p, (struct ptp_timestamp){ MAX48, 0 },
	    (struct ptp_timestamp){ MAX48, 0 });
	assert_int_equal(p->have_delay, 0);
	assert_true(p->dstats.invalid >= 1);
	assert_int_equal(p->pdreq_pending, 0);

	/* the next sane exchange still works */
	pdelay_exchange(p, (struct ptp_timestamp){ 5000, 100 },
	    (struct ptp_timestamp){ 5000, 100 });
	assert_int_equal(p->have_delay, 1);
	assert_int_equal(p->path_delay, 250 * 65536);
}

/* Only t3 out of range (the Follow_Up alone is hostile). */
static void
test_pdelay_fup_overflow(void **state)
{
	struct cport *p = *state;

	pdelay_exchange(p, (struct ptp_timestamp){ 5000, 100 },
	    (struct ptp_timestamp){ MAX48, 999999999 });
	assert_int_equal(p->have_delay, 0);
	assert_true(p->dstats.invalid >= 1);
	assert_int_equal(p->pdreq_pending, 0);
}

/* Just past INT64_MAX ns is out; INT64_MAX ns itself is a valid time. */
static void
test_pdelay_int64_edge(void **state)
{
	struct cport *p = *state;

	pdelay_exchange(p, (struct ptp_timestamp){ 9223372036ULL, 854775808 },
	    (struct ptp_timestamp){ 9223372036ULL, 854775808 });
	assert_int_equal(p->have_delay, 0);
	assert_int_equal(p->dstats.invalid, 1);
	pdelay_exchange(p, (struct ptp_timestamp){ 9223372036ULL, 854775807 },
	    (struct ptp_timestamp){ 9223372036ULL, 854775807 });
	assert_int_equal(p->have_delay, 1);
	assert_int_equal(p->dstats.invalid, 1);
}

/* A two-step Sync whose Follow_Up carries 2^48 - 1 s never becomes the
 * port's last Sync (which the E2E delay and management read). */
static void
test_follow_up_overflow(void **state)
{
	struct cport *p = *state;
	struct ptp_msg m;

	p->delay_mechanism = DM_E2E;
	memset(&m, 0, sizeof(m));
	m.hdr.message_type = PTP_MT_SYNC;
	m.hdr.flags = PTP_FLAG_TWO_STEP;
	m.hdr.sequence_id = 3;
	rx(p, &m, 1000);
	assert_int_equal(p->sync_valid, 1);

	memset(&m, 0, sizeof(m));
	m.hdr.message_type = PTP_MT_FOLLOW_UP;
	m.hdr.sequence_id = 3;
	m.body.follow_up.precise_origin_timestamp =
	    (struct ptp_timestamp){ MAX48, 0 };
	rx(p, &m, 0);
	assert_int_equal(p->last_sync_valid, 0);
	assert_true(p->dstats.invalid >= 1);

	/* one-step Sync with the same originTimestamp */
	memset(&m, 0, sizeof(m));
	m.hdr.message_type = PTP_MT_SYNC;
	m.hdr.sequence_id = 4;
	m.body.sync.origin_timestamp = (struct ptp_timestamp){ MAX48, 0 };
	rx(p, &m, 1000);
	assert_int_equal(p->last_sync_valid, 0);

	/* and a sane one-step Sync is taken */
	m.hdr.sequence_id = 5;
	m.body.sync.origin_timestamp = (struct ptp_timestamp){ 999, 0 };
	rx(p, &m, 1000);
	assert_int_equal(p->last_sync_valid, 1);
}

/* A one-step Sync from the master, sent at sec s and received at s + 1 us
 * (the engine's monotonic clock at s s). */
static void
sync_at(struct cport *p, uint16_t seq, uint64_t s)
{
	struct ptp_msg m;

	now_ns = (int64_t)s * 1000000000LL;
	memset(&m, 0, sizeof(m));
	m.hdr.message_type = PTP_MT_SYNC;
	m.hdr.sequence_id = seq;
	m.body.sync.origin_timestamp = (struct ptp_timestamp){ s, 499 };
	rx(p, &m, s);
}

/*
 * The E2E slave's Delay_Req leaves while the Sync sample is processed,
 * once it is due (issue 13: one clockd wake-up, one datagram to netd with
 * the servo's frequency change): not before its due time, and at the
 * first sample after it, with the next due time counted from this one
 * and t_delay armed as the fallback one and a half Sync intervals after
 * it.  Until the first path delay it goes with the first sample that has
 * a rate ratio, due or not.
 */
static void
test_dreq_with_sync(void **state)
{
	struct cport *p = *state;
	int64_t due;

	/* no path delay (so no clock_synchronize() here), and each time
	 * one Sync only: no rate ratio, the due time rules */
	p->delay_mechanism = DM_E2E;
	p->dreq_due = 10500000000LL;	/* 10.5 s */
	sync_at(p, 1, 10);
	assert_int_equal(p->last_sync_valid, 1);
	assert_int_equal(E.nsent, 0);		/* not yet due */
	p->last_sync_valid = 0;
	sync_at(p, 2, 11);
	assert_int_equal(E.nsent, 1);		/* due: with this sample */
	assert_int_equal(E.type[0], PTP_MT_DELAY_REQ);
	assert_int_equal(p->dreq_pending, 1);
	assert_int_equal(p->dreq_seq, 0);
	/* the next one counts from 10.5 s, not from now */
	due = p->dreq_due;
	assert_true(due >= 10500000000LL && due < 12500000000LL);
	assert_true(E.narm >= 1);
	assert_int_equal(E.arm_ns, (due > now_ns ? due - now_ns : 0) +
	    1500000000LL);
	/* acquisition: a rate ratio and no path delay yet */
	p->dreq_due = 100000000000LL;		/* far away */
	p->prev_sync_valid = 0;
	p->last_sync_valid = 0;
	p->dreq_pending = 0;
	E.nsent = 0;
	sync_at(p, 3, 20);
	assert_int_equal(p->have_rr, 0);
	assert_int_equal(E.nsent, 0);
	sync_at(p, 4, 21);
	assert_int_equal(p->have_rr, 1);
	assert_int_equal(E.nsent, 1);
	assert_int_equal(E.type[0], PTP_MT_DELAY_REQ);
	/* once one is in flight, not again until it is due */
	sync_at(p, 5, 22);
	assert_int_equal(E.nsent, 1);
}

/*
 * Software time stamps: a due Delay_Req leaves DREQ_COLD (20 ms) after
 * the Sync sample, from t_delay, not in the sample's wake-up (a send right
 * after a receive takes a shorter software-stamped path: port_slave.c),
 * at most half a Sync interval after it; the next due time still counts
 * from the due time.
 */
static void
test_dreq_sw_lag(void **state)
{
	struct cport *p = *state;
	int64_t due;

	p->c->sw_ts = 1;
	p->delay_mechanism = DM_E2E;
	p->dreq_due = 10500000000LL;
	sync_at(p, 1, 11);
	assert_int_equal(E.nsent, 0);		/* not with the sample */
	assert_int_equal(p->dreq_lagged, 1);
	assert_int_equal(E.arm_ns, 20000000LL);
	p->last_sync_valid = 0;
	sync_at(p, 2, 12);			/* a Sync meanwhile: no re-arm */
	assert_int_equal(E.nsent, 0);
	assert_int_equal(E.arm_ns, 20000000LL);
	now_ns = 12020000000LL;
	slave_dreq_timer(p);			/* t_delay fires */
	assert_int_equal(E.nsent, 1);
	assert_int_equal(E.type[0], PTP_MT_DELAY_REQ);
	assert_int_equal(p->dreq_lagged, 0);
	due = p->dreq_due;
	assert_true(due >= 10500000000LL && due < 12500000000LL);
	/* 64 Syncs a second: half an interval, 7.8 ms */
	p->log_sync_interval = -6;
	p->dreq_pending = 0;
	p->dreq_due = 20000000000LL;
	p->last_sync_valid = 0;
	sync_at(p, 3, 21);
	assert_int_equal(E.nsent, 1);
	assert_int_equal(E.arm_ns, 7812500LL);
}

/* Syncs rarer than Delay_Reqs (one a second, 16 requests): the timer
 * sends at the due time, not a Sync interval later. */
static void
test_dreq_fast_timer(void **state)
{
	struct cport *p = *state;

	p->delay_mechanism = DM_E2E;
	p->log_sync_interval = 0;
	p->log_min_delay_req_interval = -4;
	now_ns = 5000000000LL;
	slave_dreq_schedule(p, now_ns);
	assert_true(p->dreq_due >= now_ns && p->dreq_due < now_ns + 125000000);
	assert_int_equal(E.arm_ns, p->dreq_due - now_ns);
	/* equal rates: it waits one and a half Sync intervals more */
	p->log_min_delay_req_interval = 0;
	slave_dreq_schedule(p, now_ns);
	assert_int_equal(E.arm_ns, p->dreq_due - now_ns + 1500000000LL);
}

/* The master's Delay_Resp for request seq: t4 at sec s + ns. */
static void
dresp(struct cport *p, uint16_t seq, uint64_t s, uint32_t ns)
{
	struct ptp_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.message_type = PTP_MT_DELAY_RESP;
	m.hdr.sequence_id = seq;
	m.hdr.log_message_interval = 0x7f;
	m.body.delay_resp.receive_timestamp = (struct ptp_timestamp){ s, ns };
	m.body.delay_resp.requesting_port_identity = p->identity;
	rx(p, &m, s);
}

/*
 * A Delay_Req overtaken by the next before its Delay_Resp came (a master
 * that answers late: netd holds a busy port's Delay_Reqs 20 ms) is still
 * matched, once, as ptp4l matches any of its recent requests; one whose
 * answer comes after DREQ_OLD_NS is not, and neither is a sequenceId
 * never sent.  Sync: t2 - t1 = 1 ns; Delay_Req: t4 - t3 = 999 ns; so a
 * path delay of 500 ns.
 */
static void
test_dreq_overtaken(void **state)
{
	struct cport *p = *state;
	struct ptp_timestamp t3 = { 21, 1000 };

	p->delay_mechanism = DM_E2E;
	p->dreq_due = 100000000000LL;		/* far away */
	sync_at(p, 1, 20);
	sync_at(p, 2, 21);
	assert_int_equal(p->have_rr, 1);
	assert_int_equal(E.nsent, 1);		/* seq 0, with the sample */
	assert_int_equal(p->dreq_seq, 0);
	slave_send_delay_req(p);		/* seq 1 overtakes it */
	assert_int_equal(p->dreq_seq, 1);
	/* seq 0's answer before its TX stamp, then the stamp */
	dresp(p, 0, 21, 1999);
	assert_int_equal(p->have_delay, 0);
	slave_delay_req_tx_ts(p, 0, &t3);
	assert_int_equal(p->have_delay, 1);
	assert_int_equal(p->path_delay, 500 * 65536);
	/* once: the same answer again adds nothing; seq 1 still pending */
	p->have_delay = 0;
	dresp(p, 0, 21, 1999);
	assert_int_equal(p->have_delay, 0);
	assert_int_equal(p->dreq_pending, 1);
	/* an answer to a request never sent */
	dresp(p, 7, 21, 1999);
	assert_int_equal(p->have_delay, 0);
	/* overtaken again (seq 1 by 2), answered 1.5 s later: too late */
	slave_send_delay_req(p);
	slave_delay_req_tx_ts(p, 1, &t3);
	now_ns += 1500000000LL;
	dresp(p, 1, 21, 1999);
	assert_int_equal(p->have_delay, 0);
	/* the current one still completes as before */
	slave_delay_req_tx_ts(p, 2, &t3);
	dresp(p, 2, 21, 1999);
	assert_int_equal(p->have_delay, 1);
	assert_int_equal(p->dreq_pending, 0);
}

/* P2P: a Sync sample sends nothing (the Pdelay_Req has its own timer). */
static void
test_no_dreq_p2p(void **state)
{
	struct cport *p = *state;

	p->dreq_due = 0;
	sync_at(p, 1, 10);
	sync_at(p, 2, 11);
	assert_int_equal(p->last_sync_valid, 1);
	assert_int_equal(E.nsent, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pdelay_sane, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_pdelay_overflow, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_pdelay_fup_overflow,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_pdelay_int64_edge, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_follow_up_overflow,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_dreq_with_sync, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dreq_sw_lag, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dreq_fast_timer, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dreq_overtaken, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_no_dreq_p2p, setup,
		    teardown),
	};

	/* debug: every argument of every debug line is evaluated */
	log_init("test_port_time", 1, LOG_LVL_DEBUG);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
