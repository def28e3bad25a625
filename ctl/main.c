/*
 * ptpctl - query and steer ptp-netd and ptp-clockd.
 *
 * This version knows its options and reads the socket paths from the
 * configuration file; the control protocol itself comes with the ptpctl
 * issue, so every command reports that it is not available yet.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "log.h"

static void
ctl_usage(FILE *out)
{
	fprintf(out,
	    "usage: ptpctl [-h] [-v] [-f FILE] [--json] COMMAND [ARGS]\n"
	    "Query and steer ptp-netd and ptp-clockd.\n\n"
	    "  -f FILE     take the socket paths from this configuration file\n"
	    "  --json      machine-readable output\n"
	    "commands: status, ports, datasets, foreign, netd, set, watch, "
	    "metrics\n");
}

int
main(int argc, char **argv)
{
	const char *file = NULL, *cmd = NULL;
	struct cfg *cfg;
	int i;

	log_init("ptpctl", 1, LOG_LVL_WARN);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			ctl_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-v") ||
		    !strcmp(argv[i], "--version")) {
			printf("ptpctl %s\n", PACKAGE_VERSION);
			return 0;
		} else if (!strcmp(argv[i], "-f") && i + 1 < argc) {
			file = argv[++i];
		} else if (!strcmp(argv[i], "--json")) {
			continue;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "ptpctl: unknown option %s\n", argv[i]);
			return 2;
		} else {
			cmd = argv[i];
			break;
		}
	}
	if (cmd == NULL) {
		ctl_usage(stderr);
		return 2;
	}
	if ((cfg = cfg_new()) == NULL)
		return 1;
	if (file != NULL && cfg_load_file(cfg, file) != 0) {
		cfg_free(cfg);
		return 2;
	}
	fprintf(stderr, "ptpctl: '%s' is not available in this version: the "
	    "control protocol (%s, %s) is not served yet\n", cmd,
	    cfg_get_str(cfg, NULL, "netd_ctl_socket"),
	    cfg_get_str(cfg, NULL, "clockd_ctl_socket"));
	cfg_free(cfg);
	return 1;
}
