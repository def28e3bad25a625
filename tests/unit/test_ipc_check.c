/*
 * test_ipc_check.c - ipc_check's structural limits, at the sender and at
 * the receiver, the detail that names the field, and the worst-case
 * messages that justify IPC_MAX_MSG.
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

/* ---- structural checks, both at the sender and at the receiver ---- */

/*
 * Mutates a sample in place into something that breaks one limit, then
 * shows that ipc_check refuses it, that ipc_send sends it all the same
 * (the check runs on receive only, ipc.h), and that ipc_recv refuses what
 * arrives; the connection stays usable.
 */
static void
expect_invalid(struct fx_pair *p, const ProtobufCMessage *m, const char *what)
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

/*
 * ipc_check runs on receive only (issue 13): a message over a structural
 * limit leaves the sender and is refused by the receiver, which is where
 * the check protects anything.  Before, ipc_send walked it too and said
 * IPC_E_INVALID.
 */
static void
test_check_on_receive_only(void **state)
{
	struct fx_pair *p = *state;
	Ptpsep__Netd__NetdMsg *n, *got;

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_rx_event");
	n->rx_frame->rx_ts->nanoseconds = 1000000000u;
	assert_int_equal(ipc_send_netd(p->a, n), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_INVALID);
	assert_string_equal(ipc_detail(),
	    "NetdMsg.rx_frame.rx_ts: nanoseconds 1000000000 >= 1e9");
	assert_null(got);

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_batch_sync_fup");
	n->batch->n_msgs = 0;
	assert_int_equal(ipc_send_netd(p->a, n), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_E_INVALID);
	assert_null(got);
	fx_assert_usable(p);
}

static void
test_check_invalid(void **state)
{
	struct fx_pair *p = *state;
	Ptpsep__Netd__NetdMsg *n;
	Ptpsep__Ctl__CtlResponse *r;
	static char long_iface[] = "abcdefghijklmnop";	/* 16 */
	static char slash_iface[] = "../etc";
	static char newline[] = "forged\nlog line";
	static char too_long[IPC_MAX_TEXT + 2];
	static uint8_t seven[7], nine[9], big[IPC_MAX_PTP_PAYLOAD + 1];
	static Ptpsep__Netd__Address *many[IPC_MAX_ADDRS + 1];

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_rx_event");
	n->rx_frame->rx_ts->nanoseconds = 1000000000u;
	expect_invalid(p, &n->base, "nanoseconds 1e9");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_rx_event");
	n->rx_frame->msg_class = (Ptpsep__MsgClass)3;
	expect_invalid(p, &n->base, "unknown enum value");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_rx_event");
	n->rx_frame->payload.len = IPC_MIN_PTP_PAYLOAD - 1;
	expect_invalid(p, &n->base, "payload below the PTP header");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_tx_primary");
	n->tx_frame->payload.data = big;
	n->tx_frame->payload.len = sizeof(big);
	expect_invalid(p, &n->base, "payload above the MTU");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_rx_event");
	n->rx_frame->source->addr.len = 4;	/* MAC family, 4 bytes */
	expect_invalid(p, &n->base, "address length for its family");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_tx_unicast");
	n->tx_frame->unicast->family =
	    PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_UNSPECIFIED;
	expect_invalid(p, &n->base, "address without family");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_port_list");
	n->port_list->ports[0]->clock_identity.data = seven;
	n->port_list->ports[0]->clock_identity.len = sizeof(seven);
	expect_invalid(p, &n->base, "7-byte clock identity");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_port_list");
	n->port_list->ports[0]->mac.len = 5;
	expect_invalid(p, &n->base, "5-byte MAC");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_port_list");
	n->port_list->ports[0]->iface = long_iface;
	expect_invalid(p, &n->base, "16-char interface name");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_port_list");
	n->port_list->ports[1]->iface = slash_iface;
	expect_invalid(p, &n->base, "interface name with '/'");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_port_list");
	n->port_list->ports[1]->n_addresses = IPC_MAX_ADDRS + 1;
	for (size_t i = 0; i < IPC_MAX_ADDRS + 1; i++)
		many[i] = n->port_list->ports[1]->addresses[i % 2];
	n->port_list->ports[1]->addresses = many;
	expect_invalid(p, &n->base, "too many addresses");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_port_list");
	n->port_list->clock->max_freq_ppb = NAN;
	expect_invalid(p, &n->base, "NaN");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_clock_adj_freq");
	n->clock_request->adj_freq->freq_ppb = -INFINITY;
	expect_invalid(p, &n->base, "infinite frequency");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_error");
	n->error->message = newline;
	expect_invalid(p, &n->base, "newline in a string");

	memset(too_long, 'x', sizeof(too_long) - 1);
	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_hello");
	n->hello->software_version = too_long;
	expect_invalid(p, &n->base, "string over IPC_MAX_TEXT");

	r = (Ptpsep__Ctl__CtlResponse *)fx_sample("rsp_status");
	r->status->gm_identity.data = nine;
	r->status->gm_identity.len = sizeof(nine);
	expect_invalid(p, &r->base, "9-byte gm identity");

	r = (Ptpsep__Ctl__CtlResponse *)fx_sample("rsp_port_ds");
	r->dataset->port_ds->port_state = (Ptpsep__Ctl__PortState)10;
	expect_invalid(p, &r->base, "port state 10");

	fx_assert_usable(p);
}

/*
 * Sender bugs that protobuf-c would crash on while packing are found by
 * ipc_check(), which a test runs on what the code under test builds (the
 * sender no longer does, ipc.h).
 */
static void
test_check_local_bugs(void **state)
{
	struct fx_pair *p = *state;
	Ptpsep__Netd__NetdMsg *n;
	Ptpsep__Ctl__CtlResponse *r;
	Ptpsep__Netd__Port *null_ports[1] = { NULL };
	Ptpsep__Timestamp wrong;

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_port_list");
	n->port_list->ports = null_ports;
	n->port_list->n_ports = 1;
	assert_int_equal(ipc_check(&n->base), IPC_E_INVALID);

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_port_list");
	n->port_list->ports = NULL;
	assert_int_equal(ipc_check(&n->base), IPC_E_INVALID);

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_rx_event");
	n->rx_frame->payload.data = NULL;
	assert_int_equal(ipc_check(&n->base), IPC_E_INVALID);

	/* A Timestamp where a Port belongs. */
	ptpsep__timestamp__init(&wrong);
	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_link_event");
	n->link_event->port = (Ptpsep__Netd__Port *)(void *)&wrong;
	assert_int_equal(ipc_check(&n->base), IPC_E_INVALID);

	/* SetRequest{priority1}: the oneof union is not read as a pointer. */
	r = (Ptpsep__Ctl__CtlResponse *)fx_sample("rsp_set");
	assert_int_equal(ipc_check(&r->base), IPC_OK);
	assert_int_equal(ipc_check(fx_sample("req_set_priority1")), IPC_OK);
	fx_assert_usable(p);
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
	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_rx_event");
	n->rx_frame->rx_ts->nanoseconds = 1000000000u;
	expect_detail(&n->base,
	    "NetdMsg.rx_frame.rx_ts: nanoseconds 1000000000 >= 1e9");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_rx_event");
	n->rx_frame->payload.len = IPC_MIN_PTP_PAYLOAD - 1;
	expect_detail(&n->base,
	    "NetdMsg.rx_frame.payload: 33 bytes, want 34..1500");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_port_list");
	n->port_list->ports[1]->iface = slash_iface;
	expect_detail(&n->base, "NetdMsg.port_list.ports[1].iface: "
	    "\"../etc\" is not an interface name");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_port_list");
	n->port_list->ports[1]->n_addresses = IPC_MAX_ADDRS + 1;
	for (size_t i = 0; i < IPC_MAX_ADDRS + 1; i++)
		many[i] = n->port_list->ports[1]->addresses[i % 2];
	n->port_list->ports[1]->addresses = many;
	expect_detail(&n->base, "NetdMsg.port_list.ports[1].addresses: "
	    "5 elements, at most 4");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_port_list");
	n->port_list->ports[1]->addresses[1]->addr.len = 5;
	expect_detail(&n->base, "NetdMsg.port_list.ports[1].addresses[1]: "
	    "5 address bytes for family 3, want 16");

	n = (Ptpsep__Netd__NetdMsg *)fx_sample("netd_port_list");
	null_ports[0] = n->port_list->ports[0];
	null_ports[1] = NULL;
	n->port_list->ports = null_ports;
	expect_detail(&n->base, "NetdMsg.port_list.ports[1]: NULL element");

	r = (Ptpsep__Ctl__CtlResponse *)fx_sample("rsp_port_ds");
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_PAIR_TEST(test_check_on_receive_only),
		FX_PAIR_TEST(test_check_invalid),
		FX_PAIR_TEST(test_check_local_bugs),
		cmocka_unit_test(test_check_detail_path),
		cmocka_unit_test(test_worst_case_fits),
	};

	return cmocka_run_group_tests_name("ipc_check", tests, NULL, NULL);
}
