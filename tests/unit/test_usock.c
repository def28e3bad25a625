/*
 * test_usock.c - lib/usock.c, the socket plumbing of every local channel:
 * a listening socket born with its mode and owner (a stale socket
 * replaced, anything else at the name refused, an unsafe directory
 * refused), connect and its errors, the peer's credentials, the admin
 * check, the drain before a refusal's close, and the Hello verdict.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "usock.h"

static char dir[64];
static char path[128];
static char file[128];
static char why[256];

static int
setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/test_usock.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/s.sock", dir);
	snprintf(file, sizeof(file), "%s/file", dir);
	return 0;
}

static int
teardown(void **state)
{
	(void)unlink(path);
	(void)unlink(file);
	(void)chown(dir, 0, 0);
	(void)chmod(dir, 0700);
	return rmdir(dir);
}

/* ---- listen ---- */

static void
test_listen_mode_and_owner(void **state)
{
	/* As root the owner is set as netd sets netd_socket's. */
	uid_t uid = geteuid() == 0 ? 65534 : SOCKPATH_NO_ID;
	gid_t gid = geteuid() == 0 ? 65534 : (gid_t)SOCKPATH_NO_ID;
	struct stat st;
	int fd, on = 0;
	socklen_t len = sizeof(on);

	umask(022);
	fd = usock_listen(path, SOCK_SEQPACKET, 0660, uid, gid, 4, 0, why,
	    sizeof(why));
	assert_true(fd >= 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	/* The mode despite the umask, without a chmod by path. */
	assert_int_equal(st.st_mode & 07777, 0660);
	assert_int_equal(umask(022), 022);
	if (uid != SOCKPATH_NO_ID) {
		assert_int_equal(st.st_uid, uid);
		assert_int_equal(st.st_gid, gid);
	} else {
		assert_int_equal(st.st_uid, geteuid());
	}
	/* Non-blocking and close-on-exec, as every event loop wants it. */
	assert_true(fcntl(fd, F_GETFL) & O_NONBLOCK);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	assert_int_equal(getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &len),
	    0);
	assert_int_equal(on, 1);
	close(fd);
	assert_int_equal(sockpath_unlink(path), 0);

	/* pmc_socket: a datagram socket with SO_PASSCRED from the start. */
	fd = usock_listen(path, SOCK_DGRAM, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, 0, USOCK_PASSCRED, why, sizeof(why));
	assert_true(fd >= 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0666);
	len = sizeof(on);
	assert_int_equal(getsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, &len),
	    0);
	assert_int_equal(on, 1);
	close(fd);
}

static void
test_listen_stale_replaced_file_refused(void **state)
{
	struct stat st;
	FILE *f;
	int fd, fd2, c;

	fd = usock_listen(path, SOCK_SEQPACKET, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, 4, 0, why, sizeof(why));
	assert_true(fd >= 0);
	close(fd);
	/* The last run's socket is still there, dead, and is replaced. */
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(usock_connect(path, SOCK_SEQPACKET, 1, 0),
	    -ECONNREFUSED);
	fd2 = usock_listen(path, SOCK_SEQPACKET, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, 4, 0, why, sizeof(why));
	assert_true(fd2 >= 0);
	c = usock_connect(path, SOCK_SEQPACKET, 1, 0);
	assert_true(c >= 0);
	close(c);
	close(fd2);

	/* A file at the name: refused and left as it was. */
	assert_non_null(f = fopen(file, "w"));
	fputs("keep\n", f);
	fclose(f);
	fd = usock_listen(file, SOCK_SEQPACKET, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, 4, 0, why, sizeof(why));
	assert_int_equal(fd, -EEXIST);
	assert_non_null(strstr(why, "not a socket"));
	assert_int_equal(lstat(file, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 5);

	/* A symlink at the name: neither followed nor removed. */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink(file, path), 0);
	fd = usock_listen(path, SOCK_DGRAM, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, 0, USOCK_PASSCRED, why, sizeof(why));
	assert_int_equal(fd, -EEXIST);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(file, &st), 0);
	assert_int_equal(st.st_size, 5);
}

static void
test_listen_dir_checked_and_made(void **state)
{
	char sub[160], sock[200];
	struct stat st;
	int fd;

	/* World-writable and not sticky: another user could swap the node. */
	assert_int_equal(chmod(dir, 0777), 0);
	fd = usock_listen(path, SOCK_SEQPACKET, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, 4, 0, why, sizeof(why));
	assert_int_equal(fd, -EPERM);
	assert_non_null(strstr(why, "writable by group or others"));
	assert_int_equal(lstat(path, &st), -1);
	assert_int_equal(chmod(dir, 0700), 0);

	/* Owned by someone else (not root, not us): refused likewise. */
	if (geteuid() == 0) {
		assert_int_equal(chown(dir, 65534, 65534), 0);
		fd = usock_listen(path, SOCK_SEQPACKET, 0666, SOCKPATH_NO_ID,
		    SOCKPATH_NO_ID, 4, 0, why, sizeof(why));
		assert_int_equal(fd, -EPERM);
		assert_non_null(strstr(why, "owned by uid 65534"));
		assert_int_equal(chown(dir, 0, 0), 0);
	} else {
		/* Cannot give a directory away: the same check, on a stat. */
		memset(&st, 0, sizeof(st));
		st.st_mode = S_IFDIR | 0755;
		st.st_uid = geteuid() + 1;
		assert_int_equal(sockpath_dir_check(&st, geteuid(), why,
		    sizeof(why)), -EPERM);
		print_message("not root: the wrong owner checked on a stat\n");
	}

	/* A missing directory (/run/ptpsep at boot) is made, 0755. */
	umask(022);
	snprintf(sub, sizeof(sub), "%s/new", dir);
	snprintf(sock, sizeof(sock), "%s/s.sock", sub);
	fd = usock_listen(sock, SOCK_SEQPACKET, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, 4, 0, why, sizeof(why));
	assert_true(fd >= 0);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	close(fd);
	assert_int_equal(sockpath_unlink(sock), 0);
	assert_int_equal(rmdir(sub), 0);
}

static void
test_listen_path_too_long(void **state)
{
	char lng[sizeof(((struct sockaddr_un *)0)->sun_path) + 8];

	memset(lng, 'a', sizeof(lng) - 1);
	lng[0] = '/';
	lng[sizeof(lng) - 1] = '\0';
	assert_int_equal(usock_listen(lng, SOCK_SEQPACKET, 0666,
	    SOCKPATH_NO_ID, SOCKPATH_NO_ID, 4, 0, why, sizeof(why)),
	    -ENAMETOOLONG);
	assert_non_null(strstr(why, "path too long"));
	assert_int_equal(usock_connect(lng, SOCK_SEQPACKET, 0, 0),
	    -ENAMETOOLONG);
}

/* ---- connect, accept, peer ---- */

static void
test_connect_accept_peer(void **state)
{
	struct usock_peer p;
	struct timeval tv;
	socklen_t len = sizeof(tv);
	int lfd, c, a, s;

	lfd = usock_listen(path, SOCK_SEQPACKET, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, 4, 0, why, sizeof(why));
	assert_true(lfd >= 0);
	/* Nothing to accept yet: -EAGAIN, which callers do not log. */
	assert_int_equal(usock_accept(lfd, &p, why, sizeof(why)), -EAGAIN);

	/* clockd's way: non-blocking once connected, no timeouts. */
	c = usock_connect(path, SOCK_SEQPACKET, 0, USOCK_NONBLOCK);
	assert_true(c >= 0);
	assert_true(fcntl(c, F_GETFL) & O_NONBLOCK);
	assert_true(fcntl(c, F_GETFD) & FD_CLOEXEC);
	a = usock_accept(lfd, &p, why, sizeof(why));
	assert_true(a >= 0);
	assert_true(fcntl(a, F_GETFL) & O_NONBLOCK);
	assert_int_equal(p.pid, getpid());
	assert_int_equal(p.uid, geteuid());
	assert_int_equal(p.gid, getegid());
	close(a);
	close(c);

	/* ptpctl's way: blocking, with a time-out on every answer. */
	s = usock_connect(path, SOCK_SEQPACKET, 3, 0);
	assert_true(s >= 0);
	assert_false(fcntl(s, F_GETFL) & O_NONBLOCK);
	assert_int_equal(getsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, &len), 0);
	assert_int_equal(tv.tv_sec, 3);
	close(s);
	close(lfd);

	/* The socket is there but nobody listens (a crashed daemon's). */
	assert_int_equal(usock_connect(path, SOCK_SEQPACKET, 0, 0),
	    -ECONNREFUSED);
	assert_int_equal(sockpath_unlink(path), 0);
	assert_int_equal(usock_connect(path, SOCK_SEQPACKET, 0, 0), -ENOENT);
}

static void
test_peer_on_socketpair(void **state)
{
	gid_t groups[USOCK_MAX_GROUPS];
	struct usock_peer p;
	int sv[2], n, i;

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	memset(&p, 0xa5, sizeof(p));
	assert_int_equal(usock_peer(sv[0], &p), 0);
	assert_int_equal(p.pid, getpid());
	assert_int_equal(p.uid, geteuid());
	assert_int_equal(p.gid, getegid());
	/* SO_PEERGROUPS: our supplementary groups, as getgroups() says. */
	n = getgroups(0, NULL);
	assert_true(n >= 0);
	if (n <= USOCK_MAX_GROUPS) {
		assert_int_equal(getgroups(n, groups), n);
		assert_int_equal(p.ngroups, (size_t)n);
		for (i = 0; i < n; i++)
			assert_int_equal(p.groups[i], groups[i]);
	} else {
		assert_int_equal(p.ngroups, USOCK_MAX_GROUPS);
	}
	close(sv[0]);
	close(sv[1]);
	/* Not a connected socket: an error, not a stranger's identity. */
	assert_int_equal(usock_peer(-1, &p), -EBADF);
}

static void
test_drain(void **state)
{
	char b[8];
	int sv[2], i;

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(send(sv[1], "hello", 5, 0), 5);
	usock_drain(sv[0], 2);
	/* Bounded: the third is still there. */
	assert_int_equal(recv(sv[0], b, sizeof(b), MSG_DONTWAIT), 5);
	/* An empty socket does not block it. */
	usock_drain(sv[0], 16);
	assert_int_equal(recv(sv[0], b, sizeof(b), MSG_DONTWAIT), -1);
	assert_int_equal(errno, EAGAIN);
	close(sv[0]);
	close(sv[1]);
}

/* ---- who is an admin (pure) ---- */

static struct usock_peer
peer(uid_t uid, gid_t gid, size_t n, const gid_t *groups)
{
	struct usock_peer p;

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
test_admin_root_always(void **state)
{
	struct usock_peer p = peer(0, 0, 0, NULL);

	assert_int_equal(usock_peer_is_admin(&p, 1, 993), 1);
	/* No admin_group on this system: root still may. */
	assert_int_equal(usock_peer_is_admin(&p, 0, 0), 1);
}

static void
test_admin_primary_and_supplementary(void **state)
{
	const gid_t g[] = { 100, 993, 27 };
	struct usock_peer prim = peer(1000, 993, 0, NULL);
	struct usock_peer supp = peer(1000, 1000, 3, g);

	assert_int_equal(usock_peer_is_admin(&prim, 1, 993), 1);
	assert_int_equal(usock_peer_is_admin(&supp, 1, 993), 1);
}

static void
test_admin_others_refused(void **state)
{
	const gid_t g[] = { 100, 27 };
	struct usock_peer nobody = peer(65534, 65534, 0, NULL);
	struct usock_peer user = peer(1000, 1000, 2, g);
	/* gid 0 is not root: only uid 0 is. */
	struct usock_peer gid0 = peer(1000, 0, 0, NULL);

	assert_int_equal(usock_peer_is_admin(&nobody, 1, 993), 0);
	assert_int_equal(usock_peer_is_admin(&user, 1, 993), 0);
	assert_int_equal(usock_peer_is_admin(&gid0, 1, 993), 0);
	/* No such group: a gid that happens to match does not count. */
	assert_int_equal(usock_peer_is_admin(&user, 0, 100), 0);
}

static void
test_admin_ngroups_bounded(void **state)
{
	struct usock_peer p = peer(1000, 1000, 0, NULL);

	/* A count beyond the array is never read past its end. */
	p.ngroups = USOCK_MAX_GROUPS + 100;
	p.groups[USOCK_MAX_GROUPS - 1] = 993;
	assert_int_equal(usock_peer_is_admin(&p, 1, 993), 1);
	assert_int_equal(usock_peer_is_admin(&p, 1, 994), 0);
}

/* ---- Hello ---- */

static void
test_hello_check(void **state)
{
	Ptpsep__Netd__NetdMsg m = PTPSEP__NETD__NETD_MSG__INIT;
	Ptpsep__Netd__TxFrame tx = PTPSEP__NETD__TX_FRAME__INIT;
	Ptpsep__Ctl__CtlRequest q = PTPSEP__CTL__CTL_REQUEST__INIT;
	Ptpsep__Ctl__CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Hello h;
	const char *w;

	/* Something else first. */
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_TX_FRAME;
	m.tx_frame = &tx;
	assert_int_equal(usock_hello_check(&m.base, PTPSEP__ROLE__ROLE_CLOCKD,
	    &w), PTPSEP__ERROR_CODE__ERROR_PROTOCOL);
	assert_string_equal(w, "first message is not Hello");
	/* The Hello case with no Hello in it: the same, not a crash. */
	m.body_case = PTPSEP__NETD__NETD_MSG__BODY_HELLO;
	m.hello = NULL;
	assert_int_equal(usock_hello_check(&m.base, PTPSEP__ROLE__ROLE_CLOCKD,
	    &w), PTPSEP__ERROR_CODE__ERROR_PROTOCOL);
	/* Nothing set at all. */
	assert_int_equal(usock_hello_check(&q.base, PTPSEP__ROLE__ROLE_CTL,
	    &w), PTPSEP__ERROR_CODE__ERROR_PROTOCOL);
	/* Not an envelope: no member "hello". */
	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CLOCKD);
	assert_int_equal(usock_hello_check(&h.base, PTPSEP__ROLE__ROLE_CLOCKD,
	    &w), PTPSEP__ERROR_CODE__ERROR_PROTOCOL);

	/* clockd's Hello on netd_socket. */
	m.hello = &h;
	assert_int_equal(usock_hello_check(&m.base, PTPSEP__ROLE__ROLE_CLOCKD,
	    &w), PTPSEP__ERROR_CODE__ERROR_UNSPECIFIED);
	assert_null(w);

	/* netd_socket is for clockd: ptpctl's Hello is refused. */
	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CTL);
	assert_int_equal(usock_hello_check(&m.base, PTPSEP__ROLE__ROLE_CLOCKD,
	    &w), PTPSEP__ERROR_CODE__ERROR_VERSION_MISMATCH);
	assert_non_null(strstr(w, "expected"));
	/* It is what a control socket wants, in a CtlRequest. */
	q.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_HELLO;
	q.hello = &h;
	assert_int_equal(usock_hello_check(&q.base, PTPSEP__ROLE__ROLE_CTL,
	    &w), PTPSEP__ERROR_CODE__ERROR_UNSPECIFIED);

	/* ptpctl takes any known role in the daemon's CtlResponse... */
	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_NETD);
	r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_HELLO;
	r.hello = &h;
	assert_int_equal(usock_hello_check(&r.base,
	    PTPSEP__ROLE__ROLE_UNSPECIFIED, &w),
	    PTPSEP__ERROR_CODE__ERROR_UNSPECIFIED);
	/* ...but not another protocol version: named, with what to do. */
	h.protocol_version = IPC_PROTOCOL_VERSION + 1;
	assert_int_equal(usock_hello_check(&r.base,
	    PTPSEP__ROLE__ROLE_UNSPECIFIED, &w),
	    PTPSEP__ERROR_CODE__ERROR_VERSION_MISMATCH);
	assert_non_null(strstr(w, "protocol version"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_listen_mode_and_owner,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_listen_stale_replaced_file_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_listen_dir_checked_and_made, setup, teardown),
		cmocka_unit_test(test_listen_path_too_long),
		cmocka_unit_test_setup_teardown(test_connect_accept_peer,
		    setup, teardown),
		cmocka_unit_test(test_peer_on_socketpair),
		cmocka_unit_test(test_drain),
		cmocka_unit_test(test_admin_root_always),
		cmocka_unit_test(test_admin_primary_and_supplementary),
		cmocka_unit_test(test_admin_others_refused),
		cmocka_unit_test(test_admin_ngroups_bounded),
		cmocka_unit_test(test_hello_check),
	};

	return cmocka_run_group_tests_name("usock", tests, NULL, NULL);
}
