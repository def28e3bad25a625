/*
 * tstamp_tx.c - the TX timestamps a port asked for and has not reported.
 *
 * A small fixed table per socket: a port sends a handful of event messages
 * per second, and a request that outlives its deadline is reported
 * MISSING (never replaced by a made-up timestamp) and freed.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "tstamp.h"

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

int
tstamp_tx_add(struct transport_port *port, enum transport_class cls,
    uint32_t key, const uint8_t *payload, size_t len,
    const struct timespec *now, uint32_t *id)
{
	struct transport_tx_pending *p;
	int i;

	for (i = 0; i < TRANSPORT_TX_PENDING_MAX; i++)
		if (!port->pending[cls][i].used)
			break;
	if (i == TRANSPORT_TX_PENDING_MAX)
		return -ENOSPC;
	p = &port->pending[cls][i];
	memset(p, 0, sizeof(*p));
	p->used = 1;
	p->id = port->next_id++;
	p->key = key;
	p->deadline = *now;
	ts_add_ms(&p->deadline, port->tx_ts_timeout_ms);
	p->len = len < TRANSPORT_TX_MATCH_LEN ? len : TRANSPORT_TX_MATCH_LEN;
	memcpy(p->head, payload, p->len);
	*id = p->id;
	return 0;
}

void
tstamp_tx_cancel(struct transport_port *port, enum transport_class cls,
    uint32_t id)
{
	int i;

	for (i = 0; i < TRANSPORT_TX_PENDING_MAX; i++)
		if (port->pending[cls][i].used && port->pending[cls][i].id == id)
			port->pending[cls][i].used = 0;
}

int
tstamp_tx_match(const struct transport_port *port, enum transport_class cls,
    uint32_t key, const uint8_t *payload, size_t len)
{
	const struct transport_tx_pending *p;
	int i, found = -1, nsame = 0;

	for (i = 0; i < TRANSPORT_TX_PENDING_MAX; i++) {
		p = &port->pending[cls][i];
		if (!p->used)
			continue;
		if (payload != NULL &&
		    (len < p->len || memcmp(payload, p->head, p->len) != 0))
			continue;
		if (p->key == key)
			return i;
		nsame++;
		found = i;
	}
	/* The bytes identify one request although the key drifted. */
	if (payload != NULL && nsame == 1)
		return found;
	return -1;
}

int
tstamp_tx_expire(struct transport_port *port, const struct timespec *now,
    struct transport_txts *out)
{
	struct transport_tx_pending *p;
	int c, i;

	for (c = 0; c < TC_NUM; c++)
		for (i = 0; i < TRANSPORT_TX_PENDING_MAX; i++) {
			p = &port->pending[c][i];
			if (!p->used || ts_before(now, &p->deadline))
				continue;
			memset(out, 0, sizeof(*out));
			out->id = p->id;
			out->cls = (enum transport_class)c;
			out->status = TXTS_MISSING;
			p->used = 0;
			port->cnt.tx_ts_missing++;
			return 1;
		}
	return 0;
}
