/*
 * netd_client.c - the test client of ptp-netd's end-to-end tests (netd.sh).
 *
 * It speaks netd.proto over netd_socket as clockd would (or as a hostile
 * clockd would), ctl.proto over netd_ctl_socket, and plays the far end of
 * the veth pair with raw sockets:
 *
 *   netd_client recv SOCK [--count N] [--timeout S]
 *   netd_client send SOCK [--port I] [--class event|general]
 *       [--dest primary|pdelay|unicast:ADDR] (--msg TYPE|--hex HEX)
 *       [--seq N] [--cookie C] [--want-ts]
 *   netd_client clock SOCK OP [ARG] ...    OP: read, status, freq PPB, step NS
 *   netd_client hostile SOCK CASE          (netd_client help lists them)
 *   netd_client info CTLSOCK
 *   netd_client inject IFACE (--msg TYPE|--hex HEX) [--seq N] [--vlan VID]
 *       [--dst MAC] [--ethertype T] [--count N]
 *   netd_client flood IFACE --count N [--dst MAC]
 *   netd_client udpsend --dst ADDR --ifname IF [--port P] (--msg|--hex)
 *       [--seq N] [--count N]
 *   netd_client udpflood --dst ADDR --count N
 *   netd_client sniff IFACE --proto l2|ip4|ip6 [--count N] [--timeout S]
 *
 * Output is one line per event, "KEY k=v k=v ...", for the script to grep.
 * Exit status: 0 when what was asked for happened, 1 on failure, 2 on bad
 * usage, 3 on a timeout.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ipc.h"

typedef Ptpsep__Netd__NetdMsg NetdMsg;

#define EXIT_TIMEOUT	3
/* hostile noread: how long the client stops reading (the test floods). */
#define NOREAD_SECONDS	5
#define MAX_PAYLOAD	1500
#ifndef ETH_P_1588
#define ETH_P_1588	0x88F7
#endif

static void
usage(void)
{
	fprintf(stderr,
	    "usage: netd_client recv|send|clock|hostile SOCK ...\n"
	    "       netd_client info CTLSOCK\n"
	    "       netd_client inject|flood|sniff IFACE ...\n"
	    "       netd_client udpsend|udpflood --dst ADDR ...\n"
	    "hostile cases: nonptp wrongclass badport oversize garbage "
	    "nohello version\n"
	    "       unicast nan gents empty busy perm\n");
	exit(2);
}

static void __attribute__((format(printf, 1, 2), noreturn))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stdout, "ERROR ");
	vfprintf(stdout, fmt, ap);
	fprintf(stdout, "\n");
	va_end(ap);
	fflush(stdout);
	exit(1);
}

static int64_t
now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int64_t
ts_ns(const Ptpsep__Timestamp *t)
{
	return (int64_t)t->seconds * 1000000000LL + t->nanoseconds;
}

/* ---- PTP payloads -------------------------------------------------------- */

struct msgtype {
	const char *name;
	uint8_t type;
	size_t len;
};

static const struct msgtype msgtypes[] = {
	{ "sync",		0x0, 44 },
	{ "delay_req",		0x1, 44 },
	{ "pdelay_req",		0x2, 54 },
	{ "pdelay_resp",	0x3, 54 },
	{ "follow_up",		0x8, 44 },
	{ "delay_resp",		0x9, 54 },
	{ "pdelay_resp_fup",	0xA, 54 },
	{ "announce",		0xB, 64 },
	{ "signaling",		0xC, 44 },
	{ "management",		0xD, 48 },
};

/* Builds a minimal PTPv2 message; returns its length. */
static size_t
build_msg(const char *name, unsigned seq, uint8_t *buf, size_t cap)
{
	size_t i;

	for (i = 0; i < sizeof(msgtypes) / sizeof(msgtypes[0]); i++) {
		const struct msgtype *m = &msgtypes[i];

		if (strcmp(name, m->name) != 0)
			continue;
		if (cap < m->len)
			die("buffer too small");
		memset(buf, 0, m->len);
		buf[0] = m->type;
		buf[1] = 0x02;			/* versionPTP 2 */
		buf[2] = (uint8_t)(m->len >> 8);
		buf[3] = (uint8_t)m->len;
		buf[6] = 0x02;			/* flagField: twoStepFlag */
		memcpy(buf + 20, "\x02\x00\x5e\xff\xfe\x00\x00\x01", 8);
		buf[29] = 1;			/* sourcePortIdentity.portNumber */
		buf[30] = (uint8_t)(seq >> 8);
		buf[31] = (uint8_t)seq;
		buf[32] = m->type <= 0x3 ? m->type : 0x5;
		buf[33] = 0x7f;
		return m->len;
	}
	die("unknown message type %s", name);
}

static size_t
parse_hex(const char *hex, uint8_t *buf, size_t cap)
{
	size_t n = 0;
	unsigned v;

	while (*hex != '\0') {
		if (*hex == ':' || *hex == ' ' || *hex == '-') {
			hex++;
			continue;
		}
		if (n == cap || sscanf(hex, "%2x", &v) != 1 || hex[1] == '\0')
			die("bad hex payload");
		buf[n++] = (uint8_t)v;
		hex += 2;
	}
	return n;
}

static int
parse_mac(const char *s, uint8_t mac[6])
{
	unsigned v[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4],
	    &v[5]) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)v[i];
	return 0;
}

static const char *
fmt_mac(const uint8_t *m)
{
	static char s[4][18];
	static int k;

	k = (k + 1) % 4;
	snprintf(s[k], sizeof(s[k]), "%02x:%02x:%02x:%02x:%02x:%02x", m[0],
	    m[1], m[2], m[3], m[4], m[5]);
	return s[k];
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

static const char *
ptp_type_name(uint8_t t)
{
	size_t i;

	for (i = 0; i < sizeof(msgtypes) / sizeof(msgtypes[0]); i++)
		if (msgtypes[i].type == (t & 0x0f))
			return msgtypes[i].name;
	return "?";
}

/* ---- options -------------------------------------------------------------- */

struct opts {
	long count;
	double timeout;
	unsigned port;
	const char *cls;
	const char *dest;
	const char *msg;
	const char *hex;
	unsigned seq;
	uint64_t cookie;
	int want_ts;
	int vlan;		/* -1: untagged */
	int pcp;		/* 802.1p priority of the tag */
	const char *dst;
	unsigned ethertype;
	const char *ifname;
	unsigned udp_port;
	const char *proto;
};

static void
opts_parse(struct opts *o, int argc, char **argv, int first)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->count = 1;
	o->timeout = 5;
	o->cls = "event";
	o->dest = "primary";
	o->cookie = 0x1234abcd5678ULL;
	o->vlan = -1;
	o->ethertype = ETH_P_1588;
	o->udp_port = 0;
	o->proto = "l2";
	for (i = first; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--want-ts") == 0) {
			o->want_ts = 1;
			continue;
		}
		if (v == NULL)
			usage();
		i++;
		if (strcmp(a, "--count") == 0)
			o->count = strtol(v, NULL, 0);
		else if (strcmp(a, "--timeout") == 0)
			o->timeout = strtod(v, NULL);
		else if (strcmp(a, "--port") == 0)
			o->port = (unsigned)strtoul(v, NULL, 0);
		else if (strcmp(a, "--class") == 0)
			o->cls = v;
		else if (strcmp(a, "--dest") == 0)
			o->dest = v;
		else if (strcmp(a, "--msg") == 0)
			o->msg = v;
		else if (strcmp(a, "--hex") == 0)
			o->hex = v;
		else if (strcmp(a, "--seq") == 0)
			o->seq = (unsigned)strtoul(v, NULL, 0);
		else if (strcmp(a, "--cookie") == 0)
			o->cookie = strtoull(v, NULL, 0);
		else if (strcmp(a, "--vlan") == 0)
			o->vlan = (int)strtol(v, NULL, 0);
		else if (strcmp(a, "--pcp") == 0)
			o->pcp = (int)strtol(v, NULL, 0) & 7;
		else if (strcmp(a, "--dst") == 0)
			o->dst = v;
		else if (strcmp(a, "--ethertype") == 0)
			o->ethertype = (unsigned)strtoul(v, NULL, 0);
		else if (strcmp(a, "--ifname") == 0)
			o->ifname = v;
		else if (strcmp(a, "--udp-port") == 0 ||
		    strcmp(a, "--dport") == 0)
			o->udp_port = (unsigned)strtoul(v, NULL, 0);
		else if (strcmp(a, "--proto") == 0)
			o->proto = v;
		else
			usage();
	}
}

static size_t
opts_payload(const struct opts *o, uint8_t *buf, size_t cap)
{
	if (o->hex != NULL)
		return parse_hex(o->hex, buf, cap);
	if (o->msg != NULL)
		return build_msg(o->msg, o->seq, buf, cap);
	die("--msg or --hex needed");
}

/* ---- the netd channel ----------------------------------------------------- */

static int
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
 * One message within timeout_ms.  Returns IPC_OK, IPC_E_EOF (closed),
 * IPC_E_AGAIN (timeout) or another ipc error.  A ECONNRESET (netd closed
 * with our last datagram unread) is read past: the Error netd queued before
 * closing is still behind it.
 */
static int
recv_netd(int fd, int timeout_ms, NetdMsg **m)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int64_t end = now_ns(CLOCK_MONOTONIC) + (int64_t)timeout_ms * 1000000;
	int rc, resets = 0;

	*m = NULL;
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
		return rc;
	}
}

static const char *
enum_name(const ProtobufCEnumDescriptor *d, int v)
{
	const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(d, v);

	return ev != NULL ? ev->name : "?";
}

static const char *
error_code_name(int code)
{
	const char *n = enum_name(&ptpsep__error_code__descriptor, code);

	return strncmp(n, "ERROR_", 6) == 0 ? n + 6 : n;
}

static const char *
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
static int
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

static void
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
static int
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
static int
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
	if (m->port_list->clock != NULL)
		printf("CLOCKINFO device=%s max_freq_ppb=%g step_allowed=%d\n",
		    m->port_list->clock->device,
		    m->port_list->clock->max_freq_ppb,
		    m->port_list->clock->step_allowed);
	ipc_free(&m->base);
	return fd;
}

static int
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
static void
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

static int
cmd_send(const char *path, const struct opts *o)
{
	NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT, *r;
	Ptpsep__Netd__TxFrame f = PTPSEP__NETD__TX_FRAME__INIT;
	Ptpsep__Netd__Address uni = PTPSEP__NETD__ADDRESS__INIT;
	uint8_t payload[MAX_PAYLOAD], ub[16];
	int64_t sent_rt;
	size_t len;
	int fd, rc, ok = 0;

	len = opts_payload(o, payload, sizeof(payload));
	fd = netd_open(path);
	fill_tx(o, &f, &uni, ub, payload, len);
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME;
	m.tx_frame = &f;
	sent_rt = now_ns(CLOCK_REALTIME);
	if ((rc = ipc_send_netd(fd, &m)) != IPC_OK)
		die("send TxFrame: %s (%s)", ipc_strerror(rc), ipc_detail());
	printf("SENT len=%zu cookie=0x%llx want_ts=%d realtime_ns=%lld\n", len,
	    (unsigned long long)o->cookie, o->want_ts, (long long)sent_rt);
	/* Without a timestamp to wait for: anything netd says (an Error). */
	for (;;) {
		rc = recv_netd(fd, o->want_ts ? 2000 : 300, &r);
		if (rc == IPC_E_AGAIN) {
			if (o->want_ts) {
				printf("TXTS none\n");
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
			    "ts_ns=%lld ts_source=%s\n",
			    (unsigned long long)t->cookie, t->cookie == o->cookie,
			    t->port_index, st, t->ts ? (long long)ts_ns(t->ts) :
			    0LL, t->ts_source ==
			    PTPSEP__TIMESTAMP_MODE__TS_MODE_SOFTWARE ? "sw" :
			    t->ts_source == PTPSEP__TIMESTAMP_MODE__TS_MODE_HARDWARE ?
			    "hw" : "none");
			ok = t->cookie == o->cookie &&
			    t->status == PTPSEP__NETD__TX_TS_STATUS__TXTS_OK &&
			    t->ts != NULL;
			ipc_free(&r->base);
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

static int
cmd_clock(const char *path, int argc, char **argv)
{
	NetdMsg m, *r;
	Ptpsep__Netd__ClockRequest req;
	Ptpsep__Netd__ClockRead rd = PTPSEP__NETD__CLOCK_READ__INIT;
	Ptpsep__Netd__ClockGetStatus gs = PTPSEP__NETD__CLOCK_GET_STATUS__INIT;
	Ptpsep__Netd__ClockAdjFreq af = PTPSEP__NETD__CLOCK_ADJ_FREQ__INIT;
	Ptpsep__Netd__ClockStep stp = PTPSEP__NETD__CLOCK_STEP__INIT;
	static const NetdMsg minit = PTPSEP__NETD__NETD_MSG__INIT;
	static const Ptpsep__Netd__ClockRequest rinit =
	    PTPSEP__NETD__CLOCK_REQUEST__INIT;
	uint64_t id = 0;
	int fd, i, rc;

	fd = netd_open(path);
	for (i = 0; i < argc; i++) {
		const char *op = argv[i];
		int64_t t0, t1;

		m = minit;
		req = rinit;
		if (strcmp(op, "read") == 0) {
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
		} else if (strcmp(op, "sleep") == 0 && i + 1 < argc) {
			usleep((useconds_t)(strtod(argv[++i], NULL) * 1e6));
			continue;
		} else {
			usage();
		}
		req.id = ++id;
		m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST;
		m.clock_request = &req;
		t0 = now_ns(CLOCK_REALTIME);
		if ((rc = ipc_send_netd(fd, &m)) != IPC_OK)
			die("send ClockRequest: %s (%s)", ipc_strerror(rc),
			    ipc_detail());
		for (;;) {
			rc = recv_netd(fd, 2000, &r);
			t1 = now_ns(CLOCK_REALTIME);
			if (rc == IPC_E_EOF) {
				printf("ANSWER closed\n");
				return 1;
			}
			if (rc != IPC_OK)
				die("recv: %s", ipc_strerror(rc));
			if (r->body_case ==
			    PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REPLY)
				break;
			rc = print_other(r);
			ipc_free(&r->base);
			if (rc)
				return 1;
		}
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
		}
		ipc_free(&r->base);
		fflush(stdout);
	}
	close(fd);
	return 0;
}

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

static int
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
		 * for a clock read: netd may drop RxFrames, not the reply, so
		 * it must close the connection. */
		Ptpsep__Netd__ClockRead rd = PTPSEP__NETD__CLOCK_READ__INIT;
		NetdMsg *r;
		long nrx = 0, nreply = 0;
		int rc;

		code = 0;
		fd = netd_open(path);
		printf("READY\n");
		fflush(stdout);
		sleep(NOREAD_SECONDS);
		req.id = 9;
		req.op_case = PTPSEP__NETD__CLOCK_REQUEST__OP_READ;
		req.read = &rd;
		m.body_case = PTPSEP__NETD__NETD_MSG__BODY_CLOCK_REQUEST;
		m.clock_request = &req;
		if (ipc_send_netd(fd, &m) != IPC_OK)
			die("send the clock read");
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
		printf("RESULT case=noread rx_frames=%ld clock_replies=%ld "
		    "code=%s closed=%d\n", nrx, nreply, error_code_name(code),
		    closed);
		return closed && nreply == 0 && nrx > 0 ? 0 : 1;
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

static int
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
		    "clock.step_allowed=%d\n", info->clock->device,
		    info->clock->max_freq_ppb, info->clock->step_allowed);
	print_counts("", info->n_refused, info->refused);
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

/* ---- the far end: raw frames, UDP, capture ------------------------------------ */

static int
if_index_mac(int fd, const char *ifname, uint8_t mac[6])
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) != 0)
		die("SIOCGIFHWADDR %s: %s", ifname, strerror(errno));
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	if (ioctl(fd, SIOCGIFINDEX, &ifr) != 0)
		die("SIOCGIFINDEX %s: %s", ifname, strerror(errno));
	return ifr.ifr_ifindex;
}

struct rawtx {
	int fd;
	int ifindex;
	uint8_t mac[6];
};

static void
rawtx_open(struct rawtx *t, const char *ifname)
{
	int sndbuf = 4 << 20;

	t->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (t->fd < 0)
		die("socket(AF_PACKET): %s", strerror(errno));
	t->ifindex = if_index_mac(t->fd, ifname, t->mac);
	(void)setsockopt(t->fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
}

/* Sends dst|src|[8100 tci]|type|payload; 0 or -1. */
static int rawtx_pcp;

static int
rawtx_send(struct rawtx *t, const uint8_t dst[6], int vlan, unsigned type,
    const uint8_t *payload, size_t len)
{
	uint8_t frame[ETH_FRAME_LEN + 4];
	struct sockaddr_ll sll;
	size_t off = 12;

	if (len + 18 > sizeof(frame))
		die("frame too long");
	memcpy(frame, dst, 6);
	memcpy(frame + 6, t->mac, 6);
	if (vlan >= 0) {
		frame[off++] = 0x81;
		frame[off++] = 0x00;
		frame[off++] = (uint8_t)(rawtx_pcp << 5 | ((vlan >> 8) & 0x0f));
		frame[off++] = (uint8_t)vlan;
	}
	frame[off++] = (uint8_t)(type >> 8);
	frame[off++] = (uint8_t)type;
	memcpy(frame + off, payload, len);
	off += len;
	while (off < 60)
		frame[off++] = 0;		/* Ethernet minimum */
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = t->ifindex;
	sll.sll_halen = 6;
	memcpy(sll.sll_addr, dst, 6);
	for (;;) {
		if (sendto(t->fd, frame, off, 0, (struct sockaddr *)&sll,
		    sizeof(sll)) == (ssize_t)off)
			return 0;
		if (errno != ENOBUFS && errno != EAGAIN)
			return -1;
		usleep(100);
	}
}

static const uint8_t mac_primary[6] = { 0x01, 0x1b, 0x19, 0, 0, 0 };
static const uint8_t mac_pdelay[6] = { 0x01, 0x80, 0xc2, 0, 0, 0x0e };
static const uint8_t mac_bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static void
opts_dst_mac(const struct opts *o, uint8_t dst[6])
{
	if (o->dst == NULL || strcmp(o->dst, "primary") == 0)
		memcpy(dst, mac_primary, 6);
	else if (strcmp(o->dst, "pdelay") == 0)
		memcpy(dst, mac_pdelay, 6);
	else if (parse_mac(o->dst, dst) != 0)
		die("bad --dst %s", o->dst);
}

static int
cmd_inject(const char *ifname, const struct opts *o)
{
	struct rawtx t;
	uint8_t payload[MAX_PAYLOAD], dst[6];
	size_t len;
	long i;

	rawtx_open(&t, ifname);
	opts_dst_mac(o, dst);
	rawtx_pcp = o->pcp;
	for (i = 0; i < o->count; i++) {
		struct opts oi = *o;

		oi.seq = o->seq + (unsigned)i;
		len = opts_payload(&oi, payload, sizeof(payload));
		if (rawtx_send(&t, dst, o->vlan, o->ethertype, payload, len) != 0)
			die("sendto: %s", strerror(errno));
	}
	printf("INJECTED %ld frames type=0x%04x vlan=%d pcp=%d dst=%s src=%s\n",
	    o->count, o->ethertype, o->vlan, o->pcp, fmt_mac(dst),
	    fmt_mac(t.mac));
	close(t.fd);
	return 0;
}

/*
 * Frames netd must never see: other ethertypes (a Sync under 0x88F8
 * among them), and 0x88F7 frames its filters must drop in the kernel (bad
 * version, reserved messageType, VLAN 100, another host's unicast MAC).
 * No "too short" kind: Ethernet pads every frame to 60 octets, so a
 * truncated PTP header arrives as a 46-octet payload the filter accepts.
 */
static int
cmd_flood(const char *ifname, const struct opts *o)
{
	enum { K_IP, K_IP6, K_ARP, K_LLDP, K_LOOP, K_V1, K_RESV, K_ETYPE,
	    K_VLAN, K_OTHERHOST, K_NUM };
	static const uint8_t other_host[6] = { 0x02, 0, 0, 0, 0x42, 0x42 };
	long counts[K_NUM] = { 0 };
	uint8_t sync[64], junk[100], dst[6];
	struct rawtx t;
	size_t slen;
	long i;
	int k, rc = 0;

	rawtx_open(&t, ifname);
	if (o->dst != NULL)
		opts_dst_mac(o, dst);
	else
		memcpy(dst, mac_bcast, 6);
	slen = build_msg("sync", 0xfff0, sync, sizeof(sync));
	for (i = 0; i < (long)sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 7);
	for (i = 0; i < o->count && rc == 0; i++) {
		k = (int)(i % K_NUM);
		counts[k]++;
		switch (k) {
		case K_IP:
			/* Not a valid IPv4 header: dropped by IP input. */
			rc = rawtx_send(&t, dst, -1, 0x0800, junk, sizeof(junk));
			break;
		case K_IP6:
			rc = rawtx_send(&t, dst, -1, 0x86dd, junk, sizeof(junk));
			break;
		case K_ARP:
			rc = rawtx_send(&t, dst, -1, 0x0806, junk, 28);
			break;
		case K_LLDP:
			rc = rawtx_send(&t, (const uint8_t *)"\x01\x80\xc2\0\0\x0e",
			    -1, 0x88cc, junk, 60);
			break;
		case K_LOOP:
			rc = rawtx_send(&t, dst, -1, 0x9000, junk, 46);
			break;
		case K_V1:
			sync[1] = 0x01;
			rc = rawtx_send(&t, mac_primary, -1, ETH_P_1588, sync,
			    slen);
			sync[1] = 0x02;
			break;
		case K_RESV:
			sync[0] = 0x5;		/* reserved messageType */
			rc = rawtx_send(&t, mac_primary, -1, ETH_P_1588, sync,
			    slen);
			sync[0] = 0x0;
			break;
		case K_ETYPE:
			/* A good Sync, but under the neighbouring ethertype. */
			rc = rawtx_send(&t, mac_primary, -1, ETH_P_1588 + 1, sync,
			    slen);
			break;
		case K_VLAN:
			rc = rawtx_send(&t, mac_primary, 100, ETH_P_1588, sync,
			    slen);
			break;
		case K_OTHERHOST:
			rc = rawtx_send(&t, other_host, -1, ETH_P_1588, sync,
			    slen);
			break;
		}
	}
	if (rc != 0)
		die("sendto: %s", strerror(errno));
	printf("FLOOD frames=%ld ip=%ld ip6=%ld arp=%ld lldp=%ld loop=%ld "
	    "ptp_v1=%ld ptp_reserved=%ld ptp_as_88f8=%ld ptp_vlan100=%ld "
	    "ptp_otherhost=%ld\n", o->count, counts[K_IP], counts[K_IP6],
	    counts[K_ARP], counts[K_LLDP], counts[K_LOOP], counts[K_V1],
	    counts[K_RESV], counts[K_ETYPE], counts[K_VLAN],
	    counts[K_OTHERHOST]);
	close(t.fd);
	return 0;
}

static int
udp_socket(const char *dst, const char *ifname, struct sockaddr_storage *ss,
    socklen_t *sslen)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	unsigned ifindex = ifname ? if_nametoindex(ifname) : 0;
	int fd, ttl = 1;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, dst, &sin->sin_addr) == 1) {
		struct ip_mreqn mr;

		sin->sin_family = AF_INET;
		*sslen = sizeof(*sin);
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			die("socket: %s", strerror(errno));
		memset(&mr, 0, sizeof(mr));
		mr.imr_ifindex = (int)ifindex;
		if (ifindex && setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &mr,
		    sizeof(mr)) != 0)
			die("IP_MULTICAST_IF: %s", strerror(errno));
		(void)setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl,
		    sizeof(ttl));
	} else if (inet_pton(AF_INET6, dst, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_scope_id = ifindex;
		*sslen = sizeof(*sin6);
		fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			die("socket: %s", strerror(errno));
		if (ifindex && setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF,
		    &ifindex, sizeof(ifindex)) != 0)
			die("IPV6_MULTICAST_IF: %s", strerror(errno));
		(void)setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &ttl,
		    sizeof(ttl));
	} else {
		die("bad address %s", dst);
	}
	return fd;
}

static void
udp_set_port(struct sockaddr_storage *ss, unsigned port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
}

static int
udp_sendto(int fd, const void *b, size_t len, const struct sockaddr_storage *ss,
    socklen_t sslen)
{
	for (;;) {
		if (sendto(fd, b, len, 0, (const struct sockaddr *)ss, sslen) ==
		    (ssize_t)len)
			return 0;
		if (errno != ENOBUFS && errno != EAGAIN)
			return -1;
		usleep(100);
	}
}

static int
cmd_udpsend(const struct opts *o)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	uint8_t payload[MAX_PAYLOAD];
	size_t len;
	unsigned port;
	long i;
	int fd;

	if (o->dst == NULL)
		usage();
	fd = udp_socket(o->dst, o->ifname, &ss, &sslen);
	for (i = 0; i < o->count; i++) {
		struct opts oi = *o;

		oi.seq = o->seq + (unsigned)i;
		len = opts_payload(&oi, payload, sizeof(payload));
		port = o->udp_port ? o->udp_port : (payload[0] & 0x8) ?
		    320 : 319;
		udp_set_port(&ss, port);
		if (udp_sendto(fd, payload, len, &ss, sslen) != 0)
			die("sendto %s:%u: %s", o->dst, port, strerror(errno));
	}
	printf("UDPSENT %ld to %s\n", o->count, o->dst);
	close(fd);
	return 0;
}

/* Non-PTP datagrams to 319/320 (the filter drops them) and to other ports. */
static int
cmd_udpflood(const struct opts *o)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	uint8_t junk[64], v1[44];
	long i, n319 = 0, nother = 0;
	int fd;

	if (o->dst == NULL)
		usage();
	fd = udp_socket(o->dst, o->ifname, &ss, &sslen);
	memset(junk, 0x11, sizeof(junk));
	build_msg("sync", 1, v1, sizeof(v1));
	v1[1] = 0x01;
	for (i = 0; i < o->count; i++) {
		switch (i % 4) {
		case 0:
			udp_set_port(&ss, 319);
			if (udp_sendto(fd, junk, sizeof(junk), &ss, sslen) != 0)
				die("sendto: %s", strerror(errno));
			n319++;
			break;
		case 1:
			udp_set_port(&ss, 320);
			if (udp_sendto(fd, v1, sizeof(v1), &ss, sslen) != 0)
				die("sendto: %s", strerror(errno));
			n319++;
			break;
		default:
			udp_set_port(&ss, 9000 + (unsigned)(i % 7));
			if (udp_sendto(fd, junk, sizeof(junk), &ss, sslen) != 0)
				die("sendto: %s", strerror(errno));
			nother++;
			break;
		}
	}
	printf("UDPFLOOD datagrams=%ld to_319_320=%ld other_ports=%ld\n",
	    o->count, n319, nother);
	close(fd);
	return 0;
}

static int
cmd_sniff(const char *ifname, const struct opts *o)
{
	struct sockaddr_ll sll;
	uint8_t mac[6], frame[2048];
	union {
		struct cmsghdr align;
		uint8_t b[256];
	} control;
	unsigned proto;
	int64_t end;
	long got = 0;
	int fd, one = 1;

	if (strcmp(o->proto, "l2") == 0)
		proto = ETH_P_1588;
	else if (strcmp(o->proto, "ip4") == 0)
		proto = ETH_P_IP;
	else if (strcmp(o->proto, "ip6") == 0)
		proto = ETH_P_IPV6;
	else
		usage();
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons((uint16_t)proto));
	if (fd < 0)
		die("socket(AF_PACKET): %s", strerror(errno));
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons((uint16_t)proto);
	sll.sll_ifindex = if_index_mac(fd, ifname, mac);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) != 0)
		die("bind: %s", strerror(errno));
	(void)setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	printf("READY\n");
	fflush(stdout);
	end = now_ns(CLOCK_MONOTONIC) + (int64_t)(o->timeout * 1e9);
	while (got < o->count) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int64_t left = (end - now_ns(CLOCK_MONOTONIC)) / 1000000;
		struct sockaddr_ll from;
		struct iovec iov = { frame, sizeof(frame) };
		struct msghdr mh;
		struct cmsghdr *c;
		int64_t rx_ns = 0;
		const uint8_t *ptp = NULL;
		char info[160] = "";
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)left) != 1)
			break;
		memset(&mh, 0, sizeof(mh));
		mh.msg_name = &from;
		mh.msg_namelen = sizeof(from);
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = control.b;
		mh.msg_controllen = sizeof(control.b);
		if ((n = recvmsg(fd, &mh, 0)) < 14)
			continue;
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;
		for (c = CMSG_FIRSTHDR(&mh); c != NULL; c = CMSG_NXTHDR(&mh, c))
			if (c->cmsg_level == SOL_SOCKET &&
			    c->cmsg_type == SCM_TIMESTAMPNS) {
				struct timespec ts;

				memcpy(&ts, CMSG_DATA(c), sizeof(ts));
				rx_ns = (int64_t)ts.tv_sec * 1000000000LL +
				    ts.tv_nsec;
			}
		if (proto == ETH_P_1588) {
			if (n >= 14 + 34)
				ptp = frame + 14;
		} else if (proto == ETH_P_IP) {
			const uint8_t *ip = frame + 14;
			size_t ihl = (size_t)(ip[0] & 0x0f) * 4;
			char s[INET_ADDRSTRLEN], d[INET_ADDRSTRLEN];
			unsigned dport;

			if (n < (ssize_t)(14 + ihl + 8 + 34) || ip[9] != 17)
				continue;
			dport = (unsigned)ip[ihl + 2] << 8 | ip[ihl + 3];
			if (dport != 319 && dport != 320)
				continue;
			inet_ntop(AF_INET, ip + 12, s, sizeof(s));
			inet_ntop(AF_INET, ip + 16, d, sizeof(d));
			snprintf(info, sizeof(info), " ip_src=%s ip_dst=%s "
			    "ttl=%u dport=%u", s, d, ip[8], dport);
			ptp = ip + ihl + 8;
		} else {
			const uint8_t *ip = frame + 14;
			char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];
			unsigned dport;

			if (n < 14 + 40 + 8 + 34 || ip[6] != 17)
				continue;
			dport = (unsigned)ip[42] << 8 | ip[43];
			if (dport != 319 && dport != 320)
				continue;
			inet_ntop(AF_INET6, ip + 8, s, sizeof(s));
			inet_ntop(AF_INET6, ip + 24, d, sizeof(d));
			snprintf(info, sizeof(info), " ip_src=%s ip_dst=%s "
			    "hlim=%u dport=%u", s, d, ip[7], dport);
			ptp = ip + 48;
		}
		if (ptp == NULL)
			continue;
		got++;
		printf("FRAME dst=%s src=%s ethertype=%02x%02x len=%zd%s "
		    "msg=%s seq=%u rx_ns=%lld\n", fmt_mac(frame),
		    fmt_mac(frame + 6), frame[12], frame[13], n, info,
		    ptp_type_name(ptp[0]), (unsigned)ptp[30] << 8 | ptp[31],
		    (long long)rx_ns);
		fflush(stdout);
	}
	printf("GOT %ld frames\n", got);
	close(fd);
	return got >= o->count ? 0 : EXIT_TIMEOUT;
}

int
main(int argc, char **argv)
{
	struct opts o;
	const char *cmd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		usage();
	cmd = argv[1];
	if (strcmp(cmd, "udpsend") == 0 || strcmp(cmd, "udpflood") == 0) {
		opts_parse(&o, argc, argv, 2);
		return cmd[3] == 's' ? cmd_udpsend(&o) : cmd_udpflood(&o);
	}
	if (argc < 3)
		usage();
	if (strcmp(cmd, "clock") == 0)
		return cmd_clock(argv[2], argc - 3, argv + 3);
	if (strcmp(cmd, "hostile") == 0) {
		if (argc != 4)
			usage();
		return cmd_hostile(argv[2], argv[3]);
	}
	if (strcmp(cmd, "info") == 0)
		return cmd_info(argv[2]);
	opts_parse(&o, argc, argv, 3);
	if (strcmp(cmd, "recv") == 0)
		return cmd_recv(argv[2], &o);
	if (strcmp(cmd, "send") == 0)
		return cmd_send(argv[2], &o);
	if (strcmp(cmd, "inject") == 0)
		return cmd_inject(argv[2], &o);
	if (strcmp(cmd, "flood") == 0)
		return cmd_flood(argv[2], &o);
	if (strcmp(cmd, "sniff") == 0)
		return cmd_sniff(argv[2], &o);
	usage();
}
