/*
 * cfg_value.c - the parsers of single configuration values: integers and
 * keywords, doubles, enum names, validated strings, interface names, MAC,
 * IPv4 and IPv6 addresses.  lib/cfg.c (the "key value" lines) and
 * lib/cfg_utab.c ([unicast_master_table]) turn their messages into
 * diagnostics naming the file and the line.
 *
 * As ptp4l: numbers go through strtol()/strtod() with base 0 (0x.. hex,
 * 0.. octal) and must be consumed whole; enum names match in any case.
 * Stricter than ptp4l: a double must be finite, an address is exactly one
 * of the three forms (inet_pton(), not inet_aton(); six colon-separated
 * hex pairs), and the addresses of a master table are unicast ones.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cfg.h"
#include "cfg_value.h"

#define IFNAME_MAX	15	/* IFNAMSIZ - 1 */

const char *
cfg_show(char *buf, size_t len, const char *s)
{
	if (strlen(s) <= CFG_SHOW_MAX || len < CFG_SHOW_MAX + 4)
		return s;
	memcpy(buf, s, CFG_SHOW_MAX);
	memcpy(buf + CFG_SHOW_MAX, "...", 4);
	return buf;
}

const char *
cfg_hash_hint(const char *value)
{
	const char *h = strchr(value, '#');

	if (h != NULL && h > value && (h[-1] == ' ' || h[-1] == '\t'))
		return " (a '#' comment must be on a line of its own)";
	return "";
}

/* ---- numbers and names ---- */

static locale_t
c_locale(void)
{
	static locale_t loc;

	if (loc == (locale_t)0)
		loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	return loc;
}

/*
 * strtod() follows LC_NUMERIC; a daemon that called setlocale() would read
 * "0.3" as 0.  Parse in the C locale whatever the process's locale is.
 */
double
cfg_strtod_c(const char *s, char **end)
{
	locale_t loc = c_locale();

	if (loc == (locale_t)0)
		return strtod(s, end);
	return strtod_l(s, end, loc);
}

void
cfg_format_double(char *buf, size_t len, double v)
{
	locale_t loc = c_locale(), old = (locale_t)0;

	if (loc != (locale_t)0)
		old = uselocale(loc);
	snprintf(buf, len, "%a", v);
	if (old != (locale_t)0)
		uselocale(old);
}

const char *
cfg_enum_name(const struct cfg_enum_val *v, int64_t value)
{
	for (; v != NULL && v->name != NULL; v++)
		if (v->value == value)
			return v->name;
	return NULL;
}

const struct cfg_enum_val *
cfg_enum_find(const struct cfg_enum_val *v, const char *name)
{
	for (; v != NULL && v->name != NULL; v++)
		if (strcasecmp(v->name, name) == 0)
			return v;
	return NULL;
}

static void
enum_list(const struct cfg_enum_val *v, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (; v->name != NULL && n < len; v++) {
		int r = snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
		    v->name);

		if (r < 0)
			break;
		n += (size_t)r;
	}
}

static int
parse_integer(const struct cfg_key *k, const char *name, const char *value,
    const char *shown, union cfg_value *out, char *why, size_t len)
{
	const struct cfg_enum_val *ev;
	char *end;
	long long ll;

	ev = cfg_enum_find(k->vals, value);
	if (ev != NULL) {
		out->i = ev->value;
		return 0;
	}
	errno = 0;
	ll = strtoll(value, &end, 0);
	if (end == value || *end != '\0') {
		snprintf(why, len, "bad value '%s' for key '%s': not an "
		    "integer%s", shown, name, cfg_hash_hint(value));
		return -1;
	}
	if (errno == ERANGE || ll < k->imin || ll > k->imax) {
		snprintf(why, len, "value '%s' for key '%s' is out of range "
		    "[%lld, %lld]", shown, name, (long long)k->imin,
		    (long long)k->imax);
		return -1;
	}
	out->i = ll;
	return 0;
}

static int
parse_double(const struct cfg_key *k, const char *name, const char *value,
    const char *shown, union cfg_value *out, char *why, size_t len)
{
	char *end;
	double d;

	errno = 0;
	d = cfg_strtod_c(value, &end);
	if (end == value || *end != '\0') {
		snprintf(why, len, "bad value '%s' for key '%s': not a "
		    "number%s", shown, name, cfg_hash_hint(value));
		return -1;
	}
	/* ptp4l takes "nan"; every comparison with it is false. */
	if (!isfinite(d) && errno != ERANGE) {
		snprintf(why, len, "bad value '%s' for key '%s': not a finite "
		    "number", shown, name);
		return -1;
	}
	if (errno == ERANGE || d < k->dmin || d > k->dmax) {
		snprintf(why, len, "value '%s' for key '%s' is out of range "
		    "[%g, %g]", shown, name, k->dmin, k->dmax);
		return -1;
	}
	out->d = d;
	return 0;
}

static int
parse_enum(const struct cfg_key *k, const char *name, const char *value,
    const char *shown, union cfg_value *out, char *why, size_t len)
{
	const struct cfg_enum_val *ev;
	char list[256];

	ev = cfg_enum_find(k->vals, value);
	if (ev == NULL) {
		enum_list(k->vals, list, sizeof(list));
		snprintf(why, len, "bad value '%s' for key '%s': expected one "
		    "of %s", shown, name, list);
		return -1;
	}
	/*
	 * An error, not a warning: running with another servo or time
	 * stamping than the one asked for would mislead.
	 */
	if (k->status == CFG_ST_IMPLEMENTED &&
	    ev->status != CFG_ST_IMPLEMENTED) {
		snprintf(why, len, "value '%s' of key '%s' is known to ptp4l "
		    "but not supported by ptpsep", ev->name, name);
		return -1;
	}
	out->i = ev->value;
	return 0;
}

int
cfg_value_parse(const struct cfg_key *k, const char *name, const char *value,
    union cfg_value *out, char *why, size_t len)
{
	char sbuf[CFG_SHOW_MAX + 4];
	const char *bad, *shown = cfg_show(sbuf, sizeof(sbuf), value);

	switch (k->type) {
	case CFG_T_INT:
	case CFG_T_INT64:
		return parse_integer(k, name, value, shown, out, why, len);
	case CFG_T_DOUBLE:
		return parse_double(k, name, value, shown, out, why, len);
	case CFG_T_ENUM:
		return parse_enum(k, name, value, shown, out, why, len);
	case CFG_T_STRING:
		bad = k->check != NULL ? k->check(value) : NULL;
		if (bad != NULL) {
			snprintf(why, len, "bad value '%s' for key '%s': %s",
			    shown, name, bad);
			return -1;
		}
		out->s = strdup(value);
		if (out->s == NULL) {
			snprintf(why, len, "out of memory");
			return -1;
		}
		return 0;
	}
	snprintf(why, len, "key '%s' has no type", name);
	return -1;
}

int
cfg_parse_dec_int(const char *key, const char *value, long lo, long hi,
    int *out, char *why, size_t len)
{
	char sbuf[CFG_SHOW_MAX + 4];
	const char *shown = cfg_show(sbuf, sizeof(sbuf), value);
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (end == value || *end != '\0') {
		snprintf(why, len, "bad value '%s' for key '%s': not an "
		    "integer%s", shown, key, cfg_hash_hint(value));
		return -1;
	}
	if (errno == ERANGE || v < lo || v > hi) {
		snprintf(why, len, "value '%s' for key '%s' is out of range "
		    "[%ld, %ld]", shown, key, lo, hi);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* ---- interface names and addresses ---- */

int
cfg_valid_ifname(const char *name)
{
	size_t i, len = strlen(name);

	/* The kernel's dev_valid_name(). */
	if (len == 0 || len > IFNAME_MAX)
		return 0;
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return 0;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c == '/' || c == ':' || c <= ' ' || c == 0x7f)
			return 0;
	}
	return 1;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
cfg_parse_mac(const char *s, uint8_t mac[6])
{
	size_t i;

	if (strlen(s) != 17)
		return -1;
	for (i = 0; i < 6; i++) {
		int hi = hexval((unsigned char)s[3 * i]);
		int lo = hexval((unsigned char)s[3 * i + 1]);

		if (hi < 0 || lo < 0 || (i < 5 && s[3 * i + 2] != ':'))
			return -1;
		mac[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

const char *
cfg_uaddr_parse(enum cfg_transport t, const char *s, struct cfg_uaddr *a)
{
	static const uint8_t zero[CFG_UADDR_MAX];

	memset(a, 0, sizeof(*a));
	a->transport = t;
	switch (t) {
	case CFG_TRANS_UDPV4:
		if (inet_pton(AF_INET, s, a->b) != 1)
			return "not an IPv4 address (a.b.c.d)";
		a->len = 4;
		if ((a->b[0] & 0xf0) == 0xe0)
			return "a multicast address, not a unicast master";
		if (memcmp(a->b, "\xff\xff\xff\xff", 4) == 0)
			return "the broadcast address, not a unicast master";
		break;
	case CFG_TRANS_UDPV6:
		if (inet_pton(AF_INET6, s, a->b) != 1)
			return "not an IPv6 address";
		a->len = 16;
		if (a->b[0] == 0xff)
			return "a multicast address, not a unicast master";
		break;
	case CFG_TRANS_L2:
		if (cfg_parse_mac(s, a->b) != 0)
			return "not a MAC address (xx:xx:xx:xx:xx:xx)";
		a->len = 6;
		/* The I/G bit (IEEE 802 8.2): group, broadcast included. */
		if (a->b[0] & 1)
			return "a multicast address, not a unicast master";
		break;
	}
	if (memcmp(a->b, zero, a->len) == 0)
		return "the unspecified address, not a unicast master";
	return NULL;
}

const char *
cfg_uaddr_parse_any(const char *s, struct cfg_uaddr *a)
{
	enum cfg_transport t;
	size_t colons = 0;
	const char *c;

	for (c = s; *c != '\0'; c++)
		colons += *c == ':';
	if (strchr(s, '.') != NULL && colons == 0)
		t = CFG_TRANS_UDPV4;
	else if (colons == 5 && strstr(s, "::") == NULL)
		t = CFG_TRANS_L2;	/* 6 groups: never an IPv6 address */
	else if (colons > 0)
		t = CFG_TRANS_UDPV6;
	else
		return "not an IPv4, IPv6 or MAC address";
	return cfg_uaddr_parse(t, s, a);
}

const char *
cfg_uaddr_str(const struct cfg_uaddr *a, char *buf, size_t len)
{
	if (len == 0)
		return buf;
	buf[0] = '\0';
	switch (a->len) {
	case 4:
		(void)inet_ntop(AF_INET, a->b, buf, (socklen_t)len);
		break;
	case 16:
		(void)inet_ntop(AF_INET6, a->b, buf, (socklen_t)len);
		break;
	case 6:
		snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", a->b[0],
		    a->b[1], a->b[2], a->b[3], a->b[4], a->b[5]);
		break;
	}
	return buf;
}
