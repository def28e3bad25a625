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
	switch (r->op_case) {
	case PTPSEP__NETD__CLOCK_REQUEST__OP_READ:
	case PTPSEP__NETD__CLOCK_REQUEST__OP_GET_STATUS:
		*is_read = 1;
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
	}
	return PTPSEP__REFUSE_REASON__REFUSE_BAD_REQUEST;
}
