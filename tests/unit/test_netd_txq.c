/*
 * test_netd_txq.c - netd's batched socket I/O: deferred sends
 * (netd/transport_txq.c), what a batch queues leaving in order, in one
 * sendmmsg() per socket's worth, a send the kernel refuses at the flush
 * giving its TX request back and being reported while the sends after it
 * still leave; and transport_recv_batch(), a coalescing socket's frames
 * read TRANSPORT_RX_BATCH to a recvmmsg() with transport_recv()'s checks.
 *
 * The port's sockets are AF_UNIX datagram pairs standing in for an L2
 * port's packet sockets: l2.c frames a header and sends with no address,
 * which a socket pair takes as it is; and the kernel refuses a
 * SO_TIMESTAMPING control message on AF_UNIX (EINVAL), which is the
 * refusal at the flush this needs, for exactly the sends that ask for a
 * TX time stamp.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "netd/transport.h"
#include "netd/tstamp.h"

#define MT_SYNC		0x0
#define MT_DELAY_REQ	0x1
#define MT_ANNOUNCE	0xb

struct fixture {
	struct transport_port port;
	int peer[TC_NUM];		/* the other ends */
	uint32_t failed[32];
	unsigned nfailed;
};

static void
on_failed(void *arg, enum transport_class cls, uint32_t ts_id)
{
	struct fixture *f = arg;

	assert_int_equal(cls, TC_EVENT);
	if (f->nfailed < 32)
		f->failed[f->nfailed++] = ts_id;
}

static int
setup(void **state)
{
	static struct fixture f;
	int sv[2], c;

	memset(&f, 0, sizeof(f));
	f.port.kind = TR_L2;
	f.port.ts_mode = TS_SOFTWARE;
	f.port.step = TSTEP_TWO;
	f.port.tx_ts_timeout_ms = 100;
	memcpy(f.port.mac, "\x02\x00\x00\x00\x00\x01", 6);
	memcpy(f.port.primary_mac, "\x01\x1b\x19\x00\x00\x00", 6);
	for (c = 0; c < TC_NUM; c++) {
		if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0, sv) != 0)
			return -1;
		f.port.fd[c] = sv[0];
		f.peer[c] = sv[1];
	}
	f.port.tx_failed = on_failed;
	f.port.tx_failed_arg = &f;
	*state = &f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;
	int c;

	transport_close(&f->port);	/* closes fd[], frees the queues */
	for (c = 0; c < TC_NUM; c++)
		close(f->peer[c]);
	return 0;
}

/* A PTP message of type mt and length len, sequenceId seq. */
static void
msg(uint8_t *b, unsigned mt, size_t len, uint16_t seq)
{
	memset(b, 0, len);
	b[0] = (uint8_t)mt;
	b[1] = 2;
	b[2] = (uint8_t)(len >> 8);
	b[3] = (uint8_t)len;
	b[30] = (uint8_t)(seq >> 8);
	b[31] = (uint8_t)seq;
}

/* The next frame on the peer: its sequenceId, or -1 when none. */
static int
next_seq(int fd, unsigned mt, size_t len)
{
	uint8_t fr[512];
	ssize_t n = recv(fd, fr, sizeof(fr), MSG_DONTWAIT);

	if (n < 0)
		return -1;
	assert_int_equal(n, 14 + (ssize_t)len);
	/* l2.c's header: the port's group, its MAC, ETH_P_1588 */
	assert_memory_equal(fr, "\x01\x1b\x19\x00\x00\x00\x02\x00\x00\x00"
	    "\x00\x01\x88\xf7", 14);
	assert_int_equal(fr[14] & 0x0f, mt);
	return fr[14 + 30] << 8 | fr[14 + 31];
}

/*
 * Deferred sends wait for the flush, leave in order, and a full queue
 * (TRANSPORT_TXQ_MAX) leaves by itself; off again, sends go at once.
 */
static void
test_txq_order(void **state)
{
	struct fixture *f = *state;
	struct transport_dest d = { .kind = TD_PRIMARY };
	uint8_t b[64];
	uint32_t id;
	int i, n = TRANSPORT_TXQ_MAX + 4;

	transport_defer(&f->port, 1);
	for (i = 0; i < n; i++) {
		msg(b, MT_ANNOUNCE, 64, (uint16_t)i);
		assert_int_equal(transport_send(&f->port, TC_GENERAL, &d, b, 64,
		    0, &id), 0);
		/* the caller's buffer is its own again at once */
		memset(b, 0xee, sizeof(b));
		if (i == TRANSPORT_TXQ_MAX - 1)
			assert_int_equal(next_seq(f->peer[TC_GENERAL],
			    MT_ANNOUNCE, 64), -1);
	}
	/* the first full queue left when the next send came */
	for (i = 0; i < TRANSPORT_TXQ_MAX; i++)
		assert_int_equal(next_seq(f->peer[TC_GENERAL], MT_ANNOUNCE,
		    64), i);
	assert_int_equal(next_seq(f->peer[TC_GENERAL], MT_ANNOUNCE, 64), -1);
	assert_int_equal(f->port.cnt.tx[TC_GENERAL], TRANSPORT_TXQ_MAX);
	transport_flush(&f->port, TC_GENERAL);
	for (i = TRANSPORT_TXQ_MAX; i < n; i++)
		assert_int_equal(next_seq(f->peer[TC_GENERAL], MT_ANNOUNCE,
		    64), i);
	assert_int_equal(f->port.cnt.tx[TC_GENERAL], (uint64_t)n);

	/* not deferring: at once */
	transport_defer(&f->port, 0);
	msg(b, MT_ANNOUNCE, 64, 999);
	assert_int_equal(transport_send(&f->port, TC_GENERAL, &d, b, 64, 0,
	    &id), 0);
	assert_int_equal(next_seq(f->peer[TC_GENERAL], MT_ANNOUNCE, 64), 999);
	assert_int_equal(f->port.cnt.tx_errors, 0);
	assert_int_equal(f->nfailed, 0);
}

/*
 * Sends refused at the flush: each one with a TX request is reported by
 * its id and owes nothing any more, the keys after it move down, and the
 * sends between and after them still leave.  Refused at once (not
 * deferring), the error is returned instead, and nothing reported.
 */
static void
test_txq_refused(void **state)
{
	struct fixture *f = *state;
	struct transport_dest d = { .kind = TD_PRIMARY };
	uint8_t b[44];
	uint32_t id[6], x;
	int i;

	transport_defer(&f->port, 1);
	/* ts, plain, ts, plain, ts, plain */
	for (i = 0; i < 6; i++) {
		msg(b, i % 2 ? MT_DELAY_REQ : MT_SYNC, 44, (uint16_t)i);
		assert_int_equal(transport_send(&f->port, TC_EVENT, &d, b, 44,
		    i % 2 == 0, &id[i]), 0);
	}
	assert_int_equal(transport_tx_owed(&f->port, TC_EVENT), 3);
	assert_int_equal(f->nfailed, 0);	/* nothing has left yet */
	transport_flush(&f->port, TC_EVENT);
	assert_int_equal(f->nfailed, 3);
	assert_int_equal(f->failed[0], id[0]);
	assert_int_equal(f->failed[1], id[2]);
	assert_int_equal(f->failed[2], id[4]);
	assert_int_equal(transport_tx_owed(&f->port, TC_EVENT), 0);
	assert_int_equal(f->port.cnt.tx_errors, 3);
	assert_int_equal(f->port.cnt.tx[TC_EVENT], 3);
	for (i = 1; i < 6; i += 2)
		assert_int_equal(next_seq(f->peer[TC_EVENT], MT_DELAY_REQ, 44),
		    i);
	assert_int_equal(next_seq(f->peer[TC_EVENT], MT_SYNC, 44), -1);
	/* every key given back: the next request takes the first */
	assert_int_equal(f->port.txr[TC_EVENT].next, 0);

	transport_defer(&f->port, 0);
	msg(b, MT_SYNC, 44, 7);
	assert_int_equal(transport_send(&f->port, TC_EVENT, &d, b, 44, 1, &x),
	    -EINVAL);
	assert_int_equal(f->nfailed, 3);
	assert_int_equal(transport_tx_owed(&f->port, TC_EVENT), 0);
}

/* A send that checks refuse is refused at once, deferring or not. */
static void
test_txq_checks_at_once(void **state)
{
	struct fixture *f = *state;
	struct transport_dest d = { .kind = TD_UNICAST };
	uint8_t b[44];
	uint32_t id;

	transport_defer(&f->port, 1);
	msg(b, MT_SYNC, 44, 1);
	b[3] = 40;			/* messageLength disagrees */
	assert_int_equal(transport_send(&f->port, TC_EVENT, &d, b, 44, 1,
	    &id), -EINVAL);
	msg(b, MT_ANNOUNCE, 44, 1);	/* a general message on the event socket */
	assert_int_equal(transport_send(&f->port, TC_EVENT, &d, b, 44, 0,
	    &id), -EINVAL);
	assert_int_equal(transport_tx_owed(&f->port, TC_EVENT), 0);
	assert_int_equal(f->port.txq[TC_EVENT].n, 0);
	transport_defer(&f->port, 0);
}

/*
 * 40 frames queued, every tenth malformed (versionPTP 1): read 32, then
 * 8, in order, the malformed ones dropped and counted in place, each
 * sender learned as a peer; then nothing.
 */
static void
test_rx_batch(void **state)
{
	static uint8_t buf[TRANSPORT_RX_BATCH][PTP_MAX_MSG_LEN];
	struct fixture *f = *state;
	struct transport_peer_params pp = { .max = 16, .timeout_s = 60 };
	struct transport_rx rx[TRANSPORT_RX_BATCH];
	struct transport_addr src = { .len = 6 };
	uint8_t fr[14 + 44];
	int i, n, k, seq = 0, good;

	assert_int_equal(transport_peers_init(&f->port.peers, &pp, NULL), 0);
	for (i = 0; i < 40; i++) {
		memcpy(fr, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00"
		    "\x00\x88\xf7", 14);
		fr[11] = (uint8_t)(2 + i % 5);	/* five senders */
		msg(fr + 14, MT_DELAY_REQ, 44, (uint16_t)i);
		if (i % 10 == 9)
			fr[14 + 1] = 1;
		assert_int_equal(send(f->peer[TC_EVENT], fr, sizeof(fr), 0),
		    (ssize_t)sizeof(fr));
	}
	for (k = 0; k < 2; k++) {
		for (i = 0; i < TRANSPORT_RX_BATCH; i++) {
			rx[i].buf = buf[i];
			rx[i].cap = sizeof(buf[i]);
		}
		n = transport_recv_batch(&f->port, TC_EVENT, rx,
		    TRANSPORT_RX_BATCH);
		assert_int_equal(n, k == 0 ? TRANSPORT_RX_BATCH :
		    40 - TRANSPORT_RX_BATCH);
		for (i = 0; i < n; i++, seq++) {
			good = seq % 10 != 9;
			assert_int_equal(rx[i].len, good ? 44 : 0);
			if (!good)
				continue;
			assert_int_equal(rx[i].buf[31], seq);
			assert_int_equal(rx[i].src.len, 6);
			assert_int_equal(rx[i].src.b[5], 2 + seq % 5);
		}
	}
	assert_int_equal(f->port.cnt.rx_bad_version, 4);
	assert_int_equal(f->port.cnt.rx[TC_EVENT], 36);
	assert_int_equal(transport_recv_batch(&f->port, TC_EVENT, rx,
	    TRANSPORT_RX_BATCH), -EAGAIN);
	memcpy(src.b, "\x02\x00\x00\x00\x00\x06", 6);
	assert_true(transport_peer_known(&f->port, &src));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_txq_order, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_txq_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_txq_checks_at_once, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_rx_batch, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
