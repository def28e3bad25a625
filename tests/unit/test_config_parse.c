/*
 * test_config_parse.c - the configuration file parser (lib/cfg.c,
 * lib/cfg_value.c): every error naming file and line (unknown keys,
 * ranges, bad values, sections, scope), ptp4l's number syntax, blanks and
 * CRLF, long lines, NUL and control bytes, aliases and repeated keys, the
 * error limit, files that cannot be opened, the default diagnostic sink.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config_fixture.h"
#include "log.h"

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

/* ---- syntax ---- */

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_bad_enum),
		cmocka_unit_test(test_bad_number),
		cmocka_unit_test(test_numbers_as_ptp4l),
		cmocka_unit_test(test_key_before_section),
		cmocka_unit_test(test_scope),
		cmocka_unit_test(test_bad_sections),
		cmocka_unit_test(test_unicast_master_table_section),
		cmocka_unit_test(test_whitespace_crlf),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_nul_and_control),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_aliases_and_duplicates),
		cmocka_unit_test(test_too_many_errors),
		cmocka_unit_test(test_load_file_errors),
		cmocka_unit_test(test_default_sink),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
