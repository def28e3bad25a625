/*
 * test_netd_client.c - clockd/netd_client.c translates netd's messages
 * into the engine's types (clockd/netd_types.h).
 *
 * A fake netd listens on a Unix socket in a temporary directory, answers
 * the client's Hello, and sends each message of netd.proto that reaches
 * the engine; the callbacks record what netd_client.c made of it.  Every
 * field the engine reads is checked, with and without its optional parts
 * (a time stamp, a source address, a clock identity, a ClockInfo), and so
 * is the RefuseReason -> clock_refusal mapping.
 *
 * The test links with -Wl,--wrap=recvmsg (Makefile.am) to count the
 * client's reads: one per message netd sent, none that finds the socket
 * empty (issue 13: no probing read until EAGAIN).
 *
 * Batches (proto/netd.proto NetdBatch): netd's members reach the engine
 * in order, as if each had come alone; what the engine sends during one
 * callback leaves as one datagram after it, a batch when there are two or
 * more, the message itself when there is one.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include <event2/event.h>

#include "clockd/netd_client.h"
#include "sockpath.h"
#include "usock.h"

/* What the callbacks saw; pointers are copied out while they are valid. */
static struct {
	int			 connected, disconnected;
	struct netd_port_list	 pl;
	struct netd_port_desc	 ports[4];
	char			 iface[4][16];
	uint8_t			 id[4][8];
	int			 nrx;
	struct netd_rx		 rx[4];
	uint8_t			 rx_payload[4][64];
	uint8_t			 rx_src[4][16];
	int			 ntxts;
	struct netd_txts	 txts[4];
	int			 nrep;
	struct netd_clock_reply	 rep[4];
	int			 nlink;
	struct netd_link_event	 link[4];
	char			 order[16];	/* 'r', 't', 'c', 'l' */
	int			 norder;
} R;

static void
seen(char c)
{
	assert_true(R.norder < (int)sizeof(R.order) - 1);
	R.order[R.norder++] = c;
}

/* What a link event's callback sends (test_out_*): n frames, then a
 * frequency change when adj; frames_sent counts the calls that returned
 * 0. */
static struct {
	struct netd_client	*nc;
	int			 n, adj, sent;
} SEND;

static void
send_some(void)
{
	uint8_t payload[44];
	int i;

	memset(payload, 0, sizeof(payload));
	payload[0] = 0x01;		/* Delay_Req */
	payload[1] = 0x02;		/* versionPTP 2 */
	payload[3] = sizeof(payload);
	for (i = 0; i < SEND.n; i++) {
		payload[31] = (uint8_t)i;	/* sequenceId */
		if (netd_send_frame(SEND.nc, 0, 1, NETD_DEST_PRIMARY, NULL,
		    payload, sizeof(payload), (uint64_t)i, 1, NULL, 0) == 0)
			SEND.sent++;
	}
	if (SEND.adj && netd_clock_adjfreq(SEND.nc, 99, -12.5) == 0)
		SEND.sent++;
}

static void
cb_connected(void *arg, const struct netd_port_list *pl)
{
	size_t i;

	(void)arg;
	R.connected++;
	R.pl = *pl;
	for (i = 0; i < pl->nports && i < 4; i++) {
		R.ports[i] = pl->ports[i];
		snprintf(R.iface[i], sizeof(R.iface[i]), "%s",
		    pl->ports[i].iface);
		if (pl->ports[i].clock_identity != NULL)
			memcpy(R.id[i], pl->ports[i].clock_identity, 8);
	}
}

static void
cb_disconnected(void *arg)
{
	(void)arg;
	R.disconnected++;
}

static void
cb_rx_frame(void *arg, const struct netd_rx *f)
{
	(void)arg;
	assert_true(R.nrx < 4);
	seen('r');
	R.rx[R.nrx] = *f;
	assert_true(f->len <= sizeof(R.rx_payload[0]));
	memcpy(R.rx_payload[R.nrx], f->payload, f->len);
	if (f->src != NULL) {
		assert_true(f->src_len <= sizeof(R.rx_src[0]));
		memcpy(R.rx_src[R.nrx], f->src, f->src_len);
	}
	R.nrx++;
}

static void
cb_tx_timestamp(void *arg, const struct netd_txts *t)
{
	(void)arg;
	assert_true(R.ntxts < 4);
	seen('t');
	R.txts[R.ntxts++] = *t;
}

static void
cb_clock_reply(void *arg, const struct netd_clock_reply *r)
{
	(void)arg;
	assert_true(R.nrep < 4);
	seen('c');
	R.rep[R.nrep++] = *r;
}

static void
cb_link_event(void *arg, const struct netd_link_event *e)
{
	(void)arg;
	assert_true(R.nlink < 4);
	seen('l');
	R.link[R.nlink++] = *e;
	send_some();
}

/* recvmsg() of everything linked in (lib/ipc.c's ipc_recv()), counted. */
static struct {
	int	calls, again;
} RM;

ssize_t	__real_recvmsg(int fd, struct msghdr *msg, int flags);
ssize_t	__wrap_recvmsg(int fd, struct msghdr *msg, int flags);

ssize_t
__wrap_recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t n = __real_recvmsg(fd, msg, flags);

	RM.calls++;
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		RM.again++;
	return n;
}

static const struct netd_client_cbs cbs = {
	.connected = cb_connected,
	.disconnected = cb_disconnected,
	.rx_frame = cb_rx_frame,
	.tx_timestamp = cb_tx_timestamp,
	.clock_reply = cb_clock_reply,
	.link_event = cb_link_event,
};

struct fake {
	char			 dir[64];
	char			 path[96];
	int			 lfd, fd;
	struct event_base	*base;
	struct netd_client	*nc;
};

static void
send_msg(struct fake *f, Ptpsep__Netd__NetdMsg *m)
{
	assert_int_equal(ipc_send_netd(f->fd, m), IPC_OK);
}

/* The client connects and says Hello; netd answers Hello (no PortList). */
static int
setup(void **state)
{
	static struct fake f;
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT, *in;
	Ptpsep__Hello h;
	char why[256];

	memset(&R, 0, sizeof(R));
	memset(&SEND, 0, sizeof(SEND));
	memset(&f, 0, sizeof(f));
	snprintf(f.dir, sizeof(f.dir), "/tmp/test_netd_client.XXXXXX");
	assert_non_null(mkdtemp(f.dir));
	snprintf(f.path, sizeof(f.path), "%s/netd.sock", f.dir);
	f.lfd = usock_listen(f.path, SOCK_SEQPACKET, 0600, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, 1, 0, why, sizeof(why));
	if (f.lfd < 0)
		fail_msg("usock_listen %s: %s", f.path, why);
	f.base = event_base_new();
	assert_non_null(f.base);
	f.nc = netd_client_new(f.base, f.path, &cbs, NULL);
	assert_non_null(f.nc);
	SEND.nc = f.nc;
	netd_client_start(f.nc);
	f.fd = accept(f.lfd, NULL, NULL);
	assert_true(f.fd >= 0);
	assert_int_equal(ipc_recv_netd(f.fd, &in), IPC_OK);
	assert_int_equal(in->body_case, PTPSEP__NETD__NETD_MSG__BODY_HELLO);
	ipc_free(&in->base);
	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_NETD);
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_HELLO;
	m.hello = &h;
	send_msg(&f, &m);
	*state = &f;
	return 0;
}

static int
teardown(void **state)
{
	struct fake *f = *state;

	netd_client_free(f->nc);
	event_base_free(f->base);
	close(f->fd);
	close(f->lfd);
	unlink(f->path);
	rmdir(f->dir);
	return 0;
}

/* Lets the client read what netd sent (a pass of the loop each). */
static void
run(struct fake *f)
{
	int i;

	for (i = 0; i < 16; i++)
		event_base_loop(f->base, EVLOOP_NONBLOCK);
}

static uint8_t id0[8] = { 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 };
static uint8_t mac0[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

/* netd's PortList: port 0 with a clock identity, port 1 without (no MAC). */
static void
send_port_list(struct fake *f, int with_clock)
{
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__PortList pl = PTPSEP__NETD__PORT_LIST__INIT;
	Ptpsep__Netd__ClockInfo ci = PTPSEP__NETD__CLOCK_INFO__INIT;
	Ptpsep__Netd__Port p0 = PTPSEP__NETD__PORT__INIT;
	Ptpsep__Netd__Port p1 = PTPSEP__NETD__PORT__INIT;
	Ptpsep__Netd__Port *pp[2] = { &p0, &p1 };

	p0.index = 0;
	p0.iface = (char *)"eth0";
	p0.transport = PTPSEP__TRANSPORT__TRANSPORT_L2;
	p0.link_up = 1;
	p0.mac.data = mac0;
	p0.mac.len = sizeof(mac0);
	p0.clock_identity.data = id0;
	p0.clock_identity.len = sizeof(id0);
	p1.index = 1;
	p1.iface = (char *)"eth1";
	p1.transport = PTPSEP__TRANSPORT__TRANSPORT_UDP_IPV6;
	p1.link_up = 0;
	p1.one_step = 1;
	ci.device = (char *)"virtual";
	ci.max_freq_ppb = 250000.0;
	ci.step_allowed = 1;
	ci.min_adj_interval_ms = 1500;
	ci.max_step_ns = 123456789;
	pl.n_ports = 2;
	pl.ports = pp;
	if (with_clock)
		pl.clock = &ci;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_PORT_LIST;
	m.port_list = &pl;
	send_msg(f, &m);
}

static void
test_port_list(void **state)
{
	struct fake *f = *state;

	send_port_list(f, 1);
	run(f);
	assert_int_equal(R.connected, 1);
	assert_int_equal(netd_client_ready(f->nc), 1);
	assert_int_equal(R.pl.nports, 2);
	assert_string_equal(R.iface[0], "eth0");
	assert_int_equal(R.ports[0].transport, NETD_TR_L2);
	assert_int_equal(R.ports[0].link_up, 1);
	assert_non_null(R.ports[0].clock_identity);
	assert_memory_equal(R.id[0], id0, sizeof(id0));
	assert_string_equal(R.iface[1], "eth1");
	assert_int_equal(R.ports[1].transport, NETD_TR_UDP_IPV6);
	assert_int_equal(R.ports[1].link_up, 0);
	assert_null(R.ports[1].clock_identity);
	assert_int_equal(R.ports[0].one_step, 0);
	assert_int_equal(R.ports[1].one_step, 1);
	assert_int_equal(R.pl.have_clock, 1);
	assert_true(R.pl.clock.max_freq_ppb == 250000.0);
	assert_int_equal(R.pl.clock.step_allowed, 1);
	assert_int_equal(R.pl.clock.min_adj_interval_ms, 1500);
	assert_int_equal(R.pl.clock.max_step_ns, 123456789);
}

/* A PortList without ClockInfo: have_clock 0, the bounds zero. */
static void
test_port_list_no_clock(void **state)
{
	struct fake *f = *state;

	send_port_list(f, 0);
	run(f);
	assert_int_equal(R.connected, 1);
	assert_int_equal(R.pl.have_clock, 0);
	assert_true(R.pl.clock.max_freq_ppb == 0.0);
	assert_int_equal(R.pl.clock.step_allowed, 0);
	assert_int_equal(R.pl.clock.min_adj_interval_ms, 0);
	assert_int_equal(R.pl.clock.max_step_ns, 0);
}

static void
test_rx_frame(void **state)
{
	struct fake *f = *state;
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__RxFrame rx = PTPSEP__NETD__RX_FRAME__INIT;
	Ptpsep__Netd__Address src = PTPSEP__NETD__ADDRESS__INIT;
	Ptpsep__Timestamp ts = PTPSEP__TIMESTAMP__INIT;
	uint8_t payload[44];
	size_t i;

	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 7 + 1);
	send_port_list(f, 1);
	/* an event message with its time stamp and source */
	rx.port_index = 1;
	rx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	rx.payload.data = payload;
	rx.payload.len = sizeof(payload);
	ts.seconds = 1700000000ULL;
	ts.nanoseconds = 999999999;
	rx.rx_ts = &ts;
	rx.ts_source = PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE;
	src.family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_MAC;
	src.addr.data = mac0;
	src.addr.len = sizeof(mac0);
	rx.source = &src;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME;
	m.rx_frame = &rx;
	send_msg(f, &m);
	/* a general message: no time stamp, no source */
	rx.port_index = 0;
	rx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
	rx.payload.len = 34;
	rx.rx_ts = NULL;
	rx.ts_source = PTPSEP__TIMESTAMP_MODE__TS_MODE_UNSPECIFIED;
	rx.source = NULL;
	send_msg(f, &m);
	run(f);
	assert_int_equal(R.nrx, 2);
	assert_int_equal(R.rx[0].port, 1);
	assert_int_equal(R.rx[0].event, 1);
	assert_int_equal(R.rx[0].len, sizeof(payload));
	assert_memory_equal(R.rx_payload[0], payload, sizeof(payload));
	assert_int_equal(R.rx[0].have_ts, 1);
	assert_int_equal(R.rx[0].ts.sec, 1700000000ULL);
	assert_int_equal(R.rx[0].ts.nsec, 999999999);
	assert_int_equal(R.rx[0].src_family, NETD_AF_MAC);
	assert_int_equal(R.rx[0].src_len, sizeof(mac0));
	assert_memory_equal(R.rx_src[0], mac0, sizeof(mac0));

	assert_int_equal(R.rx[1].port, 0);
	assert_int_equal(R.rx[1].event, 0);
	assert_int_equal(R.rx[1].len, 34);
	assert_memory_equal(R.rx_payload[1], payload, 34);
	assert_int_equal(R.rx[1].have_ts, 0);
	assert_int_equal(R.rx[1].ts.sec, 0);
	assert_int_equal(R.rx[1].ts.nsec, 0);
	assert_int_equal(R.rx[1].src_family, NETD_AF_NONE);
	assert_null(R.rx[1].src);
	assert_int_equal(R.rx[1].src_len, 0);
}

static void
test_tx_timestamp(void **state)
{
	struct fake *f = *state;
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__TxTimestamp t = PTPSEP__NETD__TX_TIMESTAMP__INIT;
	Ptpsep__Timestamp ts = PTPSEP__TIMESTAMP__INIT;

	send_port_list(f, 1);
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP;
	m.tx_timestamp = &t;
	t.cookie = 0x0000000100010203ULL;
	t.port_index = 1;
	t.status = PTPSEP__NETD__TX_TS_STATUS__TXTS_OK;
	ts.seconds = 42;
	ts.nanoseconds = 7;
	t.ts = &ts;
	send_msg(f, &m);
	/* no time stamp: the frame was not sent */
	t.cookie = 5;
	t.port_index = 0;
	t.status = PTPSEP__NETD__TX_TS_STATUS__TXTS_SEND_FAILED;
	t.ts = NULL;
	send_msg(f, &m);
	run(f);
	assert_int_equal(R.ntxts, 2);
	assert_int_equal(R.txts[0].cookie, 0x0000000100010203ULL);
	assert_int_equal(R.txts[0].port, 1);
	assert_int_equal(R.txts[0].ok, 1);
	assert_int_equal(R.txts[0].ts.sec, 42);
	assert_int_equal(R.txts[0].ts.nsec, 7);
	assert_int_equal(R.txts[1].cookie, 5);
	assert_int_equal(R.txts[1].port, 0);
	assert_int_equal(R.txts[1].ok, 0);
	assert_int_equal(R.txts[1].ts.sec, 0);
	assert_int_equal(R.txts[1].ts.nsec, 0);
}

static void
test_clock_reply(void **state)
{
	struct fake *f = *state;
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__ClockReply r = PTPSEP__NETD__CLOCK_REPLY__INIT;
	Ptpsep__Timestamp now = PTPSEP__TIMESTAMP__INIT;

	send_port_list(f, 1);
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY;
	m.clock_reply = &r;
	/* a step done, with the clock's time after it */
	r.id = 7;
	r.status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK;
	now.seconds = 1000;
	now.nanoseconds = 500;
	r.now = &now;
	r.freq_ppb = -12.5;
	send_msg(f, &m);
	/* a frequency change refused: too soon */
	r.id = 8;
	r.status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_REFUSED;
	r.reason = PTPSEP__REFUSE_REASON__REFUSE_RATE_LIMITED;
	r.now = NULL;
	r.freq_ppb = 3.0;
	send_msg(f, &m);
	run(f);
	assert_int_equal(R.nrep, 2);
	assert_int_equal(R.rep[0].id, 7);
	assert_int_equal(R.rep[0].ok, 1);
	assert_int_equal(R.rep[0].refusal, CR_NONE);
	assert_int_equal(R.rep[0].have_now, 1);
	assert_int_equal(R.rep[0].now.sec, 1000);
	assert_int_equal(R.rep[0].now.nsec, 500);
	assert_true(R.rep[0].freq_ppb == -12.5);
	assert_int_equal(R.rep[1].id, 8);
	assert_int_equal(R.rep[1].ok, 0);
	assert_int_equal(R.rep[1].refusal, CR_RATE_LIMITED);
	assert_int_equal(R.rep[1].have_now, 0);
	assert_true(R.rep[1].freq_ppb == 3.0);
}

/* The system clock (sync_system_clock 1): PortList.system_clock and a
 * compare's answer reach the engine as netd_types.h's fields. */
static void
test_system_clock(void **state)
{
	struct fake *f = *state;
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__PortList pl = PTPSEP__NETD__PORT_LIST__INIT;
	Ptpsep__Netd__ClockInfo ci = PTPSEP__NETD__CLOCK_INFO__INIT;
	Ptpsep__Netd__ClockInfo si = PTPSEP__NETD__CLOCK_INFO__INIT;
	Ptpsep__Netd__Port p0 = PTPSEP__NETD__PORT__INIT;
	Ptpsep__Netd__Port *pp[1] = { &p0 };
	Ptpsep__Netd__ClockReply r = PTPSEP__NETD__CLOCK_REPLY__INIT;
	Ptpsep__Netd__ClockOffset o = PTPSEP__NETD__CLOCK_OFFSET__INIT;
	Ptpsep__Timestamp t = PTPSEP__TIMESTAMP__INIT;

	p0.iface = (char *)"eth0";
	p0.transport = PTPSEP__TRANSPORT__TRANSPORT_L2;
	p0.clock_identity.data = id0;
	p0.clock_identity.len = sizeof(id0);
	ci.max_freq_ppb = 500000.0;
	ci.ptp_timescale = 1;
	ci.phc_index = 3;
	si.max_freq_ppb = 100000.0;
	si.step_allowed = 1;
	si.max_step_ns = 5000000000LL;
	si.min_adj_interval_ms = 20;
	si.phc_index = -1;
	si.sysoff = PTPSEP__NETD__SYSOFF_METHOD__SYSOFF_EXTENDED;
	pl.n_ports = 1;
	pl.ports = pp;
	pl.clock = &ci;
	pl.system_clock = &si;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_PORT_LIST;
	m.port_list = &pl;
	send_msg(f, &m);
	/* a compare answered: the system clock 37 s behind, less 1234 ns */
	r.id = 9;
	r.status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK;
	o.sys_minus_ptp_ns = -37000001234LL;
	t.seconds = 1500000037;
	t.nanoseconds = 42;
	o.ptp_time = &t;
	o.delay_ns = 680;
	o.method = PTPSEP__NETD__SYSOFF_METHOD__SYSOFF_EXTENDED;
	r.offset = &o;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY;
	m.clock_reply = &r;
	send_msg(f, &m);
	/* a system clock step refused */
	r.id = 10;
	r.status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_REFUSED;
	r.reason = PTPSEP__REFUSE_REASON__REFUSE_STEP_NOT_ALLOWED;
	r.system_clock = 1;
	r.offset = NULL;
	send_msg(f, &m);
	run(f);
	assert_int_equal(R.connected, 1);
	assert_int_equal(R.pl.clock.ptp_timescale, 1);
	assert_int_equal(R.pl.clock.phc_index, 3);
	assert_int_equal(R.pl.have_sys_clock, 1);
	assert_true(R.pl.sys_clock.max_freq_ppb == 100000.0);
	assert_int_equal(R.pl.sys_clock.step_allowed, 1);
	assert_int_equal(R.pl.sys_clock.max_step_ns, 5000000000LL);
	assert_int_equal(R.pl.sys_clock.min_adj_interval_ms, 20);
	assert_int_equal(R.pl.sys_clock.ptp_timescale, 0);
	assert_int_equal(R.pl.sys_clock.phc_index, -1);
	assert_int_equal(R.pl.sys_clock.sysoff, NETD_SYSOFF_EXTENDED);
	assert_int_equal(R.nrep, 2);
	assert_int_equal(R.rep[0].id, 9);
	assert_int_equal(R.rep[0].system_clock, 0);
	assert_int_equal(R.rep[0].have_offset, 1);
	assert_int_equal(R.rep[0].offset.sys_minus_ptp_ns, -37000001234LL);
	assert_int_equal(R.rep[0].offset.have_ptp_time, 1);
	assert_int_equal(R.rep[0].offset.ptp_time.sec, 1500000037);
	assert_int_equal(R.rep[0].offset.ptp_time.nsec, 42);
	assert_int_equal(R.rep[0].offset.delay_ns, 680);
	assert_int_equal(R.rep[0].offset.method, NETD_SYSOFF_EXTENDED);
	assert_int_equal(R.rep[1].id, 10);
	assert_int_equal(R.rep[1].system_clock, 1);
	assert_int_equal(R.rep[1].have_offset, 0);
	assert_int_equal(R.rep[1].refusal, CR_STEP_NOT_ALLOWED);
}

/* Without sync_system_clock: no system clock, phc_index -1. */
static void
test_no_system_clock(void **state)
{
	struct fake *f = *state;

	send_port_list(f, 1);
	run(f);
	assert_int_equal(R.pl.have_sys_clock, 0);
	assert_int_equal(R.pl.sys_clock.phc_index, -1);
	assert_true(R.pl.sys_clock.max_freq_ppb == 0.0);
}

static void
test_link_event(void **state)
{
	struct fake *f = *state;
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__LinkEvent e = PTPSEP__NETD__LINK_EVENT__INIT;

	send_port_list(f, 1);
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_LINK_EVENT;
	m.link_event = &e;
	e.port_index = 1;
	e.link_up = 1;
	send_msg(f, &m);
	e.port_index = 0;
	e.link_up = 0;
	send_msg(f, &m);
	run(f);
	assert_int_equal(R.nlink, 2);
	assert_int_equal(R.link[0].port, 1);
	assert_int_equal(R.link[0].up, 1);
	assert_int_equal(R.link[1].port, 0);
	assert_int_equal(R.link[1].up, 0);
	assert_int_equal(R.disconnected, 0);
}

/*
 * One read per message: netd's Hello and PortList and three LinkEvents, each
 * read when the socket is readable (level-triggered), and no read that
 * finds it empty; nor one after the loop has run out of work.
 */
static void
test_no_probing_read(void **state)
{
	struct fake *f = *state;
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__LinkEvent e = PTPSEP__NETD__LINK_EVENT__INIT;
	int i;

	memset(&RM, 0, sizeof(RM));
	send_port_list(f, 1);
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_LINK_EVENT;
	m.link_event = &e;
	for (i = 0; i < 3; i++) {
		e.port_index = (uint32_t)i % 2;
		send_msg(f, &m);
	}
	run(f);
	assert_int_equal(R.connected, 1);
	assert_int_equal(R.nlink, 3);
	assert_int_equal(RM.calls, 5);	/* Hello, PortList, 3 LinkEvents */
	assert_int_equal(RM.again, 0);
	/* a message arriving later is read at once, also alone */
	send_msg(f, &m);
	run(f);
	assert_int_equal(R.nlink, 4);
	assert_int_equal(RM.calls, 6);
	assert_int_equal(RM.again, 0);
}

/*
 * A batch from netd: RxFrame, TxTimestamp, ClockReply, LinkEvent and
 * another RxFrame in one datagram reach the engine in that order, read
 * with one recvmsg, each as it would have come alone.
 */
static void
test_batch_in_order(void **state)
{
	struct fake *f = *state;
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__NetdMsg mr = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__NetdMsg mt = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__NetdMsg mc = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__NetdMsg ml = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__NetdMsg mr2 = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__NetdMsg *members[5] = { &mr, &mt, &mc, &ml, &mr2 };
	Ptpsep__Netd__NetdBatch b = PTPSEP__NETD__NETD_BATCH__INIT;
	Ptpsep__Netd__RxFrame rx = PTPSEP__NETD__RX_FRAME__INIT;
	Ptpsep__Netd__RxFrame rx2 = PTPSEP__NETD__RX_FRAME__INIT;
	Ptpsep__Netd__TxTimestamp t = PTPSEP__NETD__TX_TIMESTAMP__INIT;
	Ptpsep__Netd__ClockReply r = PTPSEP__NETD__CLOCK_REPLY__INIT;
	Ptpsep__Netd__LinkEvent e = PTPSEP__NETD__LINK_EVENT__INIT;
	Ptpsep__Timestamp ts = PTPSEP__TIMESTAMP__INIT;
	uint8_t p1[40], p2[50];

	memset(p1, 0x11, sizeof(p1));
	memset(p2, 0x22, sizeof(p2));
	send_port_list(f, 1);
	run(f);
	memset(&RM, 0, sizeof(RM));
	rx.port_index = 1;
	rx.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_EVENT;
	rx.payload.data = p1;
	rx.payload.len = sizeof(p1);
	ts.seconds = 5;
	ts.nanoseconds = 6;
	rx.rx_ts = &ts;
	mr.body_case = PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME;
	mr.rx_frame = &rx;
	t.cookie = 77;
	t.status = PTPSEP__NETD__TX_TS_STATUS__TXTS_OK;
	t.ts = &ts;
	mt.body_case = PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP;
	mt.tx_timestamp = &t;
	r.id = 9;
	r.status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK;
	mc.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY;
	mc.clock_reply = &r;
	e.port_index = 1;
	e.link_up = 1;
	ml.body_case = PTPSEP__NETD__NETD_MSG__BODY_LINK_EVENT;
	ml.link_event = &e;
	rx2.port_index = 0;
	rx2.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
	rx2.payload.data = p2;
	rx2.payload.len = sizeof(p2);
	mr2.body_case = PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME;
	mr2.rx_frame = &rx2;
	b.n_msgs = 5;
	b.msgs = members;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_BATCH;
	m.batch = &b;
	send_msg(f, &m);
	run(f);
	assert_string_equal(R.order, "rtclr");
	assert_int_equal(RM.calls, 1);
	assert_int_equal(RM.again, 0);
	assert_int_equal(R.rx[0].port, 1);
	assert_int_equal(R.rx[0].have_ts, 1);
	assert_int_equal(R.rx[0].ts.nsec, 6);
	assert_memory_equal(R.rx_payload[0], p1, sizeof(p1));
	assert_int_equal(R.txts[0].cookie, 77);
	assert_int_equal(R.rep[0].id, 9);
	assert_int_equal(R.link[0].port, 1);
	assert_int_equal(R.rx[1].port, 0);
	assert_int_equal(R.rx[1].len, sizeof(p2));
	assert_memory_equal(R.rx_payload[1], p2, sizeof(p2));
	assert_int_equal(R.disconnected, 0);
	assert_int_equal(netd_client_ready(f->nc), 1);
}

/* netd's LinkEvent, whose callback sends what SEND says. */
static void
link_event_sends(struct fake *f, int nframes, int adj)
{
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__LinkEvent e = PTPSEP__NETD__LINK_EVENT__INIT;

	send_port_list(f, 1);
	run(f);
	SEND.n = nframes;
	SEND.adj = adj;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_LINK_EVENT;
	m.link_event = &e;
	e.link_up = 1;
	send_msg(f, &m);
	run(f);
	assert_int_equal(R.nlink, 1);
	assert_int_equal(SEND.sent, nframes + adj);
}

/* The next datagram clockd sent; NULL when there is none. */
static Ptpsep__Netd__NetdMsg *
next_out(struct fake *f)
{
	uint8_t buf[IPC_MAX_MSG];
	ProtobufCMessage *pm;
	ssize_t n;

	n = recv(f->fd, buf, sizeof(buf), MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return NULL;
	assert_true(n > 0);
	assert_int_equal(ipc_decode(&ptpsep__netd__netd_msg__descriptor, buf,
	    (size_t)n, &pm), IPC_OK);
	return (Ptpsep__Netd__NetdMsg *)pm;
}

static void
assert_frame(const Ptpsep__Netd__NetdMsg *m, unsigned seq)
{
	assert_int_equal(m->body_case, PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME);
	assert_int_equal(m->tx_frame->cookie, seq);
	assert_int_equal(m->tx_frame->payload.len, 44);
	assert_int_equal(m->tx_frame->payload.data[31], seq);
	assert_int_equal(m->tx_frame->want_tx_ts, 1);
}

/* Two sends in one callback: one datagram, a batch of both, in order. */
static void
test_out_two_one_datagram(void **state)
{
	struct fake *f = *state;
	Ptpsep__Netd__NetdMsg *m;
	Ptpsep__Netd__ClockRequest *cr;

	link_event_sends(f, 1, 1);
	m = next_out(f);
	assert_non_null(m);
	assert_int_equal(m->body_case, PTPSEP__NETD__NETD_MSG__BODY_BATCH);
	assert_int_equal(m->batch->n_msgs, 2);
	assert_frame(m->batch->msgs[0], 0);
	assert_int_equal(m->batch->msgs[1]->body_case,
	    PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST);
	cr = m->batch->msgs[1]->clock_request;
	assert_int_equal(cr->id, 99);
	assert_int_equal(cr->op_case, PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ);
	assert_true(cr->adj_freq->freq_ppb == -12.5);
	ipc_free(&m->base);
	assert_null(next_out(f));
}

/*
 * The outbox leaves in the same turn of the loop as the callback that
 * filled it: one pass of event_base_loop(EVLOOP_ONCE), which runs the
 * callbacks active after one wait, reads netd's message and sends what
 * its callback queued (no second wait, no second wake-up).
 */
static void
test_out_same_turn(void **state)
{
	struct fake *f = *state;
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT, *out;
	Ptpsep__Netd__LinkEvent e = PTPSEP__NETD__LINK_EVENT__INIT;

	send_port_list(f, 1);
	run(f);
	SEND.n = 1;
	SEND.adj = 1;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_LINK_EVENT;
	m.link_event = &e;
	send_msg(f, &m);
	assert_int_equal(event_base_loop(f->base, EVLOOP_ONCE), 0);
	assert_int_equal(R.nlink, 1);
	out = next_out(f);
	assert_non_null(out);
	assert_int_equal(out->body_case, PTPSEP__NETD__NETD_MSG__BODY_BATCH);
	assert_int_equal(out->batch->n_msgs, 2);
	ipc_free(&out->base);
}

/*
 * A grandmaster's burst (issue 15): the engine sends more than netd's
 * socket holds while netd is busy.  Nothing is lost: what the socket has
 * no room for is held and sent, in order, once netd reads (before, each
 * datagram that found the socket full was dropped).
 */
static void
test_out_held_when_full(void **state)
{
	struct fake *f = *state;
	Ptpsep__Netd__NetdMsg *m;
	uint8_t payload[44];
	unsigned i, j, k, got = 0, n = 8000;

	send_port_list(f, 1);
	run(f);
	memset(payload, 0, sizeof(payload));
	payload[0] = 0x01;
	payload[1] = 0x02;
	payload[3] = sizeof(payload);
	/* in turns of the loop of 8 frames, as port_uneg.c's batches */
	for (i = 0; i < n; i += 8) {
		for (j = i; j < i + 8; j++) {
			payload[30] = (uint8_t)(j >> 8);
			payload[31] = (uint8_t)j;
			assert_int_equal(netd_send_frame(f->nc, 0, 1,
			    NETD_DEST_PRIMARY, NULL, payload, sizeof(payload),
			    (uint64_t)j, 1, NULL, 0), 0);
		}
		event_base_loop(f->base, EVLOOP_NONBLOCK);
	}
	/* netd reads now; the client sends what it held as room comes */
	for (k = 0; k < 100000 && got < n; k++) {
		if ((m = next_out(f)) == NULL) {
			event_base_loop(f->base, EVLOOP_NONBLOCK);
			continue;
		}
		assert_int_equal(m->body_case,
		    PTPSEP__NETD__NETD_MSG__BODY_BATCH);
		for (j = 0; j < m->batch->n_msgs; j++, got++)
			assert_int_equal(
			    m->batch->msgs[j]->tx_frame->cookie, got);
		ipc_free(&m->base);
	}
	assert_int_equal(got, n);
	assert_int_equal(R.disconnected, 0);
}

/* netd_clock_req(): a compare (never about one clock), a step of the
 * system clock, in one batch. */
static void
test_out_clock_req(void **state)
{
	struct fake *f = *state;
	struct netd_clock_req q = { .id = 5, .op = NETD_CLOCK_COMPARE,
	    .system_clock = 1 };
	Ptpsep__Netd__NetdMsg *m;
	Ptpsep__Netd__ClockRequest *cr;

	send_port_list(f, 1);
	run(f);
	assert_int_equal(netd_clock_req(f->nc, &q), 0);
	q.id = 6;
	q.op = NETD_CLOCK_STEP;
	q.step_ns = -3000000000LL;
	assert_int_equal(netd_clock_req(f->nc, &q), 0);
	run(f);
	m = next_out(f);
	assert_non_null(m);
	assert_int_equal(m->body_case, PTPSEP__NETD__NETD_MSG__BODY_BATCH);
	assert_int_equal(m->batch->n_msgs, 2);
	cr = m->batch->msgs[0]->clock_request;
	assert_int_equal(cr->id, 5);
	assert_int_equal(cr->op_case, PTPSEP__NETD__CLOCK_REQUEST__OP_COMPARE);
	assert_int_equal(cr->system_clock, 0);
	cr = m->batch->msgs[1]->clock_request;
	assert_int_equal(cr->id, 6);
	assert_int_equal(cr->op_case, PTPSEP__NETD__CLOCK_REQUEST__OP_STEP);
	assert_int_equal(cr->system_clock, 1);
	assert_int_equal(cr->step->offset_ns, -3000000000LL);
	ipc_free(&m->base);
	assert_null(next_out(f));
}

/* netd_clock_req(): a leap second armed on the system clock with the TAI
 * offset, and a cancel without one (tai_offset not sent); a leap out of
 * -1..1 is not sent.  ClockInfo.leap_allowed reaches the engine. */
static void
test_out_clock_leap(void **state)
{
	struct fake *f = *state;
	struct netd_clock_req q = { .id = 7, .op = NETD_CLOCK_LEAP,
	    .system_clock = 1, .leap = 1, .set_tai = 1, .tai_offset = 37 };
	Ptpsep__Netd__NetdMsg m0 = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__PortList pl = PTPSEP__NETD__PORT_LIST__INIT;
	Ptpsep__Netd__ClockInfo ci = PTPSEP__NETD__CLOCK_INFO__INIT;
	Ptpsep__Netd__ClockInfo si = PTPSEP__NETD__CLOCK_INFO__INIT;
	Ptpsep__Netd__Port p0 = PTPSEP__NETD__PORT__INIT;
	Ptpsep__Netd__Port *pp[1] = { &p0 };
	Ptpsep__Netd__NetdMsg *m;
	Ptpsep__Netd__ClockRequest *cr;

	p0.iface = (char *)"eth0";
	p0.transport = PTPSEP__TRANSPORT__TRANSPORT_L2;
	ci.ptp_timescale = 1;
	si.leap_allowed = 1;
	pl.n_ports = 1;
	pl.ports = pp;
	pl.clock = &ci;
	pl.system_clock = &si;
	m0.body_case = PTPSEP__NETD__NETD_MSG__BODY_PORT_LIST;
	m0.port_list = &pl;
	send_msg(f, &m0);
	run(f);
	assert_int_equal(R.pl.clock.leap_allowed, 0);
	assert_int_equal(R.pl.sys_clock.leap_allowed, 1);
	assert_int_equal(netd_clock_req(f->nc, &q), 0);
	q.id = 8;
	q.leap = 0;
	q.set_tai = 0;
	assert_int_equal(netd_clock_req(f->nc, &q), 0);
	q.leap = 2;
	assert_int_equal(netd_clock_req(f->nc, &q), -1);
	run(f);
	m = next_out(f);
	assert_non_null(m);
	assert_int_equal(m->body_case, PTPSEP__NETD__NETD_MSG__BODY_BATCH);
	assert_int_equal(m->batch->n_msgs, 2);
	cr = m->batch->msgs[0]->clock_request;
	assert_int_equal(cr->id, 7);
	assert_int_equal(cr->op_case, PTPSEP__NETD__CLOCK_REQUEST__OP_SET_LEAP);
	assert_int_equal(cr->system_clock, 1);
	assert_int_equal(cr->set_leap->leap, 1);
	assert_int_equal(cr->set_leap->set_tai, 1);
	assert_int_equal(cr->set_leap->tai_offset, 37);
	cr = m->batch->msgs[1]->clock_request;
	assert_int_equal(cr->id, 8);
	assert_int_equal(cr->op_case, PTPSEP__NETD__CLOCK_REQUEST__OP_SET_LEAP);
	assert_int_equal(cr->set_leap->leap, 0);
	assert_int_equal(cr->set_leap->set_tai, 0);
	assert_int_equal(cr->set_leap->tai_offset, 0);
	ipc_free(&m->base);
	assert_null(next_out(f));
}

/* One send: the message alone, as before batches. */
static void
test_out_one_plain(void **state)
{
	struct fake *f = *state;
	Ptpsep__Netd__NetdMsg *m;

	link_event_sends(f, 1, 0);
	m = next_out(f);
	assert_non_null(m);
	assert_frame(m, 0);
	ipc_free(&m->base);
	assert_null(next_out(f));
}

/* IPC_BATCH_MAX + 1 sends: a full batch, then the last one alone. */
static void
test_out_over_max(void **state)
{
	struct fake *f = *state;
	Ptpsep__Netd__NetdMsg *m;
	unsigned i;

	link_event_sends(f, IPC_BATCH_MAX + 1, 0);
	m = next_out(f);
	assert_non_null(m);
	assert_int_equal(m->body_case, PTPSEP__NETD__NETD_MSG__BODY_BATCH);
	assert_int_equal(m->batch->n_msgs, IPC_BATCH_MAX);
	for (i = 0; i < IPC_BATCH_MAX; i++)
		assert_frame(m->batch->msgs[i], i);
	ipc_free(&m->base);
	m = next_out(f);
	assert_non_null(m);
	assert_frame(m, IPC_BATCH_MAX);
	ipc_free(&m->base);
	assert_null(next_out(f));
}

/* Nothing queued survives its connection: a send while netd is away
 * fails at once, and the next connection starts with an empty outbox. */
static void
test_out_not_ready(void **state)
{
	struct fake *f = *state;

	/* Hello exchanged, no PortList yet */
	SEND.n = 2;
	send_some();
	assert_int_equal(SEND.sent, 0);
	run(f);
	send_port_list(f, 1);
	run(f);
	assert_null(next_out(f));
}

/* Every RefuseReason: the four clockd acts on, the rest CR_CLOCK_FAILED. */
static void
test_refusal_of(void **state)
{
	(void)state;
	assert_int_equal(netd_refusal_of(
	    PTPSEP__REFUSE_REASON__REFUSE_OUT_OF_BOUNDS), CR_OUT_OF_BOUNDS);
	assert_int_equal(netd_refusal_of(
	    PTPSEP__REFUSE_REASON__REFUSE_STEP_NOT_ALLOWED),
	    CR_STEP_NOT_ALLOWED);
	assert_int_equal(netd_refusal_of(
	    PTPSEP__REFUSE_REASON__REFUSE_RATE_LIMITED), CR_RATE_LIMITED);
	assert_int_equal(netd_refusal_of(
	    PTPSEP__REFUSE_REASON__REFUSE_STEP_TOO_LARGE), CR_STEP_TOO_LARGE);
	assert_int_equal(netd_refusal_of(
	    PTPSEP__REFUSE_REASON__REFUSE_UNSPECIFIED), CR_CLOCK_FAILED);
	assert_int_equal(netd_refusal_of(
	    PTPSEP__REFUSE_REASON__REFUSE_BAD_REQUEST), CR_CLOCK_FAILED);
	assert_int_equal(netd_refusal_of(
	    PTPSEP__REFUSE_REASON__REFUSE_BUSY), CR_CLOCK_FAILED);
	assert_int_equal(netd_refusal_of((Ptpsep__RefuseReason)999),
	    CR_CLOCK_FAILED);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_port_list, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_port_list_no_clock, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_rx_frame, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_timestamp, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_clock_reply, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_system_clock, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_out_clock_req, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_out_clock_leap, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_no_system_clock, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_link_event, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_no_probing_read, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_batch_in_order, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_out_two_one_datagram,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_out_held_when_full, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_out_same_turn, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_out_one_plain, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_out_over_max, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_out_not_ready, setup,
		    teardown),
		cmocka_unit_test(test_refusal_of),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
