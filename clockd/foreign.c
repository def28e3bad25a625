/*
 * foreign.c - foreign-master records and Announce qualification, IEEE
 * 1588-2019 9.3.2.4 and 9.3.2.5; see foreign.h.
 *
 * Where this differs from ptp4l (port.c add_foreign_master, fc_prune):
 *  - ptp4l does not count the first Announce of a new foreign master, so it
 *    qualifies one on its third Announce; here every Announce counts and
 *    FOREIGN_MASTER_THRESHOLD (2) within the window qualify, as 9.3.2.5
 *    reads.  The difference is one announce interval of settling time.
 *  - ptp4l clears the messages of every qualified foreign master but the
 *    best at each state decision; here entries keep their arrivals, so a
 *    second-best master stands ready when the best one goes silent.
 *  - The table is bounded (FM_MAX_ENTRIES) and a duplicate sequenceId is
 *    not counted twice ("distinct Announce messages", 9.3.2.5).
 */
#include "config.h"

#include <string.h>

#include "foreign.h"

static int
clamp_log(int log_interval)
{
	if (log_interval < FM_LOG_INTERVAL_MIN)
		return FM_LOG_INTERVAL_MIN;
	if (log_interval > FM_LOG_INTERVAL_MAX)
		return FM_LOG_INTERVAL_MAX;
	return log_interval;
}

int64_t
fm_interval_ns(int log_interval)
{
	const int64_t sec = 1000000000;

	log_interval = clamp_log(log_interval);
	if (log_interval >= 0)
		return sec << log_interval;
	return sec >> -log_interval;
}

int64_t
fm_window_ns(int log_interval)
{
	return FM_WINDOW_INTERVALS * fm_interval_ns(log_interval);
}

int64_t
fm_announce_timeout_ns(unsigned int receipt_timeout, int log_interval)
{
	if (receipt_timeout > 255)
		receipt_timeout = 255;	/* announceReceiptTimeout: UInteger8 */
	return (int64_t)receipt_timeout * fm_interval_ns(log_interval);
}

int64_t
fm_announce_timeout_random_ns(unsigned int receipt_timeout,
    unsigned int span, int log_interval, uint32_t rnd)
{
	uint64_t span_ns;

	if (span > 255)
		span = 255;
	/* 15 random bits, (r + 1) / 2^15 in (0, 1] (ptp4l's resolution);
	 * span_ns <= 255 * 1024 s < 2^48, so the product stays below 2^63. */
	span_ns = (uint64_t)span * (uint64_t)fm_interval_ns(log_interval);
	return fm_announce_timeout_ns(receipt_timeout, log_interval) +
	    (int64_t)((span_ns * ((rnd >> 17) + 1)) >> 15);
}

int64_t
fm_qualification_timeout_ns(unsigned int steps_removed, int log_interval)
{
	if (steps_removed > 0xffff)
		steps_removed = 0xffff;	/* stepsRemoved: UInteger16 */
	return ((int64_t)steps_removed + 1) * fm_interval_ns(log_interval);
}

/* An arrival at t is within the window of w ns before now (ptp4l's
 * msg_current: age < window).  A time after now counts as current. */
static int
in_window(int64_t t, int64_t now, int64_t w)
{
	if (t >= now)
		return 1;
	return (uint64_t)now - (uint64_t)t < (uint64_t)w;
}

unsigned int
fm_window_count(const struct fm_entry *e, int64_t now_ns)
{
	int64_t w = fm_window_ns(e->log_interval);
	unsigned int i, n = 0;

	for (i = 0; i < e->n_rx; i++)
		if (in_window(e->rx[i], now_ns, w))
			n++;
	return n;
}

int
fm_qualified(const struct fm_entry *e, int64_t now_ns)
{
	/* stepsRemoved >= maxStepsRemoved never gets into the table. */
	return fm_window_count(e, now_ns) >= FM_THRESHOLD;
}

void
fm_init(struct fm_table *t, const uint8_t own[PTP_CLOCK_ID_LEN])
{
	memset(t, 0, sizeof(*t));
	memcpy(t->own_clock_identity, own, PTP_CLOCK_ID_LEN);
	t->dscmp = BMC_DSCMP_IEEE1588;
	t->local_priority = BMC_LOCAL_PRIORITY_DEFAULT;
	t->max_steps_removed = FM_MAX_STEPS_REMOVED;
}

void
fm_set_bmca(struct fm_table *t, enum bmc_dscmp dscmp, uint8_t local_priority,
    uint8_t max_steps_removed)
{
	t->dscmp = dscmp;
	t->local_priority = local_priority;
	t->max_steps_removed = max_steps_removed > 0 ? max_steps_removed : 1;
}

void
fm_clear(struct fm_table *t)
{
	memset(t->e, 0, sizeof(t->e));
	t->n = 0;
}

size_t
fm_count(const struct fm_table *t)
{
	return t->n;
}

static struct fm_entry *
find(struct fm_table *t, const struct ptp_port_identity *src)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (ptp_port_identity_equal(&t->e[i].hdr.source_port_identity,
		    src))
			return &t->e[i];
	return NULL;
}

static void
remove_at(struct fm_table *t, size_t i)
{
	memmove(&t->e[i], &t->e[i + 1], (t->n - i - 1) * sizeof(t->e[0]));
	t->n--;
	memset(&t->e[t->n], 0, sizeof(t->e[0]));
}

static int64_t
last_rx(const struct fm_entry *e)
{
	return e->n_rx ? e->rx[e->n_rx - 1] : INT64_MIN;
}

/* Make room in a full table: the least recently heard unqualified entry
 * goes first, else the least recently heard one.  Returns 1 if the entry
 * evicted was qualified. */
static int
evict(struct fm_table *t, int64_t now)
{
	size_t i, victim = 0;
	int found = 0, q;

	for (i = 0; i < t->n; i++) {
		if (fm_qualified(&t->e[i], now))
			continue;
		if (!found || last_rx(&t->e[i]) < last_rx(&t->e[victim])) {
			victim = i;
			found = 1;
		}
	}
	if (!found)
		for (i = 1; i < t->n; i++)
			if (last_rx(&t->e[i]) < last_rx(&t->e[victim]))
				victim = i;
	q = fm_qualified(&t->e[victim], now);
	remove_at(t, victim);
	return q;
}

/* The fields of an Announce that make its data set (9.3.4). */
static int
dataset_differs(const struct ptp_announce *a, const struct ptp_announce *b)
{
	return a->grandmaster_priority1 != b->grandmaster_priority1 ||
	    a->grandmaster_clock_quality.clock_class !=
		b->grandmaster_clock_quality.clock_class ||
	    a->grandmaster_clock_quality.clock_accuracy !=
		b->grandmaster_clock_quality.clock_accuracy ||
	    a->grandmaster_clock_quality.offset_scaled_log_variance !=
		b->grandmaster_clock_quality.offset_scaled_log_variance ||
	    a->grandmaster_priority2 != b->grandmaster_priority2 ||
	    memcmp(a->grandmaster_identity, b->grandmaster_identity,
		PTP_CLOCK_ID_LEN) != 0 ||
	    a->steps_removed != b->steps_removed;
}

/* Keep the arrivals within the window before now, then add now. */
static void
push_arrival(struct fm_entry *e, int64_t now)
{
	int64_t w = fm_window_ns(e->log_interval);
	unsigned int i, k = 0;

	for (i = 0; i < e->n_rx; i++)
		if (in_window(e->rx[i], now, w))
			e->rx[k++] = e->rx[i];
	e->n_rx = k;
	if (e->n_rx == FM_MAX_ARRIVALS) {
		memmove(&e->rx[0], &e->rx[1],
		    (FM_MAX_ARRIVALS - 1) * sizeof(e->rx[0]));
		e->n_rx--;
	}
	e->rx[e->n_rx++] = now;
}

int
fm_add_announce(struct fm_table *t, const struct ptp_msg *m, int64_t rx_ns,
    int log_announce_interval)
{
	const struct ptp_port_identity *src;
	struct fm_entry *e;
	int changed = 0, was_q, now_q, diff;

	if (t == NULL || m == NULL || m->hdr.message_type != PTP_MT_ANNOUNCE)
		return FM_E_INVAL;
	src = &m->hdr.source_port_identity;
	/* 9.3.2.5 a): our own Announce, seen through some other path. */
	if (memcmp(src->clock_identity, t->own_clock_identity,
	    PTP_CLOCK_ID_LEN) == 0)
		return FM_E_SELF;
	/* 9.3.2.5 e): stepsRemoved of maxStepsRemoved (255 by default) or
	 * more is not qualified; ptp4l drops such an Announce before it
	 * reaches the foreign-master list, in every profile. */
	if (m->body.announce.steps_removed >= t->max_steps_removed)
		return FM_E_STEPS;

	e = find(t, src);
	if (e == NULL) {
		if (t->n == FM_MAX_ENTRIES)
			changed = evict(t, rx_ns);
		e = &t->e[t->n++];
		memset(e, 0, sizeof(*e));
		e->hdr = m->hdr;
		e->announce = m->body.announce;
		e->log_interval = clamp_log(log_announce_interval);
		e->rx[0] = rx_ns;
		e->n_rx = 1;
		return changed || fm_qualified(e, rx_ns);
	}

	was_q = fm_qualified(e, rx_ns);
	if (e->hdr.sequence_id == m->hdr.sequence_id &&
	    in_window(last_rx(e), rx_ns, fm_window_ns(e->log_interval)))
		return 0;	/* the same Announce again */

	diff = dataset_differs(&e->announce, &m->body.announce);
	e->hdr = m->hdr;
	e->announce = m->body.announce;
	e->log_interval = clamp_log(log_announce_interval);
	push_arrival(e, rx_ns);
	now_q = fm_qualified(e, rx_ns);
	return now_q != was_q || (now_q && diff);
}

size_t
fm_prune(struct fm_table *t, int64_t now_ns)
{
	size_t i = 0, removed = 0;
	struct fm_entry *e;
	int64_t w;
	unsigned int j, k;

	while (i < t->n) {
		e = &t->e[i];
		w = fm_window_ns(e->log_interval);
		for (j = 0, k = 0; j < e->n_rx; j++)
			if (in_window(e->rx[j], now_ns, w))
				e->rx[k++] = e->rx[j];
		e->n_rx = k;
		if (k == 0) {
			remove_at(t, i);
			removed++;
		} else {
			i++;
		}
	}
	return removed;
}

int
fm_forget(struct fm_table *t, const struct ptp_port_identity *source)
{
	struct fm_entry *e = find(t, source);

	if (e == NULL)
		return 0;
	remove_at(t, (size_t)(e - t->e));
	return 1;
}

const struct fm_entry *
fm_best(const struct fm_table *t, const struct ptp_port_identity *receiver,
    int64_t now_ns, struct bmc_dataset *erbest)
{
	const struct fm_entry *best = NULL;
	struct bmc_dataset best_ds, ds;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct fm_entry *e = &t->e[i];

		if (!fm_qualified(e, now_ns))
			continue;
		bmc_dataset_from_announce(&ds, &e->hdr, &e->announce,
		    receiver);
		ds.local_priority = t->local_priority;
		if (best == NULL ||
		    bmc_compare_with(t->dscmp, &ds, &best_ds) > BMC_EQUAL) {
			best = e;
			best_ds = ds;
		}
	}
	if (best != NULL && erbest != NULL)
		*erbest = best_ds;
	return best;
}

int
fm_get(const struct fm_table *t, size_t i, int64_t now_ns,
    struct fm_info *out)
{
	const struct fm_entry *e;

	if (i >= t->n)
		return -1;
	e = &t->e[i];
	out->entry = e;
	out->count = fm_window_count(e, now_ns);
	out->qualified = out->count >= FM_THRESHOLD;
	out->age_ns = now_ns - last_rx(e);
	return 0;
}
