/*
 * msg.c - building and sending a port's PTP messages.
 *
 * clockd supplies only the PTP payload; netd builds every header below it
 * and checks the payload again (doc/design.md,
 * "Treating clockd as hostile").  The codec packs strictly, so a
 * message that would be malformed is caught here, before netd refuses it.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "clockd.h"
#include "log.h"
#include "ptp_msg.h"
#include "ptp_time.h"

/* At most one line about unrepresentable times every this many ns. */
#define MSG_BAD_TIME_LOG_NS	(10 * 1000000000LL)

int
msg_time_ns(struct cport *p, unsigned type, const char *field,
    const struct ptp_timestamp *ts, int64_t *ns)
{
	/* per messageType, so that one kind of hostile message does not
	 * hide another */
	static int64_t last_log[16];
	static uint64_t quiet[16];
	int64_t now, v;
	int rc;

	if ((rc = ptp_time_to_ns(ts, &v)) == 0) {
		if (ns != NULL)
			*ns = v;
		return 0;
	}
	/* 5.3.3 allows 2^48 - 1 s, far past int64 ns (the year 2262):
	 * anyone on the link can send that, so it is dropped, not used. */
	p->dstats.invalid++;
	now = clock_now(p->c);
	type &= 0x0f;
	if (last_log[type] != 0 && now - last_log[type] < MSG_BAD_TIME_LOG_NS) {
		quiet[type]++;
		return rc;
	}
	log_warnx("port %u: dropped %s: %s %" PRIu64 ".%09" PRIu32
	    " s %s (%" PRIu64 " more not logged)", p->identity.port_number,
	    ptp_msg_type_name(type), field, ts->sec, ts->nsec,
	    rc == -EINVAL ? "is malformed" : "is beyond int64 ns",
	    quiet[type]);
	last_log[type] = now;
	quiet[type] = 0;
	return rc;
}

/* controlField for 1588-2008 receivers (13.3.2.13, Table 42). */
static uint8_t
msg_control_field(unsigned type)
{
	switch (type) {
	case PTP_MT_SYNC:		return 0;
	case PTP_MT_DELAY_REQ:		return 1;
	case PTP_MT_FOLLOW_UP:		return 2;
	case PTP_MT_DELAY_RESP:		return 3;
	case PTP_MT_MANAGEMENT:		return 4;
	default:			return 5;
	}
}

void
msg_header(struct cport *p, struct ptp_msg *m, unsigned type, uint16_t seq,
    int8_t log_interval)
{
	struct clockd *c = p->c;

	memset(m, 0, sizeof(*m));
	m->hdr.message_type = (uint8_t)type;
	m->hdr.version = PTP_VERSION;
	m->hdr.minor_version = PTP_MINOR_VERSION;
	m->hdr.domain_number = c->dds.domain_number;
	m->hdr.major_sdo_id = 0;
	m->hdr.minor_sdo_id = c->dds.sdo_id;
	m->hdr.source_port_identity = p->identity;
	m->hdr.sequence_id = seq;
	m->hdr.control_field = msg_control_field(type);
	m->hdr.log_message_interval = log_interval;
	/* twoStepFlag on Sync and Pdelay_Resp of a two-step clock (13.3.2.8) */
	if ((type == PTP_MT_SYNC || type == PTP_MT_PDELAY_RESP) &&
	    c->dds.two_step)
		m->hdr.flags |= PTP_FLAG_TWO_STEP;
}

static int
msg_pack(struct cport *p, struct ptp_msg *m, uint8_t *buf, size_t cap)
{
	int len = ptp_msg_pack(m, buf, cap);

	if (len < 0)
		log_warnx("port %u: cannot pack %s: %s", p->identity.port_number,
		    ptp_msg_type_name(m->hdr.message_type), ptp_strerror(len));
	return len;
}

int
msg_send(struct cport *p, struct ptp_msg *m, enum netd_dest dest, int want_ts)
{
	uint8_t buf[256];
	unsigned type = m->hdr.message_type;
	struct netd_addr to = { 0 };
	int len;

	/* A unicast client's Delay_Req goes to its master, a Pdelay_Req to
	 * the table's peer_address (port_uneg.c). */
	if ((type == PTP_MT_DELAY_REQ && dest == NETD_DEST_PRIMARY &&
	    port_uneg_delay_req_to(p, &to)) ||
	    (type == PTP_MT_PDELAY_REQ && dest == NETD_DEST_PDELAY &&
	    port_uneg_pdelay_req_to(p, &to))) {
		dest = NETD_DEST_UNICAST;
		m->hdr.flags |= PTP_FLAG_UNICAST;
	}
	if ((len = msg_pack(p, m, buf, sizeof(buf))) < 0)
		return -1;
	if (env_send_frame(&p->c->env, p->index, ptp_msg_is_event(type), dest,
	    dest == NETD_DEST_UNICAST ? &to : NULL, buf, (size_t)len,
	    COOKIE(p->index, type, m->hdr.sequence_id), want_ts) != 0)
		return -1;
	p->tx_msgs++;
	return 0;
}

int
msg_send_fu(struct cport *p, struct ptp_msg *ev, struct ptp_msg *fu,
    enum netd_dest dest)
{
	uint8_t ebuf[256], fbuf[256];
	int elen, flen;

	if ((elen = msg_pack(p, ev, ebuf, sizeof(ebuf))) < 0 ||
	    (flen = msg_pack(p, fu, fbuf, sizeof(fbuf))) < 0)
		return -1;
	if (env_send_frame_fu(&p->c->env, p->index, dest, ebuf, (size_t)elen,
	    COOKIE(p->index, ev->hdr.message_type, ev->hdr.sequence_id), fbuf,
	    (size_t)flen) != 0)
		return -1;
	/* Both are handed over; a follow-up netd could not complete comes
	 * back as a missing TX timestamp (tx_ts_missing). */
	p->tx_msgs += 2;
	return 0;
}
