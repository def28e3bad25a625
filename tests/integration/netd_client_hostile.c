/*
 * netd_client_hostile.c - "netd_client hostile SOCK CASE": a clockd that
 * misbehaves on netd_socket, and what netd answers.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "netd_client.h"

/* hostile noread: how long the client stops reading (the test floods). */
#define NOREAD_SECONDS	8
/* Far more replies than netd's send buffer holds (~600 with 1 MiB asked). */
#define NOREAD_REQUESTS	100000

/* ---- hostile cases --------------------------------------------------------- */

static void
send_raw_msg(int fd, const NetdMsg *m)
{
	uint8_t *buf;
	size_t n = protobuf_c_message_get_packed_size(&m->base);

	if ((buf = malloc(n ? n : 1)) == NULL)
		die("malloc");
	protobuf_c_message_pack(&m->base, buf);
	if (send(fd, buf, n, MSG_EOR | MSG_NOSIGNAL) != (ssize_t)n)
		printf("NOTE send: %s\n", strerror(errno));
	free(buf);
}

/*
 * What netd answers: prints "ANSWER error code=X" and/or "ANSWER closed".
 * Returns the Error code seen (0 none); *closed tells whether the
 * connection was closed within the timeout.
 */
static int
await_answer(int fd, int *closed)
{
	NetdMsg *m;
	int rc, code = 0;

	*closed = 0;
	for (;;) {
		rc = recv_netd(fd, 2000, &m);
		if (rc == IPC_E_AGAIN) {
			printf("ANSWER none (connection open)\n");
			return code;
		}
		if (rc == IPC_E_EOF ||
		    (rc == IPC_E_SYS && (errno == ECONNRESET || errno == EPIPE))) {
			printf("ANSWER closed\n");
			*closed = 1;
			return code;
		}
		if (rc != IPC_OK) {
			printf("ANSWER undecodable (%s)\n", ipc_strerror(rc));
			continue;
		}
		if (print_other(m) && code == 0)
			code = m->error->code;
		ipc_free(&m->base);
	}
}

/* ---- clock bounds: a clockd that asks for more than netd allows -------- */

#define CL_READ		0
#define CL_FREQ		1
#define CL_STEP		2

/*
 * Sends one ClockRequest and returns its ClockReply (other messages are
 * skipped; for an accepted frequency change, the reply to the read behind
 * it); NULL when the connection closed or no reply came.  *rtt_mid
 * (CLOCK_REALTIME ns) is the middle of the round trip.
 */
static NetdMsg *
clock_call(int fd, uint64_t id, int op, double ppb, int64_t step_ns,
    int64_t *rtt_mid, int64_t *rtt)
{
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT, *r;
	Ptpsep__Netd__ClockRequest req = PTPSEP__NETD__CLOCK_REQUEST__INIT;
	Ptpsep__Netd__ClockRead rd = PTPSEP__NETD__CLOCK_READ__INIT;
	Ptpsep__Netd__ClockAdjFreq af = PTPSEP__NETD__CLOCK_ADJ_FREQ__INIT;
	Ptpsep__Netd__ClockStep st = PTPSEP__NETD__CLOCK_STEP__INIT;
	int64_t t0, t1;

	req.id = id;
	if (op == CL_FREQ) {
		req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ;
		af.freq_ppb = ppb;
		req.adj_freq = &af;
	} else if (op == CL_STEP) {
		req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_STEP;
		st.offset_ns = step_ns;
		req.step = &st;
	} else {
		req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_READ;
		req.read = &rd;
	}
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST;
	m.clock_request = &req;
	t0 = now_ns(CLOCK_REALTIME);
	if (ipc_send_netd(fd, &m) != IPC_OK)
		return NULL;
	/* An accepted change is not answered: a read behind it is. */
	if (op == CL_FREQ && clock_send_barrier(fd, id) != 0)
		return NULL;
	if (clock_wait_reply(fd, id, op == CL_FREQ, 2000, NULL, &r) != IPC_OK)
		return NULL;
	t1 = now_ns(CLOCK_REALTIME);
	if (rtt_mid != NULL)
		*rtt_mid = t0 + (t1 - t0) / 2;
	if (rtt != NULL)
		*rtt = t1 - t0;
	return r;
}

static const char *
reply_status(const Ptpsep__Netd__ClockReply *c)
{
	return c->status == PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK ? "OK" :
	    c->status == PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_REFUSED ?
	    "REFUSED" : "?";
}

/* The virtual clock's offset from CLOCK_REALTIME, best of five reads. */
static int
clock_offset(int fd, uint64_t *id, int64_t *off)
{
	int64_t mid, rtt, best = INT64_MAX;
	NetdMsg *r;
	int i;

	for (i = 0; i < 5; i++) {
		if ((r = clock_call(fd, ++*id, CL_READ, 0, 0, &mid, &rtt)) ==
		    NULL)
			return -1;
		if (r->clock_reply->now != NULL && rtt < best) {
			best = rtt;
			*off = ts_ns(r->clock_reply->now) - mid;
		}
		ipc_free(&r->base);
	}
	return best == INT64_MAX ? -1 : 0;
}

/*
 * Steps of 3e18 ns and of max_step_ns + 1 (both signs): each refused with
 * STEP_TOO_LARGE on an open connection, and the clock does not move.
 */
static int
hostile_bigstep(const char *path)
{
	int64_t steps[3], before, after, moved;
	uint64_t id = 0;
	NetdMsg *r;
	int fd, i, refused = 0;

	fd = netd_open(path);
	if (!netd_clockinfo.have || netd_clockinfo.max_step_ns <= 0)
		die("netd announced no max_step_ns in ClockInfo");
	steps[0] = INT64_C(3000000000000000000);
	steps[1] = netd_clockinfo.max_step_ns + 1;
	steps[2] = -netd_clockinfo.max_step_ns - 1;
	if (clock_offset(fd, &id, &before) != 0)
		die("clock read before the steps");
	for (i = 0; i < 3; i++) {
		if ((r = clock_call(fd, ++id, CL_STEP, 0, steps[i], NULL,
		    NULL)) == NULL) {
			printf("ANSWER closed\n");
			break;
		}
		printf("STEP ns=%lld status=%s reason=%s\n",
		    (long long)steps[i], reply_status(r->clock_reply),
		    r->clock_reply->reason ?
		    refuse_name(r->clock_reply->reason) : "-");
		if (r->clock_reply->status ==
		    PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_REFUSED &&
		    r->clock_reply->reason ==
		    PTPSEP__REFUSE_REASON__REFUSE_STEP_TOO_LARGE)
			refused++;
		ipc_free(&r->base);
	}
	if (clock_offset(fd, &id, &after) != 0)
		die("clock read after the steps");
	moved = after - before;
	close(fd);
	printf("RESULT case=bigstep max_step_ns=%lld steps=3 "
	    "refused_step_too_large=%d moved_ns=%lld\n",
	    (long long)netd_clockinfo.max_step_ns, refused, (long long)moved);
	/* Read noise is microseconds; the smallest step asked was 1 s. */
	return refused == 3 && moved < 1000000 && moved > -1000000 ? 0 : 1;
}

#define ADJBURST_N	50
#define ADJBURST_GAP_US	10000	/* 50 requests over ~0.5 s */

/*
 * ADJBURST_N frequency changes ADJBURST_GAP_US apart, faster than
 * min_adj_interval_ms: the ones netd takes are at least that far apart,
 * the others are refused RATE_LIMITED, and the clock's frequency (in
 * every reply, and read at the end) is the last accepted one.
 */
static int
hostile_adjburst(const char *path)
{
	int64_t ivl, t, prev_ok = -1, gap, min_gap = INT64_MAX;
	int ok = 0, limited = 0, other = 0, wrong_freq = 0, i;
	double ppb, last_ok = NAN, freq = NAN;
	uint64_t id = 0;
	NetdMsg *r;
	int fd;

	fd = netd_open(path);
	if (!netd_clockinfo.have || netd_clockinfo.min_adj_interval_ms == 0)
		die("netd announced no min_adj_interval_ms in ClockInfo");
	ivl = (int64_t)netd_clockinfo.min_adj_interval_ms * 1000000;
	/* Whatever changed the frequency before is long enough ago. */
	usleep((useconds_t)(ivl / 1000 + 50000));
	for (i = 0; i < ADJBURST_N; i++) {
		ppb = 1000.0 + i;
		t = now_ns(CLOCK_MONOTONIC);
		if ((r = clock_call(fd, ++id, CL_FREQ, ppb, 0, NULL,
		    NULL)) == NULL) {
			printf("ANSWER closed\n");
			other++;
			break;
		}
		if (r->clock_reply->status ==
		    PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK) {
			ok++;
			if (prev_ok >= 0 && (gap = t - prev_ok) < min_gap)
				min_gap = gap;
			prev_ok = t;
			last_ok = ppb;
		} else if (r->clock_reply->reason ==
		    PTPSEP__REFUSE_REASON__REFUSE_RATE_LIMITED) {
			limited++;
		} else {
			printf("FREQ ppb=%g status=%s reason=%s\n", ppb,
			    reply_status(r->clock_reply),
			    refuse_name(r->clock_reply->reason));
			other++;
		}
		/* The reply carries the clock's frequency after the request. */
		if (r->clock_reply->freq_ppb != last_ok)
			wrong_freq++;
		ipc_free(&r->base);
		usleep(ADJBURST_GAP_US);
	}
	if ((r = clock_call(fd, ++id, CL_READ, 0, 0, NULL, NULL)) != NULL) {
		freq = r->clock_reply->freq_ppb;
		ipc_free(&r->base);
	}
	close(fd);
	printf("RESULT case=adjburst min_adj_interval_ms=%u requests=%d ok=%d "
	    "rate_limited=%d other=%d last_ok_ppb=%.3f freq_ppb=%.3f "
	    "replies_with_other_freq=%d min_gap_ms=%.3f\n",
	    netd_clockinfo.min_adj_interval_ms, ADJBURST_N, ok, limited,
	    other, last_ok, freq, wrong_freq,
	    min_gap == INT64_MAX ? -1.0 : min_gap / 1e6);
	/*
	 * The client's send times may differ from netd's receive times by
	 * scheduling jitter: 20 ms of slack on the gap.
	 */
	return other == 0 && ok >= 1 && limited >= 1 && freq == last_ok &&
	    wrong_freq == 0 && (ok == 1 || min_gap >= ivl - 20000000) ? 0 : 1;
}

/*
 * NetdBatches netd must refuse (netd.proto): empty, longer than
 * IPC_BATCH_MAX, holding a batch or a Hello (ipc_check), or holding an
 * RxFrame, which only netd sends (relay.c).  Each closes the connection
 * with ERROR_PROTOCOL before the TxFrame tx behind the culprit is sent.
 */
static void
hostile_batch(int fd, const char *which, NetdMsg *tx)
{
	NetdMsg env = PTPSEP__NETD__NETD_MSG__INIT;
	NetdMsg inner = PTPSEP__NETD__NETD_MSG__INIT;
	NetdMsg other = PTPSEP__NETD__NETD_MSG__INIT;
	NetdMsg *members[IPC_BATCH_MAX + 1], *one[1] = { tx };
	Ptpsep__Netd__NetdBatch b = PTPSEP__NETD__NETD_BATCH__INIT;
	Ptpsep__Netd__NetdBatch nb = PTPSEP__NETD__NETD_BATCH__INIT;
	Ptpsep__Netd__RxFrame rx = PTPSEP__NETD__RX_FRAME__INIT;
	Ptpsep__Hello h;
	size_t i;

	for (i = 0; i < IPC_BATCH_MAX + 1; i++)
		members[i] = tx;
	b.msgs = members;
	env.body_case = PTPSEP__NETD__NETD_MSG__BODY_BATCH;
	env.batch = &b;
	if (strcmp(which, "empty") == 0) {
		b.n_msgs = 0;
	} else if (strcmp(which, "nine") == 0) {
		b.n_msgs = IPC_BATCH_MAX + 1;
	} else if (strcmp(which, "nested") == 0) {
		nb.n_msgs = 1;
		nb.msgs = one;
		inner.body_case = PTPSEP__NETD__NETD_MSG__BODY_BATCH;
		inner.batch = &nb;
		members[1] = &inner;
		b.n_msgs = 2;
	} else if (strcmp(which, "hello") == 0) {
		ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CLOCKD);
		other.body_case = PTPSEP__NETD__NETD_MSG__BODY_HELLO;
		other.hello = &h;
		members[1] = &other;
		b.n_msgs = 2;
	} else if (strcmp(which, "rx") == 0) {
		rx.msg_class = tx->tx_frame->msg_class;
		rx.payload = tx->tx_frame->payload;
		other.body_case = PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME;
		other.rx_frame = &rx;
		members[0] = &other;
		b.n_msgs = 2;
	} else {
		usage();
	}
	printf("SENT batch of %zu (%s)\n", b.n_msgs, which);
	send_raw_msg(fd, &env);
}

int
cmd_hostile(const char *path, const char *name)
{
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__TxFrame f = PTPSEP__NETD__TX_FRAME__INIT;
	Ptpsep__Netd__Address uni = PTPSEP__NETD__ADDRESS__INIT;
	Ptpsep__Netd__ClockRequest req = PTPSEP__NETD__CLOCK_REQUEST__INIT;
	Ptpsep__Netd__ClockAdjFreq af = PTPSEP__NETD__CLOCK_ADJ_FREQ__INIT;
	struct opts o;
	static uint8_t big[IPC_MAX_MSG + 4096];
	uint8_t payload[MAX_PAYLOAD], ub[16], fu[MAX_PAYLOAD];
	size_t len;
	int fd, fd2, code, closed, want = PTPSEP__ERROR_CODE__ERROR_PROTOCOL;
	int want_closed = 1;

	opts_parse(&o, 0, NULL, 0);
	o.msg = "sync";
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME;
	m.tx_frame = &f;

	if (strcmp(name, "perm") == 0) {
		/* Run as a user netd must not serve. */
		if ((fd = unix_connect(path)) < 0) {
			printf("ANSWER connect refused by the file system: %s\n",
			    strerror(errno));
			return errno == EACCES ? 0 : 1;
		}
		send_hello(fd, IPC_PROTOCOL_VERSION);
		code = await_answer(fd, &closed);
		printf("RESULT case=perm code=%s closed=%d\n",
		    error_code_name(code), closed);
		return code == PTPSEP__ERROR_CODE__ERROR_PERMISSION_DENIED &&
		    closed ? 0 : 1;
	}
	if (strcmp(name, "busy") == 0) {
		NetdMsg *r;
		int rc;

		fd = netd_open(path);
		if ((fd2 = unix_connect(path)) < 0)
			die("second connect: %s", strerror(errno));
		send_hello(fd2, IPC_PROTOCOL_VERSION);
		code = await_answer(fd2, &closed);
		close(fd2);
		printf("RESULT case=busy code=%s closed=%d\n",
		    error_code_name(code), closed);
		/* The first connection still works. */
		{
			Ptpsep__Netd__ClockRead rd = PTPSEP__NETD__CLOCK_READ__INIT;

			req.id = 7;
			req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_READ;
			req.read = &rd;
			m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST;
			m.clock_request = &req;
			if (ipc_send_netd(fd, &m) != IPC_OK)
				die("send on the first connection");
			rc = recv_netd(fd, 2000, &r);
			if (rc != IPC_OK || r->body_case !=
			    PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY)
				die("first connection no longer served");
			printf("FIRST still served (ClockReply id=%llu)\n",
			    (unsigned long long)r->clock_reply->id);
			ipc_free(&r->base);
		}
		close(fd);
		return code == PTPSEP__ERROR_CODE__ERROR_BUSY && closed ? 0 : 1;
	}
	if (strcmp(name, "noread") == 0) {
		/* A client that stops reading while frames arrive, then asks
		 * for clock reads and keeps asking without reading: netd may
		 * drop RxFrames, not replies, so when its queue to us is full
		 * it must close the connection.  Every read is answered, so
		 * asking until our send fails fills the queue with replies if
		 * the frames did not, and the close is certain.  Then what
		 * was queued is read back: the replies in the order asked,
		 * none missing before the close. */
		Ptpsep__Netd__ClockRead rd = PTPSEP__NETD__CLOCK_READ__INIT;
		struct timeval tmo = { 5, 0 };
		NetdMsg *r;
		long nrx = 0, nreply = 0, nreq, gaps = 0;
		uint64_t next = 100;
		int rc;

		code = 0;
		fd = netd_open(path);
		/* A netd that stopped reading must not hang the test. */
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tmo, sizeof(tmo));
		printf("READY\n");
		fflush(stdout);
		sleep(NOREAD_SECONDS);
		req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_READ;
		req.read = &rd;
		m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST;
		m.clock_request = &req;
		for (nreq = 0; nreq < NOREAD_REQUESTS; nreq++) {
			req.id = 100 + (uint64_t)nreq;
			if (ipc_send_netd(fd, &m) != IPC_OK)
				break;	/* closed (or netd stopped reading) */
		}
		for (;;) {
			rc = recv_netd(fd, 3000, &r);
			if (rc != IPC_OK)
				break;
			if (r->body_case == PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME)
				nrx++;
			else if (r->body_case ==
			    PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY) {
				if (r->clock_reply->id != next)
					gaps++;
				next = r->clock_reply->id + 1;
				nreply++;
			} else if (r->body_case == PTPSEP__NETD__NETD_MSG__BODY_ERROR)
				code = r->error->code;
			ipc_free(&r->base);
		}
		closed = rc == IPC_E_EOF;
		close(fd);
		printf("RESULT case=noread rx_frames=%ld requests=%ld "
		    "clock_replies=%ld in_order=%d code=%s closed=%d\n", nrx,
		    nreq, nreply, gaps == 0, error_code_name(code), closed);
		/* Closed, and no reply lost while the connection was open:
		 * the replies read are the first ones asked for, in order. */
		return nrx > 0 && closed && gaps == 0 && nreply < nreq ? 0 : 1;
	}
	if (strcmp(name, "bigstep") == 0)
		return hostile_bigstep(path);
	if (strcmp(name, "adjburst") == 0)
		return hostile_adjburst(path);
	if (strcmp(name, "nohello") == 0) {
		if ((fd = unix_connect(path)) < 0)
			die("connect: %s", strerror(errno));
		if (wait_hello(fd) != 0)
			die("no Hello from netd");
	} else if (strcmp(name, "version") == 0) {
		if ((fd = unix_connect(path)) < 0)
			die("connect: %s", strerror(errno));
		send_hello(fd, IPC_PROTOCOL_VERSION + 41);
		if (wait_hello(fd) != 0)
			die("no Hello from netd");
		want = PTPSEP__ERROR_CODE__ERROR_VERSION_MISMATCH;
		code = await_answer(fd, &closed);
		goto verdict;
	} else {
		fd = netd_open(path);
	}

	len = build_msg("sync", 1, payload, sizeof(payload));
	fill_tx(&o, &f, &uni, ub, payload, len);
	if (strcmp(name, "nonptp") == 0) {
		payload[1] = 0x01;		/* versionPTP 1 */
		send_raw_msg(fd, &m);
	} else if (strcmp(name, "wrongclass") == 0) {
		f.msg_class = PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;	/* Sync */
		send_raw_msg(fd, &m);
	} else if (strcmp(name, "badport") == 0) {
		f.port_index = 7;
		send_raw_msg(fd, &m);
	} else if (strcmp(name, "badlen") == 0) {
		payload[3] = 60;		/* messageLength != length */
		send_raw_msg(fd, &m);
	} else if (strcmp(name, "oversize") == 0) {
		memset(big, 0x5a, sizeof(big));
		if (send(fd, big, sizeof(big), MSG_EOR | MSG_NOSIGNAL) !=
		    (ssize_t)sizeof(big))
			printf("NOTE send: %s\n", strerror(errno));
		printf("SENT %zu bytes (IPC_MAX_MSG %d)\n", sizeof(big),
		    IPC_MAX_MSG);
	} else if (strcmp(name, "garbage") == 0) {
		memset(big, 0xff, 64);
		if (send(fd, big, 64, MSG_EOR | MSG_NOSIGNAL) != 64)
			printf("NOTE send: %s\n", strerror(errno));
	} else if (strcmp(name, "nohello") == 0) {
		send_raw_msg(fd, &m);
	} else if (strcmp(name, "unicast") == 0) {
		o.dest = "unicast:02:00:00:00:99:99";
		fill_tx(&o, &f, &uni, ub, payload, len);
		send_raw_msg(fd, &m);
	} else if (strcmp(name, "nan") == 0) {
		req.id = 1;
		req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ;
		af.freq_ppb = NAN;
		req.adj_freq = &af;
		m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST;
		m.clock_request = &req;
		send_raw_msg(fd, &m);
	} else if (strcmp(name, "gents") == 0) {
		len = build_msg("announce", 1, payload, sizeof(payload));
		o.cls = "general";
		o.want_ts = 1;
		fill_tx(&o, &f, &uni, ub, payload, len);
		send_raw_msg(fd, &m);
	} else if (strcmp(name, "badfu") == 0) {
		/* A Follow_Up of another sequenceId than its Sync: netd would
		 * send it unseen, so check.c refuses it. */
		o.want_ts = 1;
		fill_tx(&o, &f, &uni, ub, payload, len);
		f.follow_up.data = fu;
		f.follow_up.len = build_msg("follow_up", 2, fu, sizeof(fu));
		send_raw_msg(fd, &m);
	} else if (strncmp(name, "batch_", 6) == 0) {
		hostile_batch(fd, name + 6, &m);
	} else if (strcmp(name, "empty") == 0) {
		/* A 0-byte datagram reads as end of file: closed, no Error. */
		if (send(fd, "", 0, MSG_EOR | MSG_NOSIGNAL) != 0)
			printf("NOTE send: %s\n", strerror(errno));
		want = 0;
	} else {
		usage();
	}
	code = await_answer(fd, &closed);
verdict:
	close(fd);
	printf("RESULT case=%s code=%s closed=%d\n", name,
	    code ? error_code_name(code) : "none", closed);
	return code == want && closed == want_closed ? 0 : 1;
}
