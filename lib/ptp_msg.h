/*
 * ptp_msg.h - IEEE 1588-2019 (PTPv2.1) message codec: header and bodies.
 *
 * Parsing turns the bytes of one PTP message into host-order structs and
 * checks them strictly; every malformation has its own error code (enum
 * ptp_err, ptp_strerror()).  Packing writes a message into a caller buffer
 * and returns its length.  The code is pure: no I/O, no allocation.
 *
 * Choices where the standard leaves room (see also ptp_tlv.h):
 *  - Bytes beyond messageLength are ignored as padding.  A 44-octet Sync
 *    sent on Ethernet is padded to the 46-octet minimum payload, and a
 *    receiver sees those octets (linuxptp accepts them the same way).  The
 *    message itself is exactly messageLength octets, and messageLength must
 *    fit in the bytes given (PTP_E_TRUNCATED otherwise).
 *  - versionPTP must be 2; minorVersionPTP 0 (1588-2008) or 1 (1588-2019)
 *    (13.3.2.4, 13.3.2.3).  Other minor versions are refused, since their
 *    encoding is not known to this code.
 *  - Reserved fields are ignored on receipt and sent as zero (13.1), so a
 *    re-pack is byte-identical to the input except in reserved fields.
 *  - Octets between the end of the body and messageLength are the TLV
 *    suffix (13.4, 14.1), which 1588-2019 allows on every message type.
 *    It must be an exact sequence of well-formed TLVs (ptp_tlv.h).
 *  - In a Signaling message (13.12) every unicast negotiation TLV
 *    (16.1.4) must decode (ptp_tlv_uneg_parse()); other TLVs are skipped.
 */
#ifndef PTPSEP_PTP_MSG_H
#define PTPSEP_PTP_MSG_H

#include <stddef.h>
#include <stdint.h>

/* Errors: 0 is success, every failure a distinct negative value. */
enum ptp_err {
	PTP_E_OK = 0,
	PTP_E_HDR_SHORT = -1,		/* fewer bytes than the 34-octet header */
	PTP_E_VERSION = -2,		/* versionPTP != 2 */
	PTP_E_MINOR_VERSION = -3,	/* minorVersionPTP not 0 or 1 */
	PTP_E_MSG_TYPE = -4,		/* reserved messageType (Table 36) */
	PTP_E_LEN_SHORT = -5,		/* messageLength < minimum for the type */
	PTP_E_TRUNCATED = -6,		/* messageLength > bytes available */
	PTP_E_NSEC = -7,		/* Timestamp nanoseconds >= 10^9 */
	PTP_E_TLV_OVERRUN = -8,		/* TLV lengthField runs past the end */
	PTP_E_TLV_ODD = -9,		/* TLV lengthField odd (14.1) */
	PTP_E_TLV_TRAILING = -10,	/* 1-3 octets left, no room for a TLV */
	PTP_E_MGMT_ACTION = -11,	/* reserved actionField (15.4.1) */
	PTP_E_MGMT_NO_TLV = -12,	/* Management without management TLV */
	PTP_E_TLV_SHORT = -13,		/* TLV too short for its tlvType */
	PTP_E_TLV_TEXT = -14,		/* PTPText overruns or trails its TLV */
	PTP_E_TLV_TYPE = -15,		/* helper given a TLV of another type */
	PTP_E_NOSPACE = -16,		/* pack: output buffer too small */
	PTP_E_RANGE = -17,		/* pack: value does not fit its field */
	PTP_E_INVAL = -18,		/* bad argument (NULL, bad buffer) */
	PTP_E_TLV_LENGTH = -19,		/* lengthField wrong for the tlvType */
	PTP_E_UNEG_MSG_TYPE = -20,	/* messageType not negotiable (16.1) */
};

/* Printable text for an enum ptp_err value (any int is accepted). */
const char *ptp_strerror(int err);

/* messageType, 13.3.2.2 Table 36.  4-7, 0xE and 0xF are reserved. */
enum ptp_msg_type {
	PTP_MT_SYNC = 0x0,
	PTP_MT_DELAY_REQ = 0x1,
	PTP_MT_PDELAY_REQ = 0x2,
	PTP_MT_PDELAY_RESP = 0x3,
	PTP_MT_FOLLOW_UP = 0x8,
	PTP_MT_DELAY_RESP = 0x9,
	PTP_MT_PDELAY_RESP_FOLLOW_UP = 0xA,
	PTP_MT_ANNOUNCE = 0xB,
	PTP_MT_SIGNALING = 0xC,
	PTP_MT_MANAGEMENT = 0xD,
};

/*
 * flagField, 13.3.2.8 Table 37, as a host uint16_t whose high byte is
 * octet 0 and low byte octet 1 of the field.
 */
#define PTP_FLAG_ALTERNATE_MASTER	0x0100	/* alternateMasterFlag */
#define PTP_FLAG_TWO_STEP		0x0200	/* twoStepFlag */
#define PTP_FLAG_UNICAST		0x0400	/* unicastFlag */
#define PTP_FLAG_PROFILE_SPECIFIC_1	0x2000	/* PTP profile Specific 1 */
#define PTP_FLAG_PROFILE_SPECIFIC_2	0x4000	/* PTP profile Specific 2 */
#define PTP_FLAG_LEAP61			0x0001	/* leap61 */
#define PTP_FLAG_LEAP59			0x0002	/* leap59 */
#define PTP_FLAG_UTC_OFFSET_VALID	0x0004	/* currentUtcOffsetValid */
#define PTP_FLAG_PTP_TIMESCALE		0x0008	/* ptpTimescale */
#define PTP_FLAG_TIME_TRACEABLE		0x0010	/* timeTraceable */
#define PTP_FLAG_FREQ_TRACEABLE		0x0020	/* frequencyTraceable */
#define PTP_FLAG_SYNC_UNCERTAIN		0x0040	/* synchronizationUncertain */

#define PTP_VERSION		2	/* versionPTP, 13.3.2.4 */
#define PTP_MINOR_VERSION	1	/* minorVersionPTP of 1588-2019 */
#define PTP_HDR_LEN		34	/* 13.3.1 Table 35 */
#define PTP_TS_LEN		10	/* Timestamp, 5.3.3 */
#define PTP_PORT_ID_LEN		10	/* PortIdentity, 5.3.5 */
#define PTP_CLOCK_ID_LEN	8	/* ClockIdentity, 5.3.4 */
#define PTP_MAX_SEC		0xFFFFFFFFFFFFULL	/* UInteger48 */
#define PTP_NSEC_PER_SEC	1000000000U

/* Body lengths (header included), the minimum messageLength per type. */
#define PTP_SYNC_LEN		44	/* 13.6 */
#define PTP_DELAY_REQ_LEN	44	/* 13.6 */
#define PTP_FOLLOW_UP_LEN	44	/* 13.7 */
#define PTP_DELAY_RESP_LEN	54	/* 13.8 */
#define PTP_PDELAY_REQ_LEN	54	/* 13.9 */
#define PTP_PDELAY_RESP_LEN	54	/* 13.10 */
#define PTP_PDELAY_RESP_FUP_LEN	54	/* 13.11 */
#define PTP_ANNOUNCE_LEN	64	/* 13.5 */
#define PTP_SIGNALING_LEN	44	/* 13.12 */
#define PTP_MANAGEMENT_LEN	48	/* 15.4.1 */

/* Timestamp, 5.3.3: UInteger48 secondsField, UInteger32 nanosecondsField. */
struct ptp_timestamp {
	uint64_t sec;
	uint32_t nsec;
};

/* ClockIdentity (5.3.4) + portNumber: PortIdentity, 5.3.5. */
struct ptp_port_identity {
	uint8_t clock_identity[PTP_CLOCK_ID_LEN];
	uint16_t port_number;
};

/* ClockQuality, 5.3.7. */
struct ptp_clock_quality {
	uint8_t clock_class;
	uint8_t clock_accuracy;
	uint16_t offset_scaled_log_variance;
};

/* Common header, 13.3.1 Table 35. */
struct ptp_header {
	uint8_t major_sdo_id;		/* 4 bits, 13.3.2.1 */
	uint8_t message_type;		/* 4 bits, enum ptp_msg_type */
	uint8_t minor_version;		/* minorVersionPTP, 4 bits */
	uint8_t version;		/* versionPTP, 4 bits */
	uint16_t message_length;	/* parse: from the wire; pack: ignored */
	uint8_t domain_number;
	uint8_t minor_sdo_id;
	uint16_t flags;			/* PTP_FLAG_* */
	int64_t correction;		/* correctionField, ns * 2^16, 13.3.2.9 */
	uint32_t message_type_specific;	/* 13.3.2.10 */
	struct ptp_port_identity source_port_identity;
	uint16_t sequence_id;
	uint8_t control_field;		/* 13.3.2.13, kept for 1588-2008 */
	int8_t log_message_interval;
};

/* Announce body, 13.5. */
struct ptp_announce {
	struct ptp_timestamp origin_timestamp;
	int16_t current_utc_offset;
	uint8_t grandmaster_priority1;
	struct ptp_clock_quality grandmaster_clock_quality;
	uint8_t grandmaster_priority2;
	uint8_t grandmaster_identity[PTP_CLOCK_ID_LEN];
	uint16_t steps_removed;
	uint8_t time_source;
};

/* Sync and Delay_Req (13.6), Follow_Up (13.7): one Timestamp. */
struct ptp_sync {
	struct ptp_timestamp origin_timestamp;
};

struct ptp_delay_req {
	struct ptp_timestamp origin_timestamp;
};

struct ptp_follow_up {
	struct ptp_timestamp precise_origin_timestamp;
};

/* Delay_Resp, 13.8. */
struct ptp_delay_resp {
	struct ptp_timestamp receive_timestamp;
	struct ptp_port_identity requesting_port_identity;
};

/* Pdelay_Req, 13.9 (10 reserved octets follow the timestamp). */
struct ptp_pdelay_req {
	struct ptp_timestamp origin_timestamp;
};

/* Pdelay_Resp, 13.10. */
struct ptp_pdelay_resp {
	struct ptp_timestamp request_receipt_timestamp;
	struct ptp_port_identity requesting_port_identity;
};

/* Pdelay_Resp_Follow_Up, 13.11. */
struct ptp_pdelay_resp_fup {
	struct ptp_timestamp response_origin_timestamp;
	struct ptp_port_identity requesting_port_identity;
};

/* Signaling, 13.12: a target, then TLVs. */
struct ptp_signaling {
	struct ptp_port_identity target_port_identity;
};

/* actionField, 15.4.1. */
enum ptp_mgmt_action {
	PTP_MA_GET = 0,
	PTP_MA_SET = 1,
	PTP_MA_RESPONSE = 2,
	PTP_MA_COMMAND = 3,
	PTP_MA_ACKNOWLEDGE = 4,
};

/* Management message fields, 15.4.1 (then the management TLV). */
struct ptp_management {
	struct ptp_port_identity target_port_identity;
	uint8_t starting_boundary_hops;
	uint8_t boundary_hops;
	uint8_t action;			/* low nibble, enum ptp_mgmt_action */
};

/*
 * One message.  suffix points into the parsed buffer (parse) or at the
 * caller's TLV bytes to append verbatim (pack; may be NULL when
 * suffix_len is 0).  It is borrowed, never owned.
 */
struct ptp_msg {
	struct ptp_header hdr;
	union {
		struct ptp_announce announce;
		struct ptp_sync sync;
		struct ptp_delay_req delay_req;
		struct ptp_follow_up follow_up;
		struct ptp_delay_resp delay_resp;
		struct ptp_pdelay_req pdelay_req;
		struct ptp_pdelay_resp pdelay_resp;
		struct ptp_pdelay_resp_fup pdelay_resp_fup;
		struct ptp_signaling signaling;
		struct ptp_management management;
	} body;
	const uint8_t *suffix;
	size_t suffix_len;
	unsigned int tlv_count;		/* parse: TLVs in the suffix */
};

/* 1 if t is a messageType of Table 36, else 0. */
int ptp_msg_type_valid(unsigned int t);
/* Name of a messageType ("SYNC", ...), "RESERVED" for others. */
const char *ptp_msg_type_name(unsigned int t);
/* Minimum messageLength of a type (header + body), 0 if reserved. */
size_t ptp_msg_min_len(unsigned int t);
/* 1 for event messages (0x0-0x3, 13.3.2.2), 0 for general ones. */
int ptp_msg_is_event(unsigned int t);

/*
 * Parse and check only the common header of buf[0..len): version,
 * messageType, messageLength against the type's minimum and against len.
 * ptp_msg_parse() starts with it; netd's checks (netd/check.c) read the
 * few header fields they need themselves.
 */
int ptp_hdr_parse(struct ptp_header *h, const uint8_t *buf, size_t len);

/*
 * Parse one whole message (header, body, TLV suffix).  len may exceed
 * messageLength (padding, ignored).  Returns 0 or a negative enum ptp_err.
 * On success m->suffix points into buf; on failure *m holds whatever was
 * decoded before the error and must not be used.  A Management message
 * must start its suffix with a MANAGEMENT or MANAGEMENT_ERROR_STATUS TLV
 * that decodes (ptp_msg_mgmt_tlv()).
 */
int ptp_msg_parse(struct ptp_msg *m, const uint8_t *buf, size_t len);

/*
 * Pack m into buf[0..size): header, body for m->hdr.message_type, then
 * m->suffix verbatim (it must be well-formed TLVs).  messageLength is
 * computed, hdr.message_length is ignored.  Every value is checked as the
 * parser would, so a packed message always parses back to the same m.
 * Returns the message length or a negative enum ptp_err.
 */
int ptp_msg_pack(const struct ptp_msg *m, uint8_t *buf, size_t size);

/* Timestamp (5.3.3) at p, 10 octets; PTP_E_NSEC if nsec >= 10^9. */
int ptp_timestamp_parse(struct ptp_timestamp *ts, const uint8_t *p);
/* PTP_E_RANGE if sec > 2^48-1, PTP_E_NSEC if nsec >= 10^9. */
int ptp_timestamp_pack(const struct ptp_timestamp *ts, uint8_t *p);

void ptp_port_identity_parse(struct ptp_port_identity *pid, const uint8_t *p);
void ptp_port_identity_pack(const struct ptp_port_identity *pid, uint8_t *p);
int ptp_port_identity_equal(const struct ptp_port_identity *a,
    const struct ptp_port_identity *b);

void ptp_clock_quality_parse(struct ptp_clock_quality *q, const uint8_t *p);
void ptp_clock_quality_pack(const struct ptp_clock_quality *q, uint8_t *p);

/*
 * 1 if two messages carry the same values (header, the body of their type,
 * suffix bytes), else 0.  hdr.message_length and tlv_count are compared
 * too, so both should come from ptp_msg_parse().
 */
int ptp_msg_equal(const struct ptp_msg *a, const struct ptp_msg *b);

#endif /* PTPSEP_PTP_MSG_H */
