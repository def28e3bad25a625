/*
 * ptp_tlv.c - TLV iteration and packing (IEEE 1588-2019 clause 14) and the
 * management TLVs (15.5).  See ptp_tlv.h for the strictness rules.
 */
#include "config.h"

#include <string.h>

#include "ptp_be.h"
#include "ptp_msg.h"
#include "ptp_tlv.h"

void
ptp_tlv_iter_init(struct ptp_tlv_iter *it, const uint8_t *suffix, size_t len)
{
	it->p = suffix;
	it->left = suffix == NULL ? 0 : len;
	it->err = 0;
}

void
ptp_tlv_iter_msg(struct ptp_tlv_iter *it, const struct ptp_msg *m)
{
	ptp_tlv_iter_init(it, m->suffix, m->suffix_len);
}

int
ptp_tlv_next(struct ptp_tlv_iter *it, struct ptp_tlv *tlv)
{
	uint16_t type, length;

	if (it->err < 0)
		return it->err;
	if (it->left == 0)
		return 0;
	if (it->left < PTP_TLV_HDR_LEN)
		return it->err = PTP_E_TLV_TRAILING;
	type = ptp_get_be16(it->p);
	length = ptp_get_be16(it->p + 2);
	if (length > it->left - PTP_TLV_HDR_LEN)
		return it->err = PTP_E_TLV_OVERRUN;
	/* 14.1: lengthField is even; the TLV carries its own pad octet. */
	if (length & 1)
		return it->err = PTP_E_TLV_ODD;
	tlv->type = type;
	tlv->length = length;
	tlv->value = it->p + PTP_TLV_HDR_LEN;
	it->p += PTP_TLV_HDR_LEN + length;
	it->left -= PTP_TLV_HDR_LEN + length;
	return 1;
}

int
ptp_tlv_validate(const uint8_t *suffix, size_t len, unsigned int *count)
{
	struct ptp_tlv_iter it;
	struct ptp_tlv tlv;
	unsigned int n = 0;
	int rc;

	if (suffix == NULL && len != 0)
		return PTP_E_INVAL;
	ptp_tlv_iter_init(&it, suffix, len);
	while ((rc = ptp_tlv_next(&it, &tlv)) > 0)
		n++;
	if (rc < 0)
		return rc;
	if (count != NULL)
		*count = n;
	return 0;
}

/* ---- appending ----------------------------------------------------------- */

int
ptp_tlv_reserve(uint8_t *buf, size_t size, uint16_t type, size_t value_len,
    uint8_t **value)
{
	size_t msg_len, total;

	if (buf == NULL || size < PTP_HDR_LEN)
		return PTP_E_INVAL;
	msg_len = ptp_get_be16(buf + 2);
	if (msg_len < PTP_HDR_LEN || msg_len > size)
		return PTP_E_INVAL;
	if (value_len & 1)
		return PTP_E_TLV_ODD;
	if (value_len > UINT16_MAX - PTP_TLV_HDR_LEN - msg_len)
		return PTP_E_RANGE;
	total = msg_len + PTP_TLV_HDR_LEN + value_len;
	if (total > size)
		return PTP_E_NOSPACE;

	ptp_put_be16(buf + msg_len, type);
	ptp_put_be16(buf + msg_len + 2, (uint16_t)value_len);
	memset(buf + msg_len + PTP_TLV_HDR_LEN, 0, value_len);
	ptp_put_be16(buf + 2, (uint16_t)total);
	if (value != NULL)
		*value = buf + msg_len + PTP_TLV_HDR_LEN;
	return (int)total;
}

int
ptp_tlv_append(uint8_t *buf, size_t size, uint16_t type, const void *value,
    size_t value_len)
{
	uint8_t *v;
	int rc;

	if (value == NULL && value_len != 0)
		return PTP_E_INVAL;
	rc = ptp_tlv_reserve(buf, size, type, value_len, &v);
	if (rc >= 0 && value_len != 0)
		memcpy(v, value, value_len);
	return rc;
}

/* ---- management TLVs, 15.5 ----------------------------------------------- */

int
ptp_tlv_mgmt_parse(const struct ptp_tlv *tlv, struct ptp_mgmt_tlv *out)
{
	if (tlv->type != PTP_TLV_MANAGEMENT)
		return PTP_E_TLV_TYPE;
	/* 15.5.2: managementId (2 octets), then the dataField. */
	if (tlv->length < 2)
		return PTP_E_TLV_SHORT;
	out->id = ptp_get_be16(tlv->value);
	out->data_len = (uint16_t)(tlv->length - 2);
	out->data = out->data_len ? tlv->value + 2 : NULL;
	return 0;
}

int
ptp_tlv_append_mgmt(uint8_t *buf, size_t size, uint16_t id, const void *data,
    size_t data_len)
{
	size_t padded = data_len + (data_len & 1);
	uint8_t *v;
	int rc;

	if (data == NULL && data_len != 0)
		return PTP_E_INVAL;
	if (data_len > UINT16_MAX)
		return PTP_E_RANGE;
	rc = ptp_tlv_reserve(buf, size, PTP_TLV_MANAGEMENT, 2 + padded, &v);
	if (rc < 0)
		return rc;
	ptp_put_be16(v, id);
	if (data_len != 0)
		memcpy(v + 2, data, data_len);
	return rc;
}

#define MGMT_ERROR_FIXED_LEN	8	/* errorId, managementId, reserved */

int
ptp_tlv_mgmt_error_parse(const struct ptp_tlv *tlv, struct ptp_mgmt_error *out)
{
	size_t rest;

	if (tlv->type != PTP_TLV_MANAGEMENT_ERROR_STATUS)
		return PTP_E_TLV_TYPE;
	if (tlv->length < MGMT_ERROR_FIXED_LEN)
		return PTP_E_TLV_SHORT;
	out->error_id = ptp_get_be16(tlv->value);
	out->mgmt_id = ptp_get_be16(tlv->value + 2);
	/* tlv->value[4..7] reserved */
	out->text_len = 0;
	out->text = NULL;

	/*
	 * displayData is optional; when present it is a PTPText (5.3.9:
	 * lengthField octet, then that many octets) and at most one pad octet
	 * may follow it.  Anything else in the TLV is malformed.
	 */
	rest = tlv->length - MGMT_ERROR_FIXED_LEN;
	if (rest == 0)
		return 0;
	out->text_len = tlv->value[MGMT_ERROR_FIXED_LEN];
	if ((size_t)1 + out->text_len > rest ||
	    rest - 1 - out->text_len > 1) {
		out->text_len = 0;
		return PTP_E_TLV_TEXT;
	}
	out->text = out->text_len ? tlv->value + MGMT_ERROR_FIXED_LEN + 1 :
	    NULL;
	return 0;
}

int
ptp_tlv_append_mgmt_error(uint8_t *buf, size_t size, uint16_t error_id,
    uint16_t mgmt_id, const char *text, size_t text_len)
{
	size_t len = MGMT_ERROR_FIXED_LEN;
	uint8_t *v;
	int rc;

	if (text == NULL && text_len != 0)
		return PTP_E_INVAL;
	if (text_len > UINT8_MAX)
		return PTP_E_RANGE;
	if (text != NULL) {
		len += 1 + text_len;
		len += len & 1;
	}
	rc = ptp_tlv_reserve(buf, size, PTP_TLV_MANAGEMENT_ERROR_STATUS, len,
	    &v);
	if (rc < 0)
		return rc;
	ptp_put_be16(v, error_id);
	ptp_put_be16(v + 2, mgmt_id);
	if (text != NULL) {
		v[MGMT_ERROR_FIXED_LEN] = (uint8_t)text_len;
		if (text_len != 0)
			memcpy(v + MGMT_ERROR_FIXED_LEN + 1, text, text_len);
	}
	return rc;
}

int
ptp_msg_mgmt_tlv(const struct ptp_msg *m, struct ptp_tlv *tlv)
{
	struct ptp_tlv_iter it;
	struct ptp_mgmt_error e;
	struct ptp_mgmt_tlv mt;
	int rc;

	if (m->hdr.message_type != PTP_MT_MANAGEMENT)
		return PTP_E_MGMT_NO_TLV;
	ptp_tlv_iter_msg(&it, m);
	if ((rc = ptp_tlv_next(&it, tlv)) < 0)
		return rc;
	if (rc == 0)
		return PTP_E_MGMT_NO_TLV;
	/* 15.4.1: the message carries a MANAGEMENT or an error status TLV. */
	switch (tlv->type) {
	case PTP_TLV_MANAGEMENT:
		return ptp_tlv_mgmt_parse(tlv, &mt);
	case PTP_TLV_MANAGEMENT_ERROR_STATUS:
		return ptp_tlv_mgmt_error_parse(tlv, &e);
	}
	return PTP_E_MGMT_NO_TLV;
}

/* ---- unicast negotiation TLVs, 16.1.4 ------------------------------------ */

int
ptp_tlv_is_uneg(uint16_t type)
{
	return type >= PTP_TLV_REQUEST_UNICAST_TRANSMISSION &&
	    type <= PTP_TLV_ACK_CANCEL_UNICAST_TRANSMISSION;
}

int
ptp_uneg_msg_type_valid(unsigned int t)
{
	/* 16.1.4.1: only these are sent on a grant. */
	return t == PTP_MT_ANNOUNCE || t == PTP_MT_SYNC ||
	    t == PTP_MT_DELAY_RESP || t == PTP_MT_PDELAY_RESP;
}

static size_t
uneg_len(uint16_t type)
{
	switch (type) {
	case PTP_TLV_REQUEST_UNICAST_TRANSMISSION:
		return PTP_UNEG_REQUEST_LEN;
	case PTP_TLV_GRANT_UNICAST_TRANSMISSION:
		return PTP_UNEG_GRANT_LEN;
	default:
		return PTP_UNEG_CANCEL_LEN;
	}
}

int
ptp_tlv_uneg_parse(const struct ptp_tlv *tlv, struct ptp_uneg_tlv *out)
{
	const uint8_t *v = tlv->value;

	if (!ptp_tlv_is_uneg(tlv->type))
		return PTP_E_TLV_TYPE;
	if (tlv->length != uneg_len(tlv->type))
		return PTP_E_TLV_LENGTH;
	memset(out, 0, sizeof(*out));
	out->type = tlv->type;
	out->message_type = v[0] >> 4;
	switch (tlv->type) {
	case PTP_TLV_GRANT_UNICAST_TRANSMISSION:
		/* v[6] reserved */
		out->renewal_invited = v[7] & PTP_UNEG_RENEWAL_INVITED;
		/* FALLTHROUGH */
	case PTP_TLV_REQUEST_UNICAST_TRANSMISSION:
		/* the low nibble of v[0] is reserved */
		out->log_period = (int8_t)v[1];
		out->duration = ptp_get_be32(v + 2);
		break;
	default:
		/* v[1] reserved */
		out->flags = v[0] & 0x0F;
		break;
	}
	if (!ptp_uneg_msg_type_valid(out->message_type))
		return PTP_E_UNEG_MSG_TYPE;
	return 0;
}

int
ptp_tlv_append_uneg(uint8_t *buf, size_t size, const struct ptp_uneg_tlv *u)
{
	uint8_t *v;
	int rc;

	if (u == NULL)
		return PTP_E_INVAL;
	if (!ptp_tlv_is_uneg(u->type))
		return PTP_E_TLV_TYPE;
	if (!ptp_uneg_msg_type_valid(u->message_type))
		return PTP_E_UNEG_MSG_TYPE;
	if (u->flags > 0x0F || u->renewal_invited > 1)
		return PTP_E_RANGE;
	rc = ptp_tlv_reserve(buf, size, u->type, uneg_len(u->type), &v);
	if (rc < 0)
		return rc;
	v[0] = (uint8_t)(u->message_type << 4);
	switch (u->type) {
	case PTP_TLV_GRANT_UNICAST_TRANSMISSION:
		v[7] = u->renewal_invited ? PTP_UNEG_RENEWAL_INVITED : 0;
		/* FALLTHROUGH */
	case PTP_TLV_REQUEST_UNICAST_TRANSMISSION:
		v[1] = (uint8_t)u->log_period;
		ptp_put_be32(v + 2, u->duration);
		break;
	default:
		v[0] |= u->flags;
		break;
	}
	return rc;
}

int
ptp_msg_signaling_check(const struct ptp_msg *m)
{
	struct ptp_uneg_tlv u;
	struct ptp_tlv_iter it;
	struct ptp_tlv tlv;
	int rc;

	if (m->hdr.message_type != PTP_MT_SIGNALING)
		return PTP_E_INVAL;
	/* 16.1.3: one Signaling may carry several; each must decode. */
	ptp_tlv_iter_msg(&it, m);
	while ((rc = ptp_tlv_next(&it, &tlv)) > 0)
		if (ptp_tlv_is_uneg(tlv.type) &&
		    (rc = ptp_tlv_uneg_parse(&tlv, &u)) < 0)
			return rc;
	return rc;
}
