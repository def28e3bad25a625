/*
 * ipc_samples.c - a well-formed envelope of every kind.
 *
 * Each builder keeps its message tree in static storage, so the samples can
 * be packed, sent and compared without any allocation to free.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "ipc_samples.h"

static uint8_t clock_id_a[8] = { 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 };
static uint8_t clock_id_b[8] = { 0x0a, 0xbb, 0xcc, 0xff, 0xfe, 0xdd, 0xee, 0x01 };
static uint8_t mac_a[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
static uint8_t ipv4_a[4] = { 192, 0, 2, 10 };
static uint8_t ipv6_a[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
    0x00, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 };
static uint8_t payload_sync[44];
static uint8_t payload_announce[64];
static char iface0[] = "veth0";
static char iface1[] = "eth1";
static char device_virtual[] = "virtual";
static char sw_version[] = "0.1.0";
static char err_busy[] = "another ptp-clockd is connected";
static char err_denied[] = "SetRequest needs membership of admin_group";

void
ipc_sample_payload(uint8_t *buf, size_t len, unsigned t)
{
	memset(buf, 0, len);
	buf[0] = (uint8_t)(t & 0x0f);	/* majorSdoId 0, messageType */
	buf[1] = 0x02;			/* versionPTP 2 */
	buf[2] = (uint8_t)(len >> 8);	/* messageLength */
	buf[3] = (uint8_t)len;
}

static ProtobufCBinaryData
bin(uint8_t *p, size_t len)
{
	ProtobufCBinaryData b = { .len = len, .data = p };

	return b;
}

static Ptpsep__Hello *
hello(Ptpsep__Role role)
{
	static Ptpsep__Hello h;

	ipc_hello_init(&h, role);
	h.software_version = sw_version;
	return &h;
}

/* ---- netd channel ---- */

static Ptpsep__Netd__NetdMsg netd_env;

static const ProtobufCMessage *
netd_body(Ptpsep__Netd__NetdMsg__BodyCase c, void *body)
{
	ptpsep__netd__netd_msg__init(&netd_env);
	netd_env.body_case = c;
	/* Every member of the union is a message pointer. */
	netd_env.hello = body;
	return &netd_env.base;
}

static const ProtobufCMessage *
s_netd_hello(void)
{
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_HELLO,
	    hello(PTPSEP__ROLE__ROLE_NETD));
}

static Ptpsep__Netd__Port *
sample_port(unsigned which)
{
	static Ptpsep__Netd__Port port[2];
	static Ptpsep__Netd__Address a4, a6;
	static Ptpsep__Netd__Address *addrs[2] = { &a4, &a6 };
	Ptpsep__Netd__Port *p = &port[which];

	ptpsep__netd__port__init(p);
	p->index = which;
	p->link_up = 1;
	p->mac = bin(mac_a, sizeof(mac_a));
	p->clock_identity = bin(clock_id_a, sizeof(clock_id_a));
	if (which == 0) {
		p->iface = iface0;
		p->transport = PTPSEP__TRANSPORT__TRANSPORT_L2;
		p->ts_mode = PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE;
	} else {
		ptpsep__netd__address__init(&a4);
		a4.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV4;
		a4.addr = bin(ipv4_a, sizeof(ipv4_a));
		ptpsep__netd__address__init(&a6);
		a6.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV6;
		a6.addr = bin(ipv6_a, sizeof(ipv6_a));
		p->iface = iface1;
		p->transport = PTPSEP__TRANSPORT__TRANSPORT_UDP_IPV4;
		p->ts_mode = PTPSEP__TIMESTAMP_MODE__TS_MODE_HARDWARE;
		p->one_step = 1;
		p->n_addresses = 2;
		p->addresses = addrs;
	}
	return p;
}

static Ptpsep__Netd__ClockInfo *
sample_clock_info(void)
{
	static Ptpsep__Netd__ClockInfo ci;

	ptpsep__netd__clock_info__init(&ci);
	ci.device = device_virtual;
	ci.max_freq_ppb = 500000.0;
	ci.step_allowed = 1;
	ci.min_adj_interval_ms = 100;
	return &ci;
}

/* The system clock (sync_system_clock 1): virtual, compared exactly. */
static Ptpsep__Netd__ClockInfo *
sample_sys_clock_info(void)
{
	static Ptpsep__Netd__ClockInfo ci;

	ptpsep__netd__clock_info__init(&ci);
	ci.device = device_virtual;
	ci.max_freq_ppb = 500000.0;
	ci.step_allowed = 1;
	ci.max_step_ns = 2000000000;
	ci.min_adj_interval_ms = 100;
	ci.phc_index = -1;
	ci.sysoff = PTPSEP__NETD__SYSOFF_METHOD__SYSOFF_SAME_BASE;
	ci.leap_allowed = 1;
	return &ci;
}

static const ProtobufCMessage *
s_netd_port_list(void)
{
	static Ptpsep__Netd__PortList pl;
	static Ptpsep__Netd__Port *ports[2];

	ptpsep__netd__port_list__init(&pl);
	ports[0] = sample_port(0);
	ports[1] = sample_port(1);
	pl.n_ports = 2;
	pl.ports = ports;
	pl.clock = sample_clock_info();
	pl.clock->ptp_timescale = 1;
	pl.clock->phc_index = -1;
	pl.system_clock = sample_sys_clock_info();
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_PORT_LIST, &pl);
}

static Ptpsep__Timestamp *
ts(unsigned which, uint64_t s, uint32_t ns)
{
	static Ptpsep__Timestamp t[2];

	ptpsep__timestamp__init(&t[which]);
	t[which].seconds = s;
	t[which].nanoseconds = ns;
	return &t[which];
}

static const ProtobufCMessage *
s_netd_rx_event(void)
{
	static Ptpsep__Netd__RxFrame rx;
	static Ptpsep__Netd__Address src;

	ipc_sample_payload(payload_sync, sizeof(payload_sync), 0x0);
	ptpsep__netd__address__init(&src);
	src.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_MAC;
	src.addr = bin(mac_a, sizeof(mac_a));
	ptpsep__netd__rx_frame__init(&rx);
	rx.port_index = 0;
	rx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	rx.payload = bin(payload_sync, sizeof(payload_sync));
	rx.rx_ts = ts(0, 1700000000u, 999999999u);
	rx.ts_source = PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE;
	rx.source = &src;
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME, &rx);
}

/* General messages carry no timestamp: rx_ts stays NULL. */
static const ProtobufCMessage *
s_netd_rx_general(void)
{
	static Ptpsep__Netd__RxFrame rx;
	static Ptpsep__Netd__Address src;

	ipc_sample_payload(payload_announce, sizeof(payload_announce), 0xb);
	ptpsep__netd__address__init(&src);
	src.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV6;
	src.addr = bin(ipv6_a, sizeof(ipv6_a));
	ptpsep__netd__rx_frame__init(&rx);
	rx.port_index = 1;
	rx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
	rx.payload = bin(payload_announce, sizeof(payload_announce));
	rx.source = &src;
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME, &rx);
}

static const ProtobufCMessage *
s_netd_tx_primary(void)
{
	static Ptpsep__Netd__TxFrame tx;

	ipc_sample_payload(payload_sync, sizeof(payload_sync), 0x0);
	ptpsep__netd__tx_frame__init(&tx);
	tx.port_index = 0;
	tx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	tx.dest = PTPSEP__NETD__DESTINATION__DEST_PRIMARY;
	tx.payload = bin(payload_sync, sizeof(payload_sync));
	tx.cookie = UINT64_MAX;
	tx.want_tx_ts = 1;
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME, &tx);
}

static const ProtobufCMessage *
s_netd_tx_unicast(void)
{
	static Ptpsep__Netd__TxFrame tx;
	static Ptpsep__Netd__Address dst;

	ipc_sample_payload(payload_announce, sizeof(payload_announce), 0xb);
	ptpsep__netd__address__init(&dst);
	dst.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV4;
	dst.addr = bin(ipv4_a, sizeof(ipv4_a));
	ptpsep__netd__tx_frame__init(&tx);
	tx.port_index = 1;
	tx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
	tx.dest = PTPSEP__NETD__DESTINATION__DEST_UNICAST;
	tx.unicast = &dst;
	tx.payload = bin(payload_announce, sizeof(payload_announce));
	tx.cookie = 7;
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME, &tx);
}

static const ProtobufCMessage *
s_netd_txts_ok(void)
{
	static Ptpsep__Netd__TxTimestamp t;

	ptpsep__netd__tx_timestamp__init(&t);
	t.cookie = UINT64_MAX;
	t.port_index = 0;
	t.status = PTPSEP__NETD__TX_TS_STATUS__TXTS_OK;
	t.ts = ts(1, 1700000001u, 123);
	t.ts_source = PTPSEP__TIMESTAMP_MODE__TS_MODE_HARDWARE;
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP, &t);
}

static const ProtobufCMessage *
s_netd_txts_missing(void)
{
	static Ptpsep__Netd__TxTimestamp t;

	ptpsep__netd__tx_timestamp__init(&t);
	t.cookie = 42;
	t.port_index = 1;
	t.status = PTPSEP__NETD__TX_TS_STATUS__TXTS_MISSING;
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP, &t);
}

static Ptpsep__Netd__ClockRequest clock_req;

static const ProtobufCMessage *
clock_request(Ptpsep__Netd__ClockRequest__OpCase c, void *op)
{
	ptpsep__netd__clock_request__init(&clock_req);
	clock_req.id = 1000u + (unsigned)c;
	clock_req.op_case = c;
	clock_req.read = op;	/* every member is a message pointer */
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST,
	    &clock_req);
}

static const ProtobufCMessage *
s_netd_clock_read(void)
{
	static Ptpsep__Netd__ClockRead r;

	ptpsep__netd__clock_read__init(&r);
	return clock_request(PTPSEP__NETD__CLOCK_REQUEST__OP_READ, &r);
}

static const ProtobufCMessage *
s_netd_clock_adj_freq(void)
{
	static Ptpsep__Netd__ClockAdjFreq a;

	ptpsep__netd__clock_adj_freq__init(&a);
	a.freq_ppb = -12345.678;
	return clock_request(PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ, &a);
}

static const ProtobufCMessage *
s_netd_clock_step(void)
{
	static Ptpsep__Netd__ClockStep s;

	ptpsep__netd__clock_step__init(&s);
	s.offset_ns = -1500000000;
	return clock_request(PTPSEP__NETD__CLOCK_REQUEST__OP_STEP, &s);
}

static const ProtobufCMessage *
s_netd_clock_get_status(void)
{
	static Ptpsep__Netd__ClockGetStatus g;

	ptpsep__netd__clock_get_status__init(&g);
	return clock_request(PTPSEP__NETD__CLOCK_REQUEST__OP_GET_STATUS, &g);
}

static const ProtobufCMessage *
s_netd_clock_compare(void)
{
	static Ptpsep__Netd__ClockCompare c;

	ptpsep__netd__clock_compare__init(&c);
	return clock_request(PTPSEP__NETD__CLOCK_REQUEST__OP_COMPARE, &c);
}

/* A leap second inserted on the system clock, with TAI - UTC. */
static const ProtobufCMessage *
s_netd_sys_clock_set_leap(void)
{
	static Ptpsep__Netd__ClockSetLeap l;
	const ProtobufCMessage *m;

	ptpsep__netd__clock_set_leap__init(&l);
	l.leap = 1;
	l.tai_offset = 37;
	l.set_tai = 1;
	m = clock_request(PTPSEP__NETD__CLOCK_REQUEST__OP_SET_LEAP, &l);
	clock_req.system_clock = 1;
	return m;
}

/* An adjustment of the system clock (ClockRequest.system_clock). */
static const ProtobufCMessage *
s_netd_sys_clock_adj_freq(void)
{
	static Ptpsep__Netd__ClockAdjFreq a;
	const ProtobufCMessage *m;

	ptpsep__netd__clock_adj_freq__init(&a);
	a.freq_ppb = 20000.5;
	m = clock_request(PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ, &a);
	clock_req.system_clock = 1;
	return m;
}

/* The answer to a compare: PHC on TAI, 37 s ahead, EXTENDED bracket. */
static const ProtobufCMessage *
s_netd_clock_reply_offset(void)
{
	static Ptpsep__Netd__ClockReply r;
	static Ptpsep__Netd__ClockOffset o;

	ptpsep__netd__clock_reply__init(&r);
	ptpsep__netd__clock_offset__init(&o);
	r.id = 1007;
	r.status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK;
	r.now = ts(0, 1700000039u, 9);
	o.sys_minus_ptp_ns = -37000000050LL;
	o.ptp_time = ts(0, 1700000039u, 7);
	o.delay_ns = 900;
	o.method = PTPSEP__NETD__SYSOFF_METHOD__SYSOFF_EXTENDED;
	r.offset = &o;
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY, &r);
}

static const ProtobufCMessage *
s_netd_clock_reply_ok(void)
{
	static Ptpsep__Netd__ClockReply r;

	ptpsep__netd__clock_reply__init(&r);
	r.id = 1003;
	r.status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK;
	r.now = ts(0, 1700000002u, 5);
	r.freq_ppb = -12345.678;
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY, &r);
}

static const ProtobufCMessage *
s_netd_clock_reply_refused(void)
{
	static Ptpsep__Netd__ClockReply r;

	ptpsep__netd__clock_reply__init(&r);
	r.id = 1004;
	r.status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_REFUSED;
	r.reason = PTPSEP__REFUSE_REASON__REFUSE_STEP_NOT_ALLOWED;
	r.now = ts(0, 1700000003u, 6);
	r.freq_ppb = 10.5;
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY, &r);
}

static const ProtobufCMessage *
s_netd_link_event(void)
{
	static Ptpsep__Netd__LinkEvent e;

	ptpsep__netd__link_event__init(&e);
	e.port_index = 1;
	e.link_up = 1;
	e.reopened = 1;
	e.port = sample_port(1);
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_LINK_EVENT, &e);
}

static Ptpsep__Error *
error(Ptpsep__ErrorCode code, const char *msg)
{
	static Ptpsep__Error e;

	ipc_error_init(&e, code, msg);
	return &e;
}

static const ProtobufCMessage *
s_netd_error(void)
{
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_ERROR,
	    error(PTPSEP__ERROR_CODE__ERROR_BUSY, err_busy));
}

/*
 * ---- netd channel: batches (doc/design.md "Batches") ----
 *
 * Each member is a copy of the envelope a builder above returns, so the
 * builders keep their own static bodies; a builder used twice yields two
 * members sharing one body, which packs the same.
 */
static Ptpsep__Netd__NetdMsg batch_member[IPC_BATCH_MAX];
static Ptpsep__Netd__NetdMsg *batch_ptr[IPC_BATCH_MAX];

typedef const ProtobufCMessage *(*builder)(void);

static const ProtobufCMessage *
batch_of(size_t n, const builder *build)
{
	static Ptpsep__Netd__NetdBatch b;
	size_t i;

	for (i = 0; i < n && i < IPC_BATCH_MAX; i++) {
		memcpy(&batch_member[i], build[i](), sizeof(batch_member[i]));
		batch_ptr[i] = &batch_member[i];
	}
	ptpsep__netd__netd_batch__init(&b);
	b.n_msgs = i;
	b.msgs = batch_ptr;
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_BATCH, &b);
}

static uint8_t payload_two_step[44];
static uint8_t payload_follow_up[44];

/* A Sync with twoStepFlag (flagField octet 0 bit 1, IEEE 1588-2019 13.3.2.8). */
static const ProtobufCMessage *
rx_sync_two_step(void)
{
	static Ptpsep__Netd__RxFrame rx;
	static Ptpsep__Netd__Address src;

	ipc_sample_payload(payload_two_step, sizeof(payload_two_step), 0x0);
	payload_two_step[6] = 0x02;
	ptpsep__netd__address__init(&src);
	src.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_MAC;
	src.addr = bin(mac_a, sizeof(mac_a));
	ptpsep__netd__rx_frame__init(&rx);
	rx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	rx.payload = bin(payload_two_step, sizeof(payload_two_step));
	rx.rx_ts = ts(0, 1700000000u, 999999999u);
	rx.ts_source = PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE;
	rx.source = &src;
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME, &rx);
}

static const ProtobufCMessage *
rx_follow_up(void)
{
	static Ptpsep__Netd__RxFrame rx;
	static Ptpsep__Netd__Address src;

	ipc_sample_payload(payload_follow_up, sizeof(payload_follow_up), 0x8);
	ptpsep__netd__address__init(&src);
	src.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_MAC;
	src.addr = bin(mac_a, sizeof(mac_a));
	ptpsep__netd__rx_frame__init(&rx);
	rx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
	rx.payload = bin(payload_follow_up, sizeof(payload_follow_up));
	rx.source = &src;
	return netd_body(PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME, &rx);
}

/* netd -> clockd: a two-step Sync and its Follow_Up. */
static const ProtobufCMessage *
s_netd_batch_sync_fup(void)
{
	static const builder b[] = { rx_sync_two_step, rx_follow_up };

	return batch_of(2, b);
}

/* netd -> clockd: a held TX timestamp and the frame that took it along. */
static const ProtobufCMessage *
s_netd_batch_txts_rx(void)
{
	static const builder b[] = { s_netd_txts_ok, s_netd_rx_event };

	return batch_of(2, b);
}

/* clockd -> netd: a Delay_Req and the frequency change of one sample. */
static const ProtobufCMessage *
s_netd_batch_tx_clock(void)
{
	static const builder b[] = { s_netd_tx_primary,
	    s_netd_clock_adj_freq };

	return batch_of(2, b);
}

/* The most a batch may hold: every kind a batch may carry, in turn. */
static const ProtobufCMessage *
s_netd_batch_max(void)
{
	static const builder kinds[] = { s_netd_txts_missing,
	    rx_sync_two_step, rx_follow_up, s_netd_rx_general,
	    s_netd_clock_reply_refused, s_netd_link_event,
	    s_netd_tx_unicast, s_netd_clock_step };
	static builder b[IPC_BATCH_MAX];
	size_t i;

	for (i = 0; i < IPC_BATCH_MAX; i++)
		b[i] = kinds[i % (sizeof(kinds) / sizeof(kinds[0]))];
	return batch_of(IPC_BATCH_MAX, b);
}

/* ---- control channel: requests ---- */

static Ptpsep__Ctl__CtlRequest req_env;

static const ProtobufCMessage *
req_body(Ptpsep__Ctl__CtlRequest__BodyCase c, void *body)
{
	ptpsep__ctl__ctl_request__init(&req_env);
	req_env.body_case = c;
	req_env.hello = body;	/* every member is a message pointer */
	return &req_env.base;
}

static const ProtobufCMessage *
s_req_hello(void)
{
	return req_body(PTPSEP__CTL__CTL_REQUEST__BODY_HELLO,
	    hello(PTPSEP__ROLE__ROLE_CTL));
}

static const ProtobufCMessage *
s_req_status(void)
{
	static Ptpsep__Ctl__StatusRequest r;

	ptpsep__ctl__status_request__init(&r);
	return req_body(PTPSEP__CTL__CTL_REQUEST__BODY_STATUS, &r);
}

static const ProtobufCMessage *
s_req_ports(void)
{
	static Ptpsep__Ctl__PortsRequest r;

	ptpsep__ctl__ports_request__init(&r);
	return req_body(PTPSEP__CTL__CTL_REQUEST__BODY_PORTS, &r);
}

static const ProtobufCMessage *
s_req_dataset(void)
{
	static Ptpsep__Ctl__DatasetRequest r;

	ptpsep__ctl__dataset_request__init(&r);
	r.kind = PTPSEP__CTL__DATASET_KIND__DATASET_PORT;
	r.port_number = 2;
	return req_body(PTPSEP__CTL__CTL_REQUEST__BODY_DATASET, &r);
}

static const ProtobufCMessage *
s_req_foreign(void)
{
	static Ptpsep__Ctl__ForeignRequest r;

	ptpsep__ctl__foreign_request__init(&r);
	r.port_number = 1;
	return req_body(PTPSEP__CTL__CTL_REQUEST__BODY_FOREIGN, &r);
}

static const ProtobufCMessage *
s_req_netd_info(void)
{
	static Ptpsep__Ctl__NetdInfoRequest r;

	ptpsep__ctl__netd_info_request__init(&r);
	return req_body(PTPSEP__CTL__CTL_REQUEST__BODY_NETD_INFO, &r);
}

/* priority1 = 0 is a value, not "unset": the oneof case says it is there. */
static const ProtobufCMessage *
s_req_set_priority1(void)
{
	static Ptpsep__Ctl__SetRequest r;

	ptpsep__ctl__set_request__init(&r);
	r.what_case = PTPSEP__CTL__SET_REQUEST__WHAT_PRIORITY1;
	r.priority1 = 0;
	return req_body(PTPSEP__CTL__CTL_REQUEST__BODY_SET, &r);
}

static const ProtobufCMessage *
s_req_set_port_enable(void)
{
	static Ptpsep__Ctl__SetRequest r;
	static Ptpsep__Ctl__PortEnable pe;

	ptpsep__ctl__port_enable__init(&pe);
	pe.port_number = 2;
	pe.enable = 0;
	ptpsep__ctl__set_request__init(&r);
	r.what_case = PTPSEP__CTL__SET_REQUEST__WHAT_PORT_ENABLE;
	r.port_enable = &pe;
	return req_body(PTPSEP__CTL__CTL_REQUEST__BODY_SET, &r);
}

/* ---- control channel: responses ---- */

static Ptpsep__Ctl__CtlResponse rsp_env;

static const ProtobufCMessage *
rsp_body(Ptpsep__Ctl__CtlResponse__BodyCase c, void *body)
{
	ptpsep__ctl__ctl_response__init(&rsp_env);
	rsp_env.body_case = c;
	rsp_env.hello = body;	/* every member is a message pointer */
	return &rsp_env.base;
}

static const ProtobufCMessage *
s_rsp_hello(void)
{
	return rsp_body(PTPSEP__CTL__CTL_RESPONSE__BODY_HELLO,
	    hello(PTPSEP__ROLE__ROLE_CLOCKD));
}

static Ptpsep__Ctl__PortStatus *
port_status(unsigned which)
{
	static Ptpsep__Ctl__PortStatus ps[2];

	ptpsep__ctl__port_status__init(&ps[which]);
	ps[which].port_number = which + 1;
	ps[which].iface = which == 0 ? iface0 : iface1;
	ps[which].state = which == 0 ? PTPSEP__CTL__PORT_STATE__PORT_STATE_SLAVE :
	    PTPSEP__CTL__PORT_STATE__PORT_STATE_MASTER;
	ps[which].since_state_change_ms = 12345;
	return &ps[which];
}

static const ProtobufCMessage *
s_rsp_status(void)
{
	static Ptpsep__Ctl__Status s;
	static Ptpsep__Ctl__PortStatus *ports[2];

	ptpsep__ctl__status__init(&s);
	s.clock_identity = bin(clock_id_a, sizeof(clock_id_a));
	s.gm_identity = bin(clock_id_b, sizeof(clock_id_b));
	s.offset_ns = -37;
	s.mean_path_delay_ns = 812;
	s.freq_ppb = -12345.678;
	s.servo_state = PTPSEP__CTL__SERVO_STATE__SERVO_STATE_LOCKED;
	ports[0] = port_status(0);
	ports[1] = port_status(1);
	s.n_ports = 2;
	s.ports = ports;
	s.gm_clock_class = 6;
	s.steps_removed = 1;
	return rsp_body(PTPSEP__CTL__CTL_RESPONSE__BODY_STATUS, &s);
}

static Ptpsep__PortIdentity *
port_identity(uint8_t *id, uint32_t num)
{
	static Ptpsep__PortIdentity pi[2];
	static unsigned next;
	Ptpsep__PortIdentity *p = &pi[next++ % 2];

	ptpsep__port_identity__init(p);
	p->clock_identity = bin(id, 8);
	p->port_number = num;
	return p;
}

static Ptpsep__ClockQuality *
clock_quality(void)
{
	static Ptpsep__ClockQuality q;

	ptpsep__clock_quality__init(&q);
	q.clock_class = 248;
	q.clock_accuracy = 0xfe;
	q.offset_scaled_log_variance = 0xffff;
	return &q;
}

static const ProtobufCMessage *
s_rsp_ports(void)
{
	static Ptpsep__Ctl__Ports ps;
	static Ptpsep__Ctl__PortInfo pi;
	static Ptpsep__Ctl__PortInfo *list[1] = { &pi };

	ptpsep__ctl__port_info__init(&pi);
	pi.status = port_status(0);
	pi.port_identity = port_identity(clock_id_a, 1);
	pi.transport = PTPSEP__TRANSPORT__TRANSPORT_L2;
	pi.ts_mode = PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE;
	pi.delay_mechanism = PTPSEP__CTL__DELAY_MECHANISM__DELAY_MECHANISM_P2P;
	pi.link_up = 1;
	pi.enabled = 1;
	ptpsep__ctl__ports__init(&ps);
	ps.n_ports = 1;
	ps.ports = list;
	return rsp_body(PTPSEP__CTL__CTL_RESPONSE__BODY_PORTS, &ps);
}

static Ptpsep__Ctl__Dataset dataset;

static const ProtobufCMessage *
dataset_body(Ptpsep__Ctl__Dataset__DsCase c, void *ds)
{
	ptpsep__ctl__dataset__init(&dataset);
	dataset.ds_case = c;
	dataset.default_ds = ds;	/* every member is a message pointer */
	return rsp_body(PTPSEP__CTL__CTL_RESPONSE__BODY_DATASET, &dataset);
}

static Ptpsep__Ctl__DefaultDS *
default_ds(void)
{
	static Ptpsep__Ctl__DefaultDS d;

	ptpsep__ctl__default_ds__init(&d);
	d.clock_identity = bin(clock_id_a, sizeof(clock_id_a));
	d.number_ports = 2;
	d.clock_quality = clock_quality();
	d.priority1 = 128;
	d.priority2 = 128;
	d.domain_number = 0;
	d.two_step_flag = 1;
	return &d;
}

static const ProtobufCMessage *
s_rsp_default_ds(void)
{
	return dataset_body(PTPSEP__CTL__DATASET__DS_DEFAULT_DS, default_ds());
}

static const ProtobufCMessage *
s_rsp_current_ds(void)
{
	static Ptpsep__Ctl__CurrentDS d;

	ptpsep__ctl__current_ds__init(&d);
	d.steps_removed = 1;
	d.offset_from_master_ns = -37;
	d.mean_delay_ns = 812;
	return dataset_body(PTPSEP__CTL__DATASET__DS_CURRENT_DS, &d);
}

static const ProtobufCMessage *
s_rsp_parent_ds(void)
{
	static Ptpsep__Ctl__ParentDS d;

	ptpsep__ctl__parent_ds__init(&d);
	d.parent_port_identity = port_identity(clock_id_b, 1);
	d.observed_parent_offset_scaled_log_variance = 0xffff;
	d.observed_parent_clock_phase_change_rate = 0x7fffffff;
	d.grandmaster_identity = bin(clock_id_b, sizeof(clock_id_b));
	d.grandmaster_clock_quality = clock_quality();
	d.grandmaster_priority1 = 128;
	d.grandmaster_priority2 = 128;
	return dataset_body(PTPSEP__CTL__DATASET__DS_PARENT_DS, &d);
}

static const ProtobufCMessage *
s_rsp_time_properties_ds(void)
{
	static Ptpsep__Ctl__TimePropertiesDS d;

	ptpsep__ctl__time_properties_ds__init(&d);
	d.current_utc_offset = 37;
	d.current_utc_offset_valid = 1;
	d.ptp_timescale = 1;
	d.time_source = 0xa0;	/* INTERNAL_OSCILLATOR */
	return dataset_body(PTPSEP__CTL__DATASET__DS_TIME_PROPERTIES_DS, &d);
}

static const ProtobufCMessage *
s_rsp_port_ds(void)
{
	static Ptpsep__Ctl__PortDS d;

	ptpsep__ctl__port_ds__init(&d);
	d.port_identity = port_identity(clock_id_a, 2);
	d.port_state = PTPSEP__CTL__PORT_STATE__PORT_STATE_LISTENING;
	d.log_min_delay_req_interval = 0;
	d.mean_link_delay_ns = 400;
	d.log_announce_interval = 1;
	d.announce_receipt_timeout = 3;
	d.log_sync_interval = -3;
	d.delay_mechanism = PTPSEP__CTL__DELAY_MECHANISM__DELAY_MECHANISM_E2E;
	d.log_min_pdelay_req_interval = 0;
	d.version_number = 2;
	d.minor_version_number = 1;
	d.delay_asymmetry_ns = -5;
	return dataset_body(PTPSEP__CTL__DATASET__DS_PORT_DS, &d);
}

static const ProtobufCMessage *
s_rsp_foreign(void)
{
	static Ptpsep__Ctl__ForeignMasters fm;
	static Ptpsep__Ctl__ForeignMaster m;
	static Ptpsep__Ctl__ForeignMaster *list[1] = { &m };

	ptpsep__ctl__foreign_master__init(&m);
	m.port_number = 1;
	m.port_identity = port_identity(clock_id_b, 1);
	m.announce_messages = 4;
	m.qualified = 1;
	m.last_announce_ms = 950;
	m.gm_identity = bin(clock_id_b, sizeof(clock_id_b));
	m.gm_priority1 = 128;
	m.gm_clock_quality = clock_quality();
	m.gm_priority2 = 128;
	m.steps_removed = 0;
	m.time_source = 0xa0;
	m.current_utc_offset = 37;
	ptpsep__ctl__foreign_masters__init(&fm);
	fm.n_masters = 1;
	fm.masters = list;
	return rsp_body(PTPSEP__CTL__CTL_RESPONSE__BODY_FOREIGN, &fm);
}

static const ProtobufCMessage *
s_rsp_netd_info(void)
{
	static Ptpsep__Ctl__NetdInfo ni;
	static Ptpsep__Ctl__NetdPortInfo pi;
	static Ptpsep__Ctl__NetdPortInfo *ports[1] = { &pi };
	static Ptpsep__Ctl__SocketInfo sk[2];
	static Ptpsep__Ctl__SocketInfo *sks[2] = { &sk[0], &sk[1] };
	static Ptpsep__Ctl__RxDropCount drop;
	static Ptpsep__Ctl__RxDropCount *drops[1] = { &drop };
	static Ptpsep__Ctl__RefusedCount ref[2];
	static Ptpsep__Ctl__RefusedCount *port_refs[1] = { &ref[0] };
	static Ptpsep__Ctl__RefusedCount *clock_refs[1] = { &ref[1] };
	static Ptpsep__Ctl__ClockState cst, sst;
	unsigned i;

	for (i = 0; i < 2; i++) {
		ptpsep__ctl__socket_info__init(&sk[i]);
		sk[i].msg_class = i == 0 ? PTPSEP__MSG_CLASS__MSG_CLASS_EVENT :
		    PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
		sk[i].protocol = 0x88f7;
		sk[i].filter_attached = 1;
		sk[i].filter_locked = 1;
	}
	ptpsep__ctl__rx_drop_count__init(&drop);
	drop.reason = PTPSEP__CTL__RX_DROP_REASON__RX_DROP_NO_CLIENT;
	drop.count = 17;
	ptpsep__ctl__refused_count__init(&ref[0]);
	ref[0].reason = PTPSEP__REFUSE_REASON__REFUSE_BAD_DESTINATION;
	ref[0].count = 1;
	ptpsep__ctl__refused_count__init(&ref[1]);
	ref[1].reason = PTPSEP__REFUSE_REASON__REFUSE_OUT_OF_BOUNDS;
	ref[1].count = 2;

	ptpsep__ctl__netd_port_info__init(&pi);
	pi.port = sample_port(0);
	pi.n_sockets = 2;
	pi.sockets = sks;
	pi.rx_event = 1000;
	pi.rx_general = 250;
	pi.tx_event = 999;
	pi.tx_general = 251;
	pi.tx_ts_missing = 1;
	pi.n_rx_dropped = 1;
	pi.rx_dropped = drops;
	pi.n_refused = 1;
	pi.refused = port_refs;

	ptpsep__ctl__netd_info__init(&ni);
	ni.software_version = sw_version;
	ni.clock = sample_clock_info();
	ni.client_connected = 1;
	ni.n_ports = 1;
	ni.ports = ports;
	ni.n_refused = 1;
	ni.refused = clock_refs;
	ni.client_connections = 3;
	ni.system_clock = sample_sys_clock_info();
	ptpsep__ctl__clock_state__init(&cst);
	cst.offset_from_realtime_ns = 37000000000LL;
	cst.freq_ppb = -12.5;
	ptpsep__ctl__clock_state__init(&sst);
	sst.offset_from_realtime_ns = -250;
	sst.freq_ppb = 20000.5;
	sst.steps = 1;
	sst.leap = 1;
	sst.tai_offset = 37;
	sst.leaps = 2;
	ni.clock_state = &cst;
	ni.system_clock_state = &sst;
	ni.n_system_clock_refused = 1;
	ni.system_clock_refused = clock_refs;
	return rsp_body(PTPSEP__CTL__CTL_RESPONSE__BODY_NETD_INFO, &ni);
}

static const ProtobufCMessage *
s_rsp_set(void)
{
	static Ptpsep__Ctl__SetReply r;

	ptpsep__ctl__set_reply__init(&r);
	r.default_ds = default_ds();
	return rsp_body(PTPSEP__CTL__CTL_RESPONSE__BODY_SET, &r);
}

static const ProtobufCMessage *
s_rsp_error(void)
{
	return rsp_body(PTPSEP__CTL__CTL_RESPONSE__BODY_ERROR,
	    error(PTPSEP__ERROR_CODE__ERROR_PERMISSION_DENIED, err_denied));
}

#define NETD	&ptpsep__netd__netd_msg__descriptor
#define REQ	&ptpsep__ctl__ctl_request__descriptor
#define RSP	&ptpsep__ctl__ctl_response__descriptor

const struct ipc_sample ipc_samples[] = {
	{ "netd_hello", NETD, s_netd_hello },
	{ "netd_port_list", NETD, s_netd_port_list },
	{ "netd_rx_event", NETD, s_netd_rx_event },
	{ "netd_rx_general", NETD, s_netd_rx_general },
	{ "netd_tx_primary", NETD, s_netd_tx_primary },
	{ "netd_tx_unicast", NETD, s_netd_tx_unicast },
	{ "netd_txts_ok", NETD, s_netd_txts_ok },
	{ "netd_txts_missing", NETD, s_netd_txts_missing },
	{ "netd_clock_read", NETD, s_netd_clock_read },
	{ "netd_clock_adj_freq", NETD, s_netd_clock_adj_freq },
	{ "netd_clock_step", NETD, s_netd_clock_step },
	{ "netd_clock_get_status", NETD, s_netd_clock_get_status },
	{ "netd_clock_compare", NETD, s_netd_clock_compare },
	{ "netd_sys_clock_adj_freq", NETD, s_netd_sys_clock_adj_freq },
	{ "netd_sys_clock_set_leap", NETD, s_netd_sys_clock_set_leap },
	{ "netd_clock_reply_offset", NETD, s_netd_clock_reply_offset },
	{ "netd_clock_reply_ok", NETD, s_netd_clock_reply_ok },
	{ "netd_clock_reply_refused", NETD, s_netd_clock_reply_refused },
	{ "netd_link_event", NETD, s_netd_link_event },
	{ "netd_error", NETD, s_netd_error },
	{ "netd_batch_sync_fup", NETD, s_netd_batch_sync_fup },
	{ "netd_batch_txts_rx", NETD, s_netd_batch_txts_rx },
	{ "netd_batch_tx_clock", NETD, s_netd_batch_tx_clock },
	{ "netd_batch_max", NETD, s_netd_batch_max },
	{ "req_hello", REQ, s_req_hello },
	{ "req_status", REQ, s_req_status },
	{ "req_ports", REQ, s_req_ports },
	{ "req_dataset", REQ, s_req_dataset },
	{ "req_foreign", REQ, s_req_foreign },
	{ "req_netd_info", REQ, s_req_netd_info },
	{ "req_set_priority1", REQ, s_req_set_priority1 },
	{ "req_set_port_enable", REQ, s_req_set_port_enable },
	{ "rsp_hello", RSP, s_rsp_hello },
	{ "rsp_status", RSP, s_rsp_status },
	{ "rsp_ports", RSP, s_rsp_ports },
	{ "rsp_default_ds", RSP, s_rsp_default_ds },
	{ "rsp_current_ds", RSP, s_rsp_current_ds },
	{ "rsp_parent_ds", RSP, s_rsp_parent_ds },
	{ "rsp_time_properties_ds", RSP, s_rsp_time_properties_ds },
	{ "rsp_port_ds", RSP, s_rsp_port_ds },
	{ "rsp_foreign", RSP, s_rsp_foreign },
	{ "rsp_netd_info", RSP, s_rsp_netd_info },
	{ "rsp_set", RSP, s_rsp_set },
	{ "rsp_error", RSP, s_rsp_error },
};

const size_t ipc_n_samples = sizeof(ipc_samples) / sizeof(ipc_samples[0]);
