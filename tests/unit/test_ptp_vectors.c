/*
 * test_ptp_vectors.c - the codec against real frames of linuxptp 3.1.1
 * (ptp4l and pmc, captured by tests/vectors/capture.sh).  The expected
 * values next to each frame come from tshark's PTP dissector.
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
#include "vectors_ptp4l.h"

static uint64_t
clock_id64(const uint8_t *id)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < PTP_CLOCK_ID_LEN; i++)
		v = v << 8 | id[i];
	return v;
}

/* Every frame parses, and its header agrees with tshark. */
static void
test_vectors_parse(void **state)
{
	unsigned int seen = 0;
	size_t i;

	(void)state;
	for (i = 0; i < PTP4L_NVECTORS; i++) {
		const struct ptp4l_vector *v = &ptp4l_vectors[i];
		struct ptp_msg m;
		int rc = ptp_msg_parse(&m, v->data, v->len);

		if (rc != 0)
			fail_msg("%s: %s", v->name, ptp_strerror(rc));
		assert_int_equal(m.hdr.message_type, v->msg_type);
		assert_int_equal(m.hdr.message_length, v->msg_len);
		assert_true(m.hdr.message_length <= v->len);
		assert_int_equal(m.hdr.version, 2);
		assert_int_equal(m.hdr.minor_version, 0);	/* 3.1.1: 2008 */
		assert_int_equal(m.hdr.major_sdo_id, v->major_sdo_id);
		assert_int_equal(m.hdr.domain_number, v->domain);
		assert_int_equal(m.hdr.sequence_id, v->seq);
		assert_int_equal(clock_id64(
		    m.hdr.source_port_identity.clock_identity),
		    v->clock_identity);
		assert_int_equal(m.hdr.source_port_identity.port_number,
		    v->port);
		assert_int_equal(m.hdr.flags, v->flags);
		assert_int_equal(m.hdr.log_message_interval, v->log_interval);
		assert_int_equal(m.hdr.control_field, v->control);
		if (v->msg_type == PTP_MT_MANAGEMENT) {
			assert_int_equal(m.body.management.action, v->action);
			/* pmc -b 0 */
			assert_int_equal(m.body.management.boundary_hops, 0);
		}
		seen |= 1u << m.hdr.message_type;
	}
	/* The captures hold every one of the ten message types. */
	assert_int_equal(seen, 1u << PTP_MT_SYNC | 1u << PTP_MT_DELAY_REQ |
	    1u << PTP_MT_PDELAY_REQ | 1u << PTP_MT_PDELAY_RESP |
	    1u << PTP_MT_FOLLOW_UP | 1u << PTP_MT_DELAY_RESP |
	    1u << PTP_MT_PDELAY_RESP_FOLLOW_UP | 1u << PTP_MT_ANNOUNCE |
	    1u << PTP_MT_SIGNALING | 1u << PTP_MT_MANAGEMENT);
}

/* linuxptp writes zero in reserved fields, so its encoding is canonical. */
static void
test_vectors_repack(void **state)
{
	uint8_t buf[1500];
	size_t i;

	(void)state;
	for (i = 0; i < PTP4L_NVECTORS; i++) {
		const struct ptp4l_vector *v = &ptp4l_vectors[i];
		struct ptp_msg m, p;
		int n;

		assert_int_equal(ptp_msg_parse(&m, v->data, v->len), 0);
		n = ptp_msg_pack(&m, buf, sizeof(buf));
		assert_int_equal(n, v->msg_len);
		assert_memory_equal(buf, v->data, (size_t)n);
		assert_int_equal(ptp_msg_parse(&p, buf, (size_t)n), 0);
		assert_true(ptp_msg_equal(&m, &p));
	}
}

/* The first TLV agrees with tshark; management TLVs decode. */
static void
test_vectors_tlvs(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < PTP4L_NVECTORS; i++) {
		const struct ptp4l_vector *v = &ptp4l_vectors[i];
		struct ptp_tlv_iter it;
		struct ptp_tlv t;
		struct ptp_msg m;

		assert_int_equal(ptp_msg_parse(&m, v->data, v->len), 0);
		ptp_tlv_iter_msg(&it, &m);
		if (v->tlv_type >= 0) {
			assert_int_equal(ptp_tlv_next(&it, &t), 1);
			assert_int_equal(t.type, v->tlv_type);
		}
		if (v->msg_type == PTP_MT_MANAGEMENT) {
			struct ptp_mgmt_error e;
			struct ptp_mgmt_tlv mt;

			assert_int_equal(ptp_msg_mgmt_tlv(&m, &t), 0);
			if (t.type == PTP_TLV_MANAGEMENT) {
				assert_int_equal(ptp_tlv_mgmt_parse(&t, &mt),
				    0);
				assert_int_equal(mt.id, v->mgmt_id);
			} else {
				/* ptp4l refuses SET PRIORITY1 from pmc */
				assert_int_equal(ptp_tlv_mgmt_error_parse(&t,
				    &e), 0);
				assert_int_equal(e.error_id,
				    PTP_MERR_NOT_SUPPORTED);
				assert_int_equal(e.mgmt_id,
				    PTP_MID_PRIORITY1);
				assert_int_equal(v->mgmt_id,
				    PTP_MID_PRIORITY1);
			}
		}
	}
}

/* Pairs: Follow_Up of a Sync, Delay_Resp of a Delay_Req, Pdelay chain. */
static void
test_vectors_pairs(void **state)
{
	unsigned int pairs = 0;
	size_t i;

	(void)state;
	for (i = 0; i < PTP4L_NVECTORS; i++) {
		const struct ptp4l_vector *v = &ptp4l_vectors[i], *w;
		const struct ptp_port_identity *req;
		struct ptp_msg a, b;

		if (v->pair < 0)
			continue;
		w = &ptp4l_vectors[v->pair];
		assert_int_equal(ptp_msg_parse(&a, v->data, v->len), 0);
		assert_int_equal(ptp_msg_parse(&b, w->data, w->len), 0);
		assert_int_equal(a.hdr.sequence_id, b.hdr.sequence_id);
		pairs++;
		switch (a.hdr.message_type) {
		case PTP_MT_SYNC:
			assert_int_equal(b.hdr.message_type, PTP_MT_FOLLOW_UP);
			assert_true(a.hdr.flags & PTP_FLAG_TWO_STEP);
			assert_true(ptp_port_identity_equal(
			    &a.hdr.source_port_identity,
			    &b.hdr.source_port_identity));
			assert_true(b.body.follow_up.precise_origin_timestamp
			    .sec > 0);
			break;
		case PTP_MT_DELAY_REQ:
			assert_int_equal(b.hdr.message_type,
			    PTP_MT_DELAY_RESP);
			req = &b.body.delay_resp.requesting_port_identity;
			assert_true(ptp_port_identity_equal(req,
			    &a.hdr.source_port_identity));
			break;
		case PTP_MT_PDELAY_REQ:
			assert_int_equal(b.hdr.message_type,
			    PTP_MT_PDELAY_RESP);
			req = &b.body.pdelay_resp.requesting_port_identity;
			assert_true(ptp_port_identity_equal(req,
			    &a.hdr.source_port_identity));
			break;
		case PTP_MT_PDELAY_RESP:
			assert_int_equal(b.hdr.message_type,
			    PTP_MT_PDELAY_RESP_FOLLOW_UP);
			assert_true(ptp_port_identity_equal(
			    &a.body.pdelay_resp.requesting_port_identity,
			    &b.body.pdelay_resp_fup.requesting_port_identity));
			assert_true(ptp_port_identity_equal(
			    &a.hdr.source_port_identity,
			    &b.hdr.source_port_identity));
			break;
		default:
			fail_msg("%s: unexpected pair", v->name);
		}
	}
	assert_true(pairs >= 6);
}

/* Specific TLVs ptp4l put on the wire, decoded field by field. */
static void
test_vectors_known_tlvs(void **state)
{
	unsigned int path_trace = 0, fup_info = 0, unicast = 0;
	size_t i;

	(void)state;
	for (i = 0; i < PTP4L_NVECTORS; i++) {
		const struct ptp4l_vector *v = &ptp4l_vectors[i];
		struct ptp_tlv_iter it;
		struct ptp_tlv t;
		struct ptp_msg m;

		assert_int_equal(ptp_msg_parse(&m, v->data, v->len), 0);
		ptp_tlv_iter_msg(&it, &m);
		while (ptp_tlv_next(&it, &t) > 0) {
			switch (t.type) {
			case PTP_TLV_PATH_TRACE:
				/* 16.2: the grandmaster's own identity */
				assert_int_equal(m.hdr.message_type,
				    PTP_MT_ANNOUNCE);
				assert_int_equal(t.length, PTP_CLOCK_ID_LEN);
				assert_memory_equal(t.value,
				    m.body.announce.grandmaster_identity,
				    PTP_CLOCK_ID_LEN);
				path_trace++;
				break;
			case PTP_TLV_ORGANIZATION_EXTENSION:
				/* 802.1AS FOLLOW_UP information TLV */
				assert_int_equal(m.hdr.message_type,
				    PTP_MT_FOLLOW_UP);
				assert_int_equal(t.length, 28);
				assert_int_equal(t.value[0], 0x00);
				assert_int_equal(t.value[1], 0x80);
				assert_int_equal(t.value[2], 0xc2);
				fup_info++;
				break;
			case PTP_TLV_REQUEST_UNICAST_TRANSMISSION:
			case PTP_TLV_GRANT_UNICAST_TRANSMISSION:
				assert_int_equal(m.hdr.message_type,
				    PTP_MT_SIGNALING);
				unicast++;
				break;
			}
		}
		assert_int_equal(ptp_tlv_next(&it, &t), 0);
	}
	assert_true(path_trace > 0);
	assert_true(fup_info > 0);
	assert_true(unicast > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors_parse),
		cmocka_unit_test(test_vectors_repack),
		cmocka_unit_test(test_vectors_tlvs),
		cmocka_unit_test(test_vectors_pairs),
		cmocka_unit_test(test_vectors_known_tlvs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
