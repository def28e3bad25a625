/*
 * fuzz_config.c - libFuzzer target for the configuration parser.
 *
 * The file is trusted more than a network frame, but netd parses it as root
 * and ptpctl parses whatever -f names, so every byte sequence must end in
 * diagnostics, never in a crash, a leak or an over-read.  After a load the
 * accessors are exercised for every key and port, since a value stored
 * wrongly would only show there.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "cfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
ignore(void *arg, const struct cfg_diag *d)
{
	(void)arg;
	(void)d;
}

static void
read_all(const struct cfg *cfg, const char *port)
{
	const struct cfg_key *k;
	size_t i;

	for (i = 0; i < cfg_key_count(); i++) {
		k = cfg_key_at(i);
		if (k->alias_of != NULL)
			continue;
		switch (k->type) {
		case CFG_T_INT:
			(void)cfg_get_int(cfg, port, k->name);
			break;
		case CFG_T_INT64:
			(void)cfg_get_int64(cfg, port, k->name);
			break;
		case CFG_T_DOUBLE:
			(void)cfg_get_double(cfg, port, k->name);
			break;
		case CFG_T_STRING:
			(void)cfg_get_str(cfg, port, k->name);
			break;
		case CFG_T_ENUM:
			(void)cfg_get_enum_name(cfg, port, k->name);
			break;
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cfg *cfg = cfg_new();
	size_t i;

	if (cfg == NULL)
		return 0;
	cfg_set_diag(cfg, ignore, NULL);
	(void)cfg_load_buffer(cfg, "fuzz.cfg", (const char *)data, size);
	read_all(cfg, NULL);
	for (i = 0; i < cfg_port_count(cfg) && i < 8; i++)
		read_all(cfg, cfg_port_name(cfg, i));
	cfg_free(cfg);
	return 0;
}
