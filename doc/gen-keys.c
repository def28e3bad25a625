/*
 * gen-keys.c - prints the key list of ptpsep.conf(5) as roff, from the key
 * table in lib/cfg_keys.c, so that the manual page never drifts from what
 * the parser accepts.  Built and run at build time:
 *
 *     doc/gen-keys >keys.roff
 *
 * With --status it prints instead one line per key, "NAME implemented" or
 * "NAME unimplemented", for the tests.
 *
 * Four groups: ptpsep's own keys; ptp4l's keys ptpsep implements; ptp4l's
 * keys it knows but ignores with a warning; keys only linuxptp 4.x has.
 * Each key gets its type, range or values, default, scope, and whether
 * ptp4l has it too.
 */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"

enum group {
	GR_OWN,
	GR_IMPL,
	GR_UNIMPL,
	GR_4X,
};

static const char *const group_title[] = {
	[GR_OWN] = "ptpsep's own keys",
	[GR_IMPL] = "ptp4l's keys that ptpsep implements",
	[GR_UNIMPL] = "ptp4l's keys that ptpsep knows but does not implement",
	[GR_4X] = "Keys only linuxptp 4.x has",
};

static const char *const group_text[] = {
	[GR_OWN] = "ptp4l has none of these.",
	[GR_IMPL] = "Same name, meaning, range and default as in ptp4l "
	    "(linuxptp 3.1.1).",
	[GR_UNIMPL] = "ptp4l has them; ptpsep checks the value, warns, and "
	    "ignores it.",
	[GR_4X] = "Known so that a configuration written for a newer ptp4l "
	    "loads: the value is checked, then ignored with a warning.  ptp4l "
	    "3.1.1 (Debian 12) does not have them.",
};

static enum group
key_group(const struct cfg_key *k)
{
	if (k->flags & CFG_KF_OWN)
		return GR_OWN;
	if (k->flags & CFG_KF_PTP4L_4X)
		return GR_4X;
	return k->status == CFG_ST_IMPLEMENTED ? GR_IMPL : GR_UNIMPL;
}

/* Text with roff's special characters made safe (\ - and a leading .). */
static void
roff(const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", stdout);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static void
print_int(int64_t v)
{
	if (v == INT_MAX)
		fputs("INT_MAX", stdout);
	else if (v == INT_MIN)
		fputs("INT_MIN", stdout);
	else if (v == INT64_MAX)
		fputs("INT64_MAX", stdout);
	else if (v == INT64_MIN)
		fputs("INT64_MIN", stdout);
	else if (v < 0)
		printf("\\-%" PRId64, -v);
	else
		printf("%" PRId64, v);
}

static void
print_double(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%g", v);
	roff(buf);
}

static const char *
type_name(enum cfg_type t)
{
	switch (t) {
	case CFG_T_INT:
		return "int";
	case CFG_T_INT64:
		return "int64";
	case CFG_T_DOUBLE:
		return "double";
	case CFG_T_STRING:
		return "string";
	case CFG_T_ENUM:
		return "enum";
	}
	return "?";
}

static void
print_key(const struct cfg_key *k)
{
	const struct cfg_enum_val *v;
	int first;

	printf(".TP\n.B ");
	roff(k->name);
	putchar('\n');
	if (k->alias_of != NULL) {
		printf("Another name for\n.BR ");
		roff(k->alias_of);
		printf(" %s\n", (k->flags & CFG_KF_DEPRECATED) ?
		    "(deprecated: a warning)." : ".");
		printf("ptp4l: yes.\n");
		return;
	}
	printf("%s; ", type_name(k->type));
	switch (k->type) {
	case CFG_T_INT:
	case CFG_T_INT64:
		print_int(k->imin);
		printf(" .. ");
		print_int(k->imax);
		if (k->vals != NULL)
			for (v = k->vals; v->name != NULL; v++) {
				printf(", or ");
				roff(v->name);
			}
		printf("; default ");
		print_int(k->idef);
		break;
	case CFG_T_DOUBLE:
		print_double(k->dmin);
		printf(" .. ");
		print_double(k->dmax);
		printf("; default ");
		print_double(k->ddef);
		break;
	case CFG_T_STRING:
		printf("default ");
		if (k->sdef == NULL)
			printf("none");
		else if (k->sdef[0] == '\0')
			printf("empty");
		else {
			printf("\\fI");
			roff(k->sdef);
			printf("\\fP");
		}
		break;
	case CFG_T_ENUM:
		first = 1;
		for (v = k->vals; v->name != NULL; v++) {
			printf("%s", first ? "" : ", ");
			roff(v->name);
			if (v->status != CFG_ST_IMPLEMENTED)
				putchar('*');
			first = 0;
		}
		printf("; default ");
		for (v = k->vals; v->name != NULL; v++)
			if (v->value == k->idef) {
				roff(v->name);
				break;
			}
		break;
	}
	printf(".\n%s; ptp4l: %s.\n",
	    k->scope == CFG_SC_GLOBAL ? "Global" : "Per port",
	    (k->flags & CFG_KF_OWN) ? "no" :
	    (k->flags & CFG_KF_PTP4L_4X) ? "4.x only" : "yes");
}

/*
 * --status: "NAME implemented|unimplemented" per key, aliases left out, for
 * the tests (tests/integration/key_honesty.sh) that hold the table to what
 * the code does.
 */
static int
print_status(void)
{
	size_t i;

	for (i = 0; i < cfg_key_count(); i++) {
		const struct cfg_key *k = cfg_key_at(i);

		if (k->alias_of == NULL)
			printf("%s %s\n", k->name,
			    k->status == CFG_ST_IMPLEMENTED ? "implemented" :
			    "unimplemented");
	}
	return ferror(stdout) ? 1 : 0;
}

int
main(int argc, char **argv)
{
	size_t i, n = cfg_key_count();
	int g;

	if (argc == 2 && strcmp(argv[1], "--status") == 0)
		return print_status();
	if (argc != 1) {
		fprintf(stderr, "usage: gen-keys [--status]\n");
		return 2;
	}

	printf(".\\\" Generated by doc/gen-keys from lib/cfg_keys.c: %zu keys."
	    "  Do not edit.\n", n);
	for (g = GR_OWN; g <= GR_4X; g++) {
		printf(".SS %s\n", group_title[g]);
		printf("%s\n", group_text[g]);
		for (i = 0; i < n; i++) {
			const struct cfg_key *k = cfg_key_at(i);
			const struct cfg_key *t = k;

			if (k->alias_of != NULL &&
			    (t = cfg_key_find(k->alias_of)) == NULL)
				t = k;
			if (key_group(t) == (enum group)g)
				print_key(k);
		}
	}
	return ferror(stdout) ? 1 : 0;
}
