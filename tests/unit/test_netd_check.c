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
#include <math.h>
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

/*
 * TxFrame.follow_up (netd.proto): the general message netd completes
 * with the event frame's TX timestamp and sends unseen, so it is checked
 * as strictly as a payload (IEEE 1588-2019 13.8, 13.11).
 */
static uint8_t ev[64], fu[256];

/* A type message of len octets: domain 4, sequenceId 0x1234, a source. */
static void
fu_msg(uint8_t *b, unsigned type, size_t len)
{
	size_t i;

	memset(b, 0, 256 > len ? len : 256);
	b[0] = (uint8_t)type;
	b[1] = 2;
	b[2] = (uint8_t)(len >> 8);
	b[3] = (uint8_t)len;
	b[4] = 4;
	for (i = 20; i < 30; i++)
		b[i] = (uint8_t)(0xa0 + i);
	b[30] = 0x12;
	b[31] = 0x34;
}

static int
fu_check(unsigned evtype, size_t evlen, size_t fulen, int want_ts,
    int *reason, const char **why)
{
	Ptpsep__Netd__TxFrame f = PTPSEP__NETD__TX_FRAME__INIT;
	enum transport_kind kind = TR_L2;
	enum transport_class cls;
	struct transport_dest dst;

	f.port_index = 0;
	f.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	f.dest = PTPSEP__NETD__DESTINATION__DEST_PRIMARY;
	(void)evtype;
	f.payload.data = ev;
	f.payload.len = evlen;
	f.want_tx_ts = want_ts;
	f.follow_up.data = fu;
	f.follow_up.len = fulen;
	*reason = 0;
	*why = NULL;
	return check_send_frame(&f, 1, kind_of, &kind, &cls, &dst, reason,
	    why);
}

/* A refusal: a violation with a reason and a text that names it. */
static void
fu_refused(unsigned evtype, size_t evlen, size_t fulen, int want_ts,
    int want_reason, const char *text)
{
	const char *why;
	int reason;

	assert_int_equal(fu_check(evtype, evlen, fulen, want_ts, &reason,
	    &why), CHECK_VIOLATION);
	assert_int_equal(reason, want_reason);
	assert_non_null(why);
	assert_non_null(strstr(why, text));
}

static void
test_follow_up_good(void **state)
{
	const char *why;
	int reason;

	(void)state;
	fu_msg(ev, PTP_MT_SYNC, 44);
	fu_msg(fu, PTP_MT_FOLLOW_UP, 44);
	assert_int_equal(fu_check(PTP_MT_SYNC, 44, 44, 1, &reason, &why),
	    CHECK_OK);
	assert_null(why);
	/* with a TLV (16.2's follow-up information TLV: 32 octets) */
	fu_msg(fu, PTP_MT_FOLLOW_UP, 76);
	assert_int_equal(fu_check(PTP_MT_SYNC, 44, 76, 1, &reason, &why),
	    CHECK_OK);
	fu_msg(ev, PTP_MT_PDELAY_RESP, 54);
	fu_msg(fu, PTP_MT_PDELAY_RESP_FOLLOW_UP, 54);
	assert_int_equal(fu_check(PTP_MT_PDELAY_RESP, 54, 54, 1, &reason,
	    &why), CHECK_OK);
	/* no follow_up at all: as before */
	assert_int_equal(fu_check(PTP_MT_PDELAY_RESP, 54, 0, 1, &reason,
	    &why), CHECK_OK);
}

static void
test_follow_up_refused(void **state)
{
	const int BAD = PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD;
	size_t i;

	(void)state;
	fu_msg(ev, PTP_MT_SYNC, 44);
	/* wrong type: a Pdelay_Resp_Follow_Up after a Sync, an Announce */
	fu_msg(fu, PTP_MT_PDELAY_RESP_FOLLOW_UP, 54);
	fu_refused(PTP_MT_SYNC, 44, 54, 1, BAD, "wrong messageType");
	fu_msg(fu, PTP_MT_ANNOUNCE, 64);
	fu_refused(PTP_MT_SYNC, 44, 64, 1, BAD, "wrong messageType");
	/* an event message as the template */
	fu_msg(fu, PTP_MT_SYNC, 44);
	fu_refused(PTP_MT_SYNC, 44, 44, 1, BAD, "well-formed");
	/* wrong sequenceId, domainNumber, sourcePortIdentity */
	fu_msg(fu, PTP_MT_FOLLOW_UP, 44);
	fu[31] ^= 1;
	fu_refused(PTP_MT_SYNC, 44, 44, 1, BAD, "sequenceId");
	fu_msg(fu, PTP_MT_FOLLOW_UP, 44);
	fu[4] = 5;
	fu_refused(PTP_MT_SYNC, 44, 44, 1, BAD, "domainNumber");
	fu_msg(fu, PTP_MT_FOLLOW_UP, 44);
	fu[29] ^= 1;
	fu_refused(PTP_MT_SYNC, 44, 44, 1, BAD, "port identity");
	/* any octet of the timestamp field not zero */
	for (i = 34; i < 44; i++) {
		fu_msg(fu, PTP_MT_FOLLOW_UP, 44);
		fu[i] = 1;
		fu_refused(PTP_MT_SYNC, 44, 44, 1, BAD, "not zero");
	}
	/* too short (messageLength and payload 43), length mismatch, and
	 * longer than netd keeps (but one valid frame) */
	fu_msg(fu, PTP_MT_FOLLOW_UP, 43);
	fu_refused(PTP_MT_SYNC, 44, 43, 1, BAD, "well-formed");
	fu_msg(fu, PTP_MT_FOLLOW_UP, 44);
	fu_refused(PTP_MT_SYNC, 44, 45, 1, BAD, "well-formed");
	fu_msg(fu, PTP_MT_FOLLOW_UP, NETD_FU_MAX + 1);
	fu_refused(PTP_MT_SYNC, 44, NETD_FU_MAX + 1, 1, BAD, "longer");
	fu_msg(fu, PTP_MT_FOLLOW_UP, NETD_FU_MAX);
	{
		const char *why;
		int reason;

		assert_int_equal(fu_check(PTP_MT_SYNC, 44, NETD_FU_MAX, 1,
		    &reason, &why), CHECK_OK);
	}
	/* not PTP version 2 */
	fu_msg(fu, PTP_MT_FOLLOW_UP, 44);
	fu[1] = 1;
	fu_refused(PTP_MT_SYNC, 44, 44, 1, BAD, "well-formed");
	/* without want_tx_ts, and after an event message that has none */
	fu_msg(fu, PTP_MT_FOLLOW_UP, 44);
	fu_refused(PTP_MT_SYNC, 44, 44, 0,
	    PTPSEP__REFUSE_REASON__REFUSE_BAD_REQUEST, "without a TX");
	fu_msg(ev, PTP_MT_DELAY_REQ, 44);
	fu_refused(PTP_MT_DELAY_REQ, 44, 44, 1, BAD, "has none");
	/* the Pdelay pair: a Follow_Up after a Pdelay_Resp */
	fu_msg(ev, PTP_MT_PDELAY_RESP, 54);
	fu_refused(PTP_MT_PDELAY_RESP, 54, 44, 1, BAD, "wrong messageType");
}

static void
test_follow_up_stamp(void **state)
{
	static const uint8_t want[10] = {
		0x00, 0x01, 0x02, 0x03, 0x04, 0x05,	/* seconds, 48 bits */
		0x3b, 0x9a, 0xc9, 0xff,			/* 999999999 ns */
	};

	(void)state;
	fu_msg(fu, PTP_MT_FOLLOW_UP, 44);
	check_fu_stamp(fu, 44, 0x0102030405ULL, 999999999);
	assert_memory_equal(fu + 34, want, sizeof(want));
	assert_int_equal(fu[33], 0);
	assert_int_equal(fu[44], 0);
	/* a short buffer is left alone */
	fu_msg(fu, PTP_MT_FOLLOW_UP, 44);
	check_fu_stamp(fu, 43, 1, 1);
	assert_int_equal(fu[39], 0);
}

/*
 * check_one_step(): on a one-step port the message the NIC stamps (Sync;
 * Pdelay_Resp with p2p1step) must have twoStepFlag 0, no want_tx_ts and
 * no follow_up; everything else passes as on a two-step port.
 */
static void
test_one_step(void **state)
{
	static const struct {
		enum transport_step	step;
		unsigned		type;
		int			two;	/* twoStepFlag */
		int			want_ts;
		size_t			fulen;
		int			ok;
	} t[] = {
		/* two-step ports: not this check's business */
		{ TSTEP_TWO, PTP_MT_SYNC, 1, 1, 44, 1 },
		{ TSTEP_TWO, PTP_MT_SYNC, 0, 0, 0, 1 },
		/* one-step Sync */
		{ TSTEP_ONE_SYNC, PTP_MT_SYNC, 0, 0, 0, 1 },
		{ TSTEP_ONE_SYNC, PTP_MT_SYNC, 1, 0, 0, 0 },
		{ TSTEP_ONE_SYNC, PTP_MT_SYNC, 0, 1, 0, 0 },
		{ TSTEP_ONE_SYNC, PTP_MT_SYNC, 0, 1, 44, 0 },
		{ TSTEP_ONE_SYNC, PTP_MT_SYNC, 1, 1, 44, 0 },
		{ TSTEP_ONE_P2P, PTP_MT_SYNC, 1, 1, 44, 0 },
		/* Delay_Req, Pdelay_Req keep their TX time stamp */
		{ TSTEP_ONE_SYNC, PTP_MT_DELAY_REQ, 0, 1, 0, 1 },
		{ TSTEP_ONE_P2P, PTP_MT_PDELAY_REQ, 0, 1, 0, 1 },
		/* Pdelay_Resp: two-step with onestep, one-step with p2p1step */
		{ TSTEP_ONE_SYNC, PTP_MT_PDELAY_RESP, 1, 1, 54, 1 },
		{ TSTEP_ONE_P2P, PTP_MT_PDELAY_RESP, 0, 0, 0, 1 },
		{ TSTEP_ONE_P2P, PTP_MT_PDELAY_RESP, 1, 1, 54, 0 },
		{ TSTEP_ONE_P2P, PTP_MT_PDELAY_RESP, 0, 1, 0, 0 },
	};
	Ptpsep__Netd__TxFrame f = PTPSEP__NETD__TX_FRAME__INIT;
	const char *why;
	size_t i;
	int reason;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		fu_msg(ev, t[i].type, t[i].type == PTP_MT_PDELAY_RESP ? 54 :
		    44);
		if (t[i].two)
			ev[6] |= PTP_FLAG_TWO_STEP >> 8;
		f.payload.data = ev;
		f.payload.len = t[i].type == PTP_MT_PDELAY_RESP ? 54 : 44;
		f.want_tx_ts = t[i].want_ts;
		f.follow_up.data = fu;
		f.follow_up.len = t[i].fulen;
		reason = 0;
		why = NULL;
		if (check_one_step(t[i].step, TC_EVENT, &f, &reason, &why) !=
		    (t[i].ok ? CHECK_OK : CHECK_VIOLATION))
			fail_msg("case %zu: %s", i, why ? why : "accepted");
		if (!t[i].ok) {
			assert_int_equal(reason,
			    PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD);
			assert_non_null(why);
		}
	}
	/* General messages are never one-step. */
	fu_msg(ev, PTP_MT_FOLLOW_UP, 44);
	f.want_tx_ts = 0;
	f.follow_up.len = 0;
	assert_int_equal(check_one_step(TSTEP_ONE_P2P, TC_GENERAL, &f,
	    &reason, &why), CHECK_OK);
}

/*
 * ClockRequest (issue 14): system_clock routes an adjustment or a read to
 * the system clock; a compare is always the system clock against the PTP
 * clock, so one with system_clock set is malformed and closes the
 * connection; a request without an op, or a NaN frequency, too.
 */
static void
test_clock_request(void **state)
{
	Ptpsep__Netd__ClockRequest r = PTPSEP__NETD__CLOCK_REQUEST__INIT;
	Ptpsep__Netd__ClockCompare cmp = PTPSEP__NETD__CLOCK_COMPARE__INIT;
	Ptpsep__Netd__ClockAdjFreq af = PTPSEP__NETD__CLOCK_ADJ_FREQ__INIT;
	Ptpsep__Netd__ClockStep stp = PTPSEP__NETD__CLOCK_STEP__INIT;
	Ptpsep__Netd__ClockRead rd = PTPSEP__NETD__CLOCK_READ__INIT;
	struct clock_req out;
	const char *why;
	int is_read;

	(void)state;
	r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_COMPARE;
	r.compare = &cmp;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_OK);
	assert_int_equal(is_read, CHECK_CLOCK_COMPARE);
	assert_int_equal(out.system_clock, 0);
	r.system_clock = 1;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_VIOLATION);
	assert_string_equal(why, "ClockCompare with system_clock set");

	r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ;
	r.adj_freq = &af;
	af.freq_ppb = 1234.5;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_OK);
	assert_int_equal(is_read, 0);
	assert_int_equal(out.system_clock, 1);
	assert_int_equal(out.op, CLOCK_OP_ADJFREQ);
	af.freq_ppb = NAN;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_VIOLATION);

	r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_STEP;
	r.step = &stp;
	stp.offset_ns = -5;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_OK);
	assert_int_equal(out.system_clock, 1);
	assert_true(out.step_ns == -5);

	r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_READ;
	r.read = &rd;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_OK);
	assert_int_equal(is_read, CHECK_CLOCK_READ);
	assert_int_equal(out.system_clock, 1);

	r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP__NOT_SET;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_VIOLATION);
}

/*
 * ClockSetLeap: +1, -1 and 0 are translated (with the TAI offset only
 * when set_tai); any other leap, or a TAI offset outside 0..1000, is a
 * violation that closes the connection, as no clockd sends one.  A leap
 * refused as NOT_SUPPORTED (a clock on TAI) is answered with that reason.
 */
static void
test_clock_request_leap(void **state)
{
	Ptpsep__Netd__ClockRequest r = PTPSEP__NETD__CLOCK_REQUEST__INIT;
	Ptpsep__Netd__ClockSetLeap sl = PTPSEP__NETD__CLOCK_SET_LEAP__INIT;
	struct clock_req out;
	const char *why;
	int is_read;

	(void)state;
	r.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_SET_LEAP;
	r.set_leap = &sl;
	r.system_clock = 1;
	sl.leap = 1;
	sl.set_tai = 1;
	sl.tai_offset = 37;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_OK);
	assert_int_equal(is_read, 0);
	assert_int_equal(out.op, CLOCK_OP_LEAP);
	assert_int_equal(out.leap, 1);
	assert_int_equal(out.set_tai, 1);
	assert_int_equal(out.tai_offset, 37);
	assert_int_equal(out.system_clock, 1);
	/* Answered whether accepted or not, unlike a frequency change. */
	assert_true(clock_reply_due(0, &out, 1));
	sl.leap = -1;
	sl.tai_offset = 0;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_OK);
	assert_int_equal(out.leap, -1);
	sl.leap = 0;
	sl.tai_offset = 1000;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_OK);
	sl.leap = 2;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_VIOLATION);
	assert_string_equal(why, "ClockSetLeap leap is not +1, -1 or 0");
	sl.leap = -2;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_VIOLATION);
	sl.leap = 1;
	sl.tai_offset = 1001;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_VIOLATION);
	assert_string_equal(why, "ClockSetLeap tai_offset outside 0..1000");
	sl.tai_offset = -1;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_VIOLATION);
	/* Without set_tai the offset is not used, so not judged. */
	sl.set_tai = 0;
	assert_int_equal(check_clock_request(&r, &out, &is_read, &why),
	    CHECK_OK);
	assert_int_equal(out.set_tai, 0);
	assert_int_equal(check_refuse_reason(CLOCK_ST_NOT_SUPPORTED),
	    PTPSEP__REFUSE_REASON__REFUSE_NOT_SUPPORTED);
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
		cmocka_unit_test(test_follow_up_good),
		cmocka_unit_test(test_follow_up_refused),
		cmocka_unit_test(test_follow_up_stamp),
		cmocka_unit_test(test_one_step),
		cmocka_unit_test(test_clock_request),
		cmocka_unit_test(test_clock_request_leap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
