/*
 * pmcsock_net.c - the network path of PTP management (pmcsock.h): a
 * Management message a port received through netd is forwarded out the
 * other ports of a boundary clock (15.3.3), answered out its ingress port
 * (mgmt.c decides the answer; unicast to its sender when it came unicast,
 * 16.1), and a granted SET applied.  Also the SET
 * applier that the local pmc socket (pmcsock.c) shares.
 *
 * Apart from pmcsock.c so that the engine (port.c calls pmcsock_net_rx())
 * links without libevent: pmcsock.c's socket runs on the daemon's
 * event_base, this file only on env.h like the rest of the engine (and
 * sees no protobuf type either).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "clockd.h"
#include "log.h"
#include "mgmt.h"
#include "pmcsock.h"
#include "ptp_be.h"

/* A granted SET, through clock.c's setters; who says by whom (logged). */
void
pmcsock_apply(struct clockd *c, const struct mgmt_set *set, const char *who)
{
	int rc = -1;

	switch (set->what) {
	case MGMT_SET_PRIORITY1:
		rc = clock_set_priority1(c, set->value);
		break;
	case MGMT_SET_PRIORITY2:
		rc = clock_set_priority2(c, set->value);
		break;
	case MGMT_SET_NONE:
		return;
	}
	/* Any local user may send SETs (and be refused) in a loop. */
	log_rl(LOG_LVL_INFO, "management SET %s %u by %s%s",
	    set->what == MGMT_SET_PRIORITY1 ? "PRIORITY1" : "PRIORITY2",
	    (unsigned)set->value, who, rc == 0 ? "" : ": refused");
}

/* Where the answers to one received Management message go. */
struct pmcsock_reply {
	struct cport		*p;
	int			 unicast;	/* to .to, unicastFlag set */
	struct netd_addr	 to;
};

/*
 * The sender of a unicast request (unicastFlag, 13.3.2.8, and the address
 * netd saw it come from, RxFrame.source), into r->to: 16.1 (a response to
 * a unicast message is unicast) and RFC 9760 section 12 want the answer
 * back there.  netd sends to a peer it has heard, which this one is.
 */
static void
pmcsock_reply_to(struct pmcsock_reply *r, const struct netd_rx *f)
{
	r->unicast = 0;
	if (f == NULL || f->len < 8 ||
	    !(ptp_get_be16(f->payload + 6) & PTP_FLAG_UNICAST) ||
	    f->src_family == NETD_AF_NONE || f->src == NULL ||
	    f->src_len == 0 || f->src_len > sizeof(r->to.b))
		return;
	memset(&r->to, 0, sizeof(r->to));
	r->to.family = f->src_family;
	r->to.len = (uint8_t)f->src_len;
	memcpy(r->to.b, f->src, f->src_len);
	r->unicast = 1;
}

static int
pmcsock_emit_net(void *arg, const uint8_t *msg, size_t len)
{
	struct pmcsock_reply *r = arg;
	struct cport *p = r->p;
	uint8_t out[NETD_MAX_PAYLOAD];

	/* A multicast request: to the primary multicast address out the
	 * ingress port, as ptp4l answers. */
	if (!r->unicast) {
		if (env_send_frame(&p->c->env, p->index, 0, NETD_DEST_PRIMARY,
		    NULL, msg, len, COOKIE(p->index, PTP_MT_MANAGEMENT,
		    ptp_get_be16(msg + 30)), 0) != 0)
			return -1;
		p->tx_msgs++;
		return 0;
	}
	if (len < 8 || len > sizeof(out))
		return -1;
	memcpy(out, msg, len);
	ptp_put_be16(out + 6,
	    (uint16_t)(ptp_get_be16(out + 6) | PTP_FLAG_UNICAST));
	if (env_send_frame(&p->c->env, p->index, 0, NETD_DEST_UNICAST,
	    &r->to, out, len, COOKIE(p->index, PTP_MT_MANAGEMENT,
	    ptp_get_be16(out + 30)), 0) != 0)
		return -1;
	p->tx_msgs++;
	return 0;
}

/*
 * 15.3.3: a boundary clock passes a Management message with boundaryHops
 * above zero on out its other ports, boundaryHops decremented; only ports
 * taking part in synchronization, as ptp4l.  Loops end there: our own
 * messages are dropped on receipt (port_rx) and every hop decrements.
 */
static void
pmcsock_forward(struct cport *p, const uint8_t *buf, size_t len)
{
	struct clockd *c = p->c;
	uint8_t out[NETD_MAX_PAYLOAD];
	size_t n;
	unsigned i;

	if (c->nports < 2 || len > sizeof(out) || !mgmt_port_forwards(p->state))
		return;
	if ((n = mgmt_forward_copy(buf, len, out)) == 0)
		return;
	for (i = 0; i < c->nports; i++) {
		struct cport *q = &c->ports[i];

		if (q == p || !mgmt_port_forwards(q->state))
			continue;
		if (env_send_frame(&c->env, q->index, 0, NETD_DEST_PRIMARY,
		    NULL, out, n, COOKIE(q->index, PTP_MT_MANAGEMENT,
		    ptp_get_be16(out + 30)), 0) == 0)
			q->tx_msgs++;
	}
}

void
pmcsock_net_rx(struct cport *p, const struct netd_rx *f)
{
	struct clockd *c = p->c;
	const uint8_t *buf = f->payload;
	size_t len = f->len;
	struct pmcsock_reply r;
	struct mgmt_src src;
	struct mgmt_set set;
	char who[48];
	int rc;

	pmcsock_forward(p, buf, len);
	r.p = p;
	pmcsock_reply_to(&r, f);
	src.ingress = (int)(p - c->ports);
	src.may_set = cfg_get_int(c->cfg, NULL, "mgmt_set_from_network");
	rc = mgmt_process(c, buf, len, &src, pmcsock_emit_net, &r, &set);
	if (rc < 0)
		log_debug("port %u: dropped management message: %s",
		    p->identity.port_number, ptp_strerror(rc));
	if (set.what != MGMT_SET_NONE) {
		snprintf(who, sizeof(who), "the network on port %u",
		    p->identity.port_number);
		pmcsock_apply(c, &set, who);
	}
}
