/*
 * port_slave.c - the measurements of a slave port: Sync/Follow_Up pairing
 * (11.2, 9.5.10), the E2E request-response mechanism (11.3) and the P2P
 * peer-delay mechanism (11.4), as initiator.  Each complete exchange goes
 * through delay.c's arithmetic and filter.c's delay filter; the resulting
 * offsetFromMaster goes to clock_synchronize().
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "clockd.h"
#include "log.h"
#include "ptp_time.h"

#define LOG_INTERVAL_NONE	0x7F

void
slave_reset(struct cport *p)
{
	p->sync_valid = 0;
	p->fup_early = 0;
	p->last_sync_valid = 0;
	p->prev_sync_valid = 0;	/* a ratio must not straddle a step */
	p->have_rr = 0;
	p->dreq_pending = 0;
	p->dreq_have_t3 = 0;
	p->dresp_early = 0;
	memset(p->dreq_old, 0, sizeof(p->dreq_old));
}

static int
from_parent(const struct cport *p, const struct ptp_msg *m)
{
	return ptp_port_identity_equal(&m->hdr.source_port_identity,
	    &p->c->pds.parent_port_identity);
}

static int
slave_state(const struct cport *p)
{
	return p->state == PS_SLAVE || p->state == PS_UNCALIBRATED;
}

/*
 * With software time stamps about one Sync in fifty is 25-120 us late, and
 * the rate ratio of it and its neighbour is then wrong by that over the
 * Sync interval (86 us at 1 s: 86 ppm); an E2E delay sample takes it times
 * the time from the Sync to the Delay_Req (up to an interval), and half of
 * the ten samples of the moving median can come within one interval: the
 * median moved by 9 us in ptpsim's pair_e2e_sw, seed 1, t = 2803 s.  For
 * the kalman servo (the default; pi and linreg use every ratio, as
 * before) with software time stamps (hardware ones are never late) a
 * ratio is used only when it agrees with the one before it
 * within RR_AGREE_NS over the interval (a late Sync breaks that for the
 * three ratios it touches); the first after a reset is taken as it is,
 * lest the first delay wait for a third Sync.
 */
#define RR_AGREE_NS	10000.0
/* The band of filter_band_mean(), in robust standard deviations. */
#define DELAY_BAND_K	3.0

static int
slave_rr_checked(const struct cport *p)
{
	return p->c->servo != NULL &&
	    servo_get_type(p->c->servo) == SERVO_KALMAN &&
	    p->c->sw_ts;
}

/* have_rr: 0 none, 1 a ratio, 2 one that disagrees with the one before. */
static void
slave_rate_ratio(struct cport *p)
{
	double old = p->rate_ratio;
	int64_t a, b;
	int had = p->have_rr;

	if (delay_sync_rate_ratio(&p->prev_sync, &p->last_sync,
	    &p->rate_ratio) != 0) {
		p->have_rr = 0;
		return;
	}
	p->have_rr = 1;
	/* Both were checked on receipt: they convert. */
	if (!had || !slave_rr_checked(p) ||
	    ptp_time_to_ns(&p->prev_sync.t2, &a) != 0 ||
	    ptp_time_to_ns(&p->last_sync.t2, &b) != 0)
		return;
	if (fabs(p->rate_ratio - old) * (double)ptp_ns_sat_sub(b, a) >
	    RR_AGREE_NS)
		p->have_rr = 2;
}

static void slave_dreq_with_sync(struct cport *p);

/* A complete Sync (+ Follow_Up): compute the offset and feed the servo. */
static void
slave_sync_sample(struct cport *p)
{
	int64_t offset, t1, t2;
	int rc;

	p->sync_valid = 0;
	/* Checked on receipt; a bad pair never becomes last_sync. */
	if (msg_time_ns(p, PTP_MT_SYNC, "t1", &p->sync.t1, &t1) != 0 ||
	    msg_time_ns(p, PTP_MT_SYNC, "t2", &p->sync.t2, &t2) != 0)
		return;
	if (p->last_sync_valid) {
		p->prev_sync = p->last_sync;
		p->prev_sync_valid = 1;
	}
	p->last_sync = p->sync;
	p->last_sync_valid = 1;
	if (p->prev_sync_valid)
		slave_rate_ratio(p);
	if (!p->have_delay)
		return;		/* no path delay yet: wait (as ptp4l) */
	rc = delay_offset(&p->sync, p->asymmetry, p->path_delay, &offset,
	    NULL);
	if (rc < 0) {
		p->dstats.invalid++;
		return;
	}
	/* Two correctionFields of any value: their sum saturates. */
	log_debug("port %u: sync %u t1 %" PRId64 " t2 %" PRId64 " corr %" PRId64
	    " offset %" PRId64, p->identity.port_number, p->sync_seq, t1, t2,
	    ptp_ns_sat_add(p->sync.corr_sync, p->sync.corr_follow_up), offset);
	clock_synchronize(p->c, p, t2, offset,
	    delay_scaled_to_ns(p->path_delay));
}

static void
slave_sync_complete(struct cport *p)
{
	slave_sync_sample(p);
	slave_dreq_with_sync(p);
}

void
slave_rx_sync(struct cport *p, const struct ptp_msg *m,
    const struct ptp_timestamp *t2)
{
	int64_t t2_ns;

	if (!slave_state(p) || !from_parent(p, m))
		return;
	if (msg_time_ns(p, PTP_MT_SYNC, "ingress time", t2, &t2_ns) != 0 ||
	    !clock_t2_ok(p->c, t2_ns))
		return;
	/* One-step: originTimestamp is t1 (11.3.2); two-step: it is ignored
	 * and the Follow_Up's is checked when that comes. */
	if (!(m->hdr.flags & PTP_FLAG_TWO_STEP) && msg_time_ns(p, PTP_MT_SYNC,
	    "originTimestamp", &m->body.sync.origin_timestamp, NULL) != 0)
		return;
	memset(&p->sync, 0, sizeof(p->sync));
	p->sync.t2 = *t2;
	p->sync.corr_sync = m->hdr.correction;
	p->sync_seq = m->hdr.sequence_id;
	p->sync_two_step = (m->hdr.flags & PTP_FLAG_TWO_STEP) != 0;
	p->sync_valid = 1;
	if (!p->sync_two_step) {
		p->sync.t1 = m->body.sync.origin_timestamp;	/* one-step */
		slave_sync_complete(p);
		return;
	}
	/* Follow_Up may overtake its Sync on the general socket. */
	if (p->fup_early && p->fup_seq == p->sync_seq) {
		p->fup_early = 0;
		p->sync.t1 = p->fup_t1;
		p->sync.corr_follow_up = p->fup_corr;
		slave_sync_complete(p);
	}
}

void
slave_rx_follow_up(struct cport *p, const struct ptp_msg *m)
{
	if (!slave_state(p) || !from_parent(p, m))
		return;
	if (msg_time_ns(p, PTP_MT_FOLLOW_UP, "preciseOriginTimestamp",
	    &m->body.follow_up.precise_origin_timestamp, NULL) != 0)
		return;
	if (p->sync_valid && p->sync_two_step &&
	    m->hdr.sequence_id == p->sync_seq) {
		p->sync.t1 = m->body.follow_up.precise_origin_timestamp;
		p->sync.corr_follow_up = m->hdr.correction;
		slave_sync_complete(p);
		return;
	}
	/* Early (its Sync not yet here) or late (a newer Sync replaced it):
	 * keep it for the Sync of the same sequenceId only. */
	p->fup_early = 1;
	p->fup_seq = m->hdr.sequence_id;
	p->fup_t1 = m->body.follow_up.precise_origin_timestamp;
	p->fup_corr = m->hdr.correction;
}

/* ---- E2E: Delay_Req / Delay_Resp (11.3) ---------------------------------- */

/*
 * A Delay_Req overtaken by the next before its Delay_Resp came is kept,
 * the oldest of DREQ_OLD_MAX giving way, and matched for DREQ_OLD_NS: a
 * master may answer late (netd holds a busy port's Delay_Reqs 20 ms,
 * doc/design.md "At grandmaster scale"), and at a short
 * logMinDelayReqInterval the random interval (9.5.11.2) would otherwise
 * lose the exchanges it overtakes.
 */
static void
dreq_old_keep(struct cport *p)
{
	struct dreq_old *o = &p->dreq_old[p->dreq_old_next++ % DREQ_OLD_MAX];

	o->used = 1;
	o->seq = p->dreq_seq;
	o->have_t3 = p->dreq_have_t3;
	o->have_t4 = p->dresp_early;
	o->sent = clock_now(p->c);
	o->d = p->dreq;
}

static struct dreq_old *
dreq_old_find(struct cport *p, uint16_t seq)
{
	int64_t now = clock_now(p->c);
	unsigned i;

	for (i = 0; i < DREQ_OLD_MAX; i++) {
		struct dreq_old *o = &p->dreq_old[i];

		if (!o->used)
			continue;
		if (now - o->sent > DREQ_OLD_NS) {
			o->used = 0;
			continue;
		}
		if (o->seq == seq)
			return o;
	}
	return NULL;
}

void
slave_send_delay_req(struct cport *p)
{
	struct ptp_msg m;

	if (!slave_state(p) || p->delay_mechanism != DM_E2E ||
	    !p->last_sync_valid)
		return;
	if (p->dreq_pending)
		dreq_old_keep(p);
	p->dreq_seq = p->seq_delay_req++;
	p->dreq_pending = 1;
	p->dreq_have_t3 = 0;
	p->dresp_early = 0;
	msg_header(p, &m, PTP_MT_DELAY_REQ, p->dreq_seq, LOG_INTERVAL_NONE);
	m.hdr.correction = delay_req_correction(p->asymmetry);
	if (msg_send(p, &m, NETD_DEST_PRIMARY, 1) != 0)
		p->dreq_pending = 0;
}

/*
 * The next Delay_Req is due at from plus a random time of mean
 * logMinDelayReqInterval (port_random_ns(), 9.5.11.2).  It leaves with
 * the first Sync sample from then on (slave_dreq_with_sync()), so that
 * it, the servo's frequency change and the sample's work cost clockd one
 * wake-up and netd one datagram (the outbox, netd_client.c; issue 13);
 * t_delay, one and a half Sync intervals after the due time, sends it
 * when Syncs have stopped coming (at the due time when Syncs are rarer
 * than Delay_Reqs).  With software time stamps it leaves a little later
 * than its Sync sample, from t_delay (slave_dreq_with_sync()).
 */
void
slave_dreq_schedule(struct cport *p, int64_t from)
{
	int64_t now = clock_now(p->c);
	int64_t sync = port_interval_ns(p->log_sync_interval);
	int64_t ival = port_interval_ns(p->log_min_delay_req_interval);
	int64_t wait;

	p->dreq_lagged = 0;
	p->dreq_due = from + port_random_ns(ival);
	/*
	 * A due time already past waits for the next Sync, one interval
	 * from now: half an interval more lets that Sync come late.  With
	 * Syncs rarer than Delay_Reqs the timer sends at the due time, as
	 * before: waiting for Syncs would bring the requests down to their
	 * rate.
	 */
	wait = sync <= ival ? sync + sync / 2 : 0;
	env_timer_arm(&p->c->env, p->t_delay,
	    (p->dreq_due > now ? p->dreq_due - now : 0) + wait);
}

/*
 * A Sync sample is done: the Delay_Req goes now when it is due.  The next
 * due time counts from this one, not from now, so that waiting for a Sync
 * does not stretch the mean interval (at one Delay_Req per Sync interval
 * it would be 1.5 intervals); a due time more than DREQ_LAG intervals
 * behind (Syncs slower than Delay_Reqs) is not caught up with.  Until the
 * first path delay a Delay_Req goes with every sample that has a rate
 * ratio (what slave_e2e_complete() needs), not waiting for its due time:
 * the servo cannot start before (acquisition, as the timer's random first
 * wait of up to two intervals made it slower).
 */
#define DREQ_LAG	2

/*
 * Software time stamps: the Delay_Req leaves DREQ_COLD after its Sync
 * sample (at most half a Sync interval), from t_delay, not in the same
 * wake-up.  A software TX stamp is taken in the driver and the RX stamp
 * when the frame is queued to the peer, both in the sender's context, so
 * what PTP sees as a one-way time is that code path's time, and it
 * depends on how long the sender was idle before: on a veth here (200
 * frames each way, namespaces) ~2.8 us after 10-20 ms idle, as a master's
 * Sync from its timer; 2.5 us after 5 ms; 1.3 us after 1 ms; 0.65 us when
 * sent right after the frame just received.  Sent with its Sync, the
 * Delay_Req's leg was ~1.6 us shorter than the Sync's, and the slave's
 * clock ~0.8 us late (tests/integration/sysclk.sh: its PHC -0.6 to -1.5 us
 * from TAI; -13 to +191 ns from its own timer).  A short lag keeps what
 * leaving with the Sync gave (ptpsim: t2 and t3 close together, so the
 * servo's frequency changes between them hardly enter the path delay).
 * Hardware stamps do not see the sender's cache: they leave at once.
 */
#define DREQ_COLD	20000000LL	/* ns */

static void
slave_dreq_with_sync(struct cport *p)
{
	int64_t now = clock_now(p->c);
	int64_t from = p->dreq_due;
	int64_t ival = port_interval_ns(p->log_min_delay_req_interval);

	if (p->delay_mechanism != DM_E2E || !slave_state(p))
		return;
	if (!p->have_delay && p->have_rr == 1 && !p->dreq_pending)
		from = now;
	else if (now < from || p->dreq_lagged)
		return;
	if (now - from > DREQ_LAG * ival)
		from = now;
	if (p->c->sw_ts) {
		int64_t half = port_interval_ns(p->log_sync_interval) / 2;

		p->dreq_lagged = 1;
		p->dreq_from = from;
		env_timer_arm(&p->c->env, p->t_delay,
		    half < DREQ_COLD ? half : DREQ_COLD);
		return;
	}
	slave_send_delay_req(p);
	slave_dreq_schedule(p, from);
}

/* t_delay: a lagged Delay_Req, or none came with a Sync since it was due. */
void
slave_dreq_timer(struct cport *p)
{
	int64_t from = p->dreq_lagged ? p->dreq_from : clock_now(p->c);

	p->dreq_lagged = 0;
	slave_send_delay_req(p);
	slave_dreq_schedule(p, from);
}

static void
slave_delay_complete(struct cport *p, int64_t raw)
{
	p->path_delay = filter_sample(p->delay_filter, raw);
	/*
	 * kalman estimates the mean of the offsets, so the path delay it
	 * needs is the mean too: with one-sided packet delay variation, or
	 * software stamps' bimodal receive latency, the median of the delays
	 * sits below the mean the Sync's leg carries, and the offset keeps
	 * that bias (ptpsim's fastsync_hw: -115 ns).  The band mean keeps
	 * the median's refusal of late stamps.  pi and linreg keep ptp4l's
	 * median.
	 */
	if (p->c->servo != NULL &&
	    servo_get_type(p->c->servo) == SERVO_KALMAN)
		p->path_delay = filter_band_mean(p->delay_filter,
		    DELAY_BAND_K);
	p->have_delay = 1;
	log_debug("port %u: delay sample %" PRId64 " ns, filtered %" PRId64
	    " ns (%d held)", p->identity.port_number, delay_scaled_to_ns(raw),
	    delay_scaled_to_ns(p->path_delay), filter_count(p->delay_filter));
	port_delay_sampled(p);
}

static void
slave_e2e_sample(struct cport *p, const struct delay_req *d)
{
	int64_t mpd;
	int rc;

	/* Without a rate ratio the sample is biased by the frequency error;
	 * one such sample in the filter bends the servo's estimate. */
	if (!p->last_sync_valid || p->have_rr != 1)
		return;
	rc = delay_e2e(&p->last_sync, d, p->asymmetry, p->rate_ratio,
	    &mpd, &p->dstats);
	if (rc < 0)
		return;
	slave_delay_complete(p, mpd);
}

static void
slave_e2e_complete(struct cport *p)
{
	p->dreq_pending = 0;
	slave_e2e_sample(p, &p->dreq);
}

void
slave_delay_req_tx_ts(struct cport *p, uint16_t seq,
    const struct ptp_timestamp *t3)
{
	struct dreq_old *o;

	if (!p->dreq_pending || seq != p->dreq_seq) {
		if ((o = dreq_old_find(p, seq)) == NULL || o->have_t3)
			return;
		o->have_t3 = 1;
		o->d.t3 = *t3;
		if (msg_time_ns(p, PTP_MT_DELAY_REQ, "egress time", t3,
		    NULL) != 0)
			o->used = 0;
		else if (o->have_t4) {
			o->used = 0;
			slave_e2e_sample(p, &o->d);
		}
		return;
	}
	if (msg_time_ns(p, PTP_MT_DELAY_REQ, "egress time", t3, NULL) != 0) {
		p->dreq_pending = 0;
		return;
	}
	p->dreq.t3 = *t3;
	p->dreq_have_t3 = 1;
	if (p->dresp_early)
		slave_e2e_complete(p);
}

void
slave_rx_delay_resp(struct cport *p, const struct ptp_msg *m)
{
	const struct ptp_delay_resp *r = &m->body.delay_resp;
	struct dreq_old *o = NULL;

	if (!slave_state(p) || !from_parent(p, m) ||
	    !ptp_port_identity_equal(&r->requesting_port_identity,
	    &p->identity))
		return;
	if (!p->dreq_pending || m->hdr.sequence_id != p->dreq_seq) {
		/* an overtaken Delay_Req's answer, once (have_t4) */
		if ((o = dreq_old_find(p, m->hdr.sequence_id)) == NULL ||
		    o->have_t4)
			return;
	}
	if (msg_time_ns(p, PTP_MT_DELAY_RESP, "receiveTimestamp",
	    &r->receive_timestamp, NULL) != 0) {
		if (o != NULL)
			o->used = 0;
		else
			p->dreq_pending = 0;	/* this exchange is lost */
		return;
	}
	/* The master tells the rate it wants requests at (9.5.11.2). */
	if (m->hdr.log_message_interval != LOG_INTERVAL_NONE &&
	    m->hdr.log_message_interval >= -10 &&
	    m->hdr.log_message_interval <= 10)
		p->log_min_delay_req_interval = m->hdr.log_message_interval;
	if (o != NULL) {
		o->d.t4 = r->receive_timestamp;
		o->d.corr_delay_resp = m->hdr.correction;
		o->have_t4 = 1;
		if (o->have_t3) {
			o->used = 0;
			slave_e2e_sample(p, &o->d);
		}
		return;
	}
	p->dreq.t4 = r->receive_timestamp;
	p->dreq.corr_delay_resp = m->hdr.correction;
	if (p->dreq_have_t3)
		slave_e2e_complete(p);
	else
		p->dresp_early = 1;
}

/* ---- P2P: Pdelay_Req / Pdelay_Resp / Pdelay_Resp_Follow_Up (11.4) -------- */

void
p2p_send_pdelay_req(struct cport *p)
{
	struct ptp_msg m;

	if (p->delay_mechanism != DM_P2P)
		return;
	p->pdreq_seq = p->seq_pdelay_req++;
	p->pdreq_pending = 1;
	p->pd_have_t1 = p->pd_have_resp = p->pd_have_fup = 0;
	memset(&p->pd, 0, sizeof(p->pd));
	msg_header(p, &m, PTP_MT_PDELAY_REQ, p->pdreq_seq, LOG_INTERVAL_NONE);
	m.hdr.correction = delay_req_correction(p->asymmetry);
	if (msg_send(p, &m, NETD_DEST_PDELAY, 1) != 0)
		p->pdreq_pending = 0;
}

static void
p2p_try_complete(struct cport *p)
{
	int64_t mld, t1, t2, t3, t4;

	if (!p->pd_have_t1 || !p->pd_have_resp ||
	    (p->pd_resp_two_step && !p->pd_have_fup))
		return;
	p->pdreq_pending = 0;
	/* Each was checked when it came; this only keeps the line below
	 * from ever computing with one that was not. */
	if (msg_time_ns(p, PTP_MT_PDELAY_REQ, "t1", &p->pd.t1, &t1) != 0 ||
	    msg_time_ns(p, PTP_MT_PDELAY_RESP, "t2", &p->pd.t2, &t2) != 0 ||
	    msg_time_ns(p, PTP_MT_PDELAY_RESP_FOLLOW_UP, "t3", &p->pd.t3,
	    &t3) != 0 ||
	    msg_time_ns(p, PTP_MT_PDELAY_RESP, "t4", &p->pd.t4, &t4) != 0)
		return;
	if (delay_p2p(&p->pd, p->asymmetry, 1.0, &mld, &p->dstats) < 0)
		return;
	log_debug("port %u: pdelay %u t1 %" PRId64 " t2 %" PRId64 " t3 %"
	    PRId64 " t4 %" PRId64 " link delay %" PRId64 " (2^-16 ns)",
	    p->identity.port_number, p->pdreq_seq, t1, t2, t3, t4, mld);
	slave_delay_complete(p, mld);
}

void
p2p_pdelay_req_tx_ts(struct cport *p, uint16_t seq,
    const struct ptp_timestamp *t1)
{
	if (!p->pdreq_pending || seq != p->pdreq_seq)
		return;
	if (msg_time_ns(p, PTP_MT_PDELAY_REQ, "egress time", t1, NULL) != 0) {
		p->pdreq_pending = 0;
		return;
	}
	p->pd.t1 = *t1;
	p->pd_have_t1 = 1;
	p2p_try_complete(p);
}

void
p2p_rx_pdelay_resp(struct cport *p, const struct ptp_msg *m,
    const struct ptp_timestamp *t4)
{
	const struct ptp_pdelay_resp *r = &m->body.pdelay_resp;

	if (!p->pdreq_pending || m->hdr.sequence_id != p->pdreq_seq ||
	    !ptp_port_identity_equal(&r->requesting_port_identity,
	    &p->identity))
		return;
	if (p->pd_have_resp) {
		/* Two responders on a point-to-point link (11.4.4, faulty
		 * configuration): drop this measurement. */
		p->pdreq_pending = 0;
		return;
	}
	/* 11.4.3: t2 (and t3 in the Follow_Up) are the responder's clock,
	 * whatever it is; one clockd cannot represent ends the exchange. */
	if (msg_time_ns(p, PTP_MT_PDELAY_RESP, "requestReceiptTimestamp",
	    &r->request_receipt_timestamp, NULL) != 0 ||
	    msg_time_ns(p, PTP_MT_PDELAY_RESP, "ingress time", t4, NULL) != 0) {
		p->pdreq_pending = 0;
		return;
	}
	p->pd.t2 = r->request_receipt_timestamp;
	p->pd.t4 = *t4;
	p->pd.corr_resp = m->hdr.correction;
	p->pd_resp_two_step = (m->hdr.flags & PTP_FLAG_TWO_STEP) != 0;
	p->pd_responder = m->hdr.source_port_identity;
	p->pd_have_resp = 1;
	p2p_try_complete(p);
}

void
p2p_rx_pdelay_resp_fup(struct cport *p, const struct ptp_msg *m)
{
	const struct ptp_pdelay_resp_fup *f = &m->body.pdelay_resp_fup;

	if (!p->pdreq_pending || !p->pd_have_resp ||
	    m->hdr.sequence_id != p->pdreq_seq ||
	    !ptp_port_identity_equal(&f->requesting_port_identity,
	    &p->identity) ||
	    !ptp_port_identity_equal(&m->hdr.source_port_identity,
	    &p->pd_responder))
		return;
	if (msg_time_ns(p, PTP_MT_PDELAY_RESP_FOLLOW_UP,
	    "responseOriginTimestamp", &f->response_origin_timestamp,
	    NULL) != 0) {
		p->pdreq_pending = 0;
		return;
	}
	p->pd.t3 = f->response_origin_timestamp;
	p->pd.corr_resp_fup = m->hdr.correction;
	p->pd_have_fup = 1;
	p2p_try_complete(p);
}
