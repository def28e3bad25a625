/*
 * test_ipc.c - the IPC framing over real SOCK_SEQPACKET socketpairs, the
 * envelope gates, the structural checks and the Hello handshake.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cmocka.h>

#include "ipc.h"
#include "ipc_samples.h"

struct pair {
	int a, b;
};

/*
 * Counts the heap allocations made while counting is on, protobuf-c's
 * default allocator included (it calls malloc through the PLT, so the
 * definition here takes its calls).  Under AddressSanitizer malloc belongs
 * to the sanitizer's runtime, so the count is not taken there and the test
 * that needs it says it was skipped.
 */
#if defined(__SANITIZE_ADDRESS__)
#define HAVE_MALLOC_COUNT	0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_MALLOC_COUNT	0
#endif
#endif
#if !defined(HAVE_MALLOC_COUNT) && defined(__GLIBC__)
#define HAVE_MALLOC_COUNT	1
#endif
#ifndef HAVE_MALLOC_COUNT
#define HAVE_MALLOC_COUNT	0
#endif

static int malloc_counting;
static unsigned long malloc_calls;

#if HAVE_MALLOC_COUNT
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

void *
malloc(size_t n)
{
	if (malloc_counting)
		malloc_calls++;
	return __libc_malloc(n);
}

void *
calloc(size_t k, size_t n)
{
	if (malloc_counting)
		malloc_calls++;
	return __libc_calloc(k, n);
}

void *
realloc(void *p, size_t n)
{
	if (malloc_counting)
		malloc_calls++;
	return __libc_realloc(p, n);
}
#endif

static int
setup_pair(void **state)
{
	struct pair *p = calloc(1, sizeof(*p));
	int sv[2];

	if (p == NULL || socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0) {
		free(p);
		return -1;
	}
	p->a = sv[0];
	p->b = sv[1];
	*state = p;
	return 0;
}

static int
teardown_pair(void **state)
{
	struct pair *p = *state;

	if (p->a >= 0)
		close(p->a);
	if (p->b >= 0)
		close(p->b);
	free(p);
	return 0;
}

/* Packs m without any of ipc_encode's gates: what a hostile peer can do. */
static size_t
raw_pack(const ProtobufCMessage *m, uint8_t *buf, size_t cap)
{
	size_t len = protobuf_c_message_get_packed_size(m);

	assert_true(len <= cap);
	return protobuf_c_message_pack(m, buf);
}

static void
raw_send(int fd, const void *buf, size_t len)
{
	assert_int_equal(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len);
}

/* A small valid message, to show the connection still works after a fault. */
static void
assert_still_usable(struct pair *p)
{
	Ptpsep__Netd__NetdMsg env = PTPSEP__NETD__NETD_MSG__INIT, *got;
	Ptpsep__Hello h;

	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CLOCKD);
	env.body_case = PTPSEP__NETD__NETD_MSG__BODY_HELLO;
	env.hello = &h;
	assert_int_equal(ipc_send_netd(p->a, &env), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_OK);
	assert_int_equal(got->body_case, PTPSEP__NETD__NETD_MSG__BODY_HELLO);
	assert_int_equal(got->hello->role, PTPSEP__ROLE__ROLE_CLOCKD);
	ipc_free(&got->base);
}

/*
 * Every sample: send, receive with its envelope's descriptor, and compare
 * the received message packed again with what was sent, byte for byte
 * (protobuf-c packs deterministically, so equal bytes mean equal fields).
 */
static void
test_roundtrip_all_samples(void **state)
{
	struct pair *p = *state;
	static uint8_t sent[IPC_MAX_MSG], again[IPC_MAX_MSG];
	ProtobufCMessage *got;
	size_t i, n_sent, n_again;

	for (i = 0; i < ipc_n_samples; i++) {
		const struct ipc_sample *s = &ipc_samples[i];
		const ProtobufCMessage *m = s->build();

		if (ipc_check(m) != IPC_OK)
			fail_msg("%s: check: %s", s->name, ipc_detail());
		assert_int_equal(ipc_encode(m, sent, sizeof(sent), &n_sent),
		    IPC_OK);
		if (ipc_send(p->a, m) != IPC_OK)
			fail_msg("%s: send: %s", s->name, ipc_detail());
		if (ipc_recv(p->b, s->desc, &got) != IPC_OK)
			fail_msg("%s: recv: %s", s->name, ipc_detail());
		assert_ptr_equal(got->descriptor, s->desc);
		assert_int_equal(ipc_envelope_case(got), ipc_envelope_case(m));
		n_again = protobuf_c_message_pack(got, again);
		if (n_again != n_sent || memcmp(sent, again, n_sent) != 0)
			fail_msg("%s: differs after the round trip", s->name);
		ipc_free(got);
	}
}

/* Typed wrappers and field-level checks of the messages with subtleties. */
static void
test_roundtrip_netd_fields(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg *got;
	size_t i;

	for (i = 0; i < ipc_n_samples; i++) {
		const struct ipc_sample *s = &ipc_samples[i];

		if (s->desc != &ptpsep__netd__netd_msg__descriptor)
			continue;
		assert_int_equal(ipc_send_netd(p->a,
		    (const Ptpsep__Netd__NetdMsg *)s->build()), IPC_OK);
		assert_int_equal(ipc_recv_netd(p->b, &got), IPC_OK);
		if (strcmp(s->name, "netd_rx_general") == 0) {
			/* General messages: no timestamp, and none invented. */
			assert_null(got->rx_frame->rx_ts);
			assert_int_equal(got->rx_frame->source->addr.len, 16);
			assert_int_equal(got->rx_frame->payload.len, 64);
		} else if (strcmp(s->name, "netd_rx_event") == 0) {
			assert_non_null(got->rx_frame->rx_ts);
			assert_int_equal(got->rx_frame->rx_ts->nanoseconds,
			    999999999u);
		} else if (strcmp(s->name, "netd_txts_missing") == 0) {
			assert_int_equal(got->tx_timestamp->status,
			    PTPSEP__NETD__TX_TS_STATUS__TXTS_MISSING);
			assert_null(got->tx_timestamp->ts);
			assert_int_equal(got->tx_timestamp->cookie, 42);
		} else if (strcmp(s->name, "netd_tx_primary") == 0) {
			assert_true(got->tx_frame->cookie == UINT64_MAX);
			assert_true(got->tx_frame->want_tx_ts);
		} else if (strcmp(s->name, "netd_clock_step") == 0) {
			assert_int_equal(got->clock_request->op_case,
			    PTPSEP__NETD__CLOCK_REQUEST__OP_STEP);
			assert_true(got->clock_request->step->offset_ns ==
			    -1500000000);
		} else if (strcmp(s->name, "netd_clock_adj_freq") == 0) {
			assert_true(got->clock_request->adj_freq->freq_ppb ==
			    -12345.678);
		} else if (strcmp(s->name, "netd_clock_reply_refused") == 0) {
			assert_int_equal(got->clock_reply->reason,
			    PTPSEP__REFUSE_REASON__REFUSE_STEP_NOT_ALLOWED);
		} else if (strcmp(s->name, "netd_port_list") == 0) {
			assert_int_equal(got->port_list->n_ports, 2);
			assert_string_equal(got->port_list->ports[1]->iface,
			    "eth1");
			assert_int_equal(got->port_list->ports[1]->n_addresses,
			    2);
			assert_true(got->port_list->clock->step_allowed);
		}
		ipc_free(&got->base);
	}
}

static void
test_roundtrip_ctl(void **state)
{
	struct pair *p = *state;
	Ptpsep__Ctl__CtlRequest *req;
	Ptpsep__Ctl__CtlResponse *rsp;
	size_t i;

	for (i = 0; i < ipc_n_samples; i++) {
		const struct ipc_sample *s = &ipc_samples[i];

		if (s->desc == &ptpsep__ctl__ctl_request__descriptor) {
			assert_int_equal(ipc_send_ctl_request(p->a,
			    (const Ptpsep__Ctl__CtlRequest *)s->build()),
			    IPC_OK);
			assert_int_equal(ipc_recv_ctl_request(p->b, &req),
			    IPC_OK);
			if (strcmp(s->name, "req_set_priority1") == 0) {
				/* 0 survives as a present value. */
				assert_int_equal(req->set->what_case,
				    PTPSEP__CTL__SET_REQUEST__WHAT_PRIORITY1);
				assert_int_equal(req->set->priority1, 0);
			}
			ipc_free(&req->base);
		} else if (s->desc == &ptpsep__ctl__ctl_response__descriptor) {
			assert_int_equal(ipc_send_ctl_response(p->b,
			    (const Ptpsep__Ctl__CtlResponse *)s->build()),
			    IPC_OK);
			assert_int_equal(ipc_recv_ctl_response(p->a, &rsp),
			    IPC_OK);
			if (strcmp(s->name, "rsp_status") == 0) {
				assert_int_equal(rsp->status->servo_state,
				    PTPSEP__CTL__SERVO_STATE__SERVO_STATE_LOCKED);
				assert_int_equal(rsp->status->n_ports, 2);
				assert_int_equal(rsp->status->ports[0]->state,
				    PTPSEP__CTL__PORT_STATE__PORT_STATE_SLAVE);
				assert_true(rsp->status->offset_ns == -37);
			} else if (strcmp(s->name, "rsp_error") == 0) {
				assert_int_equal(rsp->error->code,
				    PTPSEP__ERROR_CODE__ERROR_PERMISSION_DENIED);
			}
			ipc_free(&rsp->base);
		}
	}
}

/* The port states carry the standard's values (8.2.15.3.1). */
static void
test_port_state_values(void **state)
{
	(void)state;
	assert_int_equal(PTPSEP__CTL__PORT_STATE__PORT_STATE_INITIALIZING, 1);
	assert_int_equal(PTPSEP__CTL__PORT_STATE__PORT_STATE_LISTENING, 4);
	assert_int_equal(PTPSEP__CTL__PORT_STATE__PORT_STATE_MASTER, 6);
	assert_int_equal(PTPSEP__CTL__PORT_STATE__PORT_STATE_SLAVE, 9);
	assert_int_equal(PTPSEP__CTL__DELAY_MECHANISM__DELAY_MECHANISM_P2P, 2);
}

/* ---- send side ---- */

static void
test_send_empty_refused(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg env = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Ctl__CtlRequest req = PTPSEP__CTL__CTL_REQUEST__INIT;

	assert_int_equal(ipc_send_netd(p->a, &env), IPC_E_EMPTY);
	assert_int_equal(ipc_send_ctl_request(p->a, &req), IPC_E_EMPTY);
	/* The case set but the member NULL is just as empty. */
	env.body_case = PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME;
	assert_int_equal(ipc_send_netd(p->a, &env), IPC_E_EMPTY);
	assert_still_usable(p);
}

/*
 * No message within the structural limits exceeds the cap (see
 * test_worst_case_fits), so make one too big with unknown fields, which
 * ipc_check does not look at but pack does write.
 */
static void
test_send_toobig_refused(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg env = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Hello h;
	ProtobufCMessageUnknownField uf;
	static uint8_t junk[IPC_MAX_MSG];
	uint8_t small[16];
	size_t len;

	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CLOCKD);
	env.body_case = PTPSEP__NETD__NETD_MSG__BODY_HELLO;
	env.hello = &h;

	/* ipc_encode honours the caller's cap too. */
	assert_int_equal(ipc_encode(&env.base, small, 4, &len), IPC_E_TOOBIG);
	assert_int_equal(len, 0);

	memset(&uf, 0, sizeof(uf));
	uf.tag = 99;
	uf.wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
	uf.len = sizeof(junk);
	uf.data = junk;
	env.base.n_unknown_fields = 1;
	env.base.unknown_fields = &uf;
	assert_int_equal(ipc_send_netd(p->a, &env), IPC_E_TOOBIG);
	assert_non_null(strstr(ipc_detail(), "cap"));
	/* Nothing went out: the next message is the next one sent. */
	assert_still_usable(p);
}

static void
test_send_to_closed_peer(void **state)
{
	struct pair *p = *state;
	const ProtobufCMessage *m = ipc_samples[0].build();

	close(p->b);
	p->b = -1;
	/* MSG_NOSIGNAL: an error, not a SIGPIPE that kills the test. */
	assert_int_equal(ipc_send(p->a, m), IPC_E_SYS);
	assert_int_equal(errno, EPIPE);
}

/* ---- receive side ---- */

static void
test_recv_oversize(void **state)
{
	struct pair *p = *state;
	static uint8_t big[IPC_MAX_MSG + 100];
	Ptpsep__Netd__NetdMsg *got = (void *)1;

	memset(big, 0x08, sizeof(big));
	/* One byte over the cap: the spare byte of the buffer catches it. */
	raw_send(p->a, big, IPC_MAX_MSG + 1);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_OVERSIZE);
	assert_null(got);
	assert_still_usable(p);
	/* Well over the cap: the kernel truncates, MSG_TRUNC tells the size. */
	raw_send(p->a, big, sizeof(big));
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_OVERSIZE);
	assert_non_null(strstr(ipc_detail(), "16484"));
	assert_still_usable(p);
	/* Exactly the cap is not oversize: it is judged by its content. */
	raw_send(p->a, big, IPC_MAX_MSG);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_DECODE);
	assert_still_usable(p);
	/* The pure decoder applies the same cap. */
	assert_int_equal(ipc_decode(&ptpsep__netd__netd_msg__descriptor, big,
	    IPC_MAX_MSG + 1, (ProtobufCMessage **)(void *)&got),
	    IPC_E_OVERSIZE);
}

/* A peer passing a file descriptor: refused, and the descriptor dropped. */
static void
test_recv_ancillary_truncated(void **state)
{
	struct pair *p = *state;
	uint8_t buf[256];
	size_t len;
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} cm;
	struct iovec iov;
	struct msghdr mh;
	int fd = STDIN_FILENO;
	Ptpsep__Netd__NetdMsg *got;

	len = raw_pack(ipc_samples[0].build(), buf, sizeof(buf));
	memset(&cm, 0, sizeof(cm));
	memset(&mh, 0, sizeof(mh));
	iov.iov_base = buf;
	iov.iov_len = len;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cm.b;
	mh.msg_controllen = sizeof(cm.b);
	cm.h.cmsg_level = SOL_SOCKET;
	cm.h.cmsg_type = SCM_RIGHTS;
	cm.h.cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(&cm.h), &fd, sizeof(fd));
	assert_int_equal(sendmsg(p->a, &mh, MSG_NOSIGNAL), (ssize_t)len);

	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_TRUNCATED);
	assert_null(got);
	assert_non_null(strstr(ipc_detail(), "ancillary"));
	assert_still_usable(p);
}

static void
test_recv_decode_error(void **state)
{
	struct pair *p = *state;
	uint8_t buf[IPC_MAX_MSG];
	/* Field 3 (rx_frame), length 100, but only 2 bytes follow. */
	static const uint8_t short_len[] = { 0x1a, 0x64, 0x08, 0x01 };
	/* Field 1 with wire type 7, which does not exist. */
	static const uint8_t bad_wire[] = { 0x0f, 0x00 };
	/* A varint that never ends. */
	static const uint8_t endless[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	Ptpsep__Netd__NetdMsg *got;
	size_t len, i;

	/*
	 * The envelope holds one length-delimited field, so every proper
	 * prefix of it cuts that field short.
	 */
	len = raw_pack(ipc_samples[2].build(), buf, sizeof(buf));
	for (i = 1; i < len; i++) {
		raw_send(p->a, buf, i);
		if (ipc_recv_netd(p->b, &got) != IPC_E_DECODE)
			fail_msg("prefix %zu of %zu: %s", i, len, ipc_detail());
	}
	raw_send(p->a, short_len, sizeof(short_len));
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_DECODE);
	raw_send(p->a, bad_wire, sizeof(bad_wire));
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_DECODE);
	raw_send(p->a, endless, sizeof(endless));
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_DECODE);
	assert_null(got);
	assert_still_usable(p);
}

static void
test_recv_empty_envelope(void **state)
{
	struct pair *p = *state;
	/* Field 99, varint 1: a body from a newer peer we do not know. */
	static const uint8_t unknown[] = { 0x98, 0x06, 0x01 };
	/* A known scalar-less envelope: nothing but a zero-length unknown. */
	static const uint8_t unknown_len[] = { 0xa2, 0x06, 0x00 };
	Ptpsep__Ctl__CtlRequest *req;
	Ptpsep__Netd__NetdMsg *got;

	raw_send(p->a, unknown, sizeof(unknown));
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_EMPTY);
	assert_null(got);
	raw_send(p->a, unknown_len, sizeof(unknown_len));
	assert_int_equal(ipc_recv_ctl_request(p->b, &req), IPC_E_EMPTY);
	assert_null(req);
	/* The pure decoder: an empty buffer is an empty envelope. */
	assert_int_equal(ipc_decode(&ptpsep__netd__netd_msg__descriptor,
	    unknown, 0, (ProtobufCMessage **)(void *)&got), IPC_E_EMPTY);
	assert_still_usable(p);
}

/*
 * protobuf-c 1.4.1 unpacks an overlong field number 0 as an unknown field
 * but refuses its own re-encoding of it; found by fuzz_ipc.
 */
static void
test_recv_field_number_zero(void **state)
{
	struct pair *p = *state;
	static const uint8_t tag0[] = { 0x80, 0x00, 0x5d, 0x1a, 0x00 };
	Ptpsep__Netd__NetdMsg *got;

	raw_send(p->a, tag0, sizeof(tag0));
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_INVALID);
	assert_null(got);
	assert_non_null(strstr(ipc_detail(), "field number 0"));
	assert_still_usable(p);
}

static void
test_recv_eof(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg *got;

	/* A message queued before the close is still delivered first. */
	assert_int_equal(ipc_send(p->a, ipc_samples[0].build()), IPC_OK);
	close(p->a);
	p->a = -1;
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_OK);
	ipc_free(&got->base);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_EOF);
	assert_null(got);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_EOF);
}

/* A 0-byte datagram reads as end of file (documented in ipc_recv). */
static void
test_recv_zero_length_is_eof(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg *got;
	uint8_t none = 0;

	assert_int_equal(send(p->a, &none, 0, MSG_NOSIGNAL), 0);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_EOF);
}

static void
test_recv_again(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg *got;

	assert_int_equal(fcntl(p->b, F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_AGAIN);
	assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
	assert_null(got);
	assert_still_usable(p);
}

/* ---- Hello ---- */

static void
test_hello_ok(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg *got;

	assert_int_equal(ipc_send(p->a, ipc_samples[0].build()), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_OK);
	assert_int_equal(got->hello->protocol_version, IPC_PROTOCOL_VERSION);
	assert_int_equal(ipc_hello_check(got->hello, PTPSEP__ROLE__ROLE_NETD),
	    IPC_OK);
	assert_int_equal(ipc_hello_check(got->hello,
	    PTPSEP__ROLE__ROLE_UNSPECIFIED), IPC_OK);
	ipc_free(&got->base);
}

static void
test_hello_version_mismatch(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg env = PTPSEP__NETD__NETD_MSG__INIT, *got;
	Ptpsep__Netd__NetdMsg reply = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Hello h;
	Ptpsep__Error e;
	char why[256];

	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CLOCKD);
	h.protocol_version = IPC_PROTOCOL_VERSION + 1;
	env.body_case = PTPSEP__NETD__NETD_MSG__BODY_HELLO;
	env.hello = &h;
	/* A Hello of another version is well-formed: it must get through. */
	assert_int_equal(ipc_send_netd(p->a, &env), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_OK);
	assert_int_equal(ipc_hello_check(got->hello, PTPSEP__ROLE__ROLE_CLOCKD),
	    IPC_E_VERSION);
	snprintf(why, sizeof(why), "protocol version %u",
	    IPC_PROTOCOL_VERSION + 1);
	assert_non_null(strstr(ipc_detail(), why));
	snprintf(why, sizeof(why), "this side speaks version %u",
	    IPC_PROTOCOL_VERSION);
	assert_non_null(strstr(ipc_detail(), why));
	assert_non_null(strstr(ipc_detail(), "ROLE_CLOCKD"));
	ipc_free(&got->base);

	/* The refusal that goes back, and what the peer then reads. */
	snprintf(why, sizeof(why), "%s", ipc_detail());
	ipc_error_init(&e, PTPSEP__ERROR_CODE__ERROR_VERSION_MISMATCH, why);
	reply.body_case = PTPSEP__NETD__NETD_MSG__BODY_ERROR;
	reply.error = &e;
	assert_int_equal(ipc_send_netd(p->b, &reply), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->a, &got), IPC_OK);
	assert_int_equal(got->error->code,
	    PTPSEP__ERROR_CODE__ERROR_VERSION_MISMATCH);
	assert_string_equal(got->error->message, why);
	ipc_free(&got->base);
}

static void
test_hello_role(void **state)
{
	Ptpsep__Hello h;

	(void)state;
	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CTL);
	assert_int_equal(ipc_hello_check(&h, PTPSEP__ROLE__ROLE_CLOCKD),
	    IPC_E_ROLE);
	assert_non_null(strstr(ipc_detail(), "ROLE_CTL"));
	h.role = PTPSEP__ROLE__ROLE_UNSPECIFIED;
	assert_int_equal(ipc_hello_check(&h, PTPSEP__ROLE__ROLE_UNSPECIFIED),
	    IPC_E_ROLE);
	h.role = (Ptpsep__Role)77;
	assert_int_equal(ipc_hello_check(&h, PTPSEP__ROLE__ROLE_UNSPECIFIED),
	    IPC_E_ROLE);
	/* The version is judged first: another version may renumber roles. */
	h.protocol_version = 0;
	assert_int_equal(ipc_hello_check(&h, PTPSEP__ROLE__ROLE_CLOCKD),
	    IPC_E_VERSION);
}

/* ---- structural checks, both at the sender and at the receiver ---- */

/*
 * Mutates a sample in place into something that breaks one limit, then
 * shows that ipc_check refuses it, that ipc_send sends it all the same
 * (the check runs on receive only, ipc.h), and that ipc_recv refuses what
 * arrives; the connection stays usable.
 */
static void
expect_invalid(struct pair *p, const ProtobufCMessage *m, const char *what)
{
	ProtobufCMessage *got;
	int rc;

	rc = ipc_check(m);
	if (rc != IPC_E_INVALID)
		fail_msg("%s: check gave %s", what, ipc_strerror(rc));
	rc = ipc_send(p->a, m);
	if (rc != IPC_OK)
		fail_msg("%s: send gave %s", what, ipc_strerror(rc));
	rc = ipc_recv(p->b, m->descriptor, &got);
	if (rc != IPC_E_INVALID)
		fail_msg("%s: recv gave %s", what, ipc_strerror(rc));
	assert_null(got);
}

static const ProtobufCMessage *
sample(const char *name)
{
	size_t i;

	for (i = 0; i < ipc_n_samples; i++)
		if (strcmp(ipc_samples[i].name, name) == 0)
			return ipc_samples[i].build();
	fail_msg("no sample %s", name);
	return NULL;
}

/*
 * ipc_check runs on receive only (issue 13): a message over a structural
 * limit leaves the sender and is refused by the receiver, which is where
 * the check protects anything.  Before, ipc_send walked it too and said
 * IPC_E_INVALID.
 */
static void
test_check_on_receive_only(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg *n, *got;

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_rx_event");
	n->rx_frame->rx_ts->nanoseconds = 1000000000u;
	assert_int_equal(ipc_send_netd(p->a, n), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_INVALID);
	assert_string_equal(ipc_detail(),
	    "NetdMsg.rx_frame.rx_ts: nanoseconds 1000000000 >= 1e9");
	assert_null(got);

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_batch_sync_fup");
	n->batch->n_msgs = 0;
	assert_int_equal(ipc_send_netd(p->a, n), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_INVALID);
	assert_null(got);
	assert_still_usable(p);
}

static void
test_check_invalid(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg *n;
	Ptpsep__Ctl__CtlResponse *r;
	static char long_iface[] = "abcdefghijklmnop";	/* 16 */
	static char slash_iface[] = "../etc";
	static char newline[] = "forged\nlog line";
	static char too_long[IPC_MAX_TEXT + 2];
	static uint8_t seven[7], nine[9], big[IPC_MAX_PTP_PAYLOAD + 1];
	static Ptpsep__Netd__Address *many[IPC_MAX_ADDRS + 1];

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_rx_event");
	n->rx_frame->rx_ts->nanoseconds = 1000000000u;
	expect_invalid(p, &n->base, "nanoseconds 1e9");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_rx_event");
	n->rx_frame->msg_class = (Ptpsep__MsgClass)3;
	expect_invalid(p, &n->base, "unknown enum value");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_rx_event");
	n->rx_frame->payload.len = IPC_MIN_PTP_PAYLOAD - 1;
	expect_invalid(p, &n->base, "payload below the PTP header");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_tx_primary");
	n->tx_frame->payload.data = big;
	n->tx_frame->payload.len = sizeof(big);
	expect_invalid(p, &n->base, "payload above the MTU");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_rx_event");
	n->rx_frame->source->addr.len = 4;	/* MAC family, 4 bytes */
	expect_invalid(p, &n->base, "address length for its family");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_tx_unicast");
	n->tx_frame->unicast->family =
	    PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_UNSPECIFIED;
	expect_invalid(p, &n->base, "address without family");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_port_list");
	n->port_list->ports[0]->clock_identity.data = seven;
	n->port_list->ports[0]->clock_identity.len = sizeof(seven);
	expect_invalid(p, &n->base, "7-byte clock identity");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_port_list");
	n->port_list->ports[0]->mac.len = 5;
	expect_invalid(p, &n->base, "5-byte MAC");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_port_list");
	n->port_list->ports[0]->iface = long_iface;
	expect_invalid(p, &n->base, "16-char interface name");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_port_list");
	n->port_list->ports[1]->iface = slash_iface;
	expect_invalid(p, &n->base, "interface name with '/'");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_port_list");
	n->port_list->ports[1]->n_addresses = IPC_MAX_ADDRS + 1;
	for (size_t i = 0; i < IPC_MAX_ADDRS + 1; i++)
		many[i] = n->port_list->ports[1]->addresses[i % 2];
	n->port_list->ports[1]->addresses = many;
	expect_invalid(p, &n->base, "too many addresses");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_port_list");
	n->port_list->clock->max_freq_ppb = NAN;
	expect_invalid(p, &n->base, "NaN");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_clock_adj_freq");
	n->clock_request->adj_freq->freq_ppb = -INFINITY;
	expect_invalid(p, &n->base, "infinite frequency");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_error");
	n->error->message = newline;
	expect_invalid(p, &n->base, "newline in a string");

	memset(too_long, 'x', sizeof(too_long) - 1);
	n = (Ptpsep__Netd__NetdMsg *)sample("netd_hello");
	n->hello->software_version = too_long;
	expect_invalid(p, &n->base, "string over IPC_MAX_TEXT");

	r = (Ptpsep__Ctl__CtlResponse *)sample("rsp_status");
	r->status->gm_identity.data = nine;
	r->status->gm_identity.len = sizeof(nine);
	expect_invalid(p, &r->base, "9-byte gm identity");

	r = (Ptpsep__Ctl__CtlResponse *)sample("rsp_port_ds");
	r->dataset->port_ds->port_state = (Ptpsep__Ctl__PortState)10;
	expect_invalid(p, &r->base, "port state 10");

	assert_still_usable(p);
}

/*
 * Sender bugs that protobuf-c would crash on while packing are found by
 * ipc_check(), which a test runs on what the code under test builds (the
 * sender no longer does, ipc.h).
 */
static void
test_check_local_bugs(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg *n;
	Ptpsep__Ctl__CtlResponse *r;
	Ptpsep__Netd__Port *null_ports[1] = { NULL };
	Ptpsep__Timestamp wrong;

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_port_list");
	n->port_list->ports = null_ports;
	n->port_list->n_ports = 1;
	assert_int_equal(ipc_check(&n->base), IPC_E_INVALID);

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_port_list");
	n->port_list->ports = NULL;
	assert_int_equal(ipc_check(&n->base), IPC_E_INVALID);

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_rx_event");
	n->rx_frame->payload.data = NULL;
	assert_int_equal(ipc_check(&n->base), IPC_E_INVALID);

	/* A Timestamp where a Port belongs. */
	ptpsep__timestamp__init(&wrong);
	n = (Ptpsep__Netd__NetdMsg *)sample("netd_link_event");
	n->link_event->port = (Ptpsep__Netd__Port *)(void *)&wrong;
	assert_int_equal(ipc_check(&n->base), IPC_E_INVALID);

	/* SetRequest{priority1}: the oneof union is not read as a pointer. */
	r = (Ptpsep__Ctl__CtlResponse *)sample("rsp_set");
	assert_int_equal(ipc_check(&r->base), IPC_OK);
	assert_int_equal(ipc_check(sample("req_set_priority1")), IPC_OK);
	assert_still_usable(p);
}

/*
 * The detail names the field by its full path, element index included.
 * ipc_check renders that path only when it reports an error (formatting it
 * for every field visited was most of the cost of checking a valid
 * message); these texts are the ones the eager version produced.
 */
static void
expect_detail(const ProtobufCMessage *m, const char *want)
{
	assert_int_equal(ipc_check(m), IPC_E_INVALID);
	assert_string_equal(ipc_detail(), want);
}

static void
test_check_detail_path(void **state)
{
	Ptpsep__Netd__NetdMsg *n;
	Ptpsep__Ctl__CtlResponse *r;
	Ptpsep__Netd__Port *null_ports[2];
	static char slash_iface[] = "../etc";
	static Ptpsep__Netd__Address *many[IPC_MAX_ADDRS + 1];

	(void)state;
	n = (Ptpsep__Netd__NetdMsg *)sample("netd_rx_event");
	n->rx_frame->rx_ts->nanoseconds = 1000000000u;
	expect_detail(&n->base,
	    "NetdMsg.rx_frame.rx_ts: nanoseconds 1000000000 >= 1e9");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_rx_event");
	n->rx_frame->payload.len = IPC_MIN_PTP_PAYLOAD - 1;
	expect_detail(&n->base,
	    "NetdMsg.rx_frame.payload: 33 bytes, want 34..1500");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_port_list");
	n->port_list->ports[1]->iface = slash_iface;
	expect_detail(&n->base, "NetdMsg.port_list.ports[1].iface: "
	    "\"../etc\" is not an interface name");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_port_list");
	n->port_list->ports[1]->n_addresses = IPC_MAX_ADDRS + 1;
	for (size_t i = 0; i < IPC_MAX_ADDRS + 1; i++)
		many[i] = n->port_list->ports[1]->addresses[i % 2];
	n->port_list->ports[1]->addresses = many;
	expect_detail(&n->base, "NetdMsg.port_list.ports[1].addresses: "
	    "5 elements, at most 4");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_port_list");
	n->port_list->ports[1]->addresses[1]->addr.len = 5;
	expect_detail(&n->base, "NetdMsg.port_list.ports[1].addresses[1]: "
	    "5 address bytes for family 3, want 16");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_port_list");
	null_ports[0] = n->port_list->ports[0];
	null_ports[1] = NULL;
	n->port_list->ports = null_ports;
	expect_detail(&n->base, "NetdMsg.port_list.ports[1]: NULL element");

	r = (Ptpsep__Ctl__CtlResponse *)sample("rsp_port_ds");
	r->dataset->port_ds->port_state = (Ptpsep__Ctl__PortState)10;
	expect_detail(&r->base, "CtlResponse.dataset.port_ds.port_state: "
	    "unknown enum value 10");
}

/*
 * The justification of IPC_MAX_MSG: the largest responses, for
 * IPC_MAX_PORTS ports with every field at its largest and one counter per
 * reason (all a sender ever needs), fit; one port more is refused by
 * ipc_check rather than by the size cap.  Repeating a reason up to
 * IPC_MAX_REPEATED times could pass ipc_check and still exceed the cap: the
 * sender then gets IPC_E_TOOBIG, never a datagram the receiver drops.
 */
static void
test_worst_case_fits(void **state)
{
	static Ptpsep__Ctl__NetdPortInfo pi[IPC_MAX_PORTS + 1];
	static Ptpsep__Ctl__NetdPortInfo *pis[IPC_MAX_PORTS + 1];
	static Ptpsep__Netd__Port port[IPC_MAX_PORTS + 1];
	static Ptpsep__Netd__Port *ports[IPC_MAX_PORTS + 1];
	static Ptpsep__Netd__Address addr;
	static Ptpsep__Netd__Address *addrs[IPC_MAX_ADDRS];
	static Ptpsep__Ctl__SocketInfo sk;
	static Ptpsep__Ctl__SocketInfo *sks[4];
	static Ptpsep__Ctl__RxDropCount drop;
	static Ptpsep__Ctl__RxDropCount *drops[5];
	static Ptpsep__Ctl__RefusedCount ref;
	static Ptpsep__Ctl__RefusedCount *refs[10];
	static Ptpsep__Ctl__NetdInfo ni;
	static Ptpsep__Netd__ClockInfo ci;
	static Ptpsep__Ctl__PortStatus ps;
	static Ptpsep__Ctl__PortStatus *pss[IPC_MAX_PORTS];
	static Ptpsep__Ctl__Status st;
	static Ptpsep__Netd__PortList pl;
	static uint8_t id[8], mac[6], v6[16];
	static char ifname[] = "abcdefghijklmno";
	static char text[IPC_MAX_TEXT + 1];
	Ptpsep__Ctl__CtlResponse rsp = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Netd__NetdMsg env = PTPSEP__NETD__NETD_MSG__INIT;
	static uint8_t buf[IPC_MAX_MSG];
	size_t i, len;

	(void)state;
	memset(text, 'v', IPC_MAX_TEXT);
	memset(id, 0xff, sizeof(id));
	ptpsep__netd__address__init(&addr);
	addr.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV6;
	addr.addr.data = v6;
	addr.addr.len = sizeof(v6);
	for (i = 0; i < IPC_MAX_ADDRS; i++)
		addrs[i] = &addr;
	ptpsep__ctl__socket_info__init(&sk);
	sk.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
	sk.protocol = UINT32_MAX;
	sk.filter_attached = sk.filter_locked = 1;
	for (i = 0; i < 4; i++)
		sks[i] = &sk;
	ptpsep__ctl__rx_drop_count__init(&drop);
	drop.reason = PTPSEP__CTL__RX_DROP_REASON__RX_DROP_CLIENT_BACKLOG;
	drop.count = UINT64_MAX;
	for (i = 0; i < 5; i++)
		drops[i] = &drop;
	ptpsep__ctl__refused_count__init(&ref);
	ref.reason = PTPSEP__REFUSE_REASON__REFUSE_CLOCK_FAILED;
	ref.count = UINT64_MAX;
	for (i = 0; i < 10; i++)
		refs[i] = &ref;
	ptpsep__netd__clock_info__init(&ci);
	ci.device = text;
	ci.max_freq_ppb = 1e9;
	ci.step_allowed = 1;
	ci.min_adj_interval_ms = UINT32_MAX;

	for (i = 0; i <= IPC_MAX_PORTS; i++) {
		ptpsep__netd__port__init(&port[i]);
		port[i].index = UINT32_MAX;
		port[i].iface = ifname;
		port[i].transport = PTPSEP__TRANSPORT__TRANSPORT_UDP_IPV6;
		port[i].ts_mode = PTPSEP__TIMESTAMP_MODE__TS_MODE_HARDWARE;
		port[i].one_step = port[i].link_up = 1;
		port[i].mac.data = mac;
		port[i].mac.len = sizeof(mac);
		port[i].n_addresses = IPC_MAX_ADDRS;
		port[i].addresses = addrs;
		port[i].clock_identity.data = id;
		port[i].clock_identity.len = sizeof(id);
		ports[i] = &port[i];

		ptpsep__ctl__netd_port_info__init(&pi[i]);
		pi[i].port = &port[i];
		pi[i].n_sockets = 4;
		pi[i].sockets = sks;
		pi[i].rx_event = pi[i].rx_general = pi[i].tx_event =
		    pi[i].tx_general = pi[i].tx_ts_missing = UINT64_MAX;
		pi[i].n_rx_dropped = 5;
		pi[i].rx_dropped = drops;
		pi[i].n_refused = 10;
		pi[i].refused = refs;
		pis[i] = &pi[i];
	}
	ptpsep__ctl__netd_info__init(&ni);
	ni.software_version = text;
	ni.clock = &ci;
	ni.client_connected = 1;
	ni.n_ports = IPC_MAX_PORTS;
	ni.ports = pis;
	ni.n_refused = 10;
	ni.refused = refs;
	ni.client_connections = UINT64_MAX;
	rsp.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_NETD_INFO;
	rsp.netd_info = &ni;
	assert_int_equal(ipc_encode(&rsp.base, buf, sizeof(buf), &len), IPC_OK);
	print_message("worst-case NetdInfo: %zu of %d bytes\n", len,
	    IPC_MAX_MSG);
	assert_int_equal(ipc_check(&rsp.base), IPC_OK);
	ni.n_ports = IPC_MAX_PORTS + 1;
	assert_int_equal(ipc_check(&rsp.base), IPC_E_INVALID);

	ptpsep__ctl__port_status__init(&ps);
	ps.port_number = UINT32_MAX;
	ps.iface = ifname;
	ps.state = PTPSEP__CTL__PORT_STATE__PORT_STATE_UNCALIBRATED;
	ps.since_state_change_ms = UINT64_MAX;
	for (i = 0; i < IPC_MAX_PORTS; i++)
		pss[i] = &ps;
	ptpsep__ctl__status__init(&st);
	st.clock_identity.data = st.gm_identity.data = id;
	st.clock_identity.len = st.gm_identity.len = sizeof(id);
	st.offset_ns = st.mean_path_delay_ns = INT64_MIN;
	st.freq_ppb = -1e9;
	st.servo_state = PTPSEP__CTL__SERVO_STATE__SERVO_STATE_UNLOCKED;
	st.n_ports = IPC_MAX_PORTS;
	st.ports = pss;
	st.gm_clock_class = st.steps_removed = UINT32_MAX;
	rsp.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_STATUS;
	rsp.status = &st;
	assert_int_equal(ipc_check(&rsp.base), IPC_OK);
	assert_int_equal(ipc_encode(&rsp.base, buf, sizeof(buf), &len), IPC_OK);
	print_message("worst-case Status: %zu bytes\n", len);

	ptpsep__netd__port_list__init(&pl);
	pl.n_ports = IPC_MAX_PORTS;
	pl.ports = ports;
	pl.clock = &ci;
	env.body_case = PTPSEP__NETD__NETD_MSG__BODY_PORT_LIST;
	env.port_list = &pl;
	assert_int_equal(ipc_check(&env.base), IPC_OK);
	assert_int_equal(ipc_encode(&env.base, buf, sizeof(buf), &len), IPC_OK);
	print_message("worst-case PortList: %zu bytes\n", len);
}

/*
 * The per-frame messages, RxFrame from netd and TxFrame from clockd (and
 * the TxTimestamp, ClockRequest and ClockReply beside them), are sent and
 * received without a heap allocation once the connection runs: packed
 * into a stack buffer, unpacked into ipc.c's arena.
 */
static void
test_no_malloc_per_frame(void **state)
{
	static const char *const names[] = { "netd_rx_event",
	    "netd_rx_general", "netd_tx_primary", "netd_tx_unicast",
	    "netd_txts_ok", "netd_clock_adj_freq", "netd_clock_reply_ok" };
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg *got;
	const ProtobufCMessage *m;
	size_t i;
	int k;

	if (!HAVE_MALLOC_COUNT)
		skip();
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		m = sample(names[i]);
		/* Warm-up: the first call may set up buffers of the C library. */
		assert_int_equal(ipc_send(p->a, m), IPC_OK);
		assert_int_equal(ipc_recv_netd(p->b, &got), IPC_OK);
		ipc_free(&got->base);
		malloc_calls = 0;
		malloc_counting = 1;
		for (k = 0; k < 100; k++) {
			if (ipc_send(p->a, m) != IPC_OK ||
			    ipc_recv_netd(p->b, &got) != IPC_OK)
				break;
			ipc_free(&got->base);
		}
		malloc_counting = 0;
		assert_int_equal(k, 100);
		if (malloc_calls != 0)
			fail_msg("%s: %lu heap allocations in 100 messages",
			    names[i], malloc_calls);
	}
}

/*
 * The same for frames of the largest payload netd relays (an Ethernet MTU,
 * IPC_MAX_PTP_PAYLOAD): they too fit ipc.c's decode arena, which is kept
 * small because every thread's copy of it is resident from the start.
 */
static void
test_no_malloc_full_frame(void **state)
{
	static uint8_t pl[IPC_MAX_PTP_PAYLOAD];
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg env, *got;
	Ptpsep__Netd__RxFrame rx;
	Ptpsep__Netd__TxFrame tx;
	Ptpsep__Netd__Address src;
	Ptpsep__Timestamp t;
	static uint8_t mac[6] = { 2, 0, 0, 0, 0, 1 };
	int k, which;

	if (!HAVE_MALLOC_COUNT)
		skip();
	ipc_sample_payload(pl, sizeof(pl), 0x0);
	ptpsep__timestamp__init(&t);
	t.seconds = 1700000000u;
	t.nanoseconds = 999999999u;
	ptpsep__netd__address__init(&src);
	src.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_MAC;
	src.addr.data = mac;
	src.addr.len = sizeof(mac);
	ptpsep__netd__rx_frame__init(&rx);
	rx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	rx.payload.data = pl;
	rx.payload.len = sizeof(pl);
	rx.rx_ts = &t;
	rx.ts_source = PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE;
	rx.source = &src;
	ptpsep__netd__tx_frame__init(&tx);
	tx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	tx.dest = PTPSEP__NETD__DESTINATION__DEST_PRIMARY;
	tx.payload.data = pl;
	tx.payload.len = sizeof(pl);
	tx.cookie = UINT64_MAX;
	tx.want_tx_ts = 1;
	for (which = 0; which < 2; which++) {
		ptpsep__netd__netd_msg__init(&env);
		if (which == 0) {
			env.body_case = PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME;
			env.rx_frame = &rx;
		} else {
			env.body_case = PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME;
			env.tx_frame = &tx;
		}
		/* Warm-up, as above. */
		assert_int_equal(ipc_send(p->a, &env.base), IPC_OK);
		assert_int_equal(ipc_recv_netd(p->b, &got), IPC_OK);
		ipc_free(&got->base);
		malloc_calls = 0;
		malloc_counting = 1;
		for (k = 0; k < 10; k++) {
			if (ipc_send(p->a, &env.base) != IPC_OK ||
			    ipc_recv_netd(p->b, &got) != IPC_OK)
				break;
			ipc_free(&got->base);
		}
		malloc_counting = 0;
		assert_int_equal(k, 10);
		if (malloc_calls != 0)
			fail_msg("%s of %zu octets: %lu heap allocations in 10",
			    which == 0 ? "RxFrame" : "TxFrame", sizeof(pl),
			    malloc_calls);
	}
}

/*
 * The arena holds one message: a second one decoded while the first is
 * held comes from the heap, and both stay intact and free in any order.
 * A message larger than the arena's share also decodes (from the heap).
 */
static void
test_arena_two_held(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg *a, *b, *c;
	uint8_t again[IPC_MAX_MSG];
	uint8_t want_a[IPC_MAX_MSG], want_b[IPC_MAX_MSG];
	size_t la, lb;

	assert_int_equal(ipc_encode(sample("netd_rx_event"), want_a,
	    sizeof(want_a), &la), IPC_OK);
	assert_int_equal(ipc_encode(sample("netd_port_list"), want_b,
	    sizeof(want_b), &lb), IPC_OK);
	assert_int_equal(ipc_send(p->a, sample("netd_rx_event")), IPC_OK);
	assert_int_equal(ipc_send(p->a, sample("netd_port_list")), IPC_OK);
	assert_int_equal(ipc_send(p->a, sample("netd_rx_event")), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &a), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &b), IPC_OK);
	/* a's memory was not reused for b: both pack as they were sent. */
	assert_int_equal(protobuf_c_message_pack(&a->base, again), la);
	assert_memory_equal(again, want_a, la);
	assert_int_equal(protobuf_c_message_pack(&b->base, again), lb);
	assert_memory_equal(again, want_b, lb);
	ipc_free(&a->base);
	/* The arena is free again while b is still held. */
	assert_int_equal(ipc_recv_netd(p->b, &c), IPC_OK);
	assert_int_equal(protobuf_c_message_pack(&c->base, again), la);
	assert_memory_equal(again, want_a, la);
	assert_int_equal(protobuf_c_message_pack(&b->base, again), lb);
	assert_memory_equal(again, want_b, lb);
	ipc_free(&b->base);
	ipc_free(&c->base);
	assert_still_usable(p);
}

/* ---- NetdBatch (doc/design.md "Batches") ---- */

/*
 * What a hostile peer could send: refused by ipc_check() with a detail that
 * names the rule, and refused on receive with the socket still usable.
 */
static void
expect_batch_refused(struct pair *p, const ProtobufCMessage *m,
    const char *want)
{
	static uint8_t buf[IPC_MAX_MSG];
	ProtobufCMessage *got;
	size_t len;

	assert_int_equal(ipc_check(m), IPC_E_INVALID);
	assert_string_equal(ipc_detail(), want);
	len = raw_pack(m, buf, sizeof(buf));
	raw_send(p->a, buf, len);
	assert_int_equal(ipc_recv(p->b, m->descriptor, &got), IPC_E_INVALID);
	assert_string_equal(ipc_detail(), want);
	assert_null(got);
	assert_still_usable(p);
}

static void
test_batch_refused(void **state)
{
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg *n, inner, *nine[IPC_BATCH_MAX + 1];
	Ptpsep__Netd__NetdMsg member, *one[1] = { &member };
	Ptpsep__Netd__NetdMsg *saved;
	Ptpsep__Netd__NetdBatch nested;
	size_t i;

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_batch_sync_fup");
	n->batch->n_msgs = 0;
	expect_batch_refused(p, &n->base, "NetdMsg.batch: empty batch");

	n = (Ptpsep__Netd__NetdMsg *)sample("netd_batch_max");
	for (i = 0; i < IPC_BATCH_MAX + 1; i++)
		nine[i] = n->batch->msgs[i % IPC_BATCH_MAX];
	n->batch->msgs = nine;
	n->batch->n_msgs = IPC_BATCH_MAX + 1;
	expect_batch_refused(p, &n->base,
	    "NetdMsg.batch: 9 messages in a batch, at most 8");

	/* A batch in a batch, itself well formed. */
	n = (Ptpsep__Netd__NetdMsg *)sample("netd_batch_sync_fup");
	ptpsep__netd__netd_batch__init(&nested);
	nested.n_msgs = 1;
	saved = n->batch->msgs[0];
	nested.msgs = &saved;
	ptpsep__netd__netd_msg__init(&inner);
	inner.body_case = PTPSEP__NETD__NETD_MSG__BODY_BATCH;
	inner.batch = &nested;
	n->batch->msgs[1] = &inner;
	expect_batch_refused(p, &n->base,
	    "NetdMsg.batch.msgs[1]: a batch may not travel in a batch");

	/* Hello, PortList and Error stay alone in their datagram. */
	memcpy(&member, sample("netd_hello"), sizeof(member));
	n = (Ptpsep__Netd__NetdMsg *)sample("netd_batch_sync_fup");
	n->batch->msgs = one;
	n->batch->n_msgs = 1;
	expect_batch_refused(p, &n->base,
	    "NetdMsg.batch.msgs[0]: a Hello may not travel in a batch");
	memcpy(&member, sample("netd_port_list"), sizeof(member));
	n = (Ptpsep__Netd__NetdMsg *)sample("netd_batch_sync_fup");
	n->batch->msgs = one;
	n->batch->n_msgs = 1;
	expect_batch_refused(p, &n->base,
	    "NetdMsg.batch.msgs[0]: a PortList may not travel in a batch");
	memcpy(&member, sample("netd_error"), sizeof(member));
	n = (Ptpsep__Netd__NetdMsg *)sample("netd_batch_sync_fup");
	n->batch->msgs = one;
	n->batch->n_msgs = 1;
	expect_batch_refused(p, &n->base,
	    "NetdMsg.batch.msgs[0]: an Error may not travel in a batch");

	/* A member with no body (or only a newer peer's unknown one). */
	ptpsep__netd__netd_msg__init(&member);
	n = (Ptpsep__Netd__NetdMsg *)sample("netd_batch_sync_fup");
	n->batch->msgs = one;
	n->batch->n_msgs = 1;
	expect_batch_refused(p, &n->base,
	    "NetdMsg.batch.msgs[0]: no known body");

	/* Every member is checked as a message of its own. */
	n = (Ptpsep__Netd__NetdMsg *)sample("netd_batch_txts_rx");
	n->batch->msgs[1]->rx_frame->payload.len = IPC_MIN_PTP_PAYLOAD - 1;
	expect_batch_refused(p, &n->base, "NetdMsg.batch.msgs[1].rx_frame."
	    "payload: 33 bytes, want 34..1500");
	n = (Ptpsep__Netd__NetdMsg *)sample("netd_batch_tx_clock");
	n->batch->msgs[1]->clock_request->adj_freq->freq_ppb = NAN;
	expect_batch_refused(p, &n->base, "NetdMsg.batch.msgs[1]."
	    "clock_request.adj_freq.freq_ppb: not a finite number");
}

/*
 * A batch of what netd sends most (a two-step Sync and its Follow_Up; a
 * TX timestamp and a frame) and what clockd sends most (a Delay_Req and a
 * frequency change) fits ipc.c's decode arena: no heap allocation.
 */
static void
test_no_malloc_batch(void **state)
{
	static const char *const names[] = { "netd_batch_sync_fup",
	    "netd_batch_txts_rx", "netd_batch_tx_clock" };
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg *got;
	const ProtobufCMessage *m;
	size_t i;
	int k;

	if (!HAVE_MALLOC_COUNT)
		skip();
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		m = sample(names[i]);
		assert_int_equal(ipc_send(p->a, m), IPC_OK);
		assert_int_equal(ipc_recv_netd(p->b, &got), IPC_OK);
		ipc_free(&got->base);
		malloc_calls = 0;
		malloc_counting = 1;
		for (k = 0; k < 100; k++) {
			if (ipc_send(p->a, m) != IPC_OK ||
			    ipc_recv_netd(p->b, &got) != IPC_OK)
				break;
			assert_int_equal(got->batch->n_msgs, 2);
			ipc_free(&got->base);
		}
		malloc_counting = 0;
		assert_int_equal(k, 100);
		if (malloc_calls != 0)
			fail_msg("%s: %lu heap allocations in 100 batches",
			    names[i], malloc_calls);
	}
}

/*
 * The largest legal batch, IPC_BATCH_MAX frames of a full MTU each, fits
 * IPC_MAX_MSG but not the decode arena: it is unpacked again from the
 * heap, intact, and (the sanitizer build checks) freed without a leak;
 * the arena is free again for the next message.
 */
static void
test_batch_largest(void **state)
{
	static uint8_t pl[IPC_MAX_PTP_PAYLOAD];
	static uint8_t want[IPC_MAX_MSG], again[IPC_MAX_MSG];
	static Ptpsep__Netd__NetdMsg member[IPC_BATCH_MAX];
	static Ptpsep__Netd__NetdMsg *ptr[IPC_BATCH_MAX];
	struct pair *p = *state;
	Ptpsep__Netd__NetdMsg env, *got;
	Ptpsep__Netd__NetdBatch b;
	Ptpsep__Netd__RxFrame rx;
	Ptpsep__Timestamp t;
	size_t i, len;
	int k;

	ipc_sample_payload(pl, sizeof(pl), 0x0);
	ptpsep__timestamp__init(&t);
	t.seconds = 1700000000u;
	ptpsep__netd__rx_frame__init(&rx);
	rx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	rx.payload.data = pl;
	rx.payload.len = sizeof(pl);
	rx.rx_ts = &t;
	for (i = 0; i < IPC_BATCH_MAX; i++) {
		ptpsep__netd__netd_msg__init(&member[i]);
		member[i].body_case = PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME;
		member[i].rx_frame = &rx;
		ptr[i] = &member[i];
	}
	ptpsep__netd__netd_batch__init(&b);
	b.n_msgs = IPC_BATCH_MAX;
	b.msgs = ptr;
	ptpsep__netd__netd_msg__init(&env);
	env.body_case = PTPSEP__NETD__NETD_MSG__BODY_BATCH;
	env.batch = &b;
	assert_int_equal(ipc_encode(&env.base, want, sizeof(want), &len),
	    IPC_OK);
	assert_true(len > 8 * IPC_MAX_PTP_PAYLOAD && len <= IPC_MAX_MSG);
	for (k = 0; k < 3; k++) {
		assert_int_equal(ipc_send_netd(p->a, &env), IPC_OK);
		assert_int_equal(ipc_recv_netd(p->b, &got), IPC_OK);
		assert_int_equal(got->batch->n_msgs, IPC_BATCH_MAX);
		assert_int_equal(protobuf_c_message_pack(&got->base, again),
		    len);
		assert_memory_equal(again, want, len);
		ipc_free(&got->base);
	}
	assert_still_usable(p);
}

static void
test_strerror(void **state)
{
	int e;

	(void)state;
	for (e = IPC_OK; e >= IPC_E_ROLE; e--)
		assert_string_not_equal(ipc_strerror(e), "unknown ipc error");
	assert_string_equal(ipc_strerror(IPC_E_ROLE - 1), "unknown ipc error");
	assert_string_equal(ipc_strerror(1), "unknown ipc error");
}

#define PAIR_TEST(f) cmocka_unit_test_setup_teardown(f, setup_pair, teardown_pair)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		PAIR_TEST(test_roundtrip_all_samples),
		PAIR_TEST(test_roundtrip_netd_fields),
		PAIR_TEST(test_roundtrip_ctl),
		cmocka_unit_test(test_port_state_values),
		PAIR_TEST(test_send_empty_refused),
		PAIR_TEST(test_send_toobig_refused),
		PAIR_TEST(test_check_on_receive_only),
		PAIR_TEST(test_send_to_closed_peer),
		PAIR_TEST(test_recv_oversize),
		PAIR_TEST(test_recv_ancillary_truncated),
		PAIR_TEST(test_recv_decode_error),
		PAIR_TEST(test_recv_empty_envelope),
		PAIR_TEST(test_recv_field_number_zero),
		PAIR_TEST(test_recv_eof),
		PAIR_TEST(test_recv_zero_length_is_eof),
		PAIR_TEST(test_recv_again),
		PAIR_TEST(test_hello_ok),
		PAIR_TEST(test_hello_version_mismatch),
		cmocka_unit_test(test_hello_role),
		PAIR_TEST(test_check_invalid),
		PAIR_TEST(test_check_local_bugs),
		cmocka_unit_test(test_check_detail_path),
		cmocka_unit_test(test_worst_case_fits),
		cmocka_unit_test(test_strerror),
		PAIR_TEST(test_no_malloc_per_frame),
		PAIR_TEST(test_no_malloc_full_frame),
		PAIR_TEST(test_arena_two_held),
		PAIR_TEST(test_batch_refused),
		PAIR_TEST(test_no_malloc_batch),
		PAIR_TEST(test_batch_largest),
	};

	return cmocka_run_group_tests_name("ipc", tests, NULL, NULL);
}
