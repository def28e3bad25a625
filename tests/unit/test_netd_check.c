/*
 * test_netd_check.c - netd/check.c and the payload rules of
 * netd/transport.c: what netd lets a (hostile) clockd send, and what it
 * lets through from the network (issue 11, item 8).
 *
 * Every messageType at its minimum length (IEEE 1588-2019 13.5-13.12;
 * Management 15.4.1 with the 6 octets of its management TLV) passes and
 * one octet less is refused; messageLength must equal the payload; UDP
 * payloads stop where a 1500-octet MTU would fragment them.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "netd/netd.h"
#include "ptp_msg.h"

static const struct {
	unsigned type;
	size_t min;
} mins[] = {
	{ PTP_MT_SYNC, 44 },
	{ PTP_MT_DELAY_REQ, 44 },
	{ PTP_MT_PDELAY_REQ, 54 },
	{ PTP_MT_PDELAY_RESP, 54 },
	{ PTP_MT_FOLLOW_UP, 44 },
	{ PTP_MT_DELAY_RESP, 54 },
	{ PTP_MT_PDELAY_RESP_FOLLOW_UP, 54 },
	{ PTP_MT_ANNOUNCE, 64 },
	{ PTP_MT_SIGNALING, 44 },
	{ PTP_MT_MANAGEMENT, 54 },
};
#define NMINS	(sizeof(mins) / sizeof(mins[0]))

static uint8_t buf[2048];

/* A PTPv2 header of type with messageLength msglen; body zero. */
static uint8_t *
craft(unsigned type, size_t msglen)
{
	memset(buf, 0, sizeof(buf));
	buf[0] = (uint8_t)type;
	buf[1] = 2;
	buf[2] = (uint8_t)(msglen >> 8);
	buf[3] = (uint8_t)msglen;
	return buf;
}

static enum transport_kind
kind_of(void *arg, unsigned idx)
{
	(void)idx;
	return *(enum transport_kind *)arg;
}

/* check_send_frame() on a PRIMARY TxFrame of len octets of buf. */
static int
send_check(enum transport_kind kind, unsigned type, size_t len, int *reason,
    const char **why)
{
	Ptpsep__Netd__TxFrame f = PTPSEP__NETD__TX_FRAME__INIT;
	enum transport_class cls;
	struct transport_dest dst;

	f.port_index = 0;
	f.msg_class = ptp_msg_is_event(type) ?
	    PTPSEP__MSG_CLASS__MSG_CLASS_EVENT :
	    PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
	f.dest = PTPSEP__NETD__DESTINATION__DEST_PRIMARY;
	f.payload.data = buf;
	f.payload.len = len;
	return check_send_frame(&f, 1, kind_of, &kind, &cls, &dst, reason,
	    why);
}

static void
test_type_minimums(void **state)
{
	enum transport_kind kinds[] = { TR_L2, TR_UDP4, TR_UDP6 };
	const char *why;
	size_t i, k;
	int reason;

	(void)state;
	for (i = 0; i < NMINS; i++) {
		assert_int_equal(transport_min_len(mins[i].type), mins[i].min);
		for (k = 0; k < 3; k++) {
			craft(mins[i].type, mins[i].min);
			assert_int_equal(send_check(kinds[k], mins[i].type,
			    mins[i].min, &reason, &why), CHECK_OK);
			/* one octet short, messageLength consistent */
			craft(mins[i].type, mins[i].min - 1);
			assert_int_equal(send_check(kinds[k], mins[i].type,
			    mins[i].min - 1, &reason, &why), CHECK_VIOLATION);
			assert_int_equal(reason,
			    PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD);
			assert_non_null(why);
			/* the minimum in octets, messageLength one less */
			craft(mins[i].type, mins[i].min - 1);
			assert_int_equal(send_check(kinds[k], mins[i].type,
			    mins[i].min, &reason, &why), CHECK_VIOLATION);
			assert_int_equal(reason,
			    PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD);
		}
		/* and on the receive side */
		craft(mins[i].type, mins[i].min);
		assert_int_equal(transport_check_rx(ptp_msg_is_event(
		    mins[i].type) ? TC_EVENT : TC_GENERAL, buf, mins[i].min),
		    TRV_OK);
		assert_int_equal(transport_check_payload(ptp_msg_is_event(
		    mins[i].type) ? TC_EVENT : TC_GENERAL, buf, mins[i].min),
		    0);
		craft(mins[i].type, mins[i].min - 1);
		assert_int_equal(transport_check_rx(ptp_msg_is_event(
		    mins[i].type) ? TC_EVENT : TC_GENERAL, buf,
		    mins[i].min - 1), TRV_TOO_SHORT);
		assert_int_equal(transport_check_payload(ptp_msg_is_event(
		    mins[i].type) ? TC_EVENT : TC_GENERAL, buf,
		    mins[i].min - 1), -EINVAL);
		/* padded to the minimum, messageLength still one short */
		assert_int_equal(transport_check_rx(ptp_msg_is_event(
		    mins[i].type) ? TC_EVENT : TC_GENERAL, buf, mins[i].min),
		    TRV_BAD_LENGTH);
	}
	/* reserved messageTypes have no minimum */
	assert_int_equal(transport_min_len(0x4), 0);
	assert_int_equal(transport_min_len(0xE), 0);
}

/* The case of issue 11: a 44-octet Announce or Management. */
static void
test_short_announce_management(void **state)
{
	const char *why;
	int reason;

	(void)state;
	craft(PTP_MT_ANNOUNCE, 44);
	assert_int_equal(send_check(TR_L2, PTP_MT_ANNOUNCE, 44, &reason, &why),
	    CHECK_VIOLATION);
	assert_int_equal(reason, PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD);
	assert_string_equal(why,
	    "TxFrame payload shorter than its messageType's minimum");
	craft(PTP_MT_MANAGEMENT, 44);
	assert_int_equal(send_check(TR_UDP4, PTP_MT_MANAGEMENT, 44, &reason,
	    &why), CHECK_VIOLATION);
	/* Management header alone (48) lacks its TLV */
	craft(PTP_MT_MANAGEMENT, 48);
	assert_int_equal(send_check(TR_UDP4, PTP_MT_MANAGEMENT, 48, &reason,
	    &why), CHECK_VIOLATION);
	assert_int_equal(transport_check_rx(TC_GENERAL, buf, 48),
	    TRV_TOO_SHORT);
	/* received with padding to 64, messageLength 44: too short */
	craft(PTP_MT_ANNOUNCE, 44);
	assert_int_equal(transport_check_rx(TC_GENERAL, buf, 64),
	    TRV_BAD_LENGTH);
	/* Ethernet padding after a valid Announce is fine */
	craft(PTP_MT_ANNOUNCE, 64);
	assert_int_equal(transport_check_rx(TC_GENERAL, buf, 66), TRV_OK);
}

static void
test_message_length(void **state)
{
	const char *why;
	int reason;

	(void)state;
	craft(PTP_MT_ANNOUNCE, 65);
	assert_int_equal(send_check(TR_L2, PTP_MT_ANNOUNCE, 64, &reason, &why),
	    CHECK_VIOLATION);
	assert_int_equal(reason, PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD);
	craft(PTP_MT_ANNOUNCE, 64);
	assert_int_equal(send_check(TR_L2, PTP_MT_ANNOUNCE, 65, &reason, &why),
	    CHECK_VIOLATION);
	assert_string_equal(why,
	    "TxFrame messageLength differs from the payload length");
	craft(PTP_MT_ANNOUNCE, 70);	/* TLVs may follow */
	assert_int_equal(send_check(TR_L2, PTP_MT_ANNOUNCE, 70, &reason, &why),
	    CHECK_OK);
	/* wrong version, wrong class */
	craft(PTP_MT_SYNC, 44);
	buf[1] = 1;
	assert_int_equal(send_check(TR_L2, PTP_MT_SYNC, 44, &reason, &why),
	    CHECK_VIOLATION);
	assert_string_equal(why, "TxFrame payload is not PTP version 2");
	craft(PTP_MT_ANNOUNCE, 64);
	buf[0] = PTP_MT_SYNC;		/* an event type in a general frame */
	assert_int_equal(send_check(TR_L2, PTP_MT_ANNOUNCE, 64, &reason, &why),
	    CHECK_VIOLATION);
	assert_int_equal(reason, PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD);
}

/* No datagram netd sends may fragment at a 1500-octet MTU. */
static void
test_max_payload(void **state)
{
	const struct {
		enum transport_kind kind;
		size_t max;
	} caps[] = { { TR_L2, 1500 }, { TR_UDP4, 1472 }, { TR_UDP6, 1452 } };
	const char *why;
	size_t i;
	int reason;

	(void)state;
	for (i = 0; i < 3; i++) {
		assert_int_equal(transport_max_payload(caps[i].kind),
		    caps[i].max);
		craft(PTP_MT_SIGNALING, caps[i].max);
		assert_int_equal(send_check(caps[i].kind, PTP_MT_SIGNALING,
		    caps[i].max, &reason, &why), CHECK_OK);
		craft(PTP_MT_SIGNALING, caps[i].max + 1);
		assert_int_equal(send_check(caps[i].kind, PTP_MT_SIGNALING,
		    caps[i].max + 1, &reason, &why), CHECK_VIOLATION);
		assert_int_equal(reason,
		    PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD);
		assert_string_equal(why,
		    "TxFrame payload larger than one unfragmented frame");
	}
	/* 1473 was accepted on UDPv4 before: it fragments */
	craft(PTP_MT_ANNOUNCE, 1473);
	assert_int_equal(send_check(TR_UDP4, PTP_MT_ANNOUNCE, 1473, &reason,
	    &why), CHECK_VIOLATION);
	craft(PTP_MT_ANNOUNCE, 1453);
	assert_int_equal(send_check(TR_UDP6, PTP_MT_ANNOUNCE, 1453, &reason,
	    &why), CHECK_VIOLATION);
	craft(PTP_MT_ANNOUNCE, 1452);
	assert_int_equal(send_check(TR_UDP6, PTP_MT_ANNOUNCE, 1452, &reason,
	    &why), CHECK_OK);
}

static void
test_no_payload(void **state)
{
	Ptpsep__Netd__TxFrame f = PTPSEP__NETD__TX_FRAME__INIT;
	enum transport_kind kind = TR_L2;
	enum transport_class cls;
	struct transport_dest dst;
	const char *why;
	int reason;

	(void)state;
	f.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
	f.dest = PTPSEP__NETD__DESTINATION__DEST_PRIMARY;
	assert_int_equal(check_send_frame(&f, 1, kind_of, &kind, &cls, &dst,
	    &reason, &why), CHECK_VIOLATION);
	assert_int_equal(reason, PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD);
	f.payload.data = craft(PTP_MT_ANNOUNCE, 33);
	f.payload.len = 33;
	assert_int_equal(check_send_frame(&f, 1, kind_of, &kind, &cls, &dst,
	    &reason, &why), CHECK_VIOLATION);
	assert_int_equal(reason, PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_type_minimums),
		cmocka_unit_test(test_short_announce_management),
		cmocka_unit_test(test_message_length),
		cmocka_unit_test(test_max_payload),
		cmocka_unit_test(test_no_payload),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
