/*
 * netd_transport_test.c - netd's transports on a real veth pair.
 *
 *   netd_transport_test run PEER_NS IF PEER_IF A4 B4 A6 B6
 *   netd_transport_test hold IF
 *
 * "run" is started inside namespace A (ip netns exec) and opens netd's ports
 * on IF.  It plays the remote side itself: it enters PEER_NS with setns()
 * just long enough to create its sender and capture sockets there (a socket
 * stays in the namespace it was created in), so one process drives both
 * ends in lock step.  Negative cases are followed by a good "marker" frame:
 * once the marker is read, everything sent before it has been through the
 * kernel, so "nothing else arrived" needs no sleeps.
 * "hold" opens L2, UDPv4 and UDPv6 ports, prints READY and waits for
 * SIGTERM, so that transport.sh can inspect /proc/net/packet.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/sock_diag.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "log.h"
#include "netd/transport.h"

#define FLOOD_L2	100000
#define FLOOD_UDP	100000

static int failures;
static int self_ns = -1, peer_ns = -1;
static const char *ifa, *ifb;
static uint8_t peer_mac[6];
static int peer_ifindex;

static void check(int, const char *, ...)
	__attribute__((format(printf, 2, 3)));
static void info(const char *, ...) __attribute__((format(printf, 1, 2)));

static void
check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		failures++;
}

static void
info(const char *fmt, ...)
{
	va_list ap;

	printf("INFO: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void
die(const char *what)
{
	printf("FAIL: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* A socket created in the peer namespace. */
static int
peer_socket(int domain, int type, int proto)
{
	int fd, saved;

	if (setns(peer_ns, CLONE_NEWNET) == -1)
		die("setns(peer)");
	fd = socket(domain, type, proto);
	saved = errno;
	if (setns(self_ns, CLONE_NEWNET) == -1)
		die("setns(self)");
	errno = saved;
	if (fd == -1)
		die("peer socket");
	return fd;
}

static double
ts_sec(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

static double
now_real(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return ts_sec(&t);
}

/* A PTP message: messageType, versionPTP, messageLength, sequenceId. */
static size_t
ptp_msg(uint8_t *p, uint8_t type, uint8_t version, size_t len, uint16_t seq)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(0x40 + i);	/* body bytes of no meaning */
	p[0] = type;
	p[1] = version;
	p[2] = (uint8_t)(len >> 8);
	p[3] = (uint8_t)len;
	p[4] = 0;		/* domainNumber */
	p[30] = (uint8_t)(seq >> 8);
	p[31] = (uint8_t)seq;
	return len;
}

/* Ethernet frame, with an 802.1Q tag when tci >= 0. */
static size_t
eth_frame(uint8_t *f, const uint8_t *dst, const uint8_t *src, int tci,
    uint16_t type, const uint8_t *payload, size_t len)
{
	size_t off = 12;

	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	if (tci >= 0) {
		f[12] = 0x81;
		f[13] = 0x00;
		f[14] = (uint8_t)(tci >> 8);
		f[15] = (uint8_t)tci;
		off = 16;
	}
	f[off] = (uint8_t)(type >> 8);
	f[off + 1] = (uint8_t)type;
	memcpy(f + off + 2, payload, len);
	return off + 2 + len;
}

static const uint8_t mac_primary[6] = { 0x01, 0x1b, 0x19, 0, 0, 0 };
static const uint8_t mac_pdelay[6] = { 0x01, 0x80, 0xc2, 0, 0, 0x0e };
static const uint8_t mac_stranger[6] = { 0x02, 0, 0, 0, 0, 0x99 };

static void
raw_send(int fd, const uint8_t *f, size_t len)
{
	if (send(fd, f, len, 0) != (ssize_t)len)
		die("raw send");
}

/* Sends a PTP payload from the peer as an Ethernet frame. */
static void
peer_l2(int fd, const uint8_t *dst, int tci, const uint8_t *p, size_t len)
{
	uint8_t f[1600];

	raw_send(fd, f, eth_frame(f, dst, peer_mac, tci, ETH_P_1588, p, len));
}

/*
 * Waits up to ms for a frame netd delivers on cls; returns the payload
 * length, or 0 on timeout.
 */
static int
wait_rx(struct transport_port *port, enum transport_class cls,
    struct transport_rx *rx, int ms)
{
	struct pollfd pfd;
	int r;

	for (;;) {
		r = transport_recv(port, cls, rx);
		if (r > 0)
			return r;
		if (r == 0)
			continue;	/* dropped in user space, counted */
		if (r != -EAGAIN)
			return 0;
		pfd.fd = transport_fd(port, cls);
		pfd.events = POLLIN;
		if (poll(&pfd, 1, ms) <= 0)
			return 0;
	}
}

static uint16_t
seq_of(const uint8_t *p)
{
	return (uint16_t)(p[30] << 8 | p[31]);
}

/*
 * Reads cls until the marker with sequenceId mseq arrives; returns how
 * many other frames came first (-1 if the marker never came).
 */
static int
until_marker(struct transport_port *port, enum transport_class cls,
    uint16_t mseq)
{
	uint8_t buf[2048];
	struct transport_rx rx = { .buf = buf, .cap = sizeof(buf) };
	int others = 0;

	while (wait_rx(port, cls, &rx, 1000) > 0) {
		if (seq_of(buf) == mseq)
			return others;
		others++;
	}
	return -1;
}

static int
wait_errqueue(struct transport_port *port, enum transport_class cls,
    struct transport_txts *ts, int ms)
{
	struct pollfd pfd;
	int r;

	for (;;) {
		r = transport_read_errqueue(port, cls, ts);
		if (r == 1)
			return 1;
		if (r == 0)
			continue;
		pfd.fd = transport_fd(port, cls);
		pfd.events = POLLPRI;	/* POLLERR is always reported */
		if (poll(&pfd, 1, ms) <= 0)
			return 0;
	}
}

static uint64_t
rx_drops_sum(const struct transport_counters *c)
{
	return c->rx_too_short + c->rx_bad_version + c->rx_wrong_class +
	    c->rx_bad_length + c->rx_truncated + c->rx_bad_pkttype +
	    c->rx_errors;
}

/* Frames the interface took in (in this namespace). */
static uint64_t
if_rx_packets(const char *ifname)
{
	struct ifaddrs *ifap, *i;
	uint64_t n = 0;

	if (getifaddrs(&ifap) == -1)
		return 0;
	for (i = ifap; i != NULL; i = i->ifa_next)
		if (i->ifa_addr != NULL && i->ifa_addr->sa_family == AF_PACKET &&
		    strcmp(i->ifa_name, ifname) == 0 && i->ifa_data != NULL)
			n = ((struct rtnl_link_stats *)i->ifa_data)->rx_packets;
	freeifaddrs(ifap);
	return n;
}

static unsigned int
packet_stats(int fd)
{
	struct tpacket_stats st;
	socklen_t len = sizeof(st);

	memset(&st, 0, sizeof(st));
	getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &len);
	return st.tp_packets;	/* since the last read: reading resets */
}

/* Counts the sockets of /proc/self/net/packet bound to proto. */
static int
proc_packet_count(unsigned int proto, int *total)
{
	char line[512];
	FILE *f;
	unsigned int type, pr;
	int n = 0;

	*total = 0;
	if ((f = fopen("/proc/self/net/packet", "r")) == NULL)
		return -1;
	/* sk RefCnt Type Proto Iface R Rmem User Inode */
	if (fgets(line, sizeof(line), f) == NULL) {
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%*s %*s %u %x", &type, &pr) != 2)
			continue;
		(*total)++;
		if (pr == proto)
			n++;
	}
	fclose(f);
	return n;
}

static int
open_port(struct transport_port *port, enum transport_kind kind,
    enum transport_ts_mode mode)
{
	struct transport_params pa;

	memset(&pa, 0, sizeof(pa));
	pa.ifname = ifa;
	pa.kind = kind;
	pa.ts_mode = mode;
	pa.ttl = 5;
	pa.dscp_event = 46;	/* EF */
	pa.dscp_general = 8;	/* CS1 */
	pa.tx_ts_timeout_ms = 50;
	return transport_open(port, &pa);
}

/* ---- L2 ------------------------------------------------------------------ */

static int
probe_socket(int ifindex)
{
	struct sockaddr_ll sll;
	int fd, one = 1;

	/* Test-only observer, unfiltered, to see what the kernel delivers. */
	if ((fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, 0)) == -1)
		die("probe socket");
	setsockopt(fd, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one));
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_1588);
	sll.sll_ifindex = ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) == -1)
		die("probe bind");
	return fd;
}

/* Reads the probe until frame with seq arrives: pkttype, vlan and type. */
static int
probe_read(int fd, uint16_t seq, int *pkttype, int *vlan_tci, int *vlan_ok,
    unsigned int *etype)
{
	uint8_t buf[2048];
	union {
		struct cmsghdr a;
		uint8_t b[256];
	} cb;
	struct sockaddr_ll sll;
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr msg;
	struct cmsghdr *cm;
	struct pollfd pfd = { fd, POLLIN, 0 };
	ssize_t n;

	while (poll(&pfd, 1, 1000) > 0) {
		memset(&msg, 0, sizeof(msg));
		msg.msg_name = &sll;
		msg.msg_namelen = sizeof(sll);
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = cb.b;
		msg.msg_controllen = sizeof(cb.b);
		if ((n = recvmsg(fd, &msg, 0)) < 14 + 32)
			continue;
		if (seq_of(buf + 14) != seq)
			continue;
		*pkttype = sll.sll_pkttype;
		*etype = (unsigned int)buf[12] << 8 | buf[13];
		*vlan_tci = -1;
		*vlan_ok = 0;
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
			if (cm->cmsg_level == SOL_PACKET &&
			    cm->cmsg_type == PACKET_AUXDATA) {
				struct tpacket_auxdata aux;

				memcpy(&aux, CMSG_DATA(cm), sizeof(aux));
				*vlan_tci = aux.tp_vlan_tci;
				*vlan_ok = !!(aux.tp_status & TP_STATUS_VLAN_VALID);
			}
		return 1;
	}
	return 0;
}

/* Reads the capture socket until a frame of type etype with predicate. */
static ssize_t
capture(int fd, uint8_t *buf, size_t cap, int (*want)(const uint8_t *, size_t))
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	ssize_t n;

	while (poll(&pfd, 1, 1000) > 0) {
		if ((n = recv(fd, buf, cap, MSG_DONTWAIT)) <= 0)
			continue;
		if (want(buf, (size_t)n))
			return n;
	}
	return -1;
}

static uint16_t want_seq;
static unsigned int want_port;

static int
want_l2(const uint8_t *f, size_t n)
{
	return n >= 14 + 32 && f[12] == 0x88 && f[13] == 0xf7 &&
	    seq_of(f + 14) == want_seq;
}

static int
bound_packet_socket(int fd, int ifindex, uint16_t proto)
{
	struct sockaddr_ll sll;

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(proto);
	sll.sll_ifindex = ifindex;
	return bind(fd, (struct sockaddr *)&sll, sizeof(sll));
}

static void
drain(int fd)
{
	uint8_t b[2048];

	while (recv(fd, b, sizeof(b), MSG_DONTWAIT) > 0)
		;
}

static void
test_l2(void)
{
	struct transport_port port;
	struct transport_counters before;
	struct transport_dest dest;
	struct transport_txts txts;
	uint8_t p[1600], buf[2048], f[2048];
	struct transport_rx rx = { .buf = buf, .cap = sizeof(buf) };
	int tx, cap, probe, n88f7, n0003, total, r, pkttype, tci, vok, i;
	unsigned int etype;
	uint32_t id, ids[3];
	uint64_t ifrx0, ifrx1;
	unsigned int ps_ev, ps_gen;
	double t0, t1;
	size_t len;
	ssize_t cn;
	struct timespec late;

	printf("== L2 (IEEE 802.3, Annex E)\n");
	r = open_port(&port, TR_L2, TS_SOFTWARE);
	check(r == 0, "L2 port opens on %s (%d)", ifa, r);
	if (r < 0)
		return;
	n88f7 = proc_packet_count(0x88f7, &total);
	n0003 = proc_packet_count(0x0003, &total);
	check(n88f7 == 2 && n0003 == 0 && total == 2,
	    "/proc/net/packet: %d sockets with Proto 88f7, %d with 0003, %d in all",
	    n88f7, n0003, total);

	tx = peer_socket(AF_PACKET, SOCK_RAW, 0);	/* sends, never receives */
	if (bound_packet_socket(tx, peer_ifindex, 0) == -1)
		die("bind tx");
	cap = peer_socket(AF_PACKET, SOCK_RAW, htons(ETH_P_1588));
	if (bound_packet_socket(cap, peer_ifindex, ETH_P_1588) == -1)
		die("bind capture");
	probe = probe_socket(port.ifindex);

	/* Good frames of each class and destination. */
	t0 = now_real();
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0x0, 2, 44, 1));	/* Sync */
	r = wait_rx(&port, TC_EVENT, &rx, 1000);
	t1 = now_real();
	check(r == 44 && seq_of(buf) == 1 && memcmp(buf, p, 44) == 0,
	    "Sync to 01-1B-19-00-00-00 arrives on the event socket (len %d)", r);
	check(rx.have_ts && !rx.hw && ts_sec(&rx.ts) >= t0 - 0.001 &&
	    ts_sec(&rx.ts) <= t1 + 0.001,
	    "  with a software RX timestamp inside the send/receive window");
	check(rx.src.len == 6 && memcmp(rx.src.b, peer_mac, 6) == 0,
	    "  with the peer's source MAC");
	peer_l2(tx, mac_pdelay, -1, p, ptp_msg(p, 0x2, 2, 54, 2));
	r = wait_rx(&port, TC_EVENT, &rx, 1000);
	check(r == 54 && seq_of(buf) == 2 && rx.have_ts,
	    "Pdelay_Req to 01-80-C2-00-00-0E arrives on the event socket");
	peer_l2(tx, port.mac, -1, p, ptp_msg(p, 0x1, 0x12, 44, 3));
	r = wait_rx(&port, TC_EVENT, &rx, 1000);
	check(r == 44 && seq_of(buf) == 3,
	    "unicast Delay_Req (PTP 2.1) arrives on the event socket");
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0x8, 2, 44, 4));
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0xb, 2, 64, 5));
	r = wait_rx(&port, TC_GENERAL, &rx, 1000);
	check(r == 44 && seq_of(buf) == 4, "Follow_Up arrives on the general socket");
	r = wait_rx(&port, TC_GENERAL, &rx, 1000);
	check(r == 64 && seq_of(buf) == 5, "Announce arrives on the general socket");
	check(port.cnt.rx[TC_EVENT] == 3 && port.cnt.rx[TC_GENERAL] == 2,
	    "counters rx event %llu general %llu",
	    (unsigned long long)port.cnt.rx[TC_EVENT],
	    (unsigned long long)port.cnt.rx[TC_GENERAL]);

	/* What the filter must drop; each batch ends with a marker. */
	before = port.cnt;
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0x0, 1, 44, 10)); /* v1 */
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0x0, 3, 44, 11)); /* v3 */
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0x0, 2, 40, 12)); /* short */
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0x5, 2, 44, 13)); /* reserved */
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0x8, 2, 44, 14)); /* general */
	peer_l2(tx, mac_stranger, -1, p, ptp_msg(p, 0x0, 2, 44, 15)); /* OTHERHOST */
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0x0, 2, 44, 16)); /* marker */
	r = until_marker(&port, TC_EVENT, 16);
	check(r == 0, "version 1/3, short, reserved type, general type and "
	    "OTHERHOST frames never reach the event socket (%d did)", r);
	/* The Follow_Up (seq 14) of that batch is the general socket's. */
	r = until_marker(&port, TC_GENERAL, 14);
	check(r == 0, "the Follow_Up of that batch went to the general socket "
	    "alone (%d before it)", r);
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0x0, 2, 44, 17));
	peer_l2(tx, mac_stranger, -1, p, ptp_msg(p, 0xb, 2, 64, 18));
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0xb, 1, 64, 23)); /* v1 */
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0xe, 2, 64, 24)); /* reserved */
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0xb, 2, 64, 19)); /* marker */
	r = until_marker(&port, TC_GENERAL, 19);
	check(r == 0, "event, OTHERHOST, version 1 and reserved-type frames "
	    "never reach the general socket (%d did)", r);
	r = until_marker(&port, TC_EVENT, 17);
	check(r == 0, "the Sync of that batch went to the event socket alone");
	check(rx_drops_sum(&port.cnt) == rx_drops_sum(&before),
	    "nothing had to be dropped in user space (kernel filter did it)");
	drain(probe);

	/* 802.1Q: priority tag (VID 0) and a VLAN with no local interface. */
	peer_l2(tx, mac_primary, 0xa000, p, ptp_msg(p, 0x0, 2, 44, 20));
	r = wait_rx(&port, TC_EVENT, &rx, 1000);
	check(r == 44 && seq_of(buf) == 20 && rx.have_ts,
	    "priority-tagged (VID 0, PCP 5) Sync arrives, tag stripped");
	if (probe_read(probe, 20, &pkttype, &tci, &vok, &etype))
		info("VID 0 frame as the kernel delivered it: pkttype %d, "
		    "ethertype in frame 0x%04x, auxdata vlan_tci 0x%04x valid %d",
		    pkttype, etype, (unsigned int)tci, vok);
	peer_l2(tx, mac_primary, 100, p, ptp_msg(p, 0x0, 2, 44, 21));
	peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0x0, 2, 44, 22)); /* marker */
	r = until_marker(&port, TC_EVENT, 22);
	check(r == 0, "Sync tagged VLAN 100 (no vlan 100 interface) does not "
	    "arrive (%d did)", r);
	r = probe_read(probe, 21, &pkttype, &tci, &vok, &etype);
	check(r == 1 && pkttype == PACKET_OTHERHOST && etype == 0x88f7,
	    "the kernel hands the VLAN 100 frame to ETH_P_1588 sockets untagged "
	    "and marked OTHERHOST (pkttype %d, ethertype 0x%04x, vlan_tci 0x%04x "
	    "valid %d)", r ? pkttype : -1, r ? etype : 0, (unsigned int)tci, vok);
	close(probe);

	/* Flood: non-PTP 0x88F7 frames, OTHERHOST PTP, and IPv4 packets. */
	{
		uint8_t bad[5][128], ipf[128];
		size_t blen[5], iplen;
		uint32_t sum = 0;
		int k;

		blen[0] = eth_frame(bad[0], mac_primary, peer_mac, -1, ETH_P_1588,
		    p, ptp_msg(p, 0x0, 1, 44, 30));
		blen[1] = eth_frame(bad[1], mac_primary, peer_mac, -1, ETH_P_1588,
		    p, ptp_msg(p, 0x0, 2, 20, 31));
		blen[2] = eth_frame(bad[2], mac_primary, peer_mac, -1, ETH_P_1588,
		    p, ptp_msg(p, 0xf, 2, 44, 32));
		blen[3] = eth_frame(bad[3], mac_stranger, peer_mac, -1, ETH_P_1588,
		    p, ptp_msg(p, 0x0, 2, 44, 33));
		blen[4] = eth_frame(bad[4], port.mac, peer_mac, 100, ETH_P_1588,
		    p, ptp_msg(p, 0x0, 2, 44, 34));
		/* IPv4/UDP to A's discard port, checksum computed below */
		memset(p, 0, 64);
		p[0] = 0x45; p[3] = 20 + 8 + 18; p[8] = 64; p[9] = IPPROTO_UDP;
		inet_pton(AF_INET, "10.77.0.2", p + 12);
		inet_pton(AF_INET, "10.77.0.1", p + 16);
		for (k = 0; k < 20; k += 2)
			sum += (uint32_t)(p[k] << 8 | p[k + 1]);
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		p[10] = (uint8_t)(~sum >> 8);
		p[11] = (uint8_t)~sum;
		p[21] = 9; p[23] = 9; p[25] = 8 + 18;
		iplen = eth_frame(ipf, port.mac, peer_mac, -1, ETH_P_IP, p, 46);

		before = port.cnt;
		packet_stats(port.fd[TC_EVENT]);
		packet_stats(port.fd[TC_GENERAL]);
		ifrx0 = if_rx_packets(ifa);
		t0 = now_real();
		for (i = 0; i < FLOOD_L2; i++) {
			if (i % 2 == 0)
				raw_send(tx, bad[(i / 2) % 5], blen[(i / 2) % 5]);
			else
				raw_send(tx, ipf, iplen);
		}
		peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0x0, 2, 44, 40));
		peer_l2(tx, mac_primary, -1, p, ptp_msg(p, 0x8, 2, 44, 41));
		r = until_marker(&port, TC_EVENT, 40);
		i = until_marker(&port, TC_GENERAL, 41);
		t1 = now_real();
		ifrx1 = if_rx_packets(ifa);
		ps_ev = packet_stats(port.fd[TC_EVENT]);
		ps_gen = packet_stats(port.fd[TC_GENERAL]);
	}
	info("L2 flood: %d frames sent (%d bad 0x88F7, %d IPv4) in %.2f s; "
	    "interface rx +%llu",
	    FLOOD_L2, FLOOD_L2 / 2, FLOOD_L2 / 2, t1 - t0,
	    (unsigned long long)(ifrx1 - ifrx0));
	check(ifrx1 - ifrx0 >= FLOOD_L2 + 2,
	    "all %d flood frames + 2 markers reached %s (rx +%llu)", FLOOD_L2,
	    ifa, (unsigned long long)(ifrx1 - ifrx0));
	check(r == 0 && i == 0 && ps_ev == 1 && ps_gen == 1,
	    "flood: only the 2 markers were queued to netd's sockets "
	    "(PACKET_STATISTICS tp_packets event %u general %u)", ps_ev, ps_gen);
	check(port.cnt.rx[TC_EVENT] == before.rx[TC_EVENT] + 1 &&
	    port.cnt.rx[TC_GENERAL] == before.rx[TC_GENERAL] + 1 &&
	    rx_drops_sum(&port.cnt) == rx_drops_sum(&before),
	    "flood: rx counters event %llu->%llu general %llu->%llu (markers "
	    "only), user-space drops %llu->%llu",
	    (unsigned long long)before.rx[TC_EVENT],
	    (unsigned long long)port.cnt.rx[TC_EVENT],
	    (unsigned long long)before.rx[TC_GENERAL],
	    (unsigned long long)port.cnt.rx[TC_GENERAL],
	    (unsigned long long)rx_drops_sum(&before),
	    (unsigned long long)rx_drops_sum(&port.cnt));

	/* Sending: netd builds the header; TX timestamps come back by id. */
	drain(cap);
	memset(&dest, 0, sizeof(dest));
	dest.kind = TD_PRIMARY;
	ptp_msg(p, 0x0, 2, 44, 100);
	t0 = now_real();
	r = transport_send(&port, TC_EVENT, &dest, p, 44, 1, &id);
	t1 = now_real();
	check(r == 0, "transport_send Sync to PRIMARY with a TX timestamp (%d)", r);
	want_seq = 100;
	cn = capture(cap, f, sizeof(f), want_l2);
	check(cn == 14 + 44 && memcmp(f, mac_primary, 6) == 0 &&
	    memcmp(f + 6, port.mac, 6) == 0 && memcmp(f + 14, p, 44) == 0,
	    "on the wire: dst 01:1b:19:00:00:00, src %02x:%02x:%02x:%02x:%02x:%02x, "
	    "type 0x88f7, payload intact (%zd bytes)", port.mac[0], port.mac[1],
	    port.mac[2], port.mac[3], port.mac[4], port.mac[5], cn);
	r = wait_errqueue(&port, TC_EVENT, &txts, 1000);
	check(r == 1 && txts.id == id && txts.status == TXTS_OK && !txts.hw &&
	    ts_sec(&txts.ts) >= t0 - 0.001 && ts_sec(&txts.ts) <= t1 + 0.001,
	    "TX software timestamp matched to id %u (got id %u, %.9f within "
	    "the send call)", id, r == 1 ? txts.id : 0, ts_sec(&txts.ts));

	/* Three outstanding at once: each comes back under its own id. */
	for (i = 0; i < 3; i++) {
		dest.kind = i == 1 ? TD_PDELAY : TD_PRIMARY;
		ptp_msg(p, i == 1 ? 0x2 : 0x0, 2, i == 1 ? 54 : 44,
		    (uint16_t)(200 + i));
		transport_send(&port, TC_EVENT, &dest, p, i == 1 ? 54 : 44, 1,
		    &ids[i]);
	}
	for (i = 0, r = 0; i < 3; i++)
		if (wait_errqueue(&port, TC_EVENT, &txts, 1000) == 1 &&
		    txts.id == ids[i] && txts.status == TXTS_OK)
			r++;
	check(r == 3, "3 outstanding TX timestamps matched to ids %u %u %u",
	    ids[0], ids[1], ids[2]);
	want_seq = 201;
	cn = capture(cap, f, sizeof(f), want_l2);
	check(cn == 14 + 54 && memcmp(f, mac_pdelay, 6) == 0,
	    "Pdelay_Req left for 01:80:c2:00:00:0e");

	/* General message without timestamp, to a unicast learned peer. */
	dest.kind = TD_UNICAST;
	dest.addr.len = 6;
	memcpy(dest.addr.b, peer_mac, 6);
	ptp_msg(p, 0xb, 2, 64, 300);
	r = transport_send(&port, TC_GENERAL, &dest, p, 64, 0, NULL);
	want_seq = 300;
	cn = capture(cap, f, sizeof(f), want_l2);
	check(r == 0 && cn == 14 + 64 && memcmp(f, peer_mac, 6) == 0,
	    "Announce to the learned peer MAC goes out unicast");
	memcpy(dest.addr.b, mac_stranger, 6);
	r = transport_send(&port, TC_GENERAL, &dest, p, 64, 0, NULL);
	check(r == -EPERM && port.cnt.tx_denied == 1,
	    "unicast to a MAC the port never heard is refused (%d)", r);
	dest.kind = TD_PRIMARY;
	ptp_msg(p, 0x0, 2, 44, 301);
	r = transport_send(&port, TC_GENERAL, &dest, p, 44, 0, NULL);
	check(r == -EINVAL, "an event payload on the general socket is refused");
	p[3] = 50;
	r = transport_send(&port, TC_EVENT, &dest, p, 44, 0, NULL);
	check(r == -EINVAL, "a payload whose messageLength disagrees is refused");

	/* A TX timestamp not read in time is MISSING, and stays unmatched. */
	ptp_msg(p, 0x0, 2, 44, 400);
	transport_send(&port, TC_EVENT, &dest, p, 44, 1, &id);
	clock_gettime(CLOCK_MONOTONIC, &late);
	r = transport_expire_tx(&port, &late, &txts);
	check(r == 0, "nothing expires before the timeout");
	late.tv_sec += 1;
	r = transport_expire_tx(&port, &late, &txts);
	check(r == 1 && txts.id == id && txts.status == TXTS_MISSING &&
	    txts.ts.tv_sec == 0 && port.cnt.tx_ts_missing == 1,
	    "after the timeout id %u is reported MISSING", id);
	r = wait_errqueue(&port, TC_EVENT, &txts, 200);
	check(r == 0 && port.cnt.tx_ts_unmatched == 1,
	    "the late timestamp is not handed out (unmatched %llu)",
	    (unsigned long long)port.cnt.tx_ts_unmatched);

	close(tx);
	close(cap);
	transport_close(&port);
	(void)len;

	/* Hardware timestamping: veth has none, the refusal is clean. */
	r = open_port(&port, TR_L2, TS_HARDWARE);
	check(r < 0 && port.fd[0] == -1 && port.fd[1] == -1,
	    "hardware timestamping on veth is refused: %s", strerror(-r));
	proc_packet_count(0x88f7, &total);
	check(total == 0, "no socket left behind (%d in /proc/net/packet)", total);
}

/* ---- UDP ----------------------------------------------------------------- */

/* An IPv4 UDP socket of this namespace with a one-instruction-style probe. */
static int
probe_udp(uint16_t port, struct sock_filter *prog, unsigned short n)
{
	struct sockaddr_in sin;
	struct sock_fprog fp = { n, prog };
	int fd;

	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0)) == -1)
		die("probe udp");
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fp, sizeof(fp)) == -1)
		die("probe filter");
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(port);
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1)
		die("probe bind");
	return fd;
}

static int
recv_within(int fd, int ms)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	uint8_t b[256];

	if (poll(&pfd, 1, ms) <= 0)
		return 0;
	return recv(fd, b, sizeof(b), MSG_DONTWAIT) > 0;
}

/* Does a UDP socket filter see the datagram from the UDP header? */
static void
test_udp_offset(const char *a4)
{
	struct sock_filter at_udp[] = {
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 0),	/* UDP source port */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 4444, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_filter at_ip[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 0),	/* IPv4 version/IHL */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x45, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sockaddr_in sin;
	int s1, s2, tx, got1, got2;

	s1 = probe_udp(5551, at_udp, 4);
	s2 = probe_udp(5552, at_ip, 4);
	tx = peer_socket(AF_INET, SOCK_DGRAM, 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(4444);
	if (bind(tx, (struct sockaddr *)&sin, sizeof(sin)) == -1)
		die("bind 4444");
	inet_pton(AF_INET, a4, &sin.sin_addr);
	sin.sin_port = htons(5551);
	sendto(tx, "probe", 5, 0, (struct sockaddr *)&sin, sizeof(sin));
	sin.sin_port = htons(5552);
	sendto(tx, "probe", 5, 0, (struct sockaddr *)&sin, sizeof(sin));
	got1 = recv_within(s1, 1000);
	got2 = recv_within(s2, 300);
	check(got1 && !got2, "a UDP socket filter sees offset 0 = UDP header "
	    "(filter on source port 4444 at [0] accepts: %d; filter on IPv4 "
	    "0x45 at [0] accepts: %d) -> PTP payload at offset 8", got1, got2);
	close(s1);
	close(s2);
	close(tx);
}

static int want_v6;

static int
want_udp(const uint8_t *f, size_t n)
{
	size_t off;

	if (!want_v6) {
		if (n < 14 + 20 + 8 + 32 || f[12] != 0x08 || f[13] != 0 ||
		    f[14 + 9] != IPPROTO_UDP)
			return 0;
		off = 14 + (size_t)(f[14] & 0xf) * 4;
	} else {
		if (n < 14 + 40 + 8 + 32 || f[12] != 0x86 || f[13] != 0xdd ||
		    f[14 + 6] != IPPROTO_UDP)
			return 0;
		off = 14 + 40;
	}
	return (unsigned int)(f[off + 2] << 8 | f[off + 3]) == want_port &&
	    seq_of(f + off + 8) == want_seq;
}

static void
sendto_any(int fd, const char *addr, uint16_t port, int v6, const void *p,
    size_t len)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;

	if (!v6) {
		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_port = htons(port);
		inet_pton(AF_INET, addr, &sin.sin_addr);
		if (sendto(fd, p, len, 0, (struct sockaddr *)&sin,
		    sizeof(sin)) != (ssize_t)len)
			die("sendto");
	} else {
		memset(&sin6, 0, sizeof(sin6));
		sin6.sin6_family = AF_INET6;
		sin6.sin6_port = htons(port);
		sin6.sin6_scope_id = (uint32_t)peer_ifindex;
		inet_pton(AF_INET6, addr, &sin6.sin6_addr);
		if (sendto(fd, p, len, 0, (struct sockaddr *)&sin6,
		    sizeof(sin6)) != (ssize_t)len)
			die("sendto6");
	}
}

static void
test_udp(enum transport_kind kind, const char *a_addr, const char *b_addr)
{
	int v6 = kind == TR_UDP6;
	const char *grp = v6 ? "ff0e::181" : "224.0.1.129";
	const char *pdelay = v6 ? "ff02::6b" : "224.0.0.107";
	const char *name = transport_kind_name(kind);
	struct transport_port port;
	struct transport_counters before;
	struct transport_dest dest;
	struct transport_txts txts;
	uint8_t p[1600], buf[2048], f[2048], junk[64];
	struct transport_rx rx = { .buf = buf, .cap = sizeof(buf) };
	uint32_t d0[2], d1[2], id;
	uint64_t ifrx0, ifrx1;
	int tx, cap, r, r2, i, one = 1;
	ssize_t cn;
	double t0, t1;
	size_t ipoff;

	printf("== %s (IEEE 1588-2019 Annex %s)\n", name, v6 ? "D" : "C");
	r = open_port(&port, kind, TS_SOFTWARE);
	check(r == 0, "%s port opens on %s (%d)", name, ifa, r);
	if (r < 0)
		return;
	tx = peer_socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
	if (v6)
		setsockopt(tx, IPPROTO_IPV6, IPV6_MULTICAST_IF, &peer_ifindex,
		    sizeof(peer_ifindex));
	else {
		struct ip_mreqn mr;

		memset(&mr, 0, sizeof(mr));
		mr.imr_ifindex = peer_ifindex;
		setsockopt(tx, IPPROTO_IP, IP_MULTICAST_IF, &mr, sizeof(mr));
	}
	setsockopt(tx, SOL_SOCKET, SO_BINDTODEVICE, ifb, (socklen_t)strlen(ifb));
	(void)one;
	cap = peer_socket(AF_PACKET, SOCK_RAW, htons(v6 ? ETH_P_IPV6 : ETH_P_IP));
	if (bound_packet_socket(cap, peer_ifindex, v6 ? ETH_P_IPV6 : ETH_P_IP) == -1)
		die("bind capture");

	t0 = now_real();
	sendto_any(tx, grp, 319, v6, p, ptp_msg(p, 0x0, 2, 44, 1));
	r = wait_rx(&port, TC_EVENT, &rx, 1000);
	t1 = now_real();
	check(r == 44 && seq_of(buf) == 1 && rx.have_ts &&
	    ts_sec(&rx.ts) >= t0 - 0.001 && ts_sec(&rx.ts) <= t1 + 0.001,
	    "Sync to %s:319 arrives with a software timestamp", grp);
	sendto_any(tx, pdelay, 319, v6, p, ptp_msg(p, 0x2, 2, 54, 2));
	r = wait_rx(&port, TC_EVENT, &rx, 1000);
	check(r == 54 && seq_of(buf) == 2, "Pdelay_Req to %s:319 arrives", pdelay);
	sendto_any(tx, a_addr, 319, v6, p, ptp_msg(p, 0x1, 2, 44, 3));
	r = wait_rx(&port, TC_EVENT, &rx, 1000);
	check(r == 44 && seq_of(buf) == 3 && rx.src.len == (v6 ? 16 : 4),
	    "unicast Delay_Req to %s:319 arrives, source recorded", a_addr);
	sendto_any(tx, grp, 320, v6, p, ptp_msg(p, 0xb, 2, 64, 4));
	r = wait_rx(&port, TC_GENERAL, &rx, 1000);
	check(r == 64 && seq_of(buf) == 4, "Announce to %s:320 arrives", grp);

	/* Non-PTP payloads to both ports, then markers. */
	before = port.cnt;
	transport_kernel_drops(&port, TC_EVENT, &d0[0]);
	transport_kernel_drops(&port, TC_GENERAL, &d0[1]);
	memset(junk, 0x23, sizeof(junk));	/* NTP-like */
	ifrx0 = if_rx_packets(ifa);
	t0 = now_real();
	for (i = 0; i < FLOOD_UDP; i++) {
		/* alternate: junk, PTPv1, wrong class, short */
		switch (i % 4) {
		case 0:
			sendto_any(tx, i & 4 ? a_addr : grp, (uint16_t)(319 + (i & 1)),
			    v6, junk, sizeof(junk));
			break;
		case 1:
			sendto_any(tx, a_addr, 320, v6, p, ptp_msg(p, 0xb, 1, 64, 9));
			break;
		case 2:
			sendto_any(tx, grp, 319, v6, p, ptp_msg(p, 0xb, 2, 64, 9));
			break;
		case 3:
			sendto_any(tx, a_addr, 319, v6, p, ptp_msg(p, 0x0, 2, 30, 9));
			break;
		}
	}
	sendto_any(tx, grp, 319, v6, p, ptp_msg(p, 0x0, 2, 44, 40));
	sendto_any(tx, grp, 320, v6, p, ptp_msg(p, 0x8, 2, 44, 41));
	r = until_marker(&port, TC_EVENT, 40);
	r2 = until_marker(&port, TC_GENERAL, 41);
	t1 = now_real();
	ifrx1 = if_rx_packets(ifa);
	transport_kernel_drops(&port, TC_EVENT, &d1[0]);
	transport_kernel_drops(&port, TC_GENERAL, &d1[1]);
	info("%s flood: %d non-PTP datagrams to 319/320 in %.2f s; interface "
	    "rx +%llu; socket drop counters event %u->%u general %u->%u", name,
	    FLOOD_UDP, t1 - t0, (unsigned long long)(ifrx1 - ifrx0), d0[0],
	    d1[0], d0[1], d1[1]);
	check(r == 0 && r2 == 0, "%s: no non-PTP datagram reached user space",
	    name);
	check((d1[0] - d0[0]) + (d1[1] - d0[1]) == FLOOD_UDP,
	    "%s: the kernel dropped all %d in the socket filter (SO_MEMINFO "
	    "drops +%u)", name, FLOOD_UDP, (d1[0] - d0[0]) + (d1[1] - d0[1]));
	check(port.cnt.rx[TC_EVENT] == before.rx[TC_EVENT] + 1 &&
	    port.cnt.rx[TC_GENERAL] == before.rx[TC_GENERAL] + 1 &&
	    rx_drops_sum(&port.cnt) == rx_drops_sum(&before),
	    "%s flood: rx counters event %llu->%llu general %llu->%llu (markers "
	    "only), user-space drops unchanged", name,
	    (unsigned long long)before.rx[TC_EVENT],
	    (unsigned long long)port.cnt.rx[TC_EVENT],
	    (unsigned long long)before.rx[TC_GENERAL],
	    (unsigned long long)port.cnt.rx[TC_GENERAL]);

	/* Sending: headers, TTL, DSCP, port; TX timestamp by id. */
	drain(cap);
	want_v6 = v6;
	memset(&dest, 0, sizeof(dest));
	dest.kind = TD_PRIMARY;
	ptp_msg(p, 0x0, 2, 44, 100);
	t0 = now_real();
	r = transport_send(&port, TC_EVENT, &dest, p, 44, 1, &id);
	t1 = now_real();
	want_seq = 100;
	want_port = 319;
	cn = capture(cap, f, sizeof(f), want_udp);
	ipoff = 14;
	if (!v6) {
		uint8_t dmac[6] = { 0x01, 0x00, 0x5e, 0x00, 0x01, 0x81 };
		char dst[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, f + ipoff + 16, dst, sizeof(dst));
		check(r == 0 && cn > 0 && memcmp(f, dmac, 6) == 0 &&
		    memcmp(f + 6, port.mac, 6) == 0 && strcmp(dst, grp) == 0 &&
		    f[ipoff + 8] == 5 && f[ipoff + 1] == (46 << 2) &&
		    memcmp(f + ipoff + 20 + 8, p, 44) == 0,
		    "on the wire: dst MAC 01:00:5e:00:01:81, src MAC port's, dst "
		    "%s:319, TTL %u, TOS 0x%02x (DSCP %u)", dst, f[ipoff + 8],
		    f[ipoff + 1], f[ipoff + 1] >> 2);
	} else {
		uint8_t dmac[6] = { 0x33, 0x33, 0x00, 0x00, 0x01, 0x81 };
		char dst[INET6_ADDRSTRLEN];
		unsigned int tclass = (unsigned int)((f[ipoff] & 0xf) << 4 |
		    f[ipoff + 1] >> 4);

		inet_ntop(AF_INET6, f + ipoff + 24, dst, sizeof(dst));
		check(r == 0 && cn > 0 && memcmp(f, dmac, 6) == 0 &&
		    memcmp(f + 6, port.mac, 6) == 0 && strcmp(dst, grp) == 0 &&
		    f[ipoff + 7] == 5 && tclass == (46 << 2) &&
		    memcmp(f + ipoff + 40 + 8, p, 44) == 0,
		    "on the wire: dst MAC 33:33:00:00:01:81, src MAC port's, dst "
		    "[%s]:319, hop limit %u, traffic class 0x%02x (DSCP %u)", dst,
		    f[ipoff + 7], tclass, tclass >> 2);
	}
	r = wait_errqueue(&port, TC_EVENT, &txts, 1000);
	check(r == 1 && txts.id == id && txts.status == TXTS_OK &&
	    ts_sec(&txts.ts) >= t0 - 0.001 && ts_sec(&txts.ts) <= t1 + 0.001,
	    "%s TX software timestamp matched to id %u", name, id);

	dest.kind = TD_PDELAY;
	ptp_msg(p, 0xa, 2, 54, 101);	/* Pdelay_Resp_Follow_Up */
	r = transport_send(&port, TC_GENERAL, &dest, p, 54, 0, NULL);
	want_seq = 101;
	want_port = 320;
	cn = capture(cap, f, sizeof(f), want_udp);
	if (!v6)
		check(r == 0 && cn > 0 && f[ipoff + 1] == (8 << 2) &&
		    memcmp(f + ipoff + 16, "\xe0\x00\x00\x6b", 4) == 0,
		    "general message to 224.0.0.107:320 with DSCP 8");
	else
		check(r == 0 && cn > 0 && f[ipoff + 24] == 0xff &&
		    f[ipoff + 25] == 0x02 && f[ipoff + 39] == 0x6b,
		    "general message to ff02::6b:320");

	/* Unicast: only to a learned peer (the source of seq 3). */
	sendto_any(tx, a_addr, 320, v6, p, ptp_msg(p, 0xb, 2, 64, 5));
	wait_rx(&port, TC_GENERAL, &rx, 1000);
	dest.kind = TD_UNICAST;
	dest.addr = rx.src;
	ptp_msg(p, 0x9, 2, 54, 102);	/* Delay_Resp */
	r = transport_send(&port, TC_GENERAL, &dest, p, 54, 0, NULL);
	want_seq = 102;
	cn = capture(cap, f, sizeof(f), want_udp);
	check(r == 0 && cn > 0, "Delay_Resp to the learned peer %s goes out",
	    b_addr);
	dest.addr.b[dest.addr.len - 1] ^= 0x40;
	r = transport_send(&port, TC_GENERAL, &dest, p, 54, 0, NULL);
	check(r == -EPERM, "unicast to an address never heard is refused (%d)", r);

	close(tx);
	close(cap);
	transport_close(&port);
}

static int
open_ns(const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		die(path);
	return fd;
}

static void
peer_iface(void)
{
	struct ifreq ifr;
	int fd = peer_socket(AF_INET, SOCK_DGRAM, 0);

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifb);
	if (ioctl(fd, SIOCGIFINDEX, &ifr) == -1)
		die("peer SIOCGIFINDEX");
	peer_ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) == -1)
		die("peer SIOCGIFHWADDR");
	memcpy(peer_mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
}

static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int
hold(void)
{
	struct transport_port l2, u4, u6;

	if (open_port(&l2, TR_L2, TS_SOFTWARE) < 0 ||
	    open_port(&u4, TR_UDP4, TS_SOFTWARE) < 0 ||
	    open_port(&u6, TR_UDP6, TS_SOFTWARE) < 0) {
		printf("FAIL: hold: cannot open the ports\n");
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	printf("READY\n");
	fflush(stdout);
	while (!stop)
		pause();
	transport_close(&l2);
	transport_close(&u4);
	transport_close(&u6);
	return 0;
}

int
main(int argc, char *argv[])
{
	log_init("netd-transport-test", 1, LOG_LVL_WARN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && strcmp(argv[1], "hold") == 0) {
		ifa = argv[2];
		return hold();
	}
	if (argc != 9 || strcmp(argv[1], "run") != 0) {
		fprintf(stderr, "usage: %s run PEER_NS IF PEER_IF A4 B4 A6 B6\n"
		    "       %s hold IF\n", argv[0], argv[0]);
		return 2;
	}
	ifa = argv[3];
	ifb = argv[4];
	if ((self_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)) == -1)
		die("/proc/self/ns/net");
	peer_ns = open_ns(argv[2]);
	peer_iface();

	test_l2();
	printf("== UDP socket filter offset\n");
	test_udp_offset(argv[5]);
	test_udp(TR_UDP4, argv[5], argv[6]);
	test_udp(TR_UDP6, argv[7], argv[8]);

	printf("%s: netd_transport_test, %d failure(s)\n",
	    failures ? "FAIL" : "PASS", failures);
	return failures ? 1 : 0;
}
