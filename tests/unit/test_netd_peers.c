/*
 * test_netd_peers.c - netd's unicast peer table (netd/transport_peer.c):
 * learn and look up, expiry on injected time, pinned peers, what a full
 * table gives up, 10,000+ peers, keyed hashing against aimed collisions,
 * and the per-peer TX token bucket.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "netd/transport.h"

#define T0	((uint64_t)1000000 * 1000)	/* 10^6 s, in ms */

static const uint8_t key1[16] = "0123456789abcdef";
static const uint8_t key2[16] = "fedcba9876543210";

static struct transport_addr
v4(uint32_t n)
{
	struct transport_addr a;

	memset(&a, 0, sizeof(a));
	if ((n >> 24) == 0)
		n |= 0x0a000000;	/* 0/8 is no peer: 10/8 */
	a.len = 4;
	a.b[0] = (uint8_t)(n >> 24);
	a.b[1] = (uint8_t)(n >> 16);
	a.b[2] = (uint8_t)(n >> 8);
	a.b[3] = (uint8_t)n;
	return a;
}

static struct transport_addr
mac(uint32_t n)
{
	struct transport_addr a;

	memset(&a, 0, sizeof(a));
	a.len = 6;
	a.b[0] = 0x02;
	a.b[3] = (uint8_t)(n >> 16);
	a.b[4] = (uint8_t)(n >> 8);
	a.b[5] = (uint8_t)n;
	return a;
}

static struct transport_addr
v6(uint32_t n)
{
	struct transport_addr a;

	memset(&a, 0, sizeof(a));
	a.len = 16;
	a.b[0] = 0xfd;
	a.b[12] = (uint8_t)(n >> 24);
	a.b[13] = (uint8_t)(n >> 16);
	a.b[14] = (uint8_t)(n >> 8);
	a.b[15] = (uint8_t)n;
	return a;
}

static void
table(struct transport_peers *t, unsigned max, unsigned timeout_s,
    unsigned rate, unsigned burst, const uint8_t *key)
{
	struct transport_peer_params pp = { max, timeout_s, rate, burst };

	assert_int_equal(transport_peers_init(t, &pp, key), 0);
}

static void
test_learn_lookup(void **state)
{
	struct transport_peers t;
	struct transport_addr a = v4(0x0a000001), m = mac(1), b;

	(void)state;
	table(&t, 64, 100, 0, 1, key1);
	assert_null(transport_peer_find(&t, &a, T0));
	assert_int_equal(transport_peer_learn(&t, &a, T0), 1);
	assert_non_null(transport_peer_find(&t, &a, T0));
	assert_int_equal(t.count, 1);
	/* Again: refreshed, not a second entry. */
	assert_int_equal(transport_peer_learn(&t, &a, T0 + 5), 1);
	assert_int_equal(t.count, 1);
	assert_int_equal(t.st.learned, 1);
	/* The same leading bytes as a MAC, or 16 octets: other peers. */
	memcpy(m.b, a.b, 4);
	assert_null(transport_peer_find(&t, &m, T0));
	b = v6(0x0a000001);
	memcpy(b.b, a.b, 4);
	assert_null(transport_peer_find(&t, &b, T0));
	/* Bad lengths are refused, never stored. */
	b.len = 5;
	assert_int_equal(transport_peer_learn(&t, &b, T0), -EINVAL);
	assert_int_equal(transport_peer_pin(&t, &b), -EINVAL);
	b.len = 0;
	assert_int_equal(transport_peer_learn(&t, &b, T0), -EINVAL);
	/* Group, broadcast and unspecified addresses are never peers. */
	{
		static const char *const bad[] = {
			"\x01\x1b\x19\x00\x00\x00", "\xff\xff\xff\xff\xff\xff",
			"\x00\x00\x00\x00\x00\x00", "\xe0\x00\x01\x81",
			"\xff\xff\xff\xff", "\x00\x00\x00\x00", "\xf0\x00\x00\x01",
			"\xff\x0e\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			    "\x00\x00\x01\x81",
			"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			    "\x00\x00\x00\x00",
		};
		static const uint8_t lens[] = { 6, 6, 6, 4, 4, 4, 4, 16, 16 };
		unsigned k;

		for (k = 0; k < sizeof(lens); k++) {
			memset(&b, 0, sizeof(b));
			b.len = lens[k];
			memcpy(b.b, bad[k], lens[k]);
			assert_int_equal(transport_peer_learn(&t, &b, T0),
			    -EINVAL);
			assert_int_equal(transport_peer_pin(&t, &b), -EINVAL);
		}
	}
	assert_int_equal(t.count, 1);
	/* -EPERM for a peer never heard, as transport_send() returns. */
	assert_int_equal(transport_peer_tx(&t, &m, T0, 1), -EPERM);
	assert_int_equal(transport_peer_tx(&t, &a, T0, 1), 0);
	transport_peers_free(&t);
	/* Bounds of the size. */
	{
		struct transport_peer_params z = { 0, 1, 0, 1 };

		assert_int_equal(transport_peers_init(&t, &z, key1), -EINVAL);
		z.max = TRANSPORT_PEERS_LIMIT + 1;
		assert_int_equal(transport_peers_init(&t, &z, key1), -EINVAL);
	}
}

static void
test_expiry(void **state)
{
	struct transport_peers t;
	struct transport_addr a = v4(1), b = v4(2), c = v4(3), p = v4(99);
	uint64_t now = T0;

	(void)state;
	table(&t, 64, 100, 0, 1, key1);
	assert_int_equal(transport_peer_pin(&t, &p), 0);
	transport_peer_learn(&t, &a, now);
	transport_peer_learn(&t, &b, now);
	transport_peer_learn(&t, &c, now + 50 * 1000);
	/* b talks again at +60 s: it lives until +160 s. */
	transport_peer_learn(&t, &b, now + 60 * 1000);
	assert_non_null(transport_peer_find(&t, &a, now + 99 * 1000));
	/* Idle for timeout_s: forgotten by the lookup itself. */
	assert_null(transport_peer_find(&t, &a, now + 100 * 1000));
	assert_int_equal(t.st.expired, 1);
	assert_int_equal(transport_peer_tx(&t, &a, now + 100 * 1000, 1),
	    -EPERM);
	assert_non_null(transport_peer_find(&t, &b, now + 159 * 1000));
	/* The sweep takes what expired from the heads, within its budget. */
	assert_int_equal(transport_peers_expire(&t, now + 170 * 1000, 8), 2);
	assert_null(transport_peer_find(&t, &b, now + 170 * 1000));
	assert_null(transport_peer_find(&t, &c, now + 170 * 1000));
	assert_int_equal(t.count, 1);
	/* Pinned (configured): never, however long unheard. */
	assert_non_null(transport_peer_find(&t, &p, now + 1000000ULL * 1000));
	assert_int_equal(transport_peers_expire(&t, now + 1000000ULL * 1000,
	    8), 0);
	/* Heard again after expiry: learned anew. */
	assert_int_equal(transport_peer_learn(&t, &a, now + 200 * 1000), 1);
	assert_non_null(transport_peer_find(&t, &a, now + 200 * 1000));
	transport_peers_free(&t);
}

/*
 * A full table: new peers push out only peers never sent to (least
 * recently heard first); served and pinned peers stay; a table of served
 * peers takes no newcomer and counts it.
 */
static void
test_full(void **state)
{
	struct transport_peers t;
	struct transport_addr a;
	uint64_t now = T0;
	unsigned i;

	(void)state;
	table(&t, 1000, 3900, 0, 1, key1);
	a = v4(0xc0a80001);
	assert_int_equal(transport_peer_pin(&t, &a), 0);
	for (i = 0; i < 999; i++) {
		a = v4(0x0a000000 + i);
		assert_int_equal(transport_peer_learn(&t, &a, now), 1);
	}
	assert_int_equal(t.count, 1000);
	/* clockd serves the first 100. */
	for (i = 0; i < 100; i++) {
		a = v4(0x0a000000 + i);
		assert_int_equal(transport_peer_tx(&t, &a, now, 1), 0);
	}
	/* A spoofing host: 100,000 new sources, each heard later. */
	for (i = 0; i < 100000; i++) {
		a = v4(0x0b000000 + i);
		assert_int_equal(transport_peer_learn(&t, &a, now + 1 + i / 100),
		    1);
	}
	assert_int_equal(t.count, 1000);
	assert_int_equal(t.st.full, 0);
	assert_true(t.st.evicted >= 100000 - 1);
	now += 1 + 100000 / 100;
	for (i = 0; i < 100; i++) {
		a = v4(0x0a000000 + i);
		assert_non_null(transport_peer_find(&t, &a, now));
	}
	a = v4(0xc0a80001);
	assert_non_null(transport_peer_find(&t, &a, now));
	/* The unserved legitimate ones went; the newest spoofed are in. */
	a = v4(0x0a000000 + 500);
	assert_null(transport_peer_find(&t, &a, now));
	a = v4(0x0b000000 + 99999);
	assert_non_null(transport_peer_find(&t, &a, now));
	/* A new legitimate client gets in and, once served, stays. */
	a = v4(0x0a0000ff);
	assert_int_equal(transport_peer_learn(&t, &a, now), 1);
	assert_int_equal(transport_peer_tx(&t, &a, now, 1), 0);
	for (i = 0; i < 5000; i++) {
		struct transport_addr s = v4(0x0c000000 + i);

		transport_peer_learn(&t, &s, now);
	}
	assert_non_null(transport_peer_find(&t, &a, now));

	/*
	 * Answered with Signaling only (serve 0: a GRANT or a denial to a
	 * spoofed REQUEST): still on probation, pushed out by newcomers.
	 */
	a = v4(0x0e000001);
	assert_int_equal(transport_peer_learn(&t, &a, now), 1);
	assert_int_equal(transport_peer_tx(&t, &a, now, 0), 0);
	for (i = 0; i < 5000; i++) {
		struct transport_addr s = v4(0x0f000000 + i);

		transport_peer_learn(&t, &s, now);
	}
	assert_null(transport_peer_find(&t, &a, now));

	/* Every peer served: a newcomer is refused and counted. */
	for (i = 0; i < 100000; i++) {
		struct transport_addr s = v4(0x0b000000 + i);

		if (transport_peer_find(&t, &s, now) != NULL)
			(void)transport_peer_tx(&t, &s, now, 1);
	}
	for (i = 0; i < 5000; i++) {
		struct transport_addr s = v4(0x0c000000 + i),
		    f = v4(0x0f000000 + i);

		if (transport_peer_find(&t, &s, now) != NULL)
			(void)transport_peer_tx(&t, &s, now, 1);
		if (transport_peer_find(&t, &f, now) != NULL)
			(void)transport_peer_tx(&t, &f, now, 1);
	}
	assert_int_equal(t.head[TPL_PROBATION], 0);
	a = v4(0x0d000001);
	assert_int_equal(transport_peer_learn(&t, &a, now), 0);
	assert_int_equal(t.st.full, 1);
	assert_null(transport_peer_find(&t, &a, now));
	/* Until served ones expire: then the newcomer takes a slot. */
	now += 3900 * 1000;
	assert_int_equal(transport_peer_learn(&t, &a, now), 1);
	a = v4(0xc0a80001);
	assert_non_null(transport_peer_find(&t, &a, now));
	transport_peers_free(&t);
}

/* Longest chain of the table. */
static unsigned
max_chain(const struct transport_peers *t)
{
	unsigned b, n, m = 0;
	uint32_t i;

	for (b = 0; b < t->nbucket; b++) {
		n = 0;
		for (i = t->bucket[b]; i != 0; i = t->e[i - 1].next)
			n++;
		if (n > m)
			m = n;
	}
	return m;
}

/* 16,384 peers of all three families: all kept, lookups O(1). */
static void
test_scale(void **state)
{
	struct transport_peers t;
	struct transport_addr a;
	uint64_t probes, lookups;
	unsigned i, n = 16384;

	(void)state;
	table(&t, n, 3900, 640, 64, NULL);
	assert_int_equal(transport_peers_bytes(&t.pa), t.map_len);
	/* 44 octets per peer and 4 per bucket (x86-64; at most 48). */
	assert_true(sizeof(struct transport_peer) <= 48);
	assert_int_equal(t.map_len, (size_t)n * sizeof(struct transport_peer) +
	    (size_t)t.nbucket * 4);
	for (i = 0; i < n; i++) {
		a = i % 3 == 0 ? v4(0x0a000000 + i) : i % 3 == 1 ? mac(i) :
		    v6(i);
		assert_int_equal(transport_peer_learn(&t, &a, T0), 1);
	}
	assert_int_equal(t.count, n);
	assert_int_equal(t.st.evicted, 0);
	probes = t.st.probes;
	lookups = t.st.lookups;
	for (i = 0; i < n; i++) {
		a = i % 3 == 0 ? v4(0x0a000000 + i) : i % 3 == 1 ? mac(i) :
		    v6(i);
		assert_non_null(transport_peer_find(&t, &a, T0));
	}
	lookups = t.st.lookups - lookups;
	probes = t.st.probes - probes;
	print_message("16384 peers: %.2f probes per hit, longest chain %u\n",
	    (double)probes / (double)lookups, max_chain(&t));
	/* Load 1: about 1.5 compared per successful lookup. */
	assert_true(probes < 2 * lookups);
	assert_true(max_chain(&t) <= 12);
	transport_peers_free(&t);
}

/*
 * An attacker who knew the hash key could aim every source it spoofs at
 * one bucket, and each lookup would walk them all.  Addresses made to
 * collide under key1: in a table keyed with key1 the chain is as long as
 * the flood (the probe count shows the degradation is real); under
 * another key, which a remote host cannot know, they spread out.
 */
static void
test_collisions(void **state)
{
	struct transport_peers t;
	struct transport_addr col[200], a;
	uint64_t probes, lookups;
	unsigned n = 0, max = 4096;
	uint32_t x;

	(void)state;
	table(&t, max, 3900, 0, 1, key1);
	for (x = 0; n < 200; x++) {
		a = v4(x);
		if ((transport_peer_hash(t.key, &a) & (t.nbucket - 1)) == 7)
			col[n++] = a;
	}
	for (n = 0; n < 200; n++)
		transport_peer_learn(&t, &col[n], T0);
	assert_int_equal(max_chain(&t), 200);
	probes = t.st.probes;
	assert_non_null(transport_peer_find(&t, &col[0], T0));
	assert_true(t.st.probes - probes >= 200);	/* linear */
	transport_peers_free(&t);

	table(&t, max, 3900, 0, 1, key2);
	for (n = 0; n < 200; n++)
		transport_peer_learn(&t, &col[n], T0);
	probes = t.st.probes;
	lookups = t.st.lookups;
	for (n = 0; n < 200; n++)
		assert_non_null(transport_peer_find(&t, &col[n], T0));
	print_message("200 aimed collisions under another key: longest "
	    "chain %u, %.2f probes per lookup\n", max_chain(&t),
	    (double)(t.st.probes - probes) / (double)(t.st.lookups - lookups));
	assert_true(max_chain(&t) <= 4);
	assert_true(t.st.probes - probes <= 2 * (t.st.lookups - lookups));
	transport_peers_free(&t);

	/* Keys drawn with getrandom() differ from table to table. */
	{
		struct transport_peers u;

		table(&t, 16, 10, 0, 1, NULL);
		table(&u, 16, 10, 0, 1, NULL);
		assert_false(t.key[0] == u.key[0] && t.key[1] == u.key[1]);
		transport_peers_free(&t);
		transport_peers_free(&u);
	}
}

/* What one peer may be sent: burst at once, then rate per second. */
static void
test_tx_limit(void **state)
{
	struct transport_peers t;
	struct transport_addr a = v4(1), b = v4(2);
	uint64_t now = T0;
	unsigned i, ok;

	(void)state;
	table(&t, 64, 3900, 640, 64, key1);
	transport_peer_learn(&t, &a, now);
	transport_peer_learn(&t, &b, now);
	for (i = 0; i < 64; i++)
		assert_int_equal(transport_peer_tx(&t, &a, now, 1), 0);
	assert_int_equal(transport_peer_tx(&t, &a, now, 1), -EDQUOT);
	assert_int_equal(t.st.tx_limited, 1);
	/* Another peer has its own bucket. */
	assert_int_equal(transport_peer_tx(&t, &b, now, 1), 0);
	/* 100 ms: 64 more; one second at 1000 asks: 640 + the burst. */
	now += 100;
	for (i = 0; i < 64; i++)
		assert_int_equal(transport_peer_tx(&t, &a, now, 1), 0);
	assert_int_equal(transport_peer_tx(&t, &a, now, 1), -EDQUOT);
	for (ok = 0, i = 0; i < 1000; i++)
		ok += transport_peer_tx(&t, &a, now + 1 + i, 1) == 0;
	assert_true(ok >= 639 && ok <= 641);
	/* Learning (what the peer sends) does not refill the bucket. */
	transport_peer_learn(&t, &a, now + 1000);
	assert_int_equal(transport_peer_tx(&t, &a, now + 1000, 1), -EDQUOT);
	transport_peers_free(&t);

	/* rate 0: no limit. */
	table(&t, 64, 3900, 0, 1, key1);
	transport_peer_learn(&t, &a, T0);
	for (i = 0; i < 10000; i++)
		assert_int_equal(transport_peer_tx(&t, &a, T0, 1), 0);
	transport_peers_free(&t);
}

/* The bucket across the wrap of its 32-bit ms clock. */
static void
test_tb_wrap(void **state)
{
	struct transport_tb tb = { 0, 0xfffffff0u };
	uint64_t now = ((uint64_t)1 << 32) + 0x10;	/* 32 ms later */

	(void)state;
	/* 10/s: 32 ms give 0.32 of a message; 100 ms give one. */
	assert_int_equal(transport_tb_take(&tb, 10, 4, now), 0);
	assert_int_equal(transport_tb_take(&tb, 10, 4, now + 68), 1);
	assert_int_equal(transport_tb_take(&tb, 10, 4, now + 68), 0);
	/* Long idle: at most burst. */
	now += 3600 * 1000;
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(transport_tb_take(&tb, 10, 4, now), 1);
	assert_int_equal(transport_tb_take(&tb, 10, 4, now), 0);
}

/* ---- a model: the same rules, naively, against the table ---------------- */

#define MODEL_MAX	32
#define MODEL_ADDRS	96

struct model_peer {
	int in;
	uint8_t list;
	uint32_t heard_s;
	uint64_t seq;		/* order on its list */
};

static struct model_peer mp[MODEL_ADDRS];
static uint64_t mseq;
static unsigned mcount;

static int
model_expired(const struct model_peer *m, uint64_t now, unsigned timeout)
{
	return m->list != TPL_PINNED &&
	    (uint32_t)(now / 1000) - m->heard_s >= timeout;
}

/* The peer at the head of a list (the least seq), or -1. */
static int
model_head(uint8_t list)
{
	int i, h = -1;

	for (i = 0; i < MODEL_ADDRS; i++)
		if (mp[i].in && mp[i].list == list &&
		    (h < 0 || mp[i].seq < mp[h].seq))
			h = i;
	return h;
}

static unsigned
model_expire(uint64_t now, unsigned timeout, unsigned budget)
{
	static const uint8_t lists[] = { TPL_PROBATION, TPL_SERVED };
	unsigned n = 0, k;
	int h;

	for (k = 0; k < 2; k++)
		while (n < budget && (h = model_head(lists[k])) >= 0 &&
		    model_expired(&mp[h], now, timeout)) {
			mp[h].in = 0;
			mcount--;
			n++;
		}
	return n;
}

static int
model_insert(int i, uint64_t now, unsigned timeout, uint8_t list)
{
	int h;

	(void)model_expire(now, timeout, 2);
	if (mcount >= MODEL_MAX) {
		if ((h = model_head(TPL_PROBATION)) < 0)
			return 0;
		mp[h].in = 0;
		mcount--;
	}
	mp[i].in = 1;
	mp[i].list = list;
	mp[i].heard_s = (uint32_t)(now / 1000);
	mp[i].seq = ++mseq;
	mcount++;
	return 1;
}

/* Walks the table: every chain entry counted once, lists consistent. */
static void
check_structure(const struct transport_peers *t)
{
	unsigned b, n = 0, l, k;
	uint32_t i, prev;

	for (b = 0; b < t->nbucket; b++)
		for (i = t->bucket[b]; i != 0; i = t->e[i - 1].next) {
			assert_true(i <= t->hw);
			assert_int_equal(transport_peer_hash(t->key,
			    &t->e[i - 1].addr) & (t->nbucket - 1), b);
			n++;
		}
	assert_int_equal(n, t->count);
	for (n = 0, l = TPL_PROBATION; l < TPL_NUM; l++) {
		prev = 0;
		for (k = 0, i = t->head[l]; i != 0; i = t->e[i - 1].succ) {
			assert_int_equal(t->e[i - 1].list, l);
			assert_int_equal(t->e[i - 1].prev, prev);
			prev = i;
			k++;
		}
		assert_int_equal(t->tail[l], prev);
		n += k;
	}
	assert_int_equal(n, t->count);
}

/*
 * 200,000 random operations (learn, send, look up, sweep, pin) on a
 * table of 32 over 96 addresses, with time moving on, against the model:
 * the same answers and count after each, and the chains and lists whole
 * (eviction, expiry, refusal when full of served peers, the free list).
 */
static void
test_model(void **state)
{
	const unsigned timeout = 20;
	struct transport_peers t;
	struct transport_addr a;
	uint64_t now = T0;
	unsigned seed = 12345, step, op, i, r;
	int got, want;

	(void)state;
	memset(mp, 0, sizeof(mp));
	mseq = 0;
	mcount = 0;
	table(&t, MODEL_MAX, timeout, 0, 1, key1);
	for (step = 0; step < 200000; step++) {
		seed = seed * 1103515245u + 12345u;
		r = seed >> 8;
		op = r % 100;
		i = (r / 100) % MODEL_ADDRS;
		a = v4(0x0a000000 + i);
		/* Time moves on, slowly in the third quarter: the table
		 * fills with served peers and refuses newcomers. */
		now += (r >> 20) % (step / 50000 == 2 ? 400 : 3) == 0 ?
		    (r >> 12) % 700 : 0;
		if (op < 50) {
			got = transport_peer_learn(&t, &a, now);
			if (mp[i].in) {
				mp[i].heard_s = (uint32_t)(now / 1000);
				if (mp[i].list != TPL_PINNED)
					mp[i].seq = ++mseq;
				want = 1;
			} else
				want = model_insert((int)i, now, timeout,
				    TPL_PROBATION);
			assert_int_equal(got, want);
		} else if (op < 70) {
			int serve = op < 65;

			got = transport_peer_tx(&t, &a, now, serve);
			if (mp[i].in && model_expired(&mp[i], now, timeout)) {
				mp[i].in = 0;
				mcount--;
			}
			want = mp[i].in ? 0 : -EPERM;
			if (mp[i].in && serve && mp[i].list == TPL_PROBATION) {
				mp[i].list = TPL_SERVED;
				mp[i].seq = ++mseq;
			}
			assert_int_equal(got, want);
		} else if (op < 95) {
			got = transport_peer_find(&t, &a, now) != NULL;
			if (mp[i].in && model_expired(&mp[i], now, timeout)) {
				mp[i].in = 0;
				mcount--;
			}
			assert_int_equal(got, mp[i].in);
		} else if (op < 99) {
			assert_int_equal(transport_peers_expire(&t, now, 3),
			    model_expire(now, timeout, 3));
		} else if (i < 4) {
			/* A few configured peers. */
			got = transport_peer_pin_at(&t, &a, now);
			if (mp[i].in) {
				mp[i].list = TPL_PINNED;
				mp[i].seq = ++mseq;
				want = 0;
			} else
				want = model_insert((int)i, now, timeout,
				    TPL_PINNED) ? 0 : -ENOSPC;
			assert_int_equal(got, want);
		}
		assert_int_equal(t.count, mcount);
		if (step % 1000 == 0)
			check_structure(&t);
	}
	check_structure(&t);
	assert_true(t.st.evicted > 0 && t.st.expired > 0 && t.st.full > 0);
	print_message("model: %llu learned, %llu evicted, %llu expired, "
	    "%llu refused (full)\n", (unsigned long long)t.st.learned,
	    (unsigned long long)t.st.evicted,
	    (unsigned long long)t.st.expired, (unsigned long long)t.st.full);
	transport_peers_free(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_learn_lookup),
		cmocka_unit_test(test_expiry),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_collisions),
		cmocka_unit_test(test_tx_limit),
		cmocka_unit_test(test_tb_wrap),
		cmocka_unit_test(test_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
