/*
 * cfg_profile.c - the values the ITU-T telecom time profiles fix, checked
 * once a configuration is loaded (cfg_profile_check(), cfg.h).
 *
 * ptp4l has no notion of a profile: dataset_comparison G.8275.x only
 * changes its BMCA, and it takes any domainNumber, priority1 or clockClass
 * with it (ptp4l 3.1.1, checked: Debian's G.8275.1.cfg with domainNumber
 * 5 and priority1 100 starts without a word; Debian's 3.1.1 files set no
 * domainNumber at all, so they run in domain 0).  We load the same files
 * and run as ptp4l does, and say what breaks the profile, once, at start
 * and in --check-config:
 * - the profile is G.8275.1 when dataset_comparison is G.8275.x over L2,
 *   G.8275.2 over UDP (the two profiles share the alternate BMCA);
 * - domainNumber: G.8275.1 24..43, G.8275.2 44..63 (default 24, 44);
 * - priority1: both profiles fix it at 128 (it is not configurable), and
 *   priority2 is free (0..255);
 * - clockClass and holdover_clock_class: one of the classes G.8275.1
 *   Table 2 (and G.8275.2's) gives a T-GM or a T-BC: 6, 7, 135, 140, 150,
 *   160, 165, 248 (255 is a slave-only clock's, which clockd announces by
 *   itself).
 * Warnings, not errors: refusing would refuse Debian's own files.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "cfg_utab.h"

#define G8275_PRIORITY1	128

struct profile {
	const char *name;
	int dom_lo, dom_hi;
};

static const struct profile g8275_1 = { "G.8275.1", 24, 43 };
static const struct profile g8275_2 = { "G.8275.2", 44, 63 };

/* G.8275.1 Table 2, G.8275.2 Table 1: the classes a T-GM or T-BC uses. */
static const int g8275_classes[] = { 6, 7, 135, 140, 150, 160, 165, 248 };

struct check {
	const struct cfg *cfg;
	void (*warn)(void *arg, const char *msg);
	void *arg;
	size_t n;
};

static void warn(struct check *ck, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "FILE:LINE: KEY ..." where the value was set, else "KEY ... (the
 * default)"; the log line adds "warning:". */
static void
warn(struct check *ck, const char *key, const char *fmt, ...)
{
	char body[256], msg[512];
	const char *file;
	unsigned int line;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	if (cfg_origin(ck->cfg, NULL, key, &file, &line) != 0)
		snprintf(msg, sizeof(msg), "%s (the default)", body);
	else if (line > 0)
		snprintf(msg, sizeof(msg), "%s:%u: %s", file, line, body);
	else
		snprintf(msg, sizeof(msg), "%s: %s", file, body);
	ck->n++;
	if (ck->warn != NULL)
		ck->warn(ck->arg, msg);
}

static int
g8275_class(int c)
{
	size_t i;

	for (i = 0; i < sizeof(g8275_classes) / sizeof(g8275_classes[0]); i++)
		if (g8275_classes[i] == c)
			return 1;
	return 0;
}

static void
check_class(struct check *ck, const struct profile *p, const char *key,
    int zero_off)
{
	int c = cfg_get_int(ck->cfg, NULL, key);

	if (zero_off && c == 0)
		return;		/* holdover_clock_class 0: no holdover class */
	if (!g8275_class(c))
		warn(ck, key, "%s %d is not a clockClass of %s (T-GM 6, 7, "
		    "140, 150, 160, 248; T-BC 135, 165, 248: ITU-T G.8275.1 "
		    "Table 2)", key, c, p->name);
}

size_t
cfg_profile_check(const struct cfg *cfg,
    void (*fn)(void *arg, const char *msg), void *arg)
{
	struct check ck = { cfg, fn, arg, 0 };
	const struct profile *p;
	int dom, pri1;

	if (cfg_get_int(cfg, NULL, "dataset_comparison") != 1)	/* G.8275.x */
		return 0;
	p = cfg_get_int(cfg, NULL, "network_transport") == CFG_TRANS_L2 ?
	    &g8275_1 : &g8275_2;
	dom = cfg_get_int(cfg, NULL, "domainNumber");
	if (dom < p->dom_lo || dom > p->dom_hi)
		warn(&ck, "domainNumber", "domainNumber %d is outside %s's "
		    "range %d..%d (default %d; ITU-T %s Annex A); ptp4l "
		    "takes it, and so do we", dom, p->name, p->dom_lo,
		    p->dom_hi, p->dom_lo, p->name);
	pri1 = cfg_get_int(cfg, NULL, "priority1");
	if (pri1 != G8275_PRIORITY1)
		warn(&ck, "priority1", "priority1 %d: %s fixes it at %d "
		    "(priority2 and localPriority rank its clocks); ptp4l "
		    "takes it, and so do we", pri1, p->name, G8275_PRIORITY1);
	if (!cfg_get_int(cfg, NULL, "clientOnly"))
		check_class(&ck, p, "clockClass", 0);
	check_class(&ck, p, "holdover_clock_class", 1);
	return ck.n;
}
