/*
 * model.h - ptpsim's models of what the engine cannot see: random numbers,
 * the oscillators under netd's clocks, time-stamping and links.
 *
 * Pure C, no globals, no I/O: every state lives in a struct the simulator
 * owns, and every random draw comes from a struct sim_rng it passes in, so
 * a scenario is a pure function of its seed.  Times are int64 ns of "true
 * time" (the simulator's own timescale); frequencies are ppb, where 1 ppb
 * over 1 s is 1 ns.
 */
#ifndef PTPSIM_MODEL_H
#define PTPSIM_MODEL_H

#include <stdint.h>

/*
 * xoshiro256** (Blackman and Vigna's published algorithm), seeded through
 * splitmix64 from (seed, stream): each node, link and purpose draws from a
 * stream of its own, so adding a node or an event does not shift the draws
 * of the others.
 */
struct sim_rng {
	uint64_t	s[4];
	double		spare;		/* second Box-Muller deviate */
	int		has_spare;
};

void	 sim_rng_seed(struct sim_rng *r, uint64_t seed, uint64_t stream);
uint64_t sim_rng_next(struct sim_rng *r);
double	 sim_rng_uniform(struct sim_rng *r);	/* [0, 1) */
double	 sim_rng_gauss(struct sim_rng *r);	/* N(0, 1) */
double	 sim_rng_exp(struct sim_rng *r);	/* exponential, mean 1 */

/*
 * The oscillator under a node's clock (netd's `virtual` clock in the
 * daemon), as a function of true time t:
 *
 *   rate(t)  = 1 + (err(t) + adj) * 1e-9
 *   err(t)   = random walk: err(t + dt) - err(t) ~ N(0, wander^2 * dt_s)
 *   clock(t) = integral of rate, plus steps
 *
 * Between two reads the phase advances by dt + dt_s * (mean of err at both
 * ends + adj) plus the Brownian-bridge term N(0, wander^2 * dt_s^3 / 12):
 * given the walk's two end values this is the exact distribution of its
 * integral, so the model is exact for any spacing of the reads (reading
 * more often changes the draws, not the statistics).
 *
 * The phase is an int64 ns plus a double fraction in [0, 1): clock values
 * are ~1.7e18 ns, where a double alone has a 256 ns step.  With wander 0
 * the reading is floor() of the exact value to well under 1 ns after an
 * hour at 500 ppm, however the reads are spaced.
 *
 * adj is what netd applied (absolute, as netd's adjfreq: the clock's own
 * error plus the adjustment, as netd/clock_virtual.c); the simulator
 * checks requests against netd's bounds before applying them here.
 */
struct sim_clock {
	double		 wander;	/* ppb / sqrt(s) */
	struct sim_rng	*rng;		/* draws for the wander (may be NULL if 0) */
	int64_t		 t_last;	/* true time of the state below */
	int64_t		 phase;		/* clock at t_last, whole ns */
	double		 frac;		/* and the fraction, [0, 1) */
	double		 err_ppb;	/* oscillator error at t_last */
	double		 adj_ppb;	/* netd's frequency adjustment */
};

void	sim_clock_init(struct sim_clock *c, int64_t t0_true_ns,
	    int64_t offset_ns, double freq_err_ppb, double wander,
	    struct sim_rng *rng);
/*
 * The clock at true time t.  Advances the state to t when t >= the last
 * time; an earlier t (a time stamp of an event that happened before the
 * last read) is extrapolated back at the current rate without touching the
 * state, so the answer never depends on the order of such reads.
 */
int64_t	sim_clock_read(struct sim_clock *c, int64_t t_true_ns);
void	sim_clock_adjfreq(struct sim_clock *c, int64_t t_true_ns, double ppb);
void	sim_clock_step(struct sim_clock *c, int64_t t_true_ns, int64_t ns);
/* The oscillator changes (temperature): err += dppb from t on. */
void	sim_clock_freq_step(struct sim_clock *c, int64_t t_true_ns,
	    double dppb);
/* err + adj, ppb, at the last time the state was advanced to. */
double	sim_clock_freq(const struct sim_clock *c);

/*
 * Time stamps.  sim_ts_stamp() turns the clock's reading at the true
 * instant a frame left or arrived into the time stamp netd would hand over:
 * reading + error, quantized (floor) to quant_ns on the clock's own scale.
 *
 * SIM_TS_HW, a PHC's stamps: the frame's instant is taken at the MAC/PHY
 * with N(0, jitter_ns) of jitter (4 ns: a few ns, as issue 12 asks), then
 * the counter's tick, 8 ns (125 MHz, the common PHC increment).  No
 * latency: a NIC's fixed ingress/egress latencies are calibrated out by
 * the driver or by ingressLatency/egressLatency.
 *
 * SIM_TS_SW, SO_TIMESTAMPING software stamps on veth, as measured in this
 * project on this 2-core VM (issue 11's closing note, item 14, and
 * tests/interop/gm_offset.sh in /tmp/check3.log):
 *   - Sync t2 - t1 over veth (both ends on one CLOCK_REALTIME, so t2 - t1
 *     is pure stamping latency): p10/p50/p90 1322/2594/3175 ns (ours),
 *     1191/2394/2864 ns (ptp4l's); median of the "cold" Syncs (no frame in
 *     the 2 ms before) 2474-2674 ns; "hot" sends (right after another
 *     frame) 0.3-0.5 µs.  The TX stamp is taken in veth_xmit as the frame
 *     leaves (item 14), so the latency is on the RX side:
 *       rx: with fast_p 0.17 uniform in [fast_min_ns, fast_max_ns]
 *           = [300, 2000] ns (the hot path and the left shoulder), else
 *           latency_ns + N(0, jitter_ns) = 2700 + N(0, 400) ns (cold);
 *           giving p10/p50/p90 ~ 1.30/2.60/3.17 µs;
 *       tx: N(0, tx_jitter_ns) = N(0, 50) ns.
 *   - late Syncs: "1-3 % of Syncs reach the other end 25-120 µs late, in
 *     every direction, also between ptp4l processes" (issue 11's closing
 *     note, CI failure of session 1): rx gets, with tail_p 0.02, an extra
 *     uniform [tail_min_ns, tail_max_ns] = [25000, 120000] ns.
 *   - quant_ns 1 (nanosecond stamps).
 * The constant part of the RX latency looks like path delay to PTP (it is
 * the same both ways) and cancels; its spread and the tail are what a
 * servo sees.  Benchmark figures to compare with (tests/bench/results/
 * latest.md, interval 0): a free-running ptp4l slave's offset noise after
 * a straight-line fit 238-548 ns RMS, raw 750-940 ns.
 */
enum sim_ts_kind { SIM_TS_HW, SIM_TS_SW };

struct sim_ts_model {
	enum sim_ts_kind kind;
	double		jitter_ns;	/* rx (and hw tx) Gaussian sd */
	double		tx_jitter_ns;	/* sw: tx Gaussian sd */
	int64_t		quant_ns;	/* stamp resolution, >= 1 */
	double		latency_ns;	/* rx: mean of the Gaussian part */
	double		fast_p;		/* rx: probability of the fast path */
	double		fast_min_ns, fast_max_ns;
	double		tail_p;		/* rx: probability of a late frame */
	double		tail_min_ns, tail_max_ns;
};

void	sim_ts_model_default(struct sim_ts_model *m, enum sim_ts_kind k);
/* The stamp's error before quantization, ns (rx: receive side). */
double	sim_ts_error(const struct sim_ts_model *m, struct sim_rng *r, int rx);
/* The time stamp of an instant at which the clock read clock_ns. */
int64_t	sim_ts_stamp(const struct sim_ts_model *m, struct sim_rng *r,
	    int64_t clock_ns, int rx);

/*
 * The system clock against the PHC: one ClockCompare of netd's
 * (netd/clock_cmp.c), which reads both clocks at one instant as well as
 * the kernel lets it (netd/sysoff.c; issue 14, item 2).  The model draws
 * where the system clock was read relative to the instant the PHC was
 * latched; netd_sim.c turns the draws into the ioctl's samples and hands
 * them to netd's own sysoff_best() (the tightest bracket, its midpoint).
 * The kinds are netd.proto's SysoffMethod values.
 *
 * SIM_SYSOFF_PRECISE, PTP_SYS_OFFSET_PRECISE: one hardware event latches
 *   both clocks (Intel ART or PCIe PTM; kernel commit 8006c24595ca, "time:
 *   Add driver cross timestamp interface for higher precision time
 *   synchronization": "virtually zero latency between captures of the ART
 *   and network device clock").  What is left is the synchronizer between
 *   the two clock domains, a few cycles of a 125-250 MHz clock: the system
 *   clock's side N(0, jitter_ns) = N(0, 4 ns), the hardware time stamps'
 *   figure, and the PHC's side its counter's tick, quant_ns = 8 ns
 *   (floor, as sim_ts_stamp()); no bracket (delay 0, as netd reports).
 * SIM_SYSOFF_EXTENDED, PTP_SYS_OFFSET_EXTENDED: the driver reads the
 *   system clock right before and right after the PCIe read of the PHC's
 *   lowest register (kernel commit 361800876f80, "ptp: add
 *   PTP_SYS_OFFSET_EXTENDED ioctl").  The bracket is that read's round
 *   trip: bracket_ns + Exp(tail_ns) = 1000 + Exp(300) ns (a non-posted
 *   PCIe read of a NIC register is of the order of 1 us; phc2sys(8) reports
 *   it as "delay"); the register is latched when the read request reaches
 *   the device, somewhere inside the bracket, not at its middle: uniform in
 *   [latch_lo, latch_hi] = [0.3, 0.7] of it, so the midpoint netd takes is
 *   off by up to 20 % of the bracket either way, with no bias.
 * SIM_SYSOFF_BASIC, PTP_SYS_OFFSET: the core reads the system clock around
 *   the driver's whole gettime (several register reads under a lock, the
 *   timecounter arithmetic), and the lowest register, which fixes the
 *   instant, is read near the start of it (the same commit: "the register
 *   that contains the lowest bits of the timestamp is not read in the
 *   middle between the two readings of the system clock"; 8006c24595ca: "at
 *   best ... on the order of several microseconds"): bracket 2500 +
 *   Exp(1500) ns, latched in [0.15, 0.45] of it, so the midpoint is late by
 *   20 % of the bracket on average: the system clock is steered that much
 *   behind the PHC, a bias no servo can see.
 * SIM_SYSOFF_SAME_BASE: both clocks kept over one CLOCK_REALTIME read
 *   (netd's virtual PHC and virtual system clock, tests/integration/
 *   sysclk.sh): exact.
 * These figures are assumptions from the kernel's descriptions, not a
 * measurement of one NIC; a scenario sets its own with sim_sysoff_*.
 */
enum sim_sysoff_kind {
	SIM_SYSOFF_PRECISE = 1,
	SIM_SYSOFF_EXTENDED = 2,
	SIM_SYSOFF_BASIC = 3,
	SIM_SYSOFF_SAME_BASE = 4,
};

struct sim_sysoff_model {
	enum sim_sysoff_kind kind;
	double		jitter_ns;	/* PRECISE: the system side's sd */
	double		bracket_ns;	/* EXTENDED, BASIC: the fastest read */
	double		tail_ns;	/* mean of its exponential excess */
	double		latch_lo, latch_hi;	/* the latch, in the bracket */
	int64_t		quant_ns;	/* the PHC reading's tick, >= 1 */
};

void	sim_sysoff_model_default(struct sim_sysoff_model *m,
	    enum sim_sysoff_kind k);
/*
 * One sample: the system clock was read at before_ns and at after_ns
 * (true ns, before_ns <= 0 <= after_ns for a bracket) from the instant
 * the PHC was latched; PRECISE: once, before_ns == after_ns (its error);
 * SAME_BASE: 0, 0.
 */
void	sim_sysoff_sample(const struct sim_sysoff_model *m, struct sim_rng *r,
	    double *before_ns, double *after_ns);
const char *sim_sysoff_name(enum sim_sysoff_kind k);
/* "precise", "extended", "basic", "same_base": 0, else -1. */
int	sim_sysoff_parse(const char *s, enum sim_sysoff_kind *k);

/*
 * A link: fixed one-way delay, packet delay variation (queueing: an extra
 * delay, exponential with mean and sd pdv_ns, since queues only add),
 * asymmetry (dir 0, first end -> others, gets +asym/2, dir 1 -asym/2; the
 * delay never goes below 0), independent loss per copy of a frame.
 */
struct sim_link_model {
	int64_t		delay_ns;
	double		pdv_ns;
	int64_t		asym_ns;
	double		loss;		/* 0..1 */
};

int64_t	sim_link_delay(const struct sim_link_model *l, struct sim_rng *r,
	    int dir);
int	sim_link_lost(const struct sim_link_model *l, struct sim_rng *r);

#endif /* PTPSIM_MODEL_H */
