/*
 * test_uneg.c - unicast negotiation's decisions (clockd/uneg.c, IEEE
 * 1588-2019 16.1) on fake time: grants, refusals at each limit, renewal,
 * expiry, cancel and its acknowledgement, unknown cancels, the send
 * schedule, a flood of identities against the table's bound; and the
 * client's states as linuxptp's.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "clockd/uneg.h"

#define S	1000000000LL

static struct ptp_port_identity
pid_of(unsigned n)
{
	struct ptp_port_identity p;

	memset(&p, 0, sizeof(p));
	p.clock_identity[0] = 0x02;
	p.clock_identity[5] = (uint8_t)(n >> 16);
	p.clock_identity[6] = (uint8_t)(n >> 8);
	p.clock_identity[7] = (uint8_t)n;
	p.port_number = 1;
	return p;
}

static struct netd_addr
ip_of(unsigned n)
{
	struct netd_addr a;

	memset(&a, 0, sizeof(a));
	a.family = NETD_AF_IPV4;
	a.len = 4;
	a.b[0] = 10;
	a.b[1] = (uint8_t)(n >> 16);
	a.b[2] = (uint8_t)(n >> 8);
	a.b[3] = (uint8_t)n;
	return a;
}

static struct ptp_uneg_tlv
req(unsigned mt, int8_t log_period, uint32_t dur)
{
	struct ptp_uneg_tlv t;

	memset(&t, 0, sizeof(t));
	t.type = PTP_TLV_REQUEST_UNICAST_TRANSMISSION;
	t.message_type = (uint8_t)mt;
	t.log_period = log_period;
	t.duration = dur;
	return t;
}

static const struct uneg_limits lim = { 4, -4, 300 };

/*
 * A fleet's keys differ in a few low-order octets (sequential MACs, as
 * tests/bench/uclients makes, with EUI-64 clock identities; or addresses
 * in one subnet), and the grant table takes the hash's low bits: 1,000
 * such keys must spread over 1,024 buckets as random keys would (about
 * 640 used, chains of a few), not over 161 with chains of 28 as FNV-1a's
 * low bits alone did.
 */
static void
spread(int use_ip, unsigned *used, unsigned *longest)
{
	static unsigned n[1024];
	unsigned i;

	memset(n, 0, sizeof(n));
	*used = *longest = 0;
	for (i = 0; i < 1000; i++) {
		struct ptp_port_identity p;
		struct netd_addr a;
		uint32_t v = i + 1, b;

		memset(&p, 0, sizeof(p));
		memset(&a, 0, sizeof(a));
		if (use_ip) {
			p = pid_of(i);
			a = ip_of(i);
		} else {
			/* MAC 02:00:vv:vv:vv:vv; identity 02:00:vv:ff:fe:vv:vv:vv */
			a.family = NETD_AF_MAC;
			a.len = 6;
			a.b[0] = 0x02;
			a.b[2] = (uint8_t)(v >> 24);
			a.b[3] = (uint8_t)(v >> 16);
			a.b[4] = (uint8_t)(v >> 8);
			a.b[5] = (uint8_t)v;
			memcpy(p.clock_identity, a.b, 3);
			p.clock_identity[3] = 0xff;
			p.clock_identity[4] = 0xfe;
			memcpy(p.clock_identity + 5, a.b + 3, 3);
			p.port_number = 1;
		}
		b = uneg_key_hash(&p, &a) & 1023;
		if (n[b]++ == 0)
			(*used)++;
		if (n[b] > *longest)
			*longest = n[b];
	}
}

static void
test_key_spread(void **state)
{
	unsigned used, longest;

	(void)state;
	spread(0, &used, &longest);
	print_message("sequential MACs: %u of 1024 buckets, longest %u\n",
	    used, longest);
	assert_true(used >= 560);
	assert_true(longest <= 7);
	spread(1, &used, &longest);
	print_message("one subnet's addresses: %u of 1024 buckets, longest "
	    "%u\n", used, longest);
	assert_true(used >= 560);
	assert_true(longest <= 7);
}

static void
test_srv_grant(void **state)
{
	struct ptp_port_identity p = pid_of(1);
	struct netd_addr a = ip_of(1);
	struct ptp_uneg_tlv r, g;
	struct uneg_srv s;

	(void)state;
	assert_int_equal(uneg_srv_init(&s, &lim), 0);
	r = req(PTP_MT_SYNC, -3, 60);
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, 10 * S, &g), 1);
	assert_int_equal(g.type, PTP_TLV_GRANT_UNICAST_TRANSMISSION);
	assert_int_equal(g.message_type, PTP_MT_SYNC);
	assert_int_equal(g.log_period, -3);
	assert_int_equal(g.duration, 60);
	assert_int_equal(g.renewal_invited, 1);
	assert_int_equal(s.nclients, 1);
	assert_true(uneg_srv_has(&s, &p, &a, UNEG_SYNC, 69 * S));
	assert_false(uneg_srv_has(&s, &p, &a, UNEG_ANNOUNCE, 11 * S));
	/* the same identity from another address is another client */
	a.b[3] = 99;
	assert_false(uneg_srv_has(&s, &p, &a, UNEG_SYNC, 11 * S));
	a.b[3] = 1;
	/* more than max_duration asked: granted for max_duration */
	r = req(PTP_MT_ANNOUNCE, 1, 3600);
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, 10 * S, &g), 1);
	assert_int_equal(g.duration, 300);
	assert_int_equal(s.nclients, 1);
	assert_int_equal(s.st.granted, 2);
	uneg_srv_fini(&s);
}

static void
test_srv_refusals(void **state)
{
	struct ptp_port_identity p = pid_of(1);
	struct netd_addr a = ip_of(1);
	struct ptp_uneg_tlv r, g;
	struct uneg_srv s;
	unsigned i;

	(void)state;
	assert_int_equal(uneg_srv_init(&s, &lim), 0);
	/* faster than min_log_period (2^-4): GRANT with duration 0 */
	r = req(PTP_MT_SYNC, -5, 60);
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, S, &g), 0);
	assert_int_equal(g.type, PTP_TLV_GRANT_UNICAST_TRANSMISSION);
	assert_int_equal(g.duration, 0);
	assert_int_equal(g.log_period, -5);
	assert_int_equal(g.message_type, PTP_MT_SYNC);
	assert_int_equal(s.st.refused_period, 1);
	/* linuxptp's bound: |period| <= 30 */
	r = req(PTP_MT_ANNOUNCE, 31, 60);
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, S, &g), 0);
	/* a duration of 0 */
	r = req(PTP_MT_ANNOUNCE, 0, 0);
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, S, &g), 0);
	assert_int_equal(s.st.refused_duration, 1);
	/* nothing refused takes a slot */
	assert_int_equal(s.nclients, 0);
	/* the table's bound: four clients, the fifth refused */
	r = req(PTP_MT_ANNOUNCE, 0, 60);
	for (i = 0; i < 4; i++) {
		p = pid_of(i);
		a = ip_of(i);
		assert_int_equal(uneg_srv_request(&s, &p, &a, &r, S, &g), 1);
	}
	p = pid_of(4);
	a = ip_of(4);
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, S, &g), 0);
	assert_int_equal(g.duration, 0);
	assert_int_equal(s.st.refused_full, 1);
	/* an existing client still gets more types */
	p = pid_of(2);
	a = ip_of(2);
	r = req(PTP_MT_DELAY_RESP, -4, 60);
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, S, &g), 1);
	assert_int_equal(s.nclients, 4);
	assert_int_equal(s.st.refused, 4);
	uneg_srv_fini(&s);
}

static void
test_srv_expiry_renewal(void **state)
{
	struct ptp_port_identity p = pid_of(7);
	struct netd_addr a = ip_of(7);
	struct ptp_uneg_tlv r, g;
	struct uneg_srv s;

	(void)state;
	assert_int_equal(uneg_srv_init(&s, &lim), 0);
	r = req(PTP_MT_ANNOUNCE, 0, 60);
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, 0, &g), 1);
	/* renewed at 45 s: now lasts until 105 s */
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, 45 * S, &g), 1);
	uneg_srv_expire(&s, 100 * S);
	assert_true(uneg_srv_has(&s, &p, &a, UNEG_ANNOUNCE, 100 * S));
	assert_int_equal(s.nclients, 1);
	/* not served past its end, forgotten at expiry */
	assert_false(uneg_srv_has(&s, &p, &a, UNEG_ANNOUNCE, 105 * S));
	uneg_srv_expire(&s, 105 * S);
	assert_int_equal(s.nclients, 0);
	assert_int_equal(s.st.expired, 1);
	assert_int_equal(uneg_srv_next_due(&s, UNEG_ANNOUNCE), INT64_MAX);
	uneg_srv_fini(&s);
}

static void
test_srv_cancel(void **state)
{
	struct ptp_port_identity p = pid_of(3);
	struct netd_addr a = ip_of(3);
	struct ptp_uneg_tlv r, g, c, ack;
	struct uneg_srv s;

	(void)state;
	assert_int_equal(uneg_srv_init(&s, &lim), 0);
	memset(&c, 0, sizeof(c));
	c.type = PTP_TLV_CANCEL_UNICAST_TRANSMISSION;
	c.message_type = PTP_MT_SYNC;
	/* unknown: answered, nothing changes */
	assert_int_equal(uneg_srv_cancel(&s, &p, &a, &c, &ack), 0);
	assert_int_equal(ack.type, PTP_TLV_ACK_CANCEL_UNICAST_TRANSMISSION);
	assert_int_equal(ack.message_type, PTP_MT_SYNC);
	assert_int_equal(s.st.unknown_cancels, 1);
	assert_int_equal(s.nclients, 0);

	r = req(PTP_MT_ANNOUNCE, 0, 60);
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, 0, &g), 1);
	r = req(PTP_MT_SYNC, 0, 60);
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, 0, &g), 1);
	/* a cancel from another address is unknown too */
	a.b[3] = 4;
	assert_int_equal(uneg_srv_cancel(&s, &p, &a, &c, &ack), 0);
	a.b[3] = 3;
	assert_true(uneg_srv_has(&s, &p, &a, UNEG_SYNC, S));
	assert_int_equal(uneg_srv_cancel(&s, &p, &a, &c, &ack), 1);
	assert_false(uneg_srv_has(&s, &p, &a, UNEG_SYNC, S));
	assert_true(uneg_srv_has(&s, &p, &a, UNEG_ANNOUNCE, S));
	assert_int_equal(s.nclients, 1);
	c.message_type = PTP_MT_ANNOUNCE;
	assert_int_equal(uneg_srv_cancel(&s, &p, &a, &c, &ack), 1);
	assert_int_equal(s.nclients, 0);
	assert_int_equal(s.st.cancelled, 2);
	assert_int_equal(s.st.unknown_cancels, 2);
	uneg_srv_fini(&s);
}

/* Each grant is served once per period on its grid; late wake-ups skip. */
static void
test_srv_schedule(void **state)
{
	struct ptp_port_identity p1 = pid_of(1), p2 = pid_of(2);
	struct netd_addr a1 = ip_of(1), a2 = ip_of(2);
	struct ptp_uneg_tlv r, g;
	struct uneg_srv s;
	uint32_t due[8];
	int64_t t;
	unsigned n, sent1 = 0, sent2 = 0;

	(void)state;
	assert_int_equal(uneg_srv_init(&s, &lim), 0);
	r = req(PTP_MT_SYNC, 0, 60);		/* 1/s */
	assert_int_equal(uneg_srv_request(&s, &p1, &a1, &r, S / 3, &g), 1);
	r = req(PTP_MT_SYNC, -2, 60);		/* 4/s */
	assert_int_equal(uneg_srv_request(&s, &p2, &a2, &r, S / 3, &g), 1);
	assert_int_equal(uneg_srv_next_due(&s, UNEG_SYNC), S / 2);
	assert_int_equal(uneg_srv_due(&s, UNEG_ANNOUNCE, S, due, 8), 0);
	/* 10 s of wake-ups at whatever is next due */
	for (t = uneg_srv_next_due(&s, UNEG_SYNC); t < 10 * S + S / 3;
	    t = uneg_srv_next_due(&s, UNEG_SYNC)) {
		n = uneg_srv_due(&s, UNEG_SYNC, t, due, 8);
		assert_true(n >= 1);
		while (n-- > 0) {
			if (s.c[due[n]].pid.clock_identity[7] == 1)
				sent1++;
			else
				sent2++;
		}
	}
	assert_int_equal(sent1, 10);		/* 1 s .. 10 s */
	assert_int_equal(sent2, 40);		/* 0.5 s .. 10.25 s */
	/* a wake-up 3.3 periods late sends one, not a burst */
	t = uneg_srv_next_due(&s, UNEG_SYNC) + 3 * S + S / 3;
	assert_int_equal(uneg_srv_due(&s, UNEG_SYNC, t, due, 8), 2);
	assert_int_equal(uneg_srv_due(&s, UNEG_SYNC, t, due, 8), 0);
	/* past the grant's end nothing is served */
	assert_int_equal(uneg_srv_due(&s, UNEG_SYNC, 61 * S, due, 8), 0);
	uneg_srv_fini(&s);
}

/*
 * After netd lost its peers (a port reopen, a new netd) a client is not
 * sent to until heard again: netd would refuse the frame and close the
 * connection.  Its slots pass meanwhile (no busy timer), its grant runs on.
 */
static void
test_srv_unheard(void **state)
{
	struct ptp_port_identity p = pid_of(5), q = pid_of(6);
	struct netd_addr a = ip_of(5);
	struct ptp_uneg_tlv r, g;
	struct uneg_srv s;
	uint32_t due[4];

	(void)state;
	assert_int_equal(uneg_srv_init(&s, &lim), 0);
	r = req(PTP_MT_SYNC, 0, 60);
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, 0, &g), 1);
	assert_int_equal(uneg_srv_due(&s, UNEG_SYNC, 0, due, 4), 1);
	uneg_srv_unheard(&s);
	assert_int_equal(uneg_srv_due(&s, UNEG_SYNC, S, due, 4), 0);
	assert_int_equal(uneg_srv_next_due(&s, UNEG_SYNC), 2 * S);
	/* another identity at the same address is not this client */
	uneg_srv_heard(&s, &q, &a);
	assert_int_equal(uneg_srv_due(&s, UNEG_SYNC, 2 * S, due, 4), 0);
	uneg_srv_heard(&s, &p, &a);
	assert_int_equal(uneg_srv_due(&s, UNEG_SYNC, 3 * S, due, 4), 1);
	assert_true(uneg_srv_has(&s, &p, &a, UNEG_SYNC, 3 * S));
	/* a renewal is hearing it too */
	uneg_srv_unheard(&s);
	assert_int_equal(uneg_srv_request(&s, &p, &a, &r, 4 * S, &g), 1);
	assert_int_equal(uneg_srv_due(&s, UNEG_SYNC, 4 * S, due, 4), 1);
	uneg_srv_fini(&s);
}

/* Many identities from many addresses: the table holds its bound. */
static void
test_srv_flood(void **state)
{
	static const struct uneg_limits big = { 1000, -7, 1000 };
	struct ptp_port_identity p;
	struct ptp_uneg_tlv r, g, c, ack;
	struct netd_addr a;
	struct uneg_srv s;
	unsigned i, granted = 0;

	(void)state;
	assert_int_equal(uneg_srv_init(&s, &big), 0);
	r = req(PTP_MT_ANNOUNCE, 0, 1000);
	for (i = 0; i < 50000; i++) {
		p = pid_of(i);
		a = ip_of(i % 300);
		granted += (unsigned)uneg_srv_request(&s, &p, &a, &r, S, &g);
	}
	assert_int_equal(granted, 1000);
	assert_int_equal(s.nclients, 1000);
	assert_int_equal(s.st.refused_full, 49000);
	/* the granted ones are all found again (the hash chains hold) */
	for (i = 0; i < 1000; i++) {
		p = pid_of(i);
		a = ip_of(i % 300);
		assert_true(uneg_srv_has(&s, &p, &a, UNEG_ANNOUNCE, 2 * S));
	}
	/* cancels of unknown grants change nothing */
	memset(&c, 0, sizeof(c));
	c.type = PTP_TLV_CANCEL_UNICAST_TRANSMISSION;
	c.message_type = PTP_MT_ANNOUNCE;
	for (i = 1000; i < 20000; i++) {
		p = pid_of(i);
		a = ip_of(i % 300);
		assert_int_equal(uneg_srv_cancel(&s, &p, &a, &c, &ack), 0);
	}
	assert_int_equal(s.nclients, 1000);
	/* half cancelled: their slots are free for others */
	for (i = 0; i < 1000; i += 2) {
		p = pid_of(i);
		a = ip_of(i % 300);
		assert_int_equal(uneg_srv_cancel(&s, &p, &a, &c, &ack), 1);
	}
	assert_int_equal(s.nclients, 500);
	for (i = 0, granted = 0; i < 600; i++) {
		p = pid_of(100000 + i);
		a = ip_of(i);
		granted += (unsigned)uneg_srv_request(&s, &p, &a, &r, S, &g);
	}
	assert_int_equal(granted, 500);
	for (i = 1; i < 1000; i += 2) {
		p = pid_of(i);
		a = ip_of(i % 300);
		assert_true(uneg_srv_has(&s, &p, &a, UNEG_ANNOUNCE, 2 * S));
	}
	/* all expire */
	uneg_srv_expire(&s, 2000 * S);
	assert_int_equal(s.nclients, 0);
	uneg_srv_fini(&s);
}

/* ---- client ---- */

static struct ptp_uneg_tlv
grant(unsigned mt, int8_t log_period, uint32_t dur)
{
	struct ptp_uneg_tlv t = req(mt, log_period, dur);

	t.type = PTP_TLV_GRANT_UNICAST_TRANSMISSION;
	return t;
}

static void
test_cli_states(void **state)
{
	struct netd_addr addrs[2] = { ip_of(11), ip_of(22) };
	struct ptp_port_identity m0 = pid_of(11), m1 = pid_of(22);
	struct ptp_uneg_tlv out[3], g;
	unsigned cancel[2];
	struct uneg_cli c;
	struct netd_addr rogue = ip_of(33);

	(void)state;
	assert_int_equal(uneg_cli_init(&c, addrs, 2, 60), 0);
	c.log_announce = 1;
	c.log_sync = -3;
	c.log_delay = -3;
	/* WAIT: Announce asked at every query */
	assert_int_equal(uneg_cli_tick(&c, 0, S, out), 1);
	assert_int_equal(out[0].type, PTP_TLV_REQUEST_UNICAST_TRANSMISSION);
	assert_int_equal(out[0].message_type, PTP_MT_ANNOUNCE);
	assert_int_equal(out[0].log_period, 1);
	assert_int_equal(out[0].duration, 60);
	assert_int_equal(uneg_cli_tick(&c, 0, 5 * S, out), 1);
	/* a grant from an address not in the table is rogue */
	g = grant(PTP_MT_ANNOUNCE, 1, 60);
	assert_int_equal(uneg_cli_grant(&c, &rogue, &m0, &g, 5 * S), -1);
	assert_int_equal(c.rogue, 1);
	/* both grant Announce: HAVE_ANN, nothing to ask until renewal */
	assert_int_equal(uneg_cli_grant(&c, &addrs[0], &m0, &g, 5 * S), 0);
	assert_int_equal(uneg_cli_grant(&c, &addrs[1], &m1, &g, 5 * S), 1);
	assert_int_equal(c.m[0].state, UNEG_HAVE_ANN);
	assert_int_equal(uneg_cli_tick(&c, 0, 9 * S, out), 0);
	/* the BMCA picks master 1: it asks for Sync and Delay_Resp */
	assert_int_equal(uneg_cli_select(&c, &m1, cancel), 0);
	assert_int_equal(c.m[1].state, UNEG_NEED_SYDY);
	assert_int_equal(uneg_cli_tick(&c, 1, 9 * S, out), 2);
	assert_int_equal(out[0].message_type, PTP_MT_SYNC);
	assert_int_equal(out[0].log_period, -3);
	assert_int_equal(out[1].message_type, PTP_MT_DELAY_RESP);
	g = grant(PTP_MT_SYNC, -3, 60);
	uneg_cli_grant(&c, &addrs[1], &m1, &g, 10 * S);
	assert_int_equal(c.m[1].state, UNEG_NEED_SYDY);
	g = grant(PTP_MT_DELAY_RESP, -3, 60);
	uneg_cli_grant(&c, &addrs[1], &m1, &g, 10 * S);
	assert_int_equal(c.m[1].state, UNEG_HAVE_SYDY);
	/* renewal at 3/4 of the earliest grant (5 s + 45 s): all three */
	assert_int_equal(uneg_cli_tick(&c, 1, 49 * S, out), 0);
	assert_int_equal(uneg_cli_tick(&c, 1, 50 * S, out), 3);
	assert_int_equal(out[0].message_type, PTP_MT_ANNOUNCE);
	assert_int_equal(out[1].message_type, PTP_MT_SYNC);
	assert_int_equal(out[2].message_type, PTP_MT_DELAY_RESP);
	/* not granted by the next query (lost): asked again, and at every
	 * query until a grant comes (linuxptp asks once) */
	assert_int_equal(uneg_cli_tick(&c, 1, 52 * S, out), 3);
	assert_int_equal(uneg_cli_tick(&c, 1, 54 * S, out), 3);
	g = grant(PTP_MT_ANNOUNCE, 1, 60);
	uneg_cli_grant(&c, &addrs[1], &m1, &g, 55 * S);
	assert_int_equal(uneg_cli_tick(&c, 1, 56 * S, out), 0);
	/* master 0 renews Announce only */
	assert_int_equal(uneg_cli_tick(&c, 0, 50 * S, out), 1);
	assert_int_equal(out[0].message_type, PTP_MT_ANNOUNCE);
	/* the BMCA moves to master 0: master 1's Sync/Delay_Resp cancelled */
	assert_int_equal(uneg_cli_select(&c, &m0, cancel), 1);
	assert_int_equal(cancel[0], 1);
	assert_int_equal(c.m[1].state, UNEG_HAVE_ANN);
	assert_int_equal(uneg_cli_cancels(&c, 1, out), 2);
	assert_int_equal(out[0].type, PTP_TLV_CANCEL_UNICAST_TRANSMISSION);
	assert_int_equal(out[0].message_type, PTP_MT_SYNC);
	assert_int_equal(out[1].message_type, PTP_MT_DELAY_RESP);
	assert_int_equal(c.m[0].state, UNEG_NEED_SYDY);
	uneg_cli_fini(&c);
}

static void
test_cli_refusal_expiry_cancel(void **state)
{
	struct netd_addr a = ip_of(11);
	struct ptp_port_identity m0 = pid_of(11);
	struct ptp_uneg_tlv out[3], g, ack;
	unsigned cancel[1];
	struct uneg_cli c;

	(void)state;
	assert_int_equal(uneg_cli_init(&c, &a, 1, 60), 0);
	g = grant(PTP_MT_ANNOUNCE, 1, 60);
	uneg_cli_grant(&c, &a, &m0, &g, 0);
	uneg_cli_select(&c, &m0, cancel);
	/* Sync refused (durationField 0): back to WAIT, Announce again */
	g = grant(PTP_MT_SYNC, 0, 0);
	uneg_cli_grant(&c, &a, &m0, &g, S);
	assert_int_equal(c.m[0].state, UNEG_WAIT);
	assert_int_equal(c.refusals, 1);
	assert_int_equal(uneg_cli_tick(&c, 0, 2 * S, out), 1);
	assert_int_equal(out[0].message_type, PTP_MT_ANNOUNCE);
	/* granted again, then silence: at the grant's end, WAIT */
	g = grant(PTP_MT_ANNOUNCE, 1, 20);
	uneg_cli_grant(&c, &a, &m0, &g, 3 * S);
	assert_int_equal(c.m[0].state, UNEG_HAVE_ANN);
	assert_int_equal(uneg_cli_tick(&c, 0, 18 * S, out), 1); /* renew */
	assert_int_equal(uneg_cli_tick(&c, 0, 22 * S, out), 1); /* again */
	assert_int_equal(c.m[0].state, UNEG_HAVE_ANN);
	assert_int_equal(uneg_cli_tick(&c, 0, 23 * S, out), 1);
	assert_int_equal(c.m[0].state, UNEG_WAIT);
	/* the server cancels Announce: ACK, and WAIT */
	g = grant(PTP_MT_ANNOUNCE, 1, 20);
	uneg_cli_grant(&c, &a, &m0, &g, 24 * S);
	memset(&g, 0, sizeof(g));
	g.type = PTP_TLV_CANCEL_UNICAST_TRANSMISSION;
	g.message_type = PTP_MT_ANNOUNCE;
	assert_int_equal(uneg_cli_cancel(&c, &a, &g, &ack), 0);
	assert_int_equal(ack.type, PTP_TLV_ACK_CANCEL_UNICAST_TRANSMISSION);
	assert_int_equal(ack.message_type, PTP_MT_ANNOUNCE);
	assert_int_equal(c.m[0].state, UNEG_WAIT);
	/* from elsewhere: not ours */
	a.b[3] = 1;
	assert_int_equal(uneg_cli_cancel(&c, &a, &g, &ack), -1);
	uneg_cli_fini(&c);
}

/*
 * unicast P2P (peer_address): the peer is asked for PDELAY_RESP at every
 * query until it grants, then at 3/4 of the duration; a refusal, an
 * expiry or its cancel (acknowledged) make it ask again; grants and
 * cancels from another address are not the peer's.  The server grants
 * PDELAY_RESP as any other type.
 */
static void
test_peer(void **state)
{
	struct uneg_peer pe;
	struct netd_addr a = ip_of(44), other = ip_of(45);
	struct ptp_port_identity m0 = pid_of(44), all;
	struct ptp_uneg_tlv out, g, ack;
	struct uneg_srv s;
	int8_t lp = 0;

	(void)state;
	memset(&all, 0xff, sizeof(all));
	uneg_peer_init(&pe, &a);
	assert_memory_equal(&pe.pid, &all, sizeof(all));
	assert_int_equal(uneg_peer_tick(&pe, lp, 60, 0, &out), 1);
	assert_int_equal(out.type, PTP_TLV_REQUEST_UNICAST_TRANSMISSION);
	assert_int_equal(out.message_type, PTP_MT_PDELAY_RESP);
	assert_int_equal(out.log_period, 0);
	assert_int_equal(out.duration, 60);
	/* no answer: asked again at the next query */
	assert_int_equal(uneg_peer_tick(&pe, lp, 60, 4 * S, &out), 1);
	/* a grant from elsewhere, or of another type, is not the peer's */
	g = grant(PTP_MT_PDELAY_RESP, 0, 60);
	assert_int_equal(uneg_peer_grant(&pe, &other, &m0, &g, 5 * S), 0);
	g = grant(PTP_MT_ANNOUNCE, 0, 60);
	assert_int_equal(uneg_peer_grant(&pe, &a, &m0, &g, 5 * S), 0);
	assert_false(uneg_peer_granted(&pe, 5 * S));
	g = grant(PTP_MT_PDELAY_RESP, -1, 60);
	assert_int_equal(uneg_peer_grant(&pe, &a, &m0, &g, 5 * S), 1);
	assert_true(uneg_peer_granted(&pe, 5 * S));
	assert_memory_equal(&pe.pid, &m0, sizeof(m0));
	assert_int_equal(pe.log_period, -1);
	/* renewed at 3/4 of 60 s: 50 s, not before */
	assert_int_equal(uneg_peer_tick(&pe, lp, 60, 49 * S, &out), 0);
	assert_int_equal(uneg_peer_tick(&pe, lp, 60, 50 * S, &out), 1);
	/* the renewal lost: asked at every query, then the grant ends */
	assert_int_equal(uneg_peer_tick(&pe, lp, 60, 54 * S, &out), 1);
	assert_int_equal(uneg_peer_tick(&pe, lp, 60, 66 * S, &out), 1);
	assert_false(uneg_peer_granted(&pe, 66 * S));
	/* refused: counted, asked again */
	g = grant(PTP_MT_PDELAY_RESP, 0, 0);
	assert_int_equal(uneg_peer_grant(&pe, &a, &m0, &g, 70 * S), 1);
	assert_int_equal(pe.refusals, 1);
	assert_int_equal(uneg_peer_tick(&pe, lp, 60, 74 * S, &out), 1);
	/* a bogus period is ignored */
	g = grant(PTP_MT_PDELAY_RESP, 31, 60);
	assert_int_equal(uneg_peer_grant(&pe, &a, &m0, &g, 75 * S), 1);
	assert_false(uneg_peer_granted(&pe, 75 * S));
	/* the peer cancels: acknowledged, asked again; maintainGrant keeps
	 * it; a cancel of another type or from elsewhere is not its */
	g = grant(PTP_MT_PDELAY_RESP, 0, 60);
	uneg_peer_grant(&pe, &a, &m0, &g, 80 * S);
	memset(&g, 0, sizeof(g));
	g.type = PTP_TLV_CANCEL_UNICAST_TRANSMISSION;
	g.message_type = PTP_MT_PDELAY_RESP;
	g.flags = PTP_UNEG_MAINTAIN_GRANT;
	assert_int_equal(uneg_peer_cancel(&pe, &a, &g, &ack), 1);
	assert_true(uneg_peer_granted(&pe, 81 * S));
	g.flags = 0;
	assert_int_equal(uneg_peer_cancel(&pe, &other, &g, &ack), 0);
	assert_int_equal(uneg_peer_cancel(&pe, &a, &g, &ack), 1);
	assert_int_equal(ack.type, PTP_TLV_ACK_CANCEL_UNICAST_TRANSMISSION);
	assert_int_equal(ack.message_type, PTP_MT_PDELAY_RESP);
	assert_false(uneg_peer_granted(&pe, 81 * S));
	assert_int_equal(pe.cancels, 1);
	assert_int_equal(uneg_peer_tick(&pe, lp, 60, 82 * S, &out), 1);
	g.message_type = PTP_MT_SYNC;
	assert_int_equal(uneg_peer_cancel(&pe, &a, &g, &ack), 0);

	/* the server side: PDELAY_RESP granted as asked */
	assert_int_equal(uneg_srv_init(&s, &lim), 0);
	out = req(PTP_MT_PDELAY_RESP, 0, 60);
	assert_int_equal(uneg_srv_request(&s, &m0, &a, &out, S, &g), 1);
	assert_int_equal(g.type, PTP_TLV_GRANT_UNICAST_TRANSMISSION);
	assert_int_equal(g.message_type, PTP_MT_PDELAY_RESP);
	assert_int_equal(g.duration, 60);
	assert_true(uneg_srv_has(&s, &m0, &a, UNEG_PDELAY_RESP, 2 * S));
	uneg_srv_fini(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_spread),
		cmocka_unit_test(test_srv_grant),
		cmocka_unit_test(test_srv_refusals),
		cmocka_unit_test(test_srv_expiry_renewal),
		cmocka_unit_test(test_srv_cancel),
		cmocka_unit_test(test_srv_schedule),
		cmocka_unit_test(test_srv_flood),
		cmocka_unit_test(test_srv_unheard),
		cmocka_unit_test(test_cli_states),
		cmocka_unit_test(test_cli_refusal_expiry_cancel),
		cmocka_unit_test(test_peer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
