/*
 * test_ptp_tlv.c - TLV iteration, appending TLVs to a packed message, and
 * the MANAGEMENT / MANAGEMENT_ERROR_STATUS helpers (1588-2019 14, 15.5).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ptp_msg.h"
#include "ptp_tlv.h"

#define BUFSZ 512

static int
pack_base(uint8_t *buf, size_t size, unsigned int type)
{
	static const uint8_t get_null[] = { 0, 1, 0, 2, 0, 0 };
	struct ptp_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.version = PTP_VERSION;
	m.hdr.minor_version = PTP_MINOR_VERSION;
	m.hdr.message_type = (uint8_t)type;
	m.hdr.sequence_id = 7;
	if (type == PTP_MT_MANAGEMENT) {
		m.suffix = get_null;
		m.suffix_len = sizeof(get_null);
	}
	return ptp_msg_pack(&m, buf, size);
}

static void
test_iter(void **state)
{
	static const uint8_t suffix[] = {
		0x00, 0x08, 0x00, 0x08, 1, 2, 3, 4, 5, 6, 7, 8,
		0x80, 0x08, 0x00, 0x00,
		0x12, 0x34, 0x00, 0x02, 0xaa, 0xbb,
	};
	struct ptp_tlv_iter it;
	struct ptp_tlv t;
	unsigned int count = 99;

	(void)state;
	ptp_tlv_iter_init(&it, suffix, sizeof(suffix));
	assert_int_equal(ptp_tlv_next(&it, &t), 1);
	assert_int_equal(t.type, PTP_TLV_PATH_TRACE);
	assert_int_equal(t.length, 8);
	assert_ptr_equal(t.value, suffix + 4);
	assert_int_equal(ptp_tlv_next(&it, &t), 1);
	assert_int_equal(t.type, PTP_TLV_PAD);
	assert_int_equal(t.length, 0);
	assert_int_equal(ptp_tlv_next(&it, &t), 1);
	assert_int_equal(t.type, 0x1234);	/* unknown types are yielded */
	assert_int_equal(t.value[1], 0xbb);
	assert_int_equal(ptp_tlv_next(&it, &t), 0);
	assert_int_equal(ptp_tlv_next(&it, &t), 0);
	assert_int_equal(ptp_tlv_validate(suffix, sizeof(suffix), &count), 0);
	assert_int_equal(count, 3);

	/* empty suffix */
	ptp_tlv_iter_init(&it, NULL, 0);
	assert_int_equal(ptp_tlv_next(&it, &t), 0);
	assert_int_equal(ptp_tlv_validate(NULL, 0, &count), 0);
	assert_int_equal(count, 0);
	assert_int_equal(ptp_tlv_validate(NULL, 4, NULL), PTP_E_INVAL);
}

/* An error is sticky; errors are reported after the good TLVs before it. */
static void
test_iter_errors(void **state)
{
	static const uint8_t s[] = {
		0x00, 0x08, 0x00, 0x02, 0xaa, 0xbb,
		0x00, 0x08, 0x00, 0x03, 1, 2, 3, 4, 5, 6, 7,
	};
	struct ptp_tlv_iter it;
	struct ptp_tlv t;
	size_t k;

	(void)state;
	ptp_tlv_iter_init(&it, s, 13);	/* second TLV: length 3, fits */
	assert_int_equal(ptp_tlv_next(&it, &t), 1);
	assert_int_equal(ptp_tlv_next(&it, &t), PTP_E_TLV_ODD);
	assert_int_equal(ptp_tlv_next(&it, &t), PTP_E_TLV_ODD);
	ptp_tlv_iter_init(&it, s, 12);	/* length 3, 2 present */
	assert_int_equal(ptp_tlv_next(&it, &t), 1);
	assert_int_equal(ptp_tlv_next(&it, &t), PTP_E_TLV_OVERRUN);
	for (k = 7; k <= 9; k++) {	/* 1-3 octets after the first TLV */
		ptp_tlv_iter_init(&it, s, k);
		assert_int_equal(ptp_tlv_next(&it, &t), 1);
		assert_int_equal(ptp_tlv_next(&it, &t), PTP_E_TLV_TRAILING);
	}
	for (k = 1; k < 6; k++)	/* the first TLV cut short */
		assert_int_equal(ptp_tlv_validate(s, k, NULL),
		    k < 4 ? PTP_E_TLV_TRAILING : PTP_E_TLV_OVERRUN);
}

static void
test_append(void **state)
{
	static const uint8_t pt[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint8_t buf[BUFSZ];
	struct ptp_tlv_iter it;
	struct ptp_tlv t;
	struct ptp_msg m;
	uint8_t *v;
	int n;

	(void)state;
	assert_int_equal(pack_base(buf, sizeof(buf), PTP_MT_ANNOUNCE), 64);
	n = ptp_tlv_append(buf, sizeof(buf), PTP_TLV_PATH_TRACE, pt,
	    sizeof(pt));
	assert_int_equal(n, 76);
	n = ptp_tlv_reserve(buf, sizeof(buf), PTP_TLV_PAD, 4, &v);
	assert_int_equal(n, 84);
	assert_ptr_equal(v, buf + 80);
	v[3] = 0x5a;
	n = ptp_tlv_append(buf, sizeof(buf), 0x8000, NULL, 0);
	assert_int_equal(n, 88);
	assert_int_equal(buf[2] << 8 | buf[3], 88);

	assert_int_equal(ptp_msg_parse(&m, buf, (size_t)n), 0);
	assert_int_equal(m.tlv_count, 3);
	ptp_tlv_iter_msg(&it, &m);
	assert_int_equal(ptp_tlv_next(&it, &t), 1);
	assert_int_equal(t.type, PTP_TLV_PATH_TRACE);
	assert_memory_equal(t.value, pt, sizeof(pt));
	assert_int_equal(ptp_tlv_next(&it, &t), 1);
	assert_int_equal(t.type, PTP_TLV_PAD);
	assert_int_equal(t.value[3], 0x5a);
	assert_int_equal(ptp_tlv_next(&it, &t), 1);
	assert_int_equal(t.type, PTP_TLV_ORGANIZATION_EXTENSION_DO_NOT_PROPAGATE);
	assert_int_equal(ptp_tlv_next(&it, &t), 0);
}

static void
test_append_errors(void **state)
{
	uint8_t buf[BUFSZ];

	(void)state;
	assert_int_equal(pack_base(buf, sizeof(buf), PTP_MT_SYNC), 44);
	assert_int_equal(ptp_tlv_append(buf, sizeof(buf), 1, "abc", 3),
	    PTP_E_TLV_ODD);
	assert_int_equal(ptp_tlv_append(buf, 47, 1, "ab", 2), PTP_E_NOSPACE);
	assert_int_equal(ptp_tlv_append(buf, 50, 1, "ab", 2), 50);
	assert_int_equal(ptp_tlv_append(buf, sizeof(buf), 1, NULL, 2),
	    PTP_E_INVAL);
	assert_int_equal(ptp_tlv_append(NULL, 100, 1, NULL, 0), PTP_E_INVAL);
	assert_int_equal(ptp_tlv_append(buf, 20, 1, NULL, 0), PTP_E_INVAL);
	/* messageLength in buf larger than the buffer */
	assert_int_equal(ptp_tlv_append(buf, 49, 1, NULL, 0), PTP_E_INVAL);
	/* would exceed 65535 octets */
	assert_int_equal(ptp_tlv_reserve(buf, sizeof(buf), 1, 65530, NULL),
	    PTP_E_RANGE);
	/* messageLength below the header */
	buf[2] = 0; buf[3] = 10;
	assert_int_equal(ptp_tlv_append(buf, sizeof(buf), 1, NULL, 0),
	    PTP_E_INVAL);
}

static void
test_mgmt(void **state)
{
	static const uint8_t data[] = { 'p', 't', 'p' };
	uint8_t buf[BUFSZ];
	struct ptp_mgmt_tlv mt;
	struct ptp_tlv t;
	struct ptp_msg m;
	int n;

	(void)state;
	/* Management packed without a TLV is refused, so build by hand:
	 * pack a Management with a GET, then replace the suffix. */
	assert_int_equal(pack_base(buf, sizeof(buf), PTP_MT_MANAGEMENT), 54);
	buf[2] = 0; buf[3] = PTP_MANAGEMENT_LEN;
	n = ptp_tlv_append_mgmt(buf, sizeof(buf), PTP_MID_USER_DESCRIPTION,
	    data, sizeof(data));
	assert_int_equal(n, 48 + 4 + 2 + 4);	/* odd data padded */
	assert_int_equal(buf[51], 6);
	assert_int_equal(buf[57], 0);
	assert_int_equal(ptp_msg_parse(&m, buf, (size_t)n), 0);
	assert_int_equal(ptp_msg_mgmt_tlv(&m, &t), 0);
	assert_int_equal(ptp_tlv_mgmt_parse(&t, &mt), 0);
	assert_int_equal(mt.id, PTP_MID_USER_DESCRIPTION);
	assert_int_equal(mt.data_len, 4);
	assert_memory_equal(mt.data, data, sizeof(data));
	assert_int_equal(ptp_tlv_mgmt_error_parse(&t,
	    &(struct ptp_mgmt_error){ 0 }), PTP_E_TLV_TYPE);

	/* GET with an empty dataField (pmc -z) */
	buf[3] = PTP_MANAGEMENT_LEN;
	n = ptp_tlv_append_mgmt(buf, sizeof(buf), PTP_MID_DEFAULT_DATA_SET,
	    NULL, 0);
	assert_int_equal(n, 54);
	assert_int_equal(ptp_msg_parse(&m, buf, (size_t)n), 0);
	assert_int_equal(ptp_msg_mgmt_tlv(&m, &t), 0);
	assert_int_equal(ptp_tlv_mgmt_parse(&t, &mt), 0);
	assert_int_equal(mt.data_len, 0);
	assert_null(mt.data);
	assert_int_equal(ptp_tlv_append_mgmt(buf, sizeof(buf), 1, NULL, 2),
	    PTP_E_INVAL);

	/* not a Management message */
	assert_int_equal(pack_base(buf, sizeof(buf), PTP_MT_SIGNALING), 44);
	assert_int_equal(ptp_msg_parse(&m, buf, 44), 0);
	assert_int_equal(ptp_msg_mgmt_tlv(&m, &t), PTP_E_MGMT_NO_TLV);
	t.type = PTP_TLV_PATH_TRACE;
	assert_int_equal(ptp_tlv_mgmt_parse(&t, &mt), PTP_E_TLV_TYPE);
}

static void
test_mgmt_error(void **state)
{
	static const char text[] = "not supported";
	uint8_t buf[BUFSZ];
	struct ptp_mgmt_error e;
	struct ptp_tlv t;
	struct ptp_msg m;
	int n;

	(void)state;
	assert_int_equal(pack_base(buf, sizeof(buf), PTP_MT_MANAGEMENT), 54);
	buf[3] = PTP_MANAGEMENT_LEN;
	n = ptp_tlv_append_mgmt_error(buf, sizeof(buf),
	    PTP_MERR_NOT_SUPPORTED, PTP_MID_PRIORITY1, text,
	    sizeof(text) - 1);
	/* 8 fixed + 1 + 13 text = 22, even: no pad */
	assert_int_equal(n, 48 + 4 + 22);
	assert_int_equal(ptp_msg_parse(&m, buf, (size_t)n), 0);
	assert_int_equal(ptp_msg_mgmt_tlv(&m, &t), 0);
	assert_int_equal(t.type, PTP_TLV_MANAGEMENT_ERROR_STATUS);
	assert_int_equal(ptp_tlv_mgmt_error_parse(&t, &e), 0);
	assert_int_equal(e.error_id, PTP_MERR_NOT_SUPPORTED);
	assert_int_equal(e.mgmt_id, PTP_MID_PRIORITY1);
	assert_int_equal(e.text_len, sizeof(text) - 1);
	assert_memory_equal(e.text, text, sizeof(text) - 1);
	assert_int_equal(ptp_tlv_mgmt_parse(&t,
	    &(struct ptp_mgmt_tlv){ 0 }), PTP_E_TLV_TYPE);

	/* odd total gets a pad octet; no displayData at all */
	buf[3] = PTP_MANAGEMENT_LEN;
	n = ptp_tlv_append_mgmt_error(buf, sizeof(buf), PTP_MERR_WRONG_VALUE,
	    PTP_MID_DOMAIN, "ab", 2);
	assert_int_equal(n, 48 + 4 + 12);
	assert_int_equal(ptp_msg_parse(&m, buf, (size_t)n), 0);
	buf[3] = PTP_MANAGEMENT_LEN;
	n = ptp_tlv_append_mgmt_error(buf, sizeof(buf),
	    PTP_MERR_GENERAL_ERROR, PTP_MID_DOMAIN, NULL, 0);
	assert_int_equal(n, 48 + 4 + 8);
	assert_int_equal(ptp_msg_parse(&m, buf, (size_t)n), 0);
	assert_int_equal(ptp_msg_mgmt_tlv(&m, &t), 0);
	assert_int_equal(ptp_tlv_mgmt_error_parse(&t, &e), 0);
	assert_int_equal(e.text_len, 0);
	assert_null(e.text);
	assert_int_equal(ptp_tlv_append_mgmt_error(buf, sizeof(buf), 1, 1,
	    text, 256), PTP_E_RANGE);
	assert_int_equal(ptp_tlv_append_mgmt_error(buf, sizeof(buf), 1, 1,
	    NULL, 1), PTP_E_INVAL);
}

/* Every value length and cut of a management error TLV: code, no crash. */
static void
test_mgmt_error_sweep(void **state)
{
	uint8_t v[64];
	struct ptp_mgmt_error e;
	struct ptp_tlv t;
	unsigned int len, tl;
	int rc;

	(void)state;
	memset(v, 0, sizeof(v));
	t.type = PTP_TLV_MANAGEMENT_ERROR_STATUS;
	t.value = v;
	for (len = 0; len < 40; len += 2)
		for (tl = 0; tl < 40; tl++) {
			t.length = (uint16_t)len;
			v[8] = (uint8_t)tl;
			rc = ptp_tlv_mgmt_error_parse(&t, &e);
			if (len < 8)
				assert_int_equal(rc, PTP_E_TLV_SHORT);
			else if (len == 8 || (len - 9 == tl || len - 10 == tl))
				assert_int_equal(rc, 0);
			else
				assert_int_equal(rc, PTP_E_TLV_TEXT);
		}
}

/* ---- unicast negotiation, 16.1.4 ----------------------------------------- */

/*
 * Captured from ptp4l 3.1.1: a UNICAST-SLAVE requesting Announce at 2^1 s
 * for 60 s from a UNICAST-MASTER (UDPv4 payloads, tshark), and its grant.
 */
static const uint8_t ptp4l_request[] = {
	0x0c, 0x02, 0x00, 0x36, 0x00, 0x00, 0x04, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0x1e, 0x6e, 0x1f, 0xff, 0xfe, 0x4a, 0xce, 0x9e, 0x00, 0x01,
	0x00, 0x00, 0x05, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0x00, 0x04, 0x00, 0x06, 0xb0, 0x01, 0x00, 0x00, 0x00, 0x3c,
};
static const uint8_t ptp4l_grant[] = {
	0x0c, 0x02, 0x00, 0x38, 0x00, 0x00, 0x04, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0x9e, 0x83, 0xa3, 0xff, 0xfe, 0x72, 0x8f, 0x76, 0x00, 0x01,
	0x00, 0x00, 0x05, 0x7f, 0x1e, 0x6e, 0x1f, 0xff, 0xfe, 0x4a, 0xce, 0x9e,
	0x00, 0x01, 0x00, 0x05, 0x00, 0x08, 0xb0, 0x01, 0x00, 0x00, 0x00, 0x3c,
	0x00, 0x01,
};

static void
uneg_first(const struct ptp_msg *m, struct ptp_uneg_tlv *u)
{
	struct ptp_tlv_iter it;
	struct ptp_tlv t;

	ptp_tlv_iter_msg(&it, m);
	assert_int_equal(ptp_tlv_next(&it, &t), 1);
	assert_int_equal(ptp_tlv_uneg_parse(&t, u), 0);
}

static void
test_uneg_ptp4l(void **state)
{
	struct ptp_uneg_tlv u, g;
	struct ptp_msg m;
	uint8_t buf[BUFSZ];
	int len;

	(void)state;
	assert_int_equal(ptp_msg_parse(&m, ptp4l_request,
	    sizeof(ptp4l_request)), 0);
	assert_int_equal(m.hdr.message_type, PTP_MT_SIGNALING);
	assert_int_equal(m.body.signaling.target_port_identity.port_number,
	    0xffff);
	assert_int_equal(m.tlv_count, 1);
	uneg_first(&m, &u);
	assert_int_equal(u.type, PTP_TLV_REQUEST_UNICAST_TRANSMISSION);
	assert_int_equal(u.message_type, PTP_MT_ANNOUNCE);
	assert_int_equal(u.log_period, 1);
	assert_int_equal(u.duration, 60);

	/* Our answer, built field by field, is ptp4l's grant byte for byte. */
	assert_int_equal(ptp_msg_parse(&m, ptp4l_grant, sizeof(ptp4l_grant)),
	    0);
	uneg_first(&m, &g);
	assert_int_equal(g.type, PTP_TLV_GRANT_UNICAST_TRANSMISSION);
	assert_int_equal(g.renewal_invited, 1);
	m.suffix = NULL;
	m.suffix_len = 0;
	len = ptp_msg_pack(&m, buf, sizeof(buf));
	assert_int_equal(len, PTP_SIGNALING_LEN);
	u.type = PTP_TLV_GRANT_UNICAST_TRANSMISSION;
	u.renewal_invited = 1;
	len = ptp_tlv_append_uneg(buf, sizeof(buf), &u);
	assert_int_equal(len, sizeof(ptp4l_grant));
	assert_memory_equal(buf, ptp4l_grant, sizeof(ptp4l_grant));
}

/* Every type round-trips; several TLVs in one message are each checked. */
static void
test_uneg_roundtrip(void **state)
{
	static const struct ptp_uneg_tlv in[] = {
		{ PTP_TLV_REQUEST_UNICAST_TRANSMISSION, PTP_MT_SYNC, 0, -4,
		    300, 0 },
		{ PTP_TLV_GRANT_UNICAST_TRANSMISSION, PTP_MT_DELAY_RESP, 0, -7,
		    0xfffffffe, 0 },
		{ PTP_TLV_CANCEL_UNICAST_TRANSMISSION, PTP_MT_PDELAY_RESP,
		    PTP_UNEG_MAINTAIN_GRANT, 0, 0, 0 },
		{ PTP_TLV_ACK_CANCEL_UNICAST_TRANSMISSION, PTP_MT_ANNOUNCE, 0,
		    0, 0, 0 },
	};
	struct ptp_tlv_iter it;
	struct ptp_uneg_tlv u;
	struct ptp_tlv t;
	struct ptp_msg m;
	uint8_t buf[BUFSZ];
	size_t i;
	int len = 0;

	(void)state;
	assert_true(pack_base(buf, sizeof(buf), PTP_MT_SIGNALING) > 0);
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		assert_true((len = ptp_tlv_append_uneg(buf, sizeof(buf),
		    &in[i])) > 0);
	assert_int_equal(len, 44 + 4 * 4 + 6 + 8 + 2 + 2);
	assert_int_equal(ptp_msg_parse(&m, buf, (size_t)len), 0);
	assert_int_equal(m.tlv_count, 4);
	ptp_tlv_iter_msg(&it, &m);
	for (i = 0; i < 4; i++) {
		assert_int_equal(ptp_tlv_next(&it, &t), 1);
		assert_int_equal(ptp_tlv_uneg_parse(&t, &u), 0);
		assert_memory_equal(&u, &in[i], sizeof(u));
	}

	/* the third TLV's messageType made Follow_Up: the whole message
	 * is refused, although the first two are good */
	buf[44 + 10 + 12 + 4] = (uint8_t)(PTP_MT_FOLLOW_UP << 4);
	assert_int_equal(ptp_msg_parse(&m, buf, (size_t)len),
	    PTP_E_UNEG_MSG_TYPE);
}

static void
test_uneg_errors(void **state)
{
	uint8_t v[16] = { 0xb0, 1, 0, 0, 0, 60, 0, 1 };
	struct ptp_uneg_tlv u;
	struct ptp_tlv t;
	struct ptp_msg m;
	uint8_t buf[BUFSZ];
	unsigned int mt, type;
	int len;

	(void)state;
	t.value = v;
	/* lengthField: exactly 6, 8, 2, 2; odd ones never reach here */
	for (type = 4; type <= 7; type++)
		for (t.length = 0; t.length <= 12; t.length += 2) {
			size_t want = type == 4 ? 6 : type == 5 ? 8 : 2;

			t.type = (uint16_t)type;
			assert_int_equal(ptp_tlv_uneg_parse(&t, &u),
			    t.length == want ? 0 : PTP_E_TLV_LENGTH);
		}
	t.type = PTP_TLV_PATH_TRACE;
	t.length = 6;
	assert_int_equal(ptp_tlv_uneg_parse(&t, &u), PTP_E_TLV_TYPE);
	/* messageType: only Announce, Sync, Delay_Resp, Pdelay_Resp */
	t.type = PTP_TLV_REQUEST_UNICAST_TRANSMISSION;
	for (mt = 0; mt < 16; mt++) {
		v[0] = (uint8_t)(mt << 4 | 0x0f);	/* reserved bits set */
		assert_int_equal(ptp_tlv_uneg_parse(&t, &u),
		    mt == 0 || mt == 3 || mt == 9 || mt == 0xb ? 0 :
		    PTP_E_UNEG_MSG_TYPE);
	}
	/* a Signaling whose REQUEST is 4 octets long is refused whole */
	assert_true(pack_base(buf, sizeof(buf), PTP_MT_SIGNALING) > 0);
	v[0] = 0x00;
	assert_true((len = ptp_tlv_append(buf, sizeof(buf),
	    PTP_TLV_REQUEST_UNICAST_TRANSMISSION, v, 4)) > 0);
	assert_int_equal(ptp_msg_parse(&m, buf, (size_t)len),
	    PTP_E_TLV_LENGTH);
	/* the same TLV on an Announce is not a negotiation: skipped */
	assert_true(pack_base(buf, sizeof(buf), PTP_MT_ANNOUNCE) > 0);
	assert_true((len = ptp_tlv_append(buf, sizeof(buf),
	    PTP_TLV_REQUEST_UNICAST_TRANSMISSION, v, 4)) > 0);
	assert_int_equal(ptp_msg_parse(&m, buf, (size_t)len), 0);

	/* append refuses what the parser would */
	memset(&u, 0, sizeof(u));
	u.type = PTP_TLV_GRANT_UNICAST_TRANSMISSION;
	u.message_type = PTP_MT_DELAY_REQ;
	assert_true(pack_base(buf, sizeof(buf), PTP_MT_SIGNALING) > 0);
	assert_int_equal(ptp_tlv_append_uneg(buf, sizeof(buf), &u),
	    PTP_E_UNEG_MSG_TYPE);
	u.message_type = PTP_MT_SYNC;
	u.renewal_invited = 2;
	assert_int_equal(ptp_tlv_append_uneg(buf, sizeof(buf), &u),
	    PTP_E_RANGE);
	u.type = PTP_TLV_MANAGEMENT;
	assert_int_equal(ptp_tlv_append_uneg(buf, sizeof(buf), &u),
	    PTP_E_TLV_TYPE);
	assert_int_equal(ptp_tlv_append_uneg(buf, sizeof(buf), NULL),
	    PTP_E_INVAL);
	u.type = PTP_TLV_REQUEST_UNICAST_TRANSMISSION;
	u.renewal_invited = 0;
	assert_int_equal(ptp_tlv_append_uneg(buf, PTP_SIGNALING_LEN + 8, &u),
	    PTP_E_NOSPACE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iter),
		cmocka_unit_test(test_iter_errors),
		cmocka_unit_test(test_append),
		cmocka_unit_test(test_append_errors),
		cmocka_unit_test(test_mgmt),
		cmocka_unit_test(test_mgmt_error),
		cmocka_unit_test(test_mgmt_error_sweep),
		cmocka_unit_test(test_uneg_ptp4l),
		cmocka_unit_test(test_uneg_roundtrip),
		cmocka_unit_test(test_uneg_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
