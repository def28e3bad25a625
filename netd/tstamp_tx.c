/*
 * tstamp_tx.c - the TX timestamps a port asked for and has not reported.
 *
 * Per socket a ring indexed by the key the kernel gives each timestamped
 * send (SOF_TIMESTAMPING_OPT_ID: 0, 1, 2, ... per socket, 32 bits that
 * wrap), so that a grandmaster's burst of thousands of Sync time stamps
 * costs O(1) per request, per match and per expiry (transport.h).  The
 * requests are made in key order with one timeout, so their deadlines are
 * in key order too: expiry walks from the oldest key and stops at the
 * first that is not due.  A request that outlives its deadline is
 * reported MISSING (never replaced by a made-up timestamp) and freed.
 *
 * Drift: a send that fails after the kernel took a key (or one-step
 * sends the kernel numbers without an entry of ours) makes the kernel's
 * keys run ahead of ours.  The bytes the kernel returns with each time
 * stamp find the request in a window around the expected key, when they
 * identify one; the difference is kept (off) for the later ones.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tstamp.h"

#define TX_MASK	(TRANSPORT_TX_PENDING_MAX - 1)

static void
ts_add_ms(struct timespec *ts, int ms)
{
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

static int
ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	    (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* The entry of key k, when it is owed. */
static struct transport_tx_pending *
tx_at(const struct transport_tx_ring *r, uint32_t k)
{
	struct transport_tx_pending *p;

	if (r->e == NULL)
		return NULL;
	p = &r->e[k & TX_MASK];
	return p->used && p->key == k ? p : NULL;
}

uint32_t
tstamp_tx_next_id(const struct transport_port *port)
{
	return port->next_id;
}

int
tstamp_tx_add(struct transport_port *port, enum transport_class cls,
    const uint8_t *payload, size_t len, const struct timespec *now,
    uint32_t *id)
{
	struct transport_tx_ring *r = &port->txr[cls];
	struct transport_tx_pending *p;

	if (r->e == NULL &&
	    (r->e = calloc(TRANSPORT_TX_PENDING_MAX, sizeof(*r->e))) == NULL)
		return -ENOMEM;
	p = &r->e[r->next & TX_MASK];
	/* The key came round to a request still owed: a full ring. */
	if (p->used)
		return -ENOSPC;
	memset(p, 0, sizeof(*p));
	p->used = 1;
	p->id = port->next_id++;
	p->key = r->next++;
	p->deadline = *now;
	ts_add_ms(&p->deadline, port->tx_ts_timeout_ms);
	p->len = len < TRANSPORT_TX_MATCH_LEN ? (uint8_t)len :
	    TRANSPORT_TX_MATCH_LEN;
	memcpy(p->head, payload, p->len);
	r->owed++;
	/* Nothing older than a ring's length can be owed any more. */
	if (r->next - r->tail > TRANSPORT_TX_PENDING_MAX)
		r->tail = r->next - TRANSPORT_TX_PENDING_MAX;
	*id = p->id;
	return 0;
}

/*
 * The send of request id failed before the kernel took a key: the key is
 * ours again.  The requests taken after it are queued sends not made yet
 * (transport_txq.c), which the kernel will number one lower: each moves
 * down a key.  Only the last TRANSPORT_TXQ_MAX requests are looked at.
 */
void
tstamp_tx_cancel(struct transport_port *port, enum transport_class cls,
    uint32_t id)
{
	struct transport_tx_ring *r = &port->txr[cls];
	struct transport_tx_pending *p;
	uint32_t k;
	unsigned back;

	for (back = 1; back <= TRANSPORT_TXQ_MAX; back++) {
		if ((p = tx_at(r, r->next - back)) == NULL)
			return;
		if (p->id == id)
			break;
	}
	if (back > TRANSPORT_TXQ_MAX)
		return;
	for (k = r->next - back; k + 1 != r->next; k++) {
		r->e[k & TX_MASK] = r->e[(k + 1) & TX_MASK];
		r->e[k & TX_MASK].key = k;
	}
	r->e[k & TX_MASK].used = 0;
	r->next--;
	r->owed--;
}

void
tstamp_tx_skip(struct transport_port *port, enum transport_class cls)
{
	port->txr[cls].off++;
}

static int
tx_bytes_ok(const struct transport_tx_pending *p, const uint8_t *payload,
    size_t len)
{
	return payload == NULL ||
	    (len >= p->len && memcmp(payload, p->head, p->len) == 0);
}

int
tstamp_tx_match(const struct transport_port *port, enum transport_class cls,
    uint32_t key, const uint8_t *payload, size_t len)
{
	const struct transport_tx_ring *r = &port->txr[cls];
	const struct transport_tx_pending *p;
	uint32_t ours = key - r->off, k;
	int d, found = -1, nsame = 0;

	if ((p = tx_at(r, ours)) != NULL && tx_bytes_ok(p, payload, len))
		return (int)(ours & TX_MASK);
	if (payload == NULL)
		return -1;
	/* The bytes identify one request although the key drifted. */
	for (d = -TRANSPORT_TX_DRIFT_MAX; d <= TRANSPORT_TX_DRIFT_MAX; d++) {
		k = ours + (uint32_t)d;
		if (d == 0 || (p = tx_at(r, k)) == NULL ||
		    !tx_bytes_ok(p, payload, len))
			continue;
		nsame++;
		found = (int)(k & TX_MASK);
	}
	return nsame == 1 ? found : -1;
}

uint32_t
tstamp_tx_done(struct transport_port *port, enum transport_class cls, int i,
    uint32_t key)
{
	struct transport_tx_ring *r = &port->txr[cls];
	struct transport_tx_pending *p = &r->e[i];

	/* Matched under another key: the later ones follow it. */
	r->off = key - p->key;
	p->used = 0;
	r->owed--;
	return p->id;
}

int
tstamp_tx_expire(struct transport_port *port, const struct timespec *now,
    struct transport_txts *out)
{
	struct transport_tx_ring *r;
	struct transport_tx_pending *p;
	int c;

	for (c = 0; c < TC_NUM; c++) {
		r = &port->txr[c];
		if (r->owed == 0)
			r->tail = r->next;
		while (r->owed > 0 && r->tail != r->next) {
			if ((p = tx_at(r, r->tail)) == NULL) {
				r->tail++;	/* reported or cancelled */
				continue;
			}
			if (ts_before(now, &p->deadline))
				break;
			memset(out, 0, sizeof(*out));
			out->id = p->id;
			out->cls = (enum transport_class)c;
			out->status = TXTS_MISSING;
			p->used = 0;
			r->owed--;
			r->tail++;
			port->cnt.tx_ts_missing++;
			return 1;
		}
	}
	return 0;
}

void
tstamp_tx_free(struct transport_port *port)
{
	int c;

	for (c = 0; c < TC_NUM; c++) {
		free(port->txr[c].e);
		memset(&port->txr[c], 0, sizeof(port->txr[c]));
	}
}
