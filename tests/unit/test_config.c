/* test_config.c - the configuration parser (lib/cfg.c, lib/cfg_keys.c). */
#include "config.h"

#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "cfg.h"
#include "cli.h"
#include "log.h"

#define LINUXPTP_CONFIGS "/usr/share/doc/linuxptp/configs"

/* ---- capturing diagnostics ---- */

#define MAX_DIAGS 256

struct diags {
	unsigned int n;
	struct {
		enum cfg_severity sev;
		unsigned int line;
		char key[128];
		char text[1024];
	} d[MAX_DIAGS];
};

static void
collect(void *arg, const struct cfg_diag *d)
{
	struct diags *ds = arg;

	if (ds->n >= MAX_DIAGS)
		return;
	ds->d[ds->n].sev = d->severity;
	ds->d[ds->n].line = d->line;
	snprintf(ds->d[ds->n].key, sizeof(ds->d[0].key), "%s",
	    d->key ? d->key : "");
	snprintf(ds->d[ds->n].text, sizeof(ds->d[0].text), "%s", d->text);
	ds->n++;
}

static struct diags diags;

static struct cfg *
new_cfg(void)
{
	struct cfg *cfg = cfg_new();

	assert_non_null(cfg);
	memset(&diags, 0, sizeof(diags));
	cfg_set_diag(cfg, collect, &diags);
	return cfg;
}

static int
load(struct cfg *cfg, const char *text)
{
	return cfg_load_buffer(cfg, "t.cfg", text, strlen(text));
}

/* Asserts one diagnostic with exactly this text was reported. */
static void
assert_diag(const char *text)
{
	unsigned int i;

	for (i = 0; i < diags.n; i++)
		if (strcmp(diags.d[i].text, text) == 0)
			return;
	for (i = 0; i < diags.n; i++)
		print_message("  got: %s\n", diags.d[i].text);
	fail_msg("no diagnostic '%s'", text);
}

/* Loads text, expects one error with this text. */
static void
expect_one_error(const char *cfgtext, const char *msg)
{
	struct cfg *cfg = new_cfg();

	assert_int_equal(load(cfg, cfgtext), -1);
	assert_diag(msg);
	assert_int_equal(cfg_error_count(cfg), 1);
	cfg_free(cfg);
}

/* ---- the table ---- */

static void
test_table_selftest(void **state)
{
	(void)state;
	assert_int_equal(cfg_keys_selftest(), 0);
	assert_true(cfg_key_count() > 150);
}

/* Every key of ptp4l 3.1.1's config_tab (from `ptp4l --KEY=...`). */
static const char *const ptp4l_311_keys[] = {
	"announceReceiptTimeout", "asCapable", "assume_two_step",
	"boundary_clock_jbod", "BMCA", "check_fup_sync", "clockAccuracy",
	"clockClass", "clockIdentity", "clock_servo", "clock_type",
	"dataset_comparison", "delayAsymmetry", "delay_filter",
	"delay_filter_length", "delay_mechanism", "dscp_event",
	"dscp_general", "domainNumber", "egressLatency",
	"fault_badpeernet_interval", "fault_reset_interval",
	"first_step_threshold", "follow_up_info", "free_running",
	"freq_est_interval", "G.8275.defaultDS.localPriority",
	"G.8275.portDS.localPriority", "gmCapable", "hwts_filter",
	"hybrid_e2e", "ignore_source_id", "ignore_transport_specific",
	"ingressLatency", "inhibit_announce", "inhibit_delay_req",
	"inhibit_multicast_service", "initial_delay", "kernel_leap",
	"leapfile", "logAnnounceInterval", "logMinDelayReqInterval",
	"logMinPdelayReqInterval", "logSyncInterval", "logging_level",
	"masterOnly", "maxStepsRemoved", "message_tag",
	"manufacturerIdentity", "max_frequency", "min_neighbor_prop_delay",
	"msg_interval_request", "neighborPropDelayThresh",
	"net_sync_monitor", "network_transport", "ntpshm_segment",
	"offsetScaledLogVariance", "operLogPdelayReqInterval",
	"operLogSyncInterval", "path_trace_enabled", "pi_integral_const",
	"pi_integral_exponent", "pi_integral_norm_max", "pi_integral_scale",
	"pi_proportional_const", "pi_proportional_exponent",
	"pi_proportional_norm_max", "pi_proportional_scale", "priority1",
	"priority2", "productDescription", "ptp_dst_mac", "p2p_dst_mac",
	"revisionData", "sanity_freq_limit", "servo_num_offset_values",
	"servo_offset_threshold", "slave_event_monitor", "slaveOnly",
	"socket_priority", "step_threshold", "summary_interval",
	"syncReceiptTimeout", "tc_spanning_tree", "timeSource",
	"time_stamping", "transportSpecific", "ts2phc.channel",
	"ts2phc.extts_correction", "ts2phc.extts_polarity", "ts2phc.master",
	"ts2phc.nmea_remote_host", "ts2phc.nmea_remote_port",
	"ts2phc.nmea_serialport", "ts2phc.pin_index", "ts2phc.pulsewidth",
	"tsproc_mode", "twoStepFlag", "tx_timestamp_timeout", "udp_ttl",
	"udp6_scope", "uds_address", "unicast_listen", "unicast_master_table",
	"unicast_req_duration", "use_syslog", "userDescription", "utc_offset",
	"verbose", "write_phase_mode",
	/* config-file-only deprecated names */
	"pi_offset_const", "pi_f_offset_const", "pi_max_frequency",
};

static void
test_table_has_ptp4l_keys(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(sizeof(ptp4l_311_keys) / sizeof(ptp4l_311_keys[0]),
	    113);
	for (i = 0; i < sizeof(ptp4l_311_keys) / sizeof(ptp4l_311_keys[0]);
	    i++) {
		if (cfg_key_find(ptp4l_311_keys[i]) == NULL)
			fail_msg("ptp4l key %s missing", ptp4l_311_keys[i]);
	}
}

static void
test_implemented_keys(void **state)
{
	static const char *const impl[] = {
		"domainNumber", "priority1", "priority2", "clockClass",
		"clockAccuracy", "offsetScaledLogVariance", "clientOnly",
		"free_running", "logAnnounceInterval", "logSyncInterval",
		"logMinDelayReqInterval", "logMinPdelayReqInterval",
		"announceReceiptTimeout", "syncReceiptTimeout",
		"delay_mechanism", "network_transport", "time_stamping",
		"twoStepFlag", "serverOnly", "udp_ttl", "dscp_event",
		"dscp_general", "udp6_scope", "step_threshold",
		"first_step_threshold", "max_frequency", "clock_servo",
		"pi_proportional_const", "pi_integral_const",
		"pi_proportional_scale", "pi_proportional_exponent",
		"pi_proportional_norm_max", "pi_integral_scale",
		"pi_integral_exponent", "pi_integral_norm_max",
		"summary_interval", "tx_timestamp_timeout",
		"fault_reset_interval", "verbose",
		"logging_level", "use_syslog", "message_tag",
		"ptp_dst_mac", "p2p_dst_mac", "neighborPropDelayThresh",
		"min_neighbor_prop_delay", "delayAsymmetry",
		"delay_filter", "delay_filter_length", "sanity_freq_limit",
		"timeSource", "utc_offset",
		/* own */
		"clock_device", "virtual_clock_offset_ns",
		"virtual_clock_freq_ppb", "netd_socket", "netd_ctl_socket",
		"clockd_ctl_socket", "pmc_socket", "netd_user", "clockd_user",
		"admin_group", "max_freq_ppb", "allow_step",
		"max_steps_per_interval", "step_limit_interval", "max_step_ns",
	};
	const struct cfg_key *k;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(impl) / sizeof(impl[0]); i++) {
		k = cfg_key_find(impl[i]);
		assert_non_null(k);
		if (k->status != CFG_ST_IMPLEMENTED)
			fail_msg("%s not implemented", impl[i]);
	}
	assert_true(cfg_key_find("clock_device")->flags & CFG_KF_OWN);
	assert_false(cfg_key_find("domainNumber")->flags & CFG_KF_OWN);
}

/*
 * Keys nothing in ptpsep acts on are marked so, and setting one warns
 * (issue 11: they used to be marked implemented and load silently).
 */
static void
test_unimplemented_keys_warn(void **state)
{
	static const char *const unimpl[] = {
		"follow_up_info", "gmCapable", "path_trace_enabled",
		"tsproc_mode",
	};
	struct cfg *cfg = new_cfg();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(unimpl) / sizeof(unimpl[0]); i++)
		if (cfg_key_find(unimpl[i])->status != CFG_ST_UNIMPLEMENTED)
			fail_msg("%s marked implemented", unimpl[i]);
	assert_int_equal(load(cfg, "[global]\nfollow_up_info 1\n"
	    "gmCapable 0\npath_trace_enabled 1\ntsproc_mode raw\n"), 0);
	assert_int_equal(cfg_warning_count(cfg), 4);
	assert_non_null(strstr(diags.d[1].text,
	    "key 'gmCapable' is known to ptp4l but not implemented"));
	cfg_free(cfg);
}

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

/* ---- errors ---- */

static void
test_unknown_key(void **state)
{
	(void)state;
	expect_one_error("[global]\n# typo\ndomianNumber 3\n",
	    "t.cfg:3: unknown key 'domianNumber' "
	    "(did you mean 'domainNumber'?)");
	assert_int_equal(diags.d[0].sev, CFG_SEV_ERROR);
	assert_int_equal(diags.d[0].line, 3);
	assert_string_equal(diags.d[0].key, "domianNumber");
	expect_one_error("[global]\nnoSuchThingAtAll 3\n",
	    "t.cfg:2: unknown key 'noSuchThingAtAll'");
	/* Keys are case-sensitive, as in ptp4l. */
	expect_one_error("[global]\nDomainNumber 3\n",
	    "t.cfg:2: unknown key 'DomainNumber' "
	    "(did you mean 'domainNumber'?)");
}

static void
test_out_of_range(void **state)
{
	(void)state;
	expect_one_error("[global]\ndomainNumber 128\n",
	    "t.cfg:2: value '128' for key 'domainNumber' is out of range "
	    "[0, 127]");
	expect_one_error("[global]\nlogSyncInterval -129\n",
	    "t.cfg:2: value '-129' for key 'logSyncInterval' is out of range "
	    "[-128, 127]");
	expect_one_error("[global]\ndelayAsymmetry 99999999999999999999\n",
	    "t.cfg:2: value '99999999999999999999' for key 'delayAsymmetry' "
	    "is out of range [-2147483648, 2147483647]");
	expect_one_error("[global]\npi_proportional_norm_max 1.5\n",
	    "t.cfg:2: value '1.5' for key 'pi_proportional_norm_max' is out "
	    "of range [2.22507e-308, 1]");
	expect_one_error("[global]\nstep_threshold 1e999\n",
	    "t.cfg:2: value '1e999' for key 'step_threshold' is out of range "
	    "[0, 1.79769e+308]");
	expect_one_error("[global]\nvirtual_clock_freq_ppb 1000001\n",
	    "t.cfg:2: value '1000001' for key 'virtual_clock_freq_ppb' is out "
	    "of range [-1e+06, 1e+06]");
}

static void
test_bad_enum(void **state)
{
	(void)state;
	expect_one_error("[global]\ntime_stamping magic\n",
	    "t.cfg:2: bad value 'magic' for key 'time_stamping': expected one "
	    "of hardware, software, legacy, onestep, p2p1step");
	/* Known to ptp4l, not supported here: an error, not a warning. */
	expect_one_error("[global]\nclock_servo ntpshm\n",
	    "t.cfg:2: value 'ntpshm' of key 'clock_servo' is known to ptp4l "
	    "but not supported by ptpsep");
	/* Unimplemented key: any ptp4l value is fine, with a warning. */
	{
		struct cfg *cfg = new_cfg();

		assert_int_equal(load(cfg, "[global]\nclock_type E2E_TC\n"),
		    0);
		assert_int_equal(cfg_warning_count(cfg), 1);
		assert_int_equal(load(cfg, "[global]\nclock_type XX\n"), -1);
		cfg_free(cfg);
	}
}

static void
test_bad_number(void **state)
{
	(void)state;
	expect_one_error("[global]\npriority1 12x\n",
	    "t.cfg:2: bad value '12x' for key 'priority1': not an integer");
	expect_one_error("[global]\npriority1 0x\n",
	    "t.cfg:2: bad value '0x' for key 'priority1': not an integer");
	expect_one_error("[global]\nstep_threshold abc\n",
	    "t.cfg:2: bad value 'abc' for key 'step_threshold': not a number");
	expect_one_error("[global]\nstep_threshold nan\n",
	    "t.cfg:2: bad value 'nan' for key 'step_threshold': not a finite "
	    "number");
	expect_one_error("[global]\nstep_threshold -inf\n",
	    "t.cfg:2: bad value '-inf' for key 'step_threshold': not a finite "
	    "number");
	/* ptp4l keeps a trailing comment in the value, and so do we. */
	expect_one_error("[global]\ndomainNumber 1 # primary\n",
	    "t.cfg:2: bad value '1 # primary' for key 'domainNumber': not an "
	    "integer (a '#' comment must be on a line of its own)");
	expect_one_error("[global]\nptp_dst_mac 01:1B:19:00:00\n",
	    "t.cfg:2: bad value '01:1B:19:00:00' for key 'ptp_dst_mac': not "
	    "a MAC address (xx:xx:xx:xx:xx:xx)");
	expect_one_error("[global]\ndomainNumber\n",
	    "t.cfg:2: missing value for key 'domainNumber'");
	expect_one_error("[global]\nmessage_tag   \n",
	    "t.cfg:2: missing value for key 'message_tag'");
}

static void
test_numbers_as_ptp4l(void **state)
{
	struct cfg *cfg = new_cfg();

	(void)state;
	/* strtol base 0: hex and octal, as ptp4l's get_ranged_int(). */
	assert_int_equal(load(cfg, "[global]\nclockAccuracy 0x21\n"
	    "domainNumber 010\npriority1 +7\nstep_threshold 1e-3\n"
	    "fault_reset_interval asap\n"), 0);
	assert_int_equal(cfg_get_int(cfg, NULL, "clockAccuracy"), 0x21);
	assert_int_equal(cfg_get_int(cfg, NULL, "domainNumber"), 8);
	assert_int_equal(cfg_get_int(cfg, NULL, "priority1"), 7);
	assert_true(cfg_get_double(cfg, NULL, "step_threshold") == 1e-3);
	assert_int_equal(cfg_get_int(cfg, NULL, "fault_reset_interval"),
	    CFG_FRI_ASAP);
	cfg_free(cfg);
}

static void
test_key_before_section(void **state)
{
	(void)state;
	expect_one_error("# comment\n\ndomainNumber 1\n[global]\n",
	    "t.cfg:3: key 'domainNumber' outside of any section (start the "
	    "file with [global] or [IFACE])");
}

static void
test_scope(void **state)
{
	struct cfg *cfg;

	(void)state;
	expect_one_error("[global]\n[eth0]\ndomainNumber 1\n",
	    "t.cfg:3: key 'domainNumber' is global-only and cannot be set "
	    "in section [eth0]");
	expect_one_error("[eth0]\nclock_device virtual\n",
	    "t.cfg:2: key 'clock_device' is global-only and cannot be set "
	    "in section [eth0]");
	/* ptp4l has no port-only key: every port key is a global default. */
	cfg = new_cfg();
	assert_int_equal(load(cfg, "[global]\nlogSyncInterval -3\n"), 0);
	cfg_free(cfg);
}

static void
test_bad_sections(void **state)
{
	(void)state;
	expect_one_error("[eth0\nlogSyncInterval 1\n",
	    "t.cfg:1: bad section header '[eth0': missing ']'");
	expect_one_error("[]\nlogSyncInterval 1\n",
	    "t.cfg:1: empty section name");
	expect_one_error("[eth0 eth1]\nlogSyncInterval 1\n",
	    "t.cfg:1: bad section name 'eth0 eth1'");
	expect_one_error("[a/b]\n", "t.cfg:1: invalid interface name 'a/b'");
	expect_one_error("[0123456789abcdef]\n",
	    "t.cfg:1: invalid interface name '0123456789abcdef'");
	expect_one_error("[..]\n", "t.cfg:1: invalid interface name '..'");
}

/* The section's own rules: tests/unit/test_cfg_utab.c. */
static void
test_unicast_master_table_section(void **state)
{
	struct cfg *cfg = new_cfg();

	(void)state;
	assert_int_equal(load(cfg, "[global]\n[unicast_master_table]\n"
	    "table_id 1\nUDPv4 192.0.2.1\n[eth0]\nlogSyncInterval 2\n"), 0);
	assert_int_equal(cfg_error_count(cfg), 0);
	assert_int_equal(cfg_warning_count(cfg), 0);
	assert_int_equal(cfg_utab_count(cfg), 1);
	/* The next section header ends the table. */
	assert_int_equal(cfg_get_int(cfg, "eth0", "logSyncInterval"), 2);
	cfg_free(cfg);
}

/* ---- values ---- */

static void
test_defaults(void **state)
{
	struct cfg *cfg = new_cfg();

	(void)state;
	assert_int_equal(cfg_get_int(cfg, NULL, "domainNumber"), 0);
	assert_int_equal(cfg_get_int(cfg, NULL, "priority1"), 128);
	assert_int_equal(cfg_get_int(cfg, NULL, "clockClass"), 248);
	assert_int_equal(cfg_get_int(cfg, NULL, "logAnnounceInterval"), 1);
	assert_int_equal(cfg_get_int(cfg, NULL, "announceReceiptTimeout"), 3);
	assert_int_equal(cfg_get_int(cfg, NULL, "network_transport"),
	    CFG_TRANS_UDPV4);
	assert_int_equal(cfg_get_int(cfg, NULL, "delay_mechanism"),
	    CFG_DM_E2E);
	assert_int_equal(cfg_get_int(cfg, NULL, "clock_servo"),
	    CFG_SERVO_KALMAN);
	assert_int_equal(cfg_get_int(cfg, NULL, "delay_filter"),
	    CFG_FILTER_MOVING_MEDIAN);
	assert_string_equal(cfg_get_enum_name(cfg, NULL, "tsproc_mode"),
	    "filter");
	assert_int_equal(cfg_get_int(cfg, NULL, "tx_timestamp_timeout"), 1);
	assert_int_equal(cfg_get_int(cfg, NULL, "udp6_scope"), 0x0e);
	assert_int_equal(cfg_get_int(cfg, NULL, "max_frequency"), 900000000);
	assert_true(cfg_get_double(cfg, NULL, "first_step_threshold") ==
	    0.00002);
	assert_true(cfg_get_double(cfg, NULL, "pi_proportional_exponent") ==
	    -0.3);
	assert_string_equal(cfg_get_str(cfg, NULL, "ptp_dst_mac"),
	    "01:1B:19:00:00:00");
	assert_null(cfg_get_str(cfg, NULL, "message_tag"));
	assert_int_equal(cfg_get_int(cfg, NULL, "slaveOnly"), 0);
	assert_false(cfg_is_set(cfg, NULL, "domainNumber"));
	/* own keys */
	/* auto: the ports' PHC with hardware time stamps (issue 14) */
	assert_string_equal(cfg_get_str(cfg, NULL, "clock_device"), "auto");
	assert_string_equal(cfg_get_str(cfg, NULL, "netd_socket"),
	    "/run/ptpsep/netd.sock");
	assert_string_equal(cfg_get_str(cfg, NULL, "netd_ctl_socket"),
	    "/run/ptpsep/netd-ctl.sock");
	assert_string_equal(cfg_get_str(cfg, NULL, "clockd_ctl_socket"),
	    "/run/ptpsep/clockd/ctl.sock");
	assert_string_equal(cfg_get_str(cfg, NULL, "pmc_socket"),
	    "/run/ptpsep/clockd/pmc.sock");
	assert_string_equal(cfg_get_str(cfg, NULL, "netd_user"),
	    "ptpsep-netd");
	assert_string_equal(cfg_get_str(cfg, NULL, "clockd_user"),
	    "ptpsep-clockd");
	assert_string_equal(cfg_get_str(cfg, NULL, "admin_group"),
	    "ptpsep-admin");
	assert_true(cfg_get_double(cfg, NULL, "max_freq_ppb") == 500000.0);
	assert_int_equal(cfg_get_int(cfg, NULL, "allow_step"), 1);
	assert_int_equal(cfg_get_int(cfg, NULL, "max_steps_per_interval"), 4);
	assert_int_equal(cfg_get_int(cfg, NULL, "step_limit_interval"), 60);
	assert_true(cfg_get_int64(cfg, NULL, "virtual_clock_offset_ns") == 0);
	assert_int_equal(cfg_error_count(cfg), 0);
	assert_int_equal(cfg_warning_count(cfg), 0);
	cfg_free(cfg);
}

static void
test_port_override(void **state)
{
	struct cfg *cfg = new_cfg();

	(void)state;
	assert_int_equal(load(cfg,
	    "[global]\n"
	    "logSyncInterval -3\n"
	    "network_transport L2\n"
	    "[eth0]\n"
	    "logSyncInterval 1\n"
	    "delay_mechanism p2p\n"
	    "[eth1]\n"
	    "[ETH0]\n"
	    "[eth0]\n"		/* merged with the first [eth0] */
	    "udp_ttl 7\n"), 0);
	assert_int_equal(cfg_port_count(cfg), 3);
	assert_string_equal(cfg_port_name(cfg, 0), "eth0");
	assert_string_equal(cfg_port_name(cfg, 1), "eth1");
	assert_string_equal(cfg_port_name(cfg, 2), "ETH0");
	assert_null(cfg_port_name(cfg, 3));
	assert_int_equal(cfg_get_int(cfg, "eth0", "logSyncInterval"), 1);
	assert_int_equal(cfg_get_int(cfg, "eth0", "udp_ttl"), 7);
	assert_int_equal(cfg_get_int(cfg, "eth0", "delay_mechanism"),
	    CFG_DM_P2P);
	assert_string_equal(cfg_get_enum_name(cfg, "eth0", "delay_mechanism"),
	    "P2P");
	assert_int_equal(cfg_get_int(cfg, "eth1", "logSyncInterval"), -3);
	assert_int_equal(cfg_get_int(cfg, "eth1", "delay_mechanism"),
	    CFG_DM_E2E);
	assert_int_equal(cfg_get_int(cfg, "eth1", "network_transport"),
	    CFG_TRANS_L2);
	assert_int_equal(cfg_get_int(cfg, NULL, "logSyncInterval"), -3);
	assert_int_equal(cfg_get_int(cfg, "nosuch", "logSyncInterval"), -3);
	/* A global-only key read for a port is the global value. */
	assert_int_equal(cfg_get_int(cfg, "eth0", "domainNumber"), 0);
	assert_true(cfg_is_set(cfg, "eth0", "udp_ttl"));
	assert_false(cfg_is_set(cfg, "eth1", "udp_ttl"));
	cfg_free(cfg);
}

static void
test_added_ports(void **state)
{
	struct cfg *cfg = new_cfg();

	(void)state;
	assert_int_equal(cfg_add_port(cfg, "veth0"), 0);
	assert_int_equal(cfg_add_port(cfg, "veth1"), 1);
	assert_int_equal(cfg_add_port(cfg, "veth0"), 0);
	assert_int_equal(cfg_add_port(cfg, "bad name"), -1);
	assert_diag("command line: invalid interface name 'bad name'");
	assert_int_equal(cfg_add_port(cfg, ""), -1);
	assert_int_equal(cfg_add_port(cfg, "a:b"), -1);
	assert_int_equal(cfg_add_port(cfg, "0123456789abcde"), 2);
	assert_int_equal(cfg_error_count(cfg), 3);
	/* A file naming the same port adds to it. */
	assert_int_equal(load(cfg, "[veth1]\nlogSyncInterval -2\n"), 0);
	assert_int_equal(cfg_port_count(cfg), 3);
	assert_int_equal(cfg_get_int(cfg, "veth1", "logSyncInterval"), -2);
	assert_int_equal(cfg_port_index(cfg, "veth1"), 1);
	assert_int_equal(cfg_port_index(cfg, "nope"), -1);
	assert_true(cfg_valid_ifname("eth0.100"));
	assert_false(cfg_valid_ifname("."));
	assert_false(cfg_valid_ifname("tab\there"));
	cfg_free(cfg);
}

static void
test_own_keys(void **state)
{
	struct cfg *cfg = new_cfg();
	enum cfg_clock_kind kind;
	int idx;

	(void)state;
	assert_int_equal(load(cfg,
	    "[global]\n"
	    "clock_device /dev/ptp12\n"
	    "virtual_clock_offset_ns -999999999999999999\n"
	    "virtual_clock_freq_ppb -12.5\n"
	    "netd_socket /tmp/x/netd.sock\n"
	    "netd_ctl_socket /tmp/x/netd-ctl.sock\n"
	    "clockd_ctl_socket /tmp/x/clockd-ctl.sock\n"
	    "pmc_socket /tmp/x/pmc.sock\n"
	    "netd_user ptp_netd\n"
	    "clockd_user nobody\n"
	    "admin_group adm\n"
	    "max_freq_ppb 100000\n"
	    "allow_step 0\n"
	    "max_steps_per_interval 0\n"
	    "step_limit_interval 3600\n"
	    "max_step_ns 1000000000\n"), 0);
	assert_int_equal(cfg_warning_count(cfg), 0);
	assert_string_equal(cfg_get_str(cfg, NULL, "clock_device"),
	    "/dev/ptp12");
	assert_int_equal(cfg_clock_device_parse(cfg_get_str(cfg, NULL,
	    "clock_device"), &kind, &idx), 0);
	assert_int_equal(kind, CFG_CLK_PHC);
	assert_int_equal(idx, 12);
	assert_true(cfg_get_int64(cfg, NULL, "virtual_clock_offset_ns") ==
	    -999999999999999999LL);
	assert_true(cfg_get_double(cfg, NULL, "virtual_clock_freq_ppb") ==
	    -12.5);
	assert_string_equal(cfg_get_str(cfg, NULL, "pmc_socket"),
	    "/tmp/x/pmc.sock");
	assert_string_equal(cfg_get_str(cfg, NULL, "admin_group"), "adm");
	assert_int_equal(cfg_get_int(cfg, NULL, "allow_step"), 0);
	assert_true(cfg_get_int64(cfg, NULL, "max_step_ns") == 1000000000);
	cfg_free(cfg);

	assert_int_equal(cfg_clock_device_parse("virtual", &kind, &idx), 0);
	assert_int_equal(kind, CFG_CLK_VIRTUAL);
	assert_int_equal(idx, -1);
	assert_int_equal(cfg_clock_device_parse("system", &kind, &idx), 0);
	assert_int_equal(kind, CFG_CLK_SYSTEM);
	assert_int_equal(cfg_clock_device_parse("auto", &kind, &idx), 0);
	assert_int_equal(kind, CFG_CLK_AUTO);
	assert_int_equal(idx, -1);
	assert_int_equal(cfg_clock_device_parse("Auto", &kind, &idx), -1);
	assert_int_equal(cfg_clock_device_parse("auto ", &kind, &idx), -1);
	assert_int_equal(cfg_clock_auto_kind(CFG_TS_HARDWARE), CFG_CLK_PHC);
	assert_int_equal(cfg_clock_auto_kind(CFG_TS_ONESTEP), CFG_CLK_PHC);
	assert_int_equal(cfg_clock_auto_kind(CFG_TS_P2P1STEP), CFG_CLK_PHC);
	assert_int_equal(cfg_clock_auto_kind(CFG_TS_SOFTWARE), CFG_CLK_SYSTEM);
	assert_int_equal(cfg_clock_device_parse("/dev/ptp", &kind, &idx), -1);
	assert_int_equal(cfg_clock_device_parse("/dev/ptp01", &kind, &idx),
	    -1);
	assert_int_equal(cfg_clock_device_parse("/dev/ptp-1", &kind, &idx),
	    -1);
	assert_int_equal(cfg_clock_device_parse("/dev/ptp99999999999", &kind,
	    &idx), -1);

	expect_one_error("[global]\nclock_device /dev/sda\n",
	    "t.cfg:2: bad value '/dev/sda' for key 'clock_device': expected "
	    "auto, system, virtual or /dev/ptpN");
	expect_one_error("[global]\nnetd_socket run/netd.sock\n",
	    "t.cfg:2: bad value 'run/netd.sock' for key 'netd_socket': not "
	    "an absolute path");
	expect_one_error("[global]\nnetd_user -root\n",
	    "t.cfg:2: bad value '-root' for key 'netd_user': a user or group "
	    "name cannot start with '-'");
	expect_one_error("[global]\nadmin_group a b\n",
	    "t.cfg:2: bad value 'a b' for key 'admin_group': not a user or "
	    "group name ([A-Za-z0-9_.-])");
	expect_one_error("[global]\nvirtual_clock_offset_ns "
	    "9223372036854775808\n",
	    "t.cfg:2: value '9223372036854775808' for key "
	    "'virtual_clock_offset_ns' is out of range "
	    "[-1000000000000000000, 1000000000000000000]");
	expect_one_error("[global]\nallow_step 2\n",
	    "t.cfg:2: value '2' for key 'allow_step' is out of range [0, 1]");
}

static void
test_whitespace_crlf(void **state)
{
	struct cfg *cfg = new_cfg();

	(void)state;
	assert_int_equal(load(cfg,
	    "\t [global] \r\n"
	    "   # indented comment\r\n"
	    "\r\n"
	    "\tdomainNumber\t \t 5 \t\r\n"
	    "message_tag   my  tag  \r\n"
	    "[ eth0 ]\r\n"
	    "logSyncInterval\t-1"), 0);	/* no final newline */
	assert_int_equal(cfg_error_count(cfg), 0);
	assert_int_equal(cfg_get_int(cfg, NULL, "domainNumber"), 5);
	/* The value is the rest of the line, inner blanks kept. */
	assert_string_equal(cfg_get_str(cfg, NULL, "message_tag"), "my  tag");
	assert_int_equal(cfg_get_int(cfg, "eth0", "logSyncInterval"), -1);
	cfg_free(cfg);

	cfg = new_cfg();
	assert_int_equal(load(cfg, "[GLOBAL]\r\ntime_stamping SOFTWARE\r\n"),
	    0);
	assert_int_equal(cfg_get_int(cfg, NULL, "time_stamping"),
	    CFG_TS_SOFTWARE);
	assert_string_equal(cfg_get_enum_name(cfg, NULL, "time_stamping"),
	    "software");
	cfg_free(cfg);
}

static void
test_long_line(void **state)
{
	char buf[3000];
	struct cfg *cfg;
	int n;

	(void)state;
	n = snprintf(buf, sizeof(buf), "[global]\nmessage_tag ");
	memset(buf + n, 'x', CFG_LINE_MAX - 12);	/* exactly the limit */
	n += CFG_LINE_MAX - 12;
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, "\nmessage_tag ");
	memset(buf + n, 'y', CFG_LINE_MAX);		/* over it */
	n += CFG_LINE_MAX;
	snprintf(buf + n, sizeof(buf) - (size_t)n, "\ndomainNumber 3\n");
	cfg = new_cfg();
	assert_int_equal(load(cfg, buf), -1);
	assert_int_equal(cfg_error_count(cfg), 1);
	assert_diag("t.cfg:3: line too long (more than 1023 characters)");
	assert_int_equal(strlen(cfg_get_str(cfg, NULL, "message_tag")),
	    CFG_LINE_MAX - 12);
	/* Parsing went on after the long line. */
	assert_int_equal(cfg_get_int(cfg, NULL, "domainNumber"), 3);
	cfg_free(cfg);
}

static void
test_nul_and_control(void **state)
{
	static const char with_nul[] = "[global]\ndomainNumber 1\0 2\n"
	    "priority1 9\n";
	struct cfg *cfg = new_cfg();

	(void)state;
	assert_int_equal(cfg_load_buffer(cfg, "t.cfg", with_nul,
	    sizeof(with_nul) - 1), -1);
	assert_int_equal(cfg_error_count(cfg), 1);
	assert_diag("t.cfg:2: NUL byte in line");
	assert_false(cfg_is_set(cfg, NULL, "domainNumber"));
	assert_int_equal(cfg_get_int(cfg, NULL, "priority1"), 9);
	cfg_free(cfg);
	expect_one_error("[global]\nmessage_tag a\033[31m\n",
	    "t.cfg:2: control character 0x1b in line");
}

static void
test_empty(void **state)
{
	struct cfg *cfg = new_cfg();

	(void)state;
	assert_int_equal(cfg_load_buffer(cfg, "t.cfg", "", 0), 0);
	assert_int_equal(load(cfg, "\n\n# only comments\n   \n"), 0);
	assert_int_equal(load(cfg, "[global]\n"), 0);
	assert_int_equal(cfg_error_count(cfg), 0);
	assert_int_equal(cfg_warning_count(cfg), 0);
	assert_int_equal(cfg_port_count(cfg), 0);
	cfg_free(cfg);
}

static void
test_aliases_and_duplicates(void **state)
{
	struct cfg *cfg = new_cfg();

	(void)state;
	assert_int_equal(load(cfg, "[global]\nslaveOnly 1\nmasterOnly 1\n"
	    "pi_offset_const 0.5\npriority1 1\npriority1 2\n"), 0);
	assert_int_equal(cfg_get_int(cfg, NULL, "clientOnly"), 1);
	assert_int_equal(cfg_get_int(cfg, NULL, "slaveOnly"), 1);
	assert_int_equal(cfg_get_int(cfg, NULL, "serverOnly"), 1);
	assert_true(cfg_get_double(cfg, NULL, "step_threshold") == 0.5);
	assert_int_equal(cfg_get_int(cfg, NULL, "priority1"), 2);
	assert_int_equal(cfg_warning_count(cfg), 2);
	assert_diag("t.cfg:4: warning: key 'pi_offset_const' is deprecated, "
	    "use 'step_threshold'");
	assert_diag("t.cfg:6: warning: key 'priority1' already set at line "
	    "5; the last value wins");
	/* A second file overrides the first one without a warning. */
	assert_int_equal(load(cfg, "[global]\npriority1 3\n"), 0);
	assert_int_equal(cfg_get_int(cfg, NULL, "priority1"), 3);
	assert_int_equal(cfg_warning_count(cfg), 2);
	cfg_free(cfg);
}

static void
test_command_line(void **state)
{
	struct cfg *cfg = new_cfg();

	(void)state;
	/* Set before the file is read, as the daemons' getopt does. */
	assert_int_equal(cfg_set_int(cfg, NULL, "domainNumber", 24), 0);
	assert_int_equal(cfg_set_int(cfg, NULL, "time_stamping",
	    CFG_TS_SOFTWARE), 0);
	assert_int_equal(cfg_set_str(cfg, NULL, "clock_device", "virtual"), 0);
	assert_int_equal(cfg_set_double(cfg, NULL, "step_threshold", 0.1),
	    0);
	assert_int_equal(cfg_set_int64(cfg, NULL, "virtual_clock_offset_ns",
	    -5), 0);
	assert_int_equal(cfg_set_from_string(cfg, NULL, "logging_level", "7"),
	    0);
	assert_int_equal(cfg_set_str(cfg, NULL, "message_tag", ""), 0);
	assert_int_equal(load(cfg, "[global]\ndomainNumber 1\n"
	    "time_stamping hardware\nclock_device system\n"
	    "step_threshold 2\npriority1 5\n"), 0);
	assert_int_equal(cfg_get_int(cfg, NULL, "domainNumber"), 24);
	assert_int_equal(cfg_get_int(cfg, NULL, "time_stamping"),
	    CFG_TS_SOFTWARE);
	assert_string_equal(cfg_get_str(cfg, NULL, "clock_device"), "virtual");
	assert_true(cfg_get_double(cfg, NULL, "step_threshold") == 0.1);
	assert_true(cfg_get_int64(cfg, NULL, "virtual_clock_offset_ns") == -5);
	assert_int_equal(cfg_get_int(cfg, NULL, "logging_level"), 7);
	assert_string_equal(cfg_get_str(cfg, NULL, "message_tag"), "");
	assert_int_equal(cfg_get_int(cfg, NULL, "priority1"), 5);
	assert_int_equal(cfg_error_count(cfg), 0);

	/* Bad command-line values are errors, reported like file ones. */
	assert_int_equal(cfg_set_int(cfg, NULL, "domainNumber", 300), -1);
	assert_diag("command line: value '300' for key 'domainNumber' is out "
	    "of range [0, 127]");
	assert_int_equal(cfg_set_from_string(cfg, NULL, "domianNumber", "1"),
	    -1);
	assert_diag("command line: unknown key 'domianNumber' (did you mean "
	    "'domainNumber'?)");
	assert_int_equal(cfg_set_int(cfg, "eth9", "udp_ttl", 2), -1);
	assert_diag("command line: unknown port 'eth9'");
	assert_int_equal(cfg_add_port(cfg, "eth9"), 0);
	assert_int_equal(cfg_set_int(cfg, "eth9", "udp_ttl", 2), 0);
	assert_int_equal(cfg_get_int(cfg, "eth9", "udp_ttl"), 2);
	assert_int_equal(cfg_set_str(cfg, NULL, "message_tag", "a\nb"), -1);
	assert_int_equal(cfg_error_count(cfg), 4);
	cfg_free(cfg);
}

static void
test_too_many_errors(void **state)
{
	char *buf;
	struct cfg *cfg;
	size_t i, n = 0, len = 200 * 8 + 16;

	(void)state;
	buf = malloc(len);
	assert_non_null(buf);
	n += (size_t)sprintf(buf, "[global]\n");
	for (i = 0; i < 200; i++)
		n += (size_t)sprintf(buf + n, "bogus%u\n", (unsigned)(i % 10));
	cfg = new_cfg();
	assert_int_equal(cfg_load_buffer(cfg, "t.cfg", buf, n), -1);
	assert_int_equal(cfg_error_count(cfg), CFG_MAX_ERRORS);
	assert_diag("t.cfg: too many errors, giving up");
	cfg_free(cfg);
	free(buf);
}

static void
test_load_file_errors(void **state)
{
	char path[] = "/tmp/test_config.XXXXXX";
	struct cfg *cfg = new_cfg();
	int fd;

	(void)state;
	assert_int_equal(cfg_load_file(cfg, "/nonexistent/ptp.cfg"), -1);
	assert_diag("/nonexistent/ptp.cfg: cannot open: No such file or "
	    "directory");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "[global]\npriority2 17\n", 22), 22);
	close(fd);
	assert_int_equal(cfg_load_file(cfg, path), 0);
	assert_int_equal(cfg_get_int(cfg, NULL, "priority2"), 17);
	unlink(path);
	cfg_free(cfg);
}

/* Accessor misuse is a bug in the caller: the process aborts. */
static void
misuse_unknown(void)
{
	struct cfg *cfg = cfg_new();

	(void)cfg_get_int(cfg, NULL, "domianNumber");
}

static void
misuse_type(void)
{
	struct cfg *cfg = cfg_new();

	(void)cfg_get_str(cfg, NULL, "domainNumber");
}

static void
expect_abort(void (*fn)(void))
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		log_init("test", 1, LOG_LVL_ERR - 1);	/* quiet */
		fn();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

static void
test_accessor_misuse(void **state)
{
	(void)state;
	expect_abort(misuse_unknown);
	expect_abort(misuse_type);
}

/* ---- the key audit ---- */

static void
count_key(void *arg, const struct cfg_key *k)
{
	(void)k;
	(*(size_t *)arg)++;
}

static void
remember_key(void *arg, const struct cfg_key *k)
{
	if (strcmp(k->name, "priority1") == 0)
		*(int *)arg = 1;
}

/*
 * Getting a key marks it queried, loading or setting it does not, an
 * alias marks its target; cfg_audit() lists the rest.
 */
static void
test_key_audit(void **state)
{
	struct cfg *cfg = new_cfg();
	size_t n_impl = 0, n, seen = 0;
	int found = 0;

	(void)state;
	assert_int_equal(load(cfg, "[global]\npriority1 7\nslaveOnly 1\n"
	    "[eth0]\nlogSyncInterval -3\n"), 0);
	assert_int_equal(cfg_set_int(cfg, NULL, "priority2", 9), 0);
	n_impl = cfg_audit(cfg, 0, CFG_ST_IMPLEMENTED, NULL, NULL);
	assert_true(n_impl > 50);
	assert_int_equal(cfg_audit(cfg, 1, CFG_ST_IMPLEMENTED, NULL, NULL), 0);
	assert_false(cfg_key_queried(cfg, "priority1"));
	assert_false(cfg_key_queried(cfg, "priority2"));

	assert_int_equal(cfg_get_int(cfg, NULL, "priority1"), 7);
	assert_int_equal(cfg_get_int(cfg, "eth0", "logSyncInterval"), -3);
	assert_int_equal(cfg_get_int(cfg, NULL, "slaveOnly"), 1);
	assert_true(cfg_is_set(cfg, NULL, "domainNumber") == 0);
	assert_true(cfg_key_queried(cfg, "priority1"));
	assert_true(cfg_key_queried(cfg, "logSyncInterval"));
	/* The alias and its target are one key. */
	assert_true(cfg_key_queried(cfg, "clientOnly"));
	assert_true(cfg_key_queried(cfg, "slaveOnly"));
	assert_true(cfg_key_queried(cfg, "domainNumber"));
	assert_false(cfg_key_queried(cfg, "priority2"));

	n = cfg_audit(cfg, 1, CFG_ST_IMPLEMENTED, remember_key, &found);
	assert_int_equal(n, 4);
	assert_true(found);
	assert_int_equal(cfg_audit(cfg, 0, CFG_ST_IMPLEMENTED, count_key,
	    &seen), n_impl - 4);
	assert_int_equal(seen, n_impl - 4);
	/* Unimplemented keys are audited apart. */
	assert_int_equal(cfg_audit(cfg, 1, CFG_ST_UNIMPLEMENTED, NULL, NULL),
	    0);
	(void)cfg_get_int(cfg, NULL, "socket_priority");
	assert_int_equal(cfg_audit(cfg, 1, CFG_ST_UNIMPLEMENTED, NULL, NULL),
	    1);
	cfg_free(cfg);
}

/* PTPSEP_KEY_AUDIT: cfg_free() appends the queried keys to the file. */
static void
test_key_audit_file(void **state)
{
	char path[] = "/tmp/test_config_audit.XXXXXX", buf[256];
	struct cfg *cfg;
	FILE *f;
	size_t len;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(setenv(CFG_AUDIT_ENV, path, 1), 0);
	cfg = new_cfg();
	(void)cfg_get_int(cfg, NULL, "priority2");
	(void)cfg_get_str(cfg, "eth9", "ptp_dst_mac");
	(void)cfg_get_int(cfg, NULL, "priority2");
	cfg_free(cfg);
	cfg = new_cfg();	/* a second process appends */
	(void)cfg_get_int(cfg, NULL, "domainNumber");
	cfg_free(cfg);
	assert_int_equal(unsetenv(CFG_AUDIT_ENV), 0);

	f = fopen(path, "r");
	assert_non_null(f);
	len = fread(buf, 1, sizeof(buf) - 1, f);
	buf[len] = '\0';
	fclose(f);
	unlink(path);
	/* Table order, each key once per process. */
	assert_string_equal(buf, "priority2\nptp_dst_mac\ndomainNumber\n");
}

/* Without a callback, diagnostics are logged (smoke: must not crash). */
static void
test_default_sink(void **state)
{
	struct cfg *cfg = cfg_new();

	(void)state;
	log_init("test", 1, LOG_LVL_ERR - 1);	/* drop them */
	assert_int_equal(load(cfg, "[global]\nbogus 1\nsocket_priority 1\n"),
	    -1);
	assert_int_equal(cfg_error_count(cfg), 1);
	assert_int_equal(cfg_warning_count(cfg), 1);
	cfg_free(cfg);
}

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
		cmocka_unit_test(test_table_selftest),
		cmocka_unit_test(test_table_has_ptp4l_keys),
		cmocka_unit_test(test_implemented_keys),
		cmocka_unit_test(test_unimplemented_keys_warn),
		cmocka_unit_test(test_linuxptp_default_cfg),
		cmocka_unit_test(test_linuxptp_all_configs),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_bad_enum),
		cmocka_unit_test(test_bad_number),
		cmocka_unit_test(test_numbers_as_ptp4l),
		cmocka_unit_test(test_key_before_section),
		cmocka_unit_test(test_scope),
		cmocka_unit_test(test_bad_sections),
		cmocka_unit_test(test_unicast_master_table_section),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_port_override),
		cmocka_unit_test(test_added_ports),
		cmocka_unit_test(test_own_keys),
		cmocka_unit_test(test_whitespace_crlf),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_nul_and_control),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_aliases_and_duplicates),
		cmocka_unit_test(test_command_line),
		cmocka_unit_test(test_too_many_errors),
		cmocka_unit_test(test_load_file_errors),
		cmocka_unit_test(test_accessor_misuse),
		cmocka_unit_test(test_default_sink),
		cmocka_unit_test(test_key_audit),
		cmocka_unit_test(test_key_audit_file),
		cmocka_unit_test(test_step_harmonise),
		cmocka_unit_test(test_profile_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
