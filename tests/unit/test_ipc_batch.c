/*
 * test_ipc_batch.c - NetdBatch (doc/design.md "Batches"): what ipc_check
 * refuses in a batch, the common batches without a heap allocation, and
 * the largest legal batch.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "ipc_fixture.h"

/* ---- NetdBatch (doc/design.md "Batches") ---- */

/*
 * What a hostile peer could send: refused by ipc_check() with a detail that
 * names the rule, and refused on receive with the socket still usable.
 */
static void
expect_batch_refused(struct fx_pair *p, const ProtobufCMessage *m,
    const char *want)
{
	static uint8_t buf[IPC_MAX_MSG];
	ProtobufCMessage *got;
	size_t len;

	assert_int_equal(ipc_check(m), IPC_E_INVALID);
	assert_string_equal(ipc_detail(), want);
	len = fx_raw_pack(m, buf, sizeof(buf));
	fx_raw_send(p->a, buf, len);
	assert_int_equal(ipc_recv(p->b, m->descriptor, &got), IPC_E_INVALID);
	assert_string_equal(ipc_detail(), want);
	assert_null(got);
	fx_assert_usable(p);
}

static void
test_batch_refused(void **state)
{
	struct fx_pair *p = *state;
	Ptpsep__Netd__NetdMsg *n, inner, *over[IPC_BATCH_MAX + 1];
	Ptpsep__Netd__NetdMsg member, *one[1] = { &member };
	Ptpsep__Netd__NetdMsg *saved;
	Ptpsep__Netd__NetdBatch nested;
	char want[80];
	size_t i;

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_batch_sync_fup");
	n->batch->n_msgs = 0;
	expect_batch_refused(p, &n->base, "NetdMsg.batch: empty batch");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_batch_max");
	for (i = 0; i < IPC_BATCH_MAX + 1; i++)
		over[i] = n->batch->msgs[i % IPC_BATCH_MAX];
	n->batch->msgs = over;
	n->batch->n_msgs = IPC_BATCH_MAX + 1;
	snprintf(want, sizeof(want), "NetdMsg.batch: %d messages in a batch, "
	    "at most %d", IPC_BATCH_MAX + 1, IPC_BATCH_MAX);
	expect_batch_refused(p, &n->base, want);

	/* A batch in a batch, itself well formed. */
	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_batch_sync_fup");
	ptpsep__netd__netd_batch__init(&nested);
	nested.n_msgs = 1;
	saved = n->batch->msgs[0];
	nested.msgs = &saved;
	ptpsep__netd__netd_msg__init(&inner);
	inner.body_case = PTPSEP__NETD__NETD_MSG__BODY_BATCH;
	inner.batch = &nested;
	n->batch->msgs[1] = &inner;
	expect_batch_refused(p, &n->base,
	    "NetdMsg.batch.msgs[1]: a batch may not travel in a batch");

	/* Hello, PortList and Error stay alone in their datagram. */
	memcpy(&member, fx_sample("netd_hello"), sizeof(member));
	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_batch_sync_fup");
	n->batch->msgs = one;
	n->batch->n_msgs = 1;
	expect_batch_refused(p, &n->base,
	    "NetdMsg.batch.msgs[0]: a Hello may not travel in a batch");
	memcpy(&member, fx_sample("netd_port_list"), sizeof(member));
	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_batch_sync_fup");
	n->batch->msgs = one;
	n->batch->n_msgs = 1;
	expect_batch_refused(p, &n->base,
	    "NetdMsg.batch.msgs[0]: a PortList may not travel in a batch");
	memcpy(&member, fx_sample("netd_error"), sizeof(member));
	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_batch_sync_fup");
	n->batch->msgs = one;
	n->batch->n_msgs = 1;
	expect_batch_refused(p, &n->base,
	    "NetdMsg.batch.msgs[0]: an Error may not travel in a batch");

	/* A member with no body (or only a newer peer's unknown one). */
	ptpsep__netd__netd_msg__init(&member);
	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_batch_sync_fup");
	n->batch->msgs = one;
	n->batch->n_msgs = 1;
	expect_batch_refused(p, &n->base,
	    "NetdMsg.batch.msgs[0]: no known body");

	/* Every member is checked as a message of its own. */
	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_batch_txts_rx");
	n->batch->msgs[1]->rx_frame->payload.len = IPC_MIN_PTP_PAYLOAD - 1;
	expect_batch_refused(p, &n->base, "NetdMsg.batch.msgs[1].rx_frame."
	    "payload: 33 bytes, want 34..1500");
	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_batch_tx_clock");
	n->batch->msgs[1]->clock_request->adj_freq->freq_ppb = NAN;
	expect_batch_refused(p, &n->base, "NetdMsg.batch.msgs[1]."
	    "clock_request.adj_freq.freq_ppb: not a finite number");
}

/*
 * A batch of what netd sends most (a two-step Sync and its Follow_Up; a
 * TX timestamp and a frame) and what clockd sends most (a Delay_Req and a
 * frequency change) fits ipc.c's decode arena: no heap allocation.
 */
static void
test_no_malloc_batch(void **state)
{
	static const char *const names[] = { "netd_batch_sync_fup",
	    "netd_batch_txts_rx", "netd_batch_tx_clock" };

	if (!HAVE_MALLOC_COUNT)
		skip();
	fx_assert_no_allocs(*state, names, sizeof(names) / sizeof(names[0]),
	    100, 2, "batches");
}

/*
 * The largest batch of full-MTU frames that fits IPC_MAX_MSG (the sender
 * stops a batch at IPC_BATCH_MAX members or IPC_MAX_MSG octets,
 * whichever comes first) does not fit the decode arena: it is unpacked
 * again from the heap, intact, and (the sanitizer build checks) freed
 * without a leak; the arena is free again for the next message.
 */
#define LARGEST_N	(IPC_MAX_MSG / (IPC_MAX_PTP_PAYLOAD + 64))
static void
test_batch_largest(void **state)
{
	static uint8_t pl[IPC_MAX_PTP_PAYLOAD];
	static uint8_t want[IPC_MAX_MSG], again[IPC_MAX_MSG];
	static Ptpsep__Netd__NetdMsg member[LARGEST_N];
	static Ptpsep__Netd__NetdMsg *ptr[LARGEST_N];
	struct fx_pair *p = *state;
	Ptpsep__Netd__NetdMsg env, *got;
	Ptpsep__Netd__NetdBatch b;
	Ptpsep__Netd__RxFrame rx;
	Ptpsep__Timestamp t;
	size_t i, len;
	int k;

	ipc_sample_payload(pl, sizeof(pl), 0x0);
	ptpsep__timestamp__init(&t);
	t.seconds = 1700000000u;
	ptpsep__netd__rx_frame__init(&rx);
	rx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	rx.payload.data = pl;
	rx.payload.len = sizeof(pl);
	rx.rx_ts = &t;
	for (i = 0; i < LARGEST_N; i++) {
		ptpsep__netd__netd_msg__init(&member[i]);
		member[i].body_case = PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME;
		member[i].rx_frame = &rx;
		ptr[i] = &member[i];
	}
	ptpsep__netd__netd_batch__init(&b);
	b.n_msgs = LARGEST_N;
	b.msgs = ptr;
	ptpsep__netd__netd_msg__init(&env);
	env.body_case = PTPSEP__NETD__NETD_MSG__BODY_BATCH;
	env.batch = &b;
	assert_int_equal(ipc_encode(&env.base, want, sizeof(want), &len),
	    IPC_OK);
	assert_true(len > LARGEST_N * IPC_MAX_PTP_PAYLOAD && len <= IPC_MAX_MSG);
	for (k = 0; k < 3; k++) {
		assert_int_equal(ipc_send_netd(p->a, &env), IPC_OK);
		assert_int_equal(ipc_recv_netd(p->b, &got), IPC_OK);
		assert_int_equal(got->batch->n_msgs, LARGEST_N);
		assert_int_equal(protobuf_c_message_pack(&got->base, again),
		    len);
		assert_memory_equal(again, want, len);
		ipc_free(&got->base);
	}
	fx_assert_usable(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_PAIR_TEST(test_batch_refused),
		FX_PAIR_TEST(test_no_malloc_batch),
		FX_PAIR_TEST(test_batch_largest),
	};

	return cmocka_run_group_tests_name("ipc_batch", tests, NULL, NULL);
}
