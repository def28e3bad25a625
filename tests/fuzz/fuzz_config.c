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

/* The unicast master tables (lib/cfg_utab.c), as netd and clockd read them. */
static void
read_utabs(const struct cfg *cfg)
{
	const struct cfg_utab *t;
	char buf[64], why[512];
	size_t i, j;

	for (i = 0; (t = cfg_utab_at(cfg, i)) != NULL; i++) {
		if (cfg_utab_find(cfg, t->table_id) != t)
			__builtin_trap();
		for (j = 0; j < t->count; j++)
			(void)cfg_uaddr_str(&t->addrs[j], buf, sizeof(buf));
		if (t->has_peer)
			(void)cfg_uaddr_str(&t->peer, buf, sizeof(buf));
	}
	(void)cfg_utab_port(cfg, NULL);
	for (i = 0; i < cfg_port_count(cfg) && i < 8; i++)
		(void)cfg_utab_port(cfg, cfg_port_name(cfg, i));
	(void)cfg_utab_check(cfg, why, sizeof(why));
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
	read_utabs(cfg);
	cfg_free(cfg);
	return 0;
}
