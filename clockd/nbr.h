/*
 * nbr.h - is the neighbour of a P2P port close enough to be timed
 * (asCapable)?
 *
 * IEEE 802.1AS-2020 11.2.2 makes a port asCapable only while the mean link
 * delay it measures to its neighbour is at most meanLinkDelayThresh (ptp4l's
 * neighborPropDelayThresh, ns); linuxptp adds a lower bound,
 * min_neighbor_prop_delay (ns, negative), which catches the negative
 * delays of broken time stamps.  A neighbour outside [min, thresh] is not
 * a peer the link can be timed against: a port that is not asCapable does
 * not take Announce, Sync or Follow_Up from it, and sends it neither
 * Announce nor Sync (802.1AS 10.2, 10.3).  Peer delay measurement goes on,
 * so the port becomes asCapable again once the delay is back in range.
 *
 * ptp4l checks this only for 802.1AS ports (follow_up_info 1, asCapable
 * auto); ptpsep on every P2P port.  Its defaults, +-20 ms, pass every sane
 * link, so a default configuration behaves as ptp4l's.
 *
 * Pure: no I/O, no clock; the caller logs a change.
 */
#ifndef PTPSEP_NBR_H
#define PTPSEP_NBR_H

#include <stdint.h>

enum nbr_verdict {
	NBR_OK,
	NBR_TOO_SHORT,	/* below min_neighbor_prop_delay */
	NBR_TOO_LONG,	/* above neighborPropDelayThresh */
};

struct nbr {
	int64_t		 min_ns;	/* min_neighbor_prop_delay */
	int64_t		 thresh_ns;	/* neighborPropDelayThresh */
	int		 enabled;	/* by nbr_init(): zeroed, no check */
	int		 far;		/* not asCapable */
	enum nbr_verdict last;		/* of the last sample */
	int64_t		 last_ns;	/* the last sample */
	uint64_t	 rejected;	/* samples out of range */
};

/*
 * asCapable until a measured delay says otherwise: a port with no peer
 * delay yet has nothing to judge (and E2E ports never have one).
 */
void nbr_init(struct nbr *n, int64_t min_ns, int64_t thresh_ns);
/* The verdict on one mean link delay (ns). */
enum nbr_verdict nbr_judge(const struct nbr *n, int64_t mean_link_delay_ns);
/*
 * Takes a new (filtered) mean link delay; returns 1 if asCapable changed,
 * else 0.  A struct nbr_init() did not set up takes nothing: asCapable.
 */
int nbr_sample(struct nbr *n, int64_t mean_link_delay_ns);
const char *nbr_verdict_name(enum nbr_verdict v);

static inline int
nbr_as_capable(const struct nbr *n)
{
	return !n->far;
}

#endif /* PTPSEP_NBR_H */
