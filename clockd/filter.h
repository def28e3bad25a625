/*
 * filter.h - path-delay filters of ptp-clockd and ptp4l's tsproc modes.
 *
 * A filter takes one raw delay sample at a time and returns the filtered
 * value over the last `length` samples (fewer while it warms up), as
 * ptp4l's delay_filter / delay_filter_length do:
 *  - moving median (default, length 10): the middle sample, or the mean of
 *    the two middle ones for an even count;
 *  - moving average: the mean.
 * Values are int64_t in any unit; clockd feeds TimeInterval (scaled ns,
 * 2^-16 ns, IEEE 1588-2019 5.3.2), so it keeps the fraction ptp4l's
 * whole-ns tmv_t drops.  Divisions truncate toward zero, as ptp4l's
 * tmv_div().  Pure: no I/O, no globals; one malloc at creation.
 */
#ifndef PTPSEP_FILTER_H
#define PTPSEP_FILTER_H

#include <stdint.h>

/* Same values as lib/cfg.h's enum cfg_delay_filter. */
enum filter_type {
	FILTER_MOVING_AVERAGE = 0,
	FILTER_MOVING_MEDIAN = 1,
};

/* Upper bound of delay_filter_length here (ptp4l has none; the median
 * costs O(length) a sample). */
#define FILTER_MAX_LENGTH	4096

struct filter;

/* NULL with errno EINVAL for a bad type or length outside
 * 1..FILTER_MAX_LENGTH, ENOMEM. */
struct filter *filter_create(enum filter_type type, int length);
void filter_destroy(struct filter *f);
/* Adds v (dropping the oldest once full); returns the filtered value. */
int64_t filter_sample(struct filter *f, int64_t v);
/* Forgets every sample. */
void filter_reset(struct filter *f);
/* Samples held, 0..length. */
int filter_count(const struct filter *f);
/* A median filter's robust mean: the mean of the samples held within k
 * robust standard deviations of their median (filter.c says why). */
int64_t filter_band_mean(const struct filter *f, double k);

/*
 * tsproc_mode (same values as enum cfg_tsproc): which delay the offset
 * computation uses and whether the servo weights samples.
 *  filter:        the filtered delay, weight 1 (default);
 *  raw:           the raw delay, weight 1;
 *  filter_weight: the filtered delay, weight filtered / raw, at most 1;
 *  raw_weight:    the raw delay, weight filtered / raw, at most 1.
 * The weight is 1 whenever either delay is not positive.  ptp4l's raw
 * modes recompute the raw delay at every Sync from the new t1/t2 and the
 * last t3/t4, so the caller passes delay_e2e() of those as raw.
 */
enum filter_tsproc {
	FILTER_TSPROC_FILTER = 0,
	FILTER_TSPROC_RAW = 1,
	FILTER_TSPROC_FILTER_WEIGHT = 2,
	FILTER_TSPROC_RAW_WEIGHT = 3,
};

/* Sets *delay (and *weight if not NULL); -1 for an unknown mode. */
int filter_tsproc(enum filter_tsproc mode, int64_t raw, int64_t filtered,
    int64_t *delay, double *weight);

#endif /* PTPSEP_FILTER_H */
