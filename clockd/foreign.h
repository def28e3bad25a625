/*
 * foreign.h - foreign-master records and Announce qualification, IEEE
 * 1588-2019 9.3.2.4 and 9.3.2.5, and the timeouts that go with them
 * (9.2.6.11, 9.2.6.12).
 *
 * One struct fm_table per port: a bounded table of the clocks whose
 * Announce the port hears, one entry per sourcePortIdentity (as ptp4l's
 * foreign_clock list), each with its most recent Announce and the arrival
 * times of the recent ones.  Pure: the caller passes every time (ns of a
 * monotonic clock), nothing here reads a clock or allocates.
 *
 * An entry is qualified (9.3.2.5) when at least FM_THRESHOLD Announce
 * messages from it arrived within FOREIGN_MASTER_TIME_WINDOW, that is
 * FM_WINDOW_INTERVALS announce intervals, before now.  Announce messages
 * from this clock (9.3.2.5 a) and with stepsRemoved >= maxStepsRemoved
 * (9.3.2.5 e; 255 unless fm_set_bmca() says less) are refused and leave
 * the table unchanged.  Only qualified entries take part in Erbest
 * (fm_best()), chosen with the port's data set comparison.
 *
 * The announce interval of an entry is the one the caller passes with each
 * Announce.  ptp4l uses the Announce's own logMessageInterval (so a master
 * announcing slower than this port is still qualified); do the same.  It
 * is clamped to [FM_LOG_INTERVAL_MIN, FM_LOG_INTERVAL_MAX], so that a
 * hostile value cannot overflow the arithmetic.
 */
#ifndef PTPSEP_FOREIGN_H
#define PTPSEP_FOREIGN_H

#include <stddef.h>
#include <stdint.h>

#include "ptp_msg.h"
#include "bmc.h"

#define FM_THRESHOLD		2	/* FOREIGN_MASTER_THRESHOLD, 9.3.2.4 */
#define FM_WINDOW_INTERVALS	4	/* FOREIGN_MASTER_TIME_WINDOW, in
					 * announce intervals */
#define FM_MAX_ENTRIES		16	/* foreign masters per port */
#define FM_MAX_ARRIVALS		8	/* arrival times kept per entry */
#define FM_LOG_INTERVAL_MIN	(-10)
#define FM_LOG_INTERVAL_MAX	10
#define FM_MAX_STEPS_REMOVED	255	/* 9.3.2.5: not qualified from here
					 * (maxStepsRemoved's default) */

/* Refusals of fm_add_announce(); the table is left unchanged. */
enum fm_err {
	FM_E_SELF = -1,		/* from this clock's clockIdentity (9.3.2.5 a) */
	FM_E_STEPS = -2,	/* stepsRemoved >= maxStepsRemoved (9.3.2.5) */
	FM_E_INVAL = -3,	/* NULL, or not an Announce */
};

/* One foreign master (foreignMasterDS record, 9.3.2.4).  Read-only for
 * callers. */
struct fm_entry {
	struct ptp_header hdr;		/* of the most recent Announce (its
					 * TLV suffix is not kept) */
	struct ptp_announce announce;	/* its body */
	int log_interval;		/* clamped announce interval */
	unsigned int n_rx;		/* 1..FM_MAX_ARRIVALS */
	int64_t rx[FM_MAX_ARRIVALS];	/* arrival times, oldest first */
};

struct fm_table {
	uint8_t own_clock_identity[PTP_CLOCK_ID_LEN];
	/* the port's BMCA settings (fm_set_bmca()) */
	enum bmc_dscmp dscmp;		/* dataset_comparison */
	uint8_t local_priority;		/* G.8275.portDS.localPriority */
	uint8_t max_steps_removed;	/* maxStepsRemoved */
	size_t n;			/* entries in use, e[0..n) */
	struct fm_entry e[FM_MAX_ENTRIES];
};

/* For listings (ptpctl foreign). */
struct fm_info {
	const struct fm_entry *entry;	/* source: entry->hdr.source_port_identity */
	unsigned int count;		/* Announce within the window */
	int qualified;
	int64_t age_ns;			/* now - most recent arrival */
};

/* Empty table of a port of the clock whose clockIdentity is own, with
 * IEEE 1588's comparison, localPriority 128 and maxStepsRemoved 255. */
void fm_init(struct fm_table *t, const uint8_t own[PTP_CLOCK_ID_LEN]);
/*
 * The port's BMCA settings: the data set comparison of fm_best(), the
 * localPriority Erbest carries (G.8275.x; ignored by IEEE 1588's), and
 * maxStepsRemoved (ptp4l's key, 2..255: an Announce whose stepsRemoved
 * is this or more is refused, FM_E_STEPS; ptp4l applies it in every
 * profile).  A value below 1 is taken as 1 (nothing would qualify).
 */
void fm_set_bmca(struct fm_table *t, enum bmc_dscmp dscmp,
    uint8_t local_priority, uint8_t max_steps_removed);
/* Forget every foreign master (port leaves service, 9.2.6). */
void fm_clear(struct fm_table *t);

/*
 * Record an Announce (m->hdr.message_type must be ANNOUNCE) that arrived
 * at rx_ns.  Returns 1 when this may change Erbest (the entry became
 * qualified or unqualified, a qualified entry's data set changed, or a
 * qualified entry was evicted to make room): run the state decision.
 * Returns 0 when it cannot (also for a duplicate: the same sequenceId as
 * the entry's last one within the window), or a negative enum fm_err.
 * A full table evicts the entry heard least recently, unqualified ones
 * first (so a flood of new identities cannot push out a qualified master).
 */
int fm_add_announce(struct fm_table *t, const struct ptp_msg *m,
    int64_t rx_ns, int log_announce_interval);
/* Drop arrivals outside the window, and entries left with none.  Returns
 * the number of entries removed. */
size_t fm_prune(struct fm_table *t, int64_t now_ns);
/* Remove the entry of one sender (ptp4l clears its best foreign master on
 * announce receipt timeout).  Returns 1 if there was one, else 0. */
int fm_forget(struct fm_table *t, const struct ptp_port_identity *source);

/*
 * Erbest (9.3.2): the best qualified entry at now_ns by the table's
 * comparison (bmc_compare_with()), with receiver = the portIdentity of
 * this port and the table's localPriority.  Returns the entry and
 * fills *erbest (if not NULL), or returns NULL if none is qualified.
 */
const struct fm_entry *fm_best(const struct fm_table *t,
    const struct ptp_port_identity *receiver, int64_t now_ns,
    struct bmc_dataset *erbest);

size_t fm_count(const struct fm_table *t);
/* Entry i (0 <= i < fm_count) as seen at now_ns: 0, or -1 if no such. */
int fm_get(const struct fm_table *t, size_t i, int64_t now_ns,
    struct fm_info *out);
/* Announce of e within the window before now_ns, and whether >= threshold. */
unsigned int fm_window_count(const struct fm_entry *e, int64_t now_ns);
int fm_qualified(const struct fm_entry *e, int64_t now_ns);

/* ---- interval arithmetic, ns (log intervals clamped as above) ---------- */

/* 2^log_interval seconds (truncated below 1 ns resolution, as ptp4l). */
int64_t fm_interval_ns(int log_interval);
/* FOREIGN_MASTER_TIME_WINDOW = 4 announce intervals (9.3.2.4). */
int64_t fm_window_ns(int log_interval);
/* announceReceiptTimeout x announceInterval (9.2.6.12, 8.2.15.4.2). */
int64_t fm_announce_timeout_ns(unsigned int receipt_timeout,
    int log_interval);
/*
 * The same extended by a random part in (0, span] intervals, as ptp4l
 * (announce_span 1, 0 on UDS) so that clocks that lose their master
 * together do not all become master in the same instant.  rnd: any
 * uniformly random 32-bit value from the caller.  receipt_timeout and
 * span are clamped to 255.
 */
int64_t fm_announce_timeout_random_ns(unsigned int receipt_timeout,
    unsigned int span, int log_interval, uint32_t rnd);
/* PRE_MASTER qualification timeout of M3 (9.2.6.11): (stepsRemoved + 1)
 * announce intervals, stepsRemoved being currentDS.stepsRemoved. */
int64_t fm_qualification_timeout_ns(unsigned int steps_removed,
    int log_interval);

#endif /* PTPSEP_FOREIGN_H */
