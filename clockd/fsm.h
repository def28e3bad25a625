/*
 * fsm.h - the PTP port state machine, IEEE 1588-2019 9.2.5 (Figure 30).
 *
 * A pure function of (state, event, master changed): no I/O, no timers, no
 * globals.  The port code feeds it events and acts on the state it returns
 * (starting or stopping timers, sending Announce, ...).
 *
 * Three variants, as ptp4l has them:
 *  - fsm_next():             ordinary and boundary clock ports (Figure 30);
 *  - fsm_next_slave_only():  defaultDS.slaveOnly (clientOnly) clocks, the
 *                            slave-only machine of 9.2.5: never PRE_MASTER,
 *                            MASTER or PASSIVE.  A recommended MASTER,
 *                            GRAND_MASTER or PASSIVE, and an announce receipt
 *                            timeout, send the port back to LISTENING
 *                            (ptp4l's ptp_slave_fsm does the same);
 *  - fsm_next_master_only(): portDS.masterOnly (serverOnly) ports: never
 *                            UNCALIBRATED or SLAVE.  ptp4l gets this from the
 *                            BMCA (a masterOnly port has no Erbest, so the
 *                            state decision can only say M1/M2/M3); bmc.c
 *                            does the same, and this variant is the second
 *                            lock: a recommended SLAVE or PASSIVE is taken as
 *                            a recommended MASTER (M3, through PRE_MASTER).
 *
 * Recommended states: the state decision (9.3.3, bmc.h) yields M1/M2, M3,
 * P1/P2 or S1; they enter the machine as EV_RS_GRAND_MASTER, EV_RS_MASTER,
 * EV_RS_PASSIVE and EV_RS_SLAVE.  EV_RS_GRAND_MASTER (M1/M2) goes straight to
 * MASTER: 9.2.6.11 sets the qualification timeout of M1/M2 to zero, so
 * PRE_MASTER is left at once (ptp4l models this as its PS_GRAND_MASTER
 * state, which it reports as MASTER).  EV_RS_MASTER (M3) goes through
 * PRE_MASTER, which the port leaves on EV_QUALIFICATION_TIMEOUT_EXPIRES
 * after (stepsRemoved + 1) announce intervals (fm_qualification_timeout_ns).
 *
 * EV_STATE_DECISION_EVENT itself changes no state: it is the signal to run
 * the state decision, whose EV_RS_* result is then fed to the machine.
 * EV_NONE (a decision that recommends nothing) changes no state either.
 */
#ifndef PTPSEP_FSM_H
#define PTPSEP_FSM_H

/* portState, 8.2.15.3.1 Table 20: the same numbers as ctl.proto PortState. */
enum fsm_state {
	PS_INITIALIZING = 1,
	PS_FAULTY = 2,
	PS_DISABLED = 3,
	PS_LISTENING = 4,
	PS_PRE_MASTER = 5,
	PS_MASTER = 6,
	PS_PASSIVE = 7,
	PS_UNCALIBRATED = 8,
	PS_SLAVE = 9,
};
#define FSM_STATE_MIN	PS_INITIALIZING
#define FSM_STATE_MAX	PS_SLAVE

/* Events of 9.2.6 and the recommended states of 9.3.3. */
enum fsm_event {
	EV_NONE = 0,
	EV_POWERUP,
	EV_INITIALIZE,
	EV_DESIGNATED_ENABLED,
	EV_DESIGNATED_DISABLED,
	EV_FAULT_CLEARED,
	EV_FAULT_DETECTED,
	EV_STATE_DECISION_EVENT,
	EV_QUALIFICATION_TIMEOUT_EXPIRES,
	EV_ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES,
	EV_SYNCHRONIZATION_FAULT,
	EV_MASTER_CLOCK_SELECTED,
	EV_INIT_COMPLETE,
	EV_RS_MASTER,		/* M3 */
	EV_RS_GRAND_MASTER,	/* M1, M2 */
	EV_RS_SLAVE,		/* S1 */
	EV_RS_PASSIVE,		/* P1, P2 */
};
#define FSM_EVENT_MAX	EV_RS_PASSIVE

/* Which machine a port runs. */
enum fsm_kind {
	FSM_ORDINARY = 0,	/* ordinary or boundary clock port */
	FSM_SLAVE_ONLY,		/* defaultDS.slaveOnly / clientOnly */
	FSM_MASTER_ONLY,	/* portDS.masterOnly / serverOnly */
};

/*
 * Next state of an ordinary or boundary clock port.  master_diff is
 * non-zero when the state decision selected a different master than the
 * one the port follows: a SLAVE port then recalibrates (SLAVE ->
 * UNCALIBRATED on EV_RS_SLAVE, 9.2.5).  Any other input returns s.
 * An s outside enum fsm_state is returned unchanged except for
 * EV_POWERUP/EV_INITIALIZE, which always give PS_INITIALIZING.
 */
enum fsm_state fsm_next(enum fsm_state s, enum fsm_event e, int master_diff);
/* Slave-only port: the result is never PRE_MASTER, MASTER or PASSIVE. */
enum fsm_state fsm_next_slave_only(enum fsm_state s, enum fsm_event e,
    int master_diff);
/* Master-only port: the result is never UNCALIBRATED or SLAVE. */
enum fsm_state fsm_next_master_only(enum fsm_state s, enum fsm_event e,
    int master_diff);
/* Dispatch on kind (an unknown kind runs the ordinary machine). */
enum fsm_state fsm_next_kind(enum fsm_kind kind, enum fsm_state s,
    enum fsm_event e, int master_diff);

/* 1 if s is one of enum fsm_state, else 0. */
int fsm_state_valid(int s);
/* The standard's spelling ("PRE_MASTER"); "UNKNOWN" for other values. */
const char *fsm_state_name(int s);
/* "ANNOUNCE_RECEIPT_TIMEOUT_EXPIRES", "RS_SLAVE", ...; "UNKNOWN" else. */
const char *fsm_event_name(int e);

#endif /* PTPSEP_FSM_H */
