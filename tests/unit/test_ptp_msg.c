/*
 * test_ptp_msg.c - the PTP codec: pack/parse round trips of every message
 * type, hand-encoded golden bytes, and every malformed case with its own
 * error code.  TLV helpers: test_ptp_tlv.c; ptp4l captures:
 * test_ptp_vectors.c.
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

#define BUFSZ 1500

static const unsigned int all_types[] = {
	PTP_MT_SYNC, PTP_MT_DELAY_REQ, PTP_MT_PDELAY_REQ, PTP_MT_PDELAY_RESP,
	PTP_MT_FOLLOW_UP, PTP_MT_DELAY_RESP, PTP_MT_PDELAY_RESP_FOLLOW_UP,
	PTP_MT_ANNOUNCE, PTP_MT_SIGNALING, PTP_MT_MANAGEMENT,
};
#define NTYPES (sizeof(all_types) / sizeof(all_types[0]))

static const struct ptp_port_identity pid_a = {
	{ 0x00, 0x1b, 0x19, 0xff, 0xfe, 0x12, 0x34, 0x56 }, 0x0102,
};
static const struct ptp_port_identity pid_b = {
	{ 0xa0, 0x36, 0x9f, 0xff, 0xfe, 0xab, 0xcd, 0xef }, 0xfffe,
};
/* seconds above 2^32 exercise the 48-bit field's top octets */
static const struct ptp_timestamp ts_big = { 0xABCDEF012345ULL, 999999999 };

/* A GET of CURRENT_DATA_SET: the management TLV a Management needs. */
static const uint8_t mgmt_get_tlv[] = { 0x00, 0x01, 0x00, 0x02, 0x20, 0x01 };

static void
fill_msg(struct ptp_msg *m, unsigned int type)
{
	memset(m, 0, sizeof(*m));
	m->hdr.major_sdo_id = 0x1;
	m->hdr.message_type = (uint8_t)type;
	m->hdr.minor_version = 1;
	m->hdr.version = 2;
	m->hdr.domain_number = 24;
	m->hdr.minor_sdo_id = 0x5a;
	m->hdr.flags = PTP_FLAG_TWO_STEP | PTP_FLAG_UNICAST |
	    PTP_FLAG_PTP_TIMESCALE | PTP_FLAG_SYNC_UNCERTAIN;
	m->hdr.correction = 0x0000123456789ABCLL;
	m->hdr.message_type_specific = 0xdeadbeef;
	m->hdr.source_port_identity = pid_a;
	m->hdr.sequence_id = 0xbeef;
	m->hdr.control_field = 5;
	m->hdr.log_message_interval = -3;

	switch (type) {
	case PTP_MT_SYNC:
		m->body.sync.origin_timestamp = ts_big;
		break;
	case PTP_MT_DELAY_REQ:
		m->body.delay_req.origin_timestamp = ts_big;
		break;
	case PTP_MT_FOLLOW_UP:
		m->body.follow_up.precise_origin_timestamp = ts_big;
		break;
	case PTP_MT_PDELAY_REQ:
		m->body.pdelay_req.origin_timestamp = ts_big;
		break;
	case PTP_MT_DELAY_RESP:
		m->body.delay_resp.receive_timestamp = ts_big;
		m->body.delay_resp.requesting_port_identity = pid_b;
		break;
	case PTP_MT_PDELAY_RESP:
		m->body.pdelay_resp.request_receipt_timestamp = ts_big;
		m->body.pdelay_resp.requesting_port_identity = pid_b;
		break;
	case PTP_MT_PDELAY_RESP_FOLLOW_UP:
		m->body.pdelay_resp_fup.response_origin_timestamp = ts_big;
		m->body.pdelay_resp_fup.requesting_port_identity = pid_b;
		break;
	case PTP_MT_ANNOUNCE:
		m->body.announce.origin_timestamp = ts_big;
		m->body.announce.current_utc_offset = -37;
		m->body.announce.grandmaster_priority1 = 128;
		m->body.announce.grandmaster_clock_quality.clock_class = 6;
		m->body.announce.grandmaster_clock_quality.clock_accuracy = 0x21;
		m->body.announce.grandmaster_clock_quality
		    .offset_scaled_log_variance = 0x4e5d;
		m->body.announce.grandmaster_priority2 = 127;
		memcpy(m->body.announce.grandmaster_identity,
		    pid_b.clock_identity, PTP_CLOCK_ID_LEN);
		m->body.announce.steps_removed = 0x0203;
		m->body.announce.time_source = 0x20;
		break;
	case PTP_MT_SIGNALING:
		m->body.signaling.target_port_identity = pid_b;
		break;
	case PTP_MT_MANAGEMENT:
		m->body.management.target_port_identity = pid_b;
		m->body.management.starting_boundary_hops = 3;
		m->body.management.boundary_hops = 2;
		m->body.management.action = PTP_MA_SET;
		m->suffix = mgmt_get_tlv;
		m->suffix_len = sizeof(mgmt_get_tlv);
		break;
	}
}

/* pack m, parse it back, compare, and check a re-pack is byte-identical. */
static void
roundtrip(struct ptp_msg *m)
{
	uint8_t buf[BUFSZ], buf2[BUFSZ];
	struct ptp_msg p;
	int n, n2;

	n = ptp_msg_pack(m, buf, sizeof(buf));
	assert_int_equal(n, ptp_msg_min_len(m->hdr.message_type) +
	    m->suffix_len);
	assert_int_equal(ptp_msg_parse(&p, buf, (size_t)n), 0);
	m->hdr.message_length = (uint16_t)n;
	assert_int_equal(ptp_tlv_validate(m->suffix, m->suffix_len,
	    &m->tlv_count), 0);
	assert_true(ptp_msg_equal(m, &p));
	assert_int_equal(p.hdr.message_length, n);
	assert_ptr_equal(p.suffix, buf + ptp_msg_min_len(p.hdr.message_type));

	n2 = ptp_msg_pack(&p, buf2, sizeof(buf2));
	assert_int_equal(n2, n);
	assert_memory_equal(buf, buf2, (size_t)n);
}

static void
test_roundtrip_all_types(void **state)
{
	struct ptp_msg m;
	size_t i;

	(void)state;
	for (i = 0; i < NTYPES; i++) {
		fill_msg(&m, all_types[i]);
		roundtrip(&m);
	}
}

static void
test_roundtrip_negative_correction(void **state)
{
	static const int64_t corr[] = {
		-1, -65536, INT64_MIN, INT64_MAX, -0x123456789ALL,
	};
	struct ptp_msg m;
	size_t i, j;

	(void)state;
	for (i = 0; i < NTYPES; i++)
		for (j = 0; j < sizeof(corr) / sizeof(corr[0]); j++) {
			fill_msg(&m, all_types[i]);
			m.hdr.correction = corr[j];
			roundtrip(&m);
		}
}

static void
test_roundtrip_extremes(void **state)
{
	struct ptp_msg m;
	size_t i;

	(void)state;
	for (i = 0; i < NTYPES; i++) {
		/* all-ones header fields, maximal 48-bit seconds */
		fill_msg(&m, all_types[i]);
		m.hdr.major_sdo_id = 0xF;
		m.hdr.minor_version = 0;
		m.hdr.domain_number = 255;
		m.hdr.minor_sdo_id = 255;
		m.hdr.flags = 0xFFFF;
		m.hdr.message_type_specific = 0xFFFFFFFF;
		m.hdr.sequence_id = 0xFFFF;
		m.hdr.control_field = 0xFF;
		m.hdr.log_message_interval = 127;
		if (all_types[i] == PTP_MT_SYNC)
			m.body.sync.origin_timestamp.sec = PTP_MAX_SEC;
		roundtrip(&m);
	}
}

/* Every type with a suffix of three TLVs (1588-2019 allows any message). */
static void
test_roundtrip_with_tlvs(void **state)
{
	static const uint8_t path_trace[] = {
		0x00, 0x08, 0x00, 0x10,
		0x00, 0x1b, 0x19, 0xff, 0xfe, 0x12, 0x34, 0x56,
		0xa0, 0x36, 0x9f, 0xff, 0xfe, 0xab, 0xcd, 0xef,
		0x80, 0x03, 0x00, 0x06, 0x00, 0x80, 0xc2, 0x00, 0x00, 0x01,
		0x80, 0x08, 0x00, 0x00,	/* PAD, empty */
	};
	uint8_t suffix[sizeof(mgmt_get_tlv) + sizeof(path_trace)];
	struct ptp_msg m;
	size_t i;

	(void)state;
	memcpy(suffix, mgmt_get_tlv, sizeof(mgmt_get_tlv));
	memcpy(suffix + sizeof(mgmt_get_tlv), path_trace, sizeof(path_trace));
	for (i = 0; i < NTYPES; i++) {
		fill_msg(&m, all_types[i]);
		if (all_types[i] == PTP_MT_MANAGEMENT) {
			m.suffix = suffix;
			m.suffix_len = sizeof(suffix);
		} else {
			m.suffix = path_trace;
			m.suffix_len = sizeof(path_trace);
		}
		roundtrip(&m);
		assert_int_equal(m.tlv_count,
		    all_types[i] == PTP_MT_MANAGEMENT ? 4 : 3);
	}
}

/* Hand-encoded from 13.3 Table 35 and 13.8: checks the layout itself. */
static void
test_golden_delay_resp(void **state)
{
	static const uint8_t want[54] = {
		0x19, 0x12, 0x00, 0x36, 0x18, 0x5a, 0x06, 0x48,
		0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc,
		0xde, 0xad, 0xbe, 0xef,
		0x00, 0x1b, 0x19, 0xff, 0xfe, 0x12, 0x34, 0x56, 0x01, 0x02,
		0xbe, 0xef, 0x05, 0xfd,
		0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x3b, 0x9a, 0xc9, 0xff,
		0xa0, 0x36, 0x9f, 0xff, 0xfe, 0xab, 0xcd, 0xef, 0xff, 0xfe,
	};
	uint8_t buf[64];
	struct ptp_msg m;

	(void)state;
	fill_msg(&m, PTP_MT_DELAY_RESP);
	m.hdr.flags = PTP_FLAG_TWO_STEP | PTP_FLAG_UNICAST |
	    PTP_FLAG_PTP_TIMESCALE | PTP_FLAG_SYNC_UNCERTAIN;
	assert_int_equal(ptp_msg_pack(&m, buf, sizeof(buf)), 54);
	assert_memory_equal(buf, want, sizeof(want));
}

/* 13.5 layout, including the reserved octet 46 and stepsRemoved at 61. */
static void
test_golden_announce(void **state)
{
	static const uint8_t body[30] = {
		0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x3b, 0x9a, 0xc9, 0xff,
		0xff, 0xdb, 0x00, 0x80, 0x06, 0x21, 0x4e, 0x5d, 0x7f,
		0xa0, 0x36, 0x9f, 0xff, 0xfe, 0xab, 0xcd, 0xef,
		0x02, 0x03, 0x20,
	};
	uint8_t buf[64];
	struct ptp_msg m;

	(void)state;
	fill_msg(&m, PTP_MT_ANNOUNCE);
	assert_int_equal(ptp_msg_pack(&m, buf, sizeof(buf)), 64);
	assert_int_equal(buf[0], 0x1b);
	assert_memory_equal(buf + 34, body, sizeof(body));
}

/* 15.4.1: hops, actionField in the low nibble, a reserved octet. */
static void
test_golden_management(void **state)
{
	static const uint8_t body[14] = {
		0xa0, 0x36, 0x9f, 0xff, 0xfe, 0xab, 0xcd, 0xef, 0xff, 0xfe,
		0x03, 0x02, 0x01, 0x00,
	};
	uint8_t buf[64];
	struct ptp_msg m;

	(void)state;
	fill_msg(&m, PTP_MT_MANAGEMENT);
	assert_int_equal(ptp_msg_pack(&m, buf, sizeof(buf)), 54);
	assert_memory_equal(buf + 34, body, sizeof(body));
	assert_memory_equal(buf + 48, mgmt_get_tlv, sizeof(mgmt_get_tlv));
}

/* Each named flag is the bit of Table 37. */
static void
test_flags_bits(void **state)
{
	static const struct { uint16_t flag; int octet, bit; } t[] = {
		{ PTP_FLAG_ALTERNATE_MASTER, 0, 0 },
		{ PTP_FLAG_TWO_STEP, 0, 1 },
		{ PTP_FLAG_UNICAST, 0, 2 },
		{ PTP_FLAG_PROFILE_SPECIFIC_1, 0, 5 },
		{ PTP_FLAG_PROFILE_SPECIFIC_2, 0, 6 },
		{ PTP_FLAG_LEAP61, 1, 0 },
		{ PTP_FLAG_LEAP59, 1, 1 },
		{ PTP_FLAG_UTC_OFFSET_VALID, 1, 2 },
		{ PTP_FLAG_PTP_TIMESCALE, 1, 3 },
		{ PTP_FLAG_TIME_TRACEABLE, 1, 4 },
		{ PTP_FLAG_FREQ_TRACEABLE, 1, 5 },
		{ PTP_FLAG_SYNC_UNCERTAIN, 1, 6 },
	};
	uint8_t buf[64];
	struct ptp_msg m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		fill_msg(&m, PTP_MT_SYNC);
		m.hdr.flags = t[i].flag;
		assert_int_equal(ptp_msg_pack(&m, buf, sizeof(buf)), 44);
		assert_int_equal(buf[6 + t[i].octet], 1 << t[i].bit);
		assert_int_equal(buf[7 - t[i].octet], 0);
	}
}

/* ---- malformed input: every case has its own code -------------------- */

/* A valid packed message of type t in buf; returns its length. */
static size_t
make(uint8_t *buf, unsigned int t)
{
	struct ptp_msg m;
	int n;

	fill_msg(&m, t);
	n = ptp_msg_pack(&m, buf, BUFSZ);
	assert_true(n > 0);
	return (size_t)n;
}

static void
set_len(uint8_t *buf, size_t len)
{
	buf[2] = (uint8_t)(len >> 8);
	buf[3] = (uint8_t)len;
}

static void
test_bad_header(void **state)
{
	static const unsigned int reserved[] = { 4, 5, 6, 7, 0xE, 0xF };
	uint8_t buf[BUFSZ];
	struct ptp_msg m;
	size_t n, i;

	(void)state;
	n = make(buf, PTP_MT_SYNC);
	assert_int_equal(ptp_msg_parse(&m, buf, 0), PTP_E_HDR_SHORT);
	assert_int_equal(ptp_msg_parse(&m, NULL, 0), PTP_E_HDR_SHORT);
	assert_int_equal(ptp_msg_parse(&m, buf, 33), PTP_E_HDR_SHORT);
	assert_int_equal(ptp_msg_parse(NULL, buf, n), PTP_E_INVAL);

	buf[1] = 0x11;	/* versionPTP 1 */
	assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_VERSION);
	buf[1] = 0x13;	/* versionPTP 3 */
	assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_VERSION);
	buf[1] = 0x22;	/* minorVersionPTP 2 */
	assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_MINOR_VERSION);
	buf[1] = 0xF2;
	assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_MINOR_VERSION);
	buf[1] = 0x02;	/* 1588-2008 */
	assert_int_equal(ptp_msg_parse(&m, buf, n), 0);
	assert_int_equal(m.hdr.minor_version, 0);
	buf[1] = 0x12;

	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
		buf[0] = (uint8_t)(0x10 | reserved[i]);
		assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_MSG_TYPE);
		assert_int_equal(ptp_msg_type_valid(reserved[i]), 0);
		assert_int_equal(ptp_msg_min_len(reserved[i]), 0);
	}
	buf[0] = 0x10;
	assert_int_equal(ptp_msg_parse(&m, buf, n), 0);
}

static void
test_len_short(void **state)
{
	uint8_t buf[BUFSZ];
	struct ptp_msg m;
	size_t i, n, min;

	(void)state;
	for (i = 0; i < NTYPES; i++) {
		n = make(buf, all_types[i]);
		min = ptp_msg_min_len(all_types[i]);
		set_len(buf, min - 1);
		assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_LEN_SHORT);
		set_len(buf, PTP_HDR_LEN);
		assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_LEN_SHORT);
		set_len(buf, 0);
		assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_LEN_SHORT);
	}
}

/* Every prefix of every message: HDR_SHORT, then TRUNCATED, never OK. */
static void
test_truncated(void **state)
{
	uint8_t buf[BUFSZ];
	struct ptp_msg m;
	size_t i, n, k;

	(void)state;
	for (i = 0; i < NTYPES; i++) {
		n = make(buf, all_types[i]);
		for (k = 0; k < n; k++)
			assert_int_equal(ptp_msg_parse(&m, buf, k), k < 34 ?
			    PTP_E_HDR_SHORT : PTP_E_TRUNCATED);
		assert_int_equal(ptp_msg_parse(&m, buf, n), 0);
	}
}

/* Bytes beyond messageLength are padding: ignored, not parsed as TLVs. */
static void
test_padding_ignored(void **state)
{
	uint8_t buf[BUFSZ];
	struct ptp_msg m;
	size_t n;

	(void)state;
	n = make(buf, PTP_MT_SYNC);
	memset(buf + n, 0xA5, 3);	/* would be TLV_TRAILING if parsed */
	assert_int_equal(ptp_msg_parse(&m, buf, n + 2), 0);	/* 46: L2 min */
	assert_int_equal(ptp_msg_parse(&m, buf, n + 3), 0);
	assert_int_equal(m.hdr.message_length, 44);
	assert_int_equal(m.suffix_len, 0);
	assert_int_equal(m.tlv_count, 0);
}

static void
test_bad_nsec(void **state)
{
	uint8_t buf[BUFSZ];
	struct ptp_msg m;
	size_t i, n;

	(void)state;
	for (i = 0; i < NTYPES; i++) {
		if (all_types[i] == PTP_MT_SIGNALING ||
		    all_types[i] == PTP_MT_MANAGEMENT)
			continue;
		n = make(buf, all_types[i]);
		/* 10^9 = 0x3b9aca00 at octets 40..43 */
		buf[40] = 0x3b; buf[41] = 0x9a; buf[42] = 0xca; buf[43] = 0x00;
		assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_NSEC);
		buf[40] = 0xff;
		assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_NSEC);
		buf[40] = 0x3b; buf[43] = 0xff; buf[42] = 0xc9;	/* 10^9 - 1 */
		assert_int_equal(ptp_msg_parse(&m, buf, n), 0);
	}
}

/* Suffix framing: overrun, odd length, 1-3 trailing octets. */
static void
test_bad_suffix(void **state)
{
	uint8_t buf[BUFSZ];
	struct ptp_msg m;
	size_t n, k;

	(void)state;
	n = make(buf, PTP_MT_ANNOUNCE);
	memset(buf + n, 0, 64);

	for (k = 1; k <= 3; k++) {	/* 1-3 octets: no room for a header */
		set_len(buf, n + k);
		assert_int_equal(ptp_msg_parse(&m, buf, n + k),
		    PTP_E_TLV_TRAILING);
	}
	/* TLV claiming 8 value octets, 4 present */
	buf[n] = 0x00; buf[n + 1] = 0x08; buf[n + 2] = 0x00; buf[n + 3] = 8;
	set_len(buf, n + 8);
	assert_int_equal(ptp_msg_parse(&m, buf, n + 64), PTP_E_TLV_OVERRUN);
	/* 0xFFFF length */
	buf[n + 2] = 0xff; buf[n + 3] = 0xff;
	assert_int_equal(ptp_msg_parse(&m, buf, n + 64), PTP_E_TLV_OVERRUN);
	/* odd length 3 that fits */
	buf[n + 2] = 0; buf[n + 3] = 3;
	set_len(buf, n + 7);
	assert_int_equal(ptp_msg_parse(&m, buf, n + 64), PTP_E_TLV_ODD);
	/* valid 4-octet TLV then 2 stray octets */
	buf[n + 3] = 4;
	set_len(buf, n + 10);
	assert_int_equal(ptp_msg_parse(&m, buf, n + 64), PTP_E_TLV_TRAILING);
	/* ... and then a second TLV header whose value overruns */
	set_len(buf, n + 12);
	buf[n + 8] = 0; buf[n + 9] = 1; buf[n + 10] = 0; buf[n + 11] = 2;
	assert_int_equal(ptp_msg_parse(&m, buf, n + 64), PTP_E_TLV_OVERRUN);
	set_len(buf, n + 14);
	assert_int_equal(ptp_msg_parse(&m, buf, n + 64), 0);
	assert_int_equal(m.tlv_count, 2);
}

static void
test_bad_management(void **state)
{
	uint8_t buf[BUFSZ];
	struct ptp_msg m;
	size_t n;

	(void)state;
	n = make(buf, PTP_MT_MANAGEMENT);
	buf[46] = 5;	/* reserved actionField */
	assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_MGMT_ACTION);
	buf[46] = 0x0F;
	assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_MGMT_ACTION);
	buf[46] = 0xF2;	/* reserved high nibble is ignored */
	assert_int_equal(ptp_msg_parse(&m, buf, n), 0);
	assert_int_equal(m.body.management.action, PTP_MA_RESPONSE);

	set_len(buf, 48);	/* no TLV at all */
	assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_MGMT_NO_TLV);
	set_len(buf, n);
	buf[49] = PTP_TLV_PATH_TRACE;	/* first TLV of another type */
	assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_MGMT_NO_TLV);
	buf[49] = PTP_TLV_MANAGEMENT;
	buf[51] = 0;	/* MANAGEMENT TLV without managementId */
	set_len(buf, 52);
	assert_int_equal(ptp_msg_parse(&m, buf, n), PTP_E_TLV_SHORT);
	/* error status TLV of 6 octets, then a 12-octet one whose PTPText
	 * claims 5 octets with 3 present */
	buf[49] = PTP_TLV_MANAGEMENT_ERROR_STATUS;
	buf[51] = 6;
	memset(buf + 52, 0, 16);
	set_len(buf, 58);
	assert_int_equal(ptp_msg_parse(&m, buf, 64), PTP_E_TLV_SHORT);
	buf[51] = 12;
	buf[60] = 5;
	set_len(buf, 64);
	assert_int_equal(ptp_msg_parse(&m, buf, 64), PTP_E_TLV_TEXT);
	buf[60] = 3;
	assert_int_equal(ptp_msg_parse(&m, buf, 64), 0);
	buf[60] = 1;	/* text of 1, then 2 stray octets */
	assert_int_equal(ptp_msg_parse(&m, buf, 64), PTP_E_TLV_TEXT);
	buf[60] = 2;	/* text of 2, one pad octet */
	assert_int_equal(ptp_msg_parse(&m, buf, 64), 0);
}

/* Reserved fields are ignored on receipt and packed as zero (13.1). */
static void
test_reserved_ignored(void **state)
{
	uint8_t buf[BUFSZ], out[BUFSZ];
	struct ptp_msg m;
	size_t n;

	(void)state;
	n = make(buf, PTP_MT_PDELAY_REQ);
	memset(buf + 44, 0xAA, 10);
	assert_int_equal(ptp_msg_parse(&m, buf, n), 0);
	assert_int_equal(ptp_msg_pack(&m, out, sizeof(out)), (int)n);
	assert_memory_equal(out, buf, 44);
	assert_int_equal(out[44] | out[49] | out[53], 0);

	n = make(buf, PTP_MT_ANNOUNCE);
	buf[46] = 0x77;
	assert_int_equal(ptp_msg_parse(&m, buf, n), 0);
	assert_int_equal(ptp_msg_pack(&m, out, sizeof(out)), (int)n);
	assert_int_equal(out[46], 0);
}

static void
test_pack_errors(void **state)
{
	static const uint8_t odd_tlv[] = { 0, 8, 0, 1, 0 };
	uint8_t buf[BUFSZ];
	struct ptp_msg m;
	size_t i, k;

	(void)state;
	for (i = 0; i < NTYPES; i++) {	/* every short buffer */
		fill_msg(&m, all_types[i]);
		for (k = 0; k < ptp_msg_min_len(all_types[i]) +
		    m.suffix_len; k++)
			assert_int_equal(ptp_msg_pack(&m, buf, k),
			    PTP_E_NOSPACE);
	}
	fill_msg(&m, PTP_MT_SYNC);
	m.body.sync.origin_timestamp.sec = PTP_MAX_SEC + 1;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_RANGE);
	fill_msg(&m, PTP_MT_DELAY_RESP);
	m.body.delay_resp.receive_timestamp.nsec = PTP_NSEC_PER_SEC;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_NSEC);
	fill_msg(&m, PTP_MT_SYNC);
	m.hdr.message_type = 4;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_MSG_TYPE);
	m.hdr.message_type = 0x10;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_MSG_TYPE);
	fill_msg(&m, PTP_MT_SYNC);
	m.hdr.version = 1;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_VERSION);
	fill_msg(&m, PTP_MT_SYNC);
	m.hdr.minor_version = 2;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_MINOR_VERSION);
	fill_msg(&m, PTP_MT_SYNC);
	m.hdr.major_sdo_id = 0x10;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_RANGE);
	fill_msg(&m, PTP_MT_SYNC);
	m.suffix = odd_tlv;
	m.suffix_len = 5;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_TLV_ODD);
	m.suffix_len = 3;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_TLV_TRAILING);
	m.suffix_len = 4;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_TLV_OVERRUN);
	m.suffix = NULL;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_INVAL);
	m.suffix = buf;
	m.suffix_len = UINT16_MAX;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_RANGE);
	assert_int_equal(ptp_msg_pack(NULL, buf, BUFSZ), PTP_E_INVAL);
	fill_msg(&m, PTP_MT_MANAGEMENT);
	m.body.management.action = 5;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_MGMT_ACTION);
	fill_msg(&m, PTP_MT_MANAGEMENT);
	m.suffix = NULL;
	m.suffix_len = 0;
	assert_int_equal(ptp_msg_pack(&m, buf, BUFSZ), PTP_E_MGMT_NO_TLV);
}

/* Every value of every octet of every type: a code, never a crash. */
static void
test_byte_sweep(void **state)
{
	uint8_t buf[BUFSZ], out[BUFSZ];
	struct ptp_msg m, p;
	size_t i, n, k;
	unsigned int v;
	int rc;

	(void)state;
	for (i = 0; i < NTYPES; i++) {
		n = make(buf, all_types[i]);
		for (k = 0; k < n; k++) {
			uint8_t keep = buf[k];

			for (v = 0; v < 256; v++) {
				buf[k] = (uint8_t)v;
				rc = ptp_msg_parse(&m, buf, n);
				assert_true(rc <= 0 && rc >= PTP_E_INVAL);
				if (rc < 0)
					continue;
				rc = ptp_msg_pack(&m, out, sizeof(out));
				assert_int_equal(rc, m.hdr.message_length);
				assert_int_equal(ptp_msg_parse(&p, out,
				    (size_t)rc), 0);
				assert_true(ptp_msg_equal(&m, &p));
			}
			buf[k] = keep;
		}
	}
}

static void
test_strerror_names(void **state)
{
	int e, f;

	(void)state;
	/* PTP_E_UNEG_MSG_TYPE is the last error code */
	for (e = PTP_E_UNEG_MSG_TYPE; e <= 0; e++) {
		assert_non_null(ptp_strerror(e));
		assert_string_not_equal(ptp_strerror(e),
		    "unknown PTP codec error");
		for (f = e + 1; f <= 0; f++)
			assert_string_not_equal(ptp_strerror(e),
			    ptp_strerror(f));
	}
	assert_string_equal(ptp_strerror(PTP_E_UNEG_MSG_TYPE - 1),
	    "unknown PTP codec error");
	assert_string_equal(ptp_strerror(1), "unknown PTP codec error");
	assert_string_equal(ptp_msg_type_name(PTP_MT_PDELAY_RESP_FOLLOW_UP),
	    "PDELAY_RESP_FOLLOW_UP");
	assert_string_equal(ptp_msg_type_name(7), "RESERVED");
	assert_true(ptp_msg_is_event(PTP_MT_PDELAY_RESP));
	assert_false(ptp_msg_is_event(PTP_MT_FOLLOW_UP));
	assert_false(ptp_msg_is_event(4));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_all_types),
		cmocka_unit_test(test_roundtrip_negative_correction),
		cmocka_unit_test(test_roundtrip_extremes),
		cmocka_unit_test(test_roundtrip_with_tlvs),
		cmocka_unit_test(test_golden_delay_resp),
		cmocka_unit_test(test_golden_announce),
		cmocka_unit_test(test_golden_management),
		cmocka_unit_test(test_flags_bits),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_len_short),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_padding_ignored),
		cmocka_unit_test(test_bad_nsec),
		cmocka_unit_test(test_bad_suffix),
		cmocka_unit_test(test_bad_management),
		cmocka_unit_test(test_reserved_ignored),
		cmocka_unit_test(test_pack_errors),
		cmocka_unit_test(test_byte_sweep),
		cmocka_unit_test(test_strerror_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
