/*
 * config_fixture.c - the configuration unit tests' shared fixtures
 * (config_fixture.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "config_fixture.h"

static void
collect(void *arg, const struct cfg_diag *d)
{
	struct diags *ds = arg;

	if (ds->n >= MAX_DIAGS)
		return;
	ds->d[ds->n].sev = d->severity;
	ds->d[ds->n].line = d->line;
	snprintf(ds->d[ds->n].key, sizeof(ds->d[0].key), "%s",
	    d->key ? d->key : "");
	snprintf(ds->d[ds->n].text, sizeof(ds->d[0].text), "%s", d->text);
	ds->n++;
}

struct diags diags;

struct cfg *
new_cfg(void)
{
	struct cfg *cfg = cfg_new();

	assert_non_null(cfg);
	memset(&diags, 0, sizeof(diags));
	cfg_set_diag(cfg, collect, &diags);
	return cfg;
}

int
load(struct cfg *cfg, const char *text)
{
	return cfg_load_buffer(cfg, "t.cfg", text, strlen(text));
}

void
assert_diag(const char *text)
{
	unsigned int i;

	for (i = 0; i < diags.n; i++)
		if (strcmp(diags.d[i].text, text) == 0)
			return;
	for (i = 0; i < diags.n; i++)
		print_message("  got: %s\n", diags.d[i].text);
	fail_msg("no diagnostic '%s'", text);
}

void
expect_one_error(const char *cfgtext, const char *msg)
{
	struct cfg *cfg = new_cfg();

	assert_int_equal(load(cfg, cfgtext), -1);
	assert_diag(msg);
	assert_int_equal(cfg_error_count(cfg), 1);
	cfg_free(cfg);
}
