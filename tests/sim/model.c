/*
 * model.c - ptpsim's random numbers, oscillators, time stamps and links.
 * What each model is and where its defaults come from: model.h.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model.h"

/* ---- random numbers ------------------------------------------------- */

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/*
 * The stream number goes through splitmix64 on its own before it is mixed
 * with the seed, so that (seed, stream) and (seed + 1, stream - 1) do not
 * start from neighbouring splitmix states.
 */
void
sim_rng_seed(struct sim_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = stream, k;
	int i;

	k = splitmix64(&x);
	x = seed ^ k;
	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
	/* xoshiro's one forbidden state; splitmix64 cannot give it, but. */
	if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
		r->s[0] = 1;
	r->spare = 0;
	r->has_spare = 0;
}

uint64_t
sim_rng_next(struct sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

double
sim_rng_uniform(struct sim_rng *r)
{
	return (double)(sim_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Marsaglia's polar method; the second deviate is kept for the next call. */
double
sim_rng_gauss(struct sim_rng *r)
{
	double u, v, s, f;

	if (r->has_spare) {
		r->has_spare = 0;
		return r->spare;
	}
	do {
		u = 2.0 * sim_rng_uniform(r) - 1.0;
		v = 2.0 * sim_rng_uniform(r) - 1.0;
		s = u * u + v * v;
	} while (s >= 1.0 || s == 0.0);
	f = sqrt(-2.0 * log(s) / s);
	r->spare = v * f;
	r->has_spare = 1;
	return u * f;
}

double
sim_rng_exp(struct sim_rng *r)
{
	/* 1 - u is in (0, 1]: log() never sees 0. */
	return -log(1.0 - sim_rng_uniform(r));
}

/* ---- clocks --------------------------------------------------------- */

void
sim_clock_init(struct sim_clock *c, int64_t t0_true_ns, int64_t offset_ns,
    double freq_err_ppb, double wander, struct sim_rng *rng)
{
	memset(c, 0, sizeof(*c));
	c->wander = wander > 0 && rng != NULL ? wander : 0;
	c->rng = rng;
	c->t_last = t0_true_ns;
	c->phase = t0_true_ns + offset_ns;
	c->frac = 0;
	c->err_ppb = freq_err_ppb;
	c->adj_ppb = 0;
}

/* Adds x ns (any sign) to the phase, keeping frac in [0, 1). */
static void
phase_add(struct sim_clock *c, int64_t whole, double x)
{
	double f = c->frac + x, w = floor(f);

	c->phase += whole + (int64_t)w;
	c->frac = f - w;
	if (c->frac >= 1.0) {	/* f - floor(f) rounded up to 1 */
		c->phase++;
		c->frac = 0;
	}
}

static void
clock_advance(struct sim_clock *c, int64_t t)
{
	int64_t dt = t - c->t_last;
	double e0 = c->err_ppb, e1 = e0, bridge = 0, dts;

	if (dt <= 0)
		return;
	if (c->wander > 0) {
		dts = (double)dt / 1e9;
		e1 = e0 + c->wander * sqrt(dts) * sim_rng_gauss(c->rng);
		bridge = c->wander * sqrt(dts * dts * dts / 12.0) *
		    sim_rng_gauss(c->rng);
	}
	/*
	 * dt * f / 1e9 and not dt * (f * 1e-9): 1e9 is exact, so an exact
	 * product gives an exact quotient (integer ppb over whole ms).
	 */
	phase_add(c, dt, (double)dt * ((e0 + e1) / 2 + c->adj_ppb) / 1e9 +
	    bridge);
	c->err_ppb = e1;
	c->t_last = t;
}

int64_t
sim_clock_read(struct sim_clock *c, int64_t t)
{
	int64_t dt;
	double f;

	if (t >= c->t_last) {
		clock_advance(c, t);
		return c->phase;
	}
	dt = t - c->t_last;
	f = c->frac + (double)dt * (c->err_ppb + c->adj_ppb) / 1e9;
	return c->phase + dt + (int64_t)floor(f);
}

void
sim_clock_adjfreq(struct sim_clock *c, int64_t t, double ppb)
{
	clock_advance(c, t);
	c->adj_ppb = ppb;
}

void
sim_clock_step(struct sim_clock *c, int64_t t, int64_t ns)
{
	clock_advance(c, t);
	c->phase += ns;
}

void
sim_clock_freq_step(struct sim_clock *c, int64_t t, double dppb)
{
	clock_advance(c, t);
	c->err_ppb += dppb;
}

double
sim_clock_freq(const struct sim_clock *c)
{
	return c->err_ppb + c->adj_ppb;
}

/* ---- time stamps ---------------------------------------------------- */

void
sim_ts_model_default(struct sim_ts_model *m, enum sim_ts_kind k)
{
	memset(m, 0, sizeof(*m));
	m->kind = k;
	if (k == SIM_TS_HW) {
		m->jitter_ns = 4;
		m->tx_jitter_ns = 4;
		m->quant_ns = 8;
		return;
	}
	m->jitter_ns = 400;
	m->tx_jitter_ns = 50;
	m->quant_ns = 1;
	m->latency_ns = 2700;
	m->fast_p = 0.17;
	m->fast_min_ns = 300;
	m->fast_max_ns = 2000;
	m->tail_p = 0.02;
	m->tail_min_ns = 25000;
	m->tail_max_ns = 120000;
}

static double
uniform_in(struct sim_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * sim_rng_uniform(r);
}

double
sim_ts_error(const struct sim_ts_model *m, struct sim_rng *r, int rx)
{
	double e;

	if (!rx)
		return m->tx_jitter_ns > 0 ?
		    m->tx_jitter_ns * sim_rng_gauss(r) : 0;
	if (m->fast_p > 0 && sim_rng_uniform(r) < m->fast_p)
		e = uniform_in(r, m->fast_min_ns, m->fast_max_ns);
	else
		e = m->latency_ns +
		    (m->jitter_ns > 0 ? m->jitter_ns * sim_rng_gauss(r) : 0);
	if (m->tail_p > 0 && sim_rng_uniform(r) < m->tail_p)
		e += uniform_in(r, m->tail_min_ns, m->tail_max_ns);
	/* A receive stamp cannot precede the arrival (a transmit one can). */
	if (m->kind == SIM_TS_SW && e < 0)
		e = 0;
	return e;
}

int64_t
sim_ts_stamp(const struct sim_ts_model *m, struct sim_rng *r,
    int64_t clock_ns, int rx)
{
	int64_t v = clock_ns + (int64_t)floor(sim_ts_error(m, r, rx));
	int64_t q = m->quant_ns > 1 ? m->quant_ns : 1, rem = v % q;

	if (rem < 0)
		rem += q;
	return v - rem;
}

/* ---- the system clock against the PHC -------------------------------- */

void
sim_sysoff_model_default(struct sim_sysoff_model *m, enum sim_sysoff_kind k)
{
	memset(m, 0, sizeof(*m));
	m->kind = k;
	m->quant_ns = 1;
	switch (k) {
	case SIM_SYSOFF_PRECISE:
		m->jitter_ns = 4;
		m->quant_ns = 8;
		break;
	case SIM_SYSOFF_EXTENDED:
		m->bracket_ns = 1000;
		m->tail_ns = 300;
		m->latch_lo = 0.3;
		m->latch_hi = 0.7;
		m->quant_ns = 8;
		break;
	case SIM_SYSOFF_BASIC:
		m->bracket_ns = 2500;
		m->tail_ns = 1500;
		m->latch_lo = 0.15;
		m->latch_hi = 0.45;
		m->quant_ns = 8;
		break;
	case SIM_SYSOFF_SAME_BASE:
		break;
	}
}

void
sim_sysoff_sample(const struct sim_sysoff_model *m, struct sim_rng *r,
    double *before_ns, double *after_ns)
{
	double w, f;

	switch (m->kind) {
	case SIM_SYSOFF_PRECISE:
		*before_ns = *after_ns = m->jitter_ns > 0 ?
		    m->jitter_ns * sim_rng_gauss(r) : 0;
		return;
	case SIM_SYSOFF_EXTENDED:
	case SIM_SYSOFF_BASIC:
		w = m->bracket_ns + (m->tail_ns > 0 ?
		    m->tail_ns * sim_rng_exp(r) : 0);
		f = uniform_in(r, m->latch_lo, m->latch_hi);
		*before_ns = -f * w;
		*after_ns = (1 - f) * w;
		return;
	case SIM_SYSOFF_SAME_BASE:
		break;
	}
	*before_ns = *after_ns = 0;
}

const char *
sim_sysoff_name(enum sim_sysoff_kind k)
{
	switch (k) {
	case SIM_SYSOFF_PRECISE:	return "precise";
	case SIM_SYSOFF_EXTENDED:	return "extended";
	case SIM_SYSOFF_BASIC:		return "basic";
	case SIM_SYSOFF_SAME_BASE:	return "same_base";
	}
	return "?";
}

int
sim_sysoff_parse(const char *s, enum sim_sysoff_kind *k)
{
	static const enum sim_sysoff_kind all[] = {
		SIM_SYSOFF_PRECISE, SIM_SYSOFF_EXTENDED, SIM_SYSOFF_BASIC,
		SIM_SYSOFF_SAME_BASE,
	};
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(s, sim_sysoff_name(all[i])) == 0) {
			*k = all[i];
			return 0;
		}
	return -1;
}

/* ---- links ---------------------------------------------------------- */

int64_t
sim_link_delay(const struct sim_link_model *l, struct sim_rng *r, int dir)
{
	/* The two halves add up to asym_ns also when it is odd. */
	int64_t half = l->asym_ns / 2;
	int64_t d = l->delay_ns + (dir == 0 ? l->asym_ns - half : -half);

	if (l->pdv_ns > 0)
		d += (int64_t)llround(l->pdv_ns * sim_rng_exp(r));
	return d < 0 ? 0 : d;
}

int
sim_link_lost(const struct sim_link_model *l, struct sim_rng *r)
{
	return l->loss > 0 && sim_rng_uniform(r) < l->loss;
}
