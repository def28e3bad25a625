/*
 * test_foreign.c - foreign-master records and Announce qualification
 * (1588-2019 9.3.2.4, 9.3.2.5): threshold, window, stepsRemoved 255 and
 * maxStepsRemoved, our own Announce, duplicates, eviction, Erbest (also
 * with G.8275.x's comparison), and the timeout arithmetic.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "clockd/foreign.h"

#define SEC	1000000000LL
#define MS	1000000LL
#define ME	0x50

static void
cid(uint8_t *out, uint8_t last)
{
	static const uint8_t base[PTP_CLOCK_ID_LEN] =
	    { 0x00, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x00 };

	memcpy(out, base, PTP_CLOCK_ID_LEN);
	out[PTP_CLOCK_ID_LEN - 1] = last;
}

/* An Announce from clock `src` port 1, grandmaster `gm`, priority1 p1. */
static struct ptp_msg
announce(uint8_t src, uint8_t gm, uint8_t p1, uint16_t seq)
{
	struct ptp_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.message_type = PTP_MT_ANNOUNCE;
	m.hdr.version = PTP_VERSION;
	m.hdr.minor_version = PTP_MINOR_VERSION;
	cid(m.hdr.source_port_identity.clock_identity, src);
	m.hdr.source_port_identity.port_number = 1;
	m.hdr.sequence_id = seq;
	m.body.announce.grandmaster_priority1 = p1;
	m.body.announce.grandmaster_clock_quality.clock_class = 248;
	m.body.announce.grandmaster_clock_quality.clock_accuracy = 0xfe;
	m.body.announce.grandmaster_clock_quality.offset_scaled_log_variance =
	    0xffff;
	m.body.announce.grandmaster_priority2 = 128;
	cid(m.body.announce.grandmaster_identity, gm);
	return m;
}

static void
table(struct fm_table *t, struct ptp_port_identity *rx)
{
	uint8_t me[PTP_CLOCK_ID_LEN];

	cid(me, ME);
	fm_init(t, me);
	memcpy(rx->clock_identity, me, PTP_CLOCK_ID_LEN);
	rx->port_number = 1;
}

static void
test_threshold(void **state)
{
	struct fm_table t;
	struct ptp_port_identity rx;
	struct ptp_msg m = announce(0x60, 0x60, 128, 1);
	struct bmc_dataset d;
	const struct fm_entry *e;

	(void)state;
	table(&t, &rx);
	assert_int_equal(fm_count(&t), 0);
	assert_null(fm_best(&t, &rx, 0, &d));
	/* One Announce: recorded, not qualified. */
	assert_int_equal(fm_add_announce(&t, &m, 10 * SEC, 0), 0);
	assert_int_equal(fm_count(&t), 1);
	assert_false(fm_qualified(&t.e[0], 10 * SEC));
	assert_null(fm_best(&t, &rx, 10 * SEC, &d));
	/* The second within 4 s qualifies it: Erbest may change. */
	m.hdr.sequence_id = 2;
	assert_int_equal(fm_add_announce(&t, &m, 11 * SEC, 0), 1);
	assert_int_equal(fm_count(&t), 1);
	e = fm_best(&t, &rx, 11 * SEC, &d);
	assert_non_null(e);
	assert_ptr_equal(e, &t.e[0]);
	assert_int_equal(d.priority1, 128);
	assert_true(ptp_port_identity_equal(&d.sender,
	    &m.hdr.source_port_identity));
	assert_true(ptp_port_identity_equal(&d.receiver, &rx));
	/* A third one with the same data changes nothing. */
	m.hdr.sequence_id = 3;
	assert_int_equal(fm_add_announce(&t, &m, 12 * SEC, 0), 0);
	assert_int_equal(fm_window_count(&t.e[0], 12 * SEC), 3);
	/* fm_best without an output data set. */
	assert_non_null(fm_best(&t, &rx, 12 * SEC, NULL));
}

/* FOREIGN_MASTER_TIME_WINDOW = 4 announce intervals, age < window. */
static void
test_window(void **state)
{
	struct fm_table t;
	struct ptp_port_identity rx;
	struct ptp_msg m = announce(0x60, 0x60, 128, 1);

	(void)state;
	table(&t, &rx);
	fm_add_announce(&t, &m, 0, 0);
	m.hdr.sequence_id = 2;
	fm_add_announce(&t, &m, 1 * SEC, 0);
	assert_true(fm_qualified(&t.e[0], 1 * SEC));
	assert_true(fm_qualified(&t.e[0], 4 * SEC - 1));
	assert_false(fm_qualified(&t.e[0], 4 * SEC));	/* first one aged out */
	assert_non_null(fm_best(&t, &rx, 4 * SEC - 1, NULL));
	assert_null(fm_best(&t, &rx, 4 * SEC, NULL));

	/* Two Announce further apart than the window do not qualify. */
	table(&t, &rx);
	m.hdr.sequence_id = 1;
	assert_int_equal(fm_add_announce(&t, &m, 0, 0), 0);
	m.hdr.sequence_id = 2;
	assert_int_equal(fm_add_announce(&t, &m, 4 * SEC, 0), 0);
	assert_false(fm_qualified(&t.e[0], 4 * SEC));
	/* A log interval of 1 (2 s) widens the window to 8 s. */
	m.hdr.sequence_id = 3;
	assert_int_equal(fm_add_announce(&t, &m, 9 * SEC, 1), 1);
	assert_true(fm_qualified(&t.e[0], 9 * SEC));
	/* A log interval of -3 (125 ms) narrows it to 500 ms. */
	table(&t, &rx);
	m.hdr.sequence_id = 1;
	fm_add_announce(&t, &m, 0, -3);
	m.hdr.sequence_id = 2;
	assert_int_equal(fm_add_announce(&t, &m, 500 * MS, -3), 0);
	m.hdr.sequence_id = 3;
	assert_int_equal(fm_add_announce(&t, &m, 625 * MS, -3), 1);
}

/* Qualification that lapses is reported when the next Announce arrives. */
static void
test_requalify(void **state)
{
	struct fm_table t;
	struct ptp_port_identity rx;
	struct ptp_msg m = announce(0x60, 0x60, 128, 1);

	(void)state;
	table(&t, &rx);
	fm_add_announce(&t, &m, 0, 0);
	m.hdr.sequence_id = 2;
	assert_int_equal(fm_add_announce(&t, &m, 1 * SEC, 0), 1);
	/* Silent for 5 s: it was unqualified when the next one came, and
	 * that one alone does not qualify it. */
	m.hdr.sequence_id = 3;
	assert_int_equal(fm_add_announce(&t, &m, 6 * SEC, 0), 0);
	m.hdr.sequence_id = 4;
	assert_int_equal(fm_add_announce(&t, &m, 7 * SEC, 0), 1);
}

static void
test_steps_removed(void **state)
{
	struct fm_table t;
	struct ptp_port_identity rx;
	struct ptp_msg m = announce(0x60, 0x01, 128, 1);

	(void)state;
	table(&t, &rx);
	m.body.announce.steps_removed = 255;
	assert_int_equal(fm_add_announce(&t, &m, 0, 0), FM_E_STEPS);
	m.body.announce.steps_removed = 0xffff;
	assert_int_equal(fm_add_announce(&t, &m, 0, 0), FM_E_STEPS);
	assert_int_equal(fm_count(&t), 0);
	m.body.announce.steps_removed = 254;
	assert_int_equal(fm_add_announce(&t, &m, 0, 0), 0);
	m.hdr.sequence_id = 2;
	assert_int_equal(fm_add_announce(&t, &m, SEC, 0), 1);
	/* Once qualified, a 255 from the same sender leaves the record. */
	m.hdr.sequence_id = 3;
	m.body.announce.steps_removed = 255;
	assert_int_equal(fm_add_announce(&t, &m, 2 * SEC, 0), FM_E_STEPS);
	assert_int_equal(t.e[0].announce.steps_removed, 254);
	assert_int_equal(fm_window_count(&t.e[0], 2 * SEC), 2);
}

static void
test_own_and_invalid(void **state)
{
	struct fm_table t;
	struct ptp_port_identity rx;
	struct ptp_msg m = announce(ME, 0x01, 128, 1);

	(void)state;
	table(&t, &rx);
	/* 9.3.2.5 a): our own clockIdentity, from any port. */
	assert_int_equal(fm_add_announce(&t, &m, 0, 0), FM_E_SELF);
	m.hdr.source_port_identity.port_number = 2;
	assert_int_equal(fm_add_announce(&t, &m, 0, 0), FM_E_SELF);
	assert_int_equal(fm_count(&t), 0);

	m = announce(0x60, 0x60, 128, 1);
	m.hdr.message_type = PTP_MT_SYNC;
	assert_int_equal(fm_add_announce(&t, &m, 0, 0), FM_E_INVAL);
	assert_int_equal(fm_add_announce(&t, NULL, 0, 0), FM_E_INVAL);
	assert_int_equal(fm_add_announce(NULL, &m, 0, 0), FM_E_INVAL);
	assert_int_equal(fm_count(&t), 0);
}

/* The same sequenceId twice within the window is one Announce. */
static void
test_duplicate(void **state)
{
	struct fm_table t;
	struct ptp_port_identity rx;
	struct ptp_msg m = announce(0x60, 0x60, 128, 7);

	(void)state;
	table(&t, &rx);
	fm_add_announce(&t, &m, 0, 0);
	assert_int_equal(fm_add_announce(&t, &m, 100 * MS, 0), 0);
	assert_int_equal(fm_window_count(&t.e[0], 100 * MS), 1);
	assert_false(fm_qualified(&t.e[0], 100 * MS));
	/* After the window the same number is a new message (wrap). */
	assert_int_equal(fm_add_announce(&t, &m, 5 * SEC, 0), 0);
	assert_int_equal(fm_window_count(&t.e[0], 5 * SEC), 1);
}

/* Several senders; the one with the better data set is Erbest, unless it
 * is not qualified; a change in a qualified data set is reported. */
static void
test_best(void **state)
{
	struct fm_table t;
	struct ptp_port_identity rx;
	struct ptp_msg a = announce(0x60, 0x60, 128, 1);
	struct ptp_msg b = announce(0x61, 0x61, 100, 1);
	struct ptp_msg c = announce(0x62, 0x62, 1, 1);
	struct bmc_dataset d;
	const struct fm_entry *e;

	(void)state;
	table(&t, &rx);
	fm_add_announce(&t, &a, 0, 0);
	fm_add_announce(&t, &b, 0, 0);
	fm_add_announce(&t, &c, 0, 0);	/* best, but only heard once */
	a.hdr.sequence_id = b.hdr.sequence_id = 2;
	assert_int_equal(fm_add_announce(&t, &a, SEC, 0), 1);
	assert_int_equal(fm_add_announce(&t, &b, SEC, 0), 1);
	assert_int_equal(fm_count(&t), 3);
	e = fm_best(&t, &rx, SEC, &d);
	assert_non_null(e);
	assert_int_equal(e->announce.grandmaster_priority1, 100);
	assert_int_equal(d.priority1, 100);

	/* a's data set changes while qualified: reported, and it now wins. */
	a.hdr.sequence_id = 3;
	a.body.announce.grandmaster_priority1 = 50;
	assert_int_equal(fm_add_announce(&t, &a, 2 * SEC, 0), 1);
	e = fm_best(&t, &rx, 2 * SEC, &d);
	assert_int_equal(d.priority1, 50);
	assert_true(ptp_port_identity_equal(&e->hdr.source_port_identity,
	    &a.hdr.source_port_identity));
	/* Other data set fields count as changes too; other fields not. */
	a.hdr.sequence_id = 4;
	a.body.announce.steps_removed = 1;
	assert_int_equal(fm_add_announce(&t, &a, 2 * SEC + 1, 0), 1);
	a.hdr.sequence_id = 5;
	a.body.announce.current_utc_offset = 37;
	a.body.announce.time_source = 0x20;
	assert_int_equal(fm_add_announce(&t, &a, 2 * SEC + 2, 0), 0);
	assert_int_equal(t.e[0].announce.current_utc_offset, 37);
	/* A change in an unqualified entry is not reported. */
	c.hdr.sequence_id = 9;
	c.body.announce.grandmaster_priority1 = 2;
	assert_int_equal(fm_add_announce(&t, &c, 10 * SEC, 0), 0);
	/* c's second Announce now qualifies it, and it is the best. */
	c.hdr.sequence_id = 10;
	assert_int_equal(fm_add_announce(&t, &c, 11 * SEC, 0), 1);
	e = fm_best(&t, &rx, 11 * SEC, &d);
	assert_int_equal(d.priority1, 2);
}

/* A full table evicts the least recently heard, unqualified ones first. */
static void
test_eviction(void **state)
{
	struct fm_table t;
	struct ptp_port_identity rx;
	struct ptp_msg m;
	struct fm_info info;
	int i;
	size_t k;

	(void)state;
	table(&t, &rx);
	/* Sender 0x10 qualified early, then 15 others heard once. */
	m = announce(0x10, 0x10, 128, 1);
	fm_add_announce(&t, &m, 0, 0);
	m.hdr.sequence_id = 2;
	fm_add_announce(&t, &m, 100 * MS, 0);
	for (i = 1; i < FM_MAX_ENTRIES; i++) {
		m = announce((uint8_t)(0x10 + i), 0x01, 128, 1);
		assert_int_equal(fm_add_announce(&t, &m, (200 + i) * MS, 0),
		    0);
	}
	assert_int_equal(fm_count(&t), FM_MAX_ENTRIES);
	/* A 17th: 0x11 (oldest unqualified) goes, 0x10 stays. */
	m = announce(0x30, 0x01, 128, 1);
	assert_int_equal(fm_add_announce(&t, &m, 300 * MS, 0), 0);
	assert_int_equal(fm_count(&t), FM_MAX_ENTRIES);
	for (k = 0; k < fm_count(&t); k++) {
		assert_int_equal(fm_get(&t, k, 300 * MS, &info), 0);
		assert_int_not_equal(info.entry->hdr.source_port_identity
		    .clock_identity[7], 0x11);
	}
	assert_int_equal(t.e[0].hdr.source_port_identity.clock_identity[7],
	    0x10);

	/* All qualified: the least recently heard goes, and that may change
	 * Erbest. */
	table(&t, &rx);
	for (i = 0; i < FM_MAX_ENTRIES; i++) {
		m = announce((uint8_t)(0x10 + i), 0x01, 128, 1);
		fm_add_announce(&t, &m, i * MS, 0);
		m.hdr.sequence_id = 2;
		fm_add_announce(&t, &m, (100 + i) * MS, 0);
	}
	m = announce(0x30, 0x01, 128, 1);
	assert_int_equal(fm_add_announce(&t, &m, 200 * MS, 0), 1);
	assert_int_equal(fm_count(&t), FM_MAX_ENTRIES);
	assert_int_equal(t.e[0].hdr.source_port_identity.clock_identity[7],
	    0x11);
}

static void
test_prune_forget_info(void **state)
{
	struct fm_table t;
	struct ptp_port_identity rx;
	struct ptp_msg a = announce(0x60, 0x60, 128, 1);
	struct ptp_msg b = announce(0x61, 0x61, 128, 1);
	struct fm_info info;
	int i;

	(void)state;
	table(&t, &rx);
	fm_add_announce(&t, &a, 0, 0);
	a.hdr.sequence_id = 2;
	fm_add_announce(&t, &a, SEC, 0);
	fm_add_announce(&t, &b, 3 * SEC, 0);

	assert_int_equal(fm_get(&t, 0, 3500 * MS, &info), 0);
	assert_int_equal(info.count, 2);
	assert_true(info.qualified);
	assert_int_equal(info.age_ns, 2500 * MS);
	assert_int_equal(fm_get(&t, 1, 3500 * MS, &info), 0);
	assert_int_equal(info.count, 1);
	assert_false(info.qualified);
	assert_int_equal(info.age_ns, 500 * MS);
	assert_int_equal(fm_get(&t, 2, 3500 * MS, &info), -1);

	/* At 4.5 s a's first Announce has aged out; at 5 s all of a's. */
	assert_int_equal(fm_prune(&t, 4500 * MS), 0);
	assert_int_equal(t.e[0].n_rx, 1);
	assert_int_equal(fm_prune(&t, 5 * SEC), 1);
	assert_int_equal(fm_count(&t), 1);
	assert_int_equal(t.e[0].hdr.source_port_identity.clock_identity[7],
	    0x61);
	assert_int_equal(fm_prune(&t, 7 * SEC), 1);
	assert_int_equal(fm_count(&t), 0);

	/* fm_forget and fm_clear. */
	fm_add_announce(&t, &a, 0, 0);
	fm_add_announce(&t, &b, 0, 0);
	assert_int_equal(fm_forget(&t, &a.hdr.source_port_identity), 1);
	assert_int_equal(fm_forget(&t, &a.hdr.source_port_identity), 0);
	assert_int_equal(fm_count(&t), 1);
	fm_clear(&t);
	assert_int_equal(fm_count(&t), 0);

	/* The arrivals kept are bounded; at 125 ms, 4 fit in 500 ms. */
	for (i = 0; i < 20; i++) {
		a.hdr.sequence_id = (uint16_t)i;
		fm_add_announce(&t, &a, i * 125 * MS, -3);
	}
	assert_true(t.e[0].n_rx <= FM_MAX_ARRIVALS);
	assert_int_equal(fm_window_count(&t.e[0], 19 * 125 * MS), 4);
	/* A hostile interval is clamped. */
	a.hdr.sequence_id = 100;
	fm_add_announce(&t, &a, 3 * SEC, 127);
	assert_int_equal(t.e[0].log_interval, FM_LOG_INTERVAL_MAX);
	a.hdr.sequence_id = 101;
	fm_add_announce(&t, &a, 3 * SEC, -128);
	assert_int_equal(t.e[0].log_interval, FM_LOG_INTERVAL_MIN);
}

static void
test_timeouts(void **state)
{
	(void)state;
	assert_int_equal(fm_interval_ns(0), SEC);
	assert_int_equal(fm_interval_ns(1), 2 * SEC);
	assert_int_equal(fm_interval_ns(-3), 125 * MS);
	assert_int_equal(fm_interval_ns(100), 1024 * SEC);
	assert_int_equal(fm_window_ns(0), 4 * SEC);
	assert_int_equal(fm_window_ns(-2), SEC);
	assert_int_equal(fm_window_ns(1), 8 * SEC);

	/* announceReceiptTimeout x 2^logAnnounceInterval (9.2.6.12). */
	assert_int_equal(fm_announce_timeout_ns(3, 1), 6 * SEC);
	assert_int_equal(fm_announce_timeout_ns(3, 0), 3 * SEC);
	assert_int_equal(fm_announce_timeout_ns(3, -3), 375 * MS);
	assert_int_equal(fm_announce_timeout_ns(2, 4), 32 * SEC);
	assert_int_equal(fm_announce_timeout_ns(1000, 0), 255 * SEC);

	/* ptp4l's random extension: (0, span] intervals more. */
	assert_int_equal(fm_announce_timeout_random_ns(3, 0, 0, 12345),
	    3 * SEC);
	assert_int_equal(fm_announce_timeout_random_ns(3, 1, 0, 0),
	    3 * SEC + SEC / 32768);
	assert_int_equal(fm_announce_timeout_random_ns(3, 1, 0, UINT32_MAX),
	    4 * SEC);
	assert_int_equal(fm_announce_timeout_random_ns(3, 1, 1, UINT32_MAX),
	    8 * SEC);
	assert_true(fm_announce_timeout_random_ns(255, 1000, 10, UINT32_MAX) ==
	    (int64_t)510 * 1024 * SEC);

	/* Qualification timeout of M3 (9.2.6.11). */
	assert_int_equal(fm_qualification_timeout_ns(0, 1), 2 * SEC);
	assert_int_equal(fm_qualification_timeout_ns(2, 0), 3 * SEC);
	assert_int_equal(fm_qualification_timeout_ns(0, -2), 250 * MS);
}

/* maxStepsRemoved (9.3.2.5 e), as ptp4l's key: an Announce whose
 * stepsRemoved is that or more is refused; the default stays 255. */
static void
test_max_steps_removed(void **state)
{
	struct fm_table t;
	struct ptp_port_identity rx;
	struct ptp_msg m = announce(0x60, 0x01, 128, 1);

	(void)state;
	table(&t, &rx);
	assert_int_equal(t.max_steps_removed, 255);
	assert_int_equal(t.dscmp, BMC_DSCMP_IEEE1588);
	assert_int_equal(t.local_priority, 128);
	fm_set_bmca(&t, BMC_DSCMP_IEEE1588, 128, 10);
	m.body.announce.steps_removed = 10;
	assert_int_equal(fm_add_announce(&t, &m, 0, 0), FM_E_STEPS);
	m.body.announce.steps_removed = 200;
	assert_int_equal(fm_add_announce(&t, &m, 0, 0), FM_E_STEPS);
	assert_int_equal(fm_count(&t), 0);
	m.body.announce.steps_removed = 9;
	assert_int_equal(fm_add_announce(&t, &m, 0, 0), 0);
	m.hdr.sequence_id = 2;
	assert_int_equal(fm_add_announce(&t, &m, SEC, 0), 1);
	assert_non_null(fm_best(&t, &rx, SEC, NULL));
	/* fm_clear keeps the setting (a port leaving service). */
	fm_clear(&t);
	m.body.announce.steps_removed = 10;
	assert_int_equal(fm_add_announce(&t, &m, 2 * SEC, 0), FM_E_STEPS);
	/* 0 would refuse stepsRemoved 0 as well: taken as 1. */
	fm_set_bmca(&t, BMC_DSCMP_IEEE1588, 128, 0);
	assert_int_equal(t.max_steps_removed, 1);
}

/* Erbest with G.8275.x: priority1 counts for nothing, and the port's
 * localPriority travels in the data set. */
static void
test_best_g8275(void **state)
{
	struct fm_table t;
	struct ptp_port_identity rx;
	struct ptp_msg a = announce(0x60, 0x60, 1, 1);		/* priority1 1 */
	struct ptp_msg b = announce(0x61, 0x61, 200, 1);
	struct bmc_dataset d;
	const struct fm_entry *e;

	(void)state;
	table(&t, &rx);
	b.body.announce.grandmaster_clock_quality.clock_class = 165;
	fm_add_announce(&t, &a, 0, 0);
	fm_add_announce(&t, &b, 0, 0);
	a.hdr.sequence_id = b.hdr.sequence_id = 2;
	fm_add_announce(&t, &a, SEC, 0);
	fm_add_announce(&t, &b, SEC, 0);
	/* IEEE 1588: priority1 first. */
	e = fm_best(&t, &rx, SEC, &d);
	assert_int_equal(e->announce.grandmaster_priority1, 1);
	/* G.8275.x: clockClass 165 beats 248. */
	fm_set_bmca(&t, BMC_DSCMP_G8275, 77, 255);
	e = fm_best(&t, &rx, SEC, &d);
	assert_int_equal(e->announce.grandmaster_priority1, 200);
	assert_int_equal(d.local_priority, 77);
	assert_int_equal(d.quality.clock_class, 165);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_requalify),
		cmocka_unit_test(test_steps_removed),
		cmocka_unit_test(test_own_and_invalid),
		cmocka_unit_test(test_duplicate),
		cmocka_unit_test(test_best),
		cmocka_unit_test(test_eviction),
		cmocka_unit_test(test_prune_forget_info),
		cmocka_unit_test(test_timeouts),
		cmocka_unit_test(test_max_steps_removed),
		cmocka_unit_test(test_best_g8275),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
