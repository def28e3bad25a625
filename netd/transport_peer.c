/*
 * transport_peer.c - the unicast peers a port may send to.
 *
 * clockd names unicast destinations, so netd lets it reach only addresses
 * the port has heard PTP from (or was configured with): a hostile clockd
 * cannot aim PTP frames at arbitrary hosts.  The table is small and
 * bounded; when full, the peer heard least recently is forgotten.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "transport.h"

static int
addr_eq(const struct transport_addr *a, const struct transport_addr *b)
{
	return a->len == b->len && memcmp(a->b, b->b, a->len) == 0;
}

static int
addr_valid(const struct transport_addr *a)
{
	return a->len == 6 || a->len == 4 || a->len == 16;
}

static struct transport_peer *
peer_slot(struct transport_peers *t, const struct transport_addr *a)
{
	struct transport_peer *oldest = NULL;
	unsigned int i;

	for (i = 0; i < t->count; i++)
		if (addr_eq(&t->e[i].addr, a))
			return &t->e[i];
	if (t->count < TRANSPORT_PEERS_MAX) {
		memset(&t->e[t->count], 0, sizeof(t->e[0]));
		return &t->e[t->count++];
	}
	for (i = 0; i < t->count; i++) {
		if (t->e[i].pinned)
			continue;
		/* Wrap-safe: the largest age is the least recent. */
		if (oldest == NULL ||
		    t->clock - t->e[i].seen > t->clock - oldest->seen)
			oldest = &t->e[i];
	}
	if (oldest != NULL)
		memset(oldest, 0, sizeof(*oldest));
	return oldest;
}

void
transport_peer_learn(struct transport_peers *t, const struct transport_addr *a)
{
	struct transport_peer *p;

	if (!addr_valid(a) || (p = peer_slot(t, a)) == NULL)
		return;
	p->addr = *a;
	p->seen = ++t->clock;
}

int
transport_peer_add(struct transport_port *port, const struct transport_addr *a)
{
	struct transport_peer *p;

	if (!addr_valid(a))
		return -EINVAL;
	if ((p = peer_slot(&port->peers, a)) == NULL)
		return -ENOSPC;
	p->addr = *a;
	p->seen = ++port->peers.clock;
	p->pinned = 1;
	return 0;
}

int
transport_peer_known(const struct transport_port *port,
    const struct transport_addr *a)
{
	unsigned int i;

	for (i = 0; i < port->peers.count; i++)
		if (addr_eq(&port->peers.e[i].addr, a))
			return 1;
	return 0;
}
