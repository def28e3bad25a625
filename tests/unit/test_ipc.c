/*
 * test_ipc.c - the IPC framing over real SOCK_SEQPACKET socketpairs: every
 * sample's round trip, the typed wrappers, the Hello handshake.  Faults on
 * the socket are in test_ipc_io.c, the structural checks in
 * test_ipc_check.c, heap allocations in test_ipc_alloc.c, NetdBatch in
 * test_ipc_batch.c (shared fixtures: ipc_fixture.h).
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

/*
 * Every sample: send, receive with its envelope's descriptor, and compare
 * the received message packed again with what was sent, byte for byte
 * (protobuf-c packs deterministically, so equal bytes mean equal fields).
 */
static void
test_roundtrip_all_samples(void **state)
{
	struct fx_pair *p = *state;
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
	struct fx_pair *p = *state;
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
	struct fx_pair *p = *state;
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

/* ---- Hello ---- */

static void
test_hello_ok(void **state)
{
	struct fx_pair *p = *state;
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
	struct fx_pair *p = *state;
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_PAIR_TEST(test_roundtrip_all_samples),
		FX_PAIR_TEST(test_roundtrip_netd_fields),
		FX_PAIR_TEST(test_roundtrip_ctl),
		cmocka_unit_test(test_port_state_values),
		FX_PAIR_TEST(test_hello_ok),
		FX_PAIR_TEST(test_hello_version_mismatch),
		cmocka_unit_test(test_hello_role),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests_name("ipc", tests, NULL, NULL);
}
