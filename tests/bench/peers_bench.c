/*
 * peers_bench.c - netd's unicast peer table (netd/transport_peer.c)
 * against the linear table it replaced, in one run.
 *
 *   tests/bench/peers_bench [N [ROUNDS]]
 *
 * For N peers (default 10,000; IPv4 addresses): the time to learn all of
 * them, then ROUNDS passes of a lookup of each (what netd does per frame
 * received and per unicast frame sent), in ns per operation.  The linear
 * table is the one netd had before issue 15 (a search over an array,
 * least recently heard evicted by a scan), given room for N peers.
 * Prints one line per table and the ratio, "PEERS ..." for scripts.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "netd/transport.h"

/* ---- the table of netd before issue 15, but for its size ---------------- */

struct lin_peer {
	struct transport_addr addr;
	uint32_t seen;
	int pinned;
};

struct lin_table {
	struct lin_peer *e;
	unsigned cap, count;
	uint32_t clock;
};

static int
lin_eq(const struct transport_addr *a, const struct transport_addr *b)
{
	return a->len == b->len && memcmp(a->b, b->b, a->len) == 0;
}

static struct lin_peer *
lin_slot(struct lin_table *t, const struct transport_addr *a)
{
	struct lin_peer *oldest = NULL;
	unsigned i;

	for (i = 0; i < t->count; i++)
		if (lin_eq(&t->e[i].addr, a))
			return &t->e[i];
	if (t->count < t->cap) {
		memset(&t->e[t->count], 0, sizeof(t->e[0]));
		return &t->e[t->count++];
	}
	for (i = 0; i < t->count; i++) {
		if (t->e[i].pinned)
			continue;
		if (oldest == NULL ||
		    t->clock - t->e[i].seen > t->clock - oldest->seen)
			oldest = &t->e[i];
	}
	if (oldest != NULL)
		memset(oldest, 0, sizeof(*oldest));
	return oldest;
}

static void
lin_learn(struct lin_table *t, const struct transport_addr *a)
{
	struct lin_peer *p = lin_slot(t, a);

	if (p == NULL)
		return;
	p->addr = *a;
	p->seen = ++t->clock;
}

static int
lin_known(const struct lin_table *t, const struct transport_addr *a)
{
	unsigned i;

	for (i = 0; i < t->count; i++)
		if (lin_eq(&t->e[i].addr, a))
			return 1;
	return 0;
}

/* ---- the run ------------------------------------------------------------- */

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct transport_addr
addr_of(unsigned i)
{
	struct transport_addr a;

	memset(&a, 0, sizeof(a));
	a.len = 4;
	a.b[0] = 10;
	a.b[1] = (uint8_t)(i >> 16);
	a.b[2] = (uint8_t)(i >> 8);
	a.b[3] = (uint8_t)i;
	return a;
}

int
main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 10000;
	unsigned rounds = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 20;
	struct transport_peer_params pp = { n, 3900, 0, 1 };
	struct transport_peers t;
	struct lin_table lt;
	struct transport_addr *addrs;
	double t0, h_learn, h_look, l_learn, l_look;
	uint64_t now = 1000000, hit = 0;
	unsigned i, r;

	if (n == 0 || n > TRANSPORT_PEERS_LIMIT || rounds == 0) {
		fprintf(stderr, "usage: peers_bench [N [ROUNDS]]\n");
		return 2;
	}
	addrs = calloc(n, sizeof(*addrs));
	lt.e = calloc(n, sizeof(*lt.e));
	if (addrs == NULL || lt.e == NULL ||
	    transport_peers_init(&t, &pp, NULL) != 0) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	lt.cap = n;
	lt.count = 0;
	lt.clock = 0;
	for (i = 0; i < n; i++)
		addrs[i] = addr_of(i * 2654435761u % (1u << 24));

	t0 = now_s();
	for (i = 0; i < n; i++)
		transport_peer_learn(&t, &addrs[i], now);
	h_learn = now_s() - t0;
	t0 = now_s();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < n; i++)
			hit += transport_peer_find(&t, &addrs[i], now) != NULL;
	h_look = now_s() - t0;

	t0 = now_s();
	for (i = 0; i < n; i++)
		lin_learn(&lt, &addrs[i]);
	l_learn = now_s() - t0;
	t0 = now_s();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < n; i++)
			hit += lin_known(&lt, &addrs[i]);
	l_look = now_s() - t0;

	if (hit != 2ULL * n * rounds) {
		fprintf(stderr, "lookups missed: %llu of %llu\n",
		    (unsigned long long)hit, 2ULL * n * rounds);
		return 1;
	}
	printf("PEERS table=hash n=%u learn_ns=%.1f lookup_ns=%.1f "
	    "probes_per_lookup=%.2f bytes=%zu\n", n, h_learn * 1e9 / n,
	    h_look * 1e9 / ((double)n * rounds),
	    (double)t.st.probes / (double)t.st.lookups, t.map_len);
	printf("PEERS table=linear n=%u learn_ns=%.1f lookup_ns=%.1f\n", n,
	    l_learn * 1e9 / n, l_look * 1e9 / ((double)n * rounds));
	printf("PEERS ratio learn=%.0f lookup=%.0f (linear / hash)\n",
	    l_learn / h_learn, l_look / h_look);
	transport_peers_free(&t);
	free(lt.e);
	free(addrs);
	return 0;
}
