/*
 * fuzz_ptp_msg.c - libFuzzer target for the PTP codec (lib/ptp_msg.c,
 * lib/ptp_tlv.c): untrusted bytes from the network.
 *
 * Parses the input; walks its TLVs (and, for Management, decodes the
 * management TLV); iterates the raw input as a TLV suffix too.  When the
 * parse succeeds the message is packed, parsed again and compared, and the
 * re-pack must be byte-identical to the input outside reserved fields:
 * any difference aborts.  No allocation.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptp_msg.h"
#include "ptp_tlv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_MSG 65535

static uint8_t out[MAX_MSG];
static uint8_t out2[MAX_MSG];

/*
 * A negotiation TLV that decodes packs back to the same bytes but for its
 * reserved bits (16.1.4), and no other TLV decodes as one.
 */
static void
uneg_check(const struct ptp_tlv *t)
{
	static const uint8_t base[PTP_SIGNALING_LEN] = {
		PTP_MT_SIGNALING, PTP_VERSION, 0, PTP_SIGNALING_LEN,
	};
	uint8_t b[PTP_SIGNALING_LEN + 16], v[8];
	struct ptp_uneg_tlv u;
	int rc = ptp_tlv_uneg_parse(t, &u);

	if (rc != 0) {
		if (rc != PTP_E_TLV_TYPE && rc != PTP_E_TLV_LENGTH &&
		    rc != PTP_E_UNEG_MSG_TYPE)
			abort();
		if ((rc == PTP_E_TLV_TYPE) == ptp_tlv_is_uneg(t->type))
			abort();
		return;
	}
	memcpy(b, base, sizeof(base));
	rc = ptp_tlv_append_uneg(b, sizeof(b), &u);
	if (rc != PTP_SIGNALING_LEN + PTP_TLV_HDR_LEN + t->length)
		abort();
	memcpy(v, t->value, t->length);
	if (u.type == PTP_TLV_REQUEST_UNICAST_TRANSMISSION ||
	    u.type == PTP_TLV_GRANT_UNICAST_TRANSMISSION)
		v[0] &= 0xF0;
	if (u.type == PTP_TLV_GRANT_UNICAST_TRANSMISSION) {
		v[6] = 0;
		v[7] &= PTP_UNEG_RENEWAL_INVITED;
	}
	if (u.type == PTP_TLV_CANCEL_UNICAST_TRANSMISSION ||
	    u.type == PTP_TLV_ACK_CANCEL_UNICAST_TRANSMISSION)
		v[1] = 0;
	if (memcmp(b + PTP_SIGNALING_LEN + PTP_TLV_HDR_LEN, v, t->length))
		abort();
}

static void
walk_tlvs(const uint8_t *p, size_t len, int want_ok)
{
	struct ptp_tlv_iter it;
	struct ptp_tlv t;
	struct ptp_mgmt_tlv mt;
	struct ptp_mgmt_error me;
	int rc;

	ptp_tlv_iter_init(&it, p, len);
	while ((rc = ptp_tlv_next(&it, &t)) > 0) {
		/* the value must lie inside the suffix */
		if (t.value < p || t.value + t.length > p + len)
			abort();
		if (ptp_tlv_mgmt_parse(&t, &mt) == 0 &&
		    (mt.data_len + 2u != t.length))
			abort();
		if (ptp_tlv_mgmt_error_parse(&t, &me) == 0 &&
		    me.text_len != 0 &&
		    me.text + me.text_len > t.value + t.length)
			abort();
		uneg_check(&t);
	}
	if (want_ok && rc != 0)
		abort();
	if (rc > 0 || rc < PTP_E_UNEG_MSG_TYPE)
		abort();
}

/* Reserved octets (packed as zero) of each type, as [from, to) ranges. */
static void
clear_reserved(uint8_t *b, unsigned int type)
{
	switch (type) {
	case PTP_MT_PDELAY_REQ:
		memset(b + 44, 0, 10);
		break;
	case PTP_MT_ANNOUNCE:
		b[46] = 0;
		break;
	case PTP_MT_MANAGEMENT:
		b[46] &= 0x0F;
		b[47] = 0;
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptp_msg m, p;
	struct ptp_header h;
	struct ptp_tlv t;
	int rc, n, n2;

	/* The raw input as a suffix: any result, never a crash. */
	walk_tlvs(data, size, 0);

	rc = ptp_msg_parse(&m, data, size);
	if (rc > 0 || rc < PTP_E_UNEG_MSG_TYPE)
		abort();
	if (ptp_hdr_parse(&h, data, size) < 0 && rc == 0)
		abort();	/* full parse cannot pass a failing header */
	if (rc < 0)
		return 0;

	if (m.hdr.message_length > size ||
	    m.hdr.message_length != ptp_msg_min_len(m.hdr.message_type) +
	    m.suffix_len)
		abort();
	walk_tlvs(m.suffix, m.suffix_len, 1);
	if (m.hdr.message_type == PTP_MT_MANAGEMENT &&
	    ptp_msg_mgmt_tlv(&m, &t) != 0)
		abort();

	/* Re-pack: same length, same bytes but for reserved fields. */
	n = ptp_msg_pack(&m, out, sizeof(out));
	if (n != m.hdr.message_length)
		abort();
	memcpy(out2, data, (size_t)n);
	clear_reserved(out2, m.hdr.message_type);
	if (memcmp(out, out2, (size_t)n) != 0)
		abort();

	/* Parse the re-pack: equal message, and a fixed point. */
	if (ptp_msg_parse(&p, out, (size_t)n) != 0 || !ptp_msg_equal(&m, &p))
		abort();
	n2 = ptp_msg_pack(&p, out2, sizeof(out2));
	if (n2 != n || memcmp(out, out2, (size_t)n) != 0)
		abort();
	return 0;
}
