/*
 * bmc.h - the best master clock algorithm, IEEE 1588-2019 9.3: the data set
 * comparison (9.3.4, Figures 34 and 35) and the state decision (9.3.3,
 * Figure 33).  Pure functions: the caller gathers D0 (its defaultDS) and
 * every port's Erbest (foreign.h), and acts on the decisions.
 *
 * Two data set comparisons: IEEE 1588-2019's (9.3.4) and the alternate
 * one of the telecom profiles, ITU-T G.8275.1 / G.8275.2 (clause 6.3,
 * an alternate BMCA as 1588-2019 9.3.1 permits a profile), selected
 * by `dataset_comparison` as in ptp4l (doc/design.md, "BMCA").
 */
#ifndef PTPSEP_BMC_H
#define PTPSEP_BMC_H

#include <stddef.h>
#include <stdint.h>

#include "ptp_msg.h"
#include "fsm.h"

/*
 * What 9.3.4 compares: the grandmaster's attributes from an Announce (or
 * from defaultDS for D0), stepsRemoved, the identity of the sender (the
 * Announce's sourcePortIdentity) and the identity of the receiver (the
 * portIdentity of the port it arrived on).
 */
struct bmc_dataset {
	uint8_t priority1;			/* grandmasterPriority1 */
	struct ptp_clock_quality quality;	/* grandmasterClockQuality */
	uint8_t priority2;			/* grandmasterPriority2 */
	uint8_t gm_identity[PTP_CLOCK_ID_LEN];	/* grandmasterIdentity */
	uint16_t steps_removed;
	struct ptp_port_identity sender;
	struct ptp_port_identity receiver;
	/*
	 * G.8275.x only, never on the wire: portDS.localPriority of the
	 * receiving port for an Announce, defaultDS.localPriority for D0
	 * (G.8275.1 6.3).  The builders below set 128, the
	 * profiles' default; the IEEE comparison ignores it.
	 */
	uint8_t local_priority;
};

#define BMC_LOCAL_PRIORITY_DEFAULT	128

/* Which data set comparison: the values of `dataset_comparison`. */
enum bmc_dscmp {
	BMC_DSCMP_IEEE1588 = 0,	/* 9.3.4, Figures 34 and 35 */
	BMC_DSCMP_G8275 = 1,	/* G.8275.1 / G.8275.2 alternate BMCA */
};

/*
 * Result of bmc_compare(a, b).  The four outcomes of Figures 34/35 keep
 * ptp4l's values, so "> 0" means "A better (either way)".  The two error
 * cases are negative too, so "> 0" stays safe, but "< 0" does NOT mean
 * "B better": use bmc_b_better().
 */
enum bmc_cmp {
	BMC_ERROR_2 = -4,	/* Figure 35: same sender, same receiving
				 * port number: one message seen twice */
	BMC_ERROR_1 = -3,	/* Figure 35: stepsRemoved differ by one and
				 * the receiver is the sender (our own
				 * message came back) */
	BMC_B_BETTER = -2,
	BMC_B_BETTER_TOPO = -1,	/* B better by topology */
	BMC_EQUAL = 0,		/* only for a == b or both NULL */
	BMC_A_BETTER_TOPO = 1,	/* A better by topology */
	BMC_A_BETTER = 2,
};

/*
 * Compare two data sets, Figure 34 then (same grandmaster) Figure 35.
 * A data set is better than NULL (an empty Erbest/Ebest, as ptp4l's
 * dscmp()); both NULL, or a == b, gives BMC_EQUAL.
 */
enum bmc_cmp bmc_compare(const struct bmc_dataset *a,
    const struct bmc_dataset *b);
/*
 * The telecom profiles' comparison (G.8275.1 6.3, the same in G.8275.2),
 * with ptp4l's (telecom_dscmp()) order: priority1 is not used;
 * clockClass, clockAccuracy, offsetScaledLogVariance, priority2 and
 * localPriority, each lower is better; then, if the clockClass is 127 or
 * less (a clock that can be a grandmaster: PRTC classes), topology alone
 * (stepsRemoved, sender, receiving port: Figure 35 as bmc_compare()),
 * so that of equal grandmasters the nearest one wins; otherwise the lower
 * grandmasterIdentity, and for the same grandmaster topology.  The same
 * grandmaster heard on two ports with different localPriority is decided
 * by localPriority, before topology.  Same NULL rules as bmc_compare().
 */
enum bmc_cmp bmc_compare_g8275(const struct bmc_dataset *a,
    const struct bmc_dataset *b);
/* bmc_compare() or bmc_compare_g8275() by kind. */
enum bmc_cmp bmc_compare_with(enum bmc_dscmp kind,
    const struct bmc_dataset *a, const struct bmc_dataset *b);
/* A better or better by topology / B better or better by topology. */
int bmc_a_better(enum bmc_cmp r);
int bmc_b_better(enum bmc_cmp r);
/* "A_BETTER", "B_BETTER_TOPO", "ERROR_1", ... */
const char *bmc_cmp_name(int r);

/*
 * Data set of a received Announce (9.3.4): the grandmaster fields of the
 * body, stepsRemoved, sender = hdr->source_port_identity, receiver = the
 * portIdentity of the receiving port.
 */
void bmc_dataset_from_announce(struct bmc_dataset *out,
    const struct ptp_header *hdr, const struct ptp_announce *ann,
    const struct ptp_port_identity *receiver);
/*
 * D0, the local clock's data set (9.3.4, 9.3.3): defaultDS priority1,
 * clockQuality, priority2 and clockIdentity as grandmaster, stepsRemoved
 * 0, sender = receiver = {clockIdentity, portNumber 0} (as ptp4l).
 */
void bmc_dataset_from_default(struct bmc_dataset *out, uint8_t priority1,
    const struct ptp_clock_quality *quality, uint8_t priority2,
    const uint8_t clock_identity[PTP_CLOCK_ID_LEN]);

/* Outcome of the state decision of one port, Figure 33. */
enum bmc_decision {
	BMC_D_NONE = 0,	/* no recommendation: a LISTENING port with no
			 * Erbest waits for Announce or its timeout */
	BMC_D_M1,	/* clockClass 1..127, D0 better than Erbest */
	BMC_D_M2,	/* D0 better than Ebest */
	BMC_D_M3,	/* Ebest not on this port, not better by topology
			 * than this port's Erbest */
	BMC_D_P1,	/* clockClass 1..127, D0 not better than Erbest */
	BMC_D_P2,	/* Ebest better by topology than Erbest */
	BMC_D_S1,	/* Ebest was received on this port */
};

/* Flags of bmc_state_decision() and bmc_select(). */
#define BMC_F_SLAVE_ONLY	0x1	/* defaultDS.slaveOnly (clock-wide) */
#define BMC_F_MASTER_ONLY	0x2	/* portDS.masterOnly (per port) */
#define BMC_F_G8275		0x4	/* compare with bmc_compare_g8275() */

/*
 * State decision for one port, Figure 33.  d0: the local clock; ebest:
 * the best of all ports' Erbest (NULL if none); erbest: this port's
 * (NULL if none); ebest_here: non-zero if ebest came from this port;
 * state: the port's current state; flags: BMC_F_*.
 *
 * The clockClass tested is d0->quality.clock_class.  A slave-only clock's
 * clockClass is 255 (7.6.2.5), so with BMC_F_SLAVE_ONLY D0 is taken with
 * clockClass 255 whatever it says (as ptp4l), and the 1..127 branch is
 * never taken; the M/P outcomes it can still yield are turned into
 * LISTENING by fsm_next_slave_only() (as ptp4l).  With
 * BMC_F_MASTER_ONLY Erbest is ignored, so only M1, M2 or M3 can result.
 * With BMC_F_G8275 every comparison is bmc_compare_g8275() (G.8275.1
 * 6.3 keeps Figure 33 and changes the comparison).
 */
enum bmc_decision bmc_state_decision(const struct bmc_dataset *d0,
    const struct bmc_dataset *ebest, const struct bmc_dataset *erbest,
    int ebest_here, enum fsm_state state, unsigned int flags);

/* The FSM event of a decision: M1/M2 -> EV_RS_GRAND_MASTER, M3 ->
 * EV_RS_MASTER, P1/P2 -> EV_RS_PASSIVE, S1 -> EV_RS_SLAVE, none -> EV_NONE. */
enum fsm_event bmc_decision_event(enum bmc_decision d);
/* "M1", ..., "S1", "NONE". */
const char *bmc_decision_name(int d);

/* One port of bmc_select(). */
struct bmc_port_input {
	const struct bmc_dataset *erbest;	/* in: NULL if none qualified */
	enum fsm_state state;			/* in: current port state */
	int master_only;			/* in: portDS.masterOnly */
	enum bmc_decision decision;		/* out */
};

/*
 * The clock-wide BMCA (9.3.2, 9.3.3): compute Ebest over the Erbest of
 * ports[0..n) and the decision of every port into ports[i].decision.
 * Ports in INITIALIZING, FAULTY or DISABLED, and master-only ports, take
 * no part in Ebest (they process no Announce) and get BMC_D_NONE or, for
 * master-only ports, M1/M2/M3.  flags: BMC_F_SLAVE_ONLY, BMC_F_G8275.  Of equal
 * Erbest (an error outcome) the lowest index wins.  Returns the index of
 * the port that holds Ebest, or -1 if no port has an Erbest.
 */
int bmc_select(const struct bmc_dataset *d0, struct bmc_port_input *ports,
    size_t n, unsigned int flags);

/*
 * clock_class_threshold (ptp4l >= 4.0, default 248, range 6..248): a
 * master whose grandmasterClockQuality.clockClass is above it is not
 * used, as if never heard (ptp4l drops its Announce, with stepsRemoved's
 * 9.3.2.5 d test).  Clears the erbest of each port whose Erbest is such a
 * master, before bmc_select().  Returns how many it cleared.
 */
#define BMC_CLASS_THRESHOLD_DEFAULT	248
size_t bmc_apply_class_threshold(struct bmc_port_input *ports, size_t n,
    unsigned int threshold);

#endif /* PTPSEP_BMC_H */
