/*
 * fuzz_port_rx.c - libFuzzer target for what clockd does with the time
 * stamps of received messages (clockd/port.c port_rx(), port_slave.c):
 * Sync, Follow_Up, Delay_Resp, Pdelay_Resp and Pdelay_Resp_Follow_Up, whose
 * time stamps, correctionFields and identities any host on the link picks.
 *
 * Two slave ports of a static clock: port 1 E2E, port 2 P2P, whose parent
 * is 02:02:..:02 port 1.  The input is a sequence of records
 *
 *   op (1) | ts (10: seconds 48 bits, nanoseconds 32, as on the wire) |
 *   len (1) | len octets
 *
 * op & 3: 0 and 1 hand the octets to port_rx() of port 1 or 2 with ts as
 * the ingress time; before that the port's request in flight is made the
 * one the message answers (its sequenceId), so that exchanges complete.
 * 2 gives ts as the TX timestamp of the port's (op & 4 ? 2 : 1) request.
 * 3 resets both ports.  Messages of other types are skipped: they need
 * the event loop or netd, which this target has not.  The log level is
 * debug, so every debug argument is evaluated; a sanitizer report or a
 * crash is the failure.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clockd/clockd.h"
#include "log.h"
#include "ptp_be.h"
#include "ptp_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct clockd clk;

/* The engine's "now" (env.h), and what a Sync sample may do with it: send
 * the E2E port's Delay_Req (port_slave.c) and arm its fallback timer. */
static int64_t
fake_now(void *ctx)
{
	(void)ctx;
	return 1000000000LL;
}

static void
fake_timer_arm(void *ctx, struct env_timer *t, int64_t delay_ns)
{
	(void)ctx;
	(void)t;
	(void)delay_ns;
}

static int
fake_send_frame(void *ctx, unsigned port, int event, enum netd_dest dest,
    const struct netd_addr *unicast, const uint8_t *payload, size_t len,
    uint64_t cookie, int want_ts, const uint8_t *fu, size_t fu_len)
{
	(void)ctx;
	(void)port;
	(void)event;
	(void)dest;
	(void)unicast;
	(void)payload;
	(void)len;
	(void)cookie;
	(void)want_ts;
	(void)fu;
	(void)fu_len;
	return 0;
}

static const struct env_ops fake_ops = {
	.now = fake_now,
	.timer_arm = fake_timer_arm,
	.send_frame = fake_send_frame,
};
static const uint8_t own_id[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
static const uint8_t parent_id[8] = { 2, 2, 2, 2, 2, 2, 2, 2 };

static void
reset(void)
{
	unsigned i;

	for (i = 0; i < clk.nports; i++) {
		struct cport *p = &clk.ports[i];
		struct filter *f = p->delay_filter;

		memset(p, 0, sizeof(*p));
		p->c = &clk;
		p->index = i;
		memcpy(p->identity.clock_identity, own_id, 8);
		p->identity.port_number = (uint16_t)(i + 1);
		p->state = PS_SLAVE;
		p->kind = FSM_ORDINARY;
		p->delay_mechanism = i ? DM_P2P : DM_E2E;
		if (f == NULL)
			f = filter_create(FILTER_MOVING_MEDIAN, 10);
		else
			filter_reset(f);
		p->delay_filter = f;
	}
}

static void
setup(void)
{
	log_init("fuzz_port_rx", 1, LOG_LVL_DEBUG);
	clk.env.ops = &fake_ops;
	memcpy(clk.dds.clock_identity, own_id, 8);
	memcpy(clk.pds.parent_port_identity.clock_identity, parent_id, 8);
	clk.pds.parent_port_identity.port_number = 1;
	clk.nports = 2;
	clk.slave_port = 0;
	reset();
}

static void
rx(struct cport *p, const uint8_t *msg, size_t len,
    const struct ptp_timestamp *ts)
{
	struct netd_rx f;
	uint16_t seq;
	unsigned type;

	if (len < PTP_HDR_LEN)
		return;
	type = msg[0] & 0x0f;
	if (type != PTP_MT_SYNC && type != PTP_MT_FOLLOW_UP &&
	    type != PTP_MT_DELAY_RESP && type != PTP_MT_PDELAY_RESP &&
	    type != PTP_MT_PDELAY_RESP_FOLLOW_UP)
		return;
	seq = ptp_get_be16(msg + 30);
	/* The request this answers is the one in flight. */
	if (type == PTP_MT_DELAY_RESP && !p->dreq_pending) {
		p->dreq_pending = 1;
		p->dreq_seq = seq;
	}
	if (type == PTP_MT_PDELAY_RESP && !p->pdreq_pending) {
		p->pdreq_pending = 1;
		p->pdreq_seq = seq;
		p->pd_have_t1 = p->pd_have_resp = p->pd_have_fup = 0;
	}
	/* A complete Sync with a path delay goes to the servo, which needs
	 * netd: keep it to the arithmetic before that. */
	p->have_delay = 0;
	memset(&f, 0, sizeof(f));
	f.payload = msg;
	f.len = len;
	f.have_ts = 1;
	f.ts = *ts;
	port_rx(p, &f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptp_timestamp ts;
	struct cport *p;
	size_t len;
	uint8_t op;

	if (clk.nports == 0)
		setup();
	reset();
	while (size >= 12) {
		op = data[0];
		ts.sec = ptp_get_be48(data + 1);
		ts.nsec = ptp_get_be32(data + 7);
		len = data[11];
		data += 12;
		size -= 12;
		if (len > size)
			len = size;
		switch (op & 3) {
		case 0:
		case 1:
			rx(&clk.ports[op & 1], data, len, &ts);
			break;
		case 2:
			p = &clk.ports[(op & 4) ? 1 : 0];
			if (p->delay_mechanism == DM_P2P)
				p2p_pdelay_req_tx_ts(p, p->pdreq_seq, &ts);
			else
				slave_delay_req_tx_ts(p, p->dreq_seq, &ts);
			break;
		default:
			reset();
			break;
		}
		data += len;
		size -= len;
	}
	return 0;
}
