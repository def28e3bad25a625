/*
 * fuzz_leapfile.c - libFuzzer target for the leap-seconds.list decoder
 * (lib/leapfile.c).
 *
 * clockd reads the file named by `leapfile' before its sandbox, and
 * --check-config reads whatever the configuration names: every byte
 * sequence must end in a table or a specific refusal, never in a crash or
 * an over-read.  A table that parses is checked against the decoder's
 * promises (bounds, order, +-1 steps, expiry after the last entry), and
 * its lookups are exercised at each entry's edges.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "leapfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct leaptab tab;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct leapfile_err err;
	char why[128];
	int64_t at, utc;
	int off, delta;
	size_t i;

	if (leapfile_parse((const char *)data, size, &tab, &err) != 0) {
		if (err.code == LF_OK)
			abort();
		leapfile_format(&err, why, sizeof(why));
		return 0;
	}
	if (tab.n == 0 || tab.n > LEAPFILE_MAX_ENTRIES ||
	    tab.expires_s <= tab.e[tab.n - 1].utc_s)
		abort();
	for (i = 0; i < tab.n; i++) {
		const struct leap_entry *e = &tab.e[i];

		if (i > 0 && (e->utc_s <= tab.e[i - 1].utc_s ||
		    abs(e->offset - tab.e[i - 1].offset) != 1))
			abort();
		if (leaptab_offset(&tab, e->utc_s, &off) != 0 ||
		    off != e->offset)
			abort();
		if (leaptab_next(&tab, e->utc_s - 1, &at, &delta) &&
		    i > 0 && at != e->utc_s)
			abort();
		if (leaptab_utc_from_tai(&tab, e->utc_s + e->offset, &utc,
		    &off) != 0 || utc != e->utc_s)
			abort();
		(void)leaptab_expired(&tab, e->utc_s);
	}
	return 0;
}
