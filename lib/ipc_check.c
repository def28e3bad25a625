/*
 * ipc_check.c - structural limits that hold for every message of the
 * interprocess protocol, checked by walking protobuf-c's descriptors.
 *
 * Walking descriptors instead of writing a checker per message means a
 * field added to the schema is covered the day it is added: its enum values,
 * string length and repeated count are limited without new code.  The few
 * rules that depend on meaning are keyed by field name, a naming convention
 * recorded in proto/README.md; a bytes field that matches no rule is
 * refused, so a new one cannot slip through unbounded.
 *
 * Semantic checks of one request (is the port index configured, is this
 * unicast address learned) are the receiver's, not this file's.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ipc.h"
#include "ipc_private.h"

/*
 * The schema nests 6 deep at most, 8 through a NetdBatch (which holds no
 * batch); a bound keeps the recursion honest.
 */
#define IPC_MAX_DEPTH	12

/*
 * Where the walk is, as a chain of frames on the stack: the message's
 * short name at the root, then a field name and, for an element of a
 * repeated field, its index.  The text ("NetdMsg.rx_frame.rx_ts") is
 * rendered only when a check fails: formatting it for every field visited
 * cost most of what checking a valid message did.
 */
struct ipc_path {
	const struct ipc_path	*up;
	const char		*name;
	long			 idx;		/* -1: not an element */
};

static size_t
path_render(const struct ipc_path *p, char *buf, size_t cap)
{
	size_t n = 0;
	int w;

	if (p->up != NULL)
		n = path_render(p->up, buf, cap);
	if (n >= cap)
		return n;
	if (p->idx >= 0)
		w = snprintf(buf + n, cap - n, "%s%s[%ld]",
		    p->up != NULL ? "." : "", p->name, p->idx);
	else
		w = snprintf(buf + n, cap - n, "%s%s",
		    p->up != NULL ? "." : "", p->name);
	return w < 0 ? n : n + (size_t)w;
}

/* ipc_set_detail("PATH: " fmt, ...), the path rendered only now. */
static void fail(const struct ipc_path *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
fail(const struct ipc_path *p, const char *fmt, ...)
{
	char path[192], what[192];
	va_list ap;

	path[0] = '\0';
	(void)path_render(p, path, sizeof(path));
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	ipc_set_detail("%s: %s", path, what);
}

/* Reads a pointer stored at p; memcpy because p carries no alignment. */
static const void *
load_ptr(const void *p)
{
	const void *v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

static size_t
repeated_cap(const char *name)
{
	if (strcmp(name, "ports") == 0)
		return IPC_MAX_PORTS;
	if (strcmp(name, "addresses") == 0)
		return IPC_MAX_ADDRS;
	if (strcmp(name, "masters") == 0)
		return IPC_MAX_FOREIGN;
	if (strcmp(name, "msgs") == 0)
		return IPC_BATCH_MAX;	/* check_batch() says so first */
	return IPC_MAX_REPEATED;
}

static int
check_string(const struct ipc_path *path, const char *name, const char *s)
{
	size_t len, i;

	if (s == NULL)
		return IPC_OK;
	len = strnlen(s, IPC_MAX_TEXT + 1);
	if (len > IPC_MAX_TEXT) {
		fail(path, "string longer than %d", IPC_MAX_TEXT);
		return IPC_E_INVALID;
	}
	/*
	 * Printable ASCII only: these strings end up in logs and in ptpctl's
	 * JSON, and a newline from a hostile peer must not forge a log line.
	 */
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c > 0x7e) {
			fail(path, "byte 0x%02x at %zu is not printable "
			    "ASCII", c, i);
			return IPC_E_INVALID;
		}
	}
	if (strcmp(name, "iface") == 0 &&
	    (len > IPC_MAX_IFNAME || strchr(s, '/') != NULL ||
	    strchr(s, ' ') != NULL)) {
		fail(path, "\"%s\" is not an interface name", s);
		return IPC_E_INVALID;
	}
	return IPC_OK;
}

static int
check_bytes(const struct ipc_path *path, const char *name, const ProtobufCBinaryData *b)
{
	size_t lo, hi;

	/* Empty means unset in proto3; the receiver decides if it may be. */
	if (b->len == 0)
		return IPC_OK;
	if (b->data == NULL) {
		fail(path, "%zu bytes at NULL", b->len);
		return IPC_E_INVALID;
	}
	if (ends_with(name, "identity")) {
		lo = hi = IPC_CLOCK_IDENTITY_LEN;
	} else if (strcmp(name, "mac") == 0) {
		lo = hi = IPC_MAC_LEN;
	} else if (strcmp(name, "payload") == 0 ||
	    strcmp(name, "follow_up") == 0) {
		/* a PTP message; netd's check.c bounds a follow_up closer */
		lo = IPC_MIN_PTP_PAYLOAD;
		hi = IPC_MAX_PTP_PAYLOAD;
	} else if (strcmp(name, "addr") == 0) {
		lo = 1;		/* exact length per family: check_address() */
		hi = 16;
	} else {
		fail(path, "bytes field without a length rule");
		return IPC_E_INVALID;
	}
	if (b->len < lo || b->len > hi) {
		fail(path, "%zu bytes, want %zu..%zu", b->len, lo,
		    hi);
		return IPC_E_INVALID;
	}
	return IPC_OK;
}

static int
check_address(const struct ipc_path *path, const Ptpsep__Netd__Address *a)
{
	size_t want;

	switch (a->family) {
	case PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_MAC:
		want = IPC_MAC_LEN;
		break;
	case PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV4:
		want = 4;
		break;
	case PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV6:
		want = 16;
		break;
	default:
		/* A present Address must say what it is. */
		fail(path, "address family not set");
		return IPC_E_INVALID;
	}
	if (a->addr.len != want) {
		fail(path, "%zu address bytes for family %d, want %zu",
		    a->addr.len, (int)a->family, want);
		return IPC_E_INVALID;
	}
	return IPC_OK;
}

/* Checks that only make sense for one message type. */
static int
check_type(const struct ipc_path *path, const ProtobufCMessage *m)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;

	if (d == &ptpsep__timestamp__descriptor) {
		const Ptpsep__Timestamp *t = (const Ptpsep__Timestamp *)m;

		if (t->nanoseconds >= 1000000000u) {
			fail(path, "nanoseconds %u >= 1e9",
			    t->nanoseconds);
			return IPC_E_INVALID;
		}
	} else if (d == &ptpsep__netd__address__descriptor) {
		return check_address(path, (const Ptpsep__Netd__Address *)m);
	}
	return IPC_OK;
}

static int check_msg(const struct ipc_path *path, const ProtobufCMessage *m, int depth);

/*
 * A NetdBatch (proto/netd.proto, doc/design.md "Batches"): 1..IPC_BATCH_MAX
 * messages, each a message of its own with a known body, and none of the
 * ones that must stay alone in their datagram: Hello and PortList (the
 * handshake, whose order the receiver relies on), Error (the last word
 * before a close) and another batch (so batches nest one level only).
 * check_field() then walks every member like any other submessage.
 */
static int
check_batch(const struct ipc_path *path, const Ptpsep__Netd__NetdBatch *b)
{
	struct ipc_path sub = { path, "msgs", -1 };
	const char *what;
	size_t i;

	if (b->n_msgs == 0) {
		fail(path, "empty batch");
		return IPC_E_INVALID;
	}
	if (b->n_msgs > IPC_BATCH_MAX) {
		fail(path, "%zu messages in a batch, at most %d", b->n_msgs,
		    IPC_BATCH_MAX);
		return IPC_E_INVALID;
	}
	if (b->msgs == NULL) {
		fail(path, "%zu messages at NULL", b->n_msgs);
		return IPC_E_INVALID;
	}
	for (i = 0; i < b->n_msgs; i++) {
		sub.idx = (long)i;
		if (b->msgs[i] == NULL ||
		    b->msgs[i]->base.descriptor !=
		    &ptpsep__netd__netd_msg__descriptor) {
			fail(&sub, "not a NetdMsg");
			return IPC_E_INVALID;
		}
		switch (ipc_envelope_case(&b->msgs[i]->base)) {
		case 0:
			fail(&sub, "no known body");
			return IPC_E_INVALID;
		case PTPSEP__NETD__NETD_MSG__BODY_HELLO:
			what = "a Hello";
			break;
		case PTPSEP__NETD__NETD_MSG__BODY_PORT_LIST:
			what = "a PortList";
			break;
		case PTPSEP__NETD__NETD_MSG__BODY_ERROR:
			what = "an Error";
			break;
		case PTPSEP__NETD__NETD_MSG__BODY_BATCH:
			what = "a batch";
			break;
		default:
			continue;
		}
		fail(&sub, "%s may not travel in a batch", what);
		return IPC_E_INVALID;
	}
	return IPC_OK;
}

/* One value of field f stored at p; path names it for ipc_detail(). */
static int
check_value(const struct ipc_path *path, const ProtobufCFieldDescriptor *f,
    const void *p, int depth)
{
	int32_t e;
	double dv;
	float fv;
	const ProtobufCMessage *sub;

	switch (f->type) {
	case PROTOBUF_C_TYPE_ENUM:
		/* Stored as an int-sized enum (PROTOBUF_C__FORCE_ENUM...). */
		memcpy(&e, p, sizeof(e));
		if (protobuf_c_enum_descriptor_get_value(f->descriptor, e) ==
		    NULL) {
			fail(path, "unknown enum value %d",
			    (int)e);
			return IPC_E_INVALID;
		}
		return IPC_OK;
	case PROTOBUF_C_TYPE_DOUBLE:
		memcpy(&dv, p, sizeof(dv));
		if (!isfinite(dv)) {
			fail(path, "not a finite number");
			return IPC_E_INVALID;
		}
		return IPC_OK;
	case PROTOBUF_C_TYPE_FLOAT:
		memcpy(&fv, p, sizeof(fv));
		if (!isfinite(fv)) {
			fail(path, "not a finite number");
			return IPC_E_INVALID;
		}
		return IPC_OK;
	case PROTOBUF_C_TYPE_STRING:
		return check_string(path, f->name, load_ptr(p));
	case PROTOBUF_C_TYPE_BYTES:
		return check_bytes(path, f->name,
		    (const ProtobufCBinaryData *)p);
	case PROTOBUF_C_TYPE_MESSAGE:
		sub = load_ptr(p);
		if (sub == NULL)
			return IPC_OK;
		/* Only a local sender can get this wrong; pack would trust it. */
		if (sub->descriptor != f->descriptor) {
			fail(path, "holds a %s",
			    sub->descriptor != NULL ?
			    sub->descriptor->short_name : "NULL descriptor");
			return IPC_E_INVALID;
		}
		return check_msg(path, sub, depth + 1);
	default:
		/* Integers and bools: every value is structurally fine. */
		return IPC_OK;
	}
}

static size_t
value_size(ProtobufCType t)
{
	switch (t) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_UINT32:
	case PROTOBUF_C_TYPE_FIXED32:
		return sizeof(uint32_t);
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		return sizeof(uint64_t);
	case PROTOBUF_C_TYPE_FLOAT:
		return sizeof(float);
	case PROTOBUF_C_TYPE_DOUBLE:
		return sizeof(double);
	case PROTOBUF_C_TYPE_BOOL:
		return sizeof(protobuf_c_boolean);
	case PROTOBUF_C_TYPE_ENUM:
		return sizeof(int32_t);
	case PROTOBUF_C_TYPE_STRING:
		return sizeof(char *);
	case PROTOBUF_C_TYPE_BYTES:
		return sizeof(ProtobufCBinaryData);
	case PROTOBUF_C_TYPE_MESSAGE:
		return sizeof(ProtobufCMessage *);
	}
	return 0;
}

static int
check_field(const struct ipc_path *path, const ProtobufCMessage *m,
    const ProtobufCFieldDescriptor *f, int depth)
{
	const char *base = (const char *)m;
	const char *member = base + f->offset;
	const char *arr;
	protobuf_c_boolean has;
	uint32_t oneof_case;
	struct ipc_path sub = { path, f->name, -1 };
	size_t n, i, sz;
	int rc;

	if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
		memcpy(&oneof_case, base + f->quantifier_offset,
		    sizeof(oneof_case));
		if (oneof_case != f->id)
			return IPC_OK;
	} else if (f->label == PROTOBUF_C_LABEL_OPTIONAL &&
	    f->type != PROTOBUF_C_TYPE_MESSAGE &&
	    f->type != PROTOBUF_C_TYPE_STRING) {
		/* proto2-style presence; the schema is proto3, kept general. */
		memcpy(&has, base + f->quantifier_offset, sizeof(has));
		if (!has)
			return IPC_OK;
	}

	if (f->label != PROTOBUF_C_LABEL_REPEATED) {
		return check_value(&sub, f, member, depth);
	}

	memcpy(&n, base + f->quantifier_offset, sizeof(n));
	if (n > repeated_cap(f->name)) {
		fail(&sub, "%zu elements, at most %zu", n,
		    repeated_cap(f->name));
		return IPC_E_INVALID;
	}
	arr = load_ptr(member);
	if (n > 0 && arr == NULL) {
		fail(&sub, "%zu elements at NULL", n);
		return IPC_E_INVALID;
	}
	sz = value_size(f->type);
	for (i = 0; i < n; i++) {
		const char *elem = arr + i * sz;

		sub.idx = (long)i;
		/* NULL elements are sender bugs that pack would dereference. */
		if ((f->type == PROTOBUF_C_TYPE_MESSAGE ||
		    f->type == PROTOBUF_C_TYPE_STRING) &&
		    load_ptr(elem) == NULL) {
			fail(&sub, "NULL element");
			return IPC_E_INVALID;
		}
		if ((rc = check_value(&sub, f, elem, depth)) != IPC_OK)
			return rc;
	}
	return IPC_OK;
}

static int
check_msg(const struct ipc_path *path, const ProtobufCMessage *m, int depth)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	unsigned i;
	int rc;

	if (depth > IPC_MAX_DEPTH) {
		fail(path, "nested deeper than %d", IPC_MAX_DEPTH);
		return IPC_E_INVALID;
	}
	if (d == &ptpsep__netd__netd_batch__descriptor &&
	    (rc = check_batch(path, (const Ptpsep__Netd__NetdBatch *)m)) !=
	    IPC_OK)
		return rc;
	for (i = 0; i < d->n_fields; i++)
		if ((rc = check_field(path, m, &d->fields[i], depth)) != IPC_OK)
			return rc;
	/*
	 * Unknown fields are a newer peer's additions and are kept, but
	 * protobuf-c 1.4.1 accepts an overlong-encoded field number 0 (bytes
	 * 80 00), which no encoder may emit and which it then packs into a
	 * message it refuses itself (found by fuzz_ipc).
	 */
	for (i = 0; i < m->n_unknown_fields; i++) {
		if (m->unknown_fields[i].tag == 0) {
			fail(path, "field number 0");
			return IPC_E_INVALID;
		}
	}
	return check_type(path, m);
}

int
ipc_check(const ProtobufCMessage *m)
{
	/*
	 * Not protobuf_c_message_check(): in 1.4.1 it reads every member of a
	 * oneof union as if it were set, so SetRequest{priority1 = 5} would
	 * have it dereference 5.  check_field() covers what it checks.
	 */
	struct ipc_path root = { NULL, m->descriptor->short_name, -1 };

	return check_msg(&root, m, 0);
}
