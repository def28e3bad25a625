/*
 * pmcsock_net.c - the network path of PTP management (pmcsock.h): a
 * Management message a port received through netd is forwarded out the
 * other ports of a boundary clock (15.3.3), answered out its ingress port
 * (mgmt.c decides the answer), and a granted SET applied.  Also the SET
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

static int
pmcsock_emit_net(void *arg, const uint8_t *msg, size_t len)
{
	struct cport *p = arg;

	/* To the primary multicast address out the ingress port, as ptp4l
	 * answers a multicast request. */
	if (env_send_frame(&p->c->env, p->index, 0, NETD_DEST_PRIMARY, NULL,
	    msg, len, COOKIE(p->index, PTP_MT_MANAGEMENT,
	    ptp_get_be16(msg + 30)), 0) != 0)
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
pmcsock_net_rx(struct cport *p, const uint8_t *buf, size_t len)
{
	struct clockd *c = p->c;
	struct mgmt_src src;
	struct mgmt_set set;
	char who[48];
	int rc;

	pmcsock_forward(p, buf, len);
	src.ingress = (int)(p - c->ports);
	src.may_set = cfg_get_int(c->cfg, NULL, "mgmt_set_from_network");
	rc = mgmt_process(c, buf, len, &src, pmcsock_emit_net, p, &set);
	if (rc < 0)
		log_debug("port %u: dropped management message: %s",
		    p->identity.port_number, ptp_strerror(rc));
	if (set.what != MGMT_SET_NONE) {
		snprintf(who, sizeof(who), "the network on port %u",
		    p->identity.port_number);
		pmcsock_apply(c, &set, who);
	}
}
