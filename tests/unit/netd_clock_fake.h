/*
 * netd_clock_fake.h - what the tests of netd's clocks share: a raw time
 * source the test sets (a counter, so every expectation is exact), a
 * virtual clock over it, readings that assert they succeed, and one set
 * of bounds.  Include after <cmocka.h> and netd/clock.h.
 */
#ifndef PTPSEP_TEST_NETD_CLOCK_FAKE_H
#define PTPSEP_TEST_NETD_CLOCK_FAKE_H

#define SEC	NSEC_PER_SEC
/* A realistic raw time: 2024-ish in ns since the epoch. */
#define T0	(INT64_C(1700000000) * SEC + 123456789)

struct fake_time {
	int64_t	ns;
};

static inline int
fake_now(void *arg, struct timespec *ts)
{
	*ts = clock_ns_to_ts(((struct fake_time *)arg)->ns);
	return 0;
}

static inline struct clock *
open_virtual(struct fake_time *ft, int64_t offset, double freq)
{
	struct clock_params p;

	memset(&p, 0, sizeof(p));
	p.virtual_offset_ns = offset;
	p.virtual_freq_ppb = freq;
	p.now = fake_now;
	p.now_arg = ft;
	return clock_open("virtual", &p);
}

static inline int64_t
vnow(struct clock *c)
{
	struct timespec ts;
	int64_t ns;

	assert_int_equal(clock_read(c, &ts), 0);
	assert_int_equal(ptp_timespec_to_ns(ts, &ns), 0);
	return ns;
}

static inline int64_t
conv(struct clock *c, int64_t raw)
{
	struct timespec out;
	int64_t ns;

	assert_int_equal(clock_to_timescale(c, clock_ns_to_ts(raw), &out), 0);
	assert_true(out.tv_nsec >= 0 && out.tv_nsec < SEC);
	assert_int_equal(ptp_timespec_to_ns(out, &ns), 0);
	return ns;
}

static const struct clock_bounds bounds = {
	.max_freq_ppb = 500000.0,
	.allow_step = 1,
	.max_steps = 3,
	.step_interval_ns = 10 * SEC,
};

#endif
