/*
 * cfg_value.h - between lib/cfg.c, lib/cfg_utab.c and lib/cfg_keys.c
 * only: the parsers of single values (numbers, enum names, addresses),
 * with no knowledge of files, sections or diagnostics.  Each returns 0 or
 * NULL on success, else says why in words that go after "FILE:LINE: ".
 * Users read values through lib/cfg.h.
 */
#ifndef PTPSEP_CFG_VALUE_H
#define PTPSEP_CFG_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "cfg.h"

#define CFG_SHOW_MAX	64	/* longest value or key quoted in a message */
#define CFG_WHY_MAX	512	/* a parser's message, with the value quoted */

/* A parsed value of a key of the table (lib/cfg_keys.c). */
union cfg_value {
	int64_t i;	/* CFG_T_INT, CFG_T_INT64, CFG_T_ENUM */
	double d;
	char *s;	/* owned; may be NULL (no default) */
};

/*
 * Quotable form of untrusted text: s itself, or its first CFG_SHOW_MAX
 * characters and "..." in buf (len >= CFG_SHOW_MAX + 4).
 */
const char *cfg_show(char *buf, size_t len, const char *s);
/*
 * " (a '#' comment must be on a line of its own)" when value holds a '#'
 * after blank (the user probably meant a trailing comment), else "".
 */
const char *cfg_hash_hint(const char *value);

/* strtod() in the C locale, whatever the process's LC_NUMERIC. */
double	cfg_strtod_c(const char *s, char **end);
/* v as "%a" in the C locale: it reads back exactly, as cfg_strtod_c(). */
void	cfg_format_double(char *buf, size_t len, double v);
/* The name of value in v (NULL-name terminated), or NULL. */
const char *cfg_enum_name(const struct cfg_enum_val *v, int64_t value);
/* Case-insensitive, as ptp4l; NULL if name is none of v. */
const struct cfg_enum_val *cfg_enum_find(const struct cfg_enum_val *v,
	    const char *name);

/*
 * Parses value for key k (name: the key as the user wrote it) into *out,
 * checked as the table says: range, enum names and their status, the
 * string validator.  A string is strdup()ed.  Returns 0, or -1 with why.
 */
int	cfg_value_parse(const struct cfg_key *k, const char *name,
	    const char *value, union cfg_value *out, char *why, size_t len);
/*
 * Whole-value decimal integer in [lo, hi] (ptp4l's sscanf("%d"): "010" is
 * 10, unlike the keys' strtol(, 0)).  Returns 0, or -1 with why.
 */
int	cfg_parse_dec_int(const char *key, const char *value, long lo,
	    long hi, int *out, char *why, size_t len);

/* Exactly xx:xx:xx:xx:xx:xx (ptp4l's str2mac()).  Returns 0 or -1. */
int	cfg_parse_mac(const char *s, uint8_t mac[6]);
/*
 * s as a unicast address of transport t (dotted quad, IPv6, MAC): no
 * multicast, broadcast or unspecified address.  Returns NULL, or why not
 * (for "bad value '...' for key '...': WHY").
 */
const char *cfg_uaddr_parse(enum cfg_transport t, const char *s,
	    struct cfg_uaddr *a);
/* The same for whichever of the three forms s is (peer_address). */
const char *cfg_uaddr_parse_any(const char *s, struct cfg_uaddr *a);

#endif /* PTPSEP_CFG_VALUE_H */
