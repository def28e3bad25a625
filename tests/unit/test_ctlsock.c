/*
 * test_ctlsock.c - the admin check of the control sockets (lib/ctlsock.c):
 * who may send a SetRequest to clockd.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "ctlsock.h"

static struct ctlsock_peer
peer(uid_t uid, gid_t gid, size_t n, const gid_t *groups)
{
	struct ctlsock_peer p;

	memset(&p, 0, sizeof(p));
	p.pid = 1234;
	p.uid = uid;
	p.gid = gid;
	p.ngroups = n;
	if (n > 0)
		memcpy(p.groups, groups, n * sizeof(gid_t));
	return p;
}

static void
test_root_always(void **state)
{
	struct ctlsock_peer p = peer(0, 0, 0, NULL);

	assert_int_equal(ctlsock_peer_is_admin(&p, 1, 993), 1);
	/* No admin_group on this system: root still may. */
	assert_int_equal(ctlsock_peer_is_admin(&p, 0, 0), 1);
}

static void
test_primary_and_supplementary(void **state)
{
	const gid_t g[] = { 100, 993, 27 };
	struct ctlsock_peer prim = peer(1000, 993, 0, NULL);
	struct ctlsock_peer supp = peer(1000, 1000, 3, g);

	assert_int_equal(ctlsock_peer_is_admin(&prim, 1, 993), 1);
	assert_int_equal(ctlsock_peer_is_admin(&supp, 1, 993), 1);
}

static void
test_others_refused(void **state)
{
	const gid_t g[] = { 100, 27 };
	struct ctlsock_peer nobody = peer(65534, 65534, 0, NULL);
	struct ctlsock_peer user = peer(1000, 1000, 2, g);
	/* gid 0 is not root: only uid 0 is. */
	struct ctlsock_peer gid0 = peer(1000, 0, 0, NULL);

	assert_int_equal(ctlsock_peer_is_admin(&nobody, 1, 993), 0);
	assert_int_equal(ctlsock_peer_is_admin(&user, 1, 993), 0);
	assert_int_equal(ctlsock_peer_is_admin(&gid0, 1, 993), 0);
	/* No such group: a gid that happens to match does not count. */
	assert_int_equal(ctlsock_peer_is_admin(&user, 0, 100), 0);
}

static void
test_ngroups_bounded(void **state)
{
	struct ctlsock_peer p = peer(1000, 1000, 0, NULL);

	/* A count beyond the array is never read past its end. */
	p.ngroups = CTLSOCK_MAX_GROUPS + 100;
	p.groups[CTLSOCK_MAX_GROUPS - 1] = 993;
	assert_int_equal(ctlsock_peer_is_admin(&p, 1, 993), 1);
	assert_int_equal(ctlsock_peer_is_admin(&p, 1, 994), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_always),
		cmocka_unit_test(test_primary_and_supplementary),
		cmocka_unit_test(test_others_refused),
		cmocka_unit_test(test_ngroups_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
