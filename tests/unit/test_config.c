/*
 * test_config.c - the configuration's keys and values (lib/cfg.c,
 * lib/cfg_keys.c): the key table against ptp4l's, which keys are
 * implemented, the defaults, port sections over [global], ports added by
 * name, ptpsep's own keys, values set on the command line.
 */
#include "config.h"

#include <string.h>

#include "config_fixture.h"

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_selftest),
		cmocka_unit_test(test_table_has_ptp4l_keys),
		cmocka_unit_test(test_implemented_keys),
		cmocka_unit_test(test_unimplemented_keys_warn),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_port_override),
		cmocka_unit_test(test_added_ports),
		cmocka_unit_test(test_own_keys),
		cmocka_unit_test(test_command_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
