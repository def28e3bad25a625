/*
 * bmc.c - best master clock algorithm, IEEE 1588-2019 9.3.3 and 9.3.4.
 *
 * Identities compare as unsigned octet strings (clockIdentity, most
 * significant octet first) and then by portNumber (7.5.2.4, 9.3.4): the
 * lower value is the better one.  This is what ptp4l's dscmp() does; its
 * values and its "> 0 means A better" convention are kept, with the two
 * error cases of Figure 35 reported apart instead of folded into 0.
 * bmc_compare_g8275() is the telecom profiles' order over the same
 * topology step.
 */
#include "config.h"

#include <string.h>

#include "bmc.h"

static int
clock_id_cmp(const uint8_t *a, const uint8_t *b)
{
	return memcmp(a, b, PTP_CLOCK_ID_LEN);
}

/* PortIdentity order: clockIdentity, then portNumber. */
static int
port_id_cmp(const struct ptp_port_identity *a,
    const struct ptp_port_identity *b)
{
	int d = clock_id_cmp(a->clock_identity, b->clock_identity);

	if (d != 0)
		return d;
	if (a->port_number != b->port_number)
		return a->port_number < b->port_number ? -1 : 1;
	return 0;
}

/* Figure 35: A and B describe the same grandmaster. */
static enum bmc_cmp
compare_topology(const struct bmc_dataset *a, const struct bmc_dataset *b)
{
	unsigned int sa = a->steps_removed, sb = b->steps_removed;
	int d;

	if (sa > sb + 1)
		return BMC_B_BETTER;
	if (sa + 1 < sb)
		return BMC_A_BETTER;
	if (sa == sb + 1) {
		/* A went one hop further: is its receiver its sender? */
		d = port_id_cmp(&a->receiver, &a->sender);
		if (d < 0)
			return BMC_B_BETTER;
		if (d > 0)
			return BMC_B_BETTER_TOPO;
		return BMC_ERROR_1;
	}
	if (sb == sa + 1) {
		d = port_id_cmp(&b->receiver, &b->sender);
		if (d < 0)
			return BMC_A_BETTER;
		if (d > 0)
			return BMC_A_BETTER_TOPO;
		return BMC_ERROR_1;
	}
	/* Same stepsRemoved: the sender with the lower identity... */
	d = port_id_cmp(&a->sender, &b->sender);
	if (d < 0)
		return BMC_A_BETTER_TOPO;
	if (d > 0)
		return BMC_B_BETTER_TOPO;
	/* ...then, same sender, the receiving port with the lower number. */
	if (a->receiver.port_number < b->receiver.port_number)
		return BMC_A_BETTER_TOPO;
	if (a->receiver.port_number > b->receiver.port_number)
		return BMC_B_BETTER_TOPO;
	return BMC_ERROR_2;
}

#define LOWER_WINS(x, y) \
	do { \
		if ((x) < (y)) \
			return BMC_A_BETTER; \
		if ((x) > (y)) \
			return BMC_B_BETTER; \
	} while (0)

enum bmc_cmp
bmc_compare(const struct bmc_dataset *a, const struct bmc_dataset *b)
{
	int d;

	if (a == b)
		return BMC_EQUAL;
	if (b == NULL)
		return BMC_A_BETTER;
	if (a == NULL)
		return BMC_B_BETTER;

	/* Figure 34: the same grandmaster is a matter of topology. */
	d = clock_id_cmp(a->gm_identity, b->gm_identity);
	if (d == 0)
		return compare_topology(a, b);

	LOWER_WINS(a->priority1, b->priority1);
	LOWER_WINS(a->quality.clock_class, b->quality.clock_class);
	LOWER_WINS(a->quality.clock_accuracy, b->quality.clock_accuracy);
	LOWER_WINS(a->quality.offset_scaled_log_variance,
	    b->quality.offset_scaled_log_variance);
	LOWER_WINS(a->priority2, b->priority2);
	/* Tie-breaker: grandmasterIdentity. */
	return d < 0 ? BMC_A_BETTER : BMC_B_BETTER;
}

enum bmc_cmp
bmc_compare_g8275(const struct bmc_dataset *a, const struct bmc_dataset *b)
{
	int d;

	if (a == b)
		return BMC_EQUAL;
	if (b == NULL)
		return BMC_A_BETTER;
	if (a == NULL)
		return BMC_B_BETTER;

	/* G.8275.1 6.3: no priority1 (fixed at 128 in the profile), and
	 * the receiving port's localPriority after priority2. */
	LOWER_WINS(a->quality.clock_class, b->quality.clock_class);
	LOWER_WINS(a->quality.clock_accuracy, b->quality.clock_accuracy);
	LOWER_WINS(a->quality.offset_scaled_log_variance,
	    b->quality.offset_scaled_log_variance);
	LOWER_WINS(a->priority2, b->priority2);
	LOWER_WINS(a->local_priority, b->local_priority);
	/* Grandmaster-capable classes (both equal here): the nearest of
	 * equivalent grandmasters, whatever their identities. */
	if (a->quality.clock_class <= 127)
		return compare_topology(a, b);
	d = clock_id_cmp(a->gm_identity, b->gm_identity);
	if (d == 0)
		return compare_topology(a, b);
	return d < 0 ? BMC_A_BETTER : BMC_B_BETTER;
}

enum bmc_cmp
bmc_compare_with(enum bmc_dscmp kind, const struct bmc_dataset *a,
    const struct bmc_dataset *b)
{
	if (kind == BMC_DSCMP_G8275)
		return bmc_compare_g8275(a, b);
	return bmc_compare(a, b);
}

int
bmc_a_better(enum bmc_cmp r)
{
	return r == BMC_A_BETTER || r == BMC_A_BETTER_TOPO;
}

int
bmc_b_better(enum bmc_cmp r)
{
	return r == BMC_B_BETTER || r == BMC_B_BETTER_TOPO;
}

const char *
bmc_cmp_name(int r)
{
	switch (r) {
	case BMC_ERROR_2: return "ERROR_2";
	case BMC_ERROR_1: return "ERROR_1";
	case BMC_B_BETTER: return "B_BETTER";
	case BMC_B_BETTER_TOPO: return "B_BETTER_TOPO";
	case BMC_EQUAL: return "EQUAL";
	case BMC_A_BETTER_TOPO: return "A_BETTER_TOPO";
	case BMC_A_BETTER: return "A_BETTER";
	default: return "UNKNOWN";
	}
}

void
bmc_dataset_from_announce(struct bmc_dataset *out,
    const struct ptp_header *hdr, const struct ptp_announce *ann,
    const struct ptp_port_identity *receiver)
{
	memset(out, 0, sizeof(*out));
	out->priority1 = ann->grandmaster_priority1;
	out->quality = ann->grandmaster_clock_quality;
	out->priority2 = ann->grandmaster_priority2;
	memcpy(out->gm_identity, ann->grandmaster_identity, PTP_CLOCK_ID_LEN);
	out->steps_removed = ann->steps_removed;
	out->sender = hdr->source_port_identity;
	out->receiver = *receiver;
	out->local_priority = BMC_LOCAL_PRIORITY_DEFAULT;
}

void
bmc_dataset_from_default(struct bmc_dataset *out, uint8_t priority1,
    const struct ptp_clock_quality *quality, uint8_t priority2,
    const uint8_t clock_identity[PTP_CLOCK_ID_LEN])
{
	memset(out, 0, sizeof(*out));
	out->priority1 = priority1;
	out->quality = *quality;
	out->priority2 = priority2;
	memcpy(out->gm_identity, clock_identity, PTP_CLOCK_ID_LEN);
	out->steps_removed = 0;
	memcpy(out->sender.clock_identity, clock_identity, PTP_CLOCK_ID_LEN);
	out->sender.port_number = 0;
	out->receiver = out->sender;
	out->local_priority = BMC_LOCAL_PRIORITY_DEFAULT;
}

enum bmc_decision
bmc_state_decision(const struct bmc_dataset *d0,
    const struct bmc_dataset *ebest, const struct bmc_dataset *erbest,
    int ebest_here, enum fsm_state state, unsigned int flags)
{
	struct bmc_dataset d0_slave_only;
	enum bmc_dscmp k = flags & BMC_F_G8275 ? BMC_DSCMP_G8275 :
	    BMC_DSCMP_IEEE1588;
	unsigned int clock_class;

	if (flags & BMC_F_MASTER_ONLY) {
		/* A master-only port's Announce are not considered. */
		erbest = NULL;
		ebest_here = 0;
	}
	if (flags & BMC_F_SLAVE_ONLY) {
		/* clockClass 255 is the class of a slave-only clock
		 * (7.6.2.5); ptp4l forces it in its defaultDS too. */
		d0_slave_only = *d0;
		d0_slave_only.quality.clock_class = 255;
		d0 = &d0_slave_only;
	}
	clock_class = d0->quality.clock_class;

	/* Nothing heard on a LISTENING port: stay until Announce arrive or
	 * announceReceiptTimeout expires (9.2.6.12; ptp4l does the same). */
	if (erbest == NULL && state == PS_LISTENING)
		return BMC_D_NONE;

	/* Figure 33. */
	if (clock_class >= 1 && clock_class <= 127) {
		if (bmc_a_better(bmc_compare_with(k, d0, erbest)))
			return BMC_D_M1;
		return BMC_D_P1;
	}
	if (bmc_a_better(bmc_compare_with(k, d0, ebest)))
		return BMC_D_M2;
	if (ebest_here && ebest != NULL)
		return BMC_D_S1;
	if (bmc_compare_with(k, ebest, erbest) == BMC_A_BETTER_TOPO)
		return BMC_D_P2;
	return BMC_D_M3;
}

enum fsm_event
bmc_decision_event(enum bmc_decision d)
{
	switch (d) {
	case BMC_D_M1:
	case BMC_D_M2:
		return EV_RS_GRAND_MASTER;
	case BMC_D_M3:
		return EV_RS_MASTER;
	case BMC_D_P1:
	case BMC_D_P2:
		return EV_RS_PASSIVE;
	case BMC_D_S1:
		return EV_RS_SLAVE;
	case BMC_D_NONE:
	default:
		return EV_NONE;
	}
}

const char *
bmc_decision_name(int d)
{
	static const char *const names[] = {
		[BMC_D_NONE] = "NONE", [BMC_D_M1] = "M1", [BMC_D_M2] = "M2",
		[BMC_D_M3] = "M3", [BMC_D_P1] = "P1", [BMC_D_P2] = "P2",
		[BMC_D_S1] = "S1",
	};

	if (d < BMC_D_NONE || d > BMC_D_S1)
		return "UNKNOWN";
	return names[d];
}

/* A port that processes Announce messages (9.2.5: not INITIALIZING,
 * FAULTY or DISABLED). */
static int
port_active(enum fsm_state s)
{
	return s >= PS_LISTENING && s <= PS_SLAVE;
}

int
bmc_select(const struct bmc_dataset *d0, struct bmc_port_input *ports,
    size_t n, unsigned int flags)
{
	const struct bmc_dataset *ebest = NULL;
	enum bmc_dscmp k = flags & BMC_F_G8275 ? BMC_DSCMP_G8275 :
	    BMC_DSCMP_IEEE1588;
	unsigned int pflags;
	size_t i;
	int best = -1;

	/* 9.3.2: Ebest is the best of the ports' Erbest. */
	for (i = 0; i < n; i++) {
		struct bmc_port_input *p = &ports[i];

		if (p->erbest == NULL || p->master_only ||
		    !port_active(p->state))
			continue;
		if (ebest == NULL ||
		    bmc_compare_with(k, p->erbest, ebest) > BMC_EQUAL) {
			ebest = p->erbest;
			best = (int)i;
		}
	}

	for (i = 0; i < n; i++) {
		struct bmc_port_input *p = &ports[i];

		if (!port_active(p->state)) {
			p->decision = BMC_D_NONE;
			continue;
		}
		pflags = flags & (BMC_F_SLAVE_ONLY | BMC_F_G8275);
		if (p->master_only)
			pflags |= BMC_F_MASTER_ONLY;
		p->decision = bmc_state_decision(d0, ebest, p->erbest,
		    best >= 0 && (size_t)best == i, p->state, pflags);
	}
	return best;
}

size_t
bmc_apply_class_threshold(struct bmc_port_input *ports, size_t n,
    unsigned int threshold)
{
	size_t i, cleared = 0;

	for (i = 0; i < n; i++)
		if (ports[i].erbest != NULL &&
		    ports[i].erbest->quality.clock_class > threshold) {
			ports[i].erbest = NULL;
			cleared++;
		}
	return cleared;
}
