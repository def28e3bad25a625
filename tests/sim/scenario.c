/*
 * scenario.c - ptpsim's scenario file, ptp4l.conf-like:
 *
 * [sim]         duration, seed, sample_interval, measure_from (s),
 *               lock_threshold (ns), reference (a node; default: true
 *               time), utc_offset (s, TAI - UTC of the simulated world:
 *               true UTC, which system clocks are measured against, is
 *               true time less this; default 37)
 * [node NAME]   ptp4l.conf keys for the node's clockd and netd (its
 *               [global] section); "@LINK key value" for its port on LINK;
 *               and the simulator's own:
 *                 sim_offset (ns), sim_freq (ppb), sim_wander (ppb/sqrt(s))
 *                 of its clock; sim_start (s: its clockd starts then, not
 *                 at 0); sim_txts_latency (ns from a send to its TX time
 *                 stamp reaching clockd); sim_ts hardware|software (else
 *                 time_stamping picks the time-stamp model); sim_ts_jitter,
 *                 _tx_jitter, _quant, _latency, _fast_p, _fast_min,
 *                 _fast_max, _tail_p, _tail_min, _tail_max (ns or a
 *                 probability: that field of the model, model.h);
 *                 with sync_system_clock 1 its system clock:
 *                 sim_sys_offset (ns from true UTC), sim_sys_freq (ppb),
 *                 sim_sys_wander (ppb/sqrt(s)); netd's compare of it with
 *                 the PTP clock: sim_sysoff precise|extended|basic|
 *                 same_base (default: extended with hardware time stamps,
 *                 same_base with software ones), sim_sysoff_jitter,
 *                 _bracket, _tail, _latch_lo, _latch_hi, _quant (model.h)
 * [link NAME]   ends NODE NODE..., delay (ns, one way), pdv (ns, std dev
 *               of the extra delay), asymmetry (ns), loss (0..1)
 * [events]      one action a line, T in s of simulated time:
 *                 T link L down|up
 *                 T link L set delay|pdv|asymmetry|loss V
 *                 T node N crash|restart     its clockd
 *                 T node N netd_restart      its netd: a new virtual clock
 *                 T node N freq_step PPB     its oscillator
 *                 T node N clock_step NS     its clock jumps, not by netd
 *                 T node N set clockClass|priority1|priority2 V
 *                 T node N port LINK enable|disable
 *
 * '#' starts a comment anywhere on a line.  Every mistake names the file
 * and line; nothing is guessed.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

enum sect { S_NONE, S_SIM, S_NODE, S_LINK, S_EVENTS };

struct parser {
	struct sim_scenario	*s;
	const char		*path;
	unsigned		 line;
	enum sect		 sect;
	int			 cur;	/* node or link being read */
	/* link ends and [events] names, resolved once all is read */
	char			 ends[SIM_MAX_LINKS][SIM_MAX_ENDS][SIM_NAME_MAX];
	char			 ref[SIM_NAME_MAX];
	char			(*act_names)[SIM_NAME_MAX];
};

static int perr(const struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
perr(const struct parser *p, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%u: ", p->path, p->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* Splits off the next blank-separated word; NULL when none is left. */
static char *
word(char **sp)
{
	char *s = *sp, *w;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0')
		return NULL;
	w = s;
	while (*s != '\0' && !isspace((unsigned char)*s))
		s++;
	if (*s != '\0')
		*s++ = '\0';
	*sp = s;
	return w;
}

static char *
trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int
parse_double(const struct parser *p, const char *key, const char *v,
    double lo, double hi, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno != 0 || end == v || *end != '\0' || !isfinite(d) ||
	    d < lo || d > hi)
		return perr(p, "%s: '%s' is not a number in [%g, %g]", key, v,
		    lo, hi);
	*out = d;
	return 0;
}

static int
parse_i64(const struct parser *p, const char *key, const char *v,
    int64_t lo, int64_t hi, int64_t *out)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0' || x < lo || x > hi)
		return perr(p, "%s: '%s' is not an integer in [%lld, %lld]",
		    key, v, (long long)lo, (long long)hi);
	*out = x;
	return 0;
}

/* Seconds (a decimal number) to ns. */
static int
parse_secs(const struct parser *p, const char *key, const char *v,
    int64_t *ns)
{
	double d;

	if (parse_double(p, key, v, 0.0, 1e7, &d) != 0)
		return -1;
	*ns = llround(d * 1e9);
	return 0;
}

static int
name_ok(const struct parser *p, const char *what, const char *name)
{
	size_t i, len = strlen(name);

	if (len == 0 || len >= SIM_NAME_MAX || len > 15)
		return perr(p, "%s name '%s': 1 to 15 characters", what, name);
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' &&
		    name[i] != '-')
			return perr(p, "%s name '%s': letters, digits, '_' "
			    "and '-' only", what, name);
	return 0;
}

static int
kv_add(struct parser *p, struct sim_node_spec *ns, const char *port,
    const char *key, const char *value)
{
	struct sim_kv *kv = realloc(ns->kv, (ns->nkv + 1) * sizeof(*kv));

	if (kv == NULL)
		return perr(p, "out of memory");
	ns->kv = kv;
	kv = &ns->kv[ns->nkv];
	kv->port = port != NULL ? strdup(port) : NULL;
	kv->key = strdup(key);
	kv->value = strdup(value);
	kv->line = p->line;
	if ((port != NULL && kv->port == NULL) || kv->key == NULL ||
	    kv->value == NULL)
		return perr(p, "out of memory");
	ns->nkv++;
	return 0;
}

static int
sect_header(struct parser *p, char *l)
{
	struct sim_scenario *s = p->s;
	char *end = strchr(l, ']'), *rest, *kind, *name;

	if (end == NULL || trim(end + 1)[0] != '\0')
		return perr(p, "bad section header");
	*end = '\0';
	rest = l + 1;
	kind = word(&rest);
	name = word(&rest);
	if (kind == NULL)
		return perr(p, "empty section header");
	if (word(&rest) != NULL)
		return perr(p, "section header: one name at most");
	if (strcmp(kind, "sim") == 0 || strcmp(kind, "events") == 0) {
		if (name != NULL)
			return perr(p, "[%s] takes no name", kind);
		p->sect = kind[0] == 's' ? S_SIM : S_EVENTS;
		return 0;
	}
	if (strcmp(kind, "node") != 0 && strcmp(kind, "link") != 0)
		return perr(p, "unknown section [%s]", kind);
	if (name == NULL)
		return perr(p, "[%s NAME]: the name is missing", kind);
	if (name_ok(p, kind, name) != 0)
		return -1;
	if (kind[0] == 'n') {
		struct sim_node_spec *ns;

		if (scenario_node_index(s, name) >= 0)
			return perr(p, "node %s defined twice", name);
		if (s->nnodes == SIM_MAX_NODES)
			return perr(p, "more than %d nodes", SIM_MAX_NODES);
		ns = &s->nodes[s->nnodes];
		memset(ns, 0, sizeof(*ns));
		snprintf(ns->name, sizeof(ns->name), "%s", name);
		ns->ts_kind = -1;
		ns->sysoff_kind = -1;
		ns->txts_ns = -1;
		ns->line = p->line;
		p->cur = (int)s->nnodes++;
		p->sect = S_NODE;
	} else {
		struct sim_link_spec *ls;

		if (scenario_link_index(s, name) >= 0)
			return perr(p, "link %s defined twice", name);
		if (s->nlinks == SIM_MAX_LINKS)
			return perr(p, "more than %d links", SIM_MAX_LINKS);
		ls = &s->links[s->nlinks];
		memset(ls, 0, sizeof(*ls));
		snprintf(ls->name, sizeof(ls->name), "%s", name);
		ls->line = p->line;
		p->cur = (int)s->nlinks++;
		p->sect = S_LINK;
	}
	return 0;
}

static int
sim_line(struct parser *p, const char *key, char *v)
{
	struct sim_scenario *s = p->s;
	int64_t x;

	if (strcmp(key, "duration") == 0)
		return parse_secs(p, key, v, &s->duration_ns);
	if (strcmp(key, "seed") == 0) {
		char *end;

		errno = 0;
		s->seed = strtoull(v, &end, 0);
		if (errno != 0 || end == v || *end != '\0' || v[0] == '-')
			return perr(p, "seed: '%s' is not a number", v);
		return 0;
	}
	if (strcmp(key, "sample_interval") == 0) {
		if (parse_secs(p, key, v, &s->sample_ns) != 0)
			return -1;
		if (s->sample_ns < 1000000)
			return perr(p, "sample_interval: at least 0.001 s");
		return 0;
	}
	if (strcmp(key, "measure_from") == 0)
		return parse_secs(p, key, v, &s->measure_from_ns);
	if (strcmp(key, "lock_threshold") == 0) {
		if (parse_i64(p, key, v, 1, INT64_MAX / 2, &x) != 0)
			return -1;
		s->lock_threshold_ns = x;
		return 0;
	}
	if (strcmp(key, "utc_offset") == 0) {
		if (parse_i64(p, key, v, 0, 1000, &x) != 0)
			return -1;
		s->utc_offset_s = (int)x;
		return 0;
	}
	if (strcmp(key, "reference") == 0) {
		if (strcmp(v, "true") == 0) {
			p->ref[0] = '\0';
			return 0;
		}
		if (name_ok(p, "reference", v) != 0)
			return -1;
		snprintf(p->ref, sizeof(p->ref), "%s", v);
		return 0;
	}
	return perr(p, "[sim]: unknown key '%s'", key);
}

/*
 * sim_ts_FIELD: one field of the node's time-stamp model (model.h), set
 * after the defaults of its kind, to vary the noise (servo comparisons).
 */
struct ts_field {
	const char	*key;
	size_t		 off;
	int		 is_int;
	double		 lo, hi;
};

#define TSF(k, f, i, lo, hi) \
	{ "sim_ts_" k, offsetof(struct sim_ts_model, f), i, lo, hi }
static const struct ts_field ts_fields[] = {
	TSF("jitter", jitter_ns, 0, 0, 1e9),
	TSF("tx_jitter", tx_jitter_ns, 0, 0, 1e9),
	TSF("quant", quant_ns, 1, 1, 1e6),
	TSF("latency", latency_ns, 0, 0, 1e9),
	TSF("fast_p", fast_p, 0, 0, 1),
	TSF("fast_min", fast_min_ns, 0, 0, 1e9),
	TSF("fast_max", fast_max_ns, 0, 0, 1e9),
	TSF("tail_p", tail_p, 0, 0, 1),
	TSF("tail_min", tail_min_ns, 0, 0, 1e9),
	TSF("tail_max", tail_max_ns, 0, 0, 1e9),
};
#undef TSF

static const struct ts_field *
ts_field(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(ts_fields) / sizeof(ts_fields[0]); i++)
		if (strcmp(ts_fields[i].key, key) == 0)
			return &ts_fields[i];
	return NULL;
}

void
scenario_ts_apply(const struct sim_node_spec *ns, struct sim_ts_model *m)
{
	unsigned i;

	for (i = 0; i < ns->nts_set; i++) {
		const struct ts_field *f = ts_field(ns->ts_set[i].key);
		char *at;

		if (f == NULL)		/* only known keys are stored */
			continue;
		at = (char *)m + f->off;
		if (f->is_int)
			*(int64_t *)(void *)at = llround(ns->ts_set[i].value);
		else
			*(double *)(void *)at = ns->ts_set[i].value;
	}
}

/* sim_sysoff_FIELD: a field of the node's compare model (model.h). */
#define SOF(k, f, i, lo, hi) \
	{ "sim_sysoff_" k, offsetof(struct sim_sysoff_model, f), i, lo, hi }
static const struct ts_field sysoff_fields[] = {
	SOF("jitter", jitter_ns, 0, 0, 1e9),
	SOF("bracket", bracket_ns, 0, 0, 1e9),
	SOF("tail", tail_ns, 0, 0, 1e9),
	SOF("latch_lo", latch_lo, 0, 0, 1),
	SOF("latch_hi", latch_hi, 0, 0, 1),
	SOF("quant", quant_ns, 1, 1, 1e6),
};
#undef SOF

static const struct ts_field *
sysoff_field(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(sysoff_fields) / sizeof(sysoff_fields[0]); i++)
		if (strcmp(sysoff_fields[i].key, key) == 0)
			return &sysoff_fields[i];
	return NULL;
}

void
scenario_sysoff_apply(const struct sim_node_spec *ns,
    struct sim_sysoff_model *m)
{
	unsigned i;

	for (i = 0; i < ns->nsysoff_set; i++) {
		const struct ts_field *f = sysoff_field(ns->sysoff_set[i].key);
		char *at;

		if (f == NULL)
			continue;
		at = (char *)m + f->off;
		if (f->is_int)
			*(int64_t *)(void *)at =
			    llround(ns->sysoff_set[i].value);
		else
			*(double *)(void *)at = ns->sysoff_set[i].value;
	}
}

/* The system clock's keys and the compare's; 1: not one of them. */
static int
node_sys_line(struct parser *p, struct sim_node_spec *ns, const char *key,
    const char *v)
{
	enum sim_sysoff_kind k;
	int64_t x;

	if (strcmp(key, "sim_sys_offset") == 0) {
		if (parse_i64(p, key, v, -(INT64_C(1) << 61),
		    INT64_C(1) << 61, &x) != 0)
			return -1;
		ns->sys_offset_ns = x;
		return 0;
	}
	if (strcmp(key, "sim_sys_freq") == 0)
		return parse_double(p, key, v, -1e8, 1e8, &ns->sys_freq_ppb);
	if (strcmp(key, "sim_sys_wander") == 0)
		return parse_double(p, key, v, 0.0, 1e6, &ns->sys_wander);
	if (strcmp(key, "sim_sysoff") == 0) {
		if (sim_sysoff_parse(v, &k) != 0)
			return perr(p, "sim_sysoff: precise, extended, basic "
			    "or same_base, not '%s'", v);
		ns->sysoff_kind = (int)k;
		return 0;
	}
	if (strncmp(key, "sim_sysoff_", 11) == 0) {
		const struct ts_field *f = sysoff_field(key);
		double d;

		if (f == NULL)
			return perr(p, "unknown simulator key '%s'", key);
		if (parse_double(p, key, v, f->lo, f->hi, &d) != 0)
			return -1;
		if (ns->nsysoff_set == sizeof(ns->sysoff_set) /
		    sizeof(ns->sysoff_set[0]))
			return perr(p, "too many sim_sysoff_* keys");
		ns->sysoff_set[ns->nsysoff_set].key = f->key;
		ns->sysoff_set[ns->nsysoff_set++].value = d;
		return 0;
	}
	return 1;
}

static int
node_line(struct parser *p, char *key, char *v)
{
	struct sim_node_spec *ns = &p->s->nodes[p->cur];
	int64_t x;
	int rc;

	if (key[0] == '@') {
		char *rest = v, *k = word(&rest);

		if (name_ok(p, "link", key + 1) != 0)
			return -1;
		if (k == NULL || trim(rest)[0] == '\0')
			return perr(p, "%s: '@LINK key value'", key);
		return kv_add(p, ns, key + 1, k, trim(rest));
	}
	if (strcmp(key, "sim_offset") == 0) {
		if (parse_i64(p, key, v, -(INT64_C(1) << 61),
		    INT64_C(1) << 61, &x) != 0)
			return -1;
		ns->offset_ns = x;
		return 0;
	}
	if (strcmp(key, "sim_freq") == 0)
		return parse_double(p, key, v, -1e8, 1e8, &ns->freq_ppb);
	if (strcmp(key, "sim_start") == 0)
		return parse_secs(p, key, v, &ns->start_ns);
	if (strcmp(key, "sim_txts_latency") == 0)
		return parse_i64(p, key, v, 0, SIM_NSEC, &ns->txts_ns);
	if (strcmp(key, "sim_wander") == 0)
		return parse_double(p, key, v, 0.0, 1e6, &ns->wander);
	if (strcmp(key, "sim_ts") == 0) {
		if (strcmp(v, "hardware") == 0)
			ns->ts_kind = SIM_TS_HW;
		else if (strcmp(v, "software") == 0)
			ns->ts_kind = SIM_TS_SW;
		else
			return perr(p, "sim_ts: hardware or software, not "
			    "'%s'", v);
		return 0;
	}
	if (strncmp(key, "sim_sys", 7) == 0 &&
	    (rc = node_sys_line(p, ns, key, v)) <= 0)
		return rc;
	if (strncmp(key, "sim_ts_", 7) == 0) {
		const struct ts_field *f = ts_field(key);
		double d;

		if (f == NULL)
			return perr(p, "unknown simulator key '%s'", key);
		if (parse_double(p, key, v, f->lo, f->hi, &d) != 0)
			return -1;
		if (ns->nts_set == sizeof(ns->ts_set) / sizeof(ns->ts_set[0]))
			return perr(p, "too many sim_ts_* keys");
		ns->ts_set[ns->nts_set].key = f->key;
		ns->ts_set[ns->nts_set++].value = d;
		return 0;
	}
	if (strncmp(key, "sim_", 4) == 0)
		return perr(p, "unknown simulator key '%s'", key);
	return kv_add(p, ns, NULL, key, v);
}

static int
link_line(struct parser *p, const char *key, char *v)
{
	struct sim_link_spec *ls = &p->s->links[p->cur];
	int64_t x;

	if (strcmp(key, "ends") == 0) {
		char *rest = v, *w;

		ls->nends = 0;
		while ((w = word(&rest)) != NULL) {
			if (ls->nends == SIM_MAX_ENDS)
				return perr(p, "ends: at most %d",
				    SIM_MAX_ENDS);
			if (name_ok(p, "node", w) != 0)
				return -1;
			snprintf(p->ends[p->cur][ls->nends++], SIM_NAME_MAX,
			    "%s", w);
		}
		if (ls->nends < 2)
			return perr(p, "ends: two nodes or more");
		return 0;
	}
	if (strcmp(key, "delay") == 0) {
		if (parse_i64(p, key, v, 0, 10 * SIM_NSEC, &x) != 0)
			return -1;
		ls->model.delay_ns = x;
		return 0;
	}
	if (strcmp(key, "pdv") == 0)
		return parse_double(p, key, v, 0.0, 1e9, &ls->model.pdv_ns);
	if (strcmp(key, "asymmetry") == 0) {
		if (parse_i64(p, key, v, -SIM_NSEC, SIM_NSEC, &x) != 0)
			return -1;
		ls->model.asym_ns = x;
		return 0;
	}
	if (strcmp(key, "loss") == 0)
		return parse_double(p, key, v, 0.0, 1.0, &ls->model.loss);
	return perr(p, "[link]: unknown key '%s'", key);
}

static int
event_line(struct parser *p, char *key, char *v)
{
	struct sim_scenario *s = p->s;
	struct sim_action *a;
	char *rest = v, *what, *name, *verb, *k, *val;
	char (*names)[SIM_NAME_MAX];

	a = realloc(s->acts, (s->nacts + 1) * sizeof(*a));
	names = realloc(p->act_names, (s->nacts + 1) * sizeof(*names));
	if (a != NULL)
		s->acts = a;
	if (names != NULL)
		p->act_names = names;
	if (a == NULL || names == NULL)
		return perr(p, "out of memory");
	a = &s->acts[s->nacts];
	memset(a, 0, sizeof(*a));
	a->line = p->line;
	if (parse_secs(p, "event time", key, &a->t) != 0)
		return -1;
	what = word(&rest);
	name = word(&rest);
	verb = word(&rest);
	if (what == NULL || name == NULL || verb == NULL)
		return perr(p, "'T link|node NAME ACTION ...'");
	if (name_ok(p, what, name) != 0)
		return -1;
	/* The first letter says which table the name is in. */
	snprintf(p->act_names[s->nacts], SIM_NAME_MAX, "%s%s",
	    what[0] == 'l' ? "l" : "n", name);
	k = word(&rest);
	val = word(&rest);
	if (word(&rest) != NULL)
		return perr(p, "trailing words");
	if (strcmp(what, "link") == 0) {
		if (strcmp(verb, "down") == 0 || strcmp(verb, "up") == 0) {
			if (k != NULL)
				return perr(p, "link %s: no argument", verb);
			a->kind = verb[0] == 'd' ? SA_LINK_DOWN : SA_LINK_UP;
		} else if (strcmp(verb, "set") == 0) {
			double lo = 0.0, hi = 1e9;

			if (k == NULL || val == NULL)
				return perr(p, "link set KEY VALUE");
			if (strcmp(k, "loss") == 0)
				hi = 1.0;
			else if (strcmp(k, "asymmetry") == 0)
				lo = -1e9;
			else if (strcmp(k, "delay") != 0 &&
			    strcmp(k, "pdv") != 0)
				return perr(p, "link set: delay, pdv, "
				    "asymmetry or loss, not '%s'", k);
			a->kind = SA_LINK_SET;
			snprintf(a->key, sizeof(a->key), "%s", k);
			if (parse_double(p, k, val, lo, hi, &a->value) != 0)
				return -1;
		} else {
			return perr(p, "link: down, up or set, not '%s'",
			    verb);
		}
	} else if (strcmp(what, "node") == 0) {
		if (strcmp(verb, "crash") == 0 ||
		    strcmp(verb, "restart") == 0 ||
		    strcmp(verb, "netd_restart") == 0) {
			if (k != NULL)
				return perr(p, "node %s: no argument", verb);
			a->kind = verb[0] == 'c' ? SA_NODE_CRASH :
			    verb[0] == 'r' ? SA_NODE_RESTART :
			    SA_NODE_NETD_RESTART;
		} else if (strcmp(verb, "freq_step") == 0) {
			if (k == NULL || val != NULL)
				return perr(p, "node freq_step PPB");
			a->kind = SA_NODE_FREQ_STEP;
			if (parse_double(p, verb, k, -1e8, 1e8,
			    &a->value) != 0)
				return -1;
		} else if (strcmp(verb, "clock_step") == 0) {
			int64_t ns;

			if (k == NULL || val != NULL)
				return perr(p, "node clock_step NS");
			a->kind = SA_NODE_CLOCK_STEP;
			if (parse_i64(p, verb, k, -(INT64_C(1) << 61),
			    INT64_C(1) << 61, &ns) != 0)
				return -1;
			a->step_ns = ns;
		} else if (strcmp(verb, "set") == 0) {
			if (k == NULL || val == NULL)
				return perr(p, "node set KEY VALUE");
			if (strcmp(k, "clockClass") != 0 &&
			    strcmp(k, "priority1") != 0 &&
			    strcmp(k, "priority2") != 0)
				return perr(p, "node set: clockClass, "
				    "priority1 or priority2, not '%s'", k);
			a->kind = SA_NODE_SET;
			snprintf(a->key, sizeof(a->key), "%s", k);
			if (parse_double(p, k, val, 0, 255, &a->value) != 0)
				return -1;
			if (a->value != floor(a->value))
				return perr(p, "%s: an integer", k);
		} else if (strcmp(verb, "port") == 0) {
			/* ptpctl set port enable|disable (9.2.6.4, 9.2.6.5) */
			if (k == NULL || val == NULL)
				return perr(p, "node port LINK enable|disable");
			if (name_ok(p, "link", k) != 0)
				return -1;
			a->kind = SA_NODE_PORT;
			snprintf(a->key, sizeof(a->key), "%s", k);
			if (strcmp(val, "enable") == 0)
				a->value = 1;
			else if (strcmp(val, "disable") == 0)
				a->value = 0;
			else
				return perr(p, "node port: enable or disable, "
				    "not '%s'", val);
		} else {
			return perr(p, "node: crash, restart, netd_restart, "
			    "freq_step, clock_step, set or port, not '%s'",
			    verb);
		}
	} else {
		return perr(p, "'%s': link or node", what);
	}
	s->nacts++;
	return 0;
}

static int
node_on_link(const struct sim_scenario *s, unsigned node, const char *link)
{
	int l = scenario_link_index(s, link);
	unsigned k;

	for (k = 0; l >= 0 && k < s->links[l].nends; k++)
		if (s->links[l].ends[k] == node)
			return 1;
	return 0;
}

/* Names to indexes, ports to links, once the whole file is read. */
static int
resolve(struct parser *p)
{
	struct sim_scenario *s = p->s;
	unsigned i, j, k;
	size_t a;

	p->line = 0;
	if (s->nnodes == 0)
		return perr(p, "no [node]");
	for (i = 0; i < s->nlinks; i++) {
		struct sim_link_spec *ls = &s->links[i];

		p->line = ls->line;
		if (ls->nends < 2)
			return perr(p, "link %s: no 'ends'", ls->name);
		for (j = 0; j < ls->nends; j++) {
			int n = scenario_node_index(s, p->ends[i][j]);

			if (n < 0)
				return perr(p, "link %s: no node %s",
				    ls->name, p->ends[i][j]);
			for (k = 0; k < j; k++)
				if (ls->ends[k] == (unsigned)n)
					return perr(p, "link %s: node %s "
					    "twice", ls->name, p->ends[i][j]);
			ls->ends[j] = (unsigned)n;
		}
	}
	for (i = 0; i < s->nnodes; i++) {
		struct sim_node_spec *ns = &s->nodes[i];
		unsigned nports = 0;
		size_t x;

		for (j = 0; j < s->nlinks; j++)
			for (k = 0; k < s->links[j].nends; k++)
				if (s->links[j].ends[k] == i)
					nports++;
		p->line = ns->line;
		if (ns->start_ns > s->duration_ns)
			return perr(p, "node %s: sim_start after the end",
			    ns->name);
		if (nports == 0)
			return perr(p, "node %s is on no link", ns->name);
		if (nports > SIM_MAX_PORTS)
			return perr(p, "node %s: more than %d ports",
			    ns->name, SIM_MAX_PORTS);
		for (x = 0; x < ns->nkv; x++) {
			if (ns->kv[x].port == NULL)
				continue;
			p->line = ns->kv[x].line;
			if (!node_on_link(s, i, ns->kv[x].port))
				return perr(p, "node %s is not on link %s",
				    ns->name, ns->kv[x].port);
		}
	}
	s->reference = -1;
	if (p->ref[0] != '\0' &&
	    (s->reference = scenario_node_index(s, p->ref)) < 0)
		return perr(p, "reference: no node %s", p->ref);
	for (a = 0; a < s->nacts; a++) {
		struct sim_action *act = &s->acts[a];
		const char *nm = p->act_names[a] + 1;
		int idx = p->act_names[a][0] == 'l' ?
		    scenario_link_index(s, nm) : scenario_node_index(s, nm);

		p->line = act->line;
		if (idx < 0)
			return perr(p, "no %s %s", p->act_names[a][0] == 'l' ?
			    "link" : "node", nm);
		act->target = (unsigned)idx;
		if (act->kind == SA_NODE_PORT && !node_on_link(s,
		    act->target, act->key))
			return perr(p, "node %s is not on link %s", nm,
			    act->key);
		if (act->t > s->duration_ns)
			return perr(p, "event after the end (duration)");
	}
	return 0;
}

static int
act_cmp(const void *a, const void *b)
{
	const struct sim_action *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

int
scenario_load(struct sim_scenario *s, const char *path)
{
	struct parser *p;
	char buf[1100];
	FILE *f;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->duration_ns = 600 * SIM_NSEC;
	s->seed = 1;
	s->sample_ns = SIM_NSEC;
	s->lock_threshold_ns = 1000;
	s->utc_offset_s = 37;
	s->reference = -1;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return -1;
	p->s = s;
	p->path = path;
	if ((f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		free(p);
		return -1;
	}
	while (rc == 0 && fgets(buf, sizeof(buf), f) != NULL) {
		char *l, *hash, *rest, *key;

		p->line++;
		if (strchr(buf, '\n') == NULL && !feof(f)) {
			rc = perr(p, "line too long");
			break;
		}
		if ((hash = strchr(buf, '#')) != NULL)
			*hash = '\0';
		l = trim(buf);
		if (*l == '\0')
			continue;
		if (*l == '[') {
			rc = sect_header(p, l);
			continue;
		}
		rest = l;
		key = word(&rest);
		rest = trim(rest);
		if (*rest == '\0') {
			rc = perr(p, "'%s' without a value", key);
			continue;
		}
		switch (p->sect) {
		case S_NONE:
			rc = perr(p, "a key before any section");
			break;
		case S_SIM:
			rc = sim_line(p, key, rest);
			break;
		case S_NODE:
			rc = node_line(p, key, rest);
			break;
		case S_LINK:
			rc = link_line(p, key, rest);
			break;
		case S_EVENTS:
			rc = event_line(p, key, rest);
			break;
		}
	}
	fclose(f);
	if (rc == 0)
		rc = resolve(p);
	if (rc == 0 && s->nacts > 0)
		qsort(s->acts, s->nacts, sizeof(*s->acts), act_cmp);
	free(p->act_names);
	free(p);
	if (rc != 0)
		scenario_free(s);
	return rc;
}

void
scenario_free(struct sim_scenario *s)
{
	unsigned i;
	size_t k;

	for (i = 0; i < s->nnodes; i++) {
		for (k = 0; k < s->nodes[i].nkv; k++) {
			free(s->nodes[i].kv[k].port);
			free(s->nodes[i].kv[k].key);
			free(s->nodes[i].kv[k].value);
		}
		free(s->nodes[i].kv);
		s->nodes[i].kv = NULL;
		s->nodes[i].nkv = 0;
	}
	free(s->acts);
	s->acts = NULL;
	s->nacts = 0;
}

int
scenario_node_index(const struct sim_scenario *s, const char *name)
{
	unsigned i;

	for (i = 0; i < s->nnodes; i++)
		if (strcmp(s->nodes[i].name, name) == 0)
			return (int)i;
	return -1;
}

int
scenario_link_index(const struct sim_scenario *s, const char *name)
{
	unsigned i;

	for (i = 0; i < s->nlinks; i++)
		if (strcmp(s->links[i].name, name) == 0)
			return (int)i;
	return -1;
}
