/*
 * test_netd_bpf.c - netd's classic BPF filters, run by a small classic-BPF
 * interpreter over crafted frames, plus the pure helpers of the transport
 * (destination MACs, payload checks, the peer table).
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <linux/filter.h>
#include <linux/if_packet.h>

#include "netd/bpf.h"
#include "netd/transport.h"

/*
 * Interprets the subset of classic BPF the filters use, with the kernel's
 * semantics: loads beyond the packet end the program with 0 (drop).
 */
static uint32_t
bpf_run(const struct sock_filter *prog, int n, const uint8_t *pkt, size_t len,
    uint32_t pkttype)
{
	uint32_t a = 0, k;
	int pc;

	for (pc = 0; pc < n; pc++) {
		const struct sock_filter *f = &prog[pc];

		k = f->k;
		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
		case BPF_LD | BPF_H | BPF_ABS:
		case BPF_LD | BPF_B | BPF_ABS:
			if (k >= (uint32_t)SKF_AD_OFF) {
				/* Only the ancillary load the filters use. */
				assert_int_equal(k, (uint32_t)SKF_AD_OFF + SKF_AD_PKTTYPE);
				a = pkttype;
			} else if (BPF_SIZE(f->code) == BPF_B) {
				if (k + 1 > len)
					return 0;
				a = pkt[k];
			} else if (BPF_SIZE(f->code) == BPF_H) {
				if (k + 2 > len)
					return 0;
				a = (uint32_t)pkt[k] << 8 | pkt[k + 1];
			} else {
				if (k + 4 > len)
					return 0;
				a = (uint32_t)pkt[k] << 24 | (uint32_t)pkt[k + 1] << 16 |
				    (uint32_t)pkt[k + 2] << 8 | pkt[k + 3];
			}
			break;
		case BPF_LD | BPF_W | BPF_LEN:
			a = (uint32_t)len;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JGT | BPF_K:
			pc += a > k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JSET | BPF_K:
			pc += (a & k) ? f->jt : f->jf;
			break;
		case BPF_RET | BPF_K:
			return k;
		default:
			fail_msg("opcode 0x%x not interpreted", f->code);
		}
		assert_true(pc + 1 <= n);	/* no jump past the end */
	}
	fail_msg("program fell off its end");
	return 0;
}

/* A PTPv2 message of type t, length len, at off in pkt. */
static size_t
craft(uint8_t *pkt, size_t off, uint8_t type, uint8_t version, size_t len)
{
	memset(pkt, 0, off + len);
	if (off == 14) {
		memcpy(pkt, "\x01\x1b\x19\x00\x00\x00\x02\x00\x00\x00\x00\x01", 12);
		pkt[12] = 0x88;
		pkt[13] = 0xf7;
	} else if (off == 8) {
		pkt[1] = 0x9f;	/* source port 319 */
		pkt[3] = 0x3f;
	}
	pkt[off] = type;
	pkt[off + 1] = version;
	pkt[off + 2] = (uint8_t)(len >> 8);
	pkt[off + 3] = (uint8_t)len;
	return off + len;
}

static int
verdict(enum transport_kind kind, enum transport_class cls, uint8_t type,
    uint8_t version, size_t len, uint32_t pkttype)
{
	struct sock_filter prog[BPF_PROG_MAX];
	uint8_t pkt[256];
	size_t off = kind == TR_L2 ? BPF_L2_PAYLOAD_OFF : BPF_UDP_PAYLOAD_OFF;
	size_t n;
	int np;

	np = bpf_build_for(prog, BPF_PROG_MAX, kind, cls);
	assert_true(np > 0);
	n = craft(pkt, off, type, version, len);
	return bpf_run(prog, np, pkt, n, pkttype) != 0;
}

static void
test_l2_classes(void **state)
{
	uint8_t t;

	(void)state;
	for (t = 0; t < 16; t++) {
		int ev = t <= 3, gen = t >= 8 && t <= 0xd;

		assert_int_equal(verdict(TR_L2, TC_EVENT, t, 2, 44,
		    PACKET_MULTICAST), ev);
		assert_int_equal(verdict(TR_L2, TC_GENERAL, t, 2, 64,
		    PACKET_HOST), gen);
		/* transportSpecific / majorSdoId (high nibble) is ignored */
		assert_int_equal(verdict(TR_L2, TC_EVENT, (uint8_t)(0x10 | t), 2,
		    44, PACKET_HOST), ev);
	}
}

static void
test_l2_version(void **state)
{
	(void)state;
	assert_false(verdict(TR_L2, TC_EVENT, 0, 1, 44, PACKET_HOST));
	assert_false(verdict(TR_L2, TC_EVENT, 0, 3, 44, PACKET_HOST));
	assert_false(verdict(TR_L2, TC_GENERAL, 0xb, 0, 64, PACKET_HOST));
	/* minorVersionPTP 1 (IEEE 1588-2019 is 2.1) */
	assert_true(verdict(TR_L2, TC_EVENT, 0, 0x12, 44, PACKET_HOST));
}

static void
test_l2_length(void **state)
{
	(void)state;
	assert_true(verdict(TR_L2, TC_EVENT, 0, 2, PTP_MIN_MSG_LEN, PACKET_HOST));
	assert_false(verdict(TR_L2, TC_EVENT, 0, 2, PTP_MIN_MSG_LEN - 1,
	    PACKET_HOST));
	assert_false(verdict(TR_L2, TC_EVENT, 0, 2, PTP_HDR_LEN, PACKET_HOST));
	assert_false(verdict(TR_L2, TC_GENERAL, 8, 2, 2, PACKET_HOST));
	assert_false(verdict(TR_L2, TC_GENERAL, 8, 2, 0, PACKET_HOST));
}

static void
test_l2_pkttype(void **state)
{
	(void)state;
	assert_true(verdict(TR_L2, TC_EVENT, 0, 2, 44, PACKET_HOST));
	assert_true(verdict(TR_L2, TC_EVENT, 0, 2, 44, PACKET_BROADCAST));
	assert_true(verdict(TR_L2, TC_EVENT, 0, 2, 44, PACKET_MULTICAST));
	assert_false(verdict(TR_L2, TC_EVENT, 0, 2, 44, PACKET_OTHERHOST));
	assert_false(verdict(TR_L2, TC_EVENT, 0, 2, 44, PACKET_OUTGOING));
	assert_false(verdict(TR_L2, TC_GENERAL, 0xb, 2, 64, PACKET_OTHERHOST));
}

static void
test_udp_offsets(void **state)
{
	(void)state;
	/* The UDP filter reads the payload 8 bytes in, after the UDP header. */
	assert_true(verdict(TR_UDP4, TC_EVENT, 0, 2, 44, PACKET_HOST));
	assert_true(verdict(TR_UDP6, TC_GENERAL, 0xb, 2, 64, PACKET_HOST));
	assert_false(verdict(TR_UDP4, TC_EVENT, 0xb, 2, 64, PACKET_HOST));
	assert_false(verdict(TR_UDP4, TC_GENERAL, 0x0, 2, 44, PACKET_HOST));
	assert_false(verdict(TR_UDP6, TC_EVENT, 0, 1, 44, PACKET_HOST));
	assert_false(verdict(TR_UDP4, TC_EVENT, 0, 2, 43, PACKET_HOST));
	/* No pkttype test on UDP: OTHERHOST never reaches a UDP socket. */
	assert_true(verdict(TR_UDP4, TC_EVENT, 0, 2, 44, PACKET_OTHERHOST));
}

static void
test_udp_non_ptp(void **state)
{
	struct sock_filter prog[BPF_PROG_MAX];
	uint8_t pkt[128];
	int np;

	(void)state;
	np = bpf_build_for(prog, BPF_PROG_MAX, TR_UDP4, TC_EVENT);
	/* An NTP-looking datagram, a DNS-looking one, zeros, and garbage. */
	memset(pkt, 0, sizeof(pkt));
	pkt[8] = 0x23;
	assert_int_equal(bpf_run(prog, np, pkt, 56, 0), 0);
	pkt[8] = 0x12; pkt[9] = 0x34; pkt[10] = 0x01;
	assert_int_equal(bpf_run(prog, np, pkt, 60, 0), 0);
	memset(pkt, 0, sizeof(pkt));
	assert_int_equal(bpf_run(prog, np, pkt, 100, 0), 0);
	memset(pkt, 0xff, sizeof(pkt));
	assert_int_equal(bpf_run(prog, np, pkt, 100, 0), 0);
	/* Empty and tiny datagrams. */
	assert_int_equal(bpf_run(prog, np, pkt, 8, 0), 0);
	assert_int_equal(bpf_run(prog, np, pkt, 0, 0), 0);
}

static void
test_build_errors(void **state)
{
	struct sock_filter prog[BPF_PROG_MAX];

	(void)state;
	assert_int_equal(bpf_build_ptp(prog, 3, 14, TC_EVENT, 1), -EINVAL);
	assert_int_equal(bpf_build_ptp(prog, BPF_PROG_MAX, 14, TC_NUM, 1),
	    -EINVAL);
	assert_int_equal(bpf_build_for(prog, BPF_PROG_MAX, (enum transport_kind)7,
	    TC_EVENT), -EINVAL);
}

static void
test_dest_mac(void **state)
{
	struct transport_dest d;
	uint8_t mac[6];

	(void)state;
	memset(&d, 0, sizeof(d));
	d.kind = TD_PRIMARY;
	assert_int_equal(transport_dest_mac(&d, mac), 0);
	assert_memory_equal(mac, "\x01\x1b\x19\x00\x00\x00", 6);
	d.kind = TD_PDELAY;
	assert_int_equal(transport_dest_mac(&d, mac), 0);
	assert_memory_equal(mac, "\x01\x80\xc2\x00\x00\x0e", 6);
	d.kind = TD_UNICAST;
	d.addr.len = 6;
	memcpy(d.addr.b, "\x02\x11\x22\x33\x44\x55", 6);
	assert_int_equal(transport_dest_mac(&d, mac), 0);
	assert_memory_equal(mac, "\x02\x11\x22\x33\x44\x55", 6);
	d.addr.b[0] = 0x03;	/* group bit */
	assert_int_equal(transport_dest_mac(&d, mac), -EINVAL);
	memset(d.addr.b, 0, 6);
	assert_int_equal(transport_dest_mac(&d, mac), -EINVAL);
	d.addr.len = 4;
	assert_int_equal(transport_dest_mac(&d, mac), -EINVAL);
}

static void
test_check_payload(void **state)
{
	uint8_t p[128];

	(void)state;
	craft(p, 0, 0x0, 2, 44);
	assert_int_equal(transport_check_payload(TC_EVENT, p, 44), 0);
	assert_int_equal(transport_check_payload(TC_GENERAL, p, 44), -EINVAL);
	/* messageLength must equal what is sent */
	assert_int_equal(transport_check_payload(TC_EVENT, p, 45), -EINVAL);
	assert_int_equal(transport_check_payload(TC_EVENT, p, 43), -EINVAL);
	p[1] = 1;
	assert_int_equal(transport_check_payload(TC_EVENT, p, 44), -EINVAL);
	craft(p, 0, 0xb, 2, 64);
	assert_int_equal(transport_check_payload(TC_GENERAL, p, 64), 0);
	assert_int_equal(transport_check_payload(TC_GENERAL, NULL, 64), -EINVAL);

	/* receive side: padding allowed, truncation not */
	craft(p, 0, 0x0, 2, 44);
	assert_int_equal(transport_check_rx(TC_EVENT, p, 46), TRV_OK);
	p[3] = 50;
	assert_int_equal(transport_check_rx(TC_EVENT, p, 46), TRV_BAD_LENGTH);
	assert_int_equal(transport_check_rx(TC_EVENT, p, 20), TRV_TOO_SHORT);
	assert_int_equal(transport_check_rx(TC_GENERAL, p, 50), TRV_WRONG_CLASS);
	p[1] = 1;
	assert_int_equal(transport_check_rx(TC_EVENT, p, 50), TRV_BAD_VERSION);
}

static void
mac_addr(struct transport_addr *a, unsigned int i)
{
	memset(a, 0, sizeof(*a));
	a->len = 6;
	a->b[0] = 0x02;
	a->b[4] = (uint8_t)(i >> 8);
	a->b[5] = (uint8_t)i;
}

static void
test_peers(void **state)
{
	static const struct transport_peer_params pp = { 64, 3900, 0, 1 };
	static struct transport_port port;
	struct transport_addr a, v4;
	unsigned int i;

	(void)state;
	memset(&port, 0, sizeof(port));
	mac_addr(&a, 1);
	/* No table (never opened): nothing is known. */
	assert_false(transport_peer_known(&port, &a));
	assert_int_equal(transport_peers_init(&port.peers, &pp, NULL), 0);
	assert_false(transport_peer_known(&port, &a));
	transport_peer_learn(&port.peers, &a, transport_now_ms());
	assert_true(transport_peer_known(&port, &a));
	/* same bytes, other length: an IPv4 address is not that MAC */
	memset(&v4, 0, sizeof(v4));
	v4.len = 4;
	memcpy(v4.b, a.b, 4);
	assert_false(transport_peer_known(&port, &v4));

	/* A configured peer survives any number of learned ones. */
	mac_addr(&a, 1000);
	assert_int_equal(transport_peer_add(&port, &a), 0);
	for (i = 2; i < 2 + 3 * pp.max; i++) {
		struct transport_addr b;

		mac_addr(&b, i);
		transport_peer_learn(&port.peers, &b, transport_now_ms());
		/* peer 2 keeps talking */
		mac_addr(&b, 2);
		transport_peer_learn(&port.peers, &b, transport_now_ms());
	}
	assert_int_equal(port.peers.count, pp.max);
	assert_true(transport_peer_known(&port, &a));
	mac_addr(&a, 2);
	assert_true(transport_peer_known(&port, &a));	/* recently heard */
	mac_addr(&a, 1);
	assert_false(transport_peer_known(&port, &a));	/* evicted */
	mac_addr(&a, 1 + 3 * pp.max);
	assert_true(transport_peer_known(&port, &a));	/* the last one */
	a.len = 5;
	assert_int_equal(transport_peer_add(&port, &a), -EINVAL);
	transport_peers_free(&port.peers);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_l2_classes),
		cmocka_unit_test(test_l2_version),
		cmocka_unit_test(test_l2_length),
		cmocka_unit_test(test_l2_pkttype),
		cmocka_unit_test(test_udp_offsets),
		cmocka_unit_test(test_udp_non_ptp),
		cmocka_unit_test(test_build_errors),
		cmocka_unit_test(test_dest_mac),
		cmocka_unit_test(test_check_payload),
		cmocka_unit_test(test_peers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
