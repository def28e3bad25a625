/*
 * port_master.c - what a port sends as master (Announce, Sync, Follow_Up,
 * Delay_Resp) and as peer-delay responder (Pdelay_Resp,
 * Pdelay_Resp_Follow_Up).  A two-step clock's Sync and Pdelay_Resp
 * ask netd for their TX timestamps and the Follow_Up /
 * Pdelay_Resp_Follow_Up carries them (IEEE 1588-2019 9.5.10, 11.4.3).
 * clockd builds the follow-up with the event message and netd writes the
 * timestamp in and sends it as soon as it has it, in the same wake-up
 * (doc/design.md; netd.proto TxFrame.follow_up): clockd neither wakes for
 * the timestamp nor sends a second TxFrame.  A timestamp that does not
 * come is reported as missing (port_tx_ts()), and no follow-up leaves.
 * A one-step clock (twoStepFlag 0, time_stamping onestep; p2p1step for
 * Pdelay_Resp too) sends the event message alone: the NIC writes the time
 * into it as it leaves (netd: HWTSTAMP_TX_ONESTEP_SYNC/_P2P).
 */
#include "config.h"

#include <string.h>

#include "clockd.h"
#include "log.h"

/* logMessageInterval of Delay_Resp-less messages: 0x7F (13.3.2.14). */
#define LOG_INTERVAL_NONE	0x7F

/*
 * An Announce of this clock's datasets (13.5), multicast or to one
 * unicast client (port_uneg.c), with its own sequenceId and interval.
 */
void
master_announce(struct cport *p, struct ptp_msg *m, uint16_t seq,
    int8_t log_interval)
{
	struct clockd *c = p->c;
	struct ptp_announce *a;

	msg_header(p, m, PTP_MT_ANNOUNCE, seq, log_interval);
	/* timePropertiesDS flags go in the second flag octet (Table 37). */
	m->hdr.flags |= c->tds.flags;
	a = &m->body.announce;
	a->current_utc_offset = c->tds.current_utc_offset;
	a->grandmaster_priority1 = c->pds.gm_priority1;
	a->grandmaster_clock_quality = c->pds.gm_quality;
	a->grandmaster_priority2 = c->pds.gm_priority2;
	memcpy(a->grandmaster_identity, c->pds.gm_identity, PTP_CLOCK_ID_LEN);
	a->steps_removed = c->cds.steps_removed;
	a->time_source = c->tds.time_source;
}

void
master_send_announce(struct cport *p)
{
	struct ptp_msg m;

	master_announce(p, &m, p->seq_announce++, p->log_announce_interval);
	(void)msg_send(p, &m, NETD_DEST_PRIMARY, 0);
}

void
master_send_sync(struct cport *p)
{
	struct ptp_msg m, fu;
	uint16_t seq = p->seq_sync++;

	msg_header(p, &m, PTP_MT_SYNC, seq, p->log_sync_interval);
	if (!p->c->dds.two_step) {
		/*
		 * One-step (11.3.2 a, 9.5.9): the NIC writes t1 into the
		 * Sync on egress (its originTimestamp, or the correctionField
		 * over an originTimestamp of 0: the slave adds both); no
		 * twoStepFlag (msg_header()), no TX time stamp, no Follow_Up.
		 */
		(void)msg_send(p, &m, NETD_DEST_PRIMARY, 0);
		return;
	}
	/* Two-step: originTimestamp is left zero, the precise one follows
	 * in the Follow_Up (9.5.10, 11.3.2), which netd completes. */
	msg_header(p, &fu, PTP_MT_FOLLOW_UP, seq, p->log_sync_interval);
	(void)msg_send_fu(p, &m, &fu, NETD_DEST_PRIMARY);
}

void
master_rx_delay_req(struct cport *p, const struct ptp_msg *req,
    const struct ptp_timestamp *t4)
{
	struct ptp_msg m;

	if (p->state != PS_MASTER || p->delay_mechanism != DM_E2E)
		return;
	msg_header(p, &m, PTP_MT_DELAY_RESP, req->hdr.sequence_id,
	    p->log_min_delay_req_interval);
	/* The request's correctionField goes back unchanged (11.3.2 c). */
	m.hdr.correction = req->hdr.correction;
	m.body.delay_resp.receive_timestamp = *t4;
	m.body.delay_resp.requesting_port_identity =
	    req->hdr.source_port_identity;
	(void)msg_send(p, &m, NETD_DEST_PRIMARY, 0);
}

/*
 * The answer to a Pdelay_Req received at t2: the Pdelay_Resp in *m and,
 * two-step, its Pdelay_Resp_Follow_Up in *fu (11.4.3 c).  Returns 1 when
 * fu goes with m, 0 when m goes alone (one-step).  Multicast here, unicast
 * to a unicast request (port_uneg.c).
 */
int
responder_pdelay_resp(struct cport *p, const struct ptp_msg *req,
    const struct ptp_timestamp *t2, struct ptp_msg *m, struct ptp_msg *fu)
{
	msg_header(p, m, PTP_MT_PDELAY_RESP, req->hdr.sequence_id,
	    LOG_INTERVAL_NONE);
	m->body.pdelay_resp.requesting_port_identity =
	    req->hdr.source_port_identity;
	if (p->c->p2p_one_step) {
		/*
		 * One-step responder (11.4.3 c): the request's correctionField
		 * in the Pdelay_Resp, requestReceiptTimestamp 0; the NIC adds
		 * the turnaround t3 - t2 to the correctionField on egress
		 * (HWTSTAMP_TX_ONESTEP_P2P).  No Pdelay_Resp_Follow_Up.
		 */
		m->hdr.correction = req->hdr.correction;
		return 0;
	}
	/* Two-step responder (11.4.3 c): t2 in Pdelay_Resp, t3 and the
	 * request's correctionField in Pdelay_Resp_Follow_Up.  A one-step
	 * Sync clock (time_stamping onestep) answers two-step here. */
	m->hdr.flags |= PTP_FLAG_TWO_STEP;
	m->body.pdelay_resp.request_receipt_timestamp = *t2;
	/* netd writes t3 into the follow-up, built now. */
	msg_header(p, fu, PTP_MT_PDELAY_RESP_FOLLOW_UP, req->hdr.sequence_id,
	    LOG_INTERVAL_NONE);
	fu->hdr.correction = req->hdr.correction;
	fu->body.pdelay_resp_fup.requesting_port_identity =
	    req->hdr.source_port_identity;
	return 1;
}

void
responder_rx_pdelay_req(struct cport *p, const struct ptp_msg *req,
    const struct ptp_timestamp *t2)
{
	struct ptp_msg m, fu;

	if (p->delay_mechanism != DM_P2P)
		return;
	if (responder_pdelay_resp(p, req, t2, &m, &fu))
		(void)msg_send_fu(p, &m, &fu, NETD_DEST_PDELAY);
	else
		(void)msg_send(p, &m, NETD_DEST_PDELAY, 0);
}
