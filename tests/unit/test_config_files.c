/*
 * test_config_files.c - whole configurations: linuxptp's own files as
 * Debian installs them (skipped without them), one-step as ptp4l
 * harmonises it (cli_step_mode(), cli_validate()), and the telecom
 * profiles' range warnings (lib/cfg_profile.c).
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "config_fixture.h"

#define LINUXPTP_CONFIGS "/usr/share/doc/linuxptp/configs"

/* ---- linuxptp's own files ---- */

static int
has_linuxptp_configs(void)
{
	return access(LINUXPTP_CONFIGS "/default.cfg", R_OK) == 0;
}

static void
test_linuxptp_default_cfg(void **state)
{
	struct cfg *cfg;
	unsigned int i, named = 0;

	(void)state;
	if (!has_linuxptp_configs()) {
		print_message("linuxptp not installed, skipped\n");
		skip();
	}
	cfg = new_cfg();
	assert_int_equal(cfg_load_file(cfg, LINUXPTP_CONFIGS "/default.cfg"),
	    0);
	assert_int_equal(cfg_error_count(cfg), 0);
	assert_true(cfg_warning_count(cfg) >= 1);
	for (i = 0; i < diags.n; i++) {
		assert_int_equal(diags.d[i].sev, CFG_SEV_WARNING);
		if (strstr(diags.d[i].text, "default.cfg:7: warning: key "
		    "'socket_priority' is known to ptp4l but not implemented") &&
		    strcmp(diags.d[i].key, "socket_priority") == 0)
			named = 1;
	}
	assert_true(named);
	/* Its values are the defaults, so nothing changed. */
	assert_int_equal(cfg_get_int(cfg, NULL, "clockAccuracy"), 0xfe);
	assert_int_equal(cfg_get_int(cfg, NULL, "offsetScaledLogVariance"),
	    0xffff);
	assert_int_equal(cfg_get_int(cfg, NULL, "time_stamping"),
	    CFG_TS_HARDWARE);
	cfg_free(cfg);
}

static void
test_linuxptp_all_configs(void **state)
{
	char path[512];
	struct dirent *de;
	struct cfg *cfg;
	DIR *dir;
	int n = 0;

	(void)state;
	if (!has_linuxptp_configs())
		skip();
	dir = opendir(LINUXPTP_CONFIGS);
	assert_non_null(dir);
	while ((de = readdir(dir)) != NULL) {
		size_t len = strlen(de->d_name);

		if (len < 5 || strcmp(de->d_name + len - 4, ".cfg") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", LINUXPTP_CONFIGS,
		    de->d_name);
		cfg = new_cfg();
		if (cfg_load_file(cfg, path) != 0 || cfg_error_count(cfg))
			fail_msg("%s: %u errors", path, cfg_error_count(cfg));
		cfg_free(cfg);
		n++;
	}
	closedir(dir);
	assert_true(n >= 10);
}

/* ---- one-step ---- */

/*
 * One-step as ptp4l harmonises it: onestep/p2p1step imply twoStepFlag 0,
 * hardware with twoStepFlag 0 is onestep; software with twoStepFlag 0 and
 * p2p1step without P2P are refused by cli_validate() with a reason.
 */
static void
test_step_harmonise(void **state)
{
	static const struct {
		const char	*text;
		enum cli_step	 step;
		const char	*refusal;	/* NULL: accepted */
	} t[] = {
		{ "[global]\n", CLI_TWO_STEP, NULL },
		{ "[global]\ntwoStepFlag 0\n", CLI_ONE_STEP, NULL },
		{ "[global]\ntime_stamping onestep\n", CLI_ONE_STEP, NULL },
		{ "[global]\ntime_stamping onestep\ntwoStepFlag 1\n",
		    CLI_ONE_STEP, NULL },
		{ "[global]\ntime_stamping p2p1step\n[eth0]\n"
		    "delay_mechanism P2P\n", CLI_P2P1STEP, NULL },
		{ "[global]\ntime_stamping software\ntwoStepFlag 0\n",
		    CLI_TWO_STEP, "twoStepFlag 0 with time_stamping software: "
		    "one-step needs the NIC to write the time into the Sync "
		    "as it leaves; set time_stamping hardware (or onestep), "
		    "or twoStepFlag 1" },
		{ "[global]\ntime_stamping software\n", CLI_TWO_STEP, NULL },
		{ "[global]\ntime_stamping p2p1step\n[eth0]\n",
		    CLI_P2P1STEP, "time_stamping p2p1step with delay_mechanism "
		    "E2E on eth0: one-step Pdelay_Resp needs delay_mechanism "
		    "P2P; set it, or time_stamping onestep" },
		{ "[global]\ntime_stamping p2p1step\n[eth0]\n"
		    "delay_mechanism P2P\n[eth1]\ndelay_mechanism E2E\n",
		    CLI_P2P1STEP, "time_stamping p2p1step with delay_mechanism "
		    "E2E on eth1: one-step Pdelay_Resp needs delay_mechanism "
		    "P2P; set it, or time_stamping onestep" },
		/* The hardware pair checks still apply to one-step. */
		{ "[global]\ntime_stamping onestep\nclock_device system\n",
		    CLI_ONE_STEP, "time_stamping onestep with clock_device "
		    "system: the time stamps come from the NIC's clock (PHC)" },
	};
	struct cli cli = { .prog = "t" };
	char why[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct cfg *cfg = new_cfg();

		assert_int_equal(load(cfg, t[i].text), 0);
		assert_int_equal(cfg_error_count(cfg), 0);
		assert_int_equal(cli_step_mode(cfg), t[i].step);
		why[0] = '\0';
		if (t[i].refusal == NULL) {
			if (cli_validate(&cli, cfg, why, sizeof(why)) != 0)
				fail_msg("case %zu refused: %s", i, why);
		} else {
			assert_int_equal(cli_validate(&cli, cfg, why,
			    sizeof(why)), -1);
			if (strncmp(why, t[i].refusal,
			    strlen(t[i].refusal)) != 0)
				fail_msg("case %zu: %s", i, why);
		}
		cfg_free(cfg);
	}
}

/* ---- the telecom profiles' ranges (lib/cfg_profile.c) ---- */

struct prof_msgs {
	size_t n;
	char m[8][256];
};

static void
prof_collect(void *arg, const char *msg)
{
	struct prof_msgs *pm = arg;

	if (pm->n < 8)
		snprintf(pm->m[pm->n], sizeof(pm->m[0]), "%s", msg);
	pm->n++;
}

/* Loads text, returns how many profile findings, first message in pm. */
static size_t
prof_check(const char *text, struct prof_msgs *pm)
{
	struct cfg *cfg = new_cfg();
	size_t n;

	memset(pm, 0, sizeof(*pm));
	assert_int_equal(load(cfg, text), 0);
	n = cfg_profile_check(cfg, prof_collect, pm);
	assert_int_equal(n, pm->n);
	cfg_free(cfg);
	return n;
}

static void
test_profile_ranges(void **state)
{
	struct prof_msgs pm;

	(void)state;
	/* The default profile: nothing is checked. */
	assert_int_equal(prof_check("[global]\ndomainNumber 100\n"
	    "priority1 1\nclockClass 52\n", &pm), 0);
	/* G.8275.1 (L2): domain 24..43, priority1 128. */
	assert_int_equal(prof_check("[global]\ndataset_comparison G.8275.x\n"
	    "network_transport L2\ndomainNumber 24\n", &pm), 0);
	assert_int_equal(prof_check("[global]\ndataset_comparison G.8275.x\n"
	    "network_transport L2\ndomainNumber 43\nclockClass 6\n"
	    "holdover_clock_class 7\n", &pm), 0);
	assert_int_equal(prof_check("[global]\ndataset_comparison G.8275.x\n"
	    "network_transport L2\n", &pm), 1);
	assert_string_equal(pm.m[0], "domainNumber 0 is outside G.8275.1's "
	    "range 24..43 (default 24; ITU-T G.8275.1 Annex A); ptp4l takes "
	    "it, and so do we (the default)");
	assert_int_equal(prof_check("[global]\ndataset_comparison G.8275.x\n"
	    "network_transport L2\ndomainNumber 44\npriority1 100\n", &pm),
	    2);
	assert_non_null(strstr(pm.m[0], "t.cfg:4: domainNumber 44 is outside "
	    "G.8275.1's range 24..43"));
	assert_non_null(strstr(pm.m[1], "t.cfg:5: priority1 100: G.8275.1 "
	    "fixes it at 128"));
	/* G.8275.2 (UDP): domain 44..63. */
	assert_int_equal(prof_check("[global]\ndataset_comparison G.8275.x\n"
	    "domainNumber 44\n", &pm), 0);
	assert_int_equal(prof_check("[global]\ndataset_comparison G.8275.x\n"
	    "network_transport UDPv6\ndomainNumber 63\n", &pm), 0);
	assert_int_equal(prof_check("[global]\ndataset_comparison G.8275.x\n"
	    "domainNumber 24\n", &pm), 1);
	assert_non_null(strstr(pm.m[0], "outside G.8275.2's range 44..63"));
	/* clockClass: G.8275.1 Table 2's only; a client's is not checked
	 * (it announces 255); holdover_clock_class 0 is "none". */
	assert_int_equal(prof_check("[global]\ndataset_comparison G.8275.x\n"
	    "domainNumber 44\nclockClass 52\nholdover_clock_class 100\n",
	    &pm), 2);
	assert_non_null(strstr(pm.m[0], "t.cfg:4: clockClass 52 is not a "
	    "clockClass of G.8275.2"));
	assert_non_null(strstr(pm.m[1], "t.cfg:5: holdover_clock_class 100"));
	assert_int_equal(prof_check("[global]\ndataset_comparison G.8275.x\n"
	    "domainNumber 44\nclientOnly 1\n", &pm), 0);
	assert_int_equal(prof_check("[global]\ndataset_comparison G.8275.x\n"
	    "domainNumber 44\nclockClass 165\nholdover_clock_class 135\n",
	    &pm), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linuxptp_default_cfg),
		cmocka_unit_test(test_linuxptp_all_configs),
		cmocka_unit_test(test_step_harmonise),
		cmocka_unit_test(test_profile_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
