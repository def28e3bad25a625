/*
 * ptp_tlv.h - IEEE 1588-2019 TLVs (clause 14): iteration over a message's
 * suffix, appending TLVs when packing, and the management TLVs of 15.5.
 *
 * A TLV is tlvType (Enumeration16), lengthField (UInteger16, the octets
 * of valueField) and valueField (14.1).  The suffix of a message
 * must be a whole number of TLVs:
 *  - a TLV whose lengthField runs past messageLength: PTP_E_TLV_OVERRUN;
 *  - an odd lengthField: PTP_E_TLV_ODD.  14.1 requires an even length
 *    (a TLV carries its own pad octet), and accepting odd ones would leave
 *    every following TLV misaligned, so it is refused, not repaired;
 *  - 1 to 3 octets after the last TLV, too few for a TLV header:
 *    PTP_E_TLV_TRAILING.
 * Unknown tlvTypes are not errors: a receiver skips them (14.1).
 */
#ifndef PTPSEP_PTP_TLV_H
#define PTPSEP_PTP_TLV_H

#include <stddef.h>
#include <stdint.h>

#include "ptp_msg.h"

#define PTP_TLV_HDR_LEN		4

/* tlvType, 14.1.1. */
enum ptp_tlv_type {
	PTP_TLV_MANAGEMENT = 0x0001,
	PTP_TLV_MANAGEMENT_ERROR_STATUS = 0x0002,
	PTP_TLV_ORGANIZATION_EXTENSION = 0x0003,
	PTP_TLV_REQUEST_UNICAST_TRANSMISSION = 0x0004,
	PTP_TLV_GRANT_UNICAST_TRANSMISSION = 0x0005,
	PTP_TLV_CANCEL_UNICAST_TRANSMISSION = 0x0006,
	PTP_TLV_ACK_CANCEL_UNICAST_TRANSMISSION = 0x0007,
	PTP_TLV_PATH_TRACE = 0x0008,
	PTP_TLV_ALTERNATE_TIME_OFFSET_INDICATOR = 0x0009,
	PTP_TLV_ORGANIZATION_EXTENSION_PROPAGATE = 0x4000,
	PTP_TLV_ENHANCED_ACCURACY_METRICS = 0x4001,
	PTP_TLV_ORGANIZATION_EXTENSION_DO_NOT_PROPAGATE = 0x8000,
	PTP_TLV_L1_SYNC = 0x8001,
	PTP_TLV_PORT_COMMUNICATION_AVAILABILITY = 0x8002,
	PTP_TLV_PROTOCOL_ADDRESS = 0x8003,
	PTP_TLV_SLAVE_RX_SYNC_TIMING_DATA = 0x8004,
	PTP_TLV_SLAVE_RX_SYNC_COMPUTED_DATA = 0x8005,
	PTP_TLV_SLAVE_TX_EVENT_TIMESTAMPS = 0x8006,
	PTP_TLV_CUMULATIVE_RATE_RATIO = 0x8007,
	PTP_TLV_PAD = 0x8008,
	PTP_TLV_AUTHENTICATION = 0x8009,
};

/* managementId, 15.5.2 (the common ones; any value may be carried). */
enum ptp_mgmt_id {
	PTP_MID_NULL_PTP_MANAGEMENT = 0x0000,
	PTP_MID_CLOCK_DESCRIPTION = 0x0001,
	PTP_MID_USER_DESCRIPTION = 0x0002,
	PTP_MID_SAVE_IN_NON_VOLATILE_STORAGE = 0x0003,
	PTP_MID_RESET_NON_VOLATILE_STORAGE = 0x0004,
	PTP_MID_INITIALIZE = 0x0005,
	PTP_MID_FAULT_LOG = 0x0006,
	PTP_MID_FAULT_LOG_RESET = 0x0007,
	PTP_MID_DEFAULT_DATA_SET = 0x2000,
	PTP_MID_CURRENT_DATA_SET = 0x2001,
	PTP_MID_PARENT_DATA_SET = 0x2002,
	PTP_MID_TIME_PROPERTIES_DATA_SET = 0x2003,
	PTP_MID_PORT_DATA_SET = 0x2004,
	PTP_MID_PRIORITY1 = 0x2005,
	PTP_MID_PRIORITY2 = 0x2006,
	PTP_MID_DOMAIN = 0x2007,
	PTP_MID_SLAVE_ONLY = 0x2008,
	PTP_MID_LOG_ANNOUNCE_INTERVAL = 0x2009,
	PTP_MID_ANNOUNCE_RECEIPT_TIMEOUT = 0x200A,
	PTP_MID_LOG_SYNC_INTERVAL = 0x200B,
	PTP_MID_VERSION_NUMBER = 0x200C,
	PTP_MID_ENABLE_PORT = 0x200D,
	PTP_MID_DISABLE_PORT = 0x200E,
	PTP_MID_TIME = 0x200F,
	PTP_MID_CLOCK_ACCURACY = 0x2010,
	PTP_MID_UTC_PROPERTIES = 0x2011,
	PTP_MID_TRACEABILITY_PROPERTIES = 0x2012,
	PTP_MID_TIMESCALE_PROPERTIES = 0x2013,
	PTP_MID_DELAY_MECHANISM = 0x6000,
	PTP_MID_LOG_MIN_PDELAY_REQ_INTERVAL = 0x6001,
};

/* managementErrorId, 15.5.4. */
enum ptp_mgmt_error_id {
	PTP_MERR_RESPONSE_TOO_BIG = 0x0001,
	PTP_MERR_NO_SUCH_ID = 0x0002,
	PTP_MERR_WRONG_LENGTH = 0x0003,
	PTP_MERR_WRONG_VALUE = 0x0004,
	PTP_MERR_NOT_SETABLE = 0x0005,
	PTP_MERR_NOT_SUPPORTED = 0x0006,
	PTP_MERR_UNPOPULATED = 0x0007,
	PTP_MERR_GENERAL_ERROR = 0xFFFE,
};

/* One TLV; value points into the buffer that was iterated. */
struct ptp_tlv {
	uint16_t type;
	uint16_t length;		/* octets at value */
	const uint8_t *value;
};

/* Iterator over a suffix.  Once it reports an error it keeps doing so. */
struct ptp_tlv_iter {
	const uint8_t *p;
	size_t left;
	int err;
};

void ptp_tlv_iter_init(struct ptp_tlv_iter *it, const uint8_t *suffix,
    size_t len);
/* Iterate the suffix of a parsed (or to-be-packed) message. */
void ptp_tlv_iter_msg(struct ptp_tlv_iter *it, const struct ptp_msg *m);
/*
 * Next TLV: 1 and *tlv filled, 0 at the clean end of the suffix, or a
 * negative enum ptp_err (PTP_E_TLV_OVERRUN, _ODD, _TRAILING).
 */
int ptp_tlv_next(struct ptp_tlv_iter *it, struct ptp_tlv *tlv);

/*
 * Check that suffix[0..len) is a whole number of TLVs; on success store
 * their number in *count (may be NULL).  0 or a negative enum ptp_err.
 */
int ptp_tlv_validate(const uint8_t *suffix, size_t len, unsigned int *count);

/*
 * Append one TLV to the packed message in buf[0..size): reads
 * messageLength from the header in buf, writes the TLV there, and updates
 * messageLength.  reserve leaves value_len zero octets and returns their
 * address in *value for the caller to fill.  value_len must be even
 * (PTP_E_TLV_ODD: add the pad octet yourself).  Return the new message
 * length or a negative enum ptp_err.
 */
int ptp_tlv_reserve(uint8_t *buf, size_t size, uint16_t type,
    size_t value_len, uint8_t **value);
int ptp_tlv_append(uint8_t *buf, size_t size, uint16_t type,
    const void *value, size_t value_len);

/* MANAGEMENT TLV, 15.5.2: managementId, then dataField. */
struct ptp_mgmt_tlv {
	uint16_t id;			/* enum ptp_mgmt_id */
	uint16_t data_len;
	const uint8_t *data;		/* NULL when data_len is 0 */
};

/* PTP_E_TLV_TYPE if not MANAGEMENT, PTP_E_TLV_SHORT if length < 2. */
int ptp_tlv_mgmt_parse(const struct ptp_tlv *tlv, struct ptp_mgmt_tlv *out);
/*
 * Append a MANAGEMENT TLV.  An odd data_len gets one zero pad octet so the
 * TLV stays even (15.5.3: data fields end on a pad to an even length).
 */
int ptp_tlv_append_mgmt(uint8_t *buf, size_t size, uint16_t id,
    const void *data, size_t data_len);

/*
 * MANAGEMENT_ERROR_STATUS TLV, 15.5.4: managementErrorId, managementId,
 * 4 reserved octets, optional displayData (PTPText: length octet + text),
 * then a pad octet if needed for an even length.
 */
struct ptp_mgmt_error {
	uint16_t error_id;		/* enum ptp_mgmt_error_id */
	uint16_t mgmt_id;
	uint8_t text_len;		/* 0 when displayData is absent */
	const uint8_t *text;		/* not NUL-terminated */
};

/*
 * PTP_E_TLV_TYPE, PTP_E_TLV_SHORT (length < 8), or PTP_E_TLV_TEXT when the
 * PTPText runs past the TLV or more than one pad octet follows it.
 */
int ptp_tlv_mgmt_error_parse(const struct ptp_tlv *tlv,
    struct ptp_mgmt_error *out);
/* Append one; text may be NULL (no displayData), text_len <= 255. */
int ptp_tlv_append_mgmt_error(uint8_t *buf, size_t size, uint16_t error_id,
    uint16_t mgmt_id, const char *text, size_t text_len);

/*
 * The management TLV of a parsed Management message (15.4.1: the first
 * TLV of the suffix, MANAGEMENT or MANAGEMENT_ERROR_STATUS).  0 or
 * PTP_E_MGMT_NO_TLV (also for a message of another type).
 */
int ptp_msg_mgmt_tlv(const struct ptp_msg *m, struct ptp_tlv *tlv);

/*
 * Unicast negotiation TLVs, 16.1.4.  Each value starts with an octet whose
 * high nibble is the messageType negotiated and whose low nibble is
 * reserved (REQUEST, GRANT) or flags (CANCEL, ACKNOWLEDGE_CANCEL).
 *  - REQUEST_UNICAST_TRANSMISSION (16.1.4.1): + logInterMessagePeriod
 *    (Integer8) + durationField (UInteger32, s): 6 octets.
 *  - GRANT_UNICAST_TRANSMISSION (16.1.4.2): the same + a reserved octet +
 *    an octet whose bit 0 is renewalInvited: 8 octets.  durationField 0
 *    is a refusal.
 *  - CANCEL_UNICAST_TRANSMISSION (16.1.4.3) and ACKNOWLEDGE_CANCEL_
 *    UNICAST_TRANSMISSION (16.1.4.4): + a reserved octet: 2 octets.
 * lengthField must be exactly that (PTP_E_TLV_LENGTH), and messageType
 * one of Announce, Sync, Delay_Resp or Pdelay_Resp, the only types that
 * can be negotiated (16.1.4.1; PTP_E_UNEG_MSG_TYPE).
 */
#define PTP_UNEG_REQUEST_LEN		6
#define PTP_UNEG_GRANT_LEN		8
#define PTP_UNEG_CANCEL_LEN		2
/* GRANT: renewalInvited, bit 0 of its last octet. */
#define PTP_UNEG_RENEWAL_INVITED	0x01
/* CANCEL / ACK_CANCEL low nibble (1588-2019 16.1.4.3, as linuxptp). */
#define PTP_UNEG_MAINTAIN_REQUEST	0x01
#define PTP_UNEG_MAINTAIN_GRANT		0x02

struct ptp_uneg_tlv {
	uint16_t type;			/* PTP_TLV_*_UNICAST_TRANSMISSION */
	uint8_t message_type;		/* enum ptp_msg_type */
	uint8_t flags;			/* CANCEL/ACK_CANCEL low nibble */
	int8_t log_period;		/* REQUEST, GRANT */
	uint32_t duration;		/* REQUEST, GRANT; s */
	uint8_t renewal_invited;	/* GRANT: 0 or 1 */
};

/* 1 for the four negotiation tlvTypes (0x0004-0x0007), else 0. */
int ptp_tlv_is_uneg(uint16_t type);
/* 1 when messageType t can be negotiated (16.1.4.1), else 0. */
int ptp_uneg_msg_type_valid(unsigned int t);
/*
 * Decode one negotiation TLV: PTP_E_TLV_TYPE (not one of the four),
 * PTP_E_TLV_LENGTH, PTP_E_UNEG_MSG_TYPE, or 0.
 */
int ptp_tlv_uneg_parse(const struct ptp_tlv *tlv, struct ptp_uneg_tlv *out);
/* Append one (u->type says which); the same checks as the parser. */
int ptp_tlv_append_uneg(uint8_t *buf, size_t size,
    const struct ptp_uneg_tlv *u);
/*
 * Check every negotiation TLV of a Signaling message (13.12): 0, or the
 * first TLV's error.  ptp_msg_parse() and ptp_msg_pack() call it.
 */
int ptp_msg_signaling_check(const struct ptp_msg *m);

#endif /* PTPSEP_PTP_TLV_H */
