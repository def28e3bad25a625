/*
 * test_ipc_alloc.c - the per-frame IPC messages go through without a heap
 * allocation (ipc.c's decode arena), and what the arena does when it is
 * taken.
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

/*
 * The count itself: it sees malloc, calloc and realloc, in this build's
 * way (interposed, or the sanitizer's hook), and nothing while it is off.
 * Without this, a count that never fired would pass every test below.
 */
static void
test_count_sees_allocations(void **state)
{
	void *volatile a, *volatile b;

	(void)state;
	if (!HAVE_MALLOC_COUNT)
		skip();
	fx_malloc_calls = 0;
	fx_malloc_counting = 1;
	a = malloc(24);
	b = calloc(3, 8);
	a = realloc(a, 4096);
	fx_malloc_counting = 0;
	free(a);
	free(b);
	assert_int_equal(fx_malloc_calls, 3);
	a = malloc(24);
	free(a);
	assert_int_equal(fx_malloc_calls, 3);
}

/*
 * The per-frame messages, RxFrame from netd and TxFrame from clockd (and
 * the TxTimestamp, ClockRequest and ClockReply beside them), are sent and
 * received without a heap allocation once the connection runs: packed
 * into a stack buffer, unpacked into ipc.c's arena.
 */
static void
test_no_malloc_per_frame(void **state)
{
	static const char *const names[] = { "netd_rx_event",
	    "netd_rx_general", "netd_tx_primary", "netd_tx_unicast",
	    "netd_txts_ok", "netd_clock_adj_freq", "netd_clock_reply_ok" };

	if (!HAVE_MALLOC_COUNT)
		skip();
	fx_assert_no_allocs(*state, names, sizeof(names) / sizeof(names[0]),
	    100, 0, "messages");
}

/*
 * The same for frames of the largest payload netd relays (an Ethernet MTU,
 * IPC_MAX_PTP_PAYLOAD): they too fit ipc.c's decode arena, which is kept
 * small because every thread's copy of it is resident from the start.
 */
static void
test_no_malloc_full_frame(void **state)
{
	static uint8_t pl[IPC_MAX_PTP_PAYLOAD];
	struct fx_pair *p = *state;
	Ptpsep__Netd__NetdMsg env;
	Ptpsep__Netd__RxFrame rx;
	Ptpsep__Netd__TxFrame tx;
	Ptpsep__Netd__Address src;
	Ptpsep__Timestamp t;
	static uint8_t mac[6] = { 2, 0, 0, 0, 0, 1 };
	unsigned long calls;
	int which;

	if (!HAVE_MALLOC_COUNT)
		skip();
	ipc_sample_payload(pl, sizeof(pl), 0x0);
	ptpsep__timestamp__init(&t);
	t.seconds = 1700000000u;
	t.nanoseconds = 999999999u;
	ptpsep__netd__address__init(&src);
	src.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_MAC;
	src.addr.data = mac;
	src.addr.len = sizeof(mac);
	ptpsep__netd__rx_frame__init(&rx);
	rx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	rx.payload.data = pl;
	rx.payload.len = sizeof(pl);
	rx.rx_ts = &t;
	rx.ts_source = PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE;
	rx.source = &src;
	ptpsep__netd__tx_frame__init(&tx);
	tx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	tx.dest = PTPSEP__NETD__DESTINATION__DEST_PRIMARY;
	tx.payload.data = pl;
	tx.payload.len = sizeof(pl);
	tx.cookie = UINT64_MAX;
	tx.want_tx_ts = 1;
	for (which = 0; which < 2; which++) {
		ptpsep__netd__netd_msg__init(&env);
		if (which == 0) {
			env.body_case = PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME;
			env.rx_frame = &rx;
		} else {
			env.body_case = PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME;
			env.tx_frame = &tx;
		}
		calls = fx_count_allocs(p, &env.base, 10, 0);
		if (calls != 0)
			fail_msg("%s of %zu octets: %lu heap allocations in 10",
			    which == 0 ? "RxFrame" : "TxFrame", sizeof(pl),
			    calls);
	}
}

/*
 * The arena holds one message: a second one decoded while the first is
 * held comes from the heap, and both stay intact and free in any order.
 * A message larger than the arena's share also decodes (from the heap).
 */
static void
test_arena_two_held(void **state)
{
	struct fx_pair *p = *state;
	Ptpsep__Netd__NetdMsg *a, *b, *c;
	uint8_t again[IPC_MAX_MSG];
	uint8_t want_a[IPC_MAX_MSG], want_b[IPC_MAX_MSG];
	size_t la, lb;

	assert_int_equal(ipc_encode(fx_sample("netd_rx_event"), want_a,
	    sizeof(want_a), &la), IPC_OK);
	assert_int_equal(ipc_encode(fx_sample("netd_port_list"), want_b,
	    sizeof(want_b), &lb), IPC_OK);
	assert_int_equal(ipc_send(p->a, fx_sample("netd_rx_event")), IPC_OK);
	assert_int_equal(ipc_send(p->a, fx_sample("netd_port_list")), IPC_OK);
	assert_int_equal(ipc_send(p->a, fx_sample("netd_rx_event")), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &a), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &b), IPC_OK);
	/* a's memory was not reused for b: both pack as they were sent. */
	assert_int_equal(protobuf_c_message_pack(&a->base, again), la);
	assert_memory_equal(again, want_a, la);
	assert_int_equal(protobuf_c_message_pack(&b->base, again), lb);
	assert_memory_equal(again, want_b, lb);
	ipc_free(&a->base);
	/* The arena is free again while b is still held. */
	assert_int_equal(ipc_recv_netd(p->b, &c), IPC_OK);
	assert_int_equal(protobuf_c_message_pack(&c->base, again), la);
	assert_memory_equal(again, want_a, la);
	assert_int_equal(protobuf_c_message_pack(&b->base, again), lb);
	assert_memory_equal(again, want_b, lb);
	ipc_free(&b->base);
	ipc_free(&c->base);
	fx_assert_usable(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_sees_allocations),
		FX_PAIR_TEST(test_no_malloc_per_frame),
		FX_PAIR_TEST(test_no_malloc_full_frame),
		FX_PAIR_TEST(test_arena_two_held),
	};

	return cmocka_run_group_tests_name("ipc_alloc", tests, NULL, NULL);
}
