/*
 * test_notify.c - notify_send() speaks the sd_notify protocol: one datagram
 * to $NOTIFY_SOCKET, a filesystem path or an abstract "@name".
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "notify.h"

/* A datagram socket bound to path (or "@name"); returns its fd. */
static int
bind_dgram(const char *path)
{
	struct sockaddr_un sun;
	size_t len = strlen(path);
	socklen_t salen;
	int fd;

	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	assert_true(fd >= 0);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, len);
	salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
	if (path[0] == '@')
		sun.sun_path[0] = '\0';
	else
		salen++;
	assert_int_equal(bind(fd, (struct sockaddr *)&sun, salen), 0);
	return fd;
}

static void
expect_datagram(int fd, const char *want)
{
	char buf[64];
	ssize_t n;

	n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, want);
}

static void
test_unset(void **state)
{
	unsetenv("NOTIFY_SOCKET");
	assert_int_equal(notify_send("READY=1"), 0);
	setenv("NOTIFY_SOCKET", "", 1);
	assert_int_equal(notify_send("READY=1"), 0);
}

static void
test_path(void **state)
{
	char dir[] = "/tmp/test_notify.XXXXXX", path[64];
	int fd;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/notify", dir);
	fd = bind_dgram(path);
	setenv("NOTIFY_SOCKET", path, 1);
	assert_int_equal(notify_send("READY=1"), 1);
	expect_datagram(fd, "READY=1");
	assert_int_equal(notify_send("STOPPING=1"), 1);
	expect_datagram(fd, "STOPPING=1");
	close(fd);
	unlink(path);
	rmdir(dir);
	/* Nobody listens any more: an error, not a crash. */
	assert_true(notify_send("READY=1") < 0);
}

static void
test_abstract(void **state)
{
	char name[64];
	int fd;

	snprintf(name, sizeof(name), "@ptpsep-test-notify-%ld", (long)getpid());
	fd = bind_dgram(name);
	setenv("NOTIFY_SOCKET", name, 1);
	assert_int_equal(notify_send("READY=1"), 1);
	expect_datagram(fd, "READY=1");
	close(fd);
}

static void
test_bad_address(void **state)
{
	char longp[200];

	setenv("NOTIFY_SOCKET", "relative/path", 1);
	assert_true(notify_send("READY=1") < 0);
	memset(longp, 'a', sizeof(longp) - 1);
	longp[0] = '/';
	longp[sizeof(longp) - 1] = '\0';
	setenv("NOTIFY_SOCKET", longp, 1);
	assert_true(notify_send("READY=1") < 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unset),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_abstract),
		cmocka_unit_test(test_bad_address),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
