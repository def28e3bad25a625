/*
 * ptp_msg.c - IEEE 1588-2019 message codec: common header (13.3) and the
 * bodies of every message type (13.5-13.12, 15.4).  See ptp_msg.h for the
 * decisions on padding, versions and reserved fields.
 */
#include "config.h"

#include <string.h>

#include "ptp_be.h"
#include "ptp_msg.h"
#include "ptp_tlv.h"

/* Table 36 with the fixed length of each body; 0 marks a reserved value. */
static const struct {
	const char *name;
	uint8_t len;
} msg_types[16] = {
	[PTP_MT_SYNC] = { "SYNC", PTP_SYNC_LEN },
	[PTP_MT_DELAY_REQ] = { "DELAY_REQ", PTP_DELAY_REQ_LEN },
	[PTP_MT_PDELAY_REQ] = { "PDELAY_REQ", PTP_PDELAY_REQ_LEN },
	[PTP_MT_PDELAY_RESP] = { "PDELAY_RESP", PTP_PDELAY_RESP_LEN },
	[PTP_MT_FOLLOW_UP] = { "FOLLOW_UP", PTP_FOLLOW_UP_LEN },
	[PTP_MT_DELAY_RESP] = { "DELAY_RESP", PTP_DELAY_RESP_LEN },
	[PTP_MT_PDELAY_RESP_FOLLOW_UP] =
	    { "PDELAY_RESP_FOLLOW_UP", PTP_PDELAY_RESP_FUP_LEN },
	[PTP_MT_ANNOUNCE] = { "ANNOUNCE", PTP_ANNOUNCE_LEN },
	[PTP_MT_SIGNALING] = { "SIGNALING", PTP_SIGNALING_LEN },
	[PTP_MT_MANAGEMENT] = { "MANAGEMENT", PTP_MANAGEMENT_LEN },
};

static const char *const errors[] = {
	[-PTP_E_OK] = "success",
	[-PTP_E_HDR_SHORT] = "shorter than the 34-octet PTP header",
	[-PTP_E_VERSION] = "versionPTP is not 2",
	[-PTP_E_MINOR_VERSION] = "minorVersionPTP is not 0 or 1",
	[-PTP_E_MSG_TYPE] = "reserved messageType",
	[-PTP_E_LEN_SHORT] = "messageLength below the minimum for the type",
	[-PTP_E_TRUNCATED] = "messageLength exceeds the bytes received",
	[-PTP_E_NSEC] = "Timestamp nanoseconds not below 10^9",
	[-PTP_E_TLV_OVERRUN] = "TLV lengthField overruns the message",
	[-PTP_E_TLV_ODD] = "TLV lengthField is odd",
	[-PTP_E_TLV_TRAILING] = "1 to 3 octets after the last TLV",
	[-PTP_E_MGMT_ACTION] = "reserved management actionField",
	[-PTP_E_MGMT_NO_TLV] = "management message without a management TLV",
	[-PTP_E_TLV_SHORT] = "TLV too short for its tlvType",
	[-PTP_E_TLV_TEXT] = "PTPText does not fit its TLV",
	[-PTP_E_TLV_TYPE] = "TLV of an unexpected tlvType",
	[-PTP_E_NOSPACE] = "output buffer too small",
	[-PTP_E_RANGE] = "value out of range for its field",
	[-PTP_E_INVAL] = "invalid argument",
	[-PTP_E_TLV_LENGTH] = "TLV lengthField wrong for its tlvType",
	[-PTP_E_UNEG_MSG_TYPE] = "messageType cannot be negotiated (16.1.4.1)",
};

const char *
ptp_strerror(int err)
{
	if (err > 0 || (size_t)-err >= sizeof(errors) / sizeof(errors[0]) ||
	    errors[-err] == NULL)
		return "unknown PTP codec error";
	return errors[-err];
}

int
ptp_msg_type_valid(unsigned int t)
{
	return t < 16 && msg_types[t].len != 0;
}

const char *
ptp_msg_type_name(unsigned int t)
{
	return ptp_msg_type_valid(t) ? msg_types[t].name : "RESERVED";
}

size_t
ptp_msg_min_len(unsigned int t)
{
	return ptp_msg_type_valid(t) ? msg_types[t].len : 0;
}

int
ptp_msg_is_event(unsigned int t)
{
	/* Event messages are 0x0-0x3: bit 3 clear (13.3.2.2). */
	return ptp_msg_type_valid(t) && (t & 0x8) == 0;
}

/* ---- field types (clause 5.3) ------------------------------------------ */

int
ptp_timestamp_parse(struct ptp_timestamp *ts, const uint8_t *p)
{
	ts->sec = ptp_get_be48(p);
	ts->nsec = ptp_get_be32(p + 6);
	/* 5.3.3: nanosecondsField is always less than 10^9. */
	return ts->nsec < PTP_NSEC_PER_SEC ? 0 : PTP_E_NSEC;
}

int
ptp_timestamp_pack(const struct ptp_timestamp *ts, uint8_t *p)
{
	if (ts->sec > PTP_MAX_SEC)
		return PTP_E_RANGE;
	if (ts->nsec >= PTP_NSEC_PER_SEC)
		return PTP_E_NSEC;
	ptp_put_be48(p, ts->sec);
	ptp_put_be32(p + 6, ts->nsec);
	return 0;
}

void
ptp_port_identity_parse(struct ptp_port_identity *pid, const uint8_t *p)
{
	memcpy(pid->clock_identity, p, PTP_CLOCK_ID_LEN);
	pid->port_number = ptp_get_be16(p + PTP_CLOCK_ID_LEN);
}

void
ptp_port_identity_pack(const struct ptp_port_identity *pid, uint8_t *p)
{
	memcpy(p, pid->clock_identity, PTP_CLOCK_ID_LEN);
	ptp_put_be16(p + PTP_CLOCK_ID_LEN, pid->port_number);
}

int
ptp_port_identity_equal(const struct ptp_port_identity *a,
    const struct ptp_port_identity *b)
{
	return memcmp(a->clock_identity, b->clock_identity,
	    PTP_CLOCK_ID_LEN) == 0 && a->port_number == b->port_number;
}

void
ptp_clock_quality_parse(struct ptp_clock_quality *q, const uint8_t *p)
{
	q->clock_class = p[0];
	q->clock_accuracy = p[1];
	q->offset_scaled_log_variance = ptp_get_be16(p + 2);
}

void
ptp_clock_quality_pack(const struct ptp_clock_quality *q, uint8_t *p)
{
	p[0] = q->clock_class;
	p[1] = q->clock_accuracy;
	ptp_put_be16(p + 2, q->offset_scaled_log_variance);
}

/* ---- common header, 13.3 ----------------------------------------------- */

int
ptp_hdr_parse(struct ptp_header *h, const uint8_t *buf, size_t len)
{
	if (h == NULL || (buf == NULL && len != 0))
		return PTP_E_INVAL;
	memset(h, 0, sizeof(*h));
	if (len < PTP_HDR_LEN)
		return PTP_E_HDR_SHORT;

	h->major_sdo_id = buf[0] >> 4;
	h->message_type = buf[0] & 0x0F;
	h->minor_version = buf[1] >> 4;
	h->version = buf[1] & 0x0F;
	h->message_length = ptp_get_be16(buf + 2);
	h->domain_number = buf[4];
	h->minor_sdo_id = buf[5];
	h->flags = ptp_get_be16(buf + 6);
	h->correction = (int64_t)ptp_get_be64(buf + 8);
	h->message_type_specific = ptp_get_be32(buf + 16);
	ptp_port_identity_parse(&h->source_port_identity, buf + 20);
	h->sequence_id = ptp_get_be16(buf + 30);
	h->control_field = buf[32];
	h->log_message_interval = (int8_t)buf[33];

	if (h->version != PTP_VERSION)
		return PTP_E_VERSION;
	if (h->minor_version > PTP_MINOR_VERSION)
		return PTP_E_MINOR_VERSION;
	if (!ptp_msg_type_valid(h->message_type))
		return PTP_E_MSG_TYPE;
	if (h->message_length < ptp_msg_min_len(h->message_type))
		return PTP_E_LEN_SHORT;
	/* Octets past messageLength are padding; short of it, truncation. */
	if (h->message_length > len)
		return PTP_E_TRUNCATED;
	return 0;
}

static int
hdr_check(const struct ptp_header *h)
{
	if (h->version != PTP_VERSION)
		return PTP_E_VERSION;
	if (h->minor_version > PTP_MINOR_VERSION)
		return PTP_E_MINOR_VERSION;
	if (!ptp_msg_type_valid(h->message_type))
		return PTP_E_MSG_TYPE;
	if (h->major_sdo_id > 0x0F)
		return PTP_E_RANGE;
	return 0;
}

static void
hdr_pack(const struct ptp_header *h, uint16_t msg_len, uint8_t *buf)
{
	buf[0] = (uint8_t)(h->major_sdo_id << 4 | h->message_type);
	buf[1] = (uint8_t)(h->minor_version << 4 | h->version);
	ptp_put_be16(buf + 2, msg_len);
	buf[4] = h->domain_number;
	buf[5] = h->minor_sdo_id;
	ptp_put_be16(buf + 6, h->flags);
	ptp_put_be64(buf + 8, (uint64_t)h->correction);
	ptp_put_be32(buf + 16, h->message_type_specific);
	ptp_port_identity_pack(&h->source_port_identity, buf + 20);
	ptp_put_be16(buf + 30, h->sequence_id);
	buf[32] = h->control_field;
	buf[33] = (uint8_t)h->log_message_interval;
}

/* ---- bodies ------------------------------------------------------------ */

/* Announce, 13.5 (octet offsets from the start of the message). */
static int
announce_parse(struct ptp_announce *a, const uint8_t *buf)
{
	int rc = ptp_timestamp_parse(&a->origin_timestamp, buf + 34);

	a->current_utc_offset = (int16_t)ptp_get_be16(buf + 44);
	/* buf[46] reserved */
	a->grandmaster_priority1 = buf[47];
	ptp_clock_quality_parse(&a->grandmaster_clock_quality, buf + 48);
	a->grandmaster_priority2 = buf[52];
	memcpy(a->grandmaster_identity, buf + 53, PTP_CLOCK_ID_LEN);
	a->steps_removed = ptp_get_be16(buf + 61);
	a->time_source = buf[63];
	return rc;
}

static int
announce_pack(const struct ptp_announce *a, uint8_t *buf)
{
	int rc = ptp_timestamp_pack(&a->origin_timestamp, buf + 34);

	if (rc < 0)
		return rc;
	ptp_put_be16(buf + 44, (uint16_t)a->current_utc_offset);
	buf[46] = 0;
	buf[47] = a->grandmaster_priority1;
	ptp_clock_quality_pack(&a->grandmaster_clock_quality, buf + 48);
	buf[52] = a->grandmaster_priority2;
	memcpy(buf + 53, a->grandmaster_identity, PTP_CLOCK_ID_LEN);
	ptp_put_be16(buf + 61, a->steps_removed);
	buf[63] = a->time_source;
	return 0;
}

/*
 * The Timestamp + PortIdentity bodies (Delay_Resp 13.8, Pdelay_Resp 13.10,
 * Pdelay_Resp_Follow_Up 13.11) share one layout; Pdelay_Req (13.9) has
 * 10 reserved octets where the others have the PortIdentity.
 */
static int
ts_pid_parse(struct ptp_timestamp *ts, struct ptp_port_identity *pid,
    const uint8_t *buf)
{
	ptp_port_identity_parse(pid, buf + 44);
	return ptp_timestamp_parse(ts, buf + 34);
}

static int
ts_pid_pack(const struct ptp_timestamp *ts,
    const struct ptp_port_identity *pid, uint8_t *buf)
{
	if (pid != NULL)
		ptp_port_identity_pack(pid, buf + 44);
	else
		memset(buf + 44, 0, PTP_PORT_ID_LEN);
	return ptp_timestamp_pack(ts, buf + 34);
}

/* Management, 15.4.1: target, two hop counts, actionField, reserved. */
static int
management_parse(struct ptp_management *mg, const uint8_t *buf)
{
	ptp_port_identity_parse(&mg->target_port_identity, buf + 34);
	mg->starting_boundary_hops = buf[44];
	mg->boundary_hops = buf[45];
	mg->action = buf[46] & 0x0F;	/* high nibble reserved */
	/* buf[47] reserved */
	return mg->action <= PTP_MA_ACKNOWLEDGE ? 0 : PTP_E_MGMT_ACTION;
}

static int
management_pack(const struct ptp_management *mg, uint8_t *buf)
{
	if (mg->action > PTP_MA_ACKNOWLEDGE)
		return PTP_E_MGMT_ACTION;
	ptp_port_identity_pack(&mg->target_port_identity, buf + 34);
	buf[44] = mg->starting_boundary_hops;
	buf[45] = mg->boundary_hops;
	buf[46] = mg->action;
	buf[47] = 0;
	return 0;
}

static int
body_parse(struct ptp_msg *m, const uint8_t *buf)
{
	switch (m->hdr.message_type) {
	case PTP_MT_SYNC:
		return ptp_timestamp_parse(&m->body.sync.origin_timestamp,
		    buf + 34);
	case PTP_MT_DELAY_REQ:
		return ptp_timestamp_parse(&m->body.delay_req.origin_timestamp,
		    buf + 34);
	case PTP_MT_FOLLOW_UP:
		return ptp_timestamp_parse(
		    &m->body.follow_up.precise_origin_timestamp, buf + 34);
	case PTP_MT_PDELAY_REQ:
		/* buf[44..53] reserved */
		return ptp_timestamp_parse(
		    &m->body.pdelay_req.origin_timestamp, buf + 34);
	case PTP_MT_DELAY_RESP:
		return ts_pid_parse(&m->body.delay_resp.receive_timestamp,
		    &m->body.delay_resp.requesting_port_identity, buf);
	case PTP_MT_PDELAY_RESP:
		return ts_pid_parse(
		    &m->body.pdelay_resp.request_receipt_timestamp,
		    &m->body.pdelay_resp.requesting_port_identity, buf);
	case PTP_MT_PDELAY_RESP_FOLLOW_UP:
		return ts_pid_parse(
		    &m->body.pdelay_resp_fup.response_origin_timestamp,
		    &m->body.pdelay_resp_fup.requesting_port_identity, buf);
	case PTP_MT_ANNOUNCE:
		return announce_parse(&m->body.announce, buf);
	case PTP_MT_SIGNALING:
		ptp_port_identity_parse(
		    &m->body.signaling.target_port_identity, buf + 34);
		return 0;
	case PTP_MT_MANAGEMENT:
		return management_parse(&m->body.management, buf);
	}
	return PTP_E_MSG_TYPE;
}

static int
body_pack(const struct ptp_msg *m, uint8_t *buf)
{
	switch (m->hdr.message_type) {
	case PTP_MT_SYNC:
		return ptp_timestamp_pack(&m->body.sync.origin_timestamp,
		    buf + 34);
	case PTP_MT_DELAY_REQ:
		return ptp_timestamp_pack(&m->body.delay_req.origin_timestamp,
		    buf + 34);
	case PTP_MT_FOLLOW_UP:
		return ptp_timestamp_pack(
		    &m->body.follow_up.precise_origin_timestamp, buf + 34);
	case PTP_MT_PDELAY_REQ:
		return ts_pid_pack(&m->body.pdelay_req.origin_timestamp, NULL,
		    buf);
	case PTP_MT_DELAY_RESP:
		return ts_pid_pack(&m->body.delay_resp.receive_timestamp,
		    &m->body.delay_resp.requesting_port_identity, buf);
	case PTP_MT_PDELAY_RESP:
		return ts_pid_pack(
		    &m->body.pdelay_resp.request_receipt_timestamp,
		    &m->body.pdelay_resp.requesting_port_identity, buf);
	case PTP_MT_PDELAY_RESP_FOLLOW_UP:
		return ts_pid_pack(
		    &m->body.pdelay_resp_fup.response_origin_timestamp,
		    &m->body.pdelay_resp_fup.requesting_port_identity, buf);
	case PTP_MT_ANNOUNCE:
		return announce_pack(&m->body.announce, buf);
	case PTP_MT_SIGNALING:
		ptp_port_identity_pack(&m->body.signaling.target_port_identity,
		    buf + 34);
		return 0;
	case PTP_MT_MANAGEMENT:
		return management_pack(&m->body.management, buf);
	}
	return PTP_E_MSG_TYPE;
}

/* ---- whole messages ---------------------------------------------------- */

int
ptp_msg_parse(struct ptp_msg *m, const uint8_t *buf, size_t len)
{
	size_t body_len;
	int rc;

	if (m == NULL)
		return PTP_E_INVAL;
	memset(m, 0, sizeof(*m));
	if ((rc = ptp_hdr_parse(&m->hdr, buf, len)) < 0)
		return rc;
	if ((rc = body_parse(m, buf)) < 0)
		return rc;

	/* The suffix (13.4) runs from the end of the body to messageLength. */
	body_len = ptp_msg_min_len(m->hdr.message_type);
	m->suffix = buf + body_len;
	m->suffix_len = m->hdr.message_length - body_len;
	if ((rc = ptp_tlv_validate(m->suffix, m->suffix_len,
	    &m->tlv_count)) < 0)
		return rc;
	if (m->hdr.message_type == PTP_MT_MANAGEMENT) {
		struct ptp_tlv tlv;

		if ((rc = ptp_msg_mgmt_tlv(m, &tlv)) < 0)
			return rc;
	}
	if (m->hdr.message_type == PTP_MT_SIGNALING &&
	    (rc = ptp_msg_signaling_check(m)) < 0)
		return rc;
	return 0;
}

int
ptp_msg_pack(const struct ptp_msg *m, uint8_t *buf, size_t size)
{
	size_t body_len, total;
	int rc;

	if (m == NULL || buf == NULL || (m->suffix == NULL && m->suffix_len))
		return PTP_E_INVAL;
	if ((rc = hdr_check(&m->hdr)) < 0)
		return rc;
	body_len = ptp_msg_min_len(m->hdr.message_type);
	if (m->suffix_len > UINT16_MAX - body_len)
		return PTP_E_RANGE;
	total = body_len + m->suffix_len;
	if ((rc = ptp_tlv_validate(m->suffix, m->suffix_len, NULL)) < 0)
		return rc;
	if (m->hdr.message_type == PTP_MT_MANAGEMENT) {
		struct ptp_tlv tlv;

		if ((rc = ptp_msg_mgmt_tlv(m, &tlv)) < 0)
			return rc;
	}
	if (m->hdr.message_type == PTP_MT_SIGNALING &&
	    (rc = ptp_msg_signaling_check(m)) < 0)
		return rc;
	if (size < total)
		return PTP_E_NOSPACE;

	hdr_pack(&m->hdr, (uint16_t)total, buf);
	if ((rc = body_pack(m, buf)) < 0)
		return rc;
	/* memmove: the suffix may be the parsed one, inside buf itself. */
	if (m->suffix_len)
		memmove(buf + body_len, m->suffix, m->suffix_len);
	return (int)total;
}

/* ---- comparison -------------------------------------------------------- */

static int
ts_equal(const struct ptp_timestamp *a, const struct ptp_timestamp *b)
{
	return a->sec == b->sec && a->nsec == b->nsec;
}

static int
hdr_equal(const struct ptp_header *a, const struct ptp_header *b)
{
	return a->major_sdo_id == b->major_sdo_id &&
	    a->message_type == b->message_type &&
	    a->minor_version == b->minor_version &&
	    a->version == b->version &&
	    a->message_length == b->message_length &&
	    a->domain_number == b->domain_number &&
	    a->minor_sdo_id == b->minor_sdo_id &&
	    a->flags == b->flags &&
	    a->correction == b->correction &&
	    a->message_type_specific == b->message_type_specific &&
	    ptp_port_identity_equal(&a->source_port_identity,
		&b->source_port_identity) &&
	    a->sequence_id == b->sequence_id &&
	    a->control_field == b->control_field &&
	    a->log_message_interval == b->log_message_interval;
}

static int
announce_equal(const struct ptp_announce *a, const struct ptp_announce *b)
{
	const struct ptp_clock_quality *qa = &a->grandmaster_clock_quality;
	const struct ptp_clock_quality *qb = &b->grandmaster_clock_quality;

	return ts_equal(&a->origin_timestamp, &b->origin_timestamp) &&
	    a->current_utc_offset == b->current_utc_offset &&
	    a->grandmaster_priority1 == b->grandmaster_priority1 &&
	    qa->clock_class == qb->clock_class &&
	    qa->clock_accuracy == qb->clock_accuracy &&
	    qa->offset_scaled_log_variance == qb->offset_scaled_log_variance &&
	    a->grandmaster_priority2 == b->grandmaster_priority2 &&
	    memcmp(a->grandmaster_identity, b->grandmaster_identity,
		PTP_CLOCK_ID_LEN) == 0 &&
	    a->steps_removed == b->steps_removed &&
	    a->time_source == b->time_source;
}

static int
body_equal(const struct ptp_msg *a, const struct ptp_msg *b)
{
	switch (a->hdr.message_type) {
	case PTP_MT_SYNC:
		return ts_equal(&a->body.sync.origin_timestamp,
		    &b->body.sync.origin_timestamp);
	case PTP_MT_DELAY_REQ:
		return ts_equal(&a->body.delay_req.origin_timestamp,
		    &b->body.delay_req.origin_timestamp);
	case PTP_MT_FOLLOW_UP:
		return ts_equal(&a->body.follow_up.precise_origin_timestamp,
		    &b->body.follow_up.precise_origin_timestamp);
	case PTP_MT_PDELAY_REQ:
		return ts_equal(&a->body.pdelay_req.origin_timestamp,
		    &b->body.pdelay_req.origin_timestamp);
	case PTP_MT_DELAY_RESP:
		return ts_equal(&a->body.delay_resp.receive_timestamp,
		    &b->body.delay_resp.receive_timestamp) &&
		    ptp_port_identity_equal(
			&a->body.delay_resp.requesting_port_identity,
			&b->body.delay_resp.requesting_port_identity);
	case PTP_MT_PDELAY_RESP:
		return ts_equal(&a->body.pdelay_resp.request_receipt_timestamp,
		    &b->body.pdelay_resp.request_receipt_timestamp) &&
		    ptp_port_identity_equal(
			&a->body.pdelay_resp.requesting_port_identity,
			&b->body.pdelay_resp.requesting_port_identity);
	case PTP_MT_PDELAY_RESP_FOLLOW_UP:
		return ts_equal(
		    &a->body.pdelay_resp_fup.response_origin_timestamp,
		    &b->body.pdelay_resp_fup.response_origin_timestamp) &&
		    ptp_port_identity_equal(
			&a->body.pdelay_resp_fup.requesting_port_identity,
			&b->body.pdelay_resp_fup.requesting_port_identity);
	case PTP_MT_ANNOUNCE:
		return announce_equal(&a->body.announce, &b->body.announce);
	case PTP_MT_SIGNALING:
		return ptp_port_identity_equal(
		    &a->body.signaling.target_port_identity,
		    &b->body.signaling.target_port_identity);
	case PTP_MT_MANAGEMENT:
		return ptp_port_identity_equal(
		    &a->body.management.target_port_identity,
		    &b->body.management.target_port_identity) &&
		    a->body.management.starting_boundary_hops ==
			b->body.management.starting_boundary_hops &&
		    a->body.management.boundary_hops ==
			b->body.management.boundary_hops &&
		    a->body.management.action == b->body.management.action;
	}
	return 0;
}

int
ptp_msg_equal(const struct ptp_msg *a, const struct ptp_msg *b)
{
	if (!hdr_equal(&a->hdr, &b->hdr) || !body_equal(a, b))
		return 0;
	if (a->suffix_len != b->suffix_len || a->tlv_count != b->tlv_count)
		return 0;
	return a->suffix_len == 0 ||
	    memcmp(a->suffix, b->suffix, a->suffix_len) == 0;
}
