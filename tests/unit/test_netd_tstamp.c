/*
 * test_netd_tstamp.c - netd's timestamping without a network: the
 * SIOCSHWTSTAMP request and the acceptance of the driver's answer, the
 * parsing of prepared control messages, and the TX timestamp table; and,
 * on the loopback interface, that a TX timestamp queued while its socket
 * is out of the event loop is reported once the socket is back.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <linux/errqueue.h>
#include <linux/if_packet.h>

#include "netd/transport.h"
#include "netd/tstamp.h"

#ifndef PACKET_TX_TIMESTAMP
#define PACKET_TX_TIMESTAMP	16
#endif

static void
test_hw_request(void **state)
{
	struct hwtstamp_config c;

	(void)state;
	tstamp_hw_request(&c, TR_L2, TSTEP_TWO);
	assert_int_equal(c.flags, 0);
	assert_int_equal(c.tx_type, HWTSTAMP_TX_ON);
	assert_int_equal(c.rx_filter, HWTSTAMP_FILTER_PTP_V2_L2_EVENT);
	tstamp_hw_request(&c, TR_UDP4, TSTEP_TWO);
	assert_int_equal(c.rx_filter, HWTSTAMP_FILTER_PTP_V2_L4_EVENT);
	tstamp_hw_request(&c, TR_UDP6, TSTEP_TWO);
	assert_int_equal(c.rx_filter, HWTSTAMP_FILTER_PTP_V2_L4_EVENT);
	/* One-step: the tx type that makes the NIC insert the time. */
	tstamp_hw_request(&c, TR_UDP4, TSTEP_ONE_SYNC);
	assert_int_equal(c.tx_type, HWTSTAMP_TX_ONESTEP_SYNC);
	assert_int_equal(c.rx_filter, HWTSTAMP_FILTER_PTP_V2_L4_EVENT);
	tstamp_hw_request(&c, TR_L2, TSTEP_ONE_P2P);
	assert_int_equal(c.tx_type, HWTSTAMP_TX_ONESTEP_P2P);
	assert_int_equal(c.rx_filter, HWTSTAMP_FILTER_PTP_V2_L2_EVENT);
	assert_string_equal(tstamp_hw_tx_name(HWTSTAMP_TX_ONESTEP_SYNC),
	    "HWTSTAMP_TX_ONESTEP_SYNC");
}

static void
test_hw_reply(void **state)
{
	(void)state;
	/* Wider answers are accepted ... */
	assert_true(tstamp_hw_reply_ok(TR_L2, HWTSTAMP_FILTER_ALL));
	assert_true(tstamp_hw_reply_ok(TR_L2, HWTSTAMP_FILTER_PTP_V2_EVENT));
	assert_true(tstamp_hw_reply_ok(TR_UDP4, HWTSTAMP_FILTER_PTP_V2_EVENT));
	assert_true(tstamp_hw_reply_ok(TR_L2, HWTSTAMP_FILTER_PTP_V2_L2_EVENT));
	assert_true(tstamp_hw_reply_ok(TR_UDP6, HWTSTAMP_FILTER_PTP_V2_L4_EVENT));
	/* ... narrower or other-transport ones are not. */
	assert_false(tstamp_hw_reply_ok(TR_L2, HWTSTAMP_FILTER_PTP_V2_L4_EVENT));
	assert_false(tstamp_hw_reply_ok(TR_UDP4, HWTSTAMP_FILTER_PTP_V2_L2_EVENT));
	assert_false(tstamp_hw_reply_ok(TR_L2, HWTSTAMP_FILTER_PTP_V2_SYNC));
	assert_false(tstamp_hw_reply_ok(TR_L2, HWTSTAMP_FILTER_NONE));
	assert_false(tstamp_hw_reply_ok(TR_UDP4, HWTSTAMP_FILTER_PTP_V1_L4_EVENT));
	assert_false(tstamp_hw_reply_ok(TR_L2, HWTSTAMP_FILTER_SOME));
}

static void
test_flags(void **state)
{
	uint32_t f;
	uint8_t buf[64];
	struct cmsghdr *cm = (struct cmsghdr *)(void *)buf;
	size_t n;

	(void)state;
	f = tstamp_sock_flags(TS_SOFTWARE);
	assert_true(f & SOF_TIMESTAMPING_RX_SOFTWARE);
	assert_true(f & SOF_TIMESTAMPING_SOFTWARE);
	assert_true(f & SOF_TIMESTAMPING_OPT_ID);
	assert_false(f & SOF_TIMESTAMPING_TX_RECORD_MASK);
	f = tstamp_sock_flags(TS_HARDWARE);
	assert_true(f & SOF_TIMESTAMPING_RAW_HARDWARE);
	assert_true(f & SOF_TIMESTAMPING_RX_HARDWARE);
	assert_false(f & SOF_TIMESTAMPING_TX_RECORD_MASK);

	n = tstamp_tx_cmsg(buf, sizeof(buf), TS_SOFTWARE);
	assert_int_equal(n, CMSG_SPACE(sizeof(uint32_t)));
	assert_int_equal(cm->cmsg_level, SOL_SOCKET);
	assert_int_equal(cm->cmsg_type, SO_TIMESTAMPING);
	memcpy(&f, CMSG_DATA(cm), sizeof(f));
	assert_int_equal(f, SOF_TIMESTAMPING_TX_SOFTWARE);
	tstamp_tx_cmsg(buf, sizeof(buf), TS_HARDWARE);
	memcpy(&f, CMSG_DATA(cm), sizeof(f));
	assert_int_equal(f, SOF_TIMESTAMPING_TX_HARDWARE);
	assert_int_equal(tstamp_tx_cmsg(buf, 4, TS_SOFTWARE), 0);
}

/* Appends one control message to msg's buffer. */
static void
put_cmsg(struct msghdr *msg, size_t *used, int level, int type,
    const void *data, size_t len)
{
	struct cmsghdr *cm = (struct cmsghdr *)(void *)
	    ((uint8_t *)msg->msg_control + *used);

	cm->cmsg_level = level;
	cm->cmsg_type = type;
	cm->cmsg_len = CMSG_LEN(len);
	memcpy(CMSG_DATA(cm), data, len);
	*used += CMSG_SPACE(len);
	msg->msg_controllen = *used;
}

union cbuf {
	struct cmsghdr align;
	uint8_t b[512];
};

static void
test_parse_old(void **state)
{
	union cbuf cb;
	struct msghdr msg;
	struct timespec ts[3];
	struct tstamp_cmsg tc;
	size_t used = 0;

	(void)state;
	memset(&cb, 0, sizeof(cb));
	memset(&msg, 0, sizeof(msg));
	msg.msg_control = cb.b;
	memset(ts, 0, sizeof(ts));
	ts[0].tv_sec = 1700000000;
	ts[0].tv_nsec = 123456789;
	put_cmsg(&msg, &used, SOL_SOCKET, 37 /* SO_TIMESTAMPING_OLD */, ts,
	    sizeof(ts));
	assert_int_equal(tstamp_parse_cmsg(&msg, &tc), 0);
	assert_true(tc.have_sw);
	assert_false(tc.have_hw);
	assert_false(tc.have_err);
	assert_int_equal(tc.sw.tv_sec, 1700000000);
	assert_int_equal(tc.sw.tv_nsec, 123456789);

	/* hardware in ts[2] */
	memset(&cb, 0, sizeof(cb));
	used = 0;
	memset(ts, 0, sizeof(ts));
	ts[2].tv_sec = 42;
	ts[2].tv_nsec = 7;
	put_cmsg(&msg, &used, SOL_SOCKET, 37, ts, sizeof(ts));
	assert_int_equal(tstamp_parse_cmsg(&msg, &tc), 0);
	assert_false(tc.have_sw);
	assert_true(tc.have_hw);
	assert_int_equal(tc.hw.tv_sec, 42);
	assert_int_equal(tc.hw.tv_nsec, 7);

	/* bad nanoseconds, short cmsg */
	memset(&cb, 0, sizeof(cb));
	used = 0;
	ts[2].tv_nsec = 1000000000L;
	put_cmsg(&msg, &used, SOL_SOCKET, 37, ts, sizeof(ts));
	assert_int_equal(tstamp_parse_cmsg(&msg, &tc), -EINVAL);
	memset(&cb, 0, sizeof(cb));
	used = 0;
	put_cmsg(&msg, &used, SOL_SOCKET, 37, ts, sizeof(ts[0]));
	assert_int_equal(tstamp_parse_cmsg(&msg, &tc), -EINVAL);
}

static void
test_parse_new_and_err(void **state)
{
	union cbuf cb;
	struct msghdr msg;
	long long t64[6];
	struct sock_extended_err ee;
	struct tstamp_cmsg tc;
	size_t used = 0;
	int other = 1;

	(void)state;
	memset(&cb, 0, sizeof(cb));
	memset(&msg, 0, sizeof(msg));
	msg.msg_control = cb.b;
	/* an unrelated cmsg first */
	put_cmsg(&msg, &used, SOL_SOCKET, 29 /* SO_TIMESTAMP_OLD */, &other,
	    sizeof(other));
	memset(t64, 0, sizeof(t64));
	t64[0] = 5000000000LL;	/* past 2038 */
	t64[1] = 999999999;
	put_cmsg(&msg, &used, SOL_SOCKET, 65 /* SO_TIMESTAMPING_NEW */, t64,
	    sizeof(t64));
	memset(&ee, 0, sizeof(ee));
	ee.ee_errno = ENOMSG;
	ee.ee_origin = SO_EE_ORIGIN_TIMESTAMPING;
	ee.ee_info = SCM_TSTAMP_SND;
	ee.ee_data = 17;
	put_cmsg(&msg, &used, SOL_PACKET, PACKET_TX_TIMESTAMP, &ee, sizeof(ee));
	assert_int_equal(tstamp_parse_cmsg(&msg, &tc), 0);
	assert_true(tc.have_sw);
	assert_int_equal((long long)tc.sw.tv_sec, 5000000000LL);
	assert_int_equal(tc.sw.tv_nsec, 999999999);
	assert_true(tc.have_err);
	assert_int_equal(tc.key, 17);
	assert_int_equal(tc.tstype, SCM_TSTAMP_SND);

	/* IPv4 and IPv6 error cmsgs carry the key too */
	memset(&cb, 0, sizeof(cb));
	used = 0;
	ee.ee_data = 3;
	put_cmsg(&msg, &used, SOL_IP, IP_RECVERR, &ee, sizeof(ee));
	assert_int_equal(tstamp_parse_cmsg(&msg, &tc), 0);
	assert_true(tc.have_err);
	assert_int_equal(tc.key, 3);
	memset(&cb, 0, sizeof(cb));
	used = 0;
	put_cmsg(&msg, &used, SOL_IPV6, IPV6_RECVERR, &ee, sizeof(ee));
	assert_int_equal(tstamp_parse_cmsg(&msg, &tc), 0);
	assert_true(tc.have_err);

	/* an ICMP error is not a timestamp */
	memset(&cb, 0, sizeof(cb));
	used = 0;
	ee.ee_errno = ECONNREFUSED;
	ee.ee_origin = SO_EE_ORIGIN_ICMP;
	put_cmsg(&msg, &used, SOL_IP, IP_RECVERR, &ee, sizeof(ee));
	assert_int_equal(tstamp_parse_cmsg(&msg, &tc), 0);
	assert_false(tc.have_err);

	/* truncated extended error */
	memset(&cb, 0, sizeof(cb));
	used = 0;
	put_cmsg(&msg, &used, SOL_IP, IP_RECVERR, &ee, 4);
	assert_int_equal(tstamp_parse_cmsg(&msg, &tc), -EINVAL);

	/* no control at all */
	msg.msg_control = NULL;
	msg.msg_controllen = 0;
	assert_int_equal(tstamp_parse_cmsg(&msg, &tc), 0);
	assert_false(tc.have_sw || tc.have_hw || tc.have_err);
}

static void
test_errq_payload_off(void **state)
{
	uint8_t p[128];

	(void)state;
	memset(p, 0, sizeof(p));
	p[12] = 0x88; p[13] = 0xf7;
	assert_int_equal(tstamp_errq_payload_off(TR_L2, p, 58), 14);
	assert_int_equal(tstamp_errq_payload_off(TR_UDP4, p, 58), -EINVAL);
	p[12] = 0x81; p[13] = 0x00; p[16] = 0x88; p[17] = 0xf7;
	assert_int_equal(tstamp_errq_payload_off(TR_L2, p, 62), 18);
	memset(p, 0, sizeof(p));
	p[12] = 0x08; p[13] = 0x00; p[14] = 0x46; p[14 + 9] = IPPROTO_UDP;
	assert_int_equal(tstamp_errq_payload_off(TR_UDP4, p, 100), 14 + 24 + 8);
	p[14] = 0x44;	/* IHL 4: invalid */
	assert_int_equal(tstamp_errq_payload_off(TR_UDP4, p, 100), -EINVAL);
	memset(p, 0, sizeof(p));
	p[12] = 0x86; p[13] = 0xdd; p[14] = 0x60; p[14 + 6] = IPPROTO_UDP;
	assert_int_equal(tstamp_errq_payload_off(TR_UDP6, p, 110), 14 + 48);
	assert_int_equal(tstamp_errq_payload_off(TR_UDP6, p, 60), -EINVAL);
	assert_int_equal(tstamp_errq_payload_off(TR_L2, p, 10), -EINVAL);
}

static void
test_tx_table(void **state)
{
	static struct transport_port port;
	struct transport_txts out;
	struct timespec now = { 100, 0 }, later = { 100, 200000000 };
	uint8_t a[44], b[44];
	uint32_t ida, idb, idc, id;
	int i;

	(void)state;
	memset(&port, 0, sizeof(port));
	port.tx_ts_timeout_ms = 100;
	memset(a, 0xaa, sizeof(a));
	memset(b, 0xbb, sizeof(b));
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, a, sizeof(a), &now,
	    &ida), 0);
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, b, sizeof(b), &now,
	    &idb), 0);
	assert_int_equal(tstamp_tx_next_id(&port), idb + 1);
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, a, sizeof(a), &now,
	    &idc), 0);
	assert_true(ida != idb && idb != idc);
	/* what port_ev_read() asks before it reads an error queue */
	assert_int_equal(transport_tx_owed(&port, TC_EVENT), 3);
	assert_int_equal(transport_tx_owed(&port, TC_GENERAL), 0);

	/* key and payload agree */
	i = tstamp_tx_match(&port, TC_EVENT, 1, b, sizeof(b));
	assert_int_equal(port.txr[TC_EVENT].e[i].id, idb);
	/* same payload twice: the key decides */
	i = tstamp_tx_match(&port, TC_EVENT, 2, a, sizeof(a));
	assert_int_equal(port.txr[TC_EVENT].e[i].id, idc);
	/* unique payload, drifted key: the bytes decide */
	i = tstamp_tx_match(&port, TC_EVENT, 5, b, sizeof(b));
	assert_int_equal(port.txr[TC_EVENT].e[i].id, idb);
	/* ambiguous payload and no key: nothing is guessed */
	assert_int_equal(tstamp_tx_match(&port, TC_EVENT, 9, a, sizeof(a)), -1);
	/* payload nobody sent */
	a[10] = 0;
	assert_int_equal(tstamp_tx_match(&port, TC_EVENT, 0, a, sizeof(a)), -1);
	/* no payload (OPT_TSONLY): key only */
	i = tstamp_tx_match(&port, TC_EVENT, 0, NULL, 0);
	assert_int_equal(port.txr[TC_EVENT].e[i].id, ida);
	/* wrong class */
	assert_int_equal(tstamp_tx_match(&port, TC_GENERAL, 0, NULL, 0), -1);

	/* cancel, then expire the rest as MISSING, never earlier */
	tstamp_tx_cancel(&port, TC_EVENT, idc);
	assert_int_equal(transport_tx_owed(&port, TC_EVENT), 2);
	assert_int_equal(tstamp_tx_expire(&port, &now, &out), 0);
	assert_int_equal(tstamp_tx_expire(&port, &later, &out), 1);
	assert_int_equal(out.status, TXTS_MISSING);
	assert_int_equal(out.id, ida);		/* the oldest first */
	assert_int_equal(out.ts.tv_sec, 0);
	assert_int_equal(tstamp_tx_expire(&port, &later, &out), 1);
	assert_int_equal(out.id, idb);
	assert_int_equal(tstamp_tx_expire(&port, &later, &out), 0);
	assert_int_equal(port.cnt.tx_ts_missing, 2);
	assert_int_equal(transport_tx_owed(&port, TC_EVENT), 0);

	/* the table is bounded */
	for (i = 0; i < TRANSPORT_TX_PENDING_MAX; i++)
		assert_int_equal(tstamp_tx_add(&port, TC_GENERAL, b,
		    sizeof(b), &now, &id), 0);
	assert_int_equal(tstamp_tx_add(&port, TC_GENERAL, b, sizeof(b),
	    &now, &id), -ENOSPC);
	tstamp_tx_free(&port);
}

/*
 * The ring at scale (issue 15: a grandmaster's burst of Sync time
 * stamps): it holds TRANSPORT_TX_PENDING_MAX requests at once, each
 * found by its key in O(1) in any order, and a full ring refuses the
 * next until the oldest is answered or expires.
 */
/* An empty port with a 100 ms TX timeout, and three distinct payloads. */
static void
ring_fixture(struct transport_port *port, uint8_t a[44], uint8_t b[44],
    uint8_t c[44])
{
	memset(port, 0, sizeof(*port));
	port->tx_ts_timeout_ms = 100;
	memset(a, 0xaa, 44);
	memset(b, 0xbb, 44);
	memset(c, 0xcc, 44);
}

/*
 * A queued send refused at its flush (transport_txq.c) gives its key
 * back although requests were taken after it: those were not sent yet,
 * and move down one key, which is what the kernel will number them.
 */
static void
test_tx_cancel_middle(void **state)
{
	struct transport_port port;
	struct timespec now = { 100, 0 };
	uint8_t a[44], b[44], c[44];
	uint32_t ida, idb, idc, idd;
	int i;

	(void)state;
	ring_fixture(&port, a, b, c);
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, a, 44, &now, &ida), 0);
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, b, 44, &now, &idb), 0);
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, c, 44, &now, &idc), 0);
	tstamp_tx_cancel(&port, TC_EVENT, idb);
	assert_int_equal(transport_tx_owed(&port, TC_EVENT), 2);
	/* the kernel numbers a's send 0 and c's 1 */
	i = tstamp_tx_match(&port, TC_EVENT, 0, NULL, 0);
	assert_int_equal(port.txr[TC_EVENT].e[i].id, ida);
	i = tstamp_tx_match(&port, TC_EVENT, 1, NULL, 0);
	assert_int_equal(port.txr[TC_EVENT].e[i].id, idc);
	assert_int_equal(tstamp_tx_match(&port, TC_EVENT, 2, NULL, 0), -1);
	/* the next request takes key 2, and a fresh id */
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, b, 44, &now, &idd), 0);
	assert_true(idd != idb && idd != idc);
	i = tstamp_tx_match(&port, TC_EVENT, 2, b, 44);
	assert_int_equal(port.txr[TC_EVENT].e[i].id, idd);
	/* an id no longer owed, or never given, changes nothing */
	tstamp_tx_cancel(&port, TC_EVENT, idb);
	tstamp_tx_cancel(&port, TC_EVENT, idd + 100);
	assert_int_equal(transport_tx_owed(&port, TC_EVENT), 3);
	/* the first of all given back: every later one moves down */
	tstamp_tx_cancel(&port, TC_EVENT, ida);
	i = tstamp_tx_match(&port, TC_EVENT, 0, NULL, 0);
	assert_int_equal(port.txr[TC_EVENT].e[i].id, idc);
	i = tstamp_tx_match(&port, TC_EVENT, 1, NULL, 0);
	assert_int_equal(port.txr[TC_EVENT].e[i].id, idd);
	assert_int_equal(port.txr[TC_EVENT].next, 2);
	tstamp_tx_free(&port);
}

static void
test_tx_ring_full(void **state)
{
	static struct transport_port port;
	struct transport_txts out;
	struct timespec now = { 100, 0 }, later = { 100, 200000000 };
	uint8_t m[44];
	uint32_t id, k;
	int i, n;

	(void)state;
	memset(&port, 0, sizeof(port));
	port.tx_ts_timeout_ms = 100;
	assert_true(TRANSPORT_TX_PENDING_MAX >= 10000);
	for (k = 0; k < TRANSPORT_TX_PENDING_MAX; k++) {
		memset(m, 0, sizeof(m));
		memcpy(m + 30, &k, sizeof(k));	/* like a sequenceId */
		assert_int_equal(tstamp_tx_add(&port, TC_EVENT, m, sizeof(m),
		    &now, &id), 0);
		assert_int_equal(id, k);
	}
	assert_int_equal(transport_tx_owed(&port, TC_EVENT),
	    TRANSPORT_TX_PENDING_MAX);
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, m, sizeof(m), &now,
	    &id), -ENOSPC);
	/* Answered from the middle, backwards: each by its key. */
	for (k = TRANSPORT_TX_PENDING_MAX - 1; k >= 5000; k--) {
		memset(m, 0, sizeof(m));
		memcpy(m + 30, &k, sizeof(k));
		i = tstamp_tx_match(&port, TC_EVENT, k, m, sizeof(m));
		assert_true(i >= 0);
		assert_int_equal(tstamp_tx_done(&port, TC_EVENT, i, k), k);
	}
	assert_int_equal(transport_tx_owed(&port, TC_EVENT), 5000);
	/* key 0's entry is still owed: the ring is full at the next key */
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, m, sizeof(m), &now,
	    &id), -ENOSPC);
	/* The rest expire, oldest first, none before its deadline. */
	assert_int_equal(tstamp_tx_expire(&port, &now, &out), 0);
	for (n = 0; tstamp_tx_expire(&port, &later, &out) == 1; n++)
		assert_int_equal(out.id, (uint32_t)n);
	assert_int_equal(n, 5000);
	assert_int_equal(transport_tx_owed(&port, TC_EVENT), 0);
	assert_int_equal(port.cnt.tx_ts_missing, 5000);
	/* and the ring takes requests again */
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, m, sizeof(m), &later,
	    &id), 0);
	assert_int_equal(id, TRANSPORT_TX_PENDING_MAX);
	tstamp_tx_free(&port);
}

/* The kernel's 32-bit key wraps; so does ours, and nothing is lost. */
static void
test_tx_ring_wrap(void **state)
{
	static struct transport_port port;
	struct transport_txts out;
	struct timespec now = { 100, 0 }, later = { 100, 200000000 };
	uint8_t m[44];
	uint32_t id[6], k;
	int i;

	(void)state;
	memset(&port, 0, sizeof(port));
	port.tx_ts_timeout_ms = 100;
	/* as after 2^32 - 3 time-stamped sends */
	port.txr[TC_EVENT].next = port.txr[TC_EVENT].tail = UINT32_MAX - 2;
	for (i = 0; i < 6; i++) {
		memset(m, i, sizeof(m));
		assert_int_equal(tstamp_tx_add(&port, TC_EVENT, m, sizeof(m),
		    &now, &id[i]), 0);
	}
	assert_int_equal(port.txr[TC_EVENT].next, 3);
	/* keys 2^32-3, -2, -1, 0, 1, 2; answer 2^32-2 and 1 */
	memset(m, 1, sizeof(m));
	k = UINT32_MAX - 1;
	i = tstamp_tx_match(&port, TC_EVENT, k, m, sizeof(m));
	assert_true(i >= 0);
	assert_int_equal(tstamp_tx_done(&port, TC_EVENT, i, k), id[1]);
	memset(m, 4, sizeof(m));
	i = tstamp_tx_match(&port, TC_EVENT, 1, m, sizeof(m));
	assert_true(i >= 0);
	assert_int_equal(tstamp_tx_done(&port, TC_EVENT, i, 1), id[4]);
	/* the others expire in key order across the wrap */
	assert_int_equal(tstamp_tx_expire(&port, &later, &out), 1);
	assert_int_equal(out.id, id[0]);
	assert_int_equal(tstamp_tx_expire(&port, &later, &out), 1);
	assert_int_equal(out.id, id[2]);
	assert_int_equal(tstamp_tx_expire(&port, &later, &out), 1);
	assert_int_equal(out.id, id[3]);
	assert_int_equal(tstamp_tx_expire(&port, &later, &out), 1);
	assert_int_equal(out.id, id[5]);
	assert_int_equal(tstamp_tx_expire(&port, &later, &out), 0);
	assert_int_equal(transport_tx_owed(&port, TC_EVENT), 0);
	tstamp_tx_free(&port);
}

/*
 * Expiry is bounded by tx_timestamp_timeout from each request's own send:
 * a later request is not expired with an earlier one.  And keys drift:
 * a one-step send the kernel numbered (tstamp_tx_skip), or one found by
 * its bytes under another key, moves the expected key of the later ones.
 */
static void
test_tx_ring_expiry_drift(void **state)
{
	static struct transport_port port;
	struct transport_txts out;
	struct timespec t0 = { 100, 0 }, t1 = { 100, 50000000 };
	struct timespec t2 = { 100, 120000000 }, t3 = { 100, 160000000 };
	uint8_t a[44], b[44], c[44];
	uint32_t ida, idb, idc;
	int i;

	(void)state;
	ring_fixture(&port, a, b, c);
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, a, sizeof(a), &t0,
	    &ida), 0);
	tstamp_tx_skip(&port, TC_EVENT);	/* a one-step send: key 1 */
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, b, sizeof(b), &t1,
	    &idb), 0);
	assert_int_equal(tstamp_tx_add(&port, TC_EVENT, c, sizeof(c), &t1,
	    &idc), 0);
	/* a answers key 0; b comes under the kernel's key 2 */
	i = tstamp_tx_match(&port, TC_EVENT, 0, a, sizeof(a));
	assert_int_equal(tstamp_tx_done(&port, TC_EVENT, i, 0), ida);
	i = tstamp_tx_match(&port, TC_EVENT, 2, b, sizeof(b));
	assert_true(i >= 0);
	assert_int_equal(tstamp_tx_done(&port, TC_EVENT, i, 2), idb);
	/* a failed send after the kernel took key 3: c comes as key 4 */
	i = tstamp_tx_match(&port, TC_EVENT, 4, c, sizeof(c));
	assert_true(i >= 0);
	assert_int_equal(port.txr[TC_EVENT].e[i].id, idc);
	/* not answered: expires 100 ms after its own send, not a's */
	assert_int_equal(tstamp_tx_expire(&port, &t2, &out), 0);
	assert_int_equal(tstamp_tx_expire(&port, &t3, &out), 1);
	assert_int_equal(out.id, idc);
	assert_int_equal(out.status, TXTS_MISSING);
	tstamp_tx_free(&port);
}

/* Which sends go out with their socket out of the event loop. */
static void
test_tx_quiet(void **state)
{
	(void)state;
	assert_true(tstamp_tx_quiet(TS_SOFTWARE, 1));
	/* untimestamped sends wake no one; the NIC stamps in hardware */
	assert_false(tstamp_tx_quiet(TS_SOFTWARE, 0));
	assert_false(tstamp_tx_quiet(TS_HARDWARE, 1));
	assert_false(tstamp_tx_quiet(TS_HARDWARE, 0));
}

/*
 * What netd's port_send() does around a timestamped send, with epoll as
 * libevent uses it: take the socket out (EPOLL_CTL_DEL), send with the TX
 * timestamp request, put it back (EPOLL_CTL_ADD).  The timestamp the
 * kernel queued meanwhile must be reported on the way back (EPOLLERR),
 * and be the software SND timestamp of that send, not lost.
 */
static void
test_tx_quiet_errqueue(void **state)
{
	struct sockaddr_in sin;
	socklen_t sl = sizeof(sin);
	struct epoll_event ev, got;
	struct timespec before, after;
	union cbuf cb, rcb;
	struct tstamp_cmsg tc;
	struct msghdr msg;
	struct iovec iov;
	uint8_t pkt[64] = "ptpsep", back[256];
	size_t clen;
	ssize_t n;
	int fd, ep;

	(void)state;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	assert_true(fd >= 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &sl), 0);
	assert_int_equal(tstamp_enable(fd, TS_SOFTWARE), 0);
	assert_true((ep = epoll_create1(EPOLL_CLOEXEC)) >= 0);
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.fd = fd;
	assert_int_equal(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev), 0);

	/* out of the loop, send asking for a TX timestamp */
	assert_true(tstamp_tx_quiet(TS_SOFTWARE, 1));
	assert_int_equal(epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL), 0);
	clen = tstamp_tx_cmsg(cb.b, sizeof(cb.b), TS_SOFTWARE);
	assert_true(clen > 0);
	iov.iov_base = pkt;
	iov.iov_len = sizeof(pkt);
	memset(&msg, 0, sizeof(msg));
	msg.msg_name = &sin;
	msg.msg_namelen = sizeof(sin);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cb.b;
	msg.msg_controllen = clen;
	clock_gettime(CLOCK_REALTIME, &before);
	assert_int_equal(sendmsg(fd, &msg, 0), (ssize_t)sizeof(pkt));
	clock_gettime(CLOCK_REALTIME, &after);
	assert_int_equal(epoll_wait(ep, &got, 1, 0), 0);	/* not watched */

	/* back in: the queued timestamp (and the datagram) are reported */
	assert_int_equal(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev), 0);
	assert_int_equal(epoll_wait(ep, &got, 1, 1000), 1);
	assert_true(got.events & EPOLLERR);

	iov.iov_base = back;
	iov.iov_len = sizeof(back);
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = rcb.b;
	msg.msg_controllen = sizeof(rcb.b);
	/* (no bytes back without privilege if net.core.tstamp_allow_data=0) */
	n = recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT);
	assert_true(n >= 0);
	assert_int_equal(tstamp_parse_cmsg(&msg, &tc), 0);
	assert_true(tc.have_err);
	assert_int_equal(tc.tstype, SCM_TSTAMP_SND);
	assert_int_equal(tc.key, 0);		/* the socket's first one */
	assert_true(tc.have_sw);
	assert_false(tc.sw.tv_sec < before.tv_sec ||
	    (tc.sw.tv_sec == before.tv_sec && tc.sw.tv_nsec < before.tv_nsec));
	assert_false(tc.sw.tv_sec > after.tv_sec ||
	    (tc.sw.tv_sec == after.tv_sec && tc.sw.tv_nsec > after.tv_nsec));
	close(ep);
	close(fd);
}

/*
 * What port_send() counts on when it reads the error queue right after a
 * software time-stamped send, with the socket off the loop: the kernel
 * has queued the timestamp by the time sendmsg returns (skb_tx_timestamp()
 * runs in the sending context), so the read finds it, and the socket put
 * back in the loop then reports no error-queue entry (no wake-up for it).
 */
static void
test_tx_stamp_before_return(void **state)
{
	struct sockaddr_in sin;
	socklen_t sl = sizeof(sin);
	struct epoll_event ev, got;
	union cbuf cb, rcb;
	struct tstamp_cmsg tc;
	struct msghdr msg;
	struct iovec iov;
	uint8_t pkt[64] = "ptpsep", back[256];
	size_t clen;
	int fd, ep, k;

	(void)state;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	assert_true(fd >= 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &sl), 0);
	assert_int_equal(tstamp_enable(fd, TS_SOFTWARE), 0);
	assert_true((ep = epoll_create1(EPOLL_CLOEXEC)) >= 0);
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.fd = fd;
	clen = tstamp_tx_cmsg(cb.b, sizeof(cb.b), TS_SOFTWARE);
	assert_true(clen > 0);
	for (k = 0; k < 20; k++) {
		iov.iov_base = pkt;
		iov.iov_len = sizeof(pkt);
		memset(&msg, 0, sizeof(msg));
		msg.msg_name = &sin;
		msg.msg_namelen = sizeof(sin);
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = cb.b;
		msg.msg_controllen = clen;
		assert_int_equal(sendmsg(fd, &msg, 0), (ssize_t)sizeof(pkt));

		iov.iov_base = back;
		iov.iov_len = sizeof(back);
		memset(&msg, 0, sizeof(msg));
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = rcb.b;
		msg.msg_controllen = sizeof(rcb.b);
		if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			fail_msg("send %d: no TX timestamp when sendmsg "
			    "returned: %s", k, strerror(errno));
		assert_int_equal(tstamp_parse_cmsg(&msg, &tc), 0);
		assert_true(tc.have_err && tc.have_sw);
		assert_int_equal(tc.tstype, SCM_TSTAMP_SND);
		assert_int_equal(tc.key, (uint32_t)k);

		/* back in the loop: the datagram (sent to itself), no error */
		assert_int_equal(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev), 0);
		assert_int_equal(epoll_wait(ep, &got, 1, 1000), 1);
		assert_false(got.events & EPOLLERR);
		assert_true(got.events & EPOLLIN);
		assert_true(recv(fd, back, sizeof(back), MSG_DONTWAIT) > 0);
		assert_int_equal(epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL), 0);
	}
	close(ep);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hw_request),
		cmocka_unit_test(test_hw_reply),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_parse_old),
		cmocka_unit_test(test_parse_new_and_err),
		cmocka_unit_test(test_errq_payload_off),
		cmocka_unit_test(test_tx_table),
		cmocka_unit_test(test_tx_cancel_middle),
		cmocka_unit_test(test_tx_ring_full),
		cmocka_unit_test(test_tx_ring_wrap),
		cmocka_unit_test(test_tx_ring_expiry_drift),
		cmocka_unit_test(test_tx_quiet),
		cmocka_unit_test(test_tx_quiet_errqueue),
		cmocka_unit_test(test_tx_stamp_before_return),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
