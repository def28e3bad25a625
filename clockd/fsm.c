/*
 * fsm.c - the port state machine, IEEE 1588-2019 9.2.5 Figure 30 and the
 * slave-only machine; see fsm.h for the variants.
 *
 * Where Figure 30 and ptp4l's fsm.c differ, the figure wins:
 *  - INITIALIZING leaves only on EV_INIT_COMPLETE (to LISTENING),
 *    EV_FAULT_DETECTED (to FAULTY) or EV_DESIGNATED_DISABLED (to DISABLED);
 *    ptp4l goes to LISTENING on any event there, because it initializes
 *    synchronously and never leaves a port in INITIALIZING.
 *  - PRE_MASTER on EV_RS_GRAND_MASTER (M1/M2) goes to MASTER at once, as the
 *    qualification timeout of M1/M2 is zero (9.2.6.11); ptp4l waits for
 *    the timer it started for M3.
 * Where Figure 30 leaves room, ptp4l wins:
 *  - A DISABLED port ignores EV_FAULT_DETECTED (it runs nothing that can
 *    fail); it leaves only on EV_DESIGNATED_ENABLED.
 */
#include "config.h"

#include <stddef.h>

#include "fsm.h"

static const char *const state_names[] = {
	[PS_INITIALIZING] = "INITIALIZING",
	[PS_FAULTY] = "FAULTY",
	[PS_DISABLED] = "DISABLED",
	[PS_LISTENING] = "LISTENING",
	[PS_PRE_MASTER] = "PRE_MASTER",
	[PS_MASTER] = "MASTER",
	[PS_PASSIVE] = "PASSIVE",
	[PS_UNCALIBRATED] = "UNCALIBRATED",
	[PS_SLAVE] = "SLAVE",
};

static const char *const event_names[] = {
	[EV_NONE] = "NONE",
	[EV_POWERUP] = "POWERUP",
	[EV_INITIALIZE] = "INITIALIZE",
	[EV_DESIGNATED_ENABLED] = "DESIGNATED_ENABLED",
	[EV_DESIGNATED_DISABLED] = "DESIGNATED_DISABLED",
	[EV_FAULT_CLEARED] = "FAULT_CLEARED",
	[EV_FAULT_DETECTED] = "FAULT_DETECTED",
	[EV_STATE_DECISION_EVENT] = "STATE_DECISION_EVENT",
	[EV_QUALIFICATION_TIMEOUT_EXPIRES] = "QUALIFICATION_TIMEOUT_EXPIRES",
	[EV_ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES] =
	    "ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES",
	[EV_SYNCHRONIZATION_FAULT] = "SYNCHRONIZATION_FAULT",
	[EV_MASTER_CLOCK_SELECTED] = "MASTER_CLOCK_SELECTED",
	[EV_INIT_COMPLETE] = "INIT_COMPLETE",
	[EV_RS_MASTER] = "RS_MASTER",
	[EV_RS_GRAND_MASTER] = "RS_GRAND_MASTER",
	[EV_RS_SLAVE] = "RS_SLAVE",
	[EV_RS_PASSIVE] = "RS_PASSIVE",
};

int
fsm_state_valid(int s)
{
	return s >= FSM_STATE_MIN && s <= FSM_STATE_MAX;
}

const char *
fsm_state_name(int s)
{
	return fsm_state_valid(s) ? state_names[s] : "UNKNOWN";
}

const char *
fsm_event_name(int e)
{
	return e >= EV_NONE && e <= FSM_EVENT_MAX ? event_names[e] : "UNKNOWN";
}

/* The states a port runs the protocol in: LISTENING .. SLAVE. */
static int
operational(enum fsm_state s)
{
	return s >= PS_LISTENING && s <= PS_SLAVE;
}

enum fsm_state
fsm_next(enum fsm_state s, enum fsm_event e, int master_diff)
{
	/* 9.2.5: from any state. */
	if (e == EV_POWERUP || e == EV_INITIALIZE)
		return PS_INITIALIZING;

	switch (s) {
	case PS_INITIALIZING:
		if (e == EV_INIT_COMPLETE)
			return PS_LISTENING;
		if (e == EV_FAULT_DETECTED)
			return PS_FAULTY;
		if (e == EV_DESIGNATED_DISABLED)
			return PS_DISABLED;
		return s;
	case PS_FAULTY:
		if (e == EV_FAULT_CLEARED)
			return PS_INITIALIZING;
		if (e == EV_DESIGNATED_DISABLED)
			return PS_DISABLED;
		return s;
	case PS_DISABLED:
		if (e == EV_DESIGNATED_ENABLED)
			return PS_INITIALIZING;
		return s;
	default:
		break;
	}
	if (!operational(s))
		return s;

	switch (e) {
	case EV_DESIGNATED_DISABLED:
		return PS_DISABLED;
	case EV_FAULT_DETECTED:
		return PS_FAULTY;
	case EV_ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES:
		/* No Announce from the master for the timeout (9.2.6.12). */
		if (s == PS_LISTENING || s == PS_PASSIVE ||
		    s == PS_UNCALIBRATED || s == PS_SLAVE)
			return PS_MASTER;
		return s;
	case EV_QUALIFICATION_TIMEOUT_EXPIRES:
		return s == PS_PRE_MASTER ? PS_MASTER : s;
	case EV_MASTER_CLOCK_SELECTED:
		return s == PS_UNCALIBRATED ? PS_SLAVE : s;
	case EV_SYNCHRONIZATION_FAULT:
		return s == PS_SLAVE ? PS_UNCALIBRATED : s;
	case EV_RS_MASTER:
		/* M3: qualify first (9.2.6.11), unless already a master. */
		if (s == PS_PRE_MASTER || s == PS_MASTER)
			return s;
		return PS_PRE_MASTER;
	case EV_RS_GRAND_MASTER:
		/* M1/M2: qualification timeout 0 (9.2.6.11). */
		return PS_MASTER;
	case EV_RS_SLAVE:
		/* S1: a SLAVE keeps its state unless the master changed. */
		if (s == PS_SLAVE && !master_diff)
			return PS_SLAVE;
		return PS_UNCALIBRATED;
	case EV_RS_PASSIVE:
		return PS_PASSIVE;
	default:
		/* EV_NONE, EV_STATE_DECISION_EVENT, and events meant for the
		 * states handled above. */
		return s;
	}
}

enum fsm_state
fsm_next_slave_only(enum fsm_state s, enum fsm_event e, int master_diff)
{
	if (e == EV_POWERUP || e == EV_INITIALIZE)
		return PS_INITIALIZING;
	/* Not reachable in this machine; should a caller hold one, it is
	 * taken as LISTENING so that the result is never a master state. */
	if (s == PS_PRE_MASTER || s == PS_MASTER || s == PS_PASSIVE)
		s = PS_LISTENING;

	switch (e) {
	case EV_ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES:
	case EV_RS_MASTER:
	case EV_RS_GRAND_MASTER:
	case EV_RS_PASSIVE:
		/* 9.2.5 slave-only machine: wait for a master instead. */
		if (s == PS_LISTENING || s == PS_UNCALIBRATED ||
		    s == PS_SLAVE)
			return PS_LISTENING;
		return s;
	default:
		return fsm_next(s, e, master_diff);
	}
}

enum fsm_state
fsm_next_master_only(enum fsm_state s, enum fsm_event e, int master_diff)
{
	if (e == EV_POWERUP || e == EV_INITIALIZE)
		return PS_INITIALIZING;
	/* Not reachable in this machine; see fsm_next_slave_only(). */
	if (s == PS_UNCALIBRATED || s == PS_SLAVE)
		s = PS_LISTENING;
	/* A master-only port has no Erbest, so its state decision is M1, M2
	 * or M3 (9.3.3 with Erbest empty); anything else is taken as M3. */
	if (e == EV_RS_SLAVE || e == EV_RS_PASSIVE)
		e = EV_RS_MASTER;
	return fsm_next(s, e, master_diff);
}

enum fsm_state
fsm_next_kind(enum fsm_kind kind, enum fsm_state s, enum fsm_event e,
    int master_diff)
{
	switch (kind) {
	case FSM_SLAVE_ONLY:
		return fsm_next_slave_only(s, e, master_diff);
	case FSM_MASTER_ONLY:
		return fsm_next_master_only(s, e, master_diff);
	case FSM_ORDINARY:
	default:
		return fsm_next(s, e, master_diff);
	}
}
