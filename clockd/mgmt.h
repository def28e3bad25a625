/*
 * mgmt.h - the PTP management protocol of ptp-clockd (IEEE 1588-2019
 * clause 15): what a Management message asks of this clock, and the
 * Management messages that answer it.
 *
 * Pure: mgmt_process() gets the bytes of one message, the clock's state
 * and where the message came from, and hands each response it builds to a
 * callback.  It performs no I/O and changes nothing: a SET that is granted
 * comes back as a mgmt_set for the caller to apply through clock.c's
 * setters.  The I/O (the pmc socket, the network replies and forwarding)
 * is pmcsock.c.
 *
 * Served (GET, unless said otherwise), with the layouts of 15.5.3 and, for
 * the _NP ids, of linuxptp's tlv.h:
 *   clock: DEFAULT_DATA_SET, CURRENT_DATA_SET, PARENT_DATA_SET,
 *          TIME_PROPERTIES_DATA_SET, USER_DESCRIPTION, PRIORITY1 (GET,
 *          SET), PRIORITY2 (GET, SET), DOMAIN, TIME_STATUS_NP (0xC000),
 *          NULL_PTP_MANAGEMENT (GET, SET, COMMAND);
 *   port:  PORT_DATA_SET, PORT_DATA_SET_NP (0xC002), CLOCK_DESCRIPTION.
 * Everything else gets a MANAGEMENT_ERROR_STATUS TLV (15.5.4):
 *   NO_SUCH_ID     managementId this code does not know;
 *   NOT_SUPPORTED  known but not served, COMMAND other than of
 *                  NULL_PTP_MANAGEMENT, SET of a settable id not served,
 *                  and a SET the sender may not make (as ptp4l does for
 *                  SET from any port but its read-write UDS port);
 *   NOT_SETABLE    SET of an id the standard defines as GET-only;
 *   WRONG_LENGTH   a dataField of a length the id does not have (GET: empty
 *                  or the response's length, which pmc sends; SET: exact);
 *   WRONG_VALUE    a port-level id for a port that does not exist.
 * Dropped without an answer: anything that does not parse (ptp_msg.h),
 * another domain, a target clockIdentity neither ours nor all ones,
 * RESPONSE and ACKNOWLEDGE (they are answers, not requests), a first TLV
 * that is an error status, and more than one TLV.
 */
#ifndef PTPSEP_CLOCKD_MGMT_H
#define PTPSEP_CLOCKD_MGMT_H

#include <stddef.h>
#include <stdint.h>

#include "ptp_msg.h"

struct clockd;

/* Room for the largest response (CLOCK_DESCRIPTION with three PTPTexts). */
#define MGMT_MSG_MAX		1024

/* targetPortIdentity.portNumber addressing every port. */
#define MGMT_ALL_PORTS		0xFFFF

/* Where a request came from. */
struct mgmt_src {
	/*
	 * Index of the port it arrived on, or -1 for the local pmc socket.
	 * Clock-level responses carry the ingress port's identity as their
	 * sourcePortIdentity; the pmc socket is port 0 of the clock, as
	 * ptp4l's UDS port is.
	 */
	int		ingress;
	int		may_set;	/* SET allowed for this sender */
};

/* A granted SET, to apply after the responses (clock_set_priority1/2). */
enum mgmt_set_what {
	MGMT_SET_NONE = 0,
	MGMT_SET_PRIORITY1,
	MGMT_SET_PRIORITY2,
};

struct mgmt_set {
	enum mgmt_set_what	what;
	uint8_t			value;
};

/* One response, the PTP payload to send.  Returns 0 to go on, non-zero
 * to stop. */
typedef int (*mgmt_emit_fn)(void *arg, const uint8_t *msg, size_t len);

/*
 * Processes one received message buf[0..len).  Calls emit for every
 * response (none, one, or one per port for an all-ports GET of a port
 * dataset).  *set (may be NULL) receives a granted SET.  Returns the number
 * of responses, or a negative enum ptp_err when the message was dropped as
 * malformed; dropping for a reason of 15.3 (not for us, not a request)
 * returns 0.
 */
int	mgmt_process(const struct clockd *c, const uint8_t *buf, size_t len,
	    const struct mgmt_src *src, mgmt_emit_fn emit, void *arg,
	    struct mgmt_set *set);

/*
 * Boundary clocks, 15.3.3: a copy of the request to send out the other
 * ports, boundaryHops decremented; its length, or 0 when it is not to be
 * forwarded (boundaryHops 0, malformed, not Management).  out has room for
 * len octets.
 */
size_t	mgmt_forward_copy(const uint8_t *buf, size_t len, uint8_t *out);

/* 1 if a port in this state takes part in forwarding (as ptp4l). */
int	mgmt_port_forwards(int fsm_state);

/* Name of a managementId ("CURRENT_DATA_SET"), "UNKNOWN" otherwise. */
const char *mgmt_id_name(uint16_t id);

/* Value lengths of the fixed-size dataFields served (for the tests). */
#define MGMT_LEN_DEFAULT_DS		20
#define MGMT_LEN_CURRENT_DS		18
#define MGMT_LEN_PARENT_DS		32
#define MGMT_LEN_TIME_PROPERTIES_DS	4
#define MGMT_LEN_PORT_DS		26
#define MGMT_LEN_PRIORITY		2
#define MGMT_LEN_DOMAIN			2
#define MGMT_LEN_TIME_STATUS_NP		50
#define MGMT_LEN_PORT_DS_NP		8

/* linuxptp's implementation-specific ids (its tlv.h). */
#define MGMT_MID_TIME_STATUS_NP		0xC000
#define MGMT_MID_PORT_DATA_SET_NP	0xC002

#endif /* PTPSEP_CLOCKD_MGMT_H */
