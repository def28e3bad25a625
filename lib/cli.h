/*
 * cli.h - the command line shared by ptp-netd and ptp-clockd.
 *
 * Options follow ptp4l where they mean the same (-f, -i, -m, -l, -q) and,
 * as ptp4l does, every configuration key is also a long option
 * (--domainNumber=24, --netd_socket=/tmp/x): such a value overrides the file.
 */
#ifndef PTPSEP_CLI_H
#define PTPSEP_CLI_H

#include <stddef.h>

struct cfg;

/*
 * A daemon's own checks of a loaded configuration (netd: its clock
 * bounds): 0, or -1 with a message in why.
 */
typedef int (*cli_check_fn)(const struct cfg *cfg, char *why, size_t len);

struct cli {
	const char *prog;	/* program name for messages */
	const char *summary;	/* one line for --help */
	int accept_iface;	/* -i IFACE allowed (netd) */
	cli_check_fn check;	/* the daemon's own checks, or NULL */
	/* results */
	const char *config_file;
	int foreground;		/* -m: log to stderr */
	int quiet;		/* -q: no syslog */
	int log_level;		/* -l N; -1 when not given */
	int check_config;	/* --check-config */
};

enum cli_result {
	CLI_RUN = 0,		/* go on */
	CLI_EXIT_OK = 1,	/* --help or --version printed */
	CLI_EXIT_USAGE = 2,	/* bad usage, message printed */
};

/*
 * Parses argv into cli and cfg (ports from -i, key overrides from long
 * options), then loads cli->config_file if given.  Errors in the file are
 * reported through cfg's diagnostics; the caller decides with
 * cfg_error_count().
 */
enum cli_result cli_parse(struct cli *cli, struct cfg *cfg, int argc,
    char **argv);

/*
 * Everything a daemon refuses at start beyond the key table's ranges:
 * pairs of keys that contradict each other (time_stamping against
 * clock_device), then cli->check.  Returns 0, or -1 with a message in
 * why.  The daemon's start and --check-config both call it, so that
 * --check-config says exactly what the daemon would.
 */
int cli_validate(const struct cli *cli, const struct cfg *cfg, char *why,
    size_t len);

/*
 * How event messages leave a clock with hardware time stamps, after
 * ptp4l's harmonisation of time_stamping and twoStepFlag: time_stamping
 * onestep or p2p1step imply twoStepFlag 0, and hardware with twoStepFlag
 * 0 means onestep.  ONE_STEP: the NIC writes the Sync's originTimestamp
 * (HWTSTAMP_TX_ONESTEP_SYNC); P2P1STEP: also the Pdelay_Resp's
 * correctionField (HWTSTAMP_TX_ONESTEP_P2P).  The pairs it cannot mean
 * (software or legacy with twoStepFlag 0, p2p1step without P2P) are
 * cli_validate()'s refusals.
 */
enum cli_step {
	CLI_TWO_STEP,
	CLI_ONE_STEP,
	CLI_P2P1STEP,
};
enum cli_step cli_step_mode(const struct cfg *cfg);

/*
 * The end of --check-config: runs cli_validate() on a configuration
 * without errors, prints a verdict line (the refusal's message on
 * stderr) and returns the exit status (0 OK, 1 refused).
 */
int cli_check_config_verdict(const struct cli *cli, const struct cfg *cfg);

#endif /* PTPSEP_CLI_H */
