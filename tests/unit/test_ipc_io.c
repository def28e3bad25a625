/*
 * test_ipc_io.c - the IPC envelope gates on the socket: what ipc_send
 * refuses to send, and what ipc_recv makes of what a peer may send
 * (oversize, ancillary data, undecodable bytes, empty envelopes, end of
 * file, EAGAIN); the connection stays usable after each fault.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "ipc_fixture.h"

/* ---- send side ---- */

static void
test_send_empty_refused(void **state)
{
	struct fx_pair *p = *state;
	Ptpsep__Netd__NetdMsg env = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Ctl__CtlRequest req = PTPSEP__CTL__CTL_REQUEST__INIT;

	assert_int_equal(ipc_send_netd(p->a, &env), IPC_E_EMPTY);
	assert_int_equal(ipc_send_ctl_request(p->a, &req), IPC_E_EMPTY);
	/* The case set but the member NULL is just as empty. */
	env.body_case = PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME;
	assert_int_equal(ipc_send_netd(p->a, &env), IPC_E_EMPTY);
	fx_assert_usable(p);
}

/*
 * No message within the structural limits exceeds the cap (see
 * test_worst_case_fits), so make one too big with unknown fields, which
 * ipc_check does not look at but pack does write.
 */
static void
test_send_toobig_refused(void **state)
{
	struct fx_pair *p = *state;
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
	fx_assert_usable(p);
}

static void
test_send_to_closed_peer(void **state)
{
	struct fx_pair *p = *state;
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
	struct fx_pair *p = *state;
	static uint8_t big[IPC_MAX_MSG + 100];
	Ptpsep__Netd__NetdMsg *got = (void *)1;

	memset(big, 0x08, sizeof(big));
	/* One byte over the cap: the spare byte of the buffer catches it. */
	fx_raw_send(p->a, big, IPC_MAX_MSG + 1);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_OVERSIZE);
	assert_null(got);
	fx_assert_usable(p);
	/* Well over the cap: the kernel truncates, MSG_TRUNC tells the size. */
	fx_raw_send(p->a, big, sizeof(big));
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_OVERSIZE);
	assert_non_null(strstr(ipc_detail(), "16484"));
	fx_assert_usable(p);
	/* Exactly the cap is not oversize: it is judged by its content. */
	fx_raw_send(p->a, big, IPC_MAX_MSG);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_DECODE);
	fx_assert_usable(p);
	/* The pure decoder applies the same cap. */
	assert_int_equal(ipc_decode(&ptpsep__netd__netd_msg__descriptor, big,
	    IPC_MAX_MSG + 1, (ProtobufCMessage **)(void *)&got),
	    IPC_E_OVERSIZE);
}

/* A peer passing a file descriptor: refused, and the descriptor dropped. */
static void
test_recv_ancillary_truncated(void **state)
{
	struct fx_pair *p = *state;
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

	len = fx_raw_pack(ipc_samples[0].build(), buf, sizeof(buf));
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
	fx_assert_usable(p);
}

static void
test_recv_decode_error(void **state)
{
	struct fx_pair *p = *state;
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
	len = fx_raw_pack(ipc_samples[2].build(), buf, sizeof(buf));
	for (i = 1; i < len; i++) {
		fx_raw_send(p->a, buf, i);
		if (ipc_recv_netd(p->b, &got) != IPC_E_DECODE)
			fail_msg("prefix %zu of %zu: %s", i, len, ipc_detail());
	}
	fx_raw_send(p->a, short_len, sizeof(short_len));
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_DECODE);
	fx_raw_send(p->a, bad_wire, sizeof(bad_wire));
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_DECODE);
	fx_raw_send(p->a, endless, sizeof(endless));
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_DECODE);
	assert_null(got);
	fx_assert_usable(p);
}

static void
test_recv_empty_envelope(void **state)
{
	struct fx_pair *p = *state;
	/* Field 99, varint 1: a body from a newer peer we do not know. */
	static const uint8_t unknown[] = { 0x98, 0x06, 0x01 };
	/* A known scalar-less envelope: nothing but a zero-length unknown. */
	static const uint8_t unknown_len[] = { 0xa2, 0x06, 0x00 };
	Ptpsep__Ctl__CtlRequest *req;
	Ptpsep__Netd__NetdMsg *got;

	fx_raw_send(p->a, unknown, sizeof(unknown));
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_EMPTY);
	assert_null(got);
	fx_raw_send(p->a, unknown_len, sizeof(unknown_len));
	assert_int_equal(ipc_recv_ctl_request(p->b, &req), IPC_E_EMPTY);
	assert_null(req);
	/* The pure decoder: an empty buffer is an empty envelope. */
	assert_int_equal(ipc_decode(&ptpsep__netd__netd_msg__descriptor,
	    unknown, 0, (ProtobufCMessage **)(void *)&got), IPC_E_EMPTY);
	fx_assert_usable(p);
}

/*
 * protobuf-c 1.4.1 unpacks an overlong field number 0 as an unknown field
 * but refuses its own re-encoding of it; found by fuzz_ipc.
 */
static void
test_recv_field_number_zero(void **state)
{
	struct fx_pair *p = *state;
	static const uint8_t tag0[] = { 0x80, 0x00, 0x5d, 0x1a, 0x00 };
	Ptpsep__Netd__NetdMsg *got;

	fx_raw_send(p->a, tag0, sizeof(tag0));
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_INVALID);
	assert_null(got);
	assert_non_null(strstr(ipc_detail(), "field number 0"));
	fx_assert_usable(p);
}

static void
test_recv_eof(void **state)
{
	struct fx_pair *p = *state;
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
	struct fx_pair *p = *state;
	Ptpsep__Netd__NetdMsg *got;
	uint8_t none = 0;

	assert_int_equal(send(p->a, &none, 0, MSG_NOSIGNAL), 0);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_EOF);
}

static void
test_recv_again(void **state)
{
	struct fx_pair *p = *state;
	Ptpsep__Netd__NetdMsg *got;

	assert_int_equal(fcntl(p->b, F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_AGAIN);
	assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
	assert_null(got);
	fx_assert_usable(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_PAIR_TEST(test_send_empty_refused),
		FX_PAIR_TEST(test_send_toobig_refused),
		FX_PAIR_TEST(test_send_to_closed_peer),
		FX_PAIR_TEST(test_recv_oversize),
		FX_PAIR_TEST(test_recv_ancillary_truncated),
		FX_PAIR_TEST(test_recv_decode_error),
		FX_PAIR_TEST(test_recv_empty_envelope),
		FX_PAIR_TEST(test_recv_field_number_zero),
		FX_PAIR_TEST(test_recv_eof),
		FX_PAIR_TEST(test_recv_zero_length_is_eof),
		FX_PAIR_TEST(test_recv_again),
	};

	return cmocka_run_group_tests_name("ipc_io", tests, NULL, NULL);
}
