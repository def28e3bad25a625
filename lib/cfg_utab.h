/*
 * cfg_utab.h - between lib/cfg.c and lib/cfg_utab.c only: the parser of
 * the [unicast_master_table] sections.  Users read the tables through
 * lib/cfg.h (cfg_utab_*).
 */
#ifndef PTPSEP_CFG_UTAB_H
#define PTPSEP_CFG_UTAB_H

#include <stddef.h>

#include "cfg.h"

struct cfg_utabs {
	struct cfg_utab *t;
	size_t n, cap;
	size_t cur;		/* the section's table is t[cur - 1]; 0: none */
};

enum utab_result {
	UTAB_OK,
	UTAB_WARN,		/* msg says why; the line is taken */
	UTAB_ERR,		/* msg says why; the line is not taken */
};

/* A "[unicast_master_table]" header: lines need a table_id again. */
void	utab_section(struct cfg_utabs *);
/*
 * One "key value" line of the section, from file (a name that lives as
 * long as the tables) at line.
 */
enum utab_result utab_line(struct cfg_utabs *, const char *file,
	    unsigned int line, const char *key, const char *value, char *msg,
	    size_t len);
void	utab_free(struct cfg_utabs *);

/* In lib/cfg.c: the tables of a configuration. */
const struct cfg_utabs *cfg_utabs(const struct cfg *);
/*
 * In lib/cfg.c: where the value of key in force for port came from.
 * Returns 0 with *file and *line (0 for the command line), or -1 if the
 * value is the table's default.
 */
int	cfg_origin(const struct cfg *, const char *port, const char *key,
	    const char **file, unsigned int *line);

#endif /* PTPSEP_CFG_UTAB_H */
