/*
 * ipc.c - one protobuf-c envelope per SOCK_SEQPACKET datagram.
 *
 * The descriptor of the envelope is passed in, so the netd envelope and the
 * two control envelopes share this code; see ipc.h for the contract.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "ipc.h"
#include "ipc_private.h"

/*
 * Under AddressSanitizer the arena below is poisoned while free, so a
 * message used after ipc_free() is reported as it would be on the heap.
 */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define IPC_POISON(p, n)	ASAN_POISON_MEMORY_REGION((p), (n))
#define IPC_UNPOISON(p, n)	ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define IPC_POISON(p, n)	((void)(p), (void)(n))
#define IPC_UNPOISON(p, n)	((void)(p), (void)(n))
#endif

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

/* Thread-local so that a later threaded user cannot see another's detail. */
static _Thread_local char ipc_detail_buf[256];

/* Writable copy: the generated Hello holds a char *, not a const char *. */
static char ipc_software_version[] = PACKAGE_VERSION;

/*
 * Decoding allocates from this per-thread arena instead of malloc: unpacking
 * an RxFrame took six malloc/free pairs (envelope, frame, timestamp,
 * address, two byte copies), for every frame.  The arena holds one decoded
 * message at a time; ipc_free() of that message makes it free again.  The
 * callers free a message before receiving the next, so in steady state
 * nothing touches the heap.  A second message decoded while the first is
 * still held, or one that needs more than the arena (a large control
 * response, or hostile input built to make protobuf-c allocate much: 16 KiB
 * of empty submessages), is unpacked again with malloc, as before.
 * An RxFrame or TxFrame with a 1500-octet payload (IPC_MAX_PTP_PAYLOAD)
 * needs under 2 KiB; test_ipc's full-MTU case checks that it still fits.
 * Keep the arena small: it is thread-local, and the C library clears the
 * whole static TLS block of every thread when the thread starts (glibc's
 * _dl_allocate_tls_init), so each of its pages is resident in every
 * process from the start whether a message ever touches it or not: at
 * 64 KiB it was 64 KiB of RssAnon in netd and again in clockd.
 */
#define IPC_ARENA_SIZE	(4 * 1024)

struct ipc_arena {
	size_t		used;
	int		busy;		/* holds the message *out of a decode */
	int		overflow;	/* the last unpack ran out of room */
	alignas(max_align_t) uint8_t buf[IPC_ARENA_SIZE];
};

static _Thread_local struct ipc_arena ipc_arena;

static void *
ipc_arena_alloc(void *data, size_t size)
{
	struct ipc_arena *a = data;
	size_t off = (a->used + alignof(max_align_t) - 1) &
	    ~(alignof(max_align_t) - 1);

	if (off > sizeof(a->buf) || size > sizeof(a->buf) - off) {
		a->overflow = 1;
		return NULL;
	}
	a->used = off + size;
	IPC_UNPOISON(a->buf + off, size);
	return a->buf + off;
}

/* Everything goes at once, when ipc_free() releases the message. */
static void
ipc_arena_free(void *data, void *p)
{
	(void)data;
	(void)p;
}

static int
ipc_arena_holds(const void *p)
{
	const uint8_t *b = p;

	return b >= ipc_arena.buf && b < ipc_arena.buf + sizeof(ipc_arena.buf);
}

/* protobuf_c_message_unpack, from the arena when it is free and suffices. */
static ProtobufCMessage *
ipc_unpack(const ProtobufCMessageDescriptor *desc, const uint8_t *buf,
    size_t len)
{
	ProtobufCAllocator arena = {
		.alloc = ipc_arena_alloc,
		.free = ipc_arena_free,
		.allocator_data = &ipc_arena,
	};
	ProtobufCMessage *m;

	if (!ipc_arena.busy) {
		ipc_arena.used = 0;
		ipc_arena.overflow = 0;
		m = protobuf_c_message_unpack(desc, &arena, len, buf);
		if (m != NULL) {
			ipc_arena.busy = 1;
			return m;
		}
		IPC_POISON(ipc_arena.buf, ipc_arena.used);
		if (!ipc_arena.overflow)
			return NULL;	/* bad input, not a lack of room */
	}
	/*
	 * NULL allocator: protobuf-c's default, malloc/free.  It returns NULL
	 * for a failed allocation as for bad input; both end the message.
	 */
	return protobuf_c_message_unpack(desc, NULL, len, buf);
}

void
ipc_set_detail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ipc_detail_buf, sizeof(ipc_detail_buf), fmt, ap);
	va_end(ap);
}

const char *
ipc_detail(void)
{
	return ipc_detail_buf;
}

const char *
ipc_strerror(int err)
{
	switch (err) {
	case IPC_OK:
		return "success";
	case IPC_E_SYS:
		return "system call failed";
	case IPC_E_AGAIN:
		return "would block";
	case IPC_E_EOF:
		return "peer closed the connection";
	case IPC_E_TOOBIG:
		return "message too large to send";
	case IPC_E_OVERSIZE:
		return "received datagram larger than the size cap";
	case IPC_E_TRUNCATED:
		return "received datagram truncated";
	case IPC_E_SHORT:
		return "datagram sent in part";
	case IPC_E_DECODE:
		return "undecodable message";
	case IPC_E_EMPTY:
		return "message with no known body";
	case IPC_E_INVALID:
		return "message breaks a structural limit";
	case IPC_E_VERSION:
		return "protocol version mismatch";
	case IPC_E_ROLE:
		return "unexpected peer role";
	}
	return "unknown ipc error";
}

uint32_t
ipc_envelope_case(const ProtobufCMessage *m)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	const ProtobufCFieldDescriptor *f;
	const void *member;
	uint32_t c;
	unsigned i;

	/*
	 * An envelope is a message whose fields are all members of one oneof;
	 * its case word sits at the quantifier_offset of any member.
	 */
	for (i = 0; i < d->n_fields; i++) {
		f = &d->fields[i];
		if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) == 0)
			continue;
		memcpy(&c, (const char *)m + f->quantifier_offset, sizeof(c));
		if (c != f->id)
			continue;
		/* A sender may set the case but leave the member NULL. */
		member = (const char *)m + f->offset;
		if (f->type == PROTOBUF_C_TYPE_MESSAGE &&
		    *(const void *const *)member == NULL)
			return 0;
		return c;
	}
	return 0;
}

int
ipc_encode(const ProtobufCMessage *m, uint8_t *buf, size_t cap, size_t *len)
{
	size_t size;

	*len = 0;
	if (ipc_envelope_case(m) == 0) {
		ipc_set_detail("%s: no body set", m->descriptor->short_name);
		return IPC_E_EMPTY;
	}
	/*
	 * No ipc_check() here: the receiver runs it on every datagram, and
	 * the sender is this same library (ipc.h).
	 */
	size = protobuf_c_message_get_packed_size(m);
	if (size > IPC_MAX_MSG || size > cap) {
		ipc_set_detail("%s: %zu bytes packed, cap %zu",
		    m->descriptor->short_name, size,
		    cap < IPC_MAX_MSG ? cap : (size_t)IPC_MAX_MSG);
		return IPC_E_TOOBIG;
	}
	*len = protobuf_c_message_pack(m, buf);
	return IPC_OK;
}

int
ipc_send(int fd, const ProtobufCMessage *m)
{
	uint8_t buf[IPC_MAX_MSG];
	size_t len;
	int rc;

	if ((rc = ipc_encode(m, buf, sizeof(buf), &len)) != IPC_OK)
		return rc;
	return ipc_send_packed(fd, buf, len);
}

int
ipc_send_packed(int fd, const uint8_t *buf, size_t len)
{
	ssize_t n;

	if (len == 0 || len > IPC_MAX_MSG) {
		ipc_set_detail("send: %zu bytes, want 1..%d", len,
		    IPC_MAX_MSG);
		return IPC_E_TOOBIG;
	}
	/* MSG_NOSIGNAL: a vanished peer is an error return, not SIGPIPE. */
	do {
		n = send(fd, buf, len, MSG_NOSIGNAL | MSG_EOR);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		ipc_set_detail("send: %s", strerror(errno));
		return (errno == EAGAIN || errno == EWOULDBLOCK) ?
		    IPC_E_AGAIN : IPC_E_SYS;
	}
	if ((size_t)n != len) {
		/* SEQPACKET is all or nothing; anything else is not ours. */
		ipc_set_detail("send: %zd of %zu bytes", n, len);
		return IPC_E_SHORT;
	}
	return IPC_OK;
}

int
ipc_decode(const ProtobufCMessageDescriptor *desc, const uint8_t *buf,
    size_t len, ProtobufCMessage **out)
{
	ProtobufCMessage *m;
	int rc;

	*out = NULL;
	if (len > IPC_MAX_MSG) {
		ipc_set_detail("%s: %zu bytes, cap %d", desc->short_name, len,
		    IPC_MAX_MSG);
		return IPC_E_OVERSIZE;
	}
	if ((m = ipc_unpack(desc, buf, len)) == NULL) {
		ipc_set_detail("%s: %zu bytes do not unpack", desc->short_name,
		    len);
		return IPC_E_DECODE;
	}
	/* An unknown field number lands here too: a newer peer's body. */
	if (ipc_envelope_case(m) == 0) {
		ipc_set_detail("%s: no known body in %zu bytes",
		    desc->short_name, len);
		ipc_free(m);
		return IPC_E_EMPTY;
	}
	if ((rc = ipc_check(m)) != IPC_OK) {
		ipc_free(m);
		return rc;
	}
	*out = m;
	return IPC_OK;
}

int
ipc_recv(int fd, const ProtobufCMessageDescriptor *desc,
    ProtobufCMessage **out)
{
	/* One spare byte, so that a datagram of cap + 1 is seen as oversize. */
	uint8_t buf[IPC_MAX_MSG + 1];
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	*out = NULL;
	/*
	 * MSG_TRUNC makes recvmsg return the datagram's real length; the
	 * kernel discards the rest of a SEQPACKET record either way, so the
	 * next recv starts at the next message.
	 */
	do {
		n = recvmsg(fd, &mh, MSG_TRUNC);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		ipc_set_detail("recvmsg: %s", strerror(errno));
		return (errno == EAGAIN || errno == EWOULDBLOCK) ?
		    IPC_E_AGAIN : IPC_E_SYS;
	}
	/*
	 * 0 is end of file.  A 0-byte datagram reads the same; no conforming
	 * peer sends one (an empty envelope is refused by ipc_encode), so
	 * ending the connection is the right answer to it too.
	 */
	if (n == 0) {
		ipc_set_detail("%s: end of file", desc->short_name);
		return IPC_E_EOF;
	}
	if ((size_t)n > IPC_MAX_MSG) {
		ipc_set_detail("%s: datagram of %zd bytes, cap %d",
		    desc->short_name, n, IPC_MAX_MSG);
		return IPC_E_OVERSIZE;
	}
	/*
	 * We pass no control buffer: MSG_CTRUNC means the peer sent ancillary
	 * data (file descriptors, credentials), which this protocol never
	 * carries.  The kernel has closed any descriptors it could not hand
	 * over.
	 */
	if (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
		ipc_set_detail("%s: datagram of %zd bytes with %s",
		    desc->short_name, n, (mh.msg_flags & MSG_CTRUNC) ?
		    "ancillary data" : "truncated data");
		return IPC_E_TRUNCATED;
	}
	return ipc_decode(desc, buf, (size_t)n, out);
}

void
ipc_free(ProtobufCMessage *m)
{
	if (m == NULL)
		return;
	if (ipc_arena_holds(m)) {
		IPC_POISON(ipc_arena.buf, ipc_arena.used);
		ipc_arena.busy = 0;
	}
	else
		protobuf_c_message_free_unpacked(m, NULL);
}

void
ipc_hello_init(Ptpsep__Hello *h, Ptpsep__Role role)
{
	ptpsep__hello__init(h);
	h->protocol_version = IPC_PROTOCOL_VERSION;
	h->role = role;
	h->software_version = ipc_software_version;
}

static const char *
ipc_role_name(int role)
{
	const ProtobufCEnumValue *v;

	v = protobuf_c_enum_descriptor_get_value(&ptpsep__role__descriptor,
	    role);
	return v != NULL ? v->name : "ROLE_?";
}

int
ipc_hello_check(const Ptpsep__Hello *h, Ptpsep__Role expect)
{
	const char *sw = h->software_version != NULL &&
	    h->software_version[0] != '\0' ? h->software_version : "?";

	/* The version first: another version may number its roles otherwise. */
	if (h->protocol_version != IPC_PROTOCOL_VERSION) {
		ipc_set_detail("peer (%s, software %s) speaks protocol version "
		    "%u, this side speaks version %u: run matching versions "
		    "of ptp-netd, ptp-clockd and ptpctl",
		    ipc_role_name(h->role), sw, h->protocol_version,
		    IPC_PROTOCOL_VERSION);
		return IPC_E_VERSION;
	}
	if (h->role == PTPSEP__ROLE__ROLE_UNSPECIFIED ||
	    protobuf_c_enum_descriptor_get_value(&ptpsep__role__descriptor,
	    h->role) == NULL ||
	    (expect != PTPSEP__ROLE__ROLE_UNSPECIFIED && h->role != expect)) {
		ipc_set_detail("peer (software %s) says it is %s (%d), "
		    "expected %s", sw, ipc_role_name(h->role), (int)h->role,
		    expect != PTPSEP__ROLE__ROLE_UNSPECIFIED ?
		    ipc_role_name(expect) : "any known role");
		return IPC_E_ROLE;
	}
	return IPC_OK;
}

void
ipc_error_init(Ptpsep__Error *e, Ptpsep__ErrorCode code, const char *msg)
{
	ptpsep__error__init(e);
	e->code = code;
	/* Packing only reads it; the generated struct lacks the const. */
	e->message = (char *)(uintptr_t)msg;
}

/* ---- NetdBatch around packed members ---- */

#define IPC_TAG_NETD_BATCH	((10u << 3) | 2u)	/* NetdMsg.batch */
#define IPC_TAG_BATCH_MSGS	((1u << 3) | 2u)	/* NetdBatch.msgs */

/* A protobuf varint's length, and the varint itself at p. */
static size_t
ipc_varint_len(size_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static uint8_t *
ipc_put_varint(uint8_t *p, size_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

size_t
ipc_netd_batch_pack(const uint8_t *const *m, const size_t *len, unsigned n,
    uint8_t *out, size_t cap)
{
	size_t inner = 0, total;
	uint8_t *p = out;
	unsigned i;

	if (cap > IPC_MAX_MSG)
		cap = IPC_MAX_MSG;
	if (n == 0 || n > IPC_BATCH_MAX)
		return 0;
	if (n == 1) {
		/* One message goes as itself, not as a batch of one. */
		if (len[0] > cap)
			return 0;
		memcpy(out, m[0], len[0]);
		return len[0];
	}
	for (i = 0; i < n; i++)
		inner += 1 + ipc_varint_len(len[i]) + len[i];
	total = 1 + ipc_varint_len(inner) + inner;
	if (total > cap)
		return 0;
	*p++ = IPC_TAG_NETD_BATCH;
	p = ipc_put_varint(p, inner);
	for (i = 0; i < n; i++) {
		*p++ = IPC_TAG_BATCH_MSGS;
		p = ipc_put_varint(p, len[i]);
		memcpy(p, m[i], len[i]);
		p += len[i];
	}
	return (size_t)(p - out);
}
