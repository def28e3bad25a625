/*
 * json.c - a small writer of compact JSON for ptpctl --json.
 *
 * Output only: ptpctl never parses JSON.  Strings are escaped fully
 * (quote, backslash, every control character), numbers that are not
 * finite are written as null, so the output is always valid JSON.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include "ctl.h"

void
ctl_json_init(struct ctl_json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->first[0] = 1;
}

static void
ctl_json_escape(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

/* The comma and the key before a value. */
static void
ctl_json_key(struct ctl_json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->out);
	j->first[j->depth] = 0;
	if (key != NULL) {
		ctl_json_escape(j->out, key);
		fputc(':', j->out);
	}
}

static void
ctl_json_open(struct ctl_json *j, const char *key, int ch)
{
	ctl_json_key(j, key);
	fputc(ch, j->out);
	if (j->depth < CTL_JSON_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = 1;
}

void
ctl_json_obj(struct ctl_json *j, const char *key)
{
	ctl_json_open(j, key, '{');
}

void
ctl_json_arr(struct ctl_json *j, const char *key)
{
	ctl_json_open(j, key, '[');
}

void
ctl_json_end_obj(struct ctl_json *j)
{
	fputc('}', j->out);
	if (j->depth > 0)
		j->depth--;
}

void
ctl_json_end_arr(struct ctl_json *j)
{
	fputc(']', j->out);
	if (j->depth > 0)
		j->depth--;
}

void
ctl_json_str(struct ctl_json *j, const char *key, const char *v)
{
	ctl_json_key(j, key);
	if (v == NULL)
		fputs("null", j->out);
	else
		ctl_json_escape(j->out, v);
}

void
ctl_json_int(struct ctl_json *j, const char *key, int64_t v)
{
	ctl_json_key(j, key);
	fprintf(j->out, "%" PRId64, v);
}

void
ctl_json_uint(struct ctl_json *j, const char *key, uint64_t v)
{
	ctl_json_key(j, key);
	fprintf(j->out, "%" PRIu64, v);
}

void
ctl_json_double(struct ctl_json *j, const char *key, double v)
{
	ctl_json_key(j, key);
	if (isfinite(v))
		fprintf(j->out, "%.3f", v);
	else
		fputs("null", j->out);
}

void
ctl_json_bool(struct ctl_json *j, const char *key, int v)
{
	ctl_json_key(j, key);
	fputs(v ? "true" : "false", j->out);
}

void
ctl_json_null(struct ctl_json *j, const char *key)
{
	ctl_json_key(j, key);
	fputs("null", j->out);
}

void
ctl_json_done(struct ctl_json *j)
{
	fputc('\n', j->out);
	fflush(j->out);
}
