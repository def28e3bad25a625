/*
 * evq.c - ptpsim's event queue: a binary heap ordered by (time, insertion
 * sequence), so that events due at the same simulated nanosecond run in
 * the order they were queued, the same order on every run.  Each event
 * knows its slot, so that a timer can be re-armed or cancelled in
 * O(log n) without leaving a stale entry behind.
 */
#include "config.h"

#include <stdlib.h>

#include "sim.h"

static int
ev_before(const struct sim_ev *a, const struct sim_ev *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	return a->seq < b->seq;
}

static void
evq_set(struct sim_evq *q, size_t i, struct sim_ev *ev)
{
	q->heap[i] = ev;
	ev->idx = (int)i;
}

static void
evq_up(struct sim_evq *q, size_t i)
{
	struct sim_ev *ev = q->heap[i];

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!ev_before(ev, q->heap[parent]))
			break;
		evq_set(q, i, q->heap[parent]);
		i = parent;
	}
	evq_set(q, i, ev);
}

static void
evq_down(struct sim_evq *q, size_t i)
{
	struct sim_ev *ev = q->heap[i];

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m;

		if (l >= q->n)
			break;
		m = r < q->n && ev_before(q->heap[r], q->heap[l]) ? r : l;
		if (!ev_before(q->heap[m], ev))
			break;
		evq_set(q, i, q->heap[m]);
		i = m;
	}
	evq_set(q, i, ev);
}

int
evq_init(struct sim_evq *q)
{
	q->n = 0;
	q->seq = 0;
	q->cap = 256;
	q->heap = calloc(q->cap, sizeof(*q->heap));
	return q->heap == NULL ? -1 : 0;
}

void
evq_fini(struct sim_evq *q)
{
	free(q->heap);
	q->heap = NULL;
	q->n = q->cap = 0;
}

int
evq_push(struct sim_evq *q, struct sim_ev *ev, int64_t t)
{
	if (q->n == q->cap) {
		struct sim_ev **h = realloc(q->heap, 2 * q->cap * sizeof(*h));

		if (h == NULL)
			return -1;
		q->heap = h;
		q->cap *= 2;
	}
	ev->t = t;
	ev->seq = q->seq++;
	q->heap[q->n] = ev;
	ev->idx = (int)q->n;
	q->n++;
	evq_up(q, q->n - 1);
	return 0;
}

void
evq_remove(struct sim_evq *q, struct sim_ev *ev)
{
	size_t i;

	if (ev->idx < 0)
		return;
	i = (size_t)ev->idx;
	ev->idx = -1;
	q->n--;
	if (i == q->n)
		return;
	evq_set(q, i, q->heap[q->n]);
	/* The moved entry may belong above or below slot i. */
	if (i > 0 && ev_before(q->heap[i], q->heap[(i - 1) / 2]))
		evq_up(q, i);
	else
		evq_down(q, i);
}

struct sim_ev *
evq_pop(struct sim_evq *q)
{
	struct sim_ev *ev;

	if (q->n == 0)
		return NULL;
	ev = q->heap[0];
	evq_remove(q, ev);
	return ev;
}

const struct sim_ev *
evq_peek(const struct sim_evq *q)
{
	return q->n > 0 ? q->heap[0] : NULL;
}
