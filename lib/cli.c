/*
 * cli.c - the daemons' command line (see cli.h).
 */
#include "config.h"

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cfg.h"
#include "cli.h"
#include "leapfile.h"
#include "log.h"

static void
cli_usage(const struct cli *cli, FILE *out)
{
	fprintf(out,
	    "usage: %s [-mqh] [-f FILE]%s [-l LEVEL] [--check-config]\n"
	    "       [--KEY=VALUE ...]\n"
	    "%s\n\n"
	    "  -f FILE           configuration file (ptp4l.conf syntax)\n"
	    "%s"
	    "  -m                run in the foreground, log to stderr\n"
	    "  -q                do not log to syslog\n"
	    "  -l LEVEL          log level 3..7 (or err, warning, notice, "
	    "info, debug)\n"
	    "  --check-config    check the configuration and exit\n"
	    "  --KEY=VALUE       set configuration key KEY (overrides the "
	    "file)\n"
	    "  -h, --help        this text\n"
	    "  -v, --version     version\n",
	    cli->prog, cli->accept_iface ? " [-i IFACE ...]" : "",
	    cli->summary,
	    cli->accept_iface ?
	    "  -i IFACE          add a port (repeatable; also [IFACE] "
	    "sections)\n" : "");
}

/* Takes the value of an option from "-xVALUE", "--k=VALUE" or the next arg. */
static const char *
cli_optval(int argc, char **argv, int *i, const char *inline_val)
{
	if (inline_val != NULL)
		return inline_val;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static enum cli_result
cli_bad(const struct cli *cli, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s: %s\n", cli->prog, what, arg);
	fprintf(stderr, "try '%s --help'\n", cli->prog);
	return CLI_EXIT_USAGE;
}

enum cli_result
cli_parse(struct cli *cli, struct cfg *cfg, int argc, char **argv)
{
	const char *val;
	char key[128];
	int i, lvl;

	cli->config_file = NULL;
	cli->foreground = 0;
	cli->quiet = 0;
	cli->log_level = -1;
	cli->check_config = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			cli_usage(cli, stdout);
			return CLI_EXIT_OK;
		} else if (strcmp(a, "-v") == 0 ||
		    strcmp(a, "--version") == 0) {
			printf("%s %s\n", cli->prog, PACKAGE_VERSION);
			return CLI_EXIT_OK;
		} else if (strcmp(a, "-m") == 0) {
			cli->foreground = 1;
		} else if (strcmp(a, "-q") == 0) {
			cli->quiet = 1;
		} else if (strcmp(a, "--check-config") == 0) {
			cli->check_config = 1;
		} else if (strncmp(a, "-f", 2) == 0 && a[1] == 'f') {
			val = cli_optval(argc, argv, &i, a[2] ? a + 2 : NULL);
			if (val == NULL)
				return cli_bad(cli, "missing file after", a);
			cli->config_file = val;
		} else if (strncmp(a, "-l", 2) == 0) {
			val = cli_optval(argc, argv, &i, a[2] ? a + 2 : NULL);
			if (val == NULL || (lvl = log_level_parse(val)) < 0)
				return cli_bad(cli, "bad log level", val ? val : a);
			cli->log_level = lvl;
		} else if (strncmp(a, "-i", 2) == 0 && cli->accept_iface) {
			val = cli_optval(argc, argv, &i, a[2] ? a + 2 : NULL);
			if (val == NULL)
				return cli_bad(cli, "missing interface after", a);
			if (cfg_add_port(cfg, val) < 0)
				return cli_bad(cli, "bad interface", val);
		} else if (strncmp(a, "--", 2) == 0 && a[2] != '\0') {
			/* --KEY=VALUE or --KEY VALUE, as ptp4l's long options */
			const char *eq = strchr(a + 2, '=');
			size_t klen = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);

			if (klen == 0 || klen >= sizeof(key))
				return cli_bad(cli, "bad option", a);
			memcpy(key, a + 2, klen);
			key[klen] = '\0';
			if (cfg_key_find(key) == NULL)
				return cli_bad(cli, "unknown option", a);
			val = cli_optval(argc, argv, &i, eq ? eq + 1 : NULL);
			if (val == NULL)
				return cli_bad(cli, "missing value after", a);
			if (cfg_set_from_string(cfg, NULL, key, val) != 0)
				return cli_bad(cli, "bad value for", a);
		} else {
			return cli_bad(cli, "unknown argument", a);
		}
	}
	if (cli->config_file != NULL)
		(void)cfg_load_file(cfg, cli->config_file);
	return CLI_RUN;
}

enum cli_step
cli_step_mode(const struct cfg *cfg)
{
	/* Both read whatever they say (tests/cli/key_honesty.sh). */
	int two = cfg_get_int(cfg, NULL, "twoStepFlag");

	switch (cfg_get_int(cfg, NULL, "time_stamping")) {
	case CFG_TS_ONESTEP:
		return CLI_ONE_STEP;
	case CFG_TS_P2P1STEP:
		return CLI_P2P1STEP;
	case CFG_TS_HARDWARE:
		return two ? CLI_TWO_STEP : CLI_ONE_STEP;
	default:
		return CLI_TWO_STEP;
	}
}

/*
 * One-step (IEEE 1588-2019 11.3.2, 11.4.3) needs a NIC that writes the
 * time into the frame as it leaves: there is no such thing with software
 * time stamps.  p2p1step's one-step Pdelay_Resp needs the peer delay
 * mechanism on every port.  Whether the driver can is netd's check
 * (netd/phc.c) at start.
 */
static int
cli_check_step(const struct cfg *cfg, char *why, size_t len)
{
	int ts = cfg_get_int(cfg, NULL, "time_stamping");
	size_t i;

	if ((ts == CFG_TS_SOFTWARE || ts == CFG_TS_LEGACY) &&
	    !cfg_get_int(cfg, NULL, "twoStepFlag")) {
		snprintf(why, len, "twoStepFlag 0 with time_stamping %s: "
		    "one-step needs the NIC to write the time into the Sync "
		    "as it leaves; set time_stamping hardware (or onestep), "
		    "or twoStepFlag 1",
		    cfg_get_enum_name(cfg, NULL, "time_stamping"));
		return -1;
	}
	if (ts != CFG_TS_P2P1STEP)
		return 0;
	for (i = 0; i < cfg_port_count(cfg); i++) {
		const char *port = cfg_port_name(cfg, i);

		if (cfg_get_int(cfg, port, "delay_mechanism") == CFG_DM_P2P)
			continue;
		snprintf(why, len, "time_stamping p2p1step with "
		    "delay_mechanism %s on %s: one-step Pdelay_Resp needs "
		    "delay_mechanism P2P; set it, or time_stamping onestep",
		    cfg_get_enum_name(cfg, port, "delay_mechanism"), port);
		return -1;
	}
	return 0;
}

/*
 * Where the time stamps come from must be the clock netd disciplines:
 * clockd measures offsets in the time stamps' timescale and netd applies
 * the correction to clock_device (clock.h: the timescale of system and
 * virtual is CLOCK_REALTIME, that of /dev/ptpN the PHC's own).  auto
 * picks the matching clock (cfg_clock_auto_kind()).  What needs the
 * driver (the ports' PHC, its capabilities: netd/phc.c) is checked when
 * netd starts; this is what the file alone tells.
 */
static int
cli_check_hw(const struct cfg *cfg, char *why, size_t len)
{
	const char *dev = cfg_get_str(cfg, NULL, "clock_device");
	int ts = cfg_get_int(cfg, NULL, "time_stamping");
	enum cfg_clock_kind kind;
	int idx;

	if (cli_check_step(cfg, why, len) != 0)
		return -1;
	if (cfg_clock_device_parse(dev, &kind, &idx) != 0)
		return 0;	/* a bad value is the key table's error */
	if (ts != CFG_TS_SOFTWARE && (kind == CFG_CLK_SYSTEM ||
	    kind == CFG_CLK_VIRTUAL)) {
		snprintf(why, len, "time_stamping %s with clock_device "
		    "%s: the time stamps come from the NIC's clock (PHC) but "
		    "%s would be steered by them; set clock_device auto (the "
		    "ports' PHC) or /dev/ptpN (see ethtool -T IFACE), or "
		    "time_stamping software",
		    cfg_get_enum_name(cfg, NULL, "time_stamping"), dev,
		    kind == CFG_CLK_SYSTEM ? "the system clock" :
		    "the virtual clock (over CLOCK_REALTIME)");
		return -1;
	}
	if (ts == CFG_TS_SOFTWARE && kind == CFG_CLK_PHC) {
		snprintf(why, len, "time_stamping software with clock_device "
		    "%s: the time stamps come from the system clock but the "
		    "PHC would be steered by them; set time_stamping "
		    "hardware, or clock_device auto, system or virtual", dev);
		return -1;
	}
	return 0;
}

/*
 * Root checks the file for clockd_user (clockd reads it after dropping to
 * that user): owner, group (primary and supplementary) or other read
 * permission.  Anyone else has just read it as themselves.
 */
static int
cli_check_leap_reader(const struct cfg *cfg, const char *path, char *why,
    size_t len)
{
	const char *user = cfg_get_str(cfg, NULL, "clockd_user");
	gid_t groups[64];
	int ngroups = 64, i, ok;
	struct passwd *pw;
	struct stat st;

	if (geteuid() != 0 || user == NULL || (pw = getpwnam(user)) == NULL)
		return 0;	/* no such user: the account checks say so */
	if (stat(path, &st) != 0)
		return 0;	/* just read: gone since, clockd will say */
	if (st.st_uid == pw->pw_uid)
		ok = (st.st_mode & S_IRUSR) != 0;
	else {
		ok = (st.st_mode & S_IROTH) != 0;
		if (getgrouplist(user, pw->pw_gid, groups, &ngroups) == -1)
			ngroups = 64;	/* the first 64 */
		for (i = 0; i < ngroups && !ok; i++)
			if (groups[i] == st.st_gid)
				ok = (st.st_mode & S_IRGRP) != 0;
	}
	if (!ok) {
		snprintf(why, len, "leapfile %s: not readable by clockd_user "
		    "%s (mode %03o, uid %u, gid %u): clockd reads it as that "
		    "user", path, user, (unsigned)(st.st_mode & 0777),
		    (unsigned)st.st_uid, (unsigned)st.st_gid);
		return -1;
	}
	return 0;
}

/*
 * leapfile: the file clockd reads at start (clockd/clock_leap.c) must
 * decode, and clockd_user must be able to read it.  An expired file is
 * used (its past offsets hold): a warning.
 */
static int
cli_check_leap(const struct cfg *cfg, char *why, size_t len)
{
	const char *path = cfg_get_str(cfg, NULL, "leapfile");
	static struct leaptab tab;
	struct leapfile_err err;
	char msg[160];

	if (path == NULL || *path == '\0')
		return 0;
	if (leapfile_load(path, &tab, &err) != 0) {
		leapfile_format(&err, msg, sizeof(msg));
		snprintf(why, len, "leapfile %s: %s", path, msg);
		return -1;
	}
	if (cli_check_leap_reader(cfg, path, why, len) != 0)
		return -1;
	if (leaptab_expired(&tab, (int64_t)time(NULL))) {
		time_t t = (time_t)tab.expires_s;
		struct tm tm;
		char day[16] = "?";

		if (gmtime_r(&t, &tm) != NULL)
			strftime(day, sizeof(day), "%Y-%m-%d", &tm);
		log_warnx("leapfile %s has expired (%s): its past offsets "
		    "still hold, a leap announced since is not in it (update "
		    "the tz database)", path, day);
	}
	return 0;
}

/*
 * sync_system_clock: the system clock is a second clock beside
 * clock_device, so clock_device must not be the system clock itself (one
 * clock cannot follow itself).  The keys of the second clock without it
 * are refused, not warned about: as virtual_clock_* without clock_device
 * virtual, a setting that silently does nothing would leave a test (or an
 * operator) believing a clock is steered that is not.
 */
static int
cli_check_sysclk(const struct cfg *cfg, char *why, size_t len)
{
	const char *dev = cfg_get_str(cfg, NULL, "clock_device");
	int sync = cfg_get_int(cfg, NULL, "sync_system_clock");
	int sysdev = cfg_get_int(cfg, NULL, "system_clock_device");
	enum cfg_clock_kind kind;
	int idx;

	if (cfg_clock_device_parse(dev, &kind, &idx) != 0)
		return 0;	/* a bad value is the key table's error */
	if (kind == CFG_CLK_AUTO)
		kind = cfg_clock_auto_kind(cfg_get_int(cfg, NULL,
		    "time_stamping"));
	if (sync && kind == CFG_CLK_SYSTEM) {
		snprintf(why, len, "sync_system_clock 1 with clock_device %s: "
		    "the PTP clock is the system clock, which cannot follow "
		    "itself; use a PHC (time_stamping hardware, clock_device "
		    "auto or /dev/ptpN) or set sync_system_clock 0", dev);
		return -1;
	}
	if (!sync && sysdev != CFG_SYSCLK_SYSTEM) {
		snprintf(why, len, "system_clock_device %s applies only with "
		    "sync_system_clock 1: set it, or remove system_clock_device",
		    cfg_get_enum_name(cfg, NULL, "system_clock_device"));
		return -1;
	}
	if ((!sync || sysdev != CFG_SYSCLK_VIRTUAL) && (cfg_get_int64(cfg,
	    NULL, "virtual_system_clock_offset_ns") != 0 || cfg_get_double(cfg,
	    NULL, "virtual_system_clock_freq_ppb") != 0.0)) {
		snprintf(why, len, "virtual_system_clock_offset_ns and "
		    "virtual_system_clock_freq_ppb apply only to "
		    "sync_system_clock 1 with system_clock_device virtual: "
		    "remove them or set them to 0");
		return -1;
	}
	return 0;
}

/*
 * The unicast master tables against the ports that use them: a table
 * that does not exist, or addresses of another transport than the port's,
 * would leave a unicast client that can reach no master (ptp4l: an error
 * at start, a warning).
 */
static int
cli_check_utab(const struct cfg *cfg, char *why, size_t len)
{
	return cfg_utab_check(cfg, why, len);
}

static int
cli_check_pairs(const struct cfg *cfg, char *why, size_t len)
{
	const char *dev = cfg_get_str(cfg, NULL, "clock_device");
	enum cfg_clock_kind kind;
	int idx;

	if (cli_check_hw(cfg, why, len) != 0)
		return -1;
	if (cli_check_leap(cfg, why, len) != 0)
		return -1;
	if (cli_check_sysclk(cfg, why, len) != 0)
		return -1;
	if (cli_check_utab(cfg, why, len) != 0)
		return -1;
	if (cfg_clock_device_parse(dev, &kind, &idx) != 0)
		return 0;	/* a bad value is the key table's error */
	/* The shipped ptpsep.conf sets both to 0 with system: allowed. */
	if (kind != CFG_CLK_VIRTUAL && (cfg_get_int64(cfg, NULL,
	    "virtual_clock_offset_ns") != 0 || cfg_get_double(cfg, NULL,
	    "virtual_clock_freq_ppb") != 0.0)) {
		snprintf(why, len, "virtual_clock_offset_ns and "
		    "virtual_clock_freq_ppb apply only to clock_device "
		    "virtual, not %s: remove them or set them to 0", dev);
		return -1;
	}
	return 0;
}

int
cli_validate(const struct cli *cli, const struct cfg *cfg, char *why,
    size_t len)
{
	if (cli_check_pairs(cfg, why, len) != 0)
		return -1;
	if (cli->check != NULL && cli->check(cfg, why, len) != 0)
		return -1;
	return 0;
}

int
cli_check_config_verdict(const struct cli *cli, const struct cfg *cfg)
{
	unsigned int errs = cfg_error_count(cfg);
	unsigned int warns = cfg_warning_count(cfg);
	char why[512];

	if (errs > 0) {
		fprintf(stderr, "%s: configuration %s: %u error(s), "
		    "%u warning(s)\n", cli->prog,
		    cli->config_file ? cli->config_file : "(none)", errs,
		    warns);
		return 1;
	}
	if (cli_validate(cli, cfg, why, sizeof(why)) != 0) {
		/* The line the daemon would log before exiting. */
		fprintf(stderr, "%s: %s\n", cli->prog, why);
		fprintf(stderr, "%s: configuration %s refused\n", cli->prog,
		    cli->config_file ? cli->config_file : "(defaults)");
		return 1;
	}
	printf("%s: configuration %s OK (%u warning(s), %zu port(s))\n",
	    cli->prog, cli->config_file ? cli->config_file : "(defaults)",
	    warns, cfg_port_count(cfg));
	return 0;
}
