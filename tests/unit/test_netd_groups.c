/*
 * test_netd_groups.c - netd's multicast groups from ptp_dst_mac,
 * p2p_dst_mac and udp6_scope (transport_groups(), netd/transport.c).
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "netd/transport.h"

static const uint8_t ff0e_181[16] = { 0xff, 0x0e, [14] = 0x01, [15] = 0x81 };

/* Zeroed params (every user but netd's port_init): the protocol's. */
static void
test_defaults(void **state)
{
	struct transport_params pa;
	uint8_t pm[6], dm[6], v6[16];

	(void)state;
	memset(&pa, 0, sizeof(pa));
	assert_int_equal(transport_groups(&pa, pm, dm, v6), 0);
	assert_memory_equal(pm, "\x01\x1b\x19\x00\x00\x00", 6);
	assert_memory_equal(dm, "\x01\x80\xc2\x00\x00\x0e", 6);
	assert_memory_equal(v6, ff0e_181, 16);
}

/* Configured groups, and the scope nibble in FF0X::181. */
static void
test_configured(void **state)
{
	struct transport_params pa;
	uint8_t pm[6], dm[6], v6[16], want[16];

	(void)state;
	memset(&pa, 0, sizeof(pa));
	pa.dst_set = 1;
	memcpy(pa.primary_mac, "\x01\x1b\x19\x00\x00\x01", 6);
	memcpy(pa.pdelay_mac, "\x01\x80\xc2\x00\x00\x0f", 6);
	pa.udp6_scope = 0x05;
	assert_int_equal(transport_groups(&pa, pm, dm, v6), 0);
	assert_memory_equal(pm, "\x01\x1b\x19\x00\x00\x01", 6);
	assert_memory_equal(dm, "\x01\x80\xc2\x00\x00\x0f", 6);
	memcpy(want, ff0e_181, 16);
	want[1] = 0x05;			/* FF05::181, site-local */
	assert_memory_equal(v6, want, 16);

	pa.udp6_scope = 0x0e;
	assert_int_equal(transport_groups(&pa, pm, dm, v6), 0);
	assert_memory_equal(v6, ff0e_181, 16);
	pa.udp6_scope = 0x02;
	assert_int_equal(transport_groups(&pa, pm, dm, v6), 0);
	assert_int_equal(v6[1], 0x02);
	assert_int_equal(v6[15], 0x81);
}

/* Not a group address, or a scope beyond the nibble: refused. */
static void
test_refused(void **state)
{
	struct transport_params pa;
	uint8_t pm[6], dm[6], v6[16];

	(void)state;
	memset(&pa, 0, sizeof(pa));
	pa.dst_set = 1;
	memcpy(pa.primary_mac, "\x02\x00\x00\x00\x00\x01", 6);	/* unicast */
	memcpy(pa.pdelay_mac, "\x01\x80\xc2\x00\x00\x0e", 6);
	pa.udp6_scope = 0x0e;
	assert_int_equal(transport_groups(&pa, pm, dm, v6), -EINVAL);
	memcpy(pa.primary_mac, "\x01\x1b\x19\x00\x00\x00", 6);
	memcpy(pa.pdelay_mac, "\x00\x80\xc2\x00\x00\x0e", 6);	/* unicast */
	assert_int_equal(transport_groups(&pa, pm, dm, v6), -EINVAL);
	memcpy(pa.pdelay_mac, "\x01\x80\xc2\x00\x00\x0e", 6);
	pa.udp6_scope = 0x10;
	assert_int_equal(transport_groups(&pa, pm, dm, v6), -EINVAL);
	pa.udp6_scope = -1;
	assert_int_equal(transport_groups(&pa, pm, dm, v6), -EINVAL);
	pa.udp6_scope = 0;
	assert_int_equal(transport_groups(&pa, pm, dm, v6), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_configured),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
