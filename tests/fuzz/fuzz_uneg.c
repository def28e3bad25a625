/*
 * fuzz_uneg.c - libFuzzer target for unicast negotiation (clockd/uneg.c)
 * fed what any host on the link can send: Signaling messages whose TLVs
 * are decoded (lib/ptp_tlv.c) and handed to a server (8 clients at most,
 * periods from 2^-4 s, grants up to 600 s) and a client of 3 masters, as
 * port_uneg.c does, between the server's expiry and sends and the
 * client's queries and master changes.
 *
 * The input is records: op (1) | a (1) | dt (2, ms) | len (1) | len octets.
 * op % 4: 0 the octets are a message from address a % 16 (the masters are
 * addresses 0-2); 1 the server expires and serves every kind; 2 the
 * client's query timer; 3 the BMCA picks master a % 4 (3: none).  Time
 * moves on by dt ms before each record.  After each, the server's table
 * must hold together: no more clients than its bound, every used slot
 * found by its key, the free list and the used slots adding up; every
 * grant it answers names the type asked, and a refusal is duration 0.
 * Any violation aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clockd/uneg.h"
#include "ptp_msg.h"
#include "ptp_tlv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MS	1000000LL

static struct netd_addr
addr_of(unsigned a)
{
	struct netd_addr x;

	memset(&x, 0, sizeof(x));
	x.family = NETD_AF_IPV4;
	x.len = 4;
	x.b[0] = 10;
	x.b[3] = (uint8_t)a;
	return x;
}

static void
check_srv(const struct uneg_srv *s, int64_t now)
{
	unsigned i, used = 0, free_n = 0;
	int32_t f;

	for (i = 0; i < s->lim.max_clients; i++) {
		if (!s->c[i].used)
			continue;
		used++;
		if (uneg_srv_has(s, &s->c[i].pid, &s->c[i].addr,
		    UNEG_ANNOUNCE, now) != (s->c[i].g[UNEG_ANNOUNCE].expires >
		    now))
			abort();
	}
	for (f = s->free; f >= 0 && free_n <= s->lim.max_clients;
	    f = s->c[f].next, free_n++)
		if (s->c[f].used)
			abort();
	if (used != s->nclients || used + free_n != s->lim.max_clients)
		abort();
}

static void
on_message(struct uneg_srv *s, struct uneg_cli *c, unsigned a,
    const uint8_t *p, size_t len, int64_t now)
{
	struct netd_addr from = addr_of(a);
	struct ptp_uneg_tlv in, out;
	struct ptp_tlv_iter it;
	struct ptp_tlv tlv;
	struct ptp_msg m;
	int rc;

	if (ptp_msg_parse(&m, p, len) != 0 ||
	    m.hdr.message_type != PTP_MT_SIGNALING)
		return;
	ptp_tlv_iter_msg(&it, &m);
	while (ptp_tlv_next(&it, &tlv) > 0) {
		if (!ptp_tlv_is_uneg(tlv.type))
			continue;
		/* ptp_msg_parse() checked each one: it must decode. */
		if (ptp_tlv_uneg_parse(&tlv, &in) != 0)
			abort();
		switch (in.type) {
		case PTP_TLV_REQUEST_UNICAST_TRANSMISSION:
			rc = uneg_srv_request(s, &m.hdr.source_port_identity,
			    &from, &in, now, &out);
			if (out.type != PTP_TLV_GRANT_UNICAST_TRANSMISSION ||
			    out.message_type != in.message_type ||
			    (rc == 0) != (out.duration == 0) ||
			    out.duration > s->lim.max_duration)
				abort();
			break;
		case PTP_TLV_GRANT_UNICAST_TRANSMISSION:
			(void)uneg_cli_grant(c, &from,
			    &m.hdr.source_port_identity, &in, now);
			break;
		case PTP_TLV_CANCEL_UNICAST_TRANSMISSION:
			if (uneg_cli_cancel(c, &from, &in, &out) < 0)
				(void)uneg_srv_cancel(s,
				    &m.hdr.source_port_identity, &from, &in,
				    &out);
			if (out.type != PTP_TLV_ACK_CANCEL_UNICAST_TRANSMISSION)
				abort();
			break;
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct uneg_limits lim = { 8, -4, 600 };
	struct netd_addr masters[3] = { addr_of(0), addr_of(1), addr_of(2) };
	struct ptp_uneg_tlv t[3];
	struct uneg_srv s;
	struct uneg_cli c;
	uint32_t due[8];
	unsigned cancel[3], i, k, n;
	int64_t now = 1000 * MS;

	if (uneg_srv_init(&s, &lim) != 0 ||
	    uneg_cli_init(&c, masters, 3, 60) != 0)
		abort();
	c.log_sync = -3;
	while (size >= 5) {
		unsigned op = data[0] % 4, a = data[1];
		size_t len = data[4];

		now += (int64_t)(data[2] << 8 | data[3]) * MS;
		data += 5;
		size -= 5;
		if (len > size)
			len = size;
		switch (op) {
		case 0:
			on_message(&s, &c, a % 16, data, len, now);
			break;
		case 1:
			uneg_srv_expire(&s, now);
			for (k = 0; k < UNEG_NKINDS; k++) {
				while ((n = uneg_srv_due(&s, k, now, due, 8)) > 0)
					for (i = 0; i < n; i++)
						if (due[i] >= lim.max_clients ||
						    !s.c[due[i]].used)
							abort();
				/* served: nothing live is still due now */
				for (i = 0; i < lim.max_clients; i++)
					if (s.c[i].used &&
					    s.c[i].g[k].expires > now &&
					    s.c[i].g[k].next_due <= now)
						abort();
			}
			break;
		case 2:
			for (i = 0; i < c.n; i++)
				if (uneg_cli_tick(&c, i, now, t) > 3)
					abort();
			break;
		case 3:
			n = uneg_cli_select(&c, a % 4 < 3 && c.m[a % 4].have_pid ?
			    &c.m[a % 4].pid : NULL, cancel);
			if (n > c.n)
				abort();
			break;
		}
		check_srv(&s, now);
		data += len;
		size -= len;
	}
	uneg_srv_fini(&s);
	uneg_cli_fini(&c);
	return 0;
}
