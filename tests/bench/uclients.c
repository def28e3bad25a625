/*
 * uclients.c - N unicast PTP clients with negotiation, for the grandmaster
 * scale benchmark (tests/bench/scale.sh; issue 15, item 5).
 *
 *   uclients IFACE GM_MAC N LOGSYNC SECONDS WARM [DURATION]
 *
 * One process plays N clients over Layer 2 on IFACE (a veth end in the
 * clients' namespace): client i has the locally administered MAC
 * 02:00:ii:ii:ii:ii (i + 1, big-endian) and the clock identity made of
 * it (EUI-48 to EUI-64, ff:fe in the middle), port 1.  Layer 2 rather
 * than UDP because N distinct sources over UDP need N addresses and N
 * neighbour entries on the grandmaster's side; over L2 a MAC is the whole
 * of a client's address, as for a ptp4l client with an L2 master table.
 *
 * Each client sends one Signaling message with three
 * REQUEST_UNICAST_TRANSMISSION TLVs (IEEE 1588-2019 16.1.4.1): Announce
 * at logInterMessagePeriod 1, Sync and Delay_Resp at LOGSYNC, for
 * DURATION s (default 300), the first requests spread over one second
 * and renewed at half the duration.  A client with Sync and Delay_Resp
 * granted sends a Delay_Req at its granted Delay_Resp period, the clients
 * spread evenly over the period.  The interface is promiscuous, so the
 * frames the grandmaster sends to every client's MAC arrive here.
 *
 * After WARM s, for SECONDS s, it counts per client the Announce, Sync,
 * Follow_Up and Delay_Resp received, and prints one JSON object: the
 * grants and refusals (a GRANT with durationField 0, 16.1.4.2) per
 * message type, the messages a second served, and, per client, the Syncs
 * received as a fraction of what its grants promise and the Delay_Reqs
 * sent in the window that a Delay_Resp answered (by sequenceId, 13.8.2.3;
 * answers are awaited for DRESP_GRACE_MS after the window, sending
 * nothing more): minimum, 1st percentile, median.  "Every client served
 * at its granted rate" is the minimum near 1.
 *
 * A benchmark tool, not part of ptpsep: it trusts nothing it receives
 * beyond the lengths it checks, and sends only on IFACE.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sendmmsg, recvmmsg */
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HDR_LEN		34
#define MT_SYNC		0x0
#define MT_DELAY_REQ	0x1
#define MT_FOLLOW_UP	0x8
#define MT_DELAY_RESP	0x9
#define MT_ANNOUNCE	0xb
#define MT_SIGNALING	0xc
#define TLV_REQUEST	0x0004
#define TLV_GRANT	0x0005
#define TLV_CANCEL	0x0006
#define TLV_ACK_CANCEL	0x0007
#define BATCH		64
#define FRAME_MAX	256

enum { K_ANN, K_SYNC, K_DRESP, K_N };
static const uint8_t k_type[K_N] = { MT_ANNOUNCE, MT_SYNC, MT_DELAY_RESP };

struct client {
	int8_t	 granted_log[K_N];
	uint8_t	 granted[K_N];		/* has a grant now */
	uint32_t grants[K_N], refusals[K_N];
	uint32_t rx[K_N], rx_fu;	/* in the window */
	uint16_t seq_dreq, seq_sig;
	uint16_t dreq_first;		/* the window's first Delay_Req */
	uint32_t dreq_sent, dreq_answered;	/* of the window's */
};

/* How long answers to the window's last Delay_Reqs are awaited. */
#define DRESP_GRACE_MS	1000

static int in_window;		/* Delay_Reqs sent now are counted */

static int fd = -1, ifindex;
static uint8_t gm_mac[6];
static struct client *cl;
static unsigned int n;
static struct mmsghdr out_msg[BATCH];
static struct iovec out_iov[BATCH];
static uint8_t out_buf[BATCH][FRAME_MAX];
static struct sockaddr_ll out_sa[BATCH];
static unsigned int out_n;
static unsigned long send_errors;

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
client_mac(unsigned int i, uint8_t mac[6])
{
	uint32_t v = htonl(i + 1);

	mac[0] = 0x02;
	mac[1] = 0x00;
	memcpy(mac + 2, &v, 4);
}

/* The client's MAC from a frame's destination, or -1. */
static int
mac_client(const uint8_t mac[6])
{
	uint32_t v;

	if (mac[0] != 0x02 || mac[1] != 0x00)
		return -1;
	memcpy(&v, mac + 2, 4);
	v = ntohl(v);
	return v >= 1 && v <= n ? (int)v - 1 : -1;
}

static void
flush_out(void)
{
	unsigned int done = 0;
	int rc;

	while (done < out_n) {
		rc = sendmmsg(fd, out_msg + done, out_n - done, 0);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == ENOBUFS) {
				struct pollfd p = { .fd = fd, .events = POLLOUT };
				(void)poll(&p, 1, 10);
				continue;
			}
			send_errors += out_n - done;
			break;
		}
		done += (unsigned int)rc;
	}
	out_n = 0;
}

/* A PTP message from client i to the grandmaster: its header filled. */
static uint8_t *
frame_new(unsigned int i, uint8_t type, uint16_t len, uint16_t seq,
    uint8_t control)
{
	uint8_t *f, *h, mac[6];

	if (out_n == BATCH)
		flush_out();
	f = out_buf[out_n];
	memset(f, 0, 14 + len);
	client_mac(i, mac);
	memcpy(f, gm_mac, 6);
	memcpy(f + 6, mac, 6);
	f[12] = ETH_P_1588 >> 8;
	f[13] = ETH_P_1588 & 0xff;
	h = f + 14;
	h[0] = type;
	h[1] = 2;
	h[2] = len >> 8;
	h[3] = len & 0xff;
	h[6] = 0x04;			/* unicastFlag (13.3.2.8) */
	/* sourcePortIdentity: EUI-64 of the MAC, port 1 */
	memcpy(h + 20, mac, 3);
	h[23] = 0xff;
	h[24] = 0xfe;
	memcpy(h + 25, mac + 3, 3);
	h[29] = 1;
	h[30] = seq >> 8;
	h[31] = seq & 0xff;
	h[32] = control;
	h[33] = 0x7f;
	out_iov[out_n].iov_base = f;
	out_iov[out_n].iov_len = 14 + len;
	out_sa[out_n].sll_family = AF_PACKET;
	out_sa[out_n].sll_ifindex = ifindex;
	out_sa[out_n].sll_halen = 6;
	memcpy(out_sa[out_n].sll_addr, gm_mac, 6);
	out_msg[out_n].msg_hdr = (struct msghdr){
		.msg_name = &out_sa[out_n], .msg_namelen = sizeof(out_sa[0]),
		.msg_iov = &out_iov[out_n], .msg_iovlen = 1 };
	out_n++;
	return h;
}

static void
send_request(unsigned int i, int8_t logsync, uint32_t duration)
{
	/* header, targetPortIdentity (all ones: any port), 3 x 10-octet TLV */
	uint16_t len = HDR_LEN + 10 + 3 * 10;
	uint8_t *h = frame_new(i, MT_SIGNALING, len, cl[i].seq_sig++, 5);
	uint8_t *t = h + HDR_LEN + 10;
	int k;

	memset(h + HDR_LEN, 0xff, 10);
	for (k = 0; k < K_N; k++, t += 10) {
		t[0] = TLV_REQUEST >> 8;
		t[1] = TLV_REQUEST & 0xff;
		t[3] = 6;
		t[4] = (uint8_t)(k_type[k] << 4);
		t[5] = (uint8_t)(k == K_ANN ? 1 : logsync);
		t[6] = duration >> 24;
		t[7] = duration >> 16;
		t[8] = duration >> 8;
		t[9] = duration & 0xff;
	}
}

static void
send_delay_req(unsigned int i)
{
	struct client *c = &cl[i];

	if (in_window) {
		if (c->dreq_sent == 0)
			c->dreq_first = c->seq_dreq;
		c->dreq_sent++;
	}
	(void)frame_new(i, MT_DELAY_REQ, HDR_LEN + 10, c->seq_dreq++, 1);
}

/* A Delay_Resp answering one of the window's Delay_Reqs (its seq). */
static void
rx_delay_resp(struct client *c, const uint8_t *h)
{
	uint16_t seq = (uint16_t)(h[30] << 8 | h[31]);

	if (c->dreq_sent > 0 && c->dreq_sent <= 65536 &&
	    (uint16_t)(seq - c->dreq_first) < c->dreq_sent &&
	    c->dreq_answered < c->dreq_sent)
		c->dreq_answered++;
}

static int
k_of(uint8_t type)
{
	int k;

	for (k = 0; k < K_N; k++)
		if (k_type[k] == type)
			return k;
	return -1;
}

static void
rx_signaling(struct client *c, const uint8_t *h, size_t len)
{
	size_t off = HDR_LEN + 10;

	while (off + 4 <= len) {
		uint16_t type = (uint16_t)(h[off] << 8 | h[off + 1]);
		uint16_t tl = (uint16_t)(h[off + 2] << 8 | h[off + 3]);
		int k;

		if (off + 4 + tl > len)
			return;
		if (type == TLV_GRANT && tl >= 8 &&
		    (k = k_of(h[off + 4] >> 4)) >= 0) {
			uint32_t d = (uint32_t)h[off + 6] << 24 |
			    (uint32_t)h[off + 7] << 16 |
			    (uint32_t)h[off + 8] << 8 | h[off + 9];

			if (d == 0) {
				c->refusals[k]++;
				c->granted[k] = 0;
			} else {
				c->grants[k]++;
				c->granted[k] = 1;
				c->granted_log[k] = (int8_t)h[off + 5];
			}
		} else if (type == TLV_CANCEL && tl >= 2 &&
		    (k = k_of(h[off + 4] >> 4)) >= 0) {
			c->granted[k] = 0;
		}
		off += 4 + tl;
	}
}

static void
rx_frame(const uint8_t *f, size_t len, int counting)
{
	const uint8_t *h = f + 14;
	struct client *c;
	int i, k;

	if (len < 14 + HDR_LEN || (i = mac_client(f)) < 0)
		return;
	len -= 14;
	c = &cl[i];
	switch (h[0] & 0x0f) {
	case MT_SIGNALING:
		rx_signaling(c, h, len);
		break;
	case MT_FOLLOW_UP:
		if (counting)
			c->rx_fu++;
		break;
	case MT_DELAY_RESP:
		rx_delay_resp(c, h);
		if (counting)
			c->rx[K_DRESP]++;
		break;
	default:
		if (counting && (k = k_of(h[0] & 0x0f)) >= 0)
			c->rx[k]++;
	}
}

static void
drain(int counting)
{
	static uint8_t buf[BATCH][FRAME_MAX];
	static struct iovec iov[BATCH];
	static struct mmsghdr m[BATCH];
	int i, rc;

	for (;;) {
		for (i = 0; i < BATCH; i++) {
			iov[i].iov_base = buf[i];
			iov[i].iov_len = FRAME_MAX;
			m[i].msg_hdr = (struct msghdr){ .msg_iov = &iov[i],
			    .msg_iovlen = 1 };
		}
		rc = recvmmsg(fd, m, BATCH, MSG_DONTWAIT, NULL);
		if (rc <= 0)
			return;
		for (i = 0; i < rc; i++)
			rx_frame(buf[i], m[i].msg_len, counting);
	}
}

/*
 * Sleep 1 ms off the socket, then drain what came.  Blocking in poll()
 * on the socket instead would make every frame the grandmaster sends
 * wake this process, and on a veth pair the kernel runs that wake-up in
 * the sender's system call: the grandmaster under test would be billed
 * for waking its load generator, a cost that real clients on other hosts
 * never put on it.  Frames wait in the socket's (4 MiB) buffer instead.
 */
static void
sleep_1ms(void)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 1000000 };

	(void)nanosleep(&ts, NULL);
}

/* 2^log seconds. */
static double
interval_s(int8_t log)
{
	return log >= 0 ? (double)(1LL << (log > 30 ? 30 : log)) :
	    1.0 / (double)(1LL << (-log > 30 ? 30 : -log));
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Print min, p1, median of the per-client fractions. */
static void
print_fractions(const char *name, double *v, unsigned int cnt)
{
	if (cnt == 0) {
		printf("\"%s\": null", name);
		return;
	}
	qsort(v, cnt, sizeof(*v), cmp_double);
	printf("\"%s\": {\"min\": %.3f, \"p1\": %.3f, \"median\": %.3f}",
	    name, v[0], v[cnt / 100], v[cnt / 2]);
}

static void
report(double window, int8_t logsync)
{
	unsigned long g[K_N] = { 0 }, r[K_N] = { 0 }, rx[K_N] = { 0 }, fu = 0;
	double *fs = calloc(n, sizeof(double)), *fd_ = calloc(n, sizeof(double));
	unsigned int i, ns = 0, nd = 0, served = 0;
	int k;

	if (fs == NULL || fd_ == NULL)
		exit(1);
	for (i = 0; i < n; i++) {
		for (k = 0; k < K_N; k++) {
			g[k] += cl[i].grants[k];
			r[k] += cl[i].refusals[k];
			rx[k] += cl[i].rx[k];
		}
		fu += cl[i].rx_fu;
		if (cl[i].granted[K_SYNC]) {
			double want = window /
			    interval_s(cl[i].granted_log[K_SYNC]);
			fs[ns++] = cl[i].rx[K_SYNC] / want;
		}
		if (cl[i].granted[K_DRESP] && cl[i].dreq_sent > 0)
			fd_[nd++] = (double)cl[i].dreq_answered /
			    cl[i].dreq_sent;
		if (cl[i].granted[K_SYNC] && cl[i].granted[K_DRESP] &&
		    cl[i].granted[K_ANN])
			served++;
	}
	printf("{\"clients\": %u, \"log_sync\": %d, \"window_s\": %.1f, "
	    "\"served\": %u, ", n, logsync, window, served);
	printf("\"grants\": {\"announce\": %lu, \"sync\": %lu, "
	    "\"delay_resp\": %lu}, ", g[K_ANN], g[K_SYNC], g[K_DRESP]);
	printf("\"refusals\": {\"announce\": %lu, \"sync\": %lu, "
	    "\"delay_resp\": %lu}, ", r[K_ANN], r[K_SYNC], r[K_DRESP]);
	printf("\"rx_per_s\": {\"announce\": %.1f, \"sync\": %.1f, "
	    "\"follow_up\": %.1f, \"delay_resp\": %.1f}, ", rx[K_ANN] / window,
	    rx[K_SYNC] / window, fu / window, rx[K_DRESP] / window);
	print_fractions("sync_fraction", fs, ns);
	printf(", ");
	print_fractions("delay_resp_fraction", fd_, nd);
	printf(", \"send_errors\": %lu}\n", send_errors);
	free(fs);
	free(fd_);
}

int
main(int argc, char **argv)
{
	struct sockaddr_ll sa = { .sll_family = AF_PACKET };
	struct packet_mreq mr = { .mr_type = PACKET_MR_PROMISC };
	int8_t logsync;
	double seconds, warm;
	uint32_t duration = 300;
	int64_t t0, t_end, t_count, t_renew, period, req_base;
	unsigned int req_i = 0, dreq_i = 0, i;
	int64_t dreq_t0;
	int buf = 32 << 20;

	if (argc < 7 || argc > 8 || sscanf(argv[2],
	    "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &gm_mac[0], &gm_mac[1],
	    &gm_mac[2], &gm_mac[3], &gm_mac[4], &gm_mac[5]) != 6) {
		fprintf(stderr, "usage: uclients IFACE GM_MAC N LOGSYNC "
		    "SECONDS WARM [DURATION]\n");
		return 2;
	}
	n = (unsigned int)strtoul(argv[3], NULL, 10);
	logsync = (int8_t)atoi(argv[4]);
	seconds = atof(argv[5]);
	warm = atof(argv[6]);
	if (argc == 8)
		duration = (uint32_t)strtoul(argv[7], NULL, 10);
	if (n == 0 || n > 1000000 || seconds <= 0 || duration < 10)
		return 2;
	if ((cl = calloc(n, sizeof(*cl))) == NULL)
		return 1;
	if ((ifindex = (int)if_nametoindex(argv[1])) == 0 ||
	    (fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_1588))) < 0) {
		perror(argv[1]);
		return 1;
	}
	sa.sll_protocol = htons(ETH_P_1588);
	sa.sll_ifindex = ifindex;
	mr.mr_ifindex = ifindex;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr,
	    sizeof(mr)) != 0) {
		perror("bind/promisc");
		return 1;
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf));
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof(buf));

	t0 = now_ns();
	t_count = t0 + (int64_t)(warm * 1e9);
	t_end = t_count + (int64_t)(seconds * 1e9);
	t_renew = t0 + (int64_t)duration * 1000000000 / 2;
	req_base = t0;
	dreq_t0 = t0 + 1000000000;
	for (;;) {
		int64_t t = now_ns();
		unsigned int due;

		if (t >= t_end)
			break;
		/* requests: spread over one second, renewed at half time */
		if (t >= t_renew) {
			t_renew += (int64_t)duration * 1000000000 / 2;
			req_i = 0;
			req_base = t;
		}
		while (req_i < n &&
		    t >= req_base + (int64_t)req_i * 1000000000 / n)
			send_request(req_i++, logsync, duration);
		/* Delay_Reqs: client i at phase i / n of the period */
		period = 1000000000LL;
		if (logsync >= 0)
			period <<= logsync;
		else
			period >>= -logsync;
		due = t > dreq_t0 ? (unsigned int)(((t - dreq_t0) % period) *
		    (int64_t)n / period) : 0;
		if (t > dreq_t0) {
			while (dreq_i != due) {
				if (cl[dreq_i].granted[K_SYNC] &&
				    cl[dreq_i].granted[K_DRESP])
					send_delay_req(dreq_i);
				dreq_i = (dreq_i + 1) % n;
			}
		}
		flush_out();
		drain(t >= t_count);
		sleep_1ms();
		in_window = now_ns() >= t_count;
	}
	drain(1);
	/* Answers to the window's last Delay_Reqs; nothing more is sent. */
	in_window = 0;
	for (i = 0; i < DRESP_GRACE_MS; i++) {
		sleep_1ms();
		drain(0);
	}
	report(seconds, logsync);
	/* Cancel what was granted (16.1.4.3), so the server frees it. */
	for (i = 0; i < n; i++) {
		uint8_t *h;
		int k;

		h = frame_new(i, MT_SIGNALING, HDR_LEN + 10 + K_N * 6,
		    cl[i].seq_sig++, 5);
		memset(h + HDR_LEN, 0xff, 10);
		for (k = 0; k < K_N; k++) {
			uint8_t *t = h + HDR_LEN + 10 + k * 6;

			t[0] = TLV_CANCEL >> 8;
			t[1] = TLV_CANCEL & 0xff;
			t[3] = 2;
			t[4] = (uint8_t)(k_type[k] << 4);
		}
	}
	flush_out();
	return 0;
}
