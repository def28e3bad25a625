/*
 * test_fsm.c - the port state machines (1588-2019 9.2.5, Figure 30 and the
 * slave-only machine) by table: every (state, event) pair of each variant,
 * with and without master_diff.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "clockd/fsm.h"

#define NSTATES	(FSM_STATE_MAX + 1)
#define NEVENTS	(FSM_EVENT_MAX + 1)

/* Short names for the tables. */
#define I_	PS_INITIALIZING
#define F_	PS_FAULTY
#define D_	PS_DISABLED
#define L_	PS_LISTENING
#define PM	PS_PRE_MASTER
#define M_	PS_MASTER
#define P_	PS_PASSIVE
#define U_	PS_UNCALIBRATED
#define S_	PS_SLAVE

/*
 * Columns, in enum fsm_event order:
 * NONE POWERUP INITIALIZE DES_ENABLED DES_DISABLED FAULT_CLEARED
 * FAULT_DETECTED STATE_DECISION QUAL_TMO ANNOUNCE_TMO SYNC_FAULT
 * MASTER_CLOCK_SELECTED INIT_COMPLETE RS_MASTER RS_GRAND_MASTER RS_SLAVE
 * RS_PASSIVE.  master_diff = 0.
 */
static const enum fsm_state ordinary[NSTATES][NEVENTS] = {
	[PS_INITIALIZING] =
	    { I_, I_, I_, I_, D_, I_, F_, I_, I_, I_, I_, I_, L_, I_, I_, I_, I_ },
	[PS_FAULTY] =
	    { F_, I_, I_, F_, D_, I_, F_, F_, F_, F_, F_, F_, F_, F_, F_, F_, F_ },
	[PS_DISABLED] =
	    { D_, I_, I_, I_, D_, D_, D_, D_, D_, D_, D_, D_, D_, D_, D_, D_, D_ },
	[PS_LISTENING] =
	    { L_, I_, I_, L_, D_, L_, F_, L_, L_, M_, L_, L_, L_, PM, M_, U_, P_ },
	[PS_PRE_MASTER] =
	    { PM, I_, I_, PM, D_, PM, F_, PM, M_, PM, PM, PM, PM, PM, M_, U_, P_ },
	[PS_MASTER] =
	    { M_, I_, I_, M_, D_, M_, F_, M_, M_, M_, M_, M_, M_, M_, M_, U_, P_ },
	[PS_PASSIVE] =
	    { P_, I_, I_, P_, D_, P_, F_, P_, P_, M_, P_, P_, P_, PM, M_, U_, P_ },
	[PS_UNCALIBRATED] =
	    { U_, I_, I_, U_, D_, U_, F_, U_, U_, M_, U_, S_, U_, PM, M_, U_, P_ },
	[PS_SLAVE] =
	    { S_, I_, I_, S_, D_, S_, F_, S_, S_, M_, U_, S_, S_, PM, M_, S_, P_ },
};

static const enum fsm_state slave_only[NSTATES][NEVENTS] = {
	[PS_INITIALIZING] =
	    { I_, I_, I_, I_, D_, I_, F_, I_, I_, I_, I_, I_, L_, I_, I_, I_, I_ },
	[PS_FAULTY] =
	    { F_, I_, I_, F_, D_, I_, F_, F_, F_, F_, F_, F_, F_, F_, F_, F_, F_ },
	[PS_DISABLED] =
	    { D_, I_, I_, I_, D_, D_, D_, D_, D_, D_, D_, D_, D_, D_, D_, D_, D_ },
	[PS_LISTENING] =
	    { L_, I_, I_, L_, D_, L_, F_, L_, L_, L_, L_, L_, L_, L_, L_, U_, L_ },
	/* Unreachable in this machine: taken as LISTENING. */
	[PS_PRE_MASTER] =
	    { L_, I_, I_, L_, D_, L_, F_, L_, L_, L_, L_, L_, L_, L_, L_, U_, L_ },
	[PS_MASTER] =
	    { L_, I_, I_, L_, D_, L_, F_, L_, L_, L_, L_, L_, L_, L_, L_, U_, L_ },
	[PS_PASSIVE] =
	    { L_, I_, I_, L_, D_, L_, F_, L_, L_, L_, L_, L_, L_, L_, L_, U_, L_ },
	[PS_UNCALIBRATED] =
	    { U_, I_, I_, U_, D_, U_, F_, U_, U_, L_, U_, S_, U_, L_, L_, U_, L_ },
	[PS_SLAVE] =
	    { S_, I_, I_, S_, D_, S_, F_, S_, S_, L_, U_, S_, S_, L_, L_, S_, L_ },
};

static const enum fsm_state master_only[NSTATES][NEVENTS] = {
	[PS_INITIALIZING] =
	    { I_, I_, I_, I_, D_, I_, F_, I_, I_, I_, I_, I_, L_, I_, I_, I_, I_ },
	[PS_FAULTY] =
	    { F_, I_, I_, F_, D_, I_, F_, F_, F_, F_, F_, F_, F_, F_, F_, F_, F_ },
	[PS_DISABLED] =
	    { D_, I_, I_, I_, D_, D_, D_, D_, D_, D_, D_, D_, D_, D_, D_, D_, D_ },
	[PS_LISTENING] =
	    { L_, I_, I_, L_, D_, L_, F_, L_, L_, M_, L_, L_, L_, PM, M_, PM, PM },
	[PS_PRE_MASTER] =
	    { PM, I_, I_, PM, D_, PM, F_, PM, M_, PM, PM, PM, PM, PM, M_, PM, PM },
	[PS_MASTER] =
	    { M_, I_, I_, M_, D_, M_, F_, M_, M_, M_, M_, M_, M_, M_, M_, M_, M_ },
	[PS_PASSIVE] =
	    { P_, I_, I_, P_, D_, P_, F_, P_, P_, M_, P_, P_, P_, PM, M_, PM, PM },
	/* Unreachable in this machine: taken as LISTENING. */
	[PS_UNCALIBRATED] =
	    { L_, I_, I_, L_, D_, L_, F_, L_, L_, M_, L_, L_, L_, PM, M_, PM, PM },
	[PS_SLAVE] =
	    { L_, I_, I_, L_, D_, L_, F_, L_, L_, M_, L_, L_, L_, PM, M_, PM, PM },
};

/* The one place master_diff matters: SLAVE on RS_SLAVE recalibrates. */
static enum fsm_state
with_mdiff(const enum fsm_state tab[NSTATES][NEVENTS], int s, int e)
{
	if (s == PS_SLAVE && e == EV_RS_SLAVE && tab != master_only)
		return PS_UNCALIBRATED;
	return tab[s][e];
}

static void
check_table(enum fsm_kind kind, const enum fsm_state tab[NSTATES][NEVENTS])
{
	int s, e, n = 0;

	for (s = FSM_STATE_MIN; s <= FSM_STATE_MAX; s++) {
		for (e = EV_NONE; e <= FSM_EVENT_MAX; e++) {
			enum fsm_state got0 = fsm_next_kind(kind,
			    (enum fsm_state)s, (enum fsm_event)e, 0);
			enum fsm_state got1 = fsm_next_kind(kind,
			    (enum fsm_state)s, (enum fsm_event)e, 1);

			if (got0 != tab[s][e] ||
			    got1 != with_mdiff(tab, s, e))
				print_error("kind %d: %s + %s: got %s/%s, "
				    "want %s/%s\n", (int)kind,
				    fsm_state_name(s), fsm_event_name(e),
				    fsm_state_name(got0),
				    fsm_state_name(got1),
				    fsm_state_name(tab[s][e]),
				    fsm_state_name(with_mdiff(tab, s, e)));
			assert_int_equal(got0, tab[s][e]);
			assert_int_equal(got1, with_mdiff(tab, s, e));
			n++;
		}
	}
	assert_int_equal(n, 9 * 17);
}

static void
test_ordinary_table(void **state)
{
	(void)state;
	check_table(FSM_ORDINARY, ordinary);
}

static void
test_slave_only_table(void **state)
{
	(void)state;
	check_table(FSM_SLAVE_ONLY, slave_only);
}

static void
test_master_only_table(void **state)
{
	(void)state;
	check_table(FSM_MASTER_ONLY, master_only);
}

/* The direct entry points agree with fsm_next_kind(). */
static void
test_entry_points(void **state)
{
	int s, e, md;

	(void)state;
	for (s = 0; s <= FSM_STATE_MAX + 1; s++)
		for (e = EV_NONE; e <= FSM_EVENT_MAX; e++)
			for (md = 0; md <= 1; md++) {
				enum fsm_state st = (enum fsm_state)s;
				enum fsm_event ev = (enum fsm_event)e;

				assert_int_equal(fsm_next(st, ev, md),
				    fsm_next_kind(FSM_ORDINARY, st, ev, md));
				assert_int_equal(
				    fsm_next_slave_only(st, ev, md),
				    fsm_next_kind(FSM_SLAVE_ONLY, st, ev, md));
				assert_int_equal(
				    fsm_next_master_only(st, ev, md),
				    fsm_next_kind(FSM_MASTER_ONLY, st, ev,
				    md));
			}
}

/* The guarantees of the restricted machines, over every input. */
static void
test_restrictions(void **state)
{
	int s, e, md;
	enum fsm_state n;

	(void)state;
	for (s = FSM_STATE_MIN; s <= FSM_STATE_MAX; s++)
		for (e = EV_NONE; e <= FSM_EVENT_MAX; e++)
			for (md = 0; md <= 1; md++) {
				n = fsm_next_slave_only((enum fsm_state)s,
				    (enum fsm_event)e, md);
				assert_true(n != PS_PRE_MASTER &&
				    n != PS_MASTER && n != PS_PASSIVE);
				n = fsm_next_master_only((enum fsm_state)s,
				    (enum fsm_event)e, md);
				assert_true(n != PS_UNCALIBRATED &&
				    n != PS_SLAVE);
			}
}

/* Values outside the enums: POWERUP still initializes, else no change. */
static void
test_out_of_range(void **state)
{
	(void)state;
	assert_int_equal(fsm_next((enum fsm_state)0, EV_RS_SLAVE, 0), 0);
	assert_int_equal(fsm_next((enum fsm_state)10, EV_FAULT_DETECTED, 0),
	    10);
	assert_int_equal(fsm_next((enum fsm_state)0, EV_POWERUP, 0),
	    PS_INITIALIZING);
	assert_int_equal(fsm_next(PS_SLAVE, (enum fsm_event)99, 1), PS_SLAVE);
	assert_int_equal(fsm_next_kind((enum fsm_kind)7, PS_LISTENING,
	    EV_RS_MASTER, 0), PS_PRE_MASTER);
	assert_false(fsm_state_valid(0));
	assert_false(fsm_state_valid(10));
	assert_true(fsm_state_valid(PS_SLAVE));
}

static void
test_names(void **state)
{
	(void)state;
	/* portState values of 8.2.15.3.1 / ctl.proto PortState. */
	assert_int_equal(PS_INITIALIZING, 1);
	assert_int_equal(PS_FAULTY, 2);
	assert_int_equal(PS_DISABLED, 3);
	assert_int_equal(PS_LISTENING, 4);
	assert_int_equal(PS_PRE_MASTER, 5);
	assert_int_equal(PS_MASTER, 6);
	assert_int_equal(PS_PASSIVE, 7);
	assert_int_equal(PS_UNCALIBRATED, 8);
	assert_int_equal(PS_SLAVE, 9);

	assert_string_equal(fsm_state_name(PS_INITIALIZING), "INITIALIZING");
	assert_string_equal(fsm_state_name(PS_FAULTY), "FAULTY");
	assert_string_equal(fsm_state_name(PS_DISABLED), "DISABLED");
	assert_string_equal(fsm_state_name(PS_LISTENING), "LISTENING");
	assert_string_equal(fsm_state_name(PS_PRE_MASTER), "PRE_MASTER");
	assert_string_equal(fsm_state_name(PS_MASTER), "MASTER");
	assert_string_equal(fsm_state_name(PS_PASSIVE), "PASSIVE");
	assert_string_equal(fsm_state_name(PS_UNCALIBRATED), "UNCALIBRATED");
	assert_string_equal(fsm_state_name(PS_SLAVE), "SLAVE");
	assert_string_equal(fsm_state_name(0), "UNKNOWN");
	assert_string_equal(fsm_state_name(-1), "UNKNOWN");
	assert_string_equal(fsm_state_name(10), "UNKNOWN");

	assert_string_equal(fsm_event_name(EV_NONE), "NONE");
	assert_string_equal(fsm_event_name(EV_POWERUP), "POWERUP");
	assert_string_equal(fsm_event_name(EV_STATE_DECISION_EVENT),
	    "STATE_DECISION_EVENT");
	assert_string_equal(fsm_event_name(EV_ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES),
	    "ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES");
	assert_string_equal(fsm_event_name(EV_QUALIFICATION_TIMEOUT_EXPIRES),
	    "QUALIFICATION_TIMEOUT_EXPIRES");
	assert_string_equal(fsm_event_name(EV_RS_GRAND_MASTER),
	    "RS_GRAND_MASTER");
	assert_string_equal(fsm_event_name(EV_RS_PASSIVE), "RS_PASSIVE");
	assert_string_equal(fsm_event_name(-1), "UNKNOWN");
	assert_string_equal(fsm_event_name(FSM_EVENT_MAX + 1), "UNKNOWN");
	{
		int e;

		for (e = EV_NONE; e <= FSM_EVENT_MAX; e++)
			assert_string_not_equal(fsm_event_name(e), "UNKNOWN");
	}
}

/* A life: power up, hear a master, lock, lose it, become master. */
static void
test_walk(void **state)
{
	static const struct {
		enum fsm_event ev;
		int mdiff;
		enum fsm_state want;
	} steps[] = {
		{ EV_POWERUP, 0, PS_INITIALIZING },
		{ EV_INIT_COMPLETE, 0, PS_LISTENING },
		{ EV_RS_SLAVE, 1, PS_UNCALIBRATED },
		{ EV_MASTER_CLOCK_SELECTED, 0, PS_SLAVE },
		{ EV_RS_SLAVE, 0, PS_SLAVE },
		{ EV_SYNCHRONIZATION_FAULT, 0, PS_UNCALIBRATED },
		{ EV_MASTER_CLOCK_SELECTED, 0, PS_SLAVE },
		{ EV_RS_SLAVE, 1, PS_UNCALIBRATED },	/* new master */
		{ EV_MASTER_CLOCK_SELECTED, 0, PS_SLAVE },
		{ EV_ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES, 0, PS_MASTER },
		{ EV_RS_PASSIVE, 0, PS_PASSIVE },
		{ EV_RS_MASTER, 0, PS_PRE_MASTER },
		{ EV_QUALIFICATION_TIMEOUT_EXPIRES, 0, PS_MASTER },
		{ EV_FAULT_DETECTED, 0, PS_FAULTY },
		{ EV_FAULT_CLEARED, 0, PS_INITIALIZING },
		{ EV_INIT_COMPLETE, 0, PS_LISTENING },
		{ EV_DESIGNATED_DISABLED, 0, PS_DISABLED },
		{ EV_DESIGNATED_ENABLED, 0, PS_INITIALIZING },
	};
	enum fsm_state s = PS_DISABLED;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		s = fsm_next(s, steps[i].ev, steps[i].mdiff);
		assert_int_equal(s, steps[i].want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ordinary_table),
		cmocka_unit_test(test_slave_only_table),
		cmocka_unit_test(test_master_only_table),
		cmocka_unit_test(test_entry_points),
		cmocka_unit_test(test_restrictions),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
