/*
 * filter.c - moving median and moving average of the path delay, with the
 * behaviour of linuxptp's mmedian.c and mave.c (see filter.h).
 *
 * Both keep a ring of the last `length` samples.  The median also keeps
 * the ring's indices sorted by value: a new sample replaces the oldest's
 * index and is moved into place by insertion, O(length).  The average keeps
 * the exact running sum in __int128, so it neither overflows nor drifts.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "filter.h"

struct filter {
	enum filter_type type;
	int len;		/* capacity */
	int cnt;		/* samples held */
	int next;		/* ring slot of the next sample */
	__int128 sum;		/* average: sum of the samples held */
	int64_t *val;		/* ring, len entries */
	int *order;		/* median: ring slots sorted by value */
};

struct filter *
filter_create(enum filter_type type, int length)
{
	struct filter *f;

	if ((type != FILTER_MOVING_AVERAGE && type != FILTER_MOVING_MEDIAN) ||
	    length < 1 || length > FILTER_MAX_LENGTH) {
		errno = EINVAL;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return NULL;
	f->type = type;
	f->len = length;
	f->val = calloc((size_t)length, sizeof(*f->val));
	if (f->val == NULL)
		goto no_val;
	if (type == FILTER_MOVING_MEDIAN) {
		f->order = calloc((size_t)length, sizeof(*f->order));
		if (f->order == NULL)
			goto no_order;
	}
	return f;

no_order:
	free(f->val);
no_val:
	free(f);
	return NULL;
}

void
filter_destroy(struct filter *f)
{
	if (f == NULL)
		return;
	free(f->order);
	free(f->val);
	free(f);
}

void
filter_reset(struct filter *f)
{
	f->cnt = 0;
	f->next = 0;
	f->sum = 0;
}

int
filter_count(const struct filter *f)
{
	return f->cnt;
}

static int64_t
average_sample(struct filter *f, int64_t v)
{
	if (f->cnt == f->len)
		f->sum -= f->val[f->next];
	else
		f->cnt++;
	f->val[f->next] = v;
	f->sum += v;
	f->next = (f->next + 1) % f->len;
	/* |sum / cnt| <= max |sample|: fits; C division truncates. */
	return (int64_t)(f->sum / f->cnt);
}

static int64_t
median_sample(struct filter *f, int64_t v)
{
	int i, slot = f->next;

	if (f->cnt < f->len) {
		f->cnt++;
	} else {
		/* Drop the oldest sample's slot from the order. */
		for (i = 0; i < f->cnt && f->order[i] != slot; i++)
			;
		for (; i + 1 < f->cnt; i++)
			f->order[i] = f->order[i + 1];
	}
	f->val[slot] = v;
	/* Insert: after every value <= v, so equal values keep age order. */
	for (i = f->cnt - 1; i > 0 && f->val[f->order[i - 1]] > v; i--)
		f->order[i] = f->order[i - 1];
	f->order[i] = slot;
	f->next = (slot + 1) % f->len;

	if (f->cnt % 2)
		return f->val[f->order[f->cnt / 2]];
	return (int64_t)(((__int128)f->val[f->order[f->cnt / 2 - 1]] +
	    f->val[f->order[f->cnt / 2]]) / 2);
}

int64_t
filter_sample(struct filter *f, int64_t v)
{
	return f->type == FILTER_MOVING_MEDIAN ? median_sample(f, v) :
	    average_sample(f, v);
}

/*
 * The mean of the held samples within k robust standard deviations
 * (1.4826 times the median absolute deviation) of their median.  The
 * median is what the offset needs only for a symmetric distribution: the
 * Sync's leg of an offset carries the mean of its delay, and with one-
 * sided queueing (packet delay variation) or a bimodal receive latency
 * the median of the path delays sits below that mean, a bias the offset
 * keeps for good.  The band still drops the late time stamps the median
 * is there for (IEEE 1588-2019 leaves the delay filter to the
 * implementation, 11.3).  For a moving average: the average.
 */
int64_t
filter_band_mean(const struct filter *f, double k)
{
	const int64_t *v = f->val;
	const int *o = f->order;
	__int128 sum = 0;
	double med, mad, dlo, dhi, band;
	int n = f->cnt, lo, hi, i, m;

	if (n == 0)
		return 0;
	if (f->type != FILTER_MOVING_MEDIAN)
		return (int64_t)(f->sum / n);
	med = n % 2 ? (double)v[o[n / 2]] :
	    ((double)v[o[n / 2 - 1]] + (double)v[o[n / 2]]) / 2.0;
	/* The deviations in increasing order, merged outward from the
	 * middle of the sorted samples: the (n+1)/2-th is the MAD. */
	lo = (n - 1) / 2;
	hi = lo + 1;
	mad = 0.0;
	for (m = 0; m < (n + 1) / 2; m++) {
		dlo = lo >= 0 ? med - (double)v[o[lo]] : INFINITY;
		dhi = hi < n ? (double)v[o[hi]] - med : INFINITY;
		if (dlo <= dhi) {
			mad = dlo;
			lo--;
		} else {
			mad = dhi;
			hi++;
		}
	}
	band = k * 1.4826 * mad;
	for (i = 0, m = 0; i < n; i++) {
		if (fabs((double)v[o[i]] - med) <= band) {
			sum += v[o[i]];
			m++;
		}
	}
	return m > 0 ? (int64_t)(sum / m) : (int64_t)med;
}

int
filter_tsproc(enum filter_tsproc mode, int64_t raw, int64_t filtered,
    int64_t *delay, double *weight)
{
	int weighting;

	switch (mode) {
	case FILTER_TSPROC_FILTER:
	case FILTER_TSPROC_FILTER_WEIGHT:
		*delay = filtered;
		break;
	case FILTER_TSPROC_RAW:
	case FILTER_TSPROC_RAW_WEIGHT:
		*delay = raw;
		break;
	default:
		return -1;
	}
	weighting = mode == FILTER_TSPROC_FILTER_WEIGHT ||
	    mode == FILTER_TSPROC_RAW_WEIGHT;
	if (weight == NULL)
		return 0;
	if (weighting && filtered > 0 && raw > 0) {
		*weight = (double)filtered / (double)raw;
		if (*weight > 1.0)
			*weight = 1.0;
	} else {
		*weight = 1.0;
	}
	return 0;
}
