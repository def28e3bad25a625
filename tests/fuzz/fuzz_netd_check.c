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
 * text.  Any violation aborts.
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
