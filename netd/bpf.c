/*
 * bpf.c - classic BPF filters for ptp-netd's sockets.
 *
 * The filter is the kernel-side twin of transport_check_rx(): both accept a
 * message when versionPTP (low nibble of byte 1) is 2, messageType (low
 * nibble of byte 0) lies in the socket's class and the message is at least
 * PTP_MIN_MSG_LEN bytes (IEEE 1588-2019 13.3: 34-byte header plus the
 * smallest body, the 10-byte timestamp of Sync/Delay_Req/Follow_Up or the
 * targetPortIdentity of Signaling).  transportSpecific/majorSdoId and
 * minorVersionPTP (the high nibbles) are left to clockd.
 */
#include "config.h"

#include <errno.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "bpf.h"
#include "log.h"

#ifndef SO_LOCK_FILTER
#define SO_LOCK_FILTER	44
#endif

#define STMT(c, k)		((struct sock_filter){ (c), 0, 0, (k) })
#define JUMP(c, k, jt, jf)	((struct sock_filter){ (c), (jt), (jf), (k) })

int
bpf_build_ptp(struct sock_filter *prog, size_t cap, unsigned int off,
    enum transport_class cls, int check_pkttype)
{
	struct sock_filter p[BPF_PROG_MAX];
	int n = 0, i, drop;
	unsigned int lo, hi;

	if (cls == TC_EVENT) {
		lo = 0x0;	/* Sync */
		hi = 0x3;	/* Pdelay_Resp */
	} else if (cls == TC_GENERAL) {
		lo = 0x8;	/* Follow_Up */
		hi = 0xD;	/* Management */
	} else
		return -EINVAL;

	/*
	 * Every check jumps forward to the final "ret #0"; the jump offsets
	 * are filled in once the length of the program is known (drop marks
	 * them with jf/jt == 0xff until then).
	 */
	p[n++] = STMT(BPF_LD | BPF_W | BPF_LEN, 0);
	p[n++] = JUMP(BPF_JMP | BPF_JGE | BPF_K, off + PTP_MIN_MSG_LEN, 0, 0xff);
	if (check_pkttype) {
		/* HOST, BROADCAST and MULTICAST are 0..2; OTHERHOST is 3. */
		p[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_PKTTYPE);
		p[n++] = JUMP(BPF_JMP | BPF_JGT | BPF_K, PACKET_MULTICAST, 0xff, 0);
	}
	p[n++] = STMT(BPF_LD | BPF_B | BPF_ABS, off + 1);
	p[n++] = STMT(BPF_ALU | BPF_AND | BPF_K, 0x0f);
	p[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 0xff);
	p[n++] = STMT(BPF_LD | BPF_B | BPF_ABS, off);
	p[n++] = STMT(BPF_ALU | BPF_AND | BPF_K, 0x0f);
	p[n++] = JUMP(BPF_JMP | BPF_JGE | BPF_K, lo, 0, 0xff);
	p[n++] = JUMP(BPF_JMP | BPF_JGT | BPF_K, hi, 0xff, 0);
	p[n++] = STMT(BPF_RET | BPF_K, 0xffffffffU);	/* whole packet */
	drop = n;
	p[n++] = STMT(BPF_RET | BPF_K, 0);

	if ((size_t)n > cap)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (BPF_CLASS(p[i].code) == BPF_JMP) {
			if (p[i].jt == 0xff)
				p[i].jt = (uint8_t)(drop - i - 1);
			if (p[i].jf == 0xff)
				p[i].jf = (uint8_t)(drop - i - 1);
		}
		prog[i] = p[i];
	}
	return n;
}

int
bpf_build_for(struct sock_filter *prog, size_t cap, enum transport_kind kind,
    enum transport_class cls)
{
	switch (kind) {
	case TR_L2:
		return bpf_build_ptp(prog, cap, BPF_L2_PAYLOAD_OFF, cls, 1);
	case TR_UDP4:
	case TR_UDP6:
		/* Only frames for this host reach a UDP socket. */
		return bpf_build_ptp(prog, cap, BPF_UDP_PAYLOAD_OFF, cls, 0);
	}
	return -EINVAL;
}

int
bpf_attach(int fd, enum transport_kind kind, enum transport_class cls)
{
	struct sock_filter prog[BPF_PROG_MAX];
	struct sock_fprog fprog;
	int n, one = 1;

	if ((n = bpf_build_for(prog, BPF_PROG_MAX, kind, cls)) < 0)
		return n;
	fprog.len = (unsigned short)n;
	fprog.filter = prog;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fprog,
	    sizeof(fprog)) == -1) {
		n = -errno;
		log_warn("SO_ATTACH_FILTER");
		return n;
	}
	/* Nobody, not even a later bug in netd, may swap the filter out. */
	if (setsockopt(fd, SOL_SOCKET, SO_LOCK_FILTER, &one, sizeof(one)) == -1) {
		n = -errno;
		log_warn("SO_LOCK_FILTER");
		return n;
	}
	return 0;
}
