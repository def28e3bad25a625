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

#include "netd_client.h"

/* hostile noread: how long the client stops reading (the test floods). */
#define NOREAD_SECONDS	8
#define NOREAD_REQUESTS	200

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
	uint8_t payload[MAX_PAYLOAD], ub[16];
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
		 * for clock reads: netd may drop RxFrames, not replies, so it
		 * must close the connection.  The queue is full for frames,
		 * but a smaller reply may still fit in what is left, so it
		 * asks NOREAD_REQUESTS times: one of them meets the limit. */
		Ptpsep__Netd__ClockRead rd = PTPSEP__NETD__CLOCK_READ__INIT;
		NetdMsg *r;
		long nrx = 0, nreply = 0, nreq;
		int rc;

		code = 0;
		fd = netd_open(path);
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
				break;	/* closed already */
		}
		for (;;) {
			rc = recv_netd(fd, 3000, &r);
			if (rc != IPC_OK)
				break;
			if (r->body_case == PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME)
				nrx++;
			else if (r->body_case ==
			    PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY)
				nreply++;
			else if (r->body_case == PTPSEP__NETD__NETD_MSG__BODY_ERROR)
				code = r->error->code;
			ipc_free(&r->base);
		}
		closed = rc == IPC_E_EOF;
		close(fd);
		printf("RESULT case=noread rx_frames=%ld requests=%ld "
		    "clock_replies=%ld code=%s closed=%d\n", nrx, nreq, nreply,
		    error_code_name(code), closed);
		/* Either every reply arrived, or the connection was closed:
		 * a reply may never be lost on an open connection. */
		return nrx > 0 && ((closed && nreply < nreq) ||
		    (!closed && nreply == nreq)) ? 0 : 1;
	}
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
