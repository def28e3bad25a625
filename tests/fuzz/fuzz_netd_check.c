/*
 * fuzz_netd_check.c - libFuzzer target for netd's checks of PTP payloads
 * (netd/check.c check_send_frame(), netd/transport.c transport_check_rx()):
 * bytes from a hostile clockd, and frames from the network.
 *
 * The first octet picks the port's transport (L2, UDPv4, UDPv6) and the
 * message class; the rest is the payload.  Whatever check_send_frame()
 * lets through must be what netd promises to send (doc/design.md,
 * "Treating clockd as hostile"): PTP
 * version 2, a messageType of the class, at least the type's minimum
 * length, messageLength equal to the payload, and no larger than one
 * unfragmented frame of the transport.  Whatever transport_check_rx()
 * passes must hold the type's minimum in its messageLength and its bytes.
 * A refusal must come with REFUSE_BAD_PAYLOAD (or another reason) and a
 * text.  With bit 0x20 of the first octet the next octet is the payload's
 * length and the rest TxFrame.follow_up (bit 0x40: want_tx_ts): a
 * follow_up passes only as the general message of its event (Follow_Up
 * after Sync, Pdelay_Resp_Follow_Up after Pdelay_Resp) with the event's
 * sequenceId, domainNumber and source, its timestamp zero, at most
 * NETD_FU_MAX, and check_fu_stamp() writes bytes 34..43 and no other.
 * Any violation aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "netd/netd.h"
#include "ptp_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static enum transport_kind
kind_of(void *arg, unsigned idx)
{
	(void)idx;
	return *(enum transport_kind *)arg;
}

/* What a follow_up that check_send_frame() passed must be. */
static void
fuzz_follow_up(const Ptpsep__Netd__TxFrame *f)
{
	const uint8_t *ev = f->payload.data, *fu = f->follow_up.data;
	size_t len = f->follow_up.len, i;
	uint8_t copy[NETD_FU_MAX];
	unsigned want;

	if (!f->want_tx_ts || len > NETD_FU_MAX || len < 44)
		abort();
	switch (ev[0] & 0x0f) {
	case PTP_MT_SYNC:		want = PTP_MT_FOLLOW_UP;		break;
	case PTP_MT_PDELAY_RESP:	want = PTP_MT_PDELAY_RESP_FOLLOW_UP;	break;
	default:			abort();
	}
	if ((fu[0] & 0x0f) != want || (fu[1] & 0x0f) != 2 ||
	    ((size_t)fu[2] << 8 | fu[3]) != len || len < transport_min_len(fu[0]))
		abort();
	if (fu[4] != ev[4] || memcmp(fu + 20, ev + 20, 12) != 0)
		abort();
	for (i = 34; i < 44; i++)
		if (fu[i] != 0)
			abort();
	memcpy(copy, fu, len);
	check_fu_stamp(copy, len, 0xffffffffffffULL, 999999999);
	for (i = 0; i < len; i++)
		if ((i < 34 || i >= 44) != (copy[i] == fu[i]))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum transport_kind kinds[] = { TR_L2, TR_UDP4, TR_UDP6 };
	Ptpsep__Netd__TxFrame f = PTPSEP__NETD__TX_FRAME__INIT;
	enum transport_kind kind;
	enum transport_class cls, want;
	struct transport_dest dst;
	const uint8_t *p;
	const char *why = NULL;
	size_t len, min, msglen;
	int reason = 0;

	if (size < 1)
		return 0;
	kind = kinds[(data[0] & 0x0f) % 3];
	want = (data[0] & 0x10) ? TC_GENERAL : TC_EVENT;
	p = data + 1;
	len = size - 1;
	if ((data[0] & 0x20) && len >= 1 && (size_t)p[0] + 1 <= len) {
		f.follow_up.data = (uint8_t *)(uintptr_t)(p + 1 + p[0]);
		f.follow_up.len = len - 1 - p[0];
		f.want_tx_ts = (data[0] & 0x40) != 0;
		len = p[0];
		p++;
	} else if (data[0] & 0x40)
		f.want_tx_ts = 1;

	f.port_index = 0;
	f.msg_class = want == TC_EVENT ? PTPSEP__MSG_CLASS__MSG_CLASS_EVENT :
	    PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
	f.dest = PTPSEP__NETD__DESTINATION__DEST_PRIMARY;
	f.payload.data = (uint8_t *)(uintptr_t)p;
	f.payload.len = len;
	if (check_send_frame(&f, 1, kind_of, &kind, &cls, &dst, &reason,
	    &why) == CHECK_OK) {
		if (cls != want || len < 34 || (p[1] & 0x0f) != 2)
			abort();
		min = transport_min_len(p[0]);
		msglen = (size_t)p[2] << 8 | p[3];
		if (min == 0 || len < min || msglen != len ||
		    len > transport_max_payload(kind))
			abort();
		if (ptp_msg_is_event(p[0] & 0x0f) != (want == TC_EVENT))
			abort();
		if (f.want_tx_ts && cls != TC_EVENT)
			abort();
		if (f.follow_up.len > 0)
			fuzz_follow_up(&f);
	} else if (why == NULL || reason == 0) {
		abort();
	}

	if (transport_check_rx(want, p, len) == TRV_OK) {
		min = transport_min_len(p[0]);
		msglen = (size_t)p[2] << 8 | p[3];
		if (min == 0 || len < min || msglen < min || msglen > len ||
		    (p[1] & 0x0f) != 2)
			abort();
	}
	return 0;
}
