/*
 * cfg.h - the configuration file shared by ptp-netd, ptp-clockd and ptpctl.
 *
 * The syntax and the key names are those of linuxptp's ptp4l.conf, so an
 * existing ptp4l.conf loads unchanged: [global] and [IFACE] sections,
 * "key value" lines, whole-line '#' comments.  Every key ptp4l knows is in
 * the table (lib/cfg_keys.c); the ones ptpsep does not implement yet load
 * with a warning, everything else that is wrong is an error naming the file,
 * the line and the key.  The library never exits: diagnostics go to a
 * callback (default: log_warnx) and are counted, so `--check-config` can
 * report all of them and exit non-zero.
 *
 * The header is cfg.h rather than config.h because autoconf's config.h is
 * included as "config.h" by every source file; a lib/config.h would shadow
 * it for the files in lib/.
 */
#ifndef PTPSEP_CFG_H
#define PTPSEP_CFG_H

#include <stddef.h>
#include <stdint.h>

struct cfg;

/* ---- the key table (read-only, for introspection and documentation) ---- */

enum cfg_type {
	CFG_T_INT,	/* int, range-checked */
	CFG_T_INT64,	/* int64_t, range-checked */
	CFG_T_DOUBLE,	/* finite double, range-checked */
	CFG_T_STRING,	/* rest of the line, optionally validated */
	CFG_T_ENUM,	/* one of named values, case-insensitive (as ptp4l) */
};

enum cfg_scope {
	CFG_SC_GLOBAL,	/* [global] only */
	CFG_SC_PORT,	/* [global] sets the default, [IFACE] overrides it */
};

enum cfg_status {
	CFG_ST_IMPLEMENTED,	/* parsed, checked and used by ptpsep */
	CFG_ST_UNIMPLEMENTED,	/* known to ptp4l, not (yet) used: warning */
};

/* cfg_key.flags */
#define CFG_KF_OWN		(1u << 0)	/* ptpsep's own key, not ptp4l's */
#define CFG_KF_DEPRECATED	(1u << 1)	/* alias that warns when used */
#define CFG_KF_PTP4L_4X		(1u << 2)	/* ptp4l >= 4.0 only, not 3.1 */

struct cfg_enum_val {
	const char *name;
	int value;
	enum cfg_status status;	/* an unimplemented value is an error */
};

struct cfg_key {
	const char *name;
	enum cfg_type type;
	enum cfg_scope scope;
	enum cfg_status status;
	unsigned int flags;
	int64_t imin, imax, idef;	/* CFG_T_INT, CFG_T_INT64, CFG_T_ENUM */
	double dmin, dmax, ddef;	/* CFG_T_DOUBLE */
	const char *sdef;		/* CFG_T_STRING; NULL: no default */
	/*
	 * CFG_T_ENUM: the allowed names.  CFG_T_INT: extra keywords accepted
	 * besides numbers (ptp4l's "ASAP").  NULL-name terminated.
	 */
	const struct cfg_enum_val *vals;
	/* CFG_T_STRING: returns NULL if valid, else why not. */
	const char *(*check)(const char *value);
	const char *alias_of;	/* this name sets/reads another key */
	const char *note;	/* appended to the "not implemented" warning */
};

size_t cfg_key_count(void);
const struct cfg_key *cfg_key_at(size_t i);
/* Exact (case-sensitive, as ptp4l) lookup; aliases are not resolved. */
const struct cfg_key *cfg_key_find(const char *name);
/*
 * The key an unknown name was probably meant to be ("did you mean"): the
 * same name in another case, or the nearest within an edit distance of 1
 * (names up to 4 characters) or 2; NULL if none.
 */
const char *cfg_key_suggest(const char *name);
/*
 * Checks the table: sorted, unique, defaults in range, aliases resolvable.
 * Returns 0, or -1 after logging what is wrong.  cfg_new() runs it once.
 */
int cfg_keys_selftest(void);

/* ---- enum values of the keys ptpsep implements ---- */

enum cfg_timestamping {
	CFG_TS_HARDWARE,
	CFG_TS_SOFTWARE,
	CFG_TS_LEGACY,
	CFG_TS_ONESTEP,
	CFG_TS_P2P1STEP,
};

enum cfg_transport {
	CFG_TRANS_UDPV4,
	CFG_TRANS_UDPV6,
	CFG_TRANS_L2,
};

enum cfg_delay_mech {
	CFG_DM_E2E,
	CFG_DM_P2P,
	CFG_DM_AUTO,
	CFG_DM_COMMON_P2P,
	CFG_DM_NONE,
};

enum cfg_servo {
	CFG_SERVO_PI,
	CFG_SERVO_LINREG,
	CFG_SERVO_NTPSHM,
	CFG_SERVO_NULLF,
	CFG_SERVO_REFCLOCK_SOCK,
	CFG_SERVO_KALMAN,	/* ptpsep's own (clockd/servo_kf.c) */
};

enum cfg_tsproc {
	CFG_TSPROC_FILTER,
	CFG_TSPROC_RAW,
	CFG_TSPROC_FILTER_WEIGHT,
	CFG_TSPROC_RAW_WEIGHT,
};

enum cfg_delay_filter {
	CFG_FILTER_MOVING_AVERAGE,
	CFG_FILTER_MOVING_MEDIAN,
};

/* system_clock_device (sync_system_clock 1) */
enum cfg_sysclk_device {
	CFG_SYSCLK_SYSTEM,	/* CLOCK_REALTIME */
	CFG_SYSCLK_VIRTUAL,	/* a second virtual clock (tests) */
};

/* ptp4l's fault_reset_interval "ASAP" */
#define CFG_FRI_ASAP		(-128)

/* clock_device, decoded */
enum cfg_clock_kind {
	CFG_CLK_SYSTEM,		/* "system": CLOCK_REALTIME */
	CFG_CLK_PHC,		/* "/dev/ptpN" */
	CFG_CLK_VIRTUAL,	/* "virtual": netd's software clock */
	CFG_CLK_AUTO,		/* "auto": see cfg_clock_auto_kind() */
};

/*
 * Decodes a clock_device value.  *phc_index is N of /dev/ptpN (else -1).
 * Returns 0, or -1 if the value is not one of the four forms.
 */
int cfg_clock_device_parse(const char *value, enum cfg_clock_kind *kind,
    int *phc_index);
/*
 * What clock_device auto stands for under a time_stamping value: the
 * ports' PHC (CFG_CLK_PHC, its index known only from the driver) for
 * every hardware mode, CFG_CLK_SYSTEM for software time stamps.
 */
enum cfg_clock_kind cfg_clock_auto_kind(int time_stamping);

/* ---- diagnostics ---- */

enum cfg_severity {
	CFG_SEV_ERROR,
	CFG_SEV_WARNING,
};

struct cfg_diag {
	enum cfg_severity severity;
	const char *file;	/* name given to the load call */
	unsigned int line;	/* 1-based; 0 when not about one line */
	const char *key;	/* NULL when not about one key */
	/* The whole message, e.g. "ptp.cfg:12: unknown key 'domianNumber'". */
	const char *text;
};

typedef void (*cfg_diag_fn)(void *arg, const struct cfg_diag *diag);

/*
 * Where diagnostics go.  fn == NULL restores the default, log_warnx() of
 * diag->text.  The callback may not call back into the same struct cfg.
 */
void cfg_set_diag(struct cfg *cfg, cfg_diag_fn fn, void *arg);

/* Totals over every load and set since cfg_new(). */
unsigned int cfg_error_count(const struct cfg *cfg);
unsigned int cfg_warning_count(const struct cfg *cfg);

/* ---- life cycle and loading ---- */

/* NULL on allocation failure or a broken key table (logged). */
struct cfg *cfg_new(void);
void cfg_free(struct cfg *cfg);

/*
 * Both return 0 if this load raised no error, -1 otherwise; warnings do not
 * fail a load.  Loading goes on after an error so that every error of the
 * file is reported (up to CFG_MAX_ERRORS per load).  Several loads layer:
 * later values override earlier ones, except for global values locked by a
 * cfg_set_*() call (the command line wins over the file, as in ptp4l).
 */
int cfg_load_file(struct cfg *cfg, const char *path);
int cfg_load_buffer(struct cfg *cfg, const char *name, const char *buf,
    size_t len);

#define CFG_LINE_MAX	1023		/* characters, without the newline */
#define CFG_FILE_MAX	(1024 * 1024)	/* bytes */
#define CFG_MAX_ERRORS	100		/* per load; then the load stops */
#define CFG_MAX_PORTS	1024

/* ---- ports ---- */

/* Linux interface name rules (dev_valid_name): 1..15 chars, no '/', ':',
 * whitespace or control character, not "." or "..".  Returns 1 if valid. */
int cfg_valid_ifname(const char *name);

/*
 * Adds a port (netd's -i) unless it exists.  Returns its index, or -1 with an
 * error diagnostic if the name is invalid or there are too many ports.
 */
int cfg_add_port(struct cfg *cfg, const char *name);
size_t cfg_port_count(const struct cfg *cfg);
/* NULL if i is out of range. */
const char *cfg_port_name(const struct cfg *cfg, size_t i);
/* Index of the port, or -1. */
int cfg_port_index(const struct cfg *cfg, const char *name);

/* ---- values ----
 *
 * port: NULL for the global value, or a port name; a port without its own
 * value (or an unknown port, or a global-only key) yields the global value.
 * Aliases (slaveOnly, masterOnly, ...) resolve to their target.
 *
 * Asking for a key that is not in the table, or with the wrong type, is a
 * programming error: it is logged and the process aborts, so the bug shows
 * on the first run instead of yielding a plausible wrong value.
 */
int cfg_get_int(const struct cfg *cfg, const char *port, const char *key);
int64_t cfg_get_int64(const struct cfg *cfg, const char *port,
    const char *key);
double cfg_get_double(const struct cfg *cfg, const char *port,
    const char *key);
/* NULL only for the few ptp4l strings without default (message_tag, ...). */
const char *cfg_get_str(const struct cfg *cfg, const char *port,
    const char *key);
/* Name of the current value of an enum key, as spelt in the table. */
const char *cfg_get_enum_name(const struct cfg *cfg, const char *port,
    const char *key);
/* 1 if the value was given by a file or a set call, 0 if it is the default. */
int cfg_is_set(const struct cfg *cfg, const char *port, const char *key);

/*
 * Command-line overrides.  Values are checked exactly as in a file (range,
 * enum, validator) and a bad one is an error diagnostic (file "command
 * line") and returns -1.  A global value set here is locked: a file loaded
 * later does not change it.  A port must exist (cfg_add_port) first.
 */
int cfg_set_int(struct cfg *cfg, const char *port, const char *key, int v);
int cfg_set_int64(struct cfg *cfg, const char *port, const char *key,
    int64_t v);
int cfg_set_double(struct cfg *cfg, const char *port, const char *key,
    double v);
int cfg_set_str(struct cfg *cfg, const char *port, const char *key,
    const char *v);
/* Parses value as the file would (ptp4l's --key=value long options). */
int cfg_set_from_string(struct cfg *cfg, const char *port, const char *key,
    const char *value);

/* ---- unicast master tables ([unicast_master_table], lib/cfg_utab.c) ----
 *
 * ptp4l's syntax: each "[unicast_master_table]" section holds lines
 *	table_id		N	(1..INT_MAX, unique; starts a table)
 *	logQueryInterval	N	(-128..127; 0 if not given, as ptp4l)
 *	peer_address		ADDR	(P2P: the peer, in the port's transport)
 *	UDPv4			a.b.c.d
 *	UDPv6			IPv6 address
 *	L2			xx:xx:xx:xx:xx:xx
 * and a port takes one with "unicast_master_table N" (0: none).  Every line
 * of the section but table_id needs a table_id before it.  An address is
 * a unicast one (no multicast, broadcast or unspecified address).
 */
#define CFG_UTAB_MAX		64	/* tables per configuration */
#define CFG_UTAB_ADDRS_MAX	256	/* master addresses per table */
#define CFG_UADDR_MAX		16

/*
 * One address: 4 (UDPv4), 16 (UDPv6) or 6 (L2) octets in network byte
 * order, the layout of netd's struct transport_addr (len, b).
 */
struct cfg_uaddr {
	enum cfg_transport transport;
	uint8_t len;
	uint8_t b[CFG_UADDR_MAX];
	unsigned int line;	/* where the file gave it */
};

struct cfg_utab {
	int table_id;		/* 1..INT_MAX */
	int log_query_interval;	/* logQueryInterval */
	int has_peer;		/* peer_address given */
	struct cfg_uaddr peer;	/* if has_peer */
	size_t count;		/* master addresses, in file order */
	struct cfg_uaddr *addrs;
	const char *file;	/* where its table_id line is */
	unsigned int line;
};

size_t cfg_utab_count(const struct cfg *cfg);
/* The tables in file order; NULL if i is out of range. */
const struct cfg_utab *cfg_utab_at(const struct cfg *cfg, size_t i);
/* NULL if no table has this table_id. */
const struct cfg_utab *cfg_utab_find(const struct cfg *cfg, int table_id);
/*
 * The table of a port (port NULL: the global value): the one its
 * unicast_master_table names, NULL for 0 (none), and NULL if that table
 * does not exist (cfg_utab_check() refuses such a configuration).
 */
const struct cfg_utab *cfg_utab_port(const struct cfg *cfg,
    const char *port);
/*
 * Cross-checks done once everything is loaded: every unicast_master_table
 * names an existing table, and every address of a port's table (and its
 * peer_address) is of the port's network_transport.  Returns 0, or -1
 * with "FILE:LINE: ..." in why.  Run by cli_validate() (lib/cli.c), so a
 * daemon refuses to start as its --check-config says.
 */
int cfg_utab_check(const struct cfg *cfg, char *why, size_t len);
/*
 * The telecom profiles' fixed values (lib/cfg_profile.c): with
 * dataset_comparison G.8275.x, a domainNumber outside G.8275.1's 24..43
 * (over L2) or G.8275.2's 44..63 (over UDP), a priority1 other than 128,
 * or a clockClass / holdover_clock_class that is none of G.8275.1 Table
 * 2's.  ptp4l takes them all, and so do we: fn (if not NULL) gets one
 * "FILE:LINE: ..." (or "... (the default)") per finding.  Returns how
 * many.
 * cfg_utab_check() runs it with log_warnx(), so that both daemons say it
 * at start and in --check-config.
 */
size_t cfg_profile_check(const struct cfg *cfg,
    void (*fn)(void *arg, const char *msg), void *arg);
/* "192.0.2.1", "2001:db8::1", "00:11:22:33:44:55"; returns buf. */
const char *cfg_uaddr_str(const struct cfg_uaddr *a, char *buf, size_t len);

/* ---- the key audit ----
 *
 * A key the table marks implemented must be read by some code, or the
 * table lies: the user sets it, gets no warning, and nothing happens.
 * Every cfg_get_*() and cfg_is_set() marks its key (an alias marks its
 * target) as queried; setting or loading a value does not.
 *
 * With CFG_AUDIT_ENV set to a file name, cfg_new() opens that file (for
 * appending, before any privilege drop or sandbox) and cfg_free() writes
 * to it the name of every key this struct cfg was asked for, one per line.
 * tests/integration/key_honesty.sh runs both daemons so and fails on an
 * implemented key that neither asked for.
 */
#define CFG_AUDIT_ENV	"PTPSEP_KEY_AUDIT"

/* 1 if some accessor asked for the key since cfg_new(). */
int cfg_key_queried(const struct cfg *cfg, const char *key);
/*
 * Calls fn (if not NULL) for every key of the table, aliases left out,
 * with the given status that was (queried 1) or was not (queried 0) asked
 * for, in table order.  Returns how many there are.
 */
size_t cfg_audit(const struct cfg *cfg, int queried, enum cfg_status status,
    void (*fn)(void *arg, const struct cfg_key *k), void *arg);

#endif /* PTPSEP_CFG_H */
