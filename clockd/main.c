/*
 * ptp-clockd - the unprivileged PTP engine.
 *
 * This version checks its configuration (--check-config) and stops there:
 * the port state machines, BMCA and servo come with the clockd issue.  It
 * says so instead of pretending to run.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cfg.h"
#include "cli.h"
#include "log.h"

int
main(int argc, char **argv)
{
	struct cli cli = {
		.prog = "ptp-clockd",
		.summary = "The unprivileged PTP engine of ptpsep.",
		.accept_iface = 0,
	};
	struct cfg *cfg;
	enum cli_result r;
	int rc;

	log_init("clockd", 1, LOG_LVL_INFO);
	if ((cfg = cfg_new()) == NULL)
		fatalx("cannot set up the configuration");
	r = cli_parse(&cli, cfg, argc, argv);
	if (r != CLI_RUN) {
		cfg_free(cfg);
		return r == CLI_EXIT_OK ? 0 : 2;
	}
	if (cli.check_config) {
		rc = cli_check_config_verdict(&cli, cfg);
		cfg_free(cfg);
		return rc;
	}
	if (cfg_error_count(cfg) > 0) {
		cfg_free(cfg);
		fatalx("configuration has errors; see above");
	}
	cfg_free(cfg);
	fatalx("the PTP engine is not implemented in this version "
	    "(only --check-config works)");
}
