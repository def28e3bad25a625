/*
 * ipc.h - framing of the interprocess protocol (the schema is in proto/).
 *
 * Every channel (clockd <-> netd, ptpctl <-> each daemon) is a SOCK_SEQPACKET
 * Unix socket carrying exactly one packed protobuf-c envelope per datagram:
 * Ptpsep__Netd__NetdMsg both ways on the netd channel, Ptpsep__Ctl__CtlRequest
 * and Ptpsep__Ctl__CtlResponse on a control channel.  SEQPACKET keeps record
 * boundaries, so there is no length prefix to get wrong, and a peer that
 * closes is seen as end of file.
 *
 * One generic core (ipc_send, ipc_recv, ipc_decode) serves every envelope
 * through its ProtobufCMessageDescriptor; the typed wrappers below only
 * cast.  Every received message passes three gates before the caller sees
 * it: protobuf-c unpack (IPC_E_DECODE), a oneof member set (IPC_E_EMPTY) and
 * the structural limits of ipc_check() (IPC_E_INVALID).  The sender only
 * refuses an envelope with no body and one over the size cap: every channel
 * has lib/ipc at both ends, so walking the sender's own message as well
 * checked everything twice for nothing (issue 13).  Tests call ipc_check()
 * on what they build; a hostile or buggy peer is the receiver's to refuse.
 *
 * Functions return IPC_OK (0) or a negative enum ipc_error; ipc_strerror()
 * names it and ipc_detail() says what exactly failed in the last call of
 * this thread that returned an error.
 */
#ifndef PTPSEP_IPC_H
#define PTPSEP_IPC_H

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#include "common.pb-c.h"
#include "netd.pb-c.h"
#include "ctl.pb-c.h"

/*
 * Bumped on every change an older peer would misunderstand: a field or
 * message removed or given another meaning, a new message the receiver must
 * act on.  Peers must match exactly (see proto/README.md).
 */
#define IPC_PROTOCOL_VERSION	2u

/*
 * Hard cap on one packed envelope, both ways.  The netd channel needs about
 * 1.6 KiB at most (a 1500-octet PTP payload plus its RxFrame fields); the
 * largest messages are the control responses listing every port, and
 * test_ipc's worst-case test proves that NetdInfo, Status and Ports for
 * IPC_MAX_PORTS ports with every field at its maximum fit.  16 KiB is still
 * a cheap stack buffer, far below the default Unix socket send buffer (so a
 * send never fails with EMSGSIZE), and bounds what protobuf-c allocates
 * while unpacking hostile input.
 */
#define IPC_MAX_MSG		16384

/*
 * Structural limits ipc_check() applies to every message; the semantic
 * checks of a particular request (is this port index configured?) belong to
 * its receiver.
 */
#define IPC_MAX_PTP_PAYLOAD	1500	/* Ethernet MTU: netd never fragments */
#define IPC_MIN_PTP_PAYLOAD	34	/* the PTP common header (13.3) */
#define IPC_MAX_PORTS		32	/* repeated fields named "ports" */
#define IPC_MAX_ADDRS		4	/* Port.addresses */
#define IPC_MAX_FOREIGN		64	/* ForeignMasters.masters */
#define IPC_MAX_REPEATED	16	/* any other repeated field */
#define IPC_BATCH_MAX		32	/* NetdBatch.msgs */
#define IPC_MAX_TEXT		255	/* any string, printable, no newline */
#define IPC_MAX_IFNAME		15	/* IFNAMSIZ - 1 */
#define IPC_CLOCK_IDENTITY_LEN	8	/* IEEE 1588-2019 5.3.4 */
#define IPC_MAC_LEN		6

enum ipc_error {
	IPC_OK = 0,
	IPC_E_SYS = -1,		/* system call failed; errno says why */
	IPC_E_AGAIN = -2,	/* non-blocking socket not ready (EAGAIN) */
	IPC_E_EOF = -3,		/* peer closed (or sent a 0-byte datagram) */
	IPC_E_TOOBIG = -4,	/* send: packed message larger than IPC_MAX_MSG */
	IPC_E_OVERSIZE = -5,	/* recv: datagram larger than IPC_MAX_MSG */
	IPC_E_TRUNCATED = -6,	/* recv: kernel truncated data or control */
	IPC_E_SHORT = -7,	/* send: kernel took part of a datagram */
	IPC_E_DECODE = -8,	/* not a valid packed envelope */
	IPC_E_EMPTY = -9,	/* envelope with no (known) oneof member set */
	IPC_E_INVALID = -10,	/* breaks a structural limit (ipc_check) */
	IPC_E_VERSION = -11,	/* Hello with another protocol version */
	IPC_E_ROLE = -12,	/* Hello from an unexpected kind of peer */
};

const char *ipc_strerror(int err);

/* What the last failing ipc_ call of this thread found; "" if nothing. */
const char *ipc_detail(void);

/* ---- generic core ---- */

/*
 * Packs m into a stack buffer (ipc_encode) and sends it as one datagram
 * with MSG_NOSIGNAL | MSG_EOR.  EINTR is retried.
 */
int ipc_send(int fd, const ProtobufCMessage *m);

/*
 * Sends len bytes (1..IPC_MAX_MSG) already packed, as ipc_send sends: for
 * a sender that builds the datagram around packed parts (netd/outq.c).
 */
int ipc_send_packed(int fd, const uint8_t *buf, size_t len);

/*
 * Receives one datagram and decodes it as an envelope of type desc.  On
 * IPC_OK *out is a message to release with ipc_free(); on error *out is
 * NULL and the offending datagram has been consumed, so the socket stays
 * usable (whether to keep talking to such a peer is the caller's policy).
 */
int ipc_recv(int fd, const ProtobufCMessageDescriptor *desc,
    ProtobufCMessage **out);

/* Pure: unpack + oneof set + ipc_check, as ipc_recv does after recvmsg. */
int ipc_decode(const ProtobufCMessageDescriptor *desc, const uint8_t *buf,
    size_t len, ProtobufCMessage **out);

/*
 * Pure: refuses an envelope with no body (IPC_E_EMPTY) or one that packs
 * larger than cap or IPC_MAX_MSG (IPC_E_TOOBIG), else packs it into buf;
 * *len gets the size.  No ipc_check(): see the top of this file.
 */
int ipc_encode(const ProtobufCMessage *m, uint8_t *buf, size_t cap,
    size_t *len);

void ipc_free(ProtobufCMessage *m);

/* The field number of the envelope's set oneof member, 0 if none. */
uint32_t ipc_envelope_case(const ProtobufCMessage *m);

/*
 * Structural limits, recursively over m (ipc_check.c): enum values known,
 * doubles finite, Timestamp.nanoseconds < 1e9, strings <= IPC_MAX_TEXT and
 * printable, "iface" <= IPC_MAX_IFNAME, bytes "*identity" empty or 8 octets,
 * "mac" empty or 6, "payload" empty or within the PTP payload bounds,
 * Address.addr of its family's length, repeated fields within their caps.
 * Returns IPC_OK or IPC_E_INVALID (ipc_detail() names the field).
 */
int ipc_check(const ProtobufCMessage *m);

/*
 * Pure: puts n (1..IPC_BATCH_MAX) NetdMsg already packed (m[i], len[i]
 * octets) into one datagram at out: one as itself, two or more as one
 * NetdBatch.  An embedded message is its packed octets behind a tag and
 * a length, so the result is what protobuf_c_message_pack() makes of the
 * NetdMsg holding them, without unpacking or copying each twice (netd's
 * out-queue and clockd's outbox both build theirs so; doc/design.md,
 * "Batches").  Returns its length, or 0 when n is out of range or it does
 * not fit cap (nor IPC_MAX_MSG).
 */
size_t ipc_netd_batch_pack(const uint8_t *const *m, const size_t *len,
    unsigned n, uint8_t *out, size_t cap);

/* ---- typed wrappers: the three envelopes ---- */

static inline int
ipc_send_netd(int fd, const Ptpsep__Netd__NetdMsg *m)
{
	return ipc_send(fd, &m->base);
}

static inline int
ipc_recv_netd(int fd, Ptpsep__Netd__NetdMsg **out)
{
	ProtobufCMessage *m;
	int rc = ipc_recv(fd, &ptpsep__netd__netd_msg__descriptor, &m);

	/* Through a ProtobufCMessage * so that no pointer is type-punned. */
	*out = (Ptpsep__Netd__NetdMsg *)m;
	return rc;
}

static inline int
ipc_send_ctl_request(int fd, const Ptpsep__Ctl__CtlRequest *m)
{
	return ipc_send(fd, &m->base);
}

static inline int
ipc_recv_ctl_request(int fd, Ptpsep__Ctl__CtlRequest **out)
{
	ProtobufCMessage *m;
	int rc = ipc_recv(fd, &ptpsep__ctl__ctl_request__descriptor, &m);

	/* Through a ProtobufCMessage * so that no pointer is type-punned. */
	*out = (Ptpsep__Ctl__CtlRequest *)m;
	return rc;
}

static inline int
ipc_send_ctl_response(int fd, const Ptpsep__Ctl__CtlResponse *m)
{
	return ipc_send(fd, &m->base);
}

static inline int
ipc_recv_ctl_response(int fd, Ptpsep__Ctl__CtlResponse **out)
{
	ProtobufCMessage *m;
	int rc = ipc_recv(fd, &ptpsep__ctl__ctl_response__descriptor, &m);

	/* Through a ProtobufCMessage * so that no pointer is type-punned. */
	*out = (Ptpsep__Ctl__CtlResponse *)m;
	return rc;
}

/* ---- Hello and Error ---- */

/*
 * Fills h with our protocol version, role and PACKAGE_VERSION.  h borrows a
 * static string; nothing to free.
 */
void ipc_hello_init(Ptpsep__Hello *h, Ptpsep__Role role);

/*
 * Checks the peer's Hello: IPC_E_VERSION when its protocol version is not
 * ours, IPC_E_ROLE when its role is not expect (ROLE_UNSPECIFIED accepts
 * any known role).  ipc_detail() then holds a sentence fit for the log and
 * for the Error sent back before closing.
 */
int ipc_hello_check(const Ptpsep__Hello *h, Ptpsep__Role expect);

/* Fills e; e borrows msg. */
void ipc_error_init(Ptpsep__Error *e, Ptpsep__ErrorCode code,
    const char *msg);

#endif /* PTPSEP_IPC_H */
