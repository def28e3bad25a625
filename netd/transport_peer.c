/*
 * transport_peer.c - the unicast peers a port may send to.
 *
 * clockd names unicast destinations, so netd lets it reach only addresses
 * the port has heard PTP from (or was configured with): a hostile clockd
 * cannot aim PTP frames at arbitrary hosts, and cannot send any one peer
 * more than its token bucket allows (issue 15; doc/design.md, "netd's
 * unicast peers").
 *
 * The table serves a grandmaster with thousands of unicast clients
 * (IEEE 1588-2019 16.1), so it is a hash table: chains through a pool of
 * max_unicast_peers entries and a power-of-two bucket array, both in one
 * anonymous mapping made at start and touched only as peers come, so the
 * memory is bounded by transport_peers_bytes() and grows with the peers.
 * The hash is SipHash-2-4 keyed with random bytes: the sources are chosen
 * by whoever sends us frames, and with an unkeyed hash one host could put
 * every address it spoofs into one chain and make each lookup linear.
 *
 * What keeps a peer: frames from it, nothing else (not netd sending to
 * it, which a hostile clockd controls).  An unpinned peer not heard for
 * unicast_peer_timeout seconds is forgotten.  A client a server serves
 * keeps sending: Delay_Req at its granted rate, and Signaling to renew its
 * grants before they end (16.1.2; ptp4l asks for unicast_req_duration
 * 3600 s by default), so the default timeout outlives the longest grant.
 *
 * When the table is full a new peer may push out only a peer netd has
 * never sent to (the probation list, least recently heard first); a peer
 * clockd has sent to (served) leaves only by expiry.  From the hostile
 * side: a host spoofing 100,000 sources fills the table with probation
 * peers that push each other out, and never displaces the clients being
 * served; evicting the least recently heard peer of all would let it push
 * out every served client quieter than the flood, and refusing every new
 * peer would let it lock new clients out for a whole timeout.  A new
 * legitimate client still gets in (it pushes out a spoofed one) and, once
 * clockd serves it, is safe.  Only a table full of served peers refuses
 * newcomers (counted in st.full).  Serving is sending PTP's time messages
 * (Sync, Follow_Up, Delay_Resp, Announce, peer delay); Signaling and
 * Management are answers clockd gives any source (a GRANT, a denial, a
 * management response), so they do not make a peer served: a flood of
 * spoofed REQUESTs cannot turn itself into served peers, only grants can,
 * and clockd bounds those (its maximum of clients).
 *
 * Expiry is O(1): each list is in the order its peers were last heard, so
 * the expired peers are at its head (transport_peers_expire()), and a
 * lookup that finds an expired peer forgets it.  A peer promoted to the
 * served list goes to its tail although it may have been heard a little
 * earlier than the tail; it then expires a little late, never early.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/random.h>

#include "log.h"
#include "transport.h"

#define NIL		0	/* indices are stored + 1 */
#define ENT(t, i)	(&(t)->e[(i) - 1])

/* ---- SipHash-2-4 (Aumasson and Bernstein), over at most 17 octets ---- */

#define ROTL(x, b)	(uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static void
sip_round(uint64_t v[4])
{
	v[0] += v[1]; v[1] = ROTL(v[1], 13); v[1] ^= v[0];
	v[0] = ROTL(v[0], 32);
	v[2] += v[3]; v[3] = ROTL(v[3], 16); v[3] ^= v[2];
	v[0] += v[3]; v[3] = ROTL(v[3], 21); v[3] ^= v[0];
	v[2] += v[1]; v[1] = ROTL(v[1], 17); v[1] ^= v[2];
	v[2] = ROTL(v[2], 32);
}

static uint64_t
le64(const uint8_t *p)
{
	uint64_t x = 0;
	int i;

	for (i = 7; i >= 0; i--)
		x = x << 8 | p[i];
	return x;
}

static uint64_t
siphash24(const uint64_t key[2], const uint8_t *in, size_t len)
{
	uint64_t v[4], m, b = (uint64_t)len << 56;
	uint8_t last[8];
	size_t i, rest = len & 7;

	v[0] = key[0] ^ UINT64_C(0x736f6d6570736575);
	v[1] = key[1] ^ UINT64_C(0x646f72616e646f6d);
	v[2] = key[0] ^ UINT64_C(0x6c7967656e657261);
	v[3] = key[1] ^ UINT64_C(0x7465646279746573);
	for (i = 0; i + 8 <= len; i += 8) {
		m = le64(in + i);
		v[3] ^= m;
		sip_round(v);
		sip_round(v);
		v[0] ^= m;
	}
	memset(last, 0, sizeof(last));
	memcpy(last, in + i, rest);
	b |= le64(last);
	v[3] ^= b;
	sip_round(v);
	sip_round(v);
	v[0] ^= b;
	v[2] ^= 0xff;
	for (i = 0; i < 4; i++)
		sip_round(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

uint64_t
transport_peer_hash(const uint64_t key[2], const struct transport_addr *a)
{
	uint8_t in[1 + TRANSPORT_ADDR_MAX];

	/* The length is hashed too: an IPv4 address is not that MAC. */
	in[0] = a->len;
	memcpy(in + 1, a->b, a->len);
	return siphash24(key, in, 1 + (size_t)a->len);
}

/* ---- token buckets ------------------------------------------------------ */

int
transport_tb_take(struct transport_tb *tb, unsigned rate, unsigned burst,
    uint64_t now_ms)
{
	uint64_t cap = (uint64_t)(burst ? burst : 1) * 1000, add;
	uint32_t dt = (uint32_t)now_ms - tb->t_ms;	/* wrap-safe */

	if (rate == 0)
		return 1;
	/* rate messages/s is rate milli-messages per ms. */
	add = (uint64_t)dt * rate;
	tb->tokens = (uint32_t)((uint64_t)tb->tokens + add > cap ? cap :
	    tb->tokens + add);
	tb->t_ms = (uint32_t)now_ms;
	if (tb->tokens < 1000)
		return 0;
	tb->tokens -= 1000;
	return 1;
}

static void
tb_fill(struct transport_tb *tb, unsigned burst, uint64_t now_ms)
{
	uint64_t cap = (uint64_t)(burst ? burst : 1) * 1000;

	tb->tokens = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
	tb->t_ms = (uint32_t)now_ms;
}

/* ---- the table ---------------------------------------------------------- */

/*
 * Only a unicast address is a peer: a group or zero MAC, an IPv4 address
 * of 0/8 or 224/4 and above (multicast, reserved, broadcast), or IPv6 ::
 * and ff00::/8 would let clockd aim "unicast" frames at many hosts.  The
 * kernel drops such sources already (martians, 802.3 3.2.3 for l2.c);
 * this is the table's own check, for configured peers too.
 */
static int
addr_valid(const struct transport_addr *a)
{
	static const uint8_t zero[TRANSPORT_ADDR_MAX];

	switch (a->len) {
	case 6:
		return !(a->b[0] & 0x01) && memcmp(a->b, zero, 6) != 0;
	case 4:
		return a->b[0] != 0 && a->b[0] < 224;
	case 16:
		return a->b[0] != 0xff && memcmp(a->b, zero, 16) != 0;
	}
	return 0;
}

static uint32_t
nbucket_of(unsigned max)
{
	uint32_t n = 16;

	while (n < max)
		n <<= 1;
	return n;
}

size_t
transport_peers_bytes(const struct transport_peer_params *pa)
{
	return (size_t)pa->max * sizeof(struct transport_peer) +
	    (size_t)nbucket_of(pa->max) * sizeof(uint32_t);
}

static void
peers_key(uint64_t key[2])
{
	uint8_t b[16];
	struct timespec a, r;

	if (getrandom(b, sizeof(b), GRND_NONBLOCK) == (ssize_t)sizeof(b)) {
		key[0] = le64(b);
		key[1] = le64(b + 8);
		return;
	}
	/* Early boot, no entropy yet: a weaker key beats none. */
	log_warnx("getrandom: no entropy yet; the peer table's hash key "
	    "is weak");
	clock_gettime(CLOCK_MONOTONIC, &a);
	clock_gettime(CLOCK_REALTIME, &r);
	key[0] = (uint64_t)a.tv_nsec << 32 ^ (uint64_t)r.tv_nsec ^
	    (uint64_t)getpid() << 17;
	key[1] = (uint64_t)r.tv_sec * UINT64_C(0x9e3779b97f4a7c15) ^
	    (uint64_t)a.tv_sec;
}

int
transport_peers_init(struct transport_peers *t,
    const struct transport_peer_params *pa, const uint8_t *key)
{
	void *m;
	size_t len;

	memset(t, 0, sizeof(*t));
	if (pa->max == 0 || pa->max > TRANSPORT_PEERS_LIMIT)
		return -EINVAL;
	t->pa = *pa;
	t->nbucket = nbucket_of(pa->max);
	len = transport_peers_bytes(pa);
	/* Anonymous pages read as zero and cost nothing until written. */
	m = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -ENOMEM;
	t->map = m;
	t->map_len = len;
	t->e = m;
	t->bucket = (uint32_t *)(void *)((char *)m +
	    (size_t)pa->max * sizeof(struct transport_peer));
	if (key != NULL) {
		t->key[0] = le64(key);
		t->key[1] = le64(key + 8);
	} else
		peers_key(t->key);
	return 0;
}

void
transport_peers_free(struct transport_peers *t)
{
	if (t->map != NULL)
		munmap(t->map, t->map_len);
	memset(t, 0, sizeof(*t));
}

static void
list_unlink(struct transport_peers *t, uint32_t i)
{
	struct transport_peer *p = ENT(t, i);

	if (p->prev != NIL)
		ENT(t, p->prev)->succ = p->succ;
	else
		t->head[p->list] = p->succ;
	if (p->succ != NIL)
		ENT(t, p->succ)->prev = p->prev;
	else
		t->tail[p->list] = p->prev;
	p->prev = p->succ = NIL;
}

static void
list_append(struct transport_peers *t, uint32_t i, uint8_t list)
{
	struct transport_peer *p = ENT(t, i);

	p->list = list;
	p->succ = NIL;
	p->prev = t->tail[list];
	if (p->prev != NIL)
		ENT(t, p->prev)->succ = i;
	else
		t->head[list] = i;
	t->tail[list] = i;
}

/* The index (+ 1) of a's entry, or NIL; *pprev its chain predecessor. */
static uint32_t
chain_find(struct transport_peers *t, const struct transport_addr *a,
    uint32_t *bkt, uint32_t *pprev)
{
	uint32_t i, prev = NIL;
	struct transport_peer *p;

	*bkt = (uint32_t)transport_peer_hash(t->key, a) & (t->nbucket - 1);
	t->st.lookups++;
	for (i = t->bucket[*bkt]; i != NIL; prev = i, i = p->next) {
		p = ENT(t, i);
		t->st.probes++;
		if (p->addr.len == a->len && memcmp(p->addr.b, a->b,
		    a->len) == 0)
			break;
	}
	if (pprev != NULL)
		*pprev = prev;
	return i;
}

static void
peer_remove(struct transport_peers *t, uint32_t i)
{
	struct transport_peer *p = ENT(t, i);
	uint32_t bkt, prev, j;

	j = chain_find(t, &p->addr, &bkt, &prev);
	if (j == i) {
		if (prev != NIL)
			ENT(t, prev)->next = p->next;
		else
			t->bucket[bkt] = p->next;
	}
	list_unlink(t, i);
	memset(p, 0, sizeof(*p));
	p->next = t->free;
	t->free = i;
	t->count--;
}

static int
peer_expired(const struct transport_peers *t, const struct transport_peer *p,
    uint64_t now_ms)
{
	uint32_t now_s = (uint32_t)(now_ms / 1000);

	return p->list != TPL_PINNED &&
	    (uint32_t)(now_s - p->heard_s) >= t->pa.timeout_s;
}

unsigned
transport_peers_expire(struct transport_peers *t, uint64_t now_ms,
    unsigned budget)
{
	static const uint8_t lists[] = { TPL_PROBATION, TPL_SERVED };
	unsigned n = 0, k;
	uint32_t i;

	if (t->map == NULL)
		return 0;
	for (k = 0; k < sizeof(lists); k++) {
		while (n < budget && (i = t->head[lists[k]]) != NIL &&
		    peer_expired(t, ENT(t, i), now_ms)) {
			peer_remove(t, i);
			t->st.expired++;
			n++;
		}
	}
	return n;
}

/* A free entry for a new peer, or NIL when only served ones are left. */
static uint32_t
peer_alloc(struct transport_peers *t, uint64_t now_ms)
{
	uint32_t i;

	(void)transport_peers_expire(t, now_ms, 2);
	if (t->count >= t->pa.max) {
		/* Full: push out the least recently heard unserved peer. */
		if ((i = t->head[TPL_PROBATION]) == NIL)
			return NIL;
		peer_remove(t, i);
		t->st.evicted++;
	}
	if (t->free != NIL) {
		i = t->free;
		t->free = ENT(t, i)->next;
	} else if (t->hw < t->pa.max)
		i = ++t->hw;
	else
		return NIL;	/* not reached: count < max */
	memset(ENT(t, i), 0, sizeof(struct transport_peer));
	t->count++;
	return i;
}

static uint32_t
peer_insert(struct transport_peers *t, const struct transport_addr *a,
    uint64_t now_ms, uint8_t list)
{
	struct transport_peer *p;
	uint32_t i, bkt;

	if ((i = peer_alloc(t, now_ms)) == NIL)
		return NIL;
	p = ENT(t, i);
	p->addr = *a;
	p->heard_s = (uint32_t)(now_ms / 1000);
	tb_fill(&p->tb, t->pa.tx_burst, now_ms);
	/* The bucket again: peer_alloc() may have moved a chain's head. */
	bkt = (uint32_t)transport_peer_hash(t->key, a) & (t->nbucket - 1);
	p->next = t->bucket[bkt];
	t->bucket[bkt] = i;
	list_append(t, i, list);
	t->st.learned++;
	return i;
}

int
transport_peer_learn(struct transport_peers *t,
    const struct transport_addr *a, uint64_t now_ms)
{
	struct transport_peer *p;
	uint32_t i, bkt;

	if (!addr_valid(a))
		return -EINVAL;
	if (t->map == NULL)
		return 0;
	if ((i = chain_find(t, a, &bkt, NULL)) != NIL) {
		p = ENT(t, i);
		p->heard_s = (uint32_t)(now_ms / 1000);
		if (p->list != TPL_PINNED) {
			/* To the tail: its list stays in the order heard. */
			list_unlink(t, i);
			list_append(t, i, p->list);
		}
		return 1;
	}
	if (peer_insert(t, a, now_ms, TPL_PROBATION) == NIL) {
		t->st.full++;
		return 0;
	}
	return 1;
}

int
transport_peer_pin(struct transport_peers *t, const struct transport_addr *a)
{
	return transport_peer_pin_at(t, a, transport_now_ms());
}

int
transport_peer_pin_at(struct transport_peers *t,
    const struct transport_addr *a, uint64_t now_ms)
{
	uint32_t i, bkt;

	if (!addr_valid(a))
		return -EINVAL;
	if (t->map == NULL)
		return -ENOSPC;
	if ((i = chain_find(t, a, &bkt, NULL)) != NIL) {
		list_unlink(t, i);
		list_append(t, i, TPL_PINNED);
		return 0;
	}
	return peer_insert(t, a, now_ms, TPL_PINNED) == NIL ? -ENOSPC : 0;
}

struct transport_peer *
transport_peer_find(struct transport_peers *t, const struct transport_addr *a,
    uint64_t now_ms)
{
	uint32_t i, bkt;

	if (t->map == NULL || !addr_valid(a))
		return NULL;
	if ((i = chain_find(t, a, &bkt, NULL)) == NIL)
		return NULL;
	if (peer_expired(t, ENT(t, i), now_ms)) {
		peer_remove(t, i);
		t->st.expired++;
		return NULL;
	}
	return ENT(t, i);
}

int
transport_peer_tx(struct transport_peers *t, const struct transport_addr *a,
    uint64_t now_ms, int serve)
{
	struct transport_peer *p;
	uint32_t i;

	if ((p = transport_peer_find(t, a, now_ms)) == NULL)
		return -EPERM;
	if (!transport_tb_take(&p->tb, t->pa.tx_rate, t->pa.tx_burst,
	    now_ms)) {
		t->st.tx_limited++;
		return -EDQUOT;
	}
	if (serve && p->list == TPL_PROBATION) {
		/* Served now: no newcomer may push it out (see the top). */
		i = (uint32_t)(p - t->e) + 1;
		list_unlink(t, i);
		list_append(t, i, TPL_SERVED);
	}
	return 0;
}

/* ---- struct transport_port wrappers -------------------------------------- */

uint64_t
transport_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int
transport_peer_add(struct transport_port *port, const struct transport_addr *a)
{
	return transport_peer_pin(&port->peers, a);
}

int
transport_peer_known(struct transport_port *port,
    const struct transport_addr *a)
{
	return transport_peer_find(&port->peers, a, transport_now_ms()) !=
	    NULL;
}
