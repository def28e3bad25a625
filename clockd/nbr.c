/*
 * nbr.c - the neighbour delay check of a P2P port (asCapable); see nbr.h.
 */
#include "config.h"

#include "nbr.h"

void
nbr_init(struct nbr *n, int64_t min_ns, int64_t thresh_ns)
{
	n->min_ns = min_ns;
	n->thresh_ns = thresh_ns;
	n->enabled = 1;
	n->far = 0;
	n->last = NBR_OK;
	n->last_ns = 0;
	n->rejected = 0;
}

/* As ptp4l: the bounds themselves are in range. */
enum nbr_verdict
nbr_judge(const struct nbr *n, int64_t d)
{
	if (d > n->thresh_ns)
		return NBR_TOO_LONG;
	if (d < n->min_ns)
		return NBR_TOO_SHORT;
	return NBR_OK;
}

int
nbr_sample(struct nbr *n, int64_t d)
{
	int was = n->far;

	if (!n->enabled)
		return 0;
	n->last = nbr_judge(n, d);
	n->last_ns = d;
	if (n->last != NBR_OK)
		n->rejected++;
	n->far = n->last != NBR_OK;
	return n->far != was;
}

const char *
nbr_verdict_name(enum nbr_verdict v)
{
	switch (v) {
	case NBR_OK:
		return "in range";
	case NBR_TOO_SHORT:
		return "below min_neighbor_prop_delay";
	case NBR_TOO_LONG:
		return "above neighborPropDelayThresh";
	}
	return "?";
}
