/*
 * cfg.c - ptp4l.conf-compatible configuration parser and accessors.
 *
 * What ptp4l does, and what we do (etc/README.md has the user's view):
 * - "[global]" (any case) and "[IFACE]" sections; a repeated section is
 *   merged into the first one, the last value of a key wins.  ptp4l's
 *   "[unicast_master_table]" sections have lines of their own
 *   (lib/cfg_utab.c).  Unlike ptp4l, a section line must be well
 *   formed: "[eth0" or "[eth0 eth1]" is an error rather than silently
 *   "eth0".
 * - "key value": the key is the first word, matched case-sensitively; the
 *   value is the rest of the line without surrounding whitespace.  Enum
 *   values match case-insensitively, numbers go through strtol()/strtod()
 *   with base 0 (so 0x.. is hex and 0.. octal, as in ptp4l) and must be
 *   consumed whole.
 * - '#' starts a comment only as the first non-blank character of a line;
 *   ptp4l keeps a trailing "# ..." in the value, and so do we (a number
 *   with one is then an error, with a hint).
 * - A key before any section header is an error, as in ptp4l.
 * Unlike ptp4l we do not stop at the first error: every error of the file is
 * reported, so that --check-config shows them all at once.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cfg.h"
#include "cfg_utab.h"
#include "cfg_value.h"
#include "log.h"

#define IFNAME_MAX	15	/* IFNAMSIZ - 1 */
#define DIAG_MAX	512
#define CMDLINE		"command line"

struct cfg_val {
	union cfg_value u;
	unsigned int set:1;	/* else the table's default applies */
	unsigned int locked:1;	/* set by cfg_set_*(): files do not override */
	unsigned int line;	/* where it was set, for duplicate warnings */
	unsigned int gen;	/* in which load */
};

struct cfg_port {
	char name[IFNAME_MAX + 1];
	struct cfg_val *vals;	/* one per key; only port-scope ones used */
};

struct cfg {
	struct cfg_val *global;	/* one per key */
	struct cfg_port *ports;
	size_t nports, cap;
	cfg_diag_fn diag_fn;
	void *diag_arg;
	unsigned int errors, warnings;
	unsigned int gen;	/* load counter */
	/*
	 * One flag per key, set by every cfg_get_*() and cfg_is_set(): the
	 * key audit (cfg.h).  A pointer so that the const getters may set
	 * it.
	 */
	unsigned char *queried;
	int audit_fd;		/* CFG_AUDIT_ENV's file, or -1 */
	struct cfg_utabs utabs;	/* [unicast_master_table] */
	/* The name of every load, files[gen - 1]: where a value came from. */
	char **files;
};

/* Where a value comes from: a line of a file, or the command line. */
struct src {
	const char *file;
	unsigned int line;
	unsigned int load_errors;
	int stopped;		/* CFG_MAX_ERRORS reached */
};

enum section {
	SEC_NONE,	/* before the first header */
	SEC_GLOBAL,
	SEC_PORT,
	SEC_UTAB,	/* [unicast_master_table]: lib/cfg_utab.c */
	SEC_BAD,	/* header was an error: lines ignored, not re-reported */
};

/* ---- diagnostics ---- */

static void
diag(struct cfg *cfg, struct src *src, enum cfg_severity sev,
    const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void log_at(enum log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
log_at(enum log_level lvl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(lvl, fmt, ap);
	va_end(ap);
}

static void
emit(struct cfg *cfg, const struct cfg_diag *d, const char *where,
    const char *body)
{
	if (cfg->diag_fn != NULL)
		cfg->diag_fn(cfg->diag_arg, d);
	else	/* the log line carries the severity itself */
		log_at(d->severity == CFG_SEV_ERROR ? LOG_LVL_ERR :
		    LOG_LVL_WARN, "%s%s", where, body);
}

static void
diag(struct cfg *cfg, struct src *src, enum cfg_severity sev,
    const char *key, const char *fmt, ...)
{
	char where[DIAG_MAX], body[DIAG_MAX], text[2 * DIAG_MAX + 16];
	struct cfg_diag d;
	va_list ap;

	if (src->stopped)
		return;
	if (src->line > 0)
		snprintf(where, sizeof(where), "%s:%u: ", src->file,
		    src->line);
	else
		snprintf(where, sizeof(where), "%s: ", src->file);
	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	snprintf(text, sizeof(text), "%s%s%s", where,
	    sev == CFG_SEV_WARNING ? "warning: " : "", body);

	if (sev == CFG_SEV_ERROR) {
		cfg->errors++;
		src->load_errors++;
	} else {
		cfg->warnings++;
	}
	d.severity = sev;
	d.file = src->file;
	d.line = src->line;
	d.key = key;
	d.text = text;
	emit(cfg, &d, where, body);

	/* A binary or runaway file would otherwise flood the log. */
	if (sev == CFG_SEV_ERROR && src->load_errors >= CFG_MAX_ERRORS) {
		src->stopped = 1;
		d.line = 0;
		d.key = NULL;
		snprintf(where, sizeof(where), "%s: ", src->file);
		snprintf(body, sizeof(body), "too many errors, giving up");
		snprintf(text, sizeof(text), "%s%s", where, body);
		emit(cfg, &d, where, body);
	}
}

/* Programming errors in callers: abort so they show on the first run. */
static void bug(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

static void
bug(const char *fmt, ...)
{
	char text[DIAG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	log_warnx("cfg: bug: %s", text);
	abort();
}

void
cfg_set_diag(struct cfg *cfg, cfg_diag_fn fn, void *arg)
{
	cfg->diag_fn = fn;
	cfg->diag_arg = arg;
}

unsigned int
cfg_error_count(const struct cfg *cfg)
{
	return cfg->errors;
}

unsigned int
cfg_warning_count(const struct cfg *cfg)
{
	return cfg->warnings;
}

/* ---- life cycle ---- */

static size_t
key_index(const struct cfg_key *k)
{
	return (size_t)(k - cfg_key_at(0));
}

/*
 * The key audit's file: opened here, while the process may still open
 * files (before the privilege drop and clockd's seccomp filter), written by
 * cfg_free().  Appended to, so that every process of a test run adds its
 * keys to the same file.  Not following a symbolic link: the daemons start
 * as root.
 */
static int
audit_open(void)
{
	const char *path = getenv(CFG_AUDIT_ENV);
	int fd;

	if (path == NULL || path[0] == '\0')
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
	    0644);
	if (fd < 0)
		log_warn("%s %s", CFG_AUDIT_ENV, path);
	return fd;
}

/* Every queried key on a line of its own, in one write (O_APPEND). */
static void
audit_write(struct cfg *cfg)
{
	char *buf;
	size_t i, n = 0, cap = 0;
	ssize_t w;

	if (cfg->audit_fd < 0)
		return;
	for (i = 0; i < cfg_key_count(); i++)
		cap += strlen(cfg_key_at(i)->name) + 1;
	buf = malloc(cap + 1);
	if (buf != NULL) {
		for (i = 0; i < cfg_key_count(); i++) {
			if (!cfg->queried[i])
				continue;
			n += (size_t)snprintf(buf + n, cap + 1 - n, "%s\n",
			    cfg_key_at(i)->name);
		}
		w = n > 0 ? write(cfg->audit_fd, buf, n) : 0;
		if (w < 0 || (size_t)w != n)
			log_warn("%s: short write", CFG_AUDIT_ENV);
		free(buf);
	}
	close(cfg->audit_fd);
	cfg->audit_fd = -1;
}

struct cfg *
cfg_new(void)
{
	static int table_ok;	/* 0 unchecked, 1 good, -1 broken */
	struct cfg *cfg;

	if (table_ok == 0)
		table_ok = cfg_keys_selftest() == 0 ? 1 : -1;
	if (table_ok < 0)
		return NULL;
	cfg = calloc(1, sizeof(*cfg));
	if (cfg == NULL)
		return NULL;
	cfg->global = calloc(cfg_key_count(), sizeof(*cfg->global));
	cfg->queried = calloc(cfg_key_count(), 1);
	if (cfg->global == NULL || cfg->queried == NULL) {
		free(cfg->global);
		free(cfg->queried);
		free(cfg);
		return NULL;
	}
	cfg->audit_fd = audit_open();
	return cfg;
}

static void
free_vals(struct cfg_val *vals)
{
	size_t i;

	if (vals == NULL)
		return;
	for (i = 0; i < cfg_key_count(); i++)
		if (cfg_key_at(i)->type == CFG_T_STRING && vals[i].set)
			free(vals[i].u.s);
	free(vals);
}

void
cfg_free(struct cfg *cfg)
{
	size_t i;

	if (cfg == NULL)
		return;
	audit_write(cfg);
	for (i = 0; i < cfg->nports; i++)
		free_vals(cfg->ports[i].vals);
	free(cfg->ports);
	free_vals(cfg->global);
	free(cfg->queried);
	utab_free(&cfg->utabs);
	for (i = 0; i < cfg->gen; i++)
		free(cfg->files[i]);
	free(cfg->files);
	free(cfg);
}

/* ---- ports ---- */

int
cfg_port_index(const struct cfg *cfg, const char *name)
{
	size_t i;

	for (i = 0; i < cfg->nports; i++)
		if (strcmp(cfg->ports[i].name, name) == 0)
			return (int)i;
	return -1;
}

size_t
cfg_port_count(const struct cfg *cfg)
{
	return cfg->nports;
}

const char *
cfg_port_name(const struct cfg *cfg, size_t i)
{
	return i < cfg->nports ? cfg->ports[i].name : NULL;
}

/* Returns the index, or -1 after an error diagnostic. */
static int
add_port(struct cfg *cfg, struct src *src, const char *name)
{
	struct cfg_port *p;
	char sbuf[CFG_SHOW_MAX + 4];
	int i;

	if (!cfg_valid_ifname(name)) {
		diag(cfg, src, CFG_SEV_ERROR, NULL,
		    "invalid interface name '%s'",
		    cfg_show(sbuf, sizeof(sbuf), name));
		return -1;
	}
	i = cfg_port_index(cfg, name);
	if (i >= 0)
		return i;	/* as ptp4l: a repeated section is merged */
	if (cfg->nports >= CFG_MAX_PORTS) {
		diag(cfg, src, CFG_SEV_ERROR, NULL,
		    "too many ports (max %d)", CFG_MAX_PORTS);
		return -1;
	}
	if (cfg->nports == cfg->cap) {
		size_t cap = cfg->cap ? cfg->cap * 2 : 4;

		p = reallocarray(cfg->ports, cap, sizeof(*p));
		if (p == NULL)
			goto no_memory;
		cfg->ports = p;
		cfg->cap = cap;
	}
	p = &cfg->ports[cfg->nports];
	memset(p, 0, sizeof(*p));
	p->vals = calloc(cfg_key_count(), sizeof(*p->vals));
	if (p->vals == NULL)
		goto no_memory;
	memcpy(p->name, name, strlen(name) + 1);
	return (int)cfg->nports++;
no_memory:
	diag(cfg, src, CFG_SEV_ERROR, NULL, "out of memory");
	return -1;
}

int
cfg_add_port(struct cfg *cfg, const char *name)
{
	struct src src = { .file = CMDLINE };

	return add_port(cfg, &src, name);
}

/* ---- value parsing (lib/cfg_value.c) ---- */

/* Parses value for key k into *out; -1 after an error diagnostic. */
static int
parse_value(struct cfg *cfg, struct src *src, const struct cfg_key *k,
    const char *name, const char *value, union cfg_value *out)
{
	char why[CFG_WHY_MAX];

	if (cfg_value_parse(k, name, value, out, why, sizeof(why)) == 0)
		return 0;
	diag(cfg, src, CFG_SEV_ERROR, name, "%s", why);
	return -1;
}

/* ---- setting a value ---- */

/*
 * Sets key name to value for port (-1: global) from src.  cmdline: a
 * cfg_set_*() call, which locks the value.  Returns 0 or -1 (error).
 */
static int
apply(struct cfg *cfg, struct src *src, int port, const char *name,
    const char *value, int cmdline)
{
	const struct cfg_key *k;
	const char *hint;
	struct cfg_val v, *dst;
	char sbuf[CFG_SHOW_MAX + 4];
	const char *shown = cfg_show(sbuf, sizeof(sbuf), name);

	k = cfg_key_find(name);
	if (k == NULL) {
		hint = cfg_key_suggest(name);
		if (hint != NULL)
			diag(cfg, src, CFG_SEV_ERROR, name,
			    "unknown key '%s' (did you mean '%s'?)", shown,
			    hint);
		else
			diag(cfg, src, CFG_SEV_ERROR, name,
			    "unknown key '%s'", shown);
		return -1;
	}
	if (k->alias_of != NULL) {
		if (k->flags & CFG_KF_DEPRECATED)
			diag(cfg, src, CFG_SEV_WARNING, name,
			    "key '%s' is deprecated, use '%s'", name,
			    k->alias_of);
		k = cfg_key_find(k->alias_of);
	}
	if (port >= 0 && k->scope == CFG_SC_GLOBAL) {
		diag(cfg, src, CFG_SEV_ERROR, name,
		    "key '%s' is global-only and cannot be set in section "
		    "[%s]", name, cfg->ports[port].name);
		return -1;
	}
	/* A file line needs a value (ptp4l); "--message_tag=" may be empty. */
	if (value[0] == '\0' && (!cmdline || k->type != CFG_T_STRING)) {
		diag(cfg, src, CFG_SEV_ERROR, name,
		    "missing value for key '%s'", name);
		return -1;
	}
	memset(&v, 0, sizeof(v));
	if (parse_value(cfg, src, k, name, value, &v.u) != 0)
		return -1;
	if (k->status != CFG_ST_IMPLEMENTED)
		diag(cfg, src, CFG_SEV_WARNING, name,
		    "key '%s' is known to ptp4l but not implemented by ptpsep; "
		    "ignored%s%s%s", name, k->note ? " (" : "",
		    k->note ? k->note : "", k->note ? ")" : "");

	dst = port >= 0 ? &cfg->ports[port].vals[key_index(k)] :
	    &cfg->global[key_index(k)];
	if (dst->locked && !cmdline) {
		/* ptp4l: the command line overrides the file. */
		if (k->type == CFG_T_STRING)
			free(v.u.s);
		return 0;
	}
	if (dst->set && !cmdline && dst->gen == cfg->gen && dst->line > 0)
		diag(cfg, src, CFG_SEV_WARNING, name,
		    "key '%s' already set at line %u; the last value wins",
		    name, dst->line);
	if (k->type == CFG_T_STRING && dst->set)
		free(dst->u.s);
	dst->u = v.u;
	dst->set = 1;
	dst->locked = cmdline ? 1 : dst->locked;
	dst->line = src->line;
	dst->gen = cfg->gen;
	return 0;
}

/* ---- the file parser ---- */

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static char *
trim(char *s)
{
	char *e;

	while (is_blank((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && is_blank((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static enum section
parse_section(struct cfg *cfg, struct src *src, char *line, int *port)
{
	char sbuf[CFG_SHOW_MAX + 4];
	size_t len = strlen(line);
	char *name, *p;

	if (line[len - 1] != ']') {
		diag(cfg, src, CFG_SEV_ERROR, NULL,
		    "bad section header '%s': missing ']'",
		    cfg_show(sbuf, sizeof(sbuf), line));
		return SEC_BAD;
	}
	line[len - 1] = '\0';
	name = trim(line + 1);
	if (name[0] == '\0') {
		diag(cfg, src, CFG_SEV_ERROR, NULL, "empty section name");
		return SEC_BAD;
	}
	for (p = name; *p != '\0'; p++) {
		if (is_blank((unsigned char)*p) || *p == '[' || *p == ']') {
			diag(cfg, src, CFG_SEV_ERROR, NULL,
			    "bad section name '%s'",
			    cfg_show(sbuf, sizeof(sbuf), name));
			return SEC_BAD;
		}
	}
	if (strcasecmp(name, "global") == 0)
		return SEC_GLOBAL;
	if (strcasecmp(name, "unicast_master_table") == 0) {
		utab_section(&cfg->utabs);
		return SEC_UTAB;
	}
	*port = add_port(cfg, src, name);
	return *port >= 0 ? SEC_PORT : SEC_BAD;
}

static void
parse_utab_line(struct cfg *cfg, struct src *src, const char *key,
    const char *value)
{
	char msg[DIAG_MAX];

	switch (utab_line(&cfg->utabs, src->file, src->line, key, value, msg,
	    sizeof(msg))) {
	case UTAB_OK:
		break;
	case UTAB_WARN:
		diag(cfg, src, CFG_SEV_WARNING, key, "%s", msg);
		break;
	case UTAB_ERR:
		diag(cfg, src, CFG_SEV_ERROR, key, "%s", msg);
		break;
	}
}

/* One line, without its '\n'; NUL and length already checked. */
static void
parse_line(struct cfg *cfg, struct src *src, char *raw, enum section *sec,
    int *port)
{
	char sbuf[CFG_SHOW_MAX + 4];
	char *line, *key, *value;

	line = trim(raw);
	if (line[0] == '\0' || line[0] == '#')
		return;
	if (line[0] == '[') {
		*sec = parse_section(cfg, src, line, port);
		return;
	}
	key = line;
	for (value = line; *value != '\0' && !is_blank((unsigned char)*value);
	    value++)
		;
	if (*value != '\0')
		*value++ = '\0';
	value = trim(value);

	switch (*sec) {
	case SEC_NONE:
		diag(cfg, src, CFG_SEV_ERROR, key,
		    "key '%s' outside of any section (start the file with "
		    "[global] or [IFACE])", cfg_show(sbuf, sizeof(sbuf), key));
		return;
	case SEC_UTAB:
		parse_utab_line(cfg, src, key, value);
		return;
	case SEC_BAD:
		return;
	case SEC_GLOBAL:
		apply(cfg, src, -1, key, value, 0);
		return;
	case SEC_PORT:
		apply(cfg, src, *port, key, value, 0);
		return;
	}
}

/* Returns 0, or the first byte that may not appear in a line. */
static unsigned char
bad_char(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < ' ' && !is_blank(c)) || c == 0x7f)
			return c == 0 ? 0xff : c;	/* NUL reported apart */
	}
	return 0;
}

int
cfg_load_buffer(struct cfg *cfg, const char *name, const char *buf,
    size_t len)
{
	struct src src = { .file = name };
	enum section sec = SEC_NONE;
	char line[CFG_LINE_MAX + 2];
	const char *p = buf, *end = buf + len, *nl;
	int port = -1;
	size_t n;
	unsigned char c;
	char **files;

	/* Kept for the life of cfg: tables and cfg_origin() name it. */
	files = reallocarray(cfg->files, cfg->gen + 1, sizeof(*files));
	if (files == NULL || (files[cfg->gen] = strdup(name)) == NULL) {
		if (files != NULL)
			cfg->files = files;
		diag(cfg, &src, CFG_SEV_ERROR, NULL, "out of memory");
		return -1;
	}
	cfg->files = files;
	src.file = files[cfg->gen++];
	utab_section(&cfg->utabs);
	while (p < end && !src.stopped) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = (nl != NULL ? nl : end) - p;
		src.line++;
		if (n > 0 && p[n - 1] == '\r')
			n--;	/* CRLF files: the CR is not counted */
		if (n > CFG_LINE_MAX) {
			diag(cfg, &src, CFG_SEV_ERROR, NULL,
			    "line too long (more than %d characters)",
			    CFG_LINE_MAX);
		} else if (memchr(p, '\0', n) != NULL) {
			diag(cfg, &src, CFG_SEV_ERROR, NULL,
			    "NUL byte in line");
		} else if ((c = bad_char(p, n)) != 0) {
			diag(cfg, &src, CFG_SEV_ERROR, NULL,
			    "control character 0x%02x in line", c);
		} else {
			memcpy(line, p, n);
			line[n] = '\0';
			parse_line(cfg, &src, line, &sec, &port);
		}
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return src.load_errors ? -1 : 0;
}

int
cfg_load_file(struct cfg *cfg, const char *path)
{
	struct src src = { .file = path };
	char *buf;
	size_t len;
	FILE *f;
	int rc;

	f = fopen(path, "re");
	if (f == NULL) {
		diag(cfg, &src, CFG_SEV_ERROR, NULL, "cannot open: %s",
		    strerror(errno));
		return -1;
	}
	buf = malloc(CFG_FILE_MAX + 1);
	if (buf == NULL) {
		fclose(f);
		diag(cfg, &src, CFG_SEV_ERROR, NULL, "out of memory");
		return -1;
	}
	len = fread(buf, 1, CFG_FILE_MAX + 1, f);
	if (ferror(f)) {
		diag(cfg, &src, CFG_SEV_ERROR, NULL, "read error: %s",
		    strerror(errno));
		rc = -1;
	} else if (len > CFG_FILE_MAX) {
		diag(cfg, &src, CFG_SEV_ERROR, NULL,
		    "file too large (more than %d bytes)", CFG_FILE_MAX);
		rc = -1;
	} else {
		rc = cfg_load_buffer(cfg, path, buf, len);
	}
	free(buf);
	fclose(f);
	return rc;
}

/* ---- accessors ---- */

static const struct cfg_key *
resolve(const char *key, enum cfg_type want, const char *fn)
{
	const struct cfg_key *k = cfg_key_find(key);
	int ok;

	if (k == NULL)
		bug("%s: unknown key '%s'", fn, key);
	if (k->alias_of != NULL)
		k = cfg_key_find(k->alias_of);
	switch (want) {
	case CFG_T_INT:
		ok = k->type == CFG_T_INT || k->type == CFG_T_ENUM;
		break;
	case CFG_T_INT64:
		ok = k->type == CFG_T_INT64 || k->type == CFG_T_INT;
		break;
	default:
		ok = k->type == want;
		break;
	}
	if (!ok)
		bug("%s: key '%s' has another type", fn, key);
	return k;
}

/*
 * The value in force, or NULL for the table's default.  Every accessor
 * comes here: the key counts as queried (the key audit).
 */
static const struct cfg_val *
lookup(const struct cfg *cfg, const char *port, const struct cfg_key *k)
{
	size_t i = key_index(k);
	int p;

	cfg->queried[i] = 1;

	if (port != NULL && k->scope == CFG_SC_PORT) {
		p = cfg_port_index(cfg, port);
		if (p >= 0 && cfg->ports[p].vals[i].set)
			return &cfg->ports[p].vals[i];
	}
	return cfg->global[i].set ? &cfg->global[i] : NULL;
}

int
cfg_get_int(const struct cfg *cfg, const char *port, const char *key)
{
	const struct cfg_key *k = resolve(key, CFG_T_INT, __func__);
	const struct cfg_val *v = lookup(cfg, port, k);

	return (int)(v != NULL ? v->u.i : k->idef);
}

int64_t
cfg_get_int64(const struct cfg *cfg, const char *port, const char *key)
{
	const struct cfg_key *k = resolve(key, CFG_T_INT64, __func__);
	const struct cfg_val *v = lookup(cfg, port, k);

	return v != NULL ? v->u.i : k->idef;
}

double
cfg_get_double(const struct cfg *cfg, const char *port, const char *key)
{
	const struct cfg_key *k = resolve(key, CFG_T_DOUBLE, __func__);
	const struct cfg_val *v = lookup(cfg, port, k);

	return v != NULL ? v->u.d : k->ddef;
}

const char *
cfg_get_str(const struct cfg *cfg, const char *port, const char *key)
{
	const struct cfg_key *k = resolve(key, CFG_T_STRING, __func__);
	const struct cfg_val *v = lookup(cfg, port, k);

	return v != NULL ? v->u.s : k->sdef;
}

const char *
cfg_get_enum_name(const struct cfg *cfg, const char *port, const char *key)
{
	const struct cfg_key *k = resolve(key, CFG_T_ENUM, __func__);
	const struct cfg_val *v = lookup(cfg, port, k);

	return cfg_enum_name(k->vals, v != NULL ? v->u.i : k->idef);
}

int
cfg_is_set(const struct cfg *cfg, const char *port, const char *key)
{
	const struct cfg_key *k = cfg_key_find(key);

	if (k == NULL)
		bug("%s: unknown key '%s'", __func__, key);
	if (k->alias_of != NULL)
		k = cfg_key_find(k->alias_of);
	return lookup(cfg, port, k) != NULL;
}

const struct cfg_utabs *
cfg_utabs(const struct cfg *cfg)
{
	return &cfg->utabs;
}

int
cfg_origin(const struct cfg *cfg, const char *port, const char *key,
    const char **file, unsigned int *line)
{
	const struct cfg_key *k = cfg_key_find(key);
	const struct cfg_val *v;

	if (k == NULL)
		bug("%s: unknown key '%s'", __func__, key);
	if (k->alias_of != NULL)
		k = cfg_key_find(k->alias_of);
	if ((v = lookup(cfg, port, k)) == NULL)
		return -1;
	/* A command-line value has line 0 (set_common()). */
	if (v->line == 0 || v->gen == 0 || v->gen > cfg->gen) {
		*file = CMDLINE;
		*line = 0;
	} else {
		*file = cfg->files[v->gen - 1];
		*line = v->line;
	}
	return 0;
}

/* ---- command-line overrides ---- */

static int
set_common(struct cfg *cfg, const char *port, const char *key,
    const char *value)
{
	struct src src = { .file = CMDLINE };
	char sbuf[CFG_SHOW_MAX + 4];
	int p = -1;
	unsigned char c;

	if (port != NULL) {
		p = cfg_port_index(cfg, port);
		if (p < 0) {
			diag(cfg, &src, CFG_SEV_ERROR, key, "unknown port '%s'",
			    cfg_show(sbuf, sizeof(sbuf), port));
			return -1;
		}
	}
	/* The file parser never sees these; the command line could. */
	c = bad_char(value, strlen(value));
	if (c != 0) {
		diag(cfg, &src, CFG_SEV_ERROR, key,
		    "control character 0x%02x in value for key '%s'", c,
		    cfg_show(sbuf, sizeof(sbuf), key));
		return -1;
	}
	return apply(cfg, &src, p, key, value, 1);
}

int
cfg_set_from_string(struct cfg *cfg, const char *port, const char *key,
    const char *value)
{
	return set_common(cfg, port, key, value);
}

int
cfg_set_int(struct cfg *cfg, const char *port, const char *key, int v)
{
	const struct cfg_key *k = resolve(key, CFG_T_INT, __func__);
	char buf[32];

	/* Enum keys take the value's name, so one path checks both. */
	if (k->type == CFG_T_ENUM) {
		const char *name = cfg_enum_name(k->vals, v);

		if (name == NULL)
			bug("%s: %d is no value of key '%s'", __func__, v,
			    key);
		return set_common(cfg, port, key, name);
	}
	snprintf(buf, sizeof(buf), "%d", v);
	return set_common(cfg, port, key, buf);
}

int
cfg_set_int64(struct cfg *cfg, const char *port, const char *key, int64_t v)
{
	char buf[32];

	resolve(key, CFG_T_INT64, __func__);
	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	return set_common(cfg, port, key, buf);
}

int
cfg_set_double(struct cfg *cfg, const char *port, const char *key, double v)
{
	char buf[64];

	resolve(key, CFG_T_DOUBLE, __func__);
	cfg_format_double(buf, sizeof(buf), v);
	return set_common(cfg, port, key, buf);
}

int
cfg_set_str(struct cfg *cfg, const char *port, const char *key,
    const char *v)
{
	resolve(key, CFG_T_STRING, __func__);
	return set_common(cfg, port, key, v);
}

/* ---- the key audit ---- */

int
cfg_key_queried(const struct cfg *cfg, const char *key)
{
	const struct cfg_key *k = cfg_key_find(key);

	if (k == NULL)
		bug("%s: unknown key '%s'", __func__, key);
	if (k->alias_of != NULL)
		k = cfg_key_find(k->alias_of);
	return cfg->queried[key_index(k)];
}

size_t
cfg_audit(const struct cfg *cfg, int queried, enum cfg_status status,
    void (*fn)(void *arg, const struct cfg_key *k), void *arg)
{
	const struct cfg_key *k;
	size_t i, n = 0;

	for (i = 0; i < cfg_key_count(); i++) {
		k = cfg_key_at(i);
		/* An alias has no value of its own: its target is asked. */
		if (k->alias_of != NULL || k->status != status ||
		    !cfg->queried[i] != !queried)
			continue;
		if (fn != NULL)
			fn(arg, k);
		n++;
	}
	return n;
}
