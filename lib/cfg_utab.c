/*
 * cfg_utab.c - ptp4l's [unicast_master_table] sections: the masters a
 * unicast client asks for service (IEEE 1588-2019 16.1, the unicast
 * discovery table of 17.5), and the peer of a P2P port.
 *
 * What ptp4l (linuxptp config.c) does, and what we do:
 * - "table_id N" (1..INT_MAX) starts a table, in whatever section it
 *   stands; a taken table_id is an error.  The other lines need one
 *   before them in the same section ("missing table_id").
 * - "logQueryInterval N" (-128..127), 0 when not given.
 * - "peer_address ADDR": ptp4l keeps the text and parses it with the
 *   port's transport at start; we parse it at once as an IPv4, IPv6 or
 *   MAC address (the three forms cannot be confused) and check the
 *   transport when a port uses the table (cfg_utab_check()).
 * - "TRANSPORT ADDR", TRANSPORT one of UDPv4, UDPv6, L2 in any case.
 *   ptp4l takes "UDPv4" addresses with inet_aton() (so "10.1" and
 *   "010.0.0.1", which is 8.0.0.1); we want the dotted quad of
 *   inet_pton().  ptp4l reads MACs with "%hhx:..."; we want exactly
 *   xx:xx:xx:xx:xx:xx, as for ptp_dst_mac.  ptp4l takes the first word
 *   of the value; we take the whole value, so trailing words are an error.
 * - Unlike ptp4l, a multicast, broadcast or unspecified address is refused:
 *   a master table lists unicast masters, and netd pins these addresses as
 *   peers it may send unicast to (doc/design.md).
 * - A port whose table lists addresses of another transport: ptp4l warns
 *   and runs a client that can never reach them; we refuse
 *   (cfg_utab_check()), as a table larger than netd's max_unicast_peers
 *   (netd admits every address of a port's table as a peer).
 * Bounds ptp4l does not have: CFG_UTAB_MAX tables of CFG_UTAB_ADDRS_MAX
 * addresses; beyond is an error naming the line.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cfg.h"
#include "cfg_utab.h"
#include "cfg_value.h"
#include "log.h"

static const char *const trans_names[] = {
	[CFG_TRANS_UDPV4] = "UDPv4",
	[CFG_TRANS_UDPV6] = "UDPv6",
	[CFG_TRANS_L2] = "L2",
};

static const char *
trans_name(enum cfg_transport t)
{
	if ((size_t)t < sizeof(trans_names) / sizeof(trans_names[0]))
		return trans_names[t];
	return "?";
}

/* ---- the section's lines ---- */

static struct cfg_utab *
utab_find(const struct cfg_utabs *u, int id)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		if (u->t[i].table_id == id)
			return &u->t[i];
	return NULL;
}

static enum utab_result
new_table(struct cfg_utabs *u, const char *file, unsigned int line,
    const char *value, char *msg, size_t len)
{
	struct cfg_utab *t;
	int id;

	if (cfg_parse_dec_int("table_id", value, 1, INT_MAX, &id, msg, len) != 0)
		return UTAB_ERR;
	if ((t = utab_find(u, id)) != NULL) {
		snprintf(msg, len, "table_id %d already taken (%s:%u)", id,
		    t->file, t->line);
		return UTAB_ERR;
	}
	if (u->n >= CFG_UTAB_MAX) {
		snprintf(msg, len, "too many unicast master tables (max %d)",
		    CFG_UTAB_MAX);
		return UTAB_ERR;
	}
	if (u->n == u->cap) {
		size_t cap = u->cap ? u->cap * 2 : 4;

		t = reallocarray(u->t, cap, sizeof(*t));
		if (t == NULL) {
			snprintf(msg, len, "out of memory");
			return UTAB_ERR;
		}
		u->t = t;
		u->cap = cap;
	}
	t = &u->t[u->n++];
	memset(t, 0, sizeof(*t));
	t->table_id = id;
	t->file = file;
	t->line = line;
	u->cur = u->n;
	return UTAB_OK;
}

static enum utab_result
add_addr(struct cfg_utab *t, enum cfg_transport tr, unsigned int line,
    const char *key, const char *value, char *msg, size_t len)
{
	char sbuf[CFG_SHOW_MAX + 4], abuf[INET6_ADDRSTRLEN];
	struct cfg_uaddr a, *p;
	const char *why;
	size_t i;

	if ((why = cfg_uaddr_parse(tr, value, &a)) != NULL) {
		snprintf(msg, len, "bad value '%s' for key '%s': %s%s",
		    cfg_show(sbuf, sizeof(sbuf), value), key, why,
		    cfg_hash_hint(value));
		return UTAB_ERR;
	}
	a.line = line;
	for (i = 0; i < t->count; i++) {
		if (t->addrs[i].transport == tr && t->addrs[i].len == a.len &&
		    memcmp(t->addrs[i].b, a.b, a.len) == 0) {
			snprintf(msg, len, "%s %s already listed in table %d at "
			    "line %u; once is enough", trans_name(tr),
			    cfg_uaddr_str(&a, abuf, sizeof(abuf)),
			    t->table_id, t->addrs[i].line);
			return UTAB_WARN;
		}
	}
	if (t->count >= CFG_UTAB_ADDRS_MAX) {
		snprintf(msg, len, "too many addresses in table %d (max %d)",
		    t->table_id, CFG_UTAB_ADDRS_MAX);
		return UTAB_ERR;
	}
	/* Grown by powers of two up to the bound: at most 9 reallocs. */
	if ((t->count & (t->count - 1)) == 0) {
		size_t cap = t->count ? t->count * 2 : 1;

		p = reallocarray(t->addrs, cap, sizeof(*p));
		if (p == NULL) {
			snprintf(msg, len, "out of memory");
			return UTAB_ERR;
		}
		t->addrs = p;
	}
	t->addrs[t->count++] = a;
	return UTAB_OK;
}

void
utab_section(struct cfg_utabs *u)
{
	u->cur = 0;
}

enum utab_result
utab_line(struct cfg_utabs *u, const char *file, unsigned int line,
    const char *key, const char *value, char *msg, size_t len)
{
	char sbuf[CFG_SHOW_MAX + 4];
	struct cfg_utab *t;
	struct cfg_uaddr a;
	const char *why;
	size_t i;
	int v;

	for (i = 0; i < sizeof(trans_names) / sizeof(trans_names[0]); i++)
		if (strcasecmp(key, trans_names[i]) == 0)
			break;
	if (i == sizeof(trans_names) / sizeof(trans_names[0]) &&
	    strcmp(key, "table_id") != 0 &&
	    strcmp(key, "logQueryInterval") != 0 &&
	    strcmp(key, "peer_address") != 0) {
		snprintf(msg, len, "unknown key '%s' in [unicast_master_table] "
		    "(expected table_id, logQueryInterval, peer_address, "
		    "UDPv4, UDPv6 or L2)", cfg_show(sbuf, sizeof(sbuf), key));
		return UTAB_ERR;
	}
	if (value[0] == '\0') {
		snprintf(msg, len, "missing value for key '%s'", key);
		return UTAB_ERR;
	}
	if (strcmp(key, "table_id") == 0)
		return new_table(u, file, line, value, msg, len);
	if (u->cur == 0) {
		snprintf(msg, len, "key '%s' before any table_id in "
		    "[unicast_master_table] (start the table with 'table_id N')",
		    key);
		return UTAB_ERR;
	}
	t = &u->t[u->cur - 1];
	if (strcmp(key, "logQueryInterval") == 0) {
		if (cfg_parse_dec_int(key, value, INT8_MIN, INT8_MAX, &v, msg,
		    len) != 0)
			return UTAB_ERR;
		t->log_query_interval = v;
		return UTAB_OK;
	}
	if (strcmp(key, "peer_address") == 0) {
		if ((why = cfg_uaddr_parse_any(value, &a)) != NULL) {
			snprintf(msg, len, "bad value '%s' for key '%s': %s%s",
			    cfg_show(sbuf, sizeof(sbuf), value), key, why,
			    cfg_hash_hint(value));
			return UTAB_ERR;
		}
		a.line = line;
		t->peer = a;
		t->has_peer = 1;
		return UTAB_OK;
	}
	return add_addr(t, (enum cfg_transport)i, line, key, value, msg, len);
}

void
utab_free(struct cfg_utabs *u)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		free(u->t[i].addrs);
	free(u->t);
	memset(u, 0, sizeof(*u));
}

/* ---- accessors ---- */

size_t
cfg_utab_count(const struct cfg *cfg)
{
	return cfg_utabs(cfg)->n;
}

const struct cfg_utab *
cfg_utab_at(const struct cfg *cfg, size_t i)
{
	const struct cfg_utabs *u = cfg_utabs(cfg);

	return i < u->n ? &u->t[i] : NULL;
}

const struct cfg_utab *
cfg_utab_find(const struct cfg *cfg, int table_id)
{
	return utab_find(cfg_utabs(cfg), table_id);
}

const struct cfg_utab *
cfg_utab_port(const struct cfg *cfg, const char *port)
{
	int id = cfg_get_int(cfg, port, "unicast_master_table");

	return id == 0 ? NULL : cfg_utab_find(cfg, id);
}

/* "FILE:LINE: " of where the value of key for port was set. */
static void
where(const struct cfg *cfg, const char *port, const char *key, char *buf,
    size_t len)
{
	const char *file;
	unsigned int line;

	if (cfg_origin(cfg, port, key, &file, &line) != 0)
		snprintf(buf, len, "(default): ");
	else if (line == 0)
		snprintf(buf, len, "%s: ", file);
	else
		snprintf(buf, len, "%s:%u: ", file, line);
}

static int
check_addr(const struct cfg *cfg, const struct cfg_utab *t,
    const struct cfg_uaddr *a, const char *what, const char *port,
    char *why, size_t len)
{
	char abuf[INET6_ADDRSTRLEN];
	int tr = cfg_get_int(cfg, port, "network_transport");

	if ((int)a->transport == tr)
		return 0;
	snprintf(why, len, "%s:%u: %s %s %s of table %d is not reachable "
	    "from port %s, which uses network_transport %s", t->file,
	    a->line, what, trans_name(a->transport),
	    cfg_uaddr_str(a, abuf, sizeof(abuf)), t->table_id, port,
	    cfg_get_enum_name(cfg, port, "network_transport"));
	return -1;
}

static void
profile_log(void *arg, const char *msg)
{
	(void)arg;
	log_warnx("%s", msg);
}

int
cfg_utab_check(const struct cfg *cfg, char *why, size_t len)
{
	const struct cfg_utab *t;
	const char *port;
	char at[256];
	size_t i, j;
	int id;

	/* Not about the tables, but run where every daemon checks a loaded
	 * configuration (cli_validate()): the profiles' ranges. */
	(void)cfg_profile_check(cfg, profile_log, NULL);
	/* i == 0: the global value (ptp4l's default for every port). */
	for (i = 0; i <= cfg_port_count(cfg); i++) {
		port = i == 0 ? NULL : cfg_port_name(cfg, i - 1);
		id = cfg_get_int(cfg, port, "unicast_master_table");
		if (id == 0)
			continue;
		if ((t = cfg_utab_find(cfg, id)) == NULL) {
			where(cfg, port, "unicast_master_table", at,
			    sizeof(at));
			snprintf(why, len, "%sunicast_master_table %d%s%s: no "
			    "[unicast_master_table] has table_id %d", at, id,
			    port != NULL ? " of port " : "",
			    port != NULL ? port : "", id);
			return -1;
		}
		if (port == NULL)
			continue;
		/* netd admits them all as peers of the port (netd/port.c). */
		if (t->count + (t->has_peer ? 1u : 0u) > (size_t)cfg_get_int(cfg,
		    NULL, "max_unicast_peers")) {
			snprintf(why, len, "%s:%u: table %d has %zu address(es), "
			    "more than max_unicast_peers %d: port %s could not "
			    "admit them all", t->file, t->line, t->table_id,
			    t->count + (t->has_peer ? 1u : 0u),
			    cfg_get_int(cfg, NULL, "max_unicast_peers"), port);
			return -1;
		}
		if (t->has_peer && check_addr(cfg, t, &t->peer,
		    "peer_address", port, why, len) != 0)
			return -1;
		for (j = 0; j < t->count; j++)
			if (check_addr(cfg, t, &t->addrs[j], "address", port,
			    why, len) != 0)
				return -1;
	}
	return 0;
}
