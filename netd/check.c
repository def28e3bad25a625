/*
 * check.c - pure checks of what clockd sends to netd.
 *
 * netd treats its client as hostile (doc/design.md, "Treating clockd as
 * hostile"): a compromised clockd may at worst send well-formed PTP
 * payloads on the configured ports and slew the clock within bounds.
 * These functions decide, without I/O, whether a request stays inside
 * that envelope; relay.c acts on the verdict.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "netd.h"
#include "ptp_msg.h"

/* Header offsets (13.3.1, Table 35) and the timestamp of the body. */
#define CHK_OFF_DOMAIN		4
#define CHK_OFF_SOURCE		20	/* sourcePortIdentity, 10 octets */
#define CHK_OFF_SEQ		30
#define CHK_OFF_TS		34	/* 13.8.2, 13.11.2: 10 octets */
#define CHK_TS_LEN		10

static int
check_class(Ptpsep__MsgClass c, enum transport_class *cls)
{
	switch (c) {
	case PTPSEP__MSG_CLASS__MSG_CLASS_EVENT:
		*cls = TC_EVENT;
		return 0;
	case PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL:
		*cls = TC_GENERAL;
		return 0;
	default:
		return -1;
	}
}

/* The address family a unicast destination must have on a port. */
static Ptpsep__Netd__AddrFamily
check_family_of(enum transport_kind k)
{
	switch (k) {
	case TR_L2:	return PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_MAC;
	case TR_UDP4:	return PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV4;
	case TR_UDP6:	return PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV6;
	}
	return PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_UNSPECIFIED;
}

static size_t
check_family_len(Ptpsep__Netd__AddrFamily f)
{
	switch (f) {
	case PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_MAC:	return 6;
	case PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV4:	return 4;
	case PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV6:	return 16;
	default:						return 0;
	}
}

/*
 * What is wrong with a payload clockd asks to send on a port of kind, or
 * NULL: versionPTP, messageType of the socket's class, the type's minimum
 * length (13.5-13.12, 15.4.1), messageLength equal to the payload, and a
 * size that one frame carries without IP fragments.
 */
static const char *
check_payload(enum transport_class cls, enum transport_kind kind,
    const uint8_t *p, size_t len)
{
	if (p == NULL || len == 0)
		return "TxFrame without a payload";
	if (len > transport_max_payload(kind))
		return "TxFrame payload larger than one unfragmented frame";
	switch (transport_check_rx(cls, p, len)) {
	case TRV_OK:
		break;
	case TRV_TOO_SHORT:
		return "TxFrame payload shorter than its messageType's minimum";
	case TRV_BAD_VERSION:
		return "TxFrame payload is not PTP version 2";
	case TRV_WRONG_CLASS:
		return "TxFrame messageType is not of its message class";
	case TRV_BAD_LENGTH:
		return "TxFrame messageLength below its messageType's minimum";
	}
	if (((size_t)p[2] << 8 | p[3]) != len)
		return "TxFrame messageLength differs from the payload length";
	/* The same rule transport_send() applies again before sending. */
	if (transport_check_payload(cls, p, len) != 0)
		return "TxFrame payload is not a PTPv2 message of its class";
	return NULL;
}

#define VIOLATE(r, text) do {			\
		*reason = (r);			\
		*why = (text);			\
		return CHECK_VIOLATION;		\
	} while (0)

/*
 * What is wrong with the follow_up template of an event payload ev, or
 * NULL.  netd sends it unseen once the timestamp is in, so it must be the
 * very message a two-step clock sends after ev (9.5.10, 11.4.3 c): the
 * general message of ev's type (Follow_Up after Sync, 13.8;
 * Pdelay_Resp_Follow_Up after Pdelay_Resp, 13.11), well-formed as any
 * TxFrame payload, with ev's sequenceId, domainNumber and
 * sourcePortIdentity, and the timestamp netd writes still zero.
 */
static const char *
check_follow_up(enum transport_kind kind, const uint8_t *ev,
    const uint8_t *fu, size_t len)
{
	unsigned want;
	size_t i;

	switch (ev[0] & 0x0f) {
	case PTP_MT_SYNC:
		want = PTP_MT_FOLLOW_UP;
		break;
	case PTP_MT_PDELAY_RESP:
		want = PTP_MT_PDELAY_RESP_FOLLOW_UP;
		break;
	default:
		return "follow_up with an event message that has none";
	}
	if (len > NETD_FU_MAX)
		return "follow_up longer than netd keeps";
	if (check_payload(TC_GENERAL, kind, fu, len) != NULL)
		return "follow_up is not a well-formed general message";
	if ((fu[0] & 0x0f) != want)
		return "follow_up of the wrong messageType for its event";
	if (fu[CHK_OFF_SEQ] != ev[CHK_OFF_SEQ] ||
	    fu[CHK_OFF_SEQ + 1] != ev[CHK_OFF_SEQ + 1])
		return "follow_up with another sequenceId than its event";
	if (fu[CHK_OFF_DOMAIN] != ev[CHK_OFF_DOMAIN])
		return "follow_up with another domainNumber than its event";
	if (memcmp(fu + CHK_OFF_SOURCE, ev + CHK_OFF_SOURCE, 10) != 0)
		return "follow_up from another port identity than its event";
	for (i = 0; i < CHK_TS_LEN; i++)
		if (fu[CHK_OFF_TS + i] != 0)
			return "follow_up timestamp field is not zero";
	return NULL;
}

void
check_fu_stamp(uint8_t *fu, size_t len, uint64_t sec, uint32_t nsec)
{
	int i;

	if (len < CHK_OFF_TS + CHK_TS_LEN)
		return;		/* check_follow_up() refused it */
	for (i = 5; i >= 0; i--, sec >>= 8)
		fu[CHK_OFF_TS + i] = (uint8_t)sec;
	for (i = 9; i >= 6; i--, nsec >>= 8)
		fu[CHK_OFF_TS + i] = (uint8_t)nsec;
}

enum check_verdict
check_send_frame(const Ptpsep__Netd__TxFrame *f, size_t nports,
    enum transport_kind kind_of_port(void *, unsigned), void *arg,
    enum transport_class *cls, struct transport_dest *dst, int *reason,
    const char **why)
{
	enum transport_kind kind;
	const char *bad;
	size_t alen;

	if (f->port_index >= nports)
		VIOLATE(PTPSEP__REFUSE_REASON__REFUSE_BAD_PORT,
		    "TxFrame for a port that does not exist");
	kind = kind_of_port(arg, f->port_index);
	if (check_class(f->msg_class, cls) != 0)
		VIOLATE(PTPSEP__REFUSE_REASON__REFUSE_BAD_REQUEST,
		    "TxFrame without a message class");
	if ((bad = check_payload(*cls, kind, f->payload.data,
	    f->payload.len)) != NULL)
		VIOLATE(PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD, bad);
	if (f->want_tx_ts && *cls != TC_EVENT)
		VIOLATE(PTPSEP__REFUSE_REASON__REFUSE_BAD_REQUEST,
		    "TX timestamp asked for a general message");
	if (f->follow_up.len > 0 && !f->want_tx_ts)
		VIOLATE(PTPSEP__REFUSE_REASON__REFUSE_BAD_REQUEST,
		    "follow_up without a TX timestamp to carry");
	if (f->follow_up.len > 0 && (bad = check_follow_up(kind,
	    f->payload.data, f->follow_up.data, f->follow_up.len)) != NULL)
		VIOLATE(PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD, bad);

	memset(dst, 0, sizeof(*dst));
	switch (f->dest) {
	case PTPSEP__NETD__DESTINATION__DEST_PRIMARY:
		dst->kind = TD_PRIMARY;
		if (f->unicast != NULL)
			VIOLATE(PTPSEP__REFUSE_REASON__REFUSE_BAD_DESTINATION,
			    "multicast TxFrame carries a unicast address");
		break;
	case PTPSEP__NETD__DESTINATION__DEST_PDELAY:
		dst->kind = TD_PDELAY;
		if (f->unicast != NULL)
			VIOLATE(PTPSEP__REFUSE_REASON__REFUSE_BAD_DESTINATION,
			    "multicast TxFrame carries a unicast address");
		break;
	case PTPSEP__NETD__DESTINATION__DEST_UNICAST:
		dst->kind = TD_UNICAST;
		if (f->unicast == NULL ||
		    f->unicast->family != check_family_of(kind))
			VIOLATE(PTPSEP__REFUSE_REASON__REFUSE_BAD_DESTINATION,
			    "unicast address of the wrong family for the port");
		alen = check_family_len(f->unicast->family);
		if (f->unicast->addr.len != alen)
			VIOLATE(PTPSEP__REFUSE_REASON__REFUSE_BAD_DESTINATION,
			    "unicast address of the wrong length");
		dst->addr.len = (uint8_t)alen;
		memcpy(dst->addr.b, f->unicast->addr.data, alen);
		/* Whether the port has heard from it: port_send(). */
		break;
	default:
		VIOLATE(PTPSEP__REFUSE_REASON__REFUSE_BAD_DESTINATION,
		    "TxFrame without a destination");
	}
	*reason = 0;
	*why = NULL;
	return CHECK_OK;
}

enum check_verdict
check_clock_request(const Ptpsep__Netd__ClockRequest *r, struct clock_req *out,
    int *is_read, const char **why)
{
	memset(out, 0, sizeof(*out));
	*is_read = 0;
	*why = NULL;
	out->system_clock = r->system_clock != 0;
	switch (r->op_case) {
	case PTPSEP__NETD__CLOCK_REQUEST__OP_READ:
	case PTPSEP__NETD__CLOCK_REQUEST__OP_GET_STATUS:
		*is_read = CHECK_CLOCK_READ;
		return CHECK_OK;
	case PTPSEP__NETD__CLOCK_REQUEST__OP_COMPARE:
		/* Always the system clock against the PTP clock. */
		if (r->system_clock) {
			*why = "ClockCompare with system_clock set";
			return CHECK_VIOLATION;
		}
		*is_read = CHECK_CLOCK_COMPARE;
		return CHECK_OK;
	case PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ:
		/* Bounds are clock_check_request()'s; NaN is a violation. */
		if (!isfinite(r->adj_freq->freq_ppb)) {
			*why = "frequency is not a finite number";
			return CHECK_VIOLATION;
		}
		out->op = CLOCK_OP_ADJFREQ;
		out->freq_ppb = r->adj_freq->freq_ppb;
		return CHECK_OK;
	case PTPSEP__NETD__CLOCK_REQUEST__OP_STEP:
		out->op = CLOCK_OP_STEP;
		out->step_ns = r->step->offset_ns;
		return CHECK_OK;
	case PTPSEP__NETD__CLOCK_REQUEST__OP_SET_LEAP:
		/* No clockd sends these: a violation, not a refusal. */
		if (r->set_leap->leap < -1 || r->set_leap->leap > 1) {
			*why = "ClockSetLeap leap is not +1, -1 or 0";
			return CHECK_VIOLATION;
		}
		if (r->set_leap->set_tai && (r->set_leap->tai_offset < 0 ||
		    r->set_leap->tai_offset > CLOCK_TAI_OFFSET_MAX)) {
			*why = "ClockSetLeap tai_offset outside 0..1000";
			return CHECK_VIOLATION;
		}
		out->op = CLOCK_OP_LEAP;
		out->leap = r->set_leap->leap;
		out->tai_offset = r->set_leap->tai_offset;
		out->set_tai = r->set_leap->set_tai != 0;
		return CHECK_OK;
	default:
		*why = "ClockRequest without an operation";
		return CHECK_VIOLATION;
	}
}

int
check_refuse_reason(enum clock_status st)
{
	switch (st) {
	case CLOCK_ST_OK:
		return 0;
	case CLOCK_ST_OUT_OF_BOUNDS:
		return PTPSEP__REFUSE_REASON__REFUSE_OUT_OF_BOUNDS;
	case CLOCK_ST_STEP_NOT_ALLOWED:
		return PTPSEP__REFUSE_REASON__REFUSE_STEP_NOT_ALLOWED;
	case CLOCK_ST_STEP_TOO_LARGE:
		return PTPSEP__REFUSE_REASON__REFUSE_STEP_TOO_LARGE;
	case CLOCK_ST_RATE_LIMITED:
		return PTPSEP__REFUSE_REASON__REFUSE_RATE_LIMITED;
	case CLOCK_ST_INVALID:
		return PTPSEP__REFUSE_REASON__REFUSE_BAD_REQUEST;
	case CLOCK_ST_NOT_SUPPORTED:
		return PTPSEP__REFUSE_REASON__REFUSE_NOT_SUPPORTED;
	}
	return PTPSEP__REFUSE_REASON__REFUSE_BAD_REQUEST;
}

/*
 * On a one-step port the NIC writes the time into the Sync (and, with
 * p2p1step, the Pdelay_Resp) as it leaves and reports none back, so such
 * a message must say it is one-step (twoStepFlag 0, IEEE 1588-2019
 * 13.3.2.8) and ask for neither a TX time stamp nor a follow-up: a
 * two-step one would promise a Follow_Up that never comes.
 */
enum check_verdict
check_one_step(enum transport_step step, enum transport_class cls,
    const Ptpsep__Netd__TxFrame *f, int *reason, const char **why)
{
	const uint8_t *p = f->payload.data;

	if (cls != TC_EVENT ||
	    !transport_one_step_msg(step, p, f->payload.len))
		return CHECK_OK;
	*reason = PTPSEP__REFUSE_REASON__REFUSE_BAD_PAYLOAD;
	if (p[6] & (PTP_FLAG_TWO_STEP >> 8)) {
		*why = "two-step message on a one-step port (twoStepFlag set)";
		return CHECK_VIOLATION;
	}
	if (f->want_tx_ts || f->follow_up.len != 0) {
		*why = "one-step message with want_tx_ts or a follow_up: the "
		    "NIC inserts its time and reports none";
		return CHECK_VIOLATION;
	}
	return CHECK_OK;
}
