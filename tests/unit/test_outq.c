/*
 * test_outq.c - netd's held messages and the NetdBatch built around them
 * (netd/outq.c): what is held, in which order it leaves, the bounds.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ipc.h"
#include "netd/outq.h"

static struct outq q;

/* A PTP message of type t and length len; two: twoStepFlag set. */
static void
ptp(uint8_t *b, size_t len, unsigned t, int two)
{
	memset(b, 0, len);
	b[0] = (uint8_t)t;
	b[1] = 2;
	b[2] = (uint8_t)(len >> 8);
	b[3] = (uint8_t)len;
	b[6] = two ? 0x02 : 0;
	b[31] = (uint8_t)t;	/* sequenceId: tells the members apart */
}

static void
test_rx_holds(void **state)
{
	uint8_t b[54];

	(void)state;
	ptp(b, 44, 0x0, 1);
	assert_int_equal(outq_rx_hold_ns(1, b, 44), OUTQ_RX_HOLD_NS);
	ptp(b, 54, 0x3, 1);			/* two-step Pdelay_Resp */
	assert_int_equal(outq_rx_hold_ns(1, b, 54), OUTQ_RX_HOLD_NS);
	ptp(b, 44, 0x0, 0);
	assert_int_equal(outq_rx_hold_ns(1, b, 44), 0);	/* one-step Sync */
	ptp(b, 44, 0x1, 0);
	assert_int_equal(outq_rx_hold_ns(1, b, 44), OUTQ_DREQ_HOLD_NS);
	ptp(b, 44, 0x1, 1);		/* Delay_Req, whatever its flags */
	assert_int_equal(outq_rx_hold_ns(1, b, 44), OUTQ_DREQ_HOLD_NS);
	assert_int_equal(outq_rx_hold_ns(0, b, 44), 0);	/* not an event */
	assert_int_equal(outq_rx_hold_ns(1, b, 20), 0);	/* short */
	ptp(b, 54, 0x2, 0);
	assert_int_equal(outq_rx_hold_ns(1, b, 54), 0);	/* Pdelay_Req */
	ptp(b, 44, 0x8, 1);
	assert_int_equal(outq_rx_hold_ns(0, b, 44), 0);	/* Follow_Up */
	ptp(b, 44, 0x0, 1);
	assert_int_equal(outq_rx_hold_ns(0, b, 44), 0);	/* not an event */
	assert_int_equal(outq_rx_hold_ns(1, b, 20), 0);	/* short */
}

/* An RxFrame envelope of the PTP message type t (two-step if a Sync). */

static ProtobufCMessage *
rx_msg(Ptpsep__Netd__NetdMsg *env, Ptpsep__Netd__RxFrame *f, uint8_t *b,
    unsigned t)
{
	ptp(b, 44, t, t == 0);
	ptpsep__netd__rx_frame__init(f);
	f->msg_class = t < 8 ? PTPSEP__MSG_CLASS__MSG_CLASS_EVENT :
	    PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
	f->payload.data = b;
	f->payload.len = 44;
	ptpsep__netd__netd_msg__init(env);
	env->body_case = PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME;
	env->rx_frame = f;
	return &env->base;
}

static ProtobufCMessage *
txts_msg(Ptpsep__Netd__NetdMsg *env, Ptpsep__Netd__TxTimestamp *t,
    uint64_t cookie)
{
	ptpsep__netd__tx_timestamp__init(t);
	t->cookie = cookie;
	t->status = PTPSEP__NETD__TX_TS_STATUS__TXTS_MISSING;
	ptpsep__netd__netd_msg__init(env);
	env->body_case = PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP;
	env->tx_timestamp = t;
	return &env->base;
}

/*
 * A held Sync and a TX timestamp leave with the next message, in order,
 * as one NetdBatch that ipc_decode() accepts; the held buffers are copies
 * (the port's receive buffer is reused at once).
 */
/*
 * outq_rx_hold(): a Delay_Req is held only while Delay_Reqs come at most
 * OUTQ_DREQ_GAP_NS apart on average: 10 clients at 1/s (100 ms apart) are
 * answered at once, 100 (10 ms) and 1,000 (1 ms) held; a two-step Sync is
 * held whatever the rate, and does not count as a Delay_Req.
 */
static void
test_dreq_rate(void **state)
{
	static struct outq r;
	uint8_t b[44], s[44];
	int64_t t = 1000000000;
	int i;

	(void)state;
	memset(&r, 0, sizeof(r));
	ptp(b, 44, 0x1, 0);
	ptp(s, 44, 0x0, 1);
	/* the first one: nothing known, none expected */
	assert_int_equal(outq_rx_hold(&r, 1, b, 44, t, 0), 0);
	for (i = 0; i < 50; i++)		/* 100 ms apart */
		assert_int_equal(outq_rx_hold(&r, 1, b, 44, t += 100000000, 0), 0);
	assert_int_equal(outq_rx_hold(&r, 1, s, 44, t, 0), OUTQ_RX_HOLD_NS);
	for (i = 0; i < 50; i++)		/* 10 ms apart */
		(void)outq_rx_hold(&r, 1, b, 44, t += 10000000, 0);
	assert_int_equal(outq_rx_hold(&r, 1, b, 44, t += 10000000, 0),
	    OUTQ_DREQ_HOLD_NS);
	for (i = 0; i < 50; i++)		/* 100 ms apart again */
		(void)outq_rx_hold(&r, 1, b, 44, t += 100000000, 0);
	assert_int_equal(outq_rx_hold(&r, 1, b, 44, t += 100000000, 0), 0);
	for (i = 0; i < 50; i++)		/* 1 ms apart */
		(void)outq_rx_hold(&r, 1, b, 44, t += 1000000, 0);
	assert_int_equal(outq_rx_hold(&r, 1, b, 44, t += 1000000, 0),
	    OUTQ_DREQ_HOLD_NS);
	/* a Sync burst in between changes nothing */
	for (i = 0; i < 100; i++)
		assert_int_equal(outq_rx_hold(&r, 1, s, 44, t, 0),
		    OUTQ_RX_HOLD_NS);
	assert_int_equal(outq_rx_hold(&r, 1, b, 44, t += 1000000, 0),
	    OUTQ_DREQ_HOLD_NS);
	/* a pause of a minute counts as one gap of OUTQ_GAP_MAX_NS: holding
	 * goes on; a few more such gaps end it, and it resumes */
	assert_int_equal(outq_rx_hold(&r, 1, b, 44, t += 60000000000LL, 0),
	    OUTQ_DREQ_HOLD_NS);
	for (i = 0; i < 5; i++)
		(void)outq_rx_hold(&r, 1, b, 44, t += 60000000000LL, 0);
	assert_int_equal(outq_rx_hold(&r, 1, b, 44, t += 60000000000LL, 0), 0);
	for (i = 0; i < 50; i++)
		(void)outq_rx_hold(&r, 1, b, 44, t += 1000000, 0);
	assert_int_equal(outq_rx_hold(&r, 1, b, 44, t += 1000000, 0),
	    OUTQ_DREQ_HOLD_NS);
	/* not an event, short: as outq_rx_hold_ns() */
	assert_int_equal(outq_rx_hold(&r, 0, b, 44, t, 0), 0);
	assert_int_equal(outq_rx_hold(&r, 1, b, 20, t, 0), 0);
	/* a clock going back is a long gap, not a negative one */
	for (i = 0; i < 5; i++)
		(void)outq_rx_hold(&r, 1, b, 44, t -= 5000000000LL, 0);
	assert_int_equal(outq_rx_hold(&r, 1, b, 44, t -= 5000000000LL, 0), 0);
}

/*
 * outq_rx_hold() with unicast peers: the hold is an eighth of a peer's own
 * interval (peers x the mean gap), from OUTQ_DREQ_HOLD_NS to
 * OUTQ_DREQ_HOLD_MAX_NS.  100 clients at 1/s (10 ms apart): 125 ms, so
 * the cap, 100 ms; 100 at 16/s (0.625 ms apart): 7.8 ms, so 20 ms; 16 at
 * 2.5/s (25 ms apart): 50 ms; 500 at 1.67/s (1.2 ms apart): 75 ms.  A
 * rate too low to hold holds nothing, whatever the peers.  (The mean gap
 * settles within 8 ns of the gap: integer steps of an eighth.)
 */
static int64_t
dreq_hold_at(unsigned peers, int64_t gap)
{
	static struct outq r;
	int64_t t = 1000000000, h = 0;
	int i;
	uint8_t b[44];

	memset(&r, 0, sizeof(r));
	ptp(b, 44, 0x1, 0);
	for (i = 0; i < 200; i++)
		h = outq_rx_hold(&r, 1, b, 44, t += gap, peers);
	return h;
}

static void
test_dreq_hold_peers(void **state)
{
	(void)state;
	assert_int_equal(dreq_hold_at(100, 10000000), OUTQ_DREQ_HOLD_MAX_NS);
	assert_int_equal(dreq_hold_at(400, 2500000), OUTQ_DREQ_HOLD_MAX_NS);
	assert_int_equal(dreq_hold_at(100, 625000), OUTQ_DREQ_HOLD_NS);
	assert_int_equal(dreq_hold_at(1000, 100000), OUTQ_DREQ_HOLD_NS);
	assert_int_equal(dreq_hold_at(0, 1000000), OUTQ_DREQ_HOLD_NS);
	assert_in_range(dreq_hold_at(16, 25000000), 50000000, 50000020);
	assert_in_range(dreq_hold_at(500, 1200000), 75000000, 75000500);
	assert_int_equal(dreq_hold_at(10000, 100000000), 0);
	assert_int_equal(dreq_hold_at(UINT32_MAX, 1000000),
	    OUTQ_DREQ_HOLD_MAX_NS);
}

static void
test_batch_in_order(void **state)
{
	Ptpsep__Netd__NetdMsg e1, e2, e3, *got;
	Ptpsep__Netd__RxFrame f1, f3;
	Ptpsep__Netd__TxTimestamp t2;
	uint8_t b1[44], b3[44], next[IPC_MAX_MSG], out[IPC_MAX_MSG];
	ProtobufCMessage *m;
	size_t nlen, len;

	(void)state;
	outq_clear(&q);
	assert_int_equal(outq_hold(&q, rx_msg(&e1, &f1, b1, 0x0), OUTQ_RX, 0,
	    1000, 0), 1);
	assert_int_equal(q.deadline_ns, 1000 + OUTQ_RX_HOLD_NS);
	memset(b1, 0xee, sizeof(b1));		/* the port reuses it */
	/* A later TX stamp's bound is later: the deadline stays. */
	assert_int_equal(outq_hold(&q, txts_msg(&e2, &t2, 77), OUTQ_TXTS, 0,
	    2000, 0), 0);
	assert_int_equal(q.deadline_ns, 1000 + OUTQ_RX_HOLD_NS);
	assert_false(outq_droppable(&q));
	assert_int_equal(ipc_encode(rx_msg(&e3, &f3, b3, 0x8), next,
	    sizeof(next), &nlen), IPC_OK);
	len = outq_build(&q, next, nlen, out, sizeof(out));
	assert_true(len > 0);
	assert_int_equal(ipc_decode(&ptpsep__netd__netd_msg__descriptor, out,
	    len, &m), IPC_OK);
	got = (Ptpsep__Netd__NetdMsg *)m;
	assert_int_equal(got->body_case, PTPSEP__NETD__NETD_MSG__BODY_BATCH);
	assert_int_equal(got->batch->n_msgs, 3);
	assert_int_equal(got->batch->msgs[0]->body_case,
	    PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME);
	assert_int_equal(got->batch->msgs[0]->rx_frame->payload.data[0], 0x0);
	assert_int_equal(got->batch->msgs[0]->rx_frame->payload.data[6], 0x02);
	assert_int_equal(got->batch->msgs[1]->body_case,
	    PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP);
	assert_int_equal(got->batch->msgs[1]->tx_timestamp->cookie, 77);
	assert_int_equal(got->batch->msgs[2]->rx_frame->payload.data[0], 0x8);
	ipc_free(m);
}

/* One held message alone goes as itself, not as a batch of one. */
static void
test_alone(void **state)
{
	Ptpsep__Netd__NetdMsg e, *got;
	Ptpsep__Netd__TxTimestamp t;
	uint8_t out[IPC_MAX_MSG];
	ProtobufCMessage *m;
	size_t len;

	(void)state;
	outq_clear(&q);
	assert_int_equal(outq_build(&q, NULL, 0, out, sizeof(out)), 0);
	assert_int_equal(outq_hold(&q, txts_msg(&e, &t, 5), OUTQ_TXTS, 1,
	    0, 0), 1);
	assert_int_equal(q.deadline_ns, OUTQ_TXTS_HOLD_NS);
	len = outq_build(&q, NULL, 0, out, sizeof(out));
	assert_int_equal(ipc_decode(&ptpsep__netd__netd_msg__descriptor, out,
	    len, &m), IPC_OK);
	got = (Ptpsep__Netd__NetdMsg *)m;
	assert_int_equal(got->body_case,
	    PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP);
	assert_int_equal(got->tx_timestamp->cookie, 5);
	ipc_free(m);
}

/*
 * At most OUTQ_HELD_MAX held, so that with the next message a batch is
 * never longer than IPC_BATCH_MAX; an RxFrame held after a TX stamp
 * brings the deadline forward; only RxFrames are droppable.
 */
static void
test_bounds(void **state)
{
	Ptpsep__Netd__NetdMsg e[OUTQ_HELD_MAX + 1], *got;
	Ptpsep__Netd__RxFrame f[OUTQ_HELD_MAX + 1];
	Ptpsep__Netd__TxTimestamp t;
	uint8_t b[OUTQ_HELD_MAX + 1][44], next[64], out[IPC_MAX_MSG];
	ProtobufCMessage *m;
	size_t i, nlen, len;

	(void)state;
	outq_clear(&q);
	assert_int_equal(outq_hold(&q, txts_msg(&e[0], &t, 1), OUTQ_TXTS, 0,
	    0, 0), 1);
	assert_int_equal(outq_hold(&q, rx_msg(&e[1], &f[1], b[1], 0), OUTQ_RX,
	    0, 0, 0), 1);
	assert_int_equal(q.deadline_ns, OUTQ_RX_HOLD_NS);
	for (i = 2; i < OUTQ_HELD_MAX; i++)
		assert_true(outq_hold(&q, rx_msg(&e[i], &f[i], b[i], 0),
		    OUTQ_RX, 0, 0, 0) >= 0);
	assert_int_equal(q.n, OUTQ_HELD_MAX);
	assert_int_equal(outq_hold(&q, rx_msg(&e[i], &f[i], b[i], 0),
	    OUTQ_RX, 0, 0, 0), -1);
	assert_int_equal(ipc_encode(rx_msg(&e[i], &f[i], b[i], 0x8), next,
	    sizeof(next), &nlen), IPC_OK);
	len = outq_build(&q, next, nlen, out, sizeof(out));
	assert_int_equal(ipc_decode(&ptpsep__netd__netd_msg__descriptor, out,
	    len, &m), IPC_OK);
	got = (Ptpsep__Netd__NetdMsg *)m;
	assert_int_equal(got->batch->n_msgs, IPC_BATCH_MAX);
	ipc_free(m);
	/* Too small an output: 0, nothing written past cap. */
	assert_int_equal(outq_build(&q, next, nlen, out, 40), 0);
	assert_false(outq_droppable(&q));
	outq_clear(&q);
	assert_int_equal(outq_hold(&q, rx_msg(&e[0], &f[0], b[0], 0), OUTQ_RX,
	    0, 0, 0), 1);
	assert_true(outq_droppable(&q));
	outq_clear(&q);
	assert_int_equal(q.n, 0);
	assert_int_equal(q.deadline_ns, 0);
}

/*
 * Received Delay_Reqs are held for OUTQ_DREQ_HOLD_NS from the first:
 * later ones do not move the deadline, a two-step Sync's shorter bound
 * does; they leave in arrival order with the next message, or alone once
 * the bound is reached (relay.c's timer then builds with no next); a
 * full queue refuses the next one (relay.c sends at OUTQ_HELD_MAX).
 */
static void
test_dreq_held(void **state)
{
	Ptpsep__Netd__NetdMsg e[OUTQ_HELD_MAX + 1], *got;
	Ptpsep__Netd__RxFrame f[OUTQ_HELD_MAX + 1];
	uint8_t b[OUTQ_HELD_MAX + 1][44], next[64], out[IPC_MAX_MSG];
	ProtobufCMessage *m;
	size_t i, nlen, len;

	(void)state;
	outq_clear(&q);
	for (i = 0; i < 3; i++) {
		rx_msg(&e[i], &f[i], b[i], 0x1);
		b[i][31] = (uint8_t)(10 + i);		/* sequenceId */
		assert_int_equal(outq_rx_hold_ns(1, b[i], 44),
		    OUTQ_DREQ_HOLD_NS);
		assert_int_equal(outq_hold(&q, &e[i].base, OUTQ_RX, 0,
		    5000 + (int64_t)i * 100, OUTQ_DREQ_HOLD_NS), i == 0);
		assert_int_equal(q.deadline_ns, 5000 + OUTQ_DREQ_HOLD_NS);
	}
	/* Held copies: the port's buffer is reused at once. */
	memset(b, 0xee, sizeof(b));
	assert_true(outq_droppable(&q));
	/* Flushed by the next message (an Announce), order kept. */
	assert_int_equal(ipc_encode(rx_msg(&e[3], &f[3], b[3], 0xb), next,
	    sizeof(next), &nlen), IPC_OK);
	len = outq_build(&q, next, nlen, out, sizeof(out));
	assert_true(len > 0);
	assert_int_equal(ipc_decode(&ptpsep__netd__netd_msg__descriptor, out,
	    len, &m), IPC_OK);
	got = (Ptpsep__Netd__NetdMsg *)m;
	assert_int_equal(got->body_case, PTPSEP__NETD__NETD_MSG__BODY_BATCH);
	assert_int_equal(got->batch->n_msgs, 4);
	for (i = 0; i < 3; i++) {
		assert_int_equal(got->batch->msgs[i]->rx_frame->payload.data[0],
		    0x1);
		assert_int_equal(
		    got->batch->msgs[i]->rx_frame->payload.data[31], 10 + i);
	}
	assert_int_equal(got->batch->msgs[3]->rx_frame->payload.data[0], 0xb);
	ipc_free(m);

	/* Alone after the bound: the one Delay_Req as itself. */
	outq_clear(&q);
	rx_msg(&e[0], &f[0], b[0], 0x1);
	assert_int_equal(outq_hold(&q, &e[0].base, OUTQ_RX, 0, 0,
	    OUTQ_DREQ_HOLD_NS), 1);
	len = outq_build(&q, NULL, 0, out, sizeof(out));
	assert_int_equal(ipc_decode(&ptpsep__netd__netd_msg__descriptor, out,
	    len, &m), IPC_OK);
	got = (Ptpsep__Netd__NetdMsg *)m;
	assert_int_equal(got->body_case, PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME);
	assert_int_equal(got->rx_frame->payload.data[0], 0x1);
	ipc_free(m);

	/* A two-step Sync after it brings the deadline forward. */
	rx_msg(&e[1], &f[1], b[1], 0x0);
	assert_int_equal(outq_hold(&q, &e[1].base, OUTQ_RX, 0, 1000,
	    OUTQ_RX_HOLD_NS), 1);
	assert_int_equal(q.deadline_ns, 1000 + OUTQ_RX_HOLD_NS);

	/* Bounded in number: OUTQ_HELD_MAX, then refused. */
	outq_clear(&q);
	for (i = 0; i < OUTQ_HELD_MAX; i++)
		assert_true(outq_hold(&q, rx_msg(&e[i], &f[i], b[i], 0x1),
		    OUTQ_RX, 0, 0, OUTQ_DREQ_HOLD_NS) >= 0);
	assert_int_equal(outq_hold(&q, rx_msg(&e[i], &f[i], b[i], 0x1),
	    OUTQ_RX, 0, 0, OUTQ_DREQ_HOLD_NS), -1);
	outq_clear(&q);
}

/* Full-MTU frames: held while the bytes fit one datagram, then refused. */
static void
test_bytes_bound(void **state)
{
	static uint8_t big[IPC_MAX_PTP_PAYLOAD];
	static uint8_t out[IPC_MAX_MSG];
	Ptpsep__Netd__NetdMsg e;
	Ptpsep__Netd__RxFrame f;
	ProtobufCMessage *m;
	size_t len;
	int i, rc;

	(void)state;
	outq_clear(&q);
	for (i = 0; i < OUTQ_HELD_MAX; i++) {
		rx_msg(&e, &f, big, 0);
		ptp(big, sizeof(big), 0x0, 1);
		f.payload.len = sizeof(big);
		rc = outq_hold(&q, &e.base, OUTQ_RX, 0, 0, 0);
		if (rc < 0)
			break;
	}
	assert_true(q.n >= 1);
	len = outq_build(&q, NULL, 0, out, sizeof(out));
	assert_true(len > 0 && len <= IPC_MAX_MSG);
	assert_int_equal(ipc_decode(&ptpsep__netd__netd_msg__descriptor, out,
	    len, &m), IPC_OK);
	ipc_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rx_holds),
		cmocka_unit_test(test_dreq_rate),
		cmocka_unit_test(test_dreq_hold_peers),
		cmocka_unit_test(test_batch_in_order),
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_dreq_held),
		cmocka_unit_test(test_bytes_bound),
	};

	return cmocka_run_group_tests_name("outq", tests, NULL, NULL);
}
