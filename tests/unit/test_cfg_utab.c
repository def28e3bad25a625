/*
 * test_cfg_utab.c - the [unicast_master_table] sections (lib/cfg_utab.c):
 * ptp4l's syntax, every error naming file and line, the cross-checks
 * against the ports (cfg_utab_check(), cli_validate()).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cfg.h"
#include "cli.h"
#include "config_fixture.h"

#define LINUXPTP_CONFIGS "/usr/share/doc/linuxptp/configs"

/* "[unicast_master_table]\n" + body: exactly one error, this one. */
static void
expect_error(const char *body, const char *msg)
{
	char text[4096];

	snprintf(text, sizeof(text), "[global]\n[unicast_master_table]\n%s",
	    body);
	expect_one_error(text, msg);
}

static const char *
addr(const struct cfg_uaddr *a)
{
	static char buf[64];

	return cfg_uaddr_str(a, buf, sizeof(buf));
}

/* ---- parsing ---- */

static void
test_tables(void **state)
{
	const struct cfg_utab *t;
	struct cfg *cfg = new_cfg();
	char why[512];

	(void)state;
	assert_int_equal(load(cfg,
	    "[global]\n"
	    "[unicast_master_table]\n"
	    "table_id 7\n"
	    "logQueryInterval -3\n"
	    "UDPv4 192.0.2.10\n"
	    "udpv4\t 192.0.2.11 \n"	/* any case, blanks, as ptp4l */
	    "[unicast_master_table]\n"
	    "# a comment\n"
	    "table_id 010\n"		/* decimal, as ptp4l's %d */
	    "UDPv6 2001:db8::1\n"
	    "peer_address fe80::2\n"
	    "table_id 3\n"		/* a second table, same section */
	    "L2 02:00:5E:10:00:01\n"
	    "[eth0]\n"
	    "unicast_master_table 7\n"), 0);
	assert_int_equal(cfg_error_count(cfg), 0);
	/* Neither the section nor the key warns: both are implemented. */
	assert_int_equal(cfg_warning_count(cfg), 0);
	assert_int_equal(cfg_key_find("unicast_master_table")->status,
	    CFG_ST_IMPLEMENTED);
	assert_int_equal(cfg_utab_count(cfg), 3);

	t = cfg_utab_at(cfg, 0);
	assert_non_null(t);
	assert_int_equal(t->table_id, 7);
	assert_int_equal(t->log_query_interval, -3);
	assert_false(t->has_peer);
	assert_string_equal(t->file, "t.cfg");
	assert_int_equal(t->line, 3);
	assert_int_equal(t->count, 2);
	assert_int_equal(t->addrs[0].transport, CFG_TRANS_UDPV4);
	assert_int_equal(t->addrs[0].len, 4);
	assert_memory_equal(t->addrs[0].b, "\xc0\x00\x02\x0a", 4);
	assert_int_equal(t->addrs[0].line, 5);
	assert_string_equal(addr(&t->addrs[1]), "192.0.2.11");

	t = cfg_utab_find(cfg, 10);
	assert_ptr_equal(t, cfg_utab_at(cfg, 1));
	assert_int_equal(t->log_query_interval, 0);	/* ptp4l's default */
	assert_int_equal(t->count, 1);
	assert_int_equal(t->addrs[0].transport, CFG_TRANS_UDPV6);
	assert_int_equal(t->addrs[0].len, 16);
	assert_string_equal(addr(&t->addrs[0]), "2001:db8::1");
	assert_true(t->has_peer);
	assert_int_equal(t->peer.transport, CFG_TRANS_UDPV6);
	assert_string_equal(addr(&t->peer), "fe80::2");
	assert_int_equal(t->peer.line, 11);

	t = cfg_utab_find(cfg, 3);
	assert_non_null(t);
	assert_int_equal(t->count, 1);
	assert_int_equal(t->addrs[0].transport, CFG_TRANS_L2);
	assert_int_equal(t->addrs[0].len, 6);
	assert_memory_equal(t->addrs[0].b, "\x02\x00\x5e\x10\x00\x01", 6);
	assert_string_equal(addr(&t->addrs[0]), "02:00:5e:10:00:01");

	assert_null(cfg_utab_find(cfg, 1));
	assert_null(cfg_utab_at(cfg, 3));
	/* The port's table; the key counts as read (the key audit). */
	assert_false(cfg_key_queried(cfg, "unicast_master_table"));
	assert_ptr_equal(cfg_utab_port(cfg, "eth0"), cfg_utab_find(cfg, 7));
	assert_true(cfg_key_queried(cfg, "unicast_master_table"));
	assert_null(cfg_utab_port(cfg, NULL));
	assert_null(cfg_utab_port(cfg, "eth9"));
	assert_int_equal(cfg_utab_check(cfg, why, sizeof(why)), 0);
	cfg_free(cfg);
}

static void
test_peer_address_forms(void **state)
{
	const struct cfg_utab *t;
	struct cfg *cfg = new_cfg();

	(void)state;
	assert_int_equal(load(cfg, "[unicast_master_table]\n"
	    "table_id 1\npeer_address 192.0.2.44\n"
	    "table_id 2\npeer_address 00:1b:21:aa:bb:cc\n"
	    "table_id 3\npeer_address 2001:db8:1:2:3:4:5:6\n"
	    "table_id 5\npeer_address ab:cd:1:2:3:4:5:6\n"	/* 17 chars */
	    "table_id 4\npeer_address 192.0.2.1\npeer_address 192.0.2.2\n"),
	    0);
	assert_int_equal(cfg_utab_find(cfg, 1)->peer.transport,
	    CFG_TRANS_UDPV4);
	assert_int_equal(cfg_utab_find(cfg, 2)->peer.transport, CFG_TRANS_L2);
	assert_int_equal(cfg_utab_find(cfg, 3)->peer.transport,
	    CFG_TRANS_UDPV6);
	assert_int_equal(cfg_utab_find(cfg, 5)->peer.transport,
	    CFG_TRANS_UDPV6);
	assert_string_equal(addr(&cfg_utab_find(cfg, 5)->peer),
	    "ab:cd:1:2:3:4:5:6");
	/* As ptp4l: the last one wins. */
	t = cfg_utab_find(cfg, 4);
	assert_string_equal(addr(&t->peer), "192.0.2.2");
	assert_int_equal(t->count, 0);
	cfg_free(cfg);
}

static void
test_duplicate_address_warns(void **state)
{
	struct cfg *cfg = new_cfg();

	(void)state;
	assert_int_equal(load(cfg, "[unicast_master_table]\ntable_id 1\n"
	    "UDPv4 192.0.2.1\nUDPv4 192.0.2.1\n"), 0);
	assert_int_equal(cfg_warning_count(cfg), 1);
	assert_diag("t.cfg:4: warning: UDPv4 192.0.2.1 already listed in "
	    "table 1 at line 3; once is enough");
	assert_int_equal(cfg_utab_find(cfg, 1)->count, 1);
	cfg_free(cfg);
}

/* ---- errors, each naming file, line and key ---- */

static void
test_table_id_errors(void **state)
{
	(void)state;
	expect_error("UDPv4 192.0.2.1\n",
	    "t.cfg:3: key 'UDPv4' before any table_id in "
	    "[unicast_master_table] (start the table with 'table_id N')");
	assert_string_equal(diags.d[0].key, "UDPv4");
	expect_error("logQueryInterval 1\n",
	    "t.cfg:3: key 'logQueryInterval' before any table_id in "
	    "[unicast_master_table] (start the table with 'table_id N')");
	expect_error("peer_address 192.0.2.1\n",
	    "t.cfg:3: key 'peer_address' before any table_id in "
	    "[unicast_master_table] (start the table with 'table_id N')");
	/* A new section needs its own table_id. */
	expect_error("table_id 1\n[unicast_master_table]\nUDPv4 192.0.2.1\n",
	    "t.cfg:5: key 'UDPv4' before any table_id in "
	    "[unicast_master_table] (start the table with 'table_id N')");
	expect_error("table_id 0\n", "t.cfg:3: value '0' for key 'table_id' "
	    "is out of range [1, 2147483647]");
	expect_error("table_id -1\n", "t.cfg:3: value '-1' for key "
	    "'table_id' is out of range [1, 2147483647]");
	expect_error("table_id 2147483648\n", "t.cfg:3: value '2147483648' "
	    "for key 'table_id' is out of range [1, 2147483647]");
	expect_error("table_id one\n", "t.cfg:3: bad value 'one' for key "
	    "'table_id': not an integer");
	expect_error("table_id 1 # first\n", "t.cfg:3: bad value '1 # first' "
	    "for key 'table_id': not an integer (a '#' comment must be on a "
	    "line of its own)");
	expect_error("table_id\n", "t.cfg:3: missing value for key "
	    "'table_id'");
	expect_error("table_id 1\n[unicast_master_table]\ntable_id 1\n",
	    "t.cfg:5: table_id 1 already taken (t.cfg:3)");
	/* ptp4l's keys are case-sensitive. */
	expect_error("Table_id 1\n", "t.cfg:3: unknown key 'Table_id' in "
	    "[unicast_master_table] (expected table_id, logQueryInterval, "
	    "peer_address, UDPv4, UDPv6 or L2)");
}

static void
test_value_errors(void **state)
{
	(void)state;
	expect_error("table_id 1\nlogQueryInterval 128\n",
	    "t.cfg:4: value '128' for key 'logQueryInterval' is out of "
	    "range [-128, 127]");
	expect_error("table_id 1\nlogQueryInterval x\n",
	    "t.cfg:4: bad value 'x' for key 'logQueryInterval': not an "
	    "integer");
	/* ptp4l's other transport names have no address form here. */
	expect_error("table_id 1\nUDS /run/ptp\n",
	    "t.cfg:4: unknown key 'UDS' in [unicast_master_table] (expected "
	    "table_id, logQueryInterval, peer_address, UDPv4, UDPv6 or L2)");
	expect_error("table_id 1\nUDPv4\n",
	    "t.cfg:4: missing value for key 'UDPv4'");
	expect_error("table_id 1\npeer_address host.example\n",
	    "t.cfg:4: bad value 'host.example' for key 'peer_address': not "
	    "an IPv4 address (a.b.c.d)");
	expect_error("table_id 1\npeer_address master\n",
	    "t.cfg:4: bad value 'master' for key 'peer_address': not an "
	    "IPv4, IPv6 or MAC address");
}

static void
test_address_errors(void **state)
{
	static const struct {
		const char *line, *msg;
	} c[] = {
		{ "UDPv4 192.0.2", "bad value '192.0.2' for key 'UDPv4': not "
		    "an IPv4 address (a.b.c.d)" },
		{ "UDPv4 192.0.2.256", "bad value '192.0.2.256' for key "
		    "'UDPv4': not an IPv4 address (a.b.c.d)" },
		/* inet_aton() would read 010 as octal 8. */
		{ "UDPv4 10.0.0.010", "bad value '10.0.0.010' for key "
		    "'UDPv4': not an IPv4 address (a.b.c.d)" },
		{ "UDPv4 192.0.2.1 192.0.2.2", "bad value '192.0.2.1 "
		    "192.0.2.2' for key 'UDPv4': not an IPv4 address "
		    "(a.b.c.d)" },
		{ "UDPv4 2001:db8::1", "bad value '2001:db8::1' for key "
		    "'UDPv4': not an IPv4 address (a.b.c.d)" },
		{ "UDPv4 224.0.1.129", "bad value '224.0.1.129' for key "
		    "'UDPv4': a multicast address, not a unicast master" },
		{ "UDPv4 255.255.255.255", "bad value '255.255.255.255' for "
		    "key 'UDPv4': the broadcast address, not a unicast "
		    "master" },
		{ "UDPv4 0.0.0.0", "bad value '0.0.0.0' for key 'UDPv4': the "
		    "unspecified address, not a unicast master" },
		{ "UDPv6 2001:db8::g", "bad value '2001:db8::g' for key "
		    "'UDPv6': not an IPv6 address" },
		{ "UDPv6 192.0.2.1", "bad value '192.0.2.1' for key 'UDPv6': "
		    "not an IPv6 address" },
		{ "UDPv6 ff0e::181", "bad value 'ff0e::181' for key 'UDPv6': "
		    "a multicast address, not a unicast master" },
		{ "UDPv6 ::", "bad value '::' for key 'UDPv6': the "
		    "unspecified address, not a unicast master" },
		{ "L2 00:11:22:33:44", "bad value '00:11:22:33:44' for key "
		    "'L2': not a MAC address (xx:xx:xx:xx:xx:xx)" },
		{ "L2 0:11:22:33:44:55", "bad value '0:11:22:33:44:55' for "
		    "key 'L2': not a MAC address (xx:xx:xx:xx:xx:xx)" },
		{ "L2 00-11-22-33-44-55", "bad value '00-11-22-33-44-55' for "
		    "key 'L2': not a MAC address (xx:xx:xx:xx:xx:xx)" },
		{ "L2 00:11:22:33:44:5g", "bad value '00:11:22:33:44:5g' for "
		    "key 'L2': not a MAC address (xx:xx:xx:xx:xx:xx)" },
		{ "L2 01:1b:19:00:00:00", "bad value '01:1b:19:00:00:00' for "
		    "key 'L2': a multicast address, not a unicast master" },
		{ "L2 ff:ff:ff:ff:ff:ff", "bad value 'ff:ff:ff:ff:ff:ff' for "
		    "key 'L2': a multicast address, not a unicast master" },
		{ "L2 00:00:00:00:00:00", "bad value '00:00:00:00:00:00' for "
		    "key 'L2': the unspecified address, not a unicast master" },
		{ "peer_address 224.0.0.107", "bad value '224.0.0.107' for "
		    "key 'peer_address': a multicast address, not a unicast "
		    "master" },
	};
	char body[256], msg[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(body, sizeof(body), "table_id 1\n%s\n", c[i].line);
		snprintf(msg, sizeof(msg), "t.cfg:4: %s", c[i].msg);
		expect_error(body, msg);
	}
}

static void
test_bounds(void **state)
{
	struct cfg *cfg = new_cfg();
	size_t cap = (CFG_UTAB_MAX + 1) * 32 + CFG_UTAB_ADDRS_MAX * 32 + 256;
	char *text = malloc(cap);
	size_t n;
	int i;

	(void)state;
	assert_non_null(text);
	/* CFG_UTAB_MAX tables load; one more is refused at its line. */
	n = (size_t)snprintf(text, cap, "[unicast_master_table]\n");
	for (i = 1; i <= CFG_UTAB_MAX + 1; i++)
		n += (size_t)snprintf(text + n, cap - n, "table_id %d\n", i);
	assert_int_equal(load(cfg, text), -1);
	assert_int_equal(cfg_error_count(cfg), 1);
	assert_diag("t.cfg:66: too many unicast master tables (max 64)");
	assert_int_equal(cfg_utab_count(cfg), CFG_UTAB_MAX);
	cfg_free(cfg);

	/* CFG_UTAB_ADDRS_MAX addresses load; one more is refused. */
	cfg = new_cfg();
	n = (size_t)snprintf(text, cap, "[unicast_master_table]\n"
	    "table_id 9\n");
	for (i = 0; i <= CFG_UTAB_ADDRS_MAX; i++)
		n += (size_t)snprintf(text + n, cap - n, "UDPv4 10.1.%d.%d\n",
		    i / 256, i % 256);
	assert_int_equal(load(cfg, text), -1);
	assert_int_equal(cfg_error_count(cfg), 1);
	assert_diag("t.cfg:259: too many addresses in table 9 (max 256)");
	assert_int_equal(cfg_utab_find(cfg, 9)->count, CFG_UTAB_ADDRS_MAX);
	cfg_free(cfg);
	free(text);
}

/* Several loads: each names its own file; a section does not go on. */
static void
test_two_loads(void **state)
{
	struct cfg *cfg = new_cfg();
	char why[512];
	const char *b1 = "[unicast_master_table]\ntable_id 1\n"
	    "UDPv4 192.0.2.1\n";
	const char *b2 = "UDPv4 192.0.2.2\n[unicast_master_table]\n"
	    "table_id 1\n[eth0]\nunicast_master_table 2\n";

	(void)state;
	assert_int_equal(cfg_load_buffer(cfg, "a.cfg", b1, strlen(b1)), 0);
	assert_int_equal(cfg_load_buffer(cfg, "b.cfg", b2, strlen(b2)), -1);
	/* Before any section of b.cfg: an error of its own, not table 1's. */
	assert_diag("b.cfg:1: key 'UDPv4' outside of any section (start the "
	    "file with [global] or [IFACE])");
	assert_diag("b.cfg:3: table_id 1 already taken (a.cfg:2)");
	assert_int_equal(cfg_error_count(cfg), 2);
	assert_int_equal(cfg_utab_find(cfg, 1)->count, 1);
	assert_string_equal(cfg_utab_find(cfg, 1)->file, "a.cfg");
	assert_int_equal(cfg_utab_check(cfg, why, sizeof(why)), -1);
	assert_string_equal(why, "b.cfg:5: unicast_master_table 2 of port "
	    "eth0: no [unicast_master_table] has table_id 2");
	cfg_free(cfg);
}

/* ---- against the ports ---- */

static void
expect_refused(const char *text, const char *why_expected)
{
	struct cli cli = { .prog = "t" };
	struct cfg *cfg = new_cfg();
	char why[512];

	assert_int_equal(load(cfg, text), 0);
	assert_int_equal(cfg_utab_check(cfg, why, sizeof(why)), -1);
	assert_string_equal(why, why_expected);
	/* The daemons' start and --check-config refuse it the same way. */
	why[0] = '\0';
	assert_int_equal(cli_validate(&cli, cfg, why, sizeof(why)), -1);
	assert_string_equal(why, why_expected);
	cfg_free(cfg);
}

static void
test_check_against_ports(void **state)
{
	struct cli cli = { .prog = "t" };
	struct cfg *cfg;
	char why[512];

	(void)state;
	expect_refused("[global]\n[eth0]\nunicast_master_table 5\n",
	    "t.cfg:3: unicast_master_table 5 of port eth0: no "
	    "[unicast_master_table] has table_id 5");
	expect_refused("[global]\nunicast_master_table 2\n"
	    "[unicast_master_table]\ntable_id 1\nUDPv4 192.0.2.1\n",
	    "t.cfg:2: unicast_master_table 2: no [unicast_master_table] has "
	    "table_id 2");
	expect_refused("[unicast_master_table]\ntable_id 1\nUDPv4 192.0.2.1\n"
	    "[eth1]\nnetwork_transport L2\nunicast_master_table 1\n",
	    "t.cfg:3: address UDPv4 192.0.2.1 of table 1 is not reachable "
	    "from port eth1, which uses network_transport L2");
	expect_refused("[global]\nnetwork_transport UDPv6\n"
	    "[unicast_master_table]\ntable_id 1\nUDPv6 2001:db8::1\n"
	    "peer_address 192.0.2.4\n[eth0]\nunicast_master_table 1\n",
	    "t.cfg:6: peer_address UDPv4 192.0.2.4 of table 1 is not "
	    "reachable from port eth0, which uses network_transport UDPv6");
	/* Inherited from [global]: the port is checked against it. */
	expect_refused("[global]\nunicast_master_table 1\n"
	    "[unicast_master_table]\ntable_id 1\nL2 00:11:22:33:44:55\n"
	    "[eth0]\n",
	    "t.cfg:5: address L2 00:11:22:33:44:55 of table 1 is not "
	    "reachable from port eth0, which uses network_transport UDPv4");

	/* netd could not admit more peers than its table holds. */
	{
		char text[2048];
		size_t n;
		int i;

		n = (size_t)snprintf(text, sizeof(text), "[global]\n"
		    "max_unicast_peers 16\n[unicast_master_table]\n"
		    "table_id 4\npeer_address 192.0.2.100\n");
		for (i = 1; i <= 16; i++)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
			    "UDPv4 192.0.2.%d\n", i);
		snprintf(text + n, sizeof(text) - n,
		    "[eth0]\nunicast_master_table 4\n");
		expect_refused(text, "t.cfg:4: table 4 has 17 address(es), "
		    "more than max_unicast_peers 16: port eth0 could not admit "
		    "them all");
	}

	/* A table no port uses is not checked against any transport. */
	cfg = new_cfg();
	assert_int_equal(load(cfg, "[unicast_master_table]\ntable_id 1\n"
	    "L2 00:11:22:33:44:55\n[eth0]\n"), 0);
	assert_int_equal(cfg_utab_check(cfg, why, sizeof(why)), 0);
	assert_int_equal(cli_validate(&cli, cfg, why, sizeof(why)), 0);
	/* The command line names the table: its message says so. */
	assert_int_equal(cfg_set_from_string(cfg, "eth0",
	    "unicast_master_table", "4"), 0);
	assert_int_equal(cfg_utab_check(cfg, why, sizeof(why)), -1);
	assert_string_equal(why, "command line: unicast_master_table 4 of "
	    "port eth0: no [unicast_master_table] has table_id 4");
	cfg_free(cfg);
}

/* ---- Debian's example ---- */

static void
test_debian_unicast_slave(void **state)
{
	const char *path = LINUXPTP_CONFIGS "/UNICAST-SLAVE.cfg";
	const struct cfg_utab *t;
	struct cfg *cfg;
	char why[512];
	unsigned int i;

	(void)state;
	/* check.sh installs linuxptp; its absence is a failure, no skip. */
	if (access(path, R_OK) != 0)
		fail_msg("%s missing (apt-get install linuxptp)", path);
	cfg = new_cfg();
	assert_int_equal(cfg_load_file(cfg, path), 0);
	assert_int_equal(cfg_error_count(cfg), 0);
	for (i = 0; i < diags.n; i++) {
		/* Only the keys still unimplemented may warn. */
		if (strstr(diags.d[i].text, "is known to ptp4l but not "
		    "implemented by ptpsep") == NULL)
			fail_msg("unexpected: %s", diags.d[i].text);
		if (strstr(diags.d[i].text, "[unicast_master_table]"))
			fail_msg("unexpected: %s", diags.d[i].text);
	}
	assert_int_equal(cfg_utab_count(cfg), 3);
	t = cfg_utab_port(cfg, "eth0");
	assert_non_null(t);
	assert_int_equal(t->table_id, 1);
	assert_int_equal(t->log_query_interval, 2);
	assert_int_equal(t->count, 3);
	assert_string_equal(addr(&t->addrs[2]), "192.168.3.33");
	t = cfg_utab_port(cfg, "eth1");
	assert_non_null(t);
	assert_int_equal(t->table_id, 2);
	assert_int_equal(t->count, 1);
	assert_int_equal(t->addrs[0].transport, CFG_TRANS_L2);
	t = cfg_utab_find(cfg, 3);
	assert_non_null(t);
	assert_true(t->has_peer);
	assert_string_equal(addr(&t->peer), "192.168.4.44");
	assert_int_equal(cfg_utab_check(cfg, why, sizeof(why)), 0);
	cfg_free(cfg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_peer_address_forms),
		cmocka_unit_test(test_duplicate_address_warns),
		cmocka_unit_test(test_table_id_errors),
		cmocka_unit_test(test_value_errors),
		cmocka_unit_test(test_address_errors),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_two_loads),
		cmocka_unit_test(test_check_against_ports),
		cmocka_unit_test(test_debian_unicast_slave),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
