/*
 * fuzz_mgmt.c - libFuzzer target for PTP management (clockd/mgmt.c):
 * untrusted bytes from the network and from any local user on pmc_socket.
 *
 * Feeds the input through mgmt_process(), the function port_rx() (through
 * pmcsock_net_rx()) and the pmc socket call, against a static two-port
 * clock: once as the pmc socket with the right to SET, once as port 1
 * without it.  Every response must parse as a Management message of
 * RESPONSE or ACKNOWLEDGE carrying one management TLV, addressed to the
 * sender, with the request's sequenceId; a SET may only be granted to the
 * sender that may SET.  The forwarding copy must differ from the input
 * only in boundaryHops.  Any violation aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "clockd/clockd.h"
#include "clockd/mgmt.h"
#include "ptp_msg.h"
#include "ptp_tlv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct clockd clk;
static uint8_t fwd[65536];

static void
setup(void)
{
	static const uint8_t id[8] = { 0x02, 0x00, 0x00, 0xff, 0xfe, 0, 0, 1 };
	unsigned i;

	clk.cfg = cfg_new();
	memcpy(clk.dds.clock_identity, id, sizeof(id));
	clk.dds.number_ports = 2;
	clk.dds.priority1 = 128;
	clk.dds.priority2 = 128;
	clk.dds.two_step = 1;
	clk.dds.quality.clock_class = 248;
	clk.nports = 2;
	clk.slave_port = 0;
	clk.cds.steps_removed = 1;
	clk.cds.offset_from_master = -42;
	clk.cds.mean_path_delay = 1000;
	for (i = 0; i < clk.nports; i++) {
		struct cport *p = &clk.ports[i];

		p->c = &clk;
		p->index = i;
		memcpy(p->identity.clock_identity, id, sizeof(id));
		p->identity.port_number = (uint16_t)(i + 1);
		memcpy(p->iface, i ? "eth1" : "eth0", 5);
		p->state = i ? PS_MASTER : PS_SLAVE;
		p->delay_mechanism = i ? DM_P2P : DM_E2E;
		p->have_delay = 1;
		p->path_delay = 65536000;
		p->last_sync_valid = 1;
		p->last_sync.t2.sec = 1700000000;
		p->have_rr = 1;
		p->rate_ratio = 1.000001;
	}
}

struct req {
	struct ptp_msg m;
	int parsed;
};

static int
check_response(void *arg, const uint8_t *buf, size_t len)
{
	const struct req *rq = arg;
	struct ptp_msg m;
	struct ptp_tlv tlv;

	if (ptp_msg_parse(&m, buf, len) != 0 ||
	    m.hdr.message_type != PTP_MT_MANAGEMENT || m.tlv_count != 1 ||
	    ptp_msg_mgmt_tlv(&m, &tlv) != 0)
		abort();
	if (m.body.management.action != PTP_MA_RESPONSE &&
	    m.body.management.action != PTP_MA_ACKNOWLEDGE)
		abort();
	if (!rq->parsed || m.hdr.sequence_id != rq->m.hdr.sequence_id ||
	    !ptp_port_identity_equal(&m.body.management.target_port_identity,
	    &rq->m.hdr.source_port_identity))
		abort();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mgmt_src local = { .ingress = -1, .may_set = 1 };
	struct mgmt_src net = { .ingress = 0, .may_set = 0 };
	struct mgmt_set set;
	struct req rq;
	size_t n, i;
	int rc;

	if (clk.cfg == NULL)
		setup();
	memset(&rq, 0, sizeof(rq));
	rq.parsed = ptp_msg_parse(&rq.m, data, size) == 0;

	rc = mgmt_process(&clk, data, size, &local, check_response, &rq, &set);
	if (rc > 0 && !rq.parsed)
		abort();
	if (set.what != MGMT_SET_NONE && (set.what != MGMT_SET_PRIORITY1 &&
	    set.what != MGMT_SET_PRIORITY2))
		abort();

	rc = mgmt_process(&clk, data, size, &net, check_response, &rq, &set);
	if (rc > 0 && !rq.parsed)
		abort();
	if (set.what != MGMT_SET_NONE)
		abort();		/* the network may not SET */

	if (size <= sizeof(fwd) && (n = mgmt_forward_copy(data, size, fwd))) {
		if (!rq.parsed || n != rq.m.hdr.message_length ||
		    fwd[45] + 1 != data[45])
			abort();
		for (i = 0; i < n; i++)
			if (i != 45 && fwd[i] != data[i])
				abort();
	}
	return 0;
}
