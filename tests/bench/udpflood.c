/*
 * udpflood.c - a small-packet UDP flood for tests/bench/traffic.sh.
 *
 *   udpflood tx ADDR PORT SECONDS LEN   send LEN-byte datagrams to ADDR:PORT
 *                                       as fast as sendmmsg() goes; prints
 *                                       "PACKETS SECONDS CPU_SECONDS": sent,
 *                                       wall time, and CPU time of this
 *                                       process (user + system, which on a
 *                                       veth includes the receive path that
 *                                       runs in its context)
 *   udpflood rx ADDR PORT SKIP SECONDS  bind ADDR:PORT, drain the socket,
 *                                       and count what arrives during
 *                                       SECONDS after the first SKIP;
 *                                       prints packets per second, then
 *                                       drains until the flood stops
 *
 * Why not iperf3 -u: iperf3 sends one datagram per system call, and its
 * receiver blocks on an empty socket, so the sender's CPU spends part of
 * its time waking the receiver up, more or less depending on how the two
 * happen to interleave; between identical runs the rate moved by 10%.
 * Here the sender batches (sendmmsg, so the kernel's per-packet path is
 * most of what the sending CPU does) and the receiver polls without
 * sleeping (recvmmsg with MSG_DONTWAIT), so the sender's CPU never wakes
 * anyone and is the only bottleneck: its packet rate is the cost of the
 * per-packet path, taps included.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sendmmsg, recvmmsg */
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH	64
#define MAXLEN	1472

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
open_sock(const char *addr, const char *port, int bind_it)
{
	struct sockaddr_in sin;
	int fd, sz = 4 << 20;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)atoi(port));
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
		fprintf(stderr, "udpflood: bad address %s\n", addr);
		exit(2);
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("udpflood: socket");
		exit(1);
	}
	(void)setsockopt(fd, SOL_SOCKET, bind_it ? SO_RCVBUFFORCE :
	    SO_SNDBUFFORCE, &sz, sizeof(sz));
	if ((bind_it ? bind(fd, (struct sockaddr *)&sin, sizeof(sin)) :
	    connect(fd, (struct sockaddr *)&sin, sizeof(sin))) != 0) {
		perror(bind_it ? "udpflood: bind" : "udpflood: connect");
		exit(1);
	}
	return fd;
}

static int
do_tx(int fd, double secs, int len)
{
	static char buf[MAXLEN];
	struct mmsghdr m[BATCH];
	struct iovec iov;
	struct rusage ru;
	unsigned long long sent = 0;
	double t0, t;
	int i, n;

	iov.iov_base = buf;
	iov.iov_len = (size_t)len;
	memset(m, 0, sizeof(m));
	for (i = 0; i < BATCH; i++) {
		m[i].msg_hdr.msg_iov = &iov;
		m[i].msg_hdr.msg_iovlen = 1;
	}
	t0 = now();
	do {
		n = sendmmsg(fd, m, BATCH, 0);
		if (n > 0)
			sent += (unsigned)n;
		else if (n < 0 && errno != ENOBUFS && errno != EAGAIN &&
		    errno != EINTR && errno != ECONNREFUSED) {
			perror("udpflood: sendmmsg");
			return 1;
		}
		t = now();
	} while (t - t0 < secs);
	if (getrusage(RUSAGE_SELF, &ru) != 0) {
		perror("udpflood: getrusage");
		return 1;
	}
	printf("%llu %.6f %.6f\n", sent, t - t0,
	    (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6);
	return 0;
}

static int
do_rx(int fd, double skip, double secs)
{
	static char bufs[BATCH][MAXLEN];
	struct mmsghdr m[BATCH];
	struct iovec iov[BATCH];
	unsigned long long got = 0;
	double t0 = 0, t, last, start = now();
	int i, n;

	memset(m, 0, sizeof(m));
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = bufs[i];
		iov[i].iov_len = MAXLEN;
		m[i].msg_hdr.msg_iov = &iov[i];
		m[i].msg_hdr.msg_iovlen = 1;
	}
	for (;;) {
		n = recvmmsg(fd, m, BATCH, MSG_DONTWAIT, NULL);
		t = now();
		if (n > 0 && t0 == 0)
			t0 = t;	/* the flood started */
		if (t0 != 0 && t - t0 >= skip) {
			if (n > 0)
				got += (unsigned)n;
			if (t - t0 >= skip + secs)
				break;
		}
		if (t0 == 0 && t - start > 30) {
			fprintf(stderr, "udpflood: no packet in 30 s\n");
			return 1;
		}
	}
	printf("%.0f\n", (double)got / (t - t0 - skip));
	fflush(stdout);
	/* Keep draining until the flood has stopped for half a second, so
	 * that every packet of it takes the same path into this socket. */
	last = t;
	while (t - last < 0.5) {
		n = recvmmsg(fd, m, BATCH, MSG_DONTWAIT, NULL);
		t = now();
		if (n > 0)
			last = t;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 6 && strcmp(argv[1], "tx") == 0) {
		int len = atoi(argv[5]);

		if (len < 1 || len > MAXLEN)
			return 2;
		return do_tx(open_sock(argv[2], argv[3], 0), atof(argv[4]), len);
	}
	if (argc == 6 && strcmp(argv[1], "rx") == 0)
		return do_rx(open_sock(argv[2], argv[3], 1), atof(argv[4]),
		    atof(argv[5]));
	fprintf(stderr, "usage: udpflood tx ADDR PORT SECONDS LEN\n"
	    "       udpflood rx ADDR PORT SKIP SECONDS\n");
	return 2;
}
