/*
 * netd_client_raw.c - the netd test client as the far end of the veth pair:
 * raw Ethernet frames (inject, flood), UDP (udpsend, udpflood) and capture
 * (sniff).
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
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "netd_client.h"

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

int
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
		/* --follow-up: each two-step message's Follow_Up right behind */
		if (o->follow_up) {
			len = build_msg("follow_up", oi.seq, payload,
			    sizeof(payload));
			if (rawtx_send(&t, dst, o->vlan, o->ethertype, payload,
			    len) != 0)
				die("sendto: %s", strerror(errno));
		}
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
int
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

int
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
int
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

int
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
