/*
 * test_bmc.c - the BMCA (1588-2019 9.3): data set comparison vectors for
 * every branch of Figures 34 and 35 in both orders, and the state decision
 * (Figure 33) for 1-, 2- and 3-port clocks.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "clockd/bmc.h"

/* Clock identities: the last octet tells them apart, so "lower" is clear. */
static void
cid(uint8_t *out, uint8_t last)
{
	static const uint8_t base[PTP_CLOCK_ID_LEN] =
	    { 0x00, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x00 };

	memcpy(out, base, PTP_CLOCK_ID_LEN);
	out[PTP_CLOCK_ID_LEN - 1] = last;
}

static void
pid(struct ptp_port_identity *p, uint8_t clock, uint16_t port)
{
	cid(p->clock_identity, clock);
	p->port_number = port;
}

/* A default-profile grandmaster (8.1.3.1 / J.3): 128/248/0xFE/0xFFFF/128. */
static struct bmc_dataset
ds(uint8_t gm, uint16_t steps, uint8_t sender, uint16_t sender_port,
    uint8_t receiver, uint16_t receiver_port)
{
	struct bmc_dataset d;

	memset(&d, 0, sizeof(d));
	d.priority1 = 128;
	d.quality.clock_class = 248;
	d.quality.clock_accuracy = 0xfe;
	d.quality.offset_scaled_log_variance = 0xffff;
	d.priority2 = 128;
	cid(d.gm_identity, gm);
	d.steps_removed = steps;
	pid(&d.sender, sender, sender_port);
	pid(&d.receiver, receiver, receiver_port);
	d.local_priority = BMC_LOCAL_PRIORITY_DEFAULT;
	return d;
}

/* The expected result of (b, a) given that of (a, b). */
static enum bmc_cmp
mirror(enum bmc_cmp r)
{
	if (r == BMC_ERROR_1 || r == BMC_ERROR_2 || r == BMC_EQUAL)
		return r;
	return (enum bmc_cmp)-(int)r;
}

/* Check cmp(a, b) == want and cmp(b, a) == mirror(want). */
static void
check(const struct bmc_dataset *a, const struct bmc_dataset *b,
    enum bmc_cmp want)
{
	enum bmc_cmp ab = bmc_compare(a, b), ba = bmc_compare(b, a);

	if (ab != want || ba != mirror(want))
		print_error("want %s, got %s / reversed %s\n",
		    bmc_cmp_name(want), bmc_cmp_name(ab), bmc_cmp_name(ba));
	assert_int_equal(ab, want);
	assert_int_equal(ba, mirror(want));
}

/* ---- Figure 34: different grandmasters -------------------------------- */

/* Each attribute decides in turn, with every later one pulling the other
 * way, so the order of Figure 34 is what is tested. */
static void
test_fig34_each_field(void **state)
{
	struct bmc_dataset a, b;

	(void)state;
	/* GM identity 0x01 < 0x02, so A would win the last tie-breaker: make
	 * B better in every field after the one under test. */
	a = ds(0x02, 0, 0x02, 1, 0x09, 1);
	b = ds(0x01, 0, 0x01, 1, 0x09, 1);

	/* priority1 */
	a.priority1 = 127;
	b.quality.clock_class = 6;
	b.quality.clock_accuracy = 0x20;
	b.quality.offset_scaled_log_variance = 0x4e5d;
	b.priority2 = 0;
	check(&a, &b, BMC_A_BETTER);
	/* clockClass */
	a.priority1 = b.priority1;
	a.quality.clock_class = 5;
	check(&a, &b, BMC_A_BETTER);
	/* clockAccuracy */
	a.quality.clock_class = b.quality.clock_class;
	a.quality.clock_accuracy = 0x1f;
	check(&a, &b, BMC_A_BETTER);
	/* offsetScaledLogVariance */
	a.quality.clock_accuracy = b.quality.clock_accuracy;
	a.quality.offset_scaled_log_variance = 0x4e5c;
	check(&a, &b, BMC_A_BETTER);
	/* priority2 */
	a.quality.offset_scaled_log_variance =
	    b.quality.offset_scaled_log_variance;
	b.priority2 = 1;
	a.priority2 = 0;
	check(&a, &b, BMC_A_BETTER);
	/* grandmasterIdentity: all equal, the lower identity (B) wins */
	a.priority2 = b.priority2;
	check(&a, &b, BMC_B_BETTER);
	/* ...and only the identity: not stepsRemoved or the sender. */
	a.steps_removed = 0;
	b.steps_removed = 200;
	pid(&b.sender, 0xf0, 9);
	check(&a, &b, BMC_B_BETTER);
}

/* Each field alone, both directions, including extremes of the range. */
static void
test_fig34_single_fields(void **state)
{
	struct bmc_dataset a, b;

	(void)state;
	a = ds(0x01, 0, 0x01, 1, 0x09, 1);
	b = ds(0x02, 0, 0x02, 1, 0x09, 1);
	b.priority1 = 0;
	check(&a, &b, BMC_B_BETTER);
	b.priority1 = 255;
	check(&a, &b, BMC_A_BETTER);

	b = ds(0x02, 0, 0x02, 1, 0x09, 1);
	b.quality.clock_class = 247;
	check(&a, &b, BMC_B_BETTER);
	b.quality.clock_class = 255;
	check(&a, &b, BMC_A_BETTER);

	b = ds(0x02, 0, 0x02, 1, 0x09, 1);
	b.quality.clock_accuracy = 0x21;
	check(&a, &b, BMC_B_BETTER);
	b.quality.clock_accuracy = 0xff;
	check(&a, &b, BMC_A_BETTER);

	b = ds(0x02, 0, 0x02, 1, 0x09, 1);
	b.quality.offset_scaled_log_variance = 0xfffe;
	check(&a, &b, BMC_B_BETTER);
	a.quality.offset_scaled_log_variance = 0;	/* unsigned compare */
	check(&a, &b, BMC_A_BETTER);

	a = ds(0x01, 0, 0x01, 1, 0x09, 1);
	b = ds(0x02, 0, 0x02, 1, 0x09, 1);
	b.priority2 = 127;
	check(&a, &b, BMC_B_BETTER);

	/* Identity compared as unsigned octets, first octet most significant. */
	b = ds(0x02, 0, 0x02, 1, 0x09, 1);
	a.gm_identity[0] = 0x80;
	check(&a, &b, BMC_B_BETTER);
	a.gm_identity[0] = 0x00;
	b.gm_identity[7] = 0x00;
	a.gm_identity[7] = 0xff;
	check(&a, &b, BMC_B_BETTER);
}

/* ---- Figure 35: the same grandmaster ----------------------------------- */

/* The same grandmaster ends Figure 34 at once: its attributes as seen
 * through two paths are not compared, only the topology. */
static void
test_fig35_same_gm_ignores_attributes(void **state)
{
	struct bmc_dataset a, b;

	(void)state;
	a = ds(0x01, 0, 0x01, 1, 0x09, 1);
	b = ds(0x01, 2, 0x03, 1, 0x09, 2);
	a.priority1 = 255;
	a.quality.clock_class = 255;
	check(&a, &b, BMC_A_BETTER);
}

static void
test_fig35_steps_by_two_or_more(void **state)
{
	struct bmc_dataset a, b;

	(void)state;
	a = ds(0x01, 1, 0x05, 1, 0x09, 1);
	b = ds(0x01, 3, 0x03, 1, 0x09, 2);	/* B's sender is lower */
	check(&a, &b, BMC_A_BETTER);
	/* Extremes: no overflow in A + 1. */
	a.steps_removed = 0;
	b.steps_removed = 0xffff;
	check(&a, &b, BMC_A_BETTER);
	a.steps_removed = 0xfffd;
	check(&a, &b, BMC_A_BETTER);
}

/* stepsRemoved one apart: compare the receiver and the sender of the one
 * with more steps (Figure 35). */
static void
test_fig35_steps_by_one(void **state)
{
	struct bmc_dataset a, b;

	(void)state;
	a = ds(0x01, 1, 0x01, 1, 0x05, 1);
	/* B one step further: receiver(B) < sender(B) -> A better */
	b = ds(0x01, 2, 0x07, 1, 0x05, 2);
	check(&a, &b, BMC_A_BETTER);
	/* receiver(B) > sender(B) -> A better by topology */
	b = ds(0x01, 2, 0x03, 1, 0x05, 2);
	check(&a, &b, BMC_A_BETTER_TOPO);
	/* Same clock: the port numbers decide. */
	b = ds(0x01, 2, 0x05, 3, 0x05, 2);
	check(&a, &b, BMC_A_BETTER);
	b = ds(0x01, 2, 0x05, 1, 0x05, 2);
	check(&a, &b, BMC_A_BETTER_TOPO);
	/* receiver(B) == sender(B): error-1 */
	b = ds(0x01, 2, 0x05, 2, 0x05, 2);
	check(&a, &b, BMC_ERROR_1);
	/* The receiver and sender of A play no part when B has more steps. */
	a = ds(0x01, 1, 0x05, 2, 0x05, 2);
	b = ds(0x01, 2, 0x07, 1, 0x05, 2);
	check(&a, &b, BMC_A_BETTER);
}

/* Equal stepsRemoved: sender identities, then receiver port numbers. */
static void
test_fig35_equal_steps(void **state)
{
	struct bmc_dataset a, b;

	(void)state;
	/* Sender clockIdentity decides. */
	a = ds(0x01, 1, 0x03, 9, 0x09, 2);
	b = ds(0x01, 1, 0x04, 1, 0x09, 1);
	check(&a, &b, BMC_A_BETTER_TOPO);
	/* Same sender clock: sender portNumber decides. */
	a = ds(0x01, 1, 0x03, 1, 0x09, 2);
	b = ds(0x01, 1, 0x03, 2, 0x09, 1);
	check(&a, &b, BMC_A_BETTER_TOPO);
	/* Same sender: receiver portNumber decides (two ports on a hub). */
	a = ds(0x01, 1, 0x03, 1, 0x09, 1);
	b = ds(0x01, 1, 0x03, 1, 0x09, 2);
	check(&a, &b, BMC_A_BETTER_TOPO);
	/* Only the receivers' port numbers, not their clockIdentity. */
	a = ds(0x01, 1, 0x03, 1, 0x0a, 1);
	b = ds(0x01, 1, 0x03, 1, 0x09, 2);
	check(&a, &b, BMC_A_BETTER_TOPO);
	/* Everything equal: error-2 (the same message twice). */
	a = ds(0x01, 1, 0x03, 1, 0x09, 1);
	b = a;
	check(&a, &b, BMC_ERROR_2);
	b.receiver.clock_identity[0] = 0x77;
	check(&a, &b, BMC_ERROR_2);
}

static void
test_null_and_same(void **state)
{
	struct bmc_dataset a = ds(0x01, 0, 0x01, 1, 0x09, 1);

	(void)state;
	assert_int_equal(bmc_compare(&a, NULL), BMC_A_BETTER);
	assert_int_equal(bmc_compare(NULL, &a), BMC_B_BETTER);
	assert_int_equal(bmc_compare(NULL, NULL), BMC_EQUAL);
	assert_int_equal(bmc_compare(&a, &a), BMC_EQUAL);
}

static void
test_cmp_helpers(void **state)
{
	(void)state;
	assert_true(bmc_a_better(BMC_A_BETTER));
	assert_true(bmc_a_better(BMC_A_BETTER_TOPO));
	assert_false(bmc_a_better(BMC_B_BETTER));
	assert_false(bmc_a_better(BMC_ERROR_1));
	assert_false(bmc_a_better(BMC_ERROR_2));
	assert_false(bmc_a_better(BMC_EQUAL));
	assert_true(bmc_b_better(BMC_B_BETTER));
	assert_true(bmc_b_better(BMC_B_BETTER_TOPO));
	assert_false(bmc_b_better(BMC_ERROR_1));
	assert_false(bmc_b_better(BMC_ERROR_2));
	/* ptp4l's values. */
	assert_int_equal(BMC_A_BETTER_TOPO, 1);
	assert_int_equal(BMC_A_BETTER, 2);
	assert_int_equal(BMC_B_BETTER, -2);
	assert_int_equal(BMC_B_BETTER_TOPO, -1);
	assert_true(BMC_ERROR_1 < 0 && BMC_ERROR_2 < 0 &&
	    BMC_ERROR_1 != BMC_ERROR_2);
	assert_string_equal(bmc_cmp_name(BMC_A_BETTER_TOPO), "A_BETTER_TOPO");
	assert_string_equal(bmc_cmp_name(BMC_ERROR_1), "ERROR_1");
	assert_string_equal(bmc_cmp_name(BMC_ERROR_2), "ERROR_2");
	assert_string_equal(bmc_cmp_name(42), "UNKNOWN");
}

/* Antisymmetry and a total order over many pseudo-random data sets drawn
 * from small ranges, so that every branch is hit many times. */
static uint32_t
lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

static void
random_ds(struct bmc_dataset *d, uint32_t *s)
{
	*d = ds((uint8_t)(lcg(s) % 3), (uint16_t)(lcg(s) % 4),
	    (uint8_t)(lcg(s) % 3), (uint16_t)(lcg(s) % 2 + 1),
	    (uint8_t)(lcg(s) % 3), (uint16_t)(lcg(s) % 2 + 1));
	d->priority1 = (uint8_t)(127 + lcg(s) % 2);
	d->quality.clock_class = (uint8_t)(6 + lcg(s) % 2);
	d->priority2 = (uint8_t)(lcg(s) % 2);
}

static void
test_antisymmetry(void **state)
{
	struct bmc_dataset a, b;
	uint32_t seed = 1588;
	int i, seen[5] = { 0 };
	enum bmc_cmp r;

	(void)state;
	for (i = 0; i < 20000; i++) {
		random_ds(&a, &seed);
		random_ds(&b, &seed);
		r = bmc_compare(&a, &b);
		assert_int_equal(bmc_compare(&b, &a), mirror(r));
		switch (r) {
		case BMC_A_BETTER: seen[0]++; break;
		case BMC_A_BETTER_TOPO: seen[1]++; break;
		case BMC_ERROR_1: seen[2]++; break;
		case BMC_ERROR_2: seen[3]++; break;
		default: seen[4]++; break;
		}
	}
	for (i = 0; i < 5; i++)
		assert_true(seen[i] > 0);
}

/* ---- data set construction -------------------------------------------- */

static void
test_dataset_builders(void **state)
{
	struct ptp_header hdr;
	struct ptp_announce ann;
	struct ptp_port_identity rx;
	struct ptp_clock_quality q = { 6, 0x21, 0x4e5d };
	struct bmc_dataset d;
	uint8_t me[PTP_CLOCK_ID_LEN];

	(void)state;
	memset(&hdr, 0, sizeof(hdr));
	memset(&ann, 0, sizeof(ann));
	pid(&hdr.source_port_identity, 0x03, 7);
	ann.grandmaster_priority1 = 10;
	ann.grandmaster_clock_quality = q;
	ann.grandmaster_priority2 = 20;
	cid(ann.grandmaster_identity, 0x01);
	ann.steps_removed = 3;
	pid(&rx, 0x09, 2);
	bmc_dataset_from_announce(&d, &hdr, &ann, &rx);
	assert_int_equal(d.priority1, 10);
	assert_int_equal(d.quality.clock_class, 6);
	assert_int_equal(d.quality.clock_accuracy, 0x21);
	assert_int_equal(d.quality.offset_scaled_log_variance, 0x4e5d);
	assert_int_equal(d.priority2, 20);
	assert_memory_equal(d.gm_identity, ann.grandmaster_identity,
	    PTP_CLOCK_ID_LEN);
	assert_int_equal(d.steps_removed, 3);
	assert_true(ptp_port_identity_equal(&d.sender,
	    &hdr.source_port_identity));
	assert_true(ptp_port_identity_equal(&d.receiver, &rx));

	cid(me, 0x09);
	bmc_dataset_from_default(&d, 128, &q, 127, me);
	assert_int_equal(d.priority1, 128);
	assert_int_equal(d.priority2, 127);
	assert_int_equal(d.quality.clock_class, 6);
	assert_memory_equal(d.gm_identity, me, PTP_CLOCK_ID_LEN);
	assert_int_equal(d.steps_removed, 0);
	assert_memory_equal(d.sender.clock_identity, me, PTP_CLOCK_ID_LEN);
	assert_int_equal(d.sender.port_number, 0);
	assert_true(ptp_port_identity_equal(&d.sender, &d.receiver));
}

/* ---- state decision, Figure 33 ----------------------------------------- */

#define ME	0x50	/* this clock's identity (last octet) */

static struct bmc_dataset
d0_class(uint8_t clock_class)
{
	struct ptp_clock_quality q = { clock_class, 0xfe, 0xffff };
	struct bmc_dataset d;
	uint8_t me[PTP_CLOCK_ID_LEN];

	cid(me, ME);
	bmc_dataset_from_default(&d, 128, &q, 128, me);
	return d;
}

/* A foreign grandmaster heard on our port `port` from `sender`. */
static struct bmc_dataset
heard(uint8_t gm, uint8_t p1, uint16_t steps, uint8_t sender, uint16_t port)
{
	struct bmc_dataset d = ds(gm, steps, sender, 1, ME, port);

	d.priority1 = p1;
	return d;
}

static void
test_decision_one_port(void **state)
{
	struct bmc_dataset d0 = d0_class(248), d0gm = d0_class(6);
	struct bmc_dataset better = heard(0x60, 100, 0, 0x60, 1);
	struct bmc_dataset worse = heard(0x60, 200, 0, 0x60, 1);

	(void)state;
	/* Nothing heard while LISTENING: wait (ptp4l). */
	assert_int_equal(bmc_state_decision(&d0, NULL, NULL, 0,
	    PS_LISTENING, 0), BMC_D_NONE);
	assert_int_equal(bmc_state_decision(&d0gm, NULL, NULL, 0,
	    PS_LISTENING, 0), BMC_D_NONE);
	/* Nothing heard in another state: D0 is best -> master. */
	assert_int_equal(bmc_state_decision(&d0, NULL, NULL, 0,
	    PS_MASTER, 0), BMC_D_M2);
	assert_int_equal(bmc_state_decision(&d0, NULL, NULL, 0,
	    PS_SLAVE, 0), BMC_D_M2);
	assert_int_equal(bmc_state_decision(&d0gm, NULL, NULL, 0,
	    PS_PASSIVE, 0), BMC_D_M1);
	/* S1: a better master on our only port. */
	assert_int_equal(bmc_state_decision(&d0, &better, &better, 1,
	    PS_LISTENING, 0), BMC_D_S1);
	/* M2: we are better than everything heard. */
	assert_int_equal(bmc_state_decision(&d0, &worse, &worse, 1,
	    PS_LISTENING, 0), BMC_D_M2);
	/* clockClass 1..127: M1 if D0 better than Erbest, else P1. */
	assert_int_equal(bmc_state_decision(&d0gm, &worse, &worse, 1,
	    PS_LISTENING, 0), BMC_D_M1);
	assert_int_equal(bmc_state_decision(&d0gm, &better, &better, 1,
	    PS_SLAVE, 0), BMC_D_P1);
	d0gm.quality.clock_class = 127;
	assert_int_equal(bmc_state_decision(&d0gm, &better, &better, 1,
	    PS_MASTER, 0), BMC_D_P1);
	/* 128 and 0 are outside 1..127: the S1/M2 branches. */
	d0gm.quality.clock_class = 128;
	assert_int_equal(bmc_state_decision(&d0gm, &better, &better, 1,
	    PS_MASTER, 0), BMC_D_S1);
	d0gm.quality.clock_class = 0;
	assert_int_equal(bmc_state_decision(&d0gm, &better, &better, 1,
	    PS_MASTER, 0), BMC_D_S1);
}

static void
test_decision_slave_only(void **state)
{
	struct bmc_dataset d0gm = d0_class(6);
	struct bmc_dataset better = heard(0x60, 100, 0, 0x60, 1);
	struct bmc_dataset worse = heard(0x60, 200, 0, 0x60, 1);
	enum bmc_decision d;

	(void)state;
	/* The 1..127 branch is never taken: S1, not P1. */
	d = bmc_state_decision(&d0gm, &better, &better, 1, PS_LISTENING,
	    BMC_F_SLAVE_ONLY);
	assert_int_equal(d, BMC_D_S1);
	assert_int_equal(fsm_next_slave_only(PS_LISTENING,
	    bmc_decision_event(d), 1), PS_UNCALIBRATED);
	/* A recommended master keeps a slave-only port listening. */
	d = bmc_state_decision(&d0gm, &worse, &worse, 1, PS_SLAVE,
	    BMC_F_SLAVE_ONLY);
	assert_int_equal(d, BMC_D_M2);
	assert_int_equal(fsm_next_slave_only(PS_SLAVE, bmc_decision_event(d),
	    0), PS_LISTENING);
	/* D0 is compared with clockClass 255: a class 248 master that only
	 * D0's configured class 6 would beat is followed. */
	worse.priority1 = 128;
	assert_int_equal(bmc_state_decision(&d0gm, &worse, &worse, 1,
	    PS_LISTENING, 0), BMC_D_M1);
	assert_int_equal(bmc_state_decision(&d0gm, &worse, &worse, 1,
	    PS_LISTENING, BMC_F_SLAVE_ONLY), BMC_D_S1);
}

static void
test_decision_events(void **state)
{
	(void)state;
	assert_int_equal(bmc_decision_event(BMC_D_NONE), EV_NONE);
	assert_int_equal(bmc_decision_event(BMC_D_M1), EV_RS_GRAND_MASTER);
	assert_int_equal(bmc_decision_event(BMC_D_M2), EV_RS_GRAND_MASTER);
	assert_int_equal(bmc_decision_event(BMC_D_M3), EV_RS_MASTER);
	assert_int_equal(bmc_decision_event(BMC_D_P1), EV_RS_PASSIVE);
	assert_int_equal(bmc_decision_event(BMC_D_P2), EV_RS_PASSIVE);
	assert_int_equal(bmc_decision_event(BMC_D_S1), EV_RS_SLAVE);
	assert_string_equal(bmc_decision_name(BMC_D_M3), "M3");
	assert_string_equal(bmc_decision_name(BMC_D_NONE), "NONE");
	assert_string_equal(bmc_decision_name(BMC_D_S1), "S1");
	assert_string_equal(bmc_decision_name(99), "UNKNOWN");
}

static void
test_select_one_port(void **state)
{
	struct bmc_dataset d0 = d0_class(248);
	struct bmc_dataset gm = heard(0x60, 100, 0, 0x60, 1);
	struct bmc_port_input p[1];

	(void)state;
	memset(p, 0, sizeof(p));
	p[0].state = PS_LISTENING;
	assert_int_equal(bmc_select(&d0, p, 1, 0), -1);
	assert_int_equal(p[0].decision, BMC_D_NONE);
	p[0].erbest = &gm;
	assert_int_equal(bmc_select(&d0, p, 1, 0), 0);
	assert_int_equal(p[0].decision, BMC_D_S1);
	/* A disabled port takes no part. */
	p[0].state = PS_DISABLED;
	assert_int_equal(bmc_select(&d0, p, 1, 0), -1);
	assert_int_equal(p[0].decision, BMC_D_NONE);
	assert_int_equal(bmc_select(&d0, p, 0, 0), -1);
}

/*
 * clock_class_threshold (ptp4l 4.x): a grandmaster of a class above the
 * threshold is not used.  A G.8275.1 T-TSC with threshold 7 follows a
 * locked (6) or holdover-in-spec (7) T-GM, not a free-running one (248):
 * with that one only, the port has no Erbest and stays LISTENING until
 * its announce timeout (ptp4l: "ignoring master"); of two ports the one whose master is within the threshold wins
 * even when the other's is better by the dataset comparison.
 */
static void
test_class_threshold(void **state)
{
	struct bmc_dataset d0 = d0_class(248);
	struct bmc_dataset locked = heard(0x60, 128, 0, 0x60, 1);
	struct bmc_dataset freerun = heard(0x61, 100, 0, 0x61, 2);
	struct bmc_port_input p[2];

	(void)state;
	locked.quality.clock_class = 6;
	freerun.quality.clock_class = 248;
	memset(p, 0, sizeof(p));
	p[0].state = p[1].state = PS_LISTENING;
	p[0].erbest = &freerun;
	/* The default keeps every class a master may announce. */
	assert_int_equal(bmc_apply_class_threshold(p, 1,
	    BMC_CLASS_THRESHOLD_DEFAULT), 0);
	assert_ptr_equal(p[0].erbest, &freerun);
	assert_int_equal(bmc_select(&d0, p, 1, BMC_F_SLAVE_ONLY), 0);
	assert_int_equal(p[0].decision, BMC_D_S1);
	/* Threshold 7: the free-running one is not used. */
	assert_int_equal(bmc_apply_class_threshold(p, 1, 7), 1);
	assert_null(p[0].erbest);
	assert_int_equal(bmc_select(&d0, p, 1, BMC_F_SLAVE_ONLY), -1);
	assert_int_equal(p[0].decision, BMC_D_NONE);
	assert_int_equal(bmc_select(&d0, p, 1, 0), -1);
	assert_int_equal(p[0].decision, BMC_D_NONE);
	/* Class 7 is within threshold 7: used. */
	freerun.quality.clock_class = 7;
	p[0].erbest = &freerun;
	assert_int_equal(bmc_apply_class_threshold(p, 1, 7), 0);
	/* Two ports: priority1 100 at 248 beats priority1 128 at 6 by the
	 * IEEE comparison, but with threshold 7 port 1's master is used. */
	freerun.quality.clock_class = 248;
	p[0].erbest = &locked;
	p[1].erbest = &freerun;
	assert_int_equal(bmc_select(&d0, p, 2, BMC_F_SLAVE_ONLY), 1);
	assert_int_equal(bmc_apply_class_threshold(p, 2, 7), 1);
	assert_ptr_equal(p[0].erbest, &locked);
	assert_null(p[1].erbest);
	assert_int_equal(bmc_select(&d0, p, 2, BMC_F_SLAVE_ONLY), 0);
	assert_int_equal(p[0].decision, BMC_D_S1);
}

/* Boundary clock, port 1 hears GM 0x01 directly, port 2 hears it through
 * boundary clock X one step further.  Port 2 is PASSIVE if our identity is
 * above X's (Figure 35: receiver > sender), else MASTER (M3). */
static void
test_select_two_ports_passive(void **state)
{
	struct bmc_dataset d0 = d0_class(248);
	struct bmc_dataset direct = heard(0x01, 128, 0, 0x01, 1);
	struct bmc_dataset via_low = heard(0x01, 128, 1, ME - 1, 2);
	struct bmc_dataset via_high = heard(0x01, 128, 1, ME + 1, 2);
	struct bmc_port_input p[2];

	(void)state;
	memset(p, 0, sizeof(p));
	p[0].state = PS_SLAVE;
	p[1].state = PS_MASTER;
	p[0].erbest = &direct;
	p[1].erbest = &via_low;
	assert_int_equal(bmc_select(&d0, p, 2, 0), 0);
	assert_int_equal(p[0].decision, BMC_D_S1);
	assert_int_equal(p[1].decision, BMC_D_P2);

	p[1].erbest = &via_high;
	assert_int_equal(bmc_select(&d0, p, 2, 0), 0);
	assert_int_equal(p[0].decision, BMC_D_S1);
	assert_int_equal(p[1].decision, BMC_D_M3);

	/* Order of the ports does not matter. */
	p[0].erbest = &via_low;
	p[1].erbest = &direct;
	direct.receiver.port_number = 2;
	via_low.receiver.port_number = 1;
	assert_int_equal(bmc_select(&d0, p, 2, 0), 1);
	assert_int_equal(p[0].decision, BMC_D_P2);
	assert_int_equal(p[1].decision, BMC_D_S1);
}

/* Two ports on one segment hear the same sender: the lower receiving port
 * number is slave, the other passive. */
static void
test_select_two_ports_hub(void **state)
{
	struct bmc_dataset d0 = d0_class(248);
	struct bmc_dataset on1 = heard(0x01, 128, 0, 0x01, 1);
	struct bmc_dataset on2 = heard(0x01, 128, 0, 0x01, 2);
	struct bmc_port_input p[2];

	(void)state;
	memset(p, 0, sizeof(p));
	p[0].state = PS_UNCALIBRATED;
	p[1].state = PS_LISTENING;
	p[0].erbest = &on1;
	p[1].erbest = &on2;
	assert_int_equal(bmc_select(&d0, p, 2, 0), 0);
	assert_int_equal(p[0].decision, BMC_D_S1);
	assert_int_equal(p[1].decision, BMC_D_P2);
}

/* Different grandmasters on the two ports: the worse one's port is M3. */
static void
test_select_two_ports_two_gms(void **state)
{
	struct bmc_dataset d0 = d0_class(248);
	struct bmc_dataset gm_a = heard(0x01, 100, 0, 0x01, 1);
	struct bmc_dataset gm_b = heard(0x02, 110, 0, 0x02, 2);
	struct bmc_port_input p[2];

	(void)state;
	memset(p, 0, sizeof(p));
	p[0].state = PS_LISTENING;
	p[1].state = PS_LISTENING;
	p[0].erbest = &gm_b;
	p[1].erbest = &gm_a;
	assert_int_equal(bmc_select(&d0, p, 2, 0), 1);
	assert_int_equal(p[0].decision, BMC_D_M3);
	assert_int_equal(p[1].decision, BMC_D_S1);
	/* A clockClass 6 clock is P1 where it hears a better one, M1 where
	 * it hears a worse one. */
	d0 = d0_class(6);
	d0.priority1 = 105;
	assert_int_equal(bmc_select(&d0, p, 2, 0), 1);
	assert_int_equal(p[0].decision, BMC_D_M1);
	assert_int_equal(p[1].decision, BMC_D_P1);
	/* Slave-only: S1 on the best port, M3 on the other (which the
	 * slave-only machine turns into LISTENING). */
	assert_int_equal(bmc_select(&d0, p, 2, BMC_F_SLAVE_ONLY), 1);
	assert_int_equal(p[0].decision, BMC_D_M3);
	assert_int_equal(p[1].decision, BMC_D_S1);
}

static void
test_select_three_ports(void **state)
{
	struct bmc_dataset d0 = d0_class(248);
	struct bmc_dataset direct = heard(0x01, 128, 0, 0x01, 1);
	struct bmc_dataset via_low = heard(0x01, 128, 1, ME - 1, 2);
	struct bmc_dataset worse = heard(0x70, 200, 0, 0x70, 3);
	struct bmc_port_input p[3];

	(void)state;
	memset(p, 0, sizeof(p));
	p[0].state = PS_SLAVE;
	p[1].state = PS_PASSIVE;
	p[2].state = PS_MASTER;
	p[0].erbest = &direct;
	p[1].erbest = &via_low;
	p[2].erbest = NULL;
	assert_int_equal(bmc_select(&d0, p, 3, 0), 0);
	assert_int_equal(p[0].decision, BMC_D_S1);
	assert_int_equal(p[1].decision, BMC_D_P2);
	assert_int_equal(p[2].decision, BMC_D_M3);

	/* Port 3 hears a worse grandmaster: still M3. */
	p[2].erbest = &worse;
	assert_int_equal(bmc_select(&d0, p, 3, 0), 0);
	assert_int_equal(p[2].decision, BMC_D_M3);

	/* Port 3 just came up and heard nothing: it waits. */
	p[2].erbest = NULL;
	p[2].state = PS_LISTENING;
	bmc_select(&d0, p, 3, 0);
	assert_int_equal(p[2].decision, BMC_D_NONE);

	/* The grandmaster's port faults: its Erbest no longer counts, the
	 * path through X becomes Ebest and port 2 the slave. */
	p[0].state = PS_FAULTY;
	assert_int_equal(bmc_select(&d0, p, 3, 0), 1);
	assert_int_equal(p[0].decision, BMC_D_NONE);
	assert_int_equal(p[1].decision, BMC_D_S1);

	/* We become the best clock: every active port is M2. */
	p[0].state = PS_SLAVE;
	p[2].state = PS_MASTER;
	d0.priority1 = 1;
	assert_int_equal(bmc_select(&d0, p, 3, 0), 0);
	assert_int_equal(p[0].decision, BMC_D_M2);
	assert_int_equal(p[1].decision, BMC_D_M2);
	assert_int_equal(p[2].decision, BMC_D_M2);
}

/* A master-only port ignores what it hears and is never slave or passive;
 * its Erbest is not part of Ebest. */
static void
test_select_master_only(void **state)
{
	struct bmc_dataset d0 = d0_class(248);
	struct bmc_dataset direct = heard(0x01, 128, 0, 0x01, 1);
	struct bmc_dataset best = heard(0x00, 1, 0, 0x00, 2);
	struct bmc_port_input p[2];

	(void)state;
	memset(p, 0, sizeof(p));
	p[0].state = PS_SLAVE;
	p[1].state = PS_MASTER;
	p[1].master_only = 1;
	p[0].erbest = &direct;
	p[1].erbest = &best;
	assert_int_equal(bmc_select(&d0, p, 2, 0), 0);
	assert_int_equal(p[0].decision, BMC_D_S1);
	assert_int_equal(p[1].decision, BMC_D_M3);

	/* Alone, it is M2 (or M1 for a clockClass 6 clock); listening, it
	 * waits for its announce receipt timeout. */
	assert_int_equal(bmc_select(&d0, &p[1], 1, 0), -1);
	assert_int_equal(p[1].decision, BMC_D_M2);
	d0 = d0_class(6);
	bmc_select(&d0, &p[1], 1, 0);
	assert_int_equal(p[1].decision, BMC_D_M1);
	p[1].state = PS_LISTENING;
	bmc_select(&d0, &p[1], 1, 0);
	assert_int_equal(p[1].decision, BMC_D_NONE);
	assert_int_equal(bmc_state_decision(&d0, &best, &best, 1,
	    PS_MASTER, BMC_F_MASTER_ONLY), BMC_D_M1);
}

/* ---- G.8275.x alternate comparison (bmc_compare_g8275) ----------------- */

/* cmp(a, b) == want and cmp(b, a) == mirror(want) with one comparison. */
static void
check_k(enum bmc_dscmp k, const struct bmc_dataset *a,
    const struct bmc_dataset *b, enum bmc_cmp want)
{
	enum bmc_cmp ab = bmc_compare_with(k, a, b);
	enum bmc_cmp ba = bmc_compare_with(k, b, a);

	if (ab != want || ba != mirror(want))
		print_error("%s: want %s, got %s / reversed %s\n",
		    k == BMC_DSCMP_G8275 ? "G.8275.x" : "ieee1588",
		    bmc_cmp_name(want), bmc_cmp_name(ab), bmc_cmp_name(ba));
	assert_int_equal(ab, want);
	assert_int_equal(ba, mirror(want));
}

/* Each attribute decides in turn, every later one pulling the other way:
 * clockClass, clockAccuracy, offsetScaledLogVariance, priority2,
 * localPriority, grandmasterIdentity (clockClass above 127). */
static void
test_g8275_each_field(void **state)
{
	struct bmc_dataset a, b;

	(void)state;
	a = ds(0x02, 0, 0x02, 1, 0x09, 1);
	b = ds(0x01, 0, 0x01, 1, 0x09, 1);
	/* priority1 would make A win everywhere: it must not count. */
	a.priority1 = 0;
	b.priority1 = 255;

	/* clockClass */
	a.quality.clock_class = 165;
	b.quality.clock_class = 248;
	b.quality.clock_accuracy = 0x20;
	b.quality.offset_scaled_log_variance = 0x4e5d;
	b.priority2 = 0;
	b.local_priority = 1;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER);
	/* clockAccuracy */
	a.quality.clock_class = b.quality.clock_class;
	a.quality.clock_accuracy = 0x1f;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER);
	/* offsetScaledLogVariance */
	a.quality.clock_accuracy = b.quality.clock_accuracy;
	a.quality.offset_scaled_log_variance = 0x4e5c;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER);
	/* priority2 */
	a.quality.offset_scaled_log_variance =
	    b.quality.offset_scaled_log_variance;
	a.priority2 = 0;
	b.priority2 = 1;
	a.local_priority = 255;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER);
	/* localPriority, before the identity (B's lower) */
	a.priority2 = b.priority2;
	a.local_priority = 1;
	b.local_priority = 2;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER);
	/* grandmasterIdentity: all else equal, the lower (B) wins, whatever
	 * stepsRemoved says (A nearer). */
	a.local_priority = b.local_priority;
	b.steps_removed = 5;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_B_BETTER);
	/* and IEEE 1588 decides all of it by priority1 */
	check_k(BMC_DSCMP_IEEE1588, &a, &b, BMC_A_BETTER);
}

/* Where the two orders differ: priority1 is ignored, and localPriority
 * comes before the identity; where priority1 and localPriority tie and
 * the class is above 127 they agree. */
static void
test_g8275_differs_from_ieee(void **state)
{
	struct bmc_dataset a = ds(0x01, 0, 0x01, 1, 0x09, 1);
	struct bmc_dataset b = ds(0x02, 0, 0x02, 1, 0x09, 2);

	(void)state;
	/* priority1: IEEE takes A, the profile the better class of B. */
	a.priority1 = 100;
	b.quality.clock_class = 165;
	check_k(BMC_DSCMP_IEEE1588, &a, &b, BMC_A_BETTER);
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_B_BETTER);
	/* localPriority of B's receiving port over A's lower identity. */
	a.priority1 = b.priority1;
	b.quality.clock_class = a.quality.clock_class;
	b.local_priority = 100;
	check_k(BMC_DSCMP_IEEE1588, &a, &b, BMC_A_BETTER);
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_B_BETTER);
	/* flipped, A's port preferred: both take A */
	a.local_priority = 99;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER);
	/* the default 128 on both: the identity, as IEEE */
	a.local_priority = b.local_priority = BMC_LOCAL_PRIORITY_DEFAULT;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER);
}

/* clockClass 127 or less: equal grandmasters are told apart by topology
 * only, never by identity (G.8275.1 6.3, ptp4l's telecom_dscmp). */
static void
test_g8275_prtc_classes_topology(void **state)
{
	struct bmc_dataset a, b;

	(void)state;
	/* A: GM 0x02 two hops away; B: GM 0x01 five hops away. */
	a = ds(0x02, 2, 0x20, 1, 0x09, 1);
	b = ds(0x01, 5, 0x10, 1, 0x09, 2);
	a.quality.clock_class = b.quality.clock_class = 6;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER);
	check_k(BMC_DSCMP_IEEE1588, &a, &b, BMC_B_BETTER);
	/* Class 127 is still one of them. */
	a.quality.clock_class = b.quality.clock_class = 127;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER);
	/* Class 128 is not: the identity decides. */
	a.quality.clock_class = b.quality.clock_class = 128;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_B_BETTER);

	a.quality.clock_class = b.quality.clock_class = 6;
	/* Equal stepsRemoved: the lower sender identity, by topology. */
	b.steps_removed = 2;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_B_BETTER_TOPO);
	/* stepsRemoved one apart: the receiver/sender rule of Figure 35. */
	b.steps_removed = 3;
	pid(&b.receiver, 0x09, 2);	/* receiver 0x09 < sender 0x10 */
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER);
	pid(&b.receiver, 0x30, 2);	/* receiver above sender */
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER_TOPO);
	/* Same sender, same receiving port: error 2. */
	b = a;
	cid(b.gm_identity, 0x01);
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_ERROR_2);
	/* Same sender heard on two ports: the lower port number. */
	b.receiver.port_number = 2;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER_TOPO);
	/* localPriority still comes first. */
	b.local_priority = 127;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_B_BETTER);
}

/* One grandmaster (class above 127) heard on two ports: the port's
 * localPriority decides before topology; equal, topology as IEEE. */
static void
test_g8275_same_gm(void **state)
{
	struct bmc_dataset a = ds(0x01, 1, 0x20, 1, 0x09, 1);
	struct bmc_dataset b = ds(0x01, 3, 0x30, 1, 0x09, 2);

	(void)state;
	check_k(BMC_DSCMP_IEEE1588, &a, &b, BMC_A_BETTER);
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_A_BETTER);
	b.local_priority = 1;
	check_k(BMC_DSCMP_IEEE1588, &a, &b, BMC_A_BETTER);
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_B_BETTER);
	/* The same Announce counted twice is error 2 in both. */
	b = a;
	check_k(BMC_DSCMP_G8275, &a, &b, BMC_ERROR_2);
	check_k(BMC_DSCMP_IEEE1588, &a, &b, BMC_ERROR_2);
}

static void
test_g8275_null_and_same(void **state)
{
	struct bmc_dataset a = ds(0x01, 0, 0x01, 1, 0x09, 1);

	(void)state;
	assert_int_equal(bmc_compare_g8275(&a, NULL), BMC_A_BETTER);
	assert_int_equal(bmc_compare_g8275(NULL, &a), BMC_B_BETTER);
	assert_int_equal(bmc_compare_g8275(NULL, NULL), BMC_EQUAL);
	assert_int_equal(bmc_compare_g8275(&a, &a), BMC_EQUAL);
	assert_int_equal(bmc_compare_with(BMC_DSCMP_G8275, &a, NULL),
	    BMC_A_BETTER);
	assert_int_equal(BMC_DSCMP_IEEE1588, 0);	/* dataset_comparison */
	assert_int_equal(BMC_DSCMP_G8275, 1);
}

/* Many pseudo-random pairs: antisymmetric, and equal to IEEE 1588's
 * answer wherever the profile says nothing different: priority1 and
 * localPriority equal, clockClass above 127, and two grandmasters or one
 * that both data sets describe alike (of one grandmaster IEEE 1588 looks
 * at topology only, the profile at the attributes first). */
static void
test_g8275_antisymmetry_and_agreement(void **state)
{
	struct bmc_dataset a, b;
	enum bmc_cmp ab, ba;
	uint32_t s = 0x8275;
	unsigned int i, agreed = 0, differed = 0;

	(void)state;
	for (i = 0; i < 20000; i++) {
		random_ds(&a, &s);
		random_ds(&b, &s);
		a.local_priority = (uint8_t)(127 + lcg(&s) % 2);
		b.local_priority = (uint8_t)(127 + lcg(&s) % 2);
		if (lcg(&s) % 2) {
			a.quality.clock_class += 160;	/* 166, 167 */
			b.quality.clock_class += 160;
		}
		ab = bmc_compare_g8275(&a, &b);
		ba = bmc_compare_g8275(&b, &a);
		assert_int_equal(ba, mirror(ab));
		if (a.priority1 == b.priority1 &&
		    a.local_priority == b.local_priority &&
		    a.quality.clock_class > 127 &&
		    b.quality.clock_class > 127 &&
		    (memcmp(a.gm_identity, b.gm_identity,
		    PTP_CLOCK_ID_LEN) != 0 ||
		    (a.quality.clock_class == b.quality.clock_class &&
		    a.priority2 == b.priority2))) {
			assert_int_equal(ab, bmc_compare(&a, &b));
			agreed++;
		} else if (ab != bmc_compare(&a, &b)) {
			differed++;
		}
	}
	/* both kinds of pair were drawn */
	assert_true(agreed > 1000);
	assert_true(differed > 1000);
}

/* Figure 33 with the profile's comparison: D0 carries
 * defaultDS.localPriority, Erbest its port's. */
static void
test_g8275_decision(void **state)
{
	struct bmc_dataset d0 = d0_class(248);
	struct bmc_dataset gm = heard(0x01, 128, 0, 0x01, 1);

	(void)state;
	/* Equal quality: IEEE and the profile at equal localPriority take
	 * the lower identity (0x01): slave. */
	assert_int_equal(bmc_state_decision(&d0, &gm, &gm, 1, PS_LISTENING,
	    0), BMC_D_S1);
	assert_int_equal(bmc_state_decision(&d0, &gm, &gm, 1, PS_LISTENING,
	    BMC_F_G8275), BMC_D_S1);
	/* Our defaultDS.localPriority better than the port's: master. */
	d0.local_priority = 100;
	assert_int_equal(bmc_state_decision(&d0, &gm, &gm, 1, PS_LISTENING,
	    BMC_F_G8275), BMC_D_M2);
	assert_int_equal(bmc_state_decision(&d0, &gm, &gm, 1, PS_LISTENING,
	    0), BMC_D_S1);
	/* Our priority1 counts for nothing in the profile. */
	d0.local_priority = BMC_LOCAL_PRIORITY_DEFAULT;
	d0.priority1 = 1;
	assert_int_equal(bmc_state_decision(&d0, &gm, &gm, 1, PS_LISTENING,
	    BMC_F_G8275), BMC_D_S1);
	assert_int_equal(bmc_state_decision(&d0, &gm, &gm, 1, PS_LISTENING,
	    0), BMC_D_M2);
	/* Two PRTC-class grandmasters: a clockClass 6 D0 against a class 6
	 * Erbest two hops away is M1 by topology (stepsRemoved 0 < 2), in
	 * spite of the other's lower identity; IEEE says P1. */
	d0 = d0_class(6);
	gm = heard(0x01, 128, 2, 0x01, 1);
	gm.quality.clock_class = 6;
	assert_int_equal(bmc_state_decision(&d0, &gm, &gm, 1, PS_MASTER,
	    BMC_F_G8275), BMC_D_M1);
	assert_int_equal(bmc_state_decision(&d0, &gm, &gm, 1, PS_MASTER, 0),
	    BMC_D_P1);
}

/* A slave with a port towards each of two equal grandmasters: the port
 * with the better portDS.localPriority holds Ebest; flipped, the other. */
static void
test_g8275_select_two_gms(void **state)
{
	struct bmc_dataset d0 = d0_class(255);
	struct bmc_dataset gm_lo = heard(0x01, 128, 0, 0x01, 1);
	struct bmc_dataset gm_hi = heard(0x02, 128, 0, 0x02, 2);
	struct bmc_port_input p[2];

	(void)state;
	memset(p, 0, sizeof(p));
	p[0].state = PS_LISTENING;
	p[1].state = PS_LISTENING;
	p[0].erbest = &gm_lo;
	p[1].erbest = &gm_hi;
	/* Equal localPriority: the lower identity, as IEEE. */
	assert_int_equal(bmc_select(&d0, p, 2, BMC_F_SLAVE_ONLY), 0);
	assert_int_equal(bmc_select(&d0, p, 2,
	    BMC_F_SLAVE_ONLY | BMC_F_G8275), 0);
	assert_int_equal(p[0].decision, BMC_D_S1);
	assert_int_equal(p[1].decision, BMC_D_M3);
	/* Port 2 preferred: its grandmaster, the higher identity, wins. */
	gm_hi.local_priority = 100;
	assert_int_equal(bmc_select(&d0, p, 2,
	    BMC_F_SLAVE_ONLY | BMC_F_G8275), 1);
	assert_int_equal(p[0].decision, BMC_D_M3);
	assert_int_equal(p[1].decision, BMC_D_S1);
	assert_int_equal(bmc_select(&d0, p, 2, BMC_F_SLAVE_ONLY), 0);
	/* Flipped: port 1 preferred again. */
	gm_hi.local_priority = 200;
	gm_lo.local_priority = 250;
	assert_int_equal(bmc_select(&d0, p, 2,
	    BMC_F_SLAVE_ONLY | BMC_F_G8275), 1);
	gm_lo.local_priority = 150;
	assert_int_equal(bmc_select(&d0, p, 2,
	    BMC_F_SLAVE_ONLY | BMC_F_G8275), 0);
	/* A master-only port's better grandmaster never counts. */
	gm_hi.local_priority = 1;
	p[1].master_only = 1;
	p[1].state = PS_MASTER;
	assert_int_equal(bmc_select(&d0, p, 2,
	    BMC_F_SLAVE_ONLY | BMC_F_G8275), 0);
	assert_int_equal(p[1].decision, BMC_D_M3);
}

/* Two PRTC-class grandmasters reach a boundary clock on two ports at the
 * same distance: one port is slave, the other PASSIVE (P2: Ebest better by
 * topology), where IEEE 1588 makes the other port a master (M3). */
static void
test_g8275_select_prtc_passive(void **state)
{
	struct bmc_dataset d0 = d0_class(248);
	struct bmc_dataset gm_a = heard(0x01, 128, 1, 0x11, 1);
	struct bmc_dataset gm_b = heard(0x02, 128, 1, 0x12, 2);
	struct bmc_port_input p[2];

	(void)state;
	gm_a.quality.clock_class = gm_b.quality.clock_class = 6;
	memset(p, 0, sizeof(p));
	p[0].state = PS_SLAVE;
	p[1].state = PS_MASTER;
	p[0].erbest = &gm_a;
	p[1].erbest = &gm_b;
	assert_int_equal(bmc_select(&d0, p, 2, BMC_F_G8275), 0);
	assert_int_equal(p[0].decision, BMC_D_S1);
	assert_int_equal(p[1].decision, BMC_D_P2);
	assert_int_equal(bmc_select(&d0, p, 2, 0), 0);
	assert_int_equal(p[1].decision, BMC_D_M3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fig34_each_field),
		cmocka_unit_test(test_fig34_single_fields),
		cmocka_unit_test(test_fig35_same_gm_ignores_attributes),
		cmocka_unit_test(test_fig35_steps_by_two_or_more),
		cmocka_unit_test(test_fig35_steps_by_one),
		cmocka_unit_test(test_fig35_equal_steps),
		cmocka_unit_test(test_null_and_same),
		cmocka_unit_test(test_cmp_helpers),
		cmocka_unit_test(test_antisymmetry),
		cmocka_unit_test(test_dataset_builders),
		cmocka_unit_test(test_decision_one_port),
		cmocka_unit_test(test_decision_slave_only),
		cmocka_unit_test(test_decision_events),
		cmocka_unit_test(test_select_one_port),
		cmocka_unit_test(test_select_two_ports_passive),
		cmocka_unit_test(test_select_two_ports_hub),
		cmocka_unit_test(test_select_two_ports_two_gms),
		cmocka_unit_test(test_select_three_ports),
		cmocka_unit_test(test_select_master_only),
		cmocka_unit_test(test_g8275_each_field),
		cmocka_unit_test(test_g8275_differs_from_ieee),
		cmocka_unit_test(test_g8275_prtc_classes_topology),
		cmocka_unit_test(test_g8275_same_gm),
		cmocka_unit_test(test_g8275_null_and_same),
		cmocka_unit_test(test_g8275_antisymmetry_and_agreement),
		cmocka_unit_test(test_g8275_decision),
		cmocka_unit_test(test_g8275_select_two_gms),
		cmocka_unit_test(test_g8275_select_prtc_passive),
		cmocka_unit_test(test_class_threshold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
