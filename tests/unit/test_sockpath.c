/*
 * test_sockpath.c - lib/sockpath.c: a socket node is made without
 * following a symlink, without removing what is not a socket, and only in
 * a directory that nobody else can write (issue 11, item 7).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sockpath.h"

static char dir[64];
static char path[128];
static char victim[128];
static char why[256];

static int
setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/test_sockpath.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/s.sock", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	return 0;
}

static int
teardown(void **state)
{
	(void)unlink(path);
	(void)unlink(victim);
	(void)chmod(dir, 0700);
	return rmdir(dir);
}

static int
usock(void)
{
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	return fd;
}

static void
make_victim(void)
{
	int fd = open(victim, O_WRONLY | O_CREAT | O_EXCL, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "secret\n", 7), 7);
	close(fd);
}

static void
victim_untouched(void)
{
	struct stat st;

	assert_int_equal(lstat(victim, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(st.st_uid, geteuid());
	assert_int_equal(st.st_size, 7);
}

static void
test_dir_check(void **state)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	st.st_mode = S_IFDIR | 0755;
	st.st_uid = 0;
	assert_int_equal(sockpath_dir_check(&st, 995, why, sizeof(why)), 0);
	st.st_uid = 995;
	assert_int_equal(sockpath_dir_check(&st, 995, why, sizeof(why)), 0);
	/* Another user's directory. */
	st.st_uid = 1000;
	assert_int_equal(sockpath_dir_check(&st, 995, why, sizeof(why)),
	    -EPERM);
	assert_non_null(strstr(why, "owned by uid 1000"));
	/* Writable by others, or by the group. */
	st.st_uid = 0;
	st.st_mode = S_IFDIR | 0777;
	assert_int_equal(sockpath_dir_check(&st, 0, why, sizeof(why)),
	    -EPERM);
	assert_non_null(strstr(why, "writable by group or others"));
	st.st_mode = S_IFDIR | 0775;
	assert_int_equal(sockpath_dir_check(&st, 0, why, sizeof(why)),
	    -EPERM);
	/* /tmp: sticky and root's. */
	st.st_mode = S_IFDIR | 01777;
	assert_int_equal(sockpath_dir_check(&st, 995, why, sizeof(why)), 0);
	/* Sticky but a user's: that user could still swap our node. */
	st.st_uid = 1000;
	assert_int_equal(sockpath_dir_check(&st, 995, why, sizeof(why)),
	    -EPERM);
	st.st_mode = S_IFREG | 0755;
	st.st_uid = 0;
	assert_int_equal(sockpath_dir_check(&st, 0, why, sizeof(why)),
	    -ENOTDIR);
}

static void
test_bind_mode_and_replace_stale(void **state)
{
	struct stat st;
	int fd = usock(), fd2 = usock();

	assert_int_equal(sockpath_bind(fd, path, 0660, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, why, sizeof(why)), 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	/* Born with the mode: no chmod by path afterwards. */
	assert_int_equal(st.st_mode & 07777, 0660);
	close(fd);
	/* A stale socket (the last run's) is replaced. */
	assert_int_equal(sockpath_bind(fd2, path, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, why, sizeof(why)), 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0666);
	close(fd2);
	assert_int_equal(sockpath_unlink(path), 0);
	assert_int_equal(lstat(path, &st), -1);
}

static void
test_symlink_not_followed(void **state)
{
	uid_t uid = geteuid() == 0 ? 65534 : SOCKPATH_NO_ID;
	struct stat st;
	int fd = usock();

	make_victim();
	assert_int_equal(symlink(victim, path), 0);
	assert_int_equal(sockpath_bind(fd, path, 0666, uid, SOCKPATH_NO_ID,
	    why, sizeof(why)), -EEXIST);
	assert_non_null(strstr(why, "a symlink"));
	victim_untouched();
	/* The symlink is left as it was, for someone to look at. */
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* Nor does removal follow it or remove it. */
	assert_int_equal(sockpath_unlink(path), -EEXIST);
	victim_untouched();
	close(fd);
}

static void
test_file_not_removed(void **state)
{
	int fd = usock();

	/* A configured path naming a file: refused, the file kept. */
	make_victim();
	assert_int_equal(sockpath_bind(fd, victim, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, why, sizeof(why)), -EEXIST);
	assert_non_null(strstr(why, "not a socket"));
	victim_untouched();
	close(fd);
}

static void
test_unsafe_dirs_refused(void **state)
{
	char sub[160], sock[200], link[160];
	int fd = usock(), rc;

	/* World-writable, not sticky. */
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(sockpath_bind(fd, path, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "writable by group or others"));
	assert_int_equal(chmod(dir, 0700), 0);

	/* The socket's directory given through a symlink. */
	snprintf(sub, sizeof(sub), "%s/real", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	snprintf(sock, sizeof(sock), "%s/s.sock", link);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(symlink(sub, link), 0);
	/* Linux says ENOTDIR for O_DIRECTORY|O_NOFOLLOW on a symlink. */
	rc = sockpath_bind(fd, sock, 0666, SOCKPATH_NO_ID, SOCKPATH_NO_ID,
	    why, sizeof(why));
	assert_true(rc == -ELOOP || rc == -ENOTDIR);
	assert_non_null(strstr(why, "symlink"));
	assert_int_equal(unlink(link), 0);

	/* A missing directory is made, 0755 at most. */
	snprintf(sub, sizeof(sub), "%s/new", dir);
	snprintf(sock, sizeof(sock), "%s/s.sock", sub);
	assert_int_equal(sockpath_bind(fd, sock, 0666, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, why, sizeof(why)), 0);
	assert_int_equal(sockpath_unlink(sock), 0);
	assert_int_equal(rmdir(sub), 0);
	snprintf(sub, sizeof(sub), "%s/real", dir);
	assert_int_equal(rmdir(sub), 0);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir_check),
		cmocka_unit_test_setup_teardown(test_bind_mode_and_replace_stale,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_not_followed,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_not_removed,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsafe_dirs_refused,
		    setup, teardown),
	};

	return cmocka_run_group_tests_name("sockpath", tests, NULL, NULL);
}
