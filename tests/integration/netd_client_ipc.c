/*
 * netd_client_ipc.c - the netd test client as clockd: netd_socket (Hello,
 * PortList, RxFrame, TxFrame, ClockRequest) and netd_ctl_socket (NetdInfo).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "netd_client.h"

int64_t
ts_ns(const Ptpsep__Timestamp *t)
{
	return (int64_t)t->seconds * 1000000000LL + t->nanoseconds;
}

static const char *
fmt_addr(const uint8_t *b, size_t len)
{
	static char s[INET6_ADDRSTRLEN];

	if (len == 6)
		return fmt_mac(b);
	if (len == 4)
		return inet_ntop(AF_INET, b, s, sizeof(s));
	if (len == 16)
		return inet_ntop(AF_INET6, b, s, sizeof(s));
	return "?";
}

/* ---- the netd channel ----------------------------------------------------- */

int
unix_connect(const char *path)
{
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path))
		die("socket path too long");
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/*
 * The members of the last NetdBatch received, packed again, handed out one
 * by one as if each had come alone (netd.proto): every caller then sees
 * (and frees) single messages.  The batch itself is announced on a line
 * of its own, "BATCH id=N n=K members=a,b", for the script to grep.
 */
static struct {
	uint8_t		buf[IPC_MAX_MSG];
	size_t		off[IPC_BATCH_MAX], len[IPC_BATCH_MAX];
	size_t		n, next;
	unsigned	id;
} unbatch;

/* A member's short name: the PTP message of an RxFrame, else its body. */
static const char *
member_name(const NetdMsg *m)
{
	switch (m->body_case) {
	case PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME:
		return m->rx_frame->payload.len > 0 ?
		    ptp_type_name(m->rx_frame->payload.data[0]) : "rx";
	case PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP:
		return "txts";
	case PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY:
		return "clock_reply";
	case PTPSEP__NETD__NETD_MSG__BODY_LINK_EVENT:
		return "link";
	default:
		return "other";
	}
}

/* Keeps the members of b for recv_netd(); prints the BATCH line. */
static void
unbatch_keep(const NetdMsg *b)
{
	size_t i, used = 0, len;

	unbatch.id++;
	unbatch.n = unbatch.next = 0;
	printf("BATCH id=%u n=%zu members=", unbatch.id, b->batch->n_msgs);
	for (i = 0; i < b->batch->n_msgs; i++) {
		const NetdMsg *m = b->batch->msgs[i];

		if (ipc_encode(&m->base, unbatch.buf + used,
		    sizeof(unbatch.buf) - used, &len) != IPC_OK)
			die("batch member %zu: %s", i, ipc_detail());
		unbatch.off[i] = used;
		unbatch.len[i] = len;
		used += len;
		printf("%s%s", i ? "," : "", member_name(m));
	}
	printf("\n");
	unbatch.n = b->batch->n_msgs;
}

static int
unbatch_next(NetdMsg **m)
{
	ProtobufCMessage *pm;
	size_t i = unbatch.next++;
	int rc;

	rc = ipc_decode(&ptpsep__netd__netd_msg__descriptor,
	    unbatch.buf + unbatch.off[i], unbatch.len[i], &pm);
	*m = (NetdMsg *)pm;
	return rc;
}

/*
 * One message within timeout_ms.  Returns IPC_OK, IPC_E_EOF (closed),
 * IPC_E_AGAIN (timeout) or another ipc error.  A ECONNRESET (netd closed
 * with our last datagram unread) is read past: the Error netd queued before
 * closing is still behind it.  A NetdBatch is returned member by member.
 */
int
recv_netd(int fd, int timeout_ms, NetdMsg **m)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int64_t end = now_ns(CLOCK_MONOTONIC) + (int64_t)timeout_ms * 1000000;
	int rc, resets = 0;

	*m = NULL;
	if (unbatch.next < unbatch.n)
		return unbatch_next(m);
	for (;;) {
		int64_t left = (end - now_ns(CLOCK_MONOTONIC)) / 1000000;

		if (left < 0)
			left = 0;
		rc = poll(&pfd, 1, (int)left);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0)
			return IPC_E_AGAIN;
		rc = ipc_recv_netd(fd, m);
		if (rc == IPC_E_SYS && errno == ECONNRESET && resets++ < 2) {
			printf("NOTE recv: ECONNRESET (read past it)\n");
			continue;
		}
		if (rc == IPC_OK &&
		    (*m)->body_case == PTPSEP__NETD__NETD_MSG__BODY_BATCH) {
			unbatch_keep(*m);
			ipc_free(&(*m)->base);
			return unbatch_next(m);
		}
		return rc;
	}
}

static const char *
enum_name(const ProtobufCEnumDescriptor *d, int v)
{
	const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(d, v);

	return ev != NULL ? ev->name : "?";
}

const char *
error_code_name(int code)
{
	const char *n = enum_name(&ptpsep__error_code__descriptor, code);

	return strncmp(n, "ERROR_", 6) == 0 ? n + 6 : n;
}

const char *
refuse_name(int r)
{
	const char *n = enum_name(&ptpsep__refuse_reason__descriptor, r);

	return strncmp(n, "REFUSE_", 7) == 0 ? n + 7 : n;
}

static void
print_port(const char *tag, const Ptpsep__Netd__Port *p)
{
	printf("%s index=%u iface=%s transport=%s link_up=%d mac=%s\n", tag,
	    p->index, p->iface, enum_name(&ptpsep__transport__descriptor,
	    p->transport), p->link_up, p->mac.len == 6 ?
	    fmt_mac(p->mac.data) : "-");
}

static void
print_rx(const Ptpsep__Netd__RxFrame *f)
{
	const uint8_t *b = f->payload.data;
	int64_t rx = f->rx_ts ? ts_ns(f->rx_ts) : 0;
	int64_t off = f->rx_ts ? rx - now_ns(CLOCK_REALTIME) : 0;

	printf("RX port=%u class=%s len=%zu type=0x%x msg=%s seq=%u ts=%s "
	    "ts_source=%s ts_ns=%lld tsoff_ms=%lld from=%s\n",
	    f->port_index,
	    f->msg_class == PTPSEP__MSG_CLASS__MSG_CLASS_EVENT ? "event" :
	    f->msg_class == PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL ? "general" :
	    "?", f->payload.len, b[0] & 0x0f, ptp_type_name(b[0]),
	    (unsigned)b[30] << 8 | b[31], f->rx_ts ? "yes" : "no",
	    f->rx_ts == NULL ? "none" : f->ts_source ==
	    PTPSEP__TIMESTAMP_MODE__TS_MODE_HARDWARE ? "hw" : "sw",
	    (long long)rx, (long long)(off / 1000000),
	    f->source ? fmt_addr(f->source->addr.data, f->source->addr.len) :
	    "-");
}

/* Prints what an unexpected message says; returns 1 for an Error. */
int
print_other(const NetdMsg *m)
{
	switch (m->body_case) {
	case PTPSEP__NETD__NETD_MSG__BODY_ERROR:
		printf("ANSWER error code=%s msg=\"%s\"\n",
		    error_code_name(m->error->code), m->error->message);
		return 1;
	case PTPSEP__NETD__NETD_MSG__BODY_LINK_EVENT:
		printf("LINK port=%u link_up=%d reopened=%d\n",
		    m->link_event->port_index, m->link_event->link_up,
		    m->link_event->reopened);
		if (m->link_event->port != NULL)
			print_port("LINKPORT", m->link_event->port);
		return 0;
	case PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME:
		print_rx(m->rx_frame);
		return 0;
	default:
		printf("MSG case=%u\n", (unsigned)m->body_case);
		return 0;
	}
}

void
send_hello(int fd, uint32_t version)
{
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Hello h;

	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CLOCKD);
	h.protocol_version = version;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_HELLO;
	m.hello = &h;
	if (version == IPC_PROTOCOL_VERSION) {
		int rc = ipc_send_netd(fd, &m);

		/* netd may have refused and closed already: read why. */
		if (rc == IPC_E_SYS && (errno == EPIPE || errno == ECONNRESET))
			printf("NOTE send Hello: %s\n", strerror(errno));
		else if (rc != IPC_OK)
			die("send Hello: %s", ipc_strerror(rc));
	} else {
		uint8_t buf[256];
		size_t n = protobuf_c_message_pack(&m.base, buf);

		if (send(fd, buf, n, MSG_EOR) != (ssize_t)n)
			die("send Hello: %s", strerror(errno));
	}
}

/* Waits for netd's Hello; returns 0, or 1 after printing an Error. */
int
wait_hello(int fd)
{
	NetdMsg *m;
	int rc;

	rc = recv_netd(fd, 3000, &m);
	if (rc == IPC_E_AGAIN)
		die("no Hello from netd");
	if (rc == IPC_E_EOF) {
		printf("ANSWER closed\n");
		return 1;
	}
	if (rc != IPC_OK)
		die("recv Hello: %s (%s)", ipc_strerror(rc), ipc_detail());
	if (m->body_case != PTPSEP__NETD__NETD_MSG__BODY_HELLO) {
		print_other(m);
		ipc_free(&m->base);
		return 1;
	}
	printf("HELLO version=%u role=%s software=%s\n",
	    m->hello->protocol_version, enum_name(&ptpsep__role__descriptor,
	    m->hello->role), m->hello->software_version);
	ipc_free(&m->base);
	return 0;
}

/* Connects, exchanges Hello and prints the PortList.  Exits on failure. */
struct netd_clockinfo netd_clockinfo;

int
netd_open(const char *path)
{
	NetdMsg *m;
	size_t i;
	int fd, rc;

	if ((fd = unix_connect(path)) < 0)
		die("connect %s: %s", path, strerror(errno));
	send_hello(fd, IPC_PROTOCOL_VERSION);
	if (wait_hello(fd) != 0)
		die("netd did not say Hello");
	rc = recv_netd(fd, 3000, &m);
	if (rc != IPC_OK)
		die("no PortList: %s", ipc_strerror(rc));
	if (m->body_case != PTPSEP__NETD__NETD_MSG__BODY_PORT_LIST) {
		print_other(m);
		die("expected a PortList");
	}
	for (i = 0; i < m->port_list->n_ports; i++)
		print_port("PORT", m->port_list->ports[i]);
	if (m->port_list->clock != NULL) {
		const Ptpsep__Netd__ClockInfo *ci = m->port_list->clock;

		printf("CLOCKINFO device=%s max_freq_ppb=%g step_allowed=%d "
		    "max_step_ns=%lld min_adj_interval_ms=%u\n", ci->device,
		    ci->max_freq_ppb, ci->step_allowed,
		    (long long)ci->max_step_ns, ci->min_adj_interval_ms);
		netd_clockinfo.have = 1;
		netd_clockinfo.max_step_ns = ci->max_step_ns;
		netd_clockinfo.min_adj_interval_ms = ci->min_adj_interval_ms;
	}
	if (m->port_list->system_clock != NULL) {
		const Ptpsep__Netd__ClockInfo *ci = m->port_list->system_clock;

		printf("SYSCLOCKINFO device=%s max_freq_ppb=%g step_allowed=%d "
		    "sysoff=%s ptp_timescale=%d phc_index=%d leap_allowed=%d\n",
		    ci->device, ci->max_freq_ppb, ci->step_allowed,
		    enum_name(&ptpsep__netd__sysoff_method__descriptor,
		    ci->sysoff), ci->ptp_timescale, ci->phc_index,
		    ci->leap_allowed);
	}
	if (m->port_list->clock != NULL)
		printf("CLOCKINFO2 ptp_timescale=%d phc_index=%d "
		    "leap_allowed=%d\n", m->port_list->clock->ptp_timescale,
		    m->port_list->clock->phc_index,
		    m->port_list->clock->leap_allowed);
	ipc_free(&m->base);
	return fd;
}

int
cmd_recv(const char *path, const struct opts *o)
{
	int64_t end;
	NetdMsg *m;
	long got = 0;
	int fd, rc;

	fd = netd_open(path);
	printf("READY\n");
	fflush(stdout);
	end = now_ns(CLOCK_MONOTONIC) + (int64_t)(o->timeout * 1e9);
	while (got < o->count) {
		int64_t left = (end - now_ns(CLOCK_MONOTONIC)) / 1000000;

		if (left <= 0)
			break;
		rc = recv_netd(fd, (int)left, &m);
		if (rc == IPC_E_AGAIN)
			break;
		if (rc != IPC_OK) {
			printf("GOT %ld frames\n", got);
			die("recv: %s (%s)", ipc_strerror(rc), ipc_detail());
		}
		if (m->body_case == PTPSEP__NETD__NETD_MSG__BODY_RX_FRAME)
			got++;
		if (print_other(m)) {
			ipc_free(&m->base);
			die("netd sent an Error");
		}
		ipc_free(&m->base);
		fflush(stdout);
	}
	printf("GOT %ld frames\n", got);
	close(fd);
	return got >= o->count ? 0 : EXIT_TIMEOUT;
}

static int
fill_unicast(const char *s, Ptpsep__Netd__Address *a, uint8_t *b)
{
	if (parse_mac(s, b) == 0 && strchr(s, ':') != NULL &&
	    strlen(s) == 17) {
		a->family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_MAC;
		a->addr.len = 6;
	} else if (inet_pton(AF_INET, s, b) == 1) {
		a->family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV4;
		a->addr.len = 4;
	} else if (inet_pton(AF_INET6, s, b) == 1) {
		a->family = PTPSEP__NETD__ADDR_FAMILY__ADDR_FAMILY_IPV6;
		a->addr.len = 16;
	} else {
		return -1;
	}
	a->addr.data = b;
	return 0;
}

/* Fills a TxFrame from the options; unicast and b must outlive it. */
void
fill_tx(const struct opts *o, Ptpsep__Netd__TxFrame *f,
    Ptpsep__Netd__Address *uni, uint8_t *ub, uint8_t *payload, size_t len)
{
	f->port_index = o->port;
	f->msg_class = strcmp(o->cls, "event") == 0 ?
	    PTPSEP__MSG_CLASS__MSG_CLASS_EVENT :
	    PTPSEP__MSG_CLASS__MSG_CLASS_GENERAL;
	if (strcmp(o->dest, "primary") == 0)
		f->dest = PTPSEP__NETD__DESTINATION__DEST_PRIMARY;
	else if (strcmp(o->dest, "pdelay") == 0)
		f->dest = PTPSEP__NETD__DESTINATION__DEST_PDELAY;
	else if (strncmp(o->dest, "unicast:", 8) == 0) {
		f->dest = PTPSEP__NETD__DESTINATION__DEST_UNICAST;
		if (fill_unicast(o->dest + 8, uni, ub) != 0)
			die("bad unicast address %s", o->dest + 8);
		f->unicast = uni;
	} else
		die("bad --dest %s", o->dest);
	f->payload.data = payload;
	f->payload.len = len;
	f->cookie = o->cookie;
	f->want_tx_ts = o->want_ts;
}

#define BATCH_FREQ_ID	4242
#define BATCH_READ_ID	4243

/*
 * Sends tx in one NetdBatch with a ClockRequest setting the frequency to
 * ppb and a read behind it (netd answers only the read): netd acts on the
 * members in order as if each had come alone.  0, or -1.
 */
static int
send_batch_freq(int fd, NetdMsg *tx, double ppb)
{
	NetdMsg env = PTPSEP__NETD__NETD_MSG__INIT;
	NetdMsg fm = PTPSEP__NETD__NETD_MSG__INIT;
	NetdMsg rm = PTPSEP__NETD__NETD_MSG__INIT;
	NetdMsg *members[3] = { tx, &fm, &rm };
	Ptpsep__Netd__NetdBatch b = PTPSEP__NETD__NETD_BATCH__INIT;
	Ptpsep__Netd__ClockRequest fr = PTPSEP__NETD__CLOCK_REQUEST__INIT;
	Ptpsep__Netd__ClockRequest rr = PTPSEP__NETD__CLOCK_REQUEST__INIT;
	Ptpsep__Netd__ClockAdjFreq af = PTPSEP__NETD__CLOCK_ADJ_FREQ__INIT;
	Ptpsep__Netd__ClockRead rd = PTPSEP__NETD__CLOCK_READ__INIT;

	fr.id = BATCH_FREQ_ID;
	fr.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ;
	af.freq_ppb = ppb;
	fr.adj_freq = &af;
	fm.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST;
	fm.clock_request = &fr;
	rr.id = BATCH_READ_ID;
	rr.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_READ;
	rr.read = &rd;
	rm.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST;
	rm.clock_request = &rr;
	b.n_msgs = 3;
	b.msgs = members;
	env.body_case = PTPSEP__NETD__NETD_MSG__BODY_BATCH;
	env.batch = &b;
	if (ipc_check(&env.base) != IPC_OK)
		return -1;
	return ipc_send_netd(fd, &env) == IPC_OK ? 0 : -1;
}

/* The read's reply: "BATCHFREQ id=.. status=.. freq_ppb=F"; 1 when OK. */
static int
wait_batch_freq(int fd)
{
	NetdMsg *r;
	int ok;

	if (clock_wait_reply(fd, BATCH_READ_ID, 0, 2000, NULL, &r) != IPC_OK) {
		printf("BATCHFREQ none\n");
		return 0;
	}
	printf("BATCHFREQ id=%llu status=%s freq_ppb=%.3f\n",
	    (unsigned long long)r->clock_reply->id,
	    enum_name(&ptpsep__netd__clock_status__descriptor,
	    r->clock_reply->status), r->clock_reply->freq_ppb);
	ok = r->clock_reply->status ==
	    PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK;
	ipc_free(&r->base);
	return ok;
}

/*
 * --count N with --want-ts: N frames, sequenceId seq.. and cookie
 * cookie.., in NetdBatches of IPC_BATCH_MAX as clockd sends a
 * grandmaster's Syncs, and every TxTimestamp that comes back counted:
 * "TXBURST n=N ok=K failed=F missing=M other=U dup=D order=1|0
 * elapsed_us=T" (order: the OK time stamps do not go back in cookie
 * order, as frames sent one after the other must not).  0 when each
 * frame got exactly one answer.
 */
static int
send_ts_burst(int fd, const struct opts *o, const Ptpsep__Netd__TxFrame *f,
    const uint8_t *payload, size_t len)
{
	static uint8_t pl[IPC_BATCH_MAX][MAX_PAYLOAD];
	NetdMsg env = PTPSEP__NETD__NETD_MSG__INIT;
	NetdMsg mm[IPC_BATCH_MAX], *members[IPC_BATCH_MAX], *r;
	Ptpsep__Netd__TxFrame ff[IPC_BATCH_MAX];
	Ptpsep__Netd__NetdBatch b = PTPSEP__NETD__NETD_BATCH__INIT;
	long n = o->count, sent = 0, got = 0, ok = 0, failed = 0, missing = 0;
	long other = 0, dup = 0, i, j, k;
	int64_t t0 = now_ns(CLOCK_MONOTONIC), *ts;
	uint8_t *seen;
	int rc, order = 1, wait_ms;

	if ((seen = calloc((size_t)n, 1)) == NULL ||
	    (ts = calloc((size_t)n, sizeof(*ts))) == NULL)
		die("out of memory");
	while (got < n) {
		if (sent < n) {
			k = n - sent < IPC_BATCH_MAX ? n - sent : IPC_BATCH_MAX;
			for (j = 0; j < k; j++) {
				unsigned seq = o->seq + (unsigned)(sent + j);
				NetdMsg init = PTPSEP__NETD__NETD_MSG__INIT;

				memcpy(pl[j], payload, len);
				pl[j][30] = (uint8_t)(seq >> 8);
				pl[j][31] = (uint8_t)seq;
				ff[j] = *f;
				ff[j].payload.data = pl[j];
				ff[j].cookie = o->cookie + (uint64_t)(sent + j);
				mm[j] = init;
				mm[j].body_case =
				    PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME;
				mm[j].tx_frame = &ff[j];
				members[j] = &mm[j];
			}
			b.n_msgs = (size_t)k;
			b.msgs = members;
			env.body_case = k > 1 ?
			    PTPSEP__NETD__NETD_MSG__BODY_BATCH :
			    PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME;
			if (k > 1)
				env.batch = &b;
			else
				env.tx_frame = &ff[0];
			if ((rc = ipc_send_netd(fd, &env)) != IPC_OK)
				die("send batch at %ld: %s (%s)", sent,
				    ipc_strerror(rc), ipc_detail());
			sent += k;
		}
		/* what has come meanwhile; at the end, wait for the rest */
		wait_ms = sent < n ? 0 : 3000;
		while ((rc = recv_netd(fd, wait_ms, &r)) == IPC_OK) {
			Ptpsep__Netd__TxTimestamp *t;

			if (r->body_case !=
			    PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP) {
				(void)print_other(r);
				ipc_free(&r->base);
				continue;
			}
			t = r->tx_timestamp;
			i = (long)(t->cookie - o->cookie);
			if (t->cookie < o->cookie || i >= n)
				other++;
			else if (seen[i]++)
				dup++;
			else {
				got++;
				if (t->status ==
				    PTPSEP__NETD__TX_TS_STATUS__TXTS_OK &&
				    t->ts != NULL) {
					ok++;
					ts[i] = ts_ns(t->ts);
				} else if (t->status ==
				    PTPSEP__NETD__TX_TS_STATUS__TXTS_MISSING)
					missing++;
				else
					failed++;
			}
			ipc_free(&r->base);
			if (got >= n)
				break;
		}
		if (rc == IPC_E_EOF)
			die("netd closed the connection at %ld", sent);
		if (rc != IPC_OK && rc != IPC_E_AGAIN)
			die("recv: %s (%s)", ipc_strerror(rc), ipc_detail());
		if (rc == IPC_E_AGAIN && sent >= n)
			break;		/* 3 s without one: the rest never come */
	}
	for (i = 1, j = -1; i < n; i++)
		if (ts[i] != 0) {
			if (j >= 0 && ts[i] < ts[j])
				order = 0;
			j = i;
		}
	printf("TXBURST n=%ld ok=%ld failed=%ld missing=%ld other=%ld dup=%ld "
	    "order=%d elapsed_us=%lld\n", n, ok, failed, missing, other, dup,
	    order, (long long)((now_ns(CLOCK_MONOTONIC) - t0) / 1000));
	free(seen);
	free(ts);
	return got == n && dup == 0 && other == 0 ? 0 : 1;
}

int
cmd_send(const char *path, const struct opts *o)
{
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT, *r;
	Ptpsep__Netd__TxFrame f = PTPSEP__NETD__TX_FRAME__INIT;
	Ptpsep__Netd__Address uni = PTPSEP__NETD__ADDRESS__INIT;
	uint8_t payload[MAX_PAYLOAD], ub[16], fu[MAX_PAYLOAD];
	int64_t sent_rt;
	size_t len;
	int fd, rc, ok = 0;

	len = opts_payload(o, payload, sizeof(payload));
	fd = netd_open(path);
	fill_tx(o, &f, &uni, ub, payload, len);
	if (o->follow_up) {
		f.follow_up.data = fu;
		f.follow_up.len = build_msg("follow_up", o->seq, fu,
		    sizeof(fu));
	}
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME;
	m.tx_frame = &f;
	sent_rt = now_ns(CLOCK_REALTIME);
	if (o->count > 1 && o->want_ts && !o->batch_freq && !o->follow_up) {
		rc = send_ts_burst(fd, o, &f, payload, len);
		close(fd);
		return rc;
	}
	if (o->count > 1 && !o->want_ts && !o->batch_freq) {
		/* --count N: a burst back to back, sequenceId seq.. (peers.sh) */
		int64_t t0 = now_ns(CLOCK_MONOTONIC);
		long i;

		for (i = 0; i < o->count; i++) {
			payload[30] = (uint8_t)((o->seq + (unsigned)i) >> 8);
			payload[31] = (uint8_t)(o->seq + (unsigned)i);
			if ((rc = ipc_send_netd(fd, &m)) != IPC_OK)
				die("send TxFrame %ld: %s (%s)", i,
				    ipc_strerror(rc), ipc_detail());
		}
		printf("BURST n=%ld elapsed_us=%lld\n", o->count,
		    (long long)((now_ns(CLOCK_MONOTONIC) - t0) / 1000));
	} else if (o->batch_freq) {
		if (send_batch_freq(fd, &m, o->freq_ppb) != 0)
			die("send the batch: %s", ipc_detail());
	} else if ((rc = ipc_send_netd(fd, &m)) != IPC_OK)
		die("send TxFrame: %s (%s)", ipc_strerror(rc), ipc_detail());
	printf("SENT len=%zu cookie=0x%llx want_ts=%d realtime_ns=%lld\n", len,
	    (unsigned long long)o->cookie, o->want_ts, (long long)sent_rt);
	/* Without a timestamp to wait for: anything netd says (an Error). */
	for (;;) {
		rc = recv_netd(fd, o->want_ts ? 2000 : 300, &r);
		if (rc == IPC_E_AGAIN) {
			if (o->want_ts) {
				/* with a follow_up, netd owes none */
				printf("TXTS none\n");
				ok = o->follow_up;
				break;
			}
			ok = 1;
			break;
		}
		if (rc == IPC_E_EOF) {
			printf("ANSWER closed\n");
			break;
		}
		if (rc != IPC_OK)
			die("recv: %s (%s)", ipc_strerror(rc), ipc_detail());
		if (r->body_case == PTPSEP__NETD__NETD_MSG__BODY_TX_TIMESTAMP) {
			Ptpsep__Netd__TxTimestamp *t = r->tx_timestamp;
			const char *st = enum_name(
			    &ptpsep__netd__tx_ts_status__descriptor, t->status);

			printf("TXTS cookie=0x%llx match=%d port=%u status=%s "
			    "ts_ns=%lld ts_source=%s wait_ms=%lld\n",
			    (unsigned long long)t->cookie, t->cookie == o->cookie,
			    t->port_index, st, t->ts ? (long long)ts_ns(t->ts) :
			    0LL, t->ts_source ==
			    PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE ? "sw" :
			    t->ts_source == PTPSEP__TIMESTAMP_MODE__TS_MODE_HARDWARE ?
			    "hw" : "none",
			    (long long)((now_ns(CLOCK_REALTIME) - sent_rt) /
			    1000000));
			ok = t->cookie == o->cookie &&
			    t->status == PTPSEP__NETD__TX_TS_STATUS__TXTS_OK &&
			    t->ts != NULL;
			ipc_free(&r->base);
			if (o->batch_freq && ok)
				ok = wait_batch_freq(fd);
			break;
		}
		rc = print_other(r);
		ipc_free(&r->base);
		if (rc)
			break;
	}
	close(fd);
	return ok ? 0 : 1;
}

/* The id of the read that answers for an accepted frequency change. */
#define CLOCK_BARRIER(id)	((id) | (UINT64_C(1) << 62))

/* The barrier read on the clock the frequency change was for. */
static int barrier_system_clock;

int
clock_send_barrier(int fd, uint64_t id)
{
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__ClockRequest req = PTPSEP__NETD__CLOCK_REQUEST__INIT;
	Ptpsep__Netd__ClockRead rd = PTPSEP__NETD__CLOCK_READ__INIT;

	req.system_clock = barrier_system_clock;
	req.id = CLOCK_BARRIER(id);
	req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_READ;
	req.read = &rd;
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST;
	m.clock_request = &req;
	return ipc_send_netd(fd, &m) == IPC_OK ? 0 : -1;
}

int
clock_wait_reply(int fd, uint64_t id, int barrier, int timeout_ms,
    int (*other)(const NetdMsg *), NetdMsg **out)
{
	NetdMsg *r, *refusal = NULL;
	Ptpsep__Netd__ClockReply *c;
	int rc;

	*out = NULL;
	for (;;) {
		if ((rc = recv_netd(fd, timeout_ms, &r)) != IPC_OK) {
			if (refusal != NULL)
				ipc_free(&refusal->base);
			return rc;
		}
		if (r->body_case != PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY) {
			rc = other != NULL ? other(r) : 0;
			ipc_free(&r->base);
			if (rc) {
				if (refusal != NULL)
					ipc_free(&refusal->base);
				return 1;
			}
			continue;
		}
		c = r->clock_reply;
		if (c->id == id && !barrier) {
			*out = r;
			return IPC_OK;
		}
		if (c->id == id && refusal == NULL) {
			/* netd.proto: an accepted change is not answered */
			if (c->status ==
			    PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK)
				die("netd answered the accepted frequency "
				    "change id=%llu", (unsigned long long)id);
			/* refused; its barrier's reply is still to come */
			refusal = r;
			continue;
		}
		if (barrier && c->id == CLOCK_BARRIER(id)) {
			if (refusal != NULL) {
				ipc_free(&r->base);
				*out = refusal;
				return IPC_OK;
			}
			/* nothing came before it: the change was made */
			c->id = id;
			c->status = PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK;
			*out = r;
			return IPC_OK;
		}
		ipc_free(&r->base);	/* an earlier request's */
	}
}

int
cmd_clock(const char *path, int argc, char **argv)
{
	NetdMsg m, *r;
	Ptpsep__Netd__ClockRequest req;
	Ptpsep__Netd__ClockRead rd = PTPSEP__NETD__CLOCK_READ__INIT;
	Ptpsep__Netd__ClockGetStatus gs = PTPSEP__NETD__CLOCK_GET_STATUS__INIT;
	Ptpsep__Netd__ClockAdjFreq af = PTPSEP__NETD__CLOCK_ADJ_FREQ__INIT;
	Ptpsep__Netd__ClockStep stp = PTPSEP__NETD__CLOCK_STEP__INIT;
	Ptpsep__Netd__ClockCompare cmp = PTPSEP__NETD__CLOCK_COMPARE__INIT;
	Ptpsep__Netd__ClockSetLeap sl = PTPSEP__NETD__CLOCK_SET_LEAP__INIT;
	static const NetdMsg minit = PTPSEP__NETD__NETD_MSG__INIT;
	static const Ptpsep__Netd__ClockRequest rinit =
	    PTPSEP__NETD__CLOCK_REQUEST__INIT;
	uint64_t id = 0;
	int fd, i, rc, barrier, sys = 0, sys_flag;

	fd = netd_open(path);
	for (i = 0; i < argc; i++) {
		const char *op = argv[i];
		int64_t t0, t1;

		m = minit;
		req = rinit;
		sys_flag = sys;
		/* --system: the following ops act on the system clock;
		 * --ptp: on the PTP clock again; --raw-system: the next op
		 * carries system_clock whatever it is (a malformed compare). */
		if (strcmp(op, "--system") == 0 || strcmp(op, "--ptp") == 0) {
			sys = op[2] == 's';
			continue;
		}
		if (strcmp(op, "--raw-system") == 0 && i + 1 < argc) {
			sys_flag = 1;
			op = argv[++i];
		}
		if (strcmp(op, "compare") == 0) {
			req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_COMPARE;
			req.compare = &cmp;
		} else if (strcmp(op, "read") == 0) {
			req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_READ;
			req.read = &rd;
		} else if (strcmp(op, "status") == 0) {
			req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_GET_STATUS;
			req.get_status = &gs;
		} else if (strcmp(op, "freq") == 0 && i + 1 < argc) {
			req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ;
			af.freq_ppb = strtod(argv[++i], NULL);
			req.adj_freq = &af;
		} else if (strcmp(op, "step") == 0 && i + 1 < argc) {
			req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_STEP;
			stp.offset_ns = strtoll(argv[++i], NULL, 0);
			req.step = &stp;
		} else if (strcmp(op, "leap") == 0 && i + 1 < argc) {
			/* leap +1|-1|0 [tai N] */
			req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_SET_LEAP;
			sl.leap = (int32_t)strtol(argv[++i], NULL, 10);
			sl.set_tai = 0;
			sl.tai_offset = 0;
			if (i + 2 < argc && strcmp(argv[i + 1], "tai") == 0) {
				sl.set_tai = 1;
				sl.tai_offset = (int32_t)strtol(argv[i + 2],
				    NULL, 10);
				i += 2;
			}
			req.set_leap = &sl;
		} else if (strcmp(op, "sleep") == 0 && i + 1 < argc) {
			usleep((useconds_t)(strtod(argv[++i], NULL) * 1e6));
			continue;
		} else {
			usage();
		}
		req.id = ++id;
		req.system_clock = sys_flag;
		barrier_system_clock = sys_flag;
		m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST;
		m.clock_request = &req;
		t0 = now_ns(CLOCK_REALTIME);
		if ((rc = ipc_send_netd(fd, &m)) != IPC_OK)
			die("send ClockRequest: %s (%s)", ipc_strerror(rc),
			    ipc_detail());
		barrier = req.op_case ==
		    PTPSEP__NETD__CLOCK_REQUEST__OP_ADJ_FREQ;
		if (barrier && clock_send_barrier(fd, id) != 0)
			die("send the read behind a frequency change");
		rc = clock_wait_reply(fd, id, barrier, 2000, print_other, &r);
		t1 = now_ns(CLOCK_REALTIME);
		if (rc == IPC_E_EOF) {
			printf("ANSWER closed\n");
			return 1;
		}
		if (rc == 1)
			return 1;
		if (rc != IPC_OK)
			die("recv: %s", ipc_strerror(rc));
		{
			Ptpsep__Netd__ClockReply *c = r->clock_reply;
			int64_t now = c->now ? ts_ns(c->now) : 0;

			printf("CLOCK id=%llu op=%s status=%s reason=%s "
			    "now_ns=%lld freq_ppb=%.3f offset_ns=%lld "
			    "rtt_ns=%lld\n", (unsigned long long)c->id, op,
			    c->status == PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_OK ?
			    "OK" : c->status ==
			    PTPSEP__NETD__CLOCK_STATUS__CLOCK_STATUS_REFUSED ?
			    "REFUSED" : "?", c->reason ? refuse_name(c->reason) :
			    "-", (long long)now, c->freq_ppb,
			    c->now ? (long long)(now - (t0 + (t1 - t0) / 2)) :
			    0LL, (long long)(t1 - t0));
			if (c->offset != NULL)
				printf("COMPARE id=%llu sys_minus_ptp_ns=%lld "
				    "ptp_time_ns=%lld delay_ns=%u method=%s\n",
				    (unsigned long long)c->id,
				    (long long)c->offset->sys_minus_ptp_ns,
				    c->offset->ptp_time ?
				    (long long)ts_ns(c->offset->ptp_time) : 0LL,
				    c->offset->delay_ns, enum_name(
				    &ptpsep__netd__sysoff_method__descriptor,
				    c->offset->method));
		}
		ipc_free(&r->base);
		fflush(stdout);
	}
	close(fd);
	return 0;
}

/* ---- the control socket ------------------------------------------------------ */

static int
recv_ctl(int fd, Ptpsep__Ctl__CtlResponse **r)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (poll(&pfd, 1, 3000) != 1)
		die("no answer on the control socket");
	return ipc_recv_ctl_response(fd, r);
}

static void
print_counts(const char *prefix, size_t n, Ptpsep__Ctl__RefusedCount **rc)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("%srefused.%s=%llu\n", prefix, refuse_name(rc[i]->reason),
		    (unsigned long long)rc[i]->count);
}

int
cmd_info(const char *path)
{
	Ptpsep__Ctl__CtlRequest q = PTPSEP__CTL__CTL_REQUEST__INIT;
	Ptpsep__Ctl__NetdInfoRequest ni = PTPSEP__CTL__NETD_INFO_REQUEST__INIT;
	Ptpsep__Ctl__CtlResponse *r;
	Ptpsep__Ctl__NetdInfo *info;
	Ptpsep__Hello h;
	size_t i, j;
	int fd, rc;

	if ((fd = unix_connect(path)) < 0)
		die("connect %s: %s", path, strerror(errno));
	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CTL);
	q.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_HELLO;
	q.hello = &h;
	if (ipc_send_ctl_request(fd, &q) != IPC_OK)
		die("send Hello");
	if ((rc = recv_ctl(fd, &r)) != IPC_OK ||
	    r->body_case != PTPSEP__CTL__CTL_RESPONSE__BODY_HELLO)
		die("no Hello on the control socket (%s)", ipc_strerror(rc));
	ipc_free(&r->base);
	q.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_NETD_INFO;
	q.netd_info = &ni;
	if (ipc_send_ctl_request(fd, &q) != IPC_OK)
		die("send NetdInfoRequest");
	if ((rc = recv_ctl(fd, &r)) != IPC_OK)
		die("recv NetdInfo: %s (%s)", ipc_strerror(rc), ipc_detail());
	if (r->body_case != PTPSEP__CTL__CTL_RESPONSE__BODY_NETD_INFO)
		die("expected NetdInfo, got case %u", (unsigned)r->body_case);
	info = r->netd_info;
	printf("software_version=%s\n", info->software_version);
	printf("client_connected=%d\n", info->client_connected);
	printf("client_connections=%llu\n",
	    (unsigned long long)info->client_connections);
	printf("client_backlog_closes=%llu\n",
	    (unsigned long long)info->client_backlog_closes);
	if (info->clock)
		printf("clock.device=%s\nclock.max_freq_ppb=%g\n"
		    "clock.step_allowed=%d\nclock.max_step_ns=%lld\n"
		    "clock.min_adj_interval_ms=%u\n", info->clock->device,
		    info->clock->max_freq_ppb, info->clock->step_allowed,
		    (long long)info->clock->max_step_ns,
		    info->clock->min_adj_interval_ms);
	print_counts("", info->n_refused, info->refused);
	if (info->clock_state)
		printf("clock_state.offset_from_realtime_ns=%lld\n"
		    "clock_state.freq_ppb=%.3f\nclock_state.steps=%llu\n",
		    (long long)info->clock_state->offset_from_realtime_ns,
		    info->clock_state->freq_ppb,
		    (unsigned long long)info->clock_state->steps);
	if (info->clock_state)
		printf("clock_state.leap=%d\nclock_state.tai_offset=%d\n"
		    "clock_state.leaps=%llu\n", info->clock_state->leap,
		    info->clock_state->tai_offset,
		    (unsigned long long)info->clock_state->leaps);
	if (info->system_clock)
		printf("system_clock.device=%s\nsystem_clock.sysoff=%s\n",
		    info->system_clock->device,
		    enum_name(&ptpsep__netd__sysoff_method__descriptor,
		    info->system_clock->sysoff));
	if (info->system_clock_state)
		printf("system_clock_state.offset_from_realtime_ns=%lld\n"
		    "system_clock_state.freq_ppb=%.3f\n"
		    "system_clock_state.steps=%llu\n",
		    (long long)info->system_clock_state->offset_from_realtime_ns,
		    info->system_clock_state->freq_ppb,
		    (unsigned long long)info->system_clock_state->steps);
	if (info->system_clock_state)
		printf("system_clock_state.leap=%d\n"
		    "system_clock_state.tai_offset=%d\n"
		    "system_clock_state.leaps=%llu\n",
		    info->system_clock_state->leap,
		    info->system_clock_state->tai_offset,
		    (unsigned long long)info->system_clock_state->leaps);
	print_counts("system_clock.", info->n_system_clock_refused,
	    info->system_clock_refused);
	for (i = 0; i < info->n_ports; i++) {
		Ptpsep__Ctl__NetdPortInfo *p = info->ports[i];
		char pre[32];

		snprintf(pre, sizeof(pre), "port%zu.", i);
		if (p->port)
			printf("%siface=%s\n%slink_up=%d\n", pre, p->port->iface,
			    pre, p->port->link_up);
		printf("%ssockets=%zu\n", pre, p->n_sockets);
		for (j = 0; j < p->n_sockets; j++)
			printf("%ssocket%zu=class:%s,protocol:0x%x,filter:%d,"
			    "locked:%d\n", pre, j,
			    p->sockets[j]->msg_class ==
			    PTPSEP__MSG_CLASS__MSG_CLASS_EVENT ? "event" :
			    "general", p->sockets[j]->protocol,
			    p->sockets[j]->filter_attached,
			    p->sockets[j]->filter_locked);
		printf("%srx_event=%llu\n%srx_general=%llu\n%stx_event=%llu\n"
		    "%stx_general=%llu\n%stx_ts_missing=%llu\n", pre,
		    (unsigned long long)p->rx_event, pre,
		    (unsigned long long)p->rx_general, pre,
		    (unsigned long long)p->tx_event, pre,
		    (unsigned long long)p->tx_general, pre,
		    (unsigned long long)p->tx_ts_missing);
		for (j = 0; j < p->n_rx_dropped; j++)
			printf("%srx_dropped.%s=%llu\n", pre,
			    enum_name(&ptpsep__ctl__rx_drop_reason__descriptor,
			    p->rx_dropped[j]->reason),
			    (unsigned long long)p->rx_dropped[j]->count);
		print_counts(pre, p->n_refused, p->refused);
	}
	ipc_free(&r->base);
	close(fd);
	return 0;
}
