/*
 * uneg.c - unicast negotiation (IEEE 1588-2019 16.1): the grant table of a
 * server and the request state of a client.  Pure: no I/O, no clock; see
 * uneg.h for the policy.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "uneg.h"

#define NS_PER_S	1000000000LL
/* linuxptp ignores periods beyond 2^+-30 s; so do we (never granted). */
#define UNEG_MAX_ABS_LOG	30

int
uneg_kind_of(unsigned msg_type)
{
	switch (msg_type) {
	case PTP_MT_ANNOUNCE:		return UNEG_ANNOUNCE;
	case PTP_MT_SYNC:		return UNEG_SYNC;
	case PTP_MT_DELAY_RESP:		return UNEG_DELAY_RESP;
	case PTP_MT_PDELAY_RESP:	return UNEG_PDELAY_RESP;
	}
	return -1;
}

unsigned
uneg_msg_type(enum uneg_kind k)
{
	static const unsigned t[UNEG_NKINDS] = {
		PTP_MT_ANNOUNCE, PTP_MT_SYNC, PTP_MT_DELAY_RESP,
		PTP_MT_PDELAY_RESP,
	};

	return t[k];
}

int
uneg_addr_equal(const struct netd_addr *a, const struct netd_addr *b)
{
	return a->family == b->family && a->len == b->len &&
	    a->len <= sizeof(a->b) && memcmp(a->b, b->b, a->len) == 0;
}

static int64_t
period_ns(int8_t log_period)
{
	if (log_period >= 0)
		return NS_PER_S << log_period;
	return NS_PER_S >> -log_period;
}

/* ---- server ---- */

/*
 * FNV-1a, then a final mix (murmur3's fmix32): the table takes the low
 * bits, and FNV-1a's low bits alone are poor for keys that differ in a
 * few low-order octets, as a fleet's MACs and addresses do: 1,000
 * sequential MACs filled 161 of 1,024 buckets, chains up to 28, and the
 * lookup on every Delay_Req was 13 % of a 1,000-client grandmaster's
 * clockd (tests/bench/scale.sh, perf).
 */
uint32_t
uneg_key_hash(const struct ptp_port_identity *pid, const struct netd_addr *a)
{
	uint32_t h = 2166136261u;	/* FNV-1a */
	unsigned i;

	for (i = 0; i < PTP_CLOCK_ID_LEN; i++)
		h = (h ^ pid->clock_identity[i]) * 16777619u;
	h = (h ^ (pid->port_number & 0xff)) * 16777619u;
	h = (h ^ (pid->port_number >> 8)) * 16777619u;
	for (i = 0; i < a->len && i < sizeof(a->b); i++)
		h = (h ^ a->b[i]) * 16777619u;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

int
uneg_srv_init(struct uneg_srv *s, const struct uneg_limits *lim)
{
	uint32_t i, nb = 16;

	memset(s, 0, sizeof(*s));
	if (lim->max_clients == 0 || lim->max_clients > (1u << 24))
		return -1;
	s->lim = *lim;
	while (nb < lim->max_clients)
		nb <<= 1;
	s->c = calloc(lim->max_clients, sizeof(*s->c));
	s->bucket = malloc(nb * sizeof(*s->bucket));
	if (s->c == NULL || s->bucket == NULL) {
		uneg_srv_fini(s);
		return -1;
	}
	s->nbucket = nb;
	for (i = 0; i < nb; i++)
		s->bucket[i] = -1;
	for (i = 0; i < lim->max_clients; i++)
		s->c[i].next = i + 1 < lim->max_clients ? (int32_t)i + 1 : -1;
	s->free = 0;
	return 0;
}

void
uneg_srv_fini(struct uneg_srv *s)
{
	free(s->c);
	free(s->bucket);
	s->c = NULL;
	s->bucket = NULL;
	s->nclients = 0;
}

static int32_t
srv_find(const struct uneg_srv *s, const struct ptp_port_identity *pid,
    const struct netd_addr *a)
{
	int32_t i;

	if (s->c == NULL)
		return -1;
	for (i = s->bucket[uneg_key_hash(pid, a) & (s->nbucket - 1)]; i >= 0;
	    i = s->c[i].next)
		if (ptp_port_identity_equal(&s->c[i].pid, pid) &&
		    uneg_addr_equal(&s->c[i].addr, a))
			return i;
	return -1;
}

static int32_t
srv_add(struct uneg_srv *s, const struct ptp_port_identity *pid,
    const struct netd_addr *a)
{
	uint32_t b = uneg_key_hash(pid, a) & (s->nbucket - 1);
	int32_t i = s->free;

	if (i < 0)
		return -1;
	s->free = s->c[i].next;
	memset(&s->c[i], 0, sizeof(s->c[i]));
	s->c[i].pid = *pid;
	s->c[i].addr = *a;
	s->c[i].used = 1;
	s->c[i].next = s->bucket[b];
	s->bucket[b] = i;
	s->nclients++;
	return i;
}

static void
srv_remove(struct uneg_srv *s, int32_t i)
{
	uint32_t b = uneg_key_hash(&s->c[i].pid, &s->c[i].addr) & (s->nbucket - 1);
	int32_t *pp;

	for (pp = &s->bucket[b]; *pp >= 0; pp = &s->c[*pp].next)
		if (*pp == i) {
			*pp = s->c[i].next;
			break;
		}
	memset(&s->c[i], 0, sizeof(s->c[i]));
	s->c[i].next = s->free;
	s->free = i;
	s->nclients--;
}

static int
client_idle(const struct uneg_client *cl)
{
	unsigned k;

	for (k = 0; k < UNEG_NKINDS; k++)
		if (cl->g[k].expires != 0)
			return 0;
	return 1;
}

/* The first point of the period's grid at or after now. */
int64_t
uneg_grid_next(int64_t now, int8_t log_period)
{
	int64_t p = period_ns(log_period);

	return now <= 0 ? 0 : ((now + p - 1) / p) * p;
}

int
uneg_srv_request(struct uneg_srv *s, const struct ptp_port_identity *pid,
    const struct netd_addr *addr, const struct ptp_uneg_tlv *req,
    int64_t now, struct ptp_uneg_tlv *grant)
{
	struct uneg_grant *g;
	uint32_t dur;
	int32_t i;
	int k = uneg_kind_of(req->message_type);

	/* 16.1.4.2: the grant names the type and period asked for. */
	memset(grant, 0, sizeof(*grant));
	grant->type = PTP_TLV_GRANT_UNICAST_TRANSMISSION;
	grant->message_type = req->message_type;
	grant->log_period = req->log_period;
	if (k < 0)
		goto refuse;
	if (req->duration == 0) {
		s->st.refused_duration++;
		goto refuse;
	}
	if (req->log_period < s->lim.min_log_period ||
	    req->log_period > UNEG_MAX_ABS_LOG ||
	    req->log_period < -UNEG_MAX_ABS_LOG) {
		s->st.refused_period++;
		goto refuse;
	}
	if ((i = srv_find(s, pid, addr)) < 0 &&
	    (i = srv_add(s, pid, addr)) < 0) {
		s->st.refused_full++;
		goto refuse;
	}
	dur = req->duration < s->lim.max_duration ? req->duration :
	    s->lim.max_duration;
	s->c[i].heard = 1;
	g = &s->c[i].g[k];
	/* A new period (or a new grant) starts on its grid; a renewal of
	 * the same period keeps its slot. */
	if (g->expires == 0 || g->log_period != req->log_period)
		g->next_due = uneg_grid_next(now, req->log_period);
	g->log_period = req->log_period;
	g->expires = now + (int64_t)dur * NS_PER_S;
	grant->duration = dur;
	grant->renewal_invited = 1;
	s->st.granted++;
	return 1;
refuse:
	s->st.refused++;
	return 0;
}

int
uneg_srv_cancel(struct uneg_srv *s, const struct ptp_port_identity *pid,
    const struct netd_addr *addr, const struct ptp_uneg_tlv *cancel,
    struct ptp_uneg_tlv *ack)
{
	int k = uneg_kind_of(cancel->message_type);
	int32_t i = srv_find(s, pid, addr);

	/* 16.1.4.4: acknowledged with the type (and flags) cancelled. */
	memset(ack, 0, sizeof(*ack));
	ack->type = PTP_TLV_ACK_CANCEL_UNICAST_TRANSMISSION;
	ack->message_type = cancel->message_type;
	ack->flags = cancel->flags;
	if (k < 0 || i < 0 || s->c[i].g[k].expires == 0) {
		s->st.unknown_cancels++;
		return 0;
	}
	memset(&s->c[i].g[k], 0, sizeof(s->c[i].g[k]));
	if (client_idle(&s->c[i]))
		srv_remove(s, i);
	s->st.cancelled++;
	return 1;
}

void
uneg_srv_expire(struct uneg_srv *s, int64_t now)
{
	unsigned i, k;

	for (i = 0; s->c != NULL && i < s->lim.max_clients; i++) {
		if (!s->c[i].used)
			continue;
		for (k = 0; k < UNEG_NKINDS; k++) {
			struct uneg_grant *g = &s->c[i].g[k];

			if (g->expires != 0 && g->expires <= now) {
				memset(g, 0, sizeof(*g));
				s->st.expired++;
			}
		}
		if (client_idle(&s->c[i]))
			srv_remove(s, (int32_t)i);
	}
}

unsigned
uneg_srv_due(struct uneg_srv *s, enum uneg_kind k, int64_t now,
    uint32_t *out, unsigned max)
{
	unsigned i, n = 0;

	for (i = 0; s->c != NULL && i < s->lim.max_clients && n < max; i++) {
		struct uneg_grant *g = &s->c[i].g[k];

		if (!s->c[i].used || g->expires == 0 || g->expires <= now ||
		    g->next_due > now)
			continue;
		if (s->c[i].heard)
			out[n++] = i;
		/* The next slot of the grid: a late wake-up skips the
		 * missed ones rather than sending a burst. */
		g->next_due = uneg_grid_next(now + 1, g->log_period);
	}
	return n;
}

int64_t
uneg_srv_next_due(const struct uneg_srv *s, enum uneg_kind k)
{
	int64_t t = INT64_MAX;
	unsigned i;

	for (i = 0; s->c != NULL && i < s->lim.max_clients; i++)
		if (s->c[i].used && s->c[i].g[k].expires != 0 &&
		    s->c[i].g[k].next_due < t)
			t = s->c[i].g[k].next_due;
	return t;
}

void
uneg_srv_unheard(struct uneg_srv *s)
{
	unsigned i;

	for (i = 0; s->c != NULL && i < s->lim.max_clients; i++)
		s->c[i].heard = 0;
}

void
uneg_srv_heard(struct uneg_srv *s, const struct ptp_port_identity *pid,
    const struct netd_addr *addr)
{
	int32_t i = srv_find(s, pid, addr);

	if (i >= 0)
		s->c[i].heard = 1;
}

int
uneg_srv_has(const struct uneg_srv *s, const struct ptp_port_identity *pid,
    const struct netd_addr *addr, enum uneg_kind k, int64_t now)
{
	int32_t i = srv_find(s, pid, addr);

	return i >= 0 && s->c[i].g[k].expires > now;
}

/* ---- client ---- */

int
uneg_cli_init(struct uneg_cli *c, const struct netd_addr *addrs, unsigned n,
    uint32_t duration)
{
	unsigned i;

	memset(c, 0, sizeof(*c));
	c->duration = duration;
	c->want_delay_resp = 1;
	if (n == 0)
		return 0;
	if ((c->m = calloc(n, sizeof(*c->m))) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		c->m[i].addr = addrs[i];
	c->n = n;
	return 0;
}

void
uneg_cli_fini(struct uneg_cli *c)
{
	free(c->m);
	c->m = NULL;
	c->n = 0;
}

int
uneg_cli_find(const struct uneg_cli *c, const struct netd_addr *addr)
{
	unsigned i;

	for (i = 0; i < c->n; i++)
		if (uneg_addr_equal(&c->m[i].addr, addr))
			return (int)i;
	return -1;
}

static void
req_tlv(struct ptp_uneg_tlv *t, enum uneg_kind k, int8_t log_period,
    uint32_t duration)
{
	memset(t, 0, sizeof(*t));
	t->type = PTP_TLV_REQUEST_UNICAST_TRANSMISSION;
	t->message_type = (uint8_t)uneg_msg_type(k);
	t->log_period = log_period;
	t->duration = duration;
}

static unsigned
cli_sydy(const struct uneg_cli *c, struct ptp_uneg_tlv *out)
{
	unsigned n = 0;

	req_tlv(&out[n++], UNEG_SYNC, c->log_sync, c->duration);
	if (c->want_delay_resp)
		req_tlv(&out[n++], UNEG_DELAY_RESP, c->log_delay,
		    c->duration);
	return n;
}

static unsigned
cli_sydy_mask(const struct uneg_cli *c)
{
	return 1u << UNEG_SYNC | (c->want_delay_resp ? 1u << UNEG_DELAY_RESP :
	    0);
}

unsigned
uneg_cli_tick(struct uneg_cli *c, unsigned i, int64_t now,
    struct ptp_uneg_tlv *out)
{
	struct uneg_master *m = &c->m[i];
	unsigned n = 0;

	/* A grant that ran out unrenewed (the master went silent, or our
	 * renewals were lost): start over. */
	if (m->state != UNEG_WAIT && m->expires[UNEG_ANNOUNCE] <= now) {
		m->state = UNEG_WAIT;
		m->granted = 0;
		m->renew_at = 0;
		m->renewing = 0;
	}
	switch (m->state) {
	case UNEG_WAIT:
		req_tlv(&out[n++], UNEG_ANNOUNCE, c->log_announce,
		    c->duration);
		break;
	case UNEG_NEED_SYDY:
		n = cli_sydy(c, out);
		break;
	case UNEG_HAVE_ANN:
	case UNEG_HAVE_SYDY:
		/* due, or asked at the last query and not granted */
		if ((m->renew_at == 0 && !m->renewing) ||
		    (m->renew_at != 0 && now < m->renew_at))
			break;
		m->renew_at = 0;
		m->renewing = 1;
		req_tlv(&out[n++], UNEG_ANNOUNCE, c->log_announce,
		    c->duration);
		if (m->state == UNEG_HAVE_SYDY)
			n += cli_sydy(c, out + n);
		break;
	}
	return n;
}

static void
cli_renew_at(struct uneg_master *m, uint32_t duration, int64_t now)
{
	/* linuxptp renews at 3/4 of the duration granted: the earliest of
	 * the grants it holds. */
	int64_t t = now + (int64_t)duration * (NS_PER_S / 4) * 3;

	if (m->renew_at == 0 || t < m->renew_at)
		m->renew_at = t;
}

int
uneg_cli_grant(struct uneg_cli *c, const struct netd_addr *addr,
    const struct ptp_port_identity *src, const struct ptp_uneg_tlv *g,
    int64_t now)
{
	int i = uneg_cli_find(c, addr), k;
	struct uneg_master *m;

	if (i < 0) {
		c->rogue++;
		return -1;
	}
	m = &c->m[i];
	k = uneg_kind_of(g->message_type);
	if (k < 0 || k == UNEG_PDELAY_RESP)
		return i;
	if (g->duration == 0) {
		/* Refused (16.1.4.2): ask again from the start at the next
		 * query, as linuxptp does. */
		c->refusals++;
		m->state = UNEG_WAIT;
		m->granted = 0;
		m->renew_at = 0;
		m->renewing = 0;
		return i;
	}
	if (g->log_period > UNEG_MAX_ABS_LOG ||
	    g->log_period < -UNEG_MAX_ABS_LOG)
		return i;
	m->granted |= 1u << k;
	m->renewing = 0;
	m->expires[k] = now + (int64_t)g->duration * NS_PER_S;
	m->log_period[k] = g->log_period;
	switch (m->state) {
	case UNEG_WAIT:
	case UNEG_HAVE_ANN:
		if (k == UNEG_ANNOUNCE) {
			m->state = UNEG_HAVE_ANN;
			m->pid = *src;
			m->have_pid = 1;
			cli_renew_at(m, g->duration, now);
		}
		break;
	case UNEG_NEED_SYDY:
		if ((m->granted & cli_sydy_mask(c)) == cli_sydy_mask(c))
			m->state = UNEG_HAVE_SYDY;
		cli_renew_at(m, g->duration, now);
		break;
	case UNEG_HAVE_SYDY:
		cli_renew_at(m, g->duration, now);
		break;
	}
	return i;
}

int
uneg_cli_cancel(struct uneg_cli *c, const struct netd_addr *addr,
    const struct ptp_uneg_tlv *cancel, struct ptp_uneg_tlv *ack)
{
	int i = uneg_cli_find(c, addr), k;
	struct uneg_master *m;

	if (i < 0) {
		c->rogue++;
		return -1;
	}
	m = &c->m[i];
	memset(ack, 0, sizeof(*ack));
	ack->type = PTP_TLV_ACK_CANCEL_UNICAST_TRANSMISSION;
	ack->message_type = cancel->message_type;
	ack->flags = cancel->flags;
	k = uneg_kind_of(cancel->message_type);
	/* The server stops a service (16.1.4.3): unless it maintains the
	 * grant, everything is asked for again. */
	if (k >= 0 && k != UNEG_PDELAY_RESP &&
	    !(cancel->flags & PTP_UNEG_MAINTAIN_GRANT)) {
		m->granted &= ~(1u << k);
		m->expires[k] = 0;
		m->state = UNEG_WAIT;
		m->renew_at = 0;
		m->renewing = 0;
	}
	return i;
}

unsigned
uneg_cli_select(struct uneg_cli *c, const struct ptp_port_identity *parent,
    unsigned *cancel_out)
{
	unsigned i, n = 0;

	for (i = 0; i < c->n; i++) {
		struct uneg_master *m = &c->m[i];
		int chosen = parent != NULL && m->have_pid &&
		    ptp_port_identity_equal(&m->pid, parent);

		if (chosen) {
			if (m->state == UNEG_HAVE_ANN)
				m->state = UNEG_NEED_SYDY;
			continue;
		}
		if (m->state == UNEG_HAVE_SYDY)
			cancel_out[n++] = i;
		if (m->state == UNEG_NEED_SYDY || m->state == UNEG_HAVE_SYDY) {
			m->state = UNEG_HAVE_ANN;
			m->granted &= ~cli_sydy_mask(c);
		}
	}
	return n;
}

unsigned
uneg_cli_cancels(const struct uneg_cli *c, unsigned i,
    struct ptp_uneg_tlv *out)
{
	unsigned n = 0;

	(void)i;
	memset(&out[0], 0, sizeof(out[0]));
	out[n].type = PTP_TLV_CANCEL_UNICAST_TRANSMISSION;
	out[n++].message_type = PTP_MT_SYNC;
	if (c->want_delay_resp) {
		memset(&out[n], 0, sizeof(out[n]));
		out[n].type = PTP_TLV_CANCEL_UNICAST_TRANSMISSION;
		out[n++].message_type = PTP_MT_DELAY_RESP;
	}
	return n;
}

/* ---- client: the peer delay responder ---- */

static const struct ptp_port_identity peer_all_ports = {
	{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, 0xffff,
};

void
uneg_peer_init(struct uneg_peer *pe, const struct netd_addr *addr)
{
	memset(pe, 0, sizeof(*pe));
	pe->addr = *addr;
	/* 13.12.1: all ports until the peer's grant names its port */
	pe->pid = peer_all_ports;
}

unsigned
uneg_peer_tick(struct uneg_peer *pe, int8_t log_period, uint32_t duration,
    int64_t now, struct ptp_uneg_tlv *out)
{
	if (pe->expires != 0 && pe->expires <= now) {
		pe->expires = 0;
		pe->renew_at = 0;
	}
	if (pe->renew_at != 0 && now < pe->renew_at)
		return 0;
	/* Asked now: again at every query until a grant comes. */
	pe->renew_at = 0;
	req_tlv(out, UNEG_PDELAY_RESP, log_period, duration);
	return 1;
}

int
uneg_peer_grant(struct uneg_peer *pe, const struct netd_addr *addr,
    const struct ptp_port_identity *src, const struct ptp_uneg_tlv *g,
    int64_t now)
{
	if (!uneg_addr_equal(&pe->addr, addr) ||
	    g->message_type != PTP_MT_PDELAY_RESP)
		return 0;
	if (g->duration == 0) {
		/* Refused (16.1.4.2): the Pdelay_Req still go (linuxptp's
		 * do too); the grant is asked again at the next query. */
		pe->refusals++;
		pe->expires = 0;
		pe->renew_at = 0;
		return 1;
	}
	if (g->log_period > UNEG_MAX_ABS_LOG ||
	    g->log_period < -UNEG_MAX_ABS_LOG)
		return 1;
	pe->pid = *src;
	pe->have_pid = 1;
	pe->grants++;
	pe->log_period = g->log_period;
	pe->expires = now + (int64_t)g->duration * NS_PER_S;
	pe->renew_at = now + (int64_t)g->duration * (NS_PER_S / 4) * 3;
	return 1;
}

int
uneg_peer_cancel(struct uneg_peer *pe, const struct netd_addr *addr,
    const struct ptp_uneg_tlv *cancel, struct ptp_uneg_tlv *ack)
{
	if (!uneg_addr_equal(&pe->addr, addr) ||
	    cancel->message_type != PTP_MT_PDELAY_RESP)
		return 0;
	/* 16.1.4.3/16.1.4.4: acknowledged; unless the peer maintains the
	 * grant it is gone and asked for again. */
	memset(ack, 0, sizeof(*ack));
	ack->type = PTP_TLV_ACK_CANCEL_UNICAST_TRANSMISSION;
	ack->message_type = cancel->message_type;
	ack->flags = cancel->flags;
	if (!(cancel->flags & PTP_UNEG_MAINTAIN_GRANT)) {
		pe->cancels++;
		pe->expires = 0;
		pe->renew_at = 0;
	}
	return 1;
}

int
uneg_peer_granted(const struct uneg_peer *pe, int64_t now)
{
	return pe->expires > now;
}
