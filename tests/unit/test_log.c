/* test_log.c - the log module: level parsing, errno suffix, level filter. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "log.h"

/* Runs fn with stderr redirected into buf. */
static void
capture_stderr(void (*fn)(void), char *buf, size_t len)
{
	int fds[2], saved;
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	fflush(stderr);
	saved = dup(2);
	dup2(fds[1], 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fds[1]);
	n = read(fds[0], buf, len - 1);
	close(fds[0]);
	buf[n > 0 ? n : 0] = '\0';
}

static void
emit_warn_errno(void)
{
	errno = ENOENT;
	log_warn("open %s", "/nonexistent");
}

static void
emit_debug(void)
{
	log_debug("hidden");
}

static void
test_warn_appends_strerror(void **state)
{
	char buf[512];

	log_init("test", 1, LOG_LVL_INFO);
	capture_stderr(emit_warn_errno, buf, sizeof(buf));
	assert_non_null(strstr(buf, "test["));
	assert_non_null(strstr(buf,
	    "warning: open /nonexistent: No such file or directory"));
}

static void
test_level_filter(void **state)
{
	char buf[512];

	log_init("test", 1, LOG_LVL_INFO);
	capture_stderr(emit_debug, buf, sizeof(buf));
	assert_string_equal(buf, "");
	log_set_level(LOG_LVL_DEBUG);
	capture_stderr(emit_debug, buf, sizeof(buf));
	assert_non_null(strstr(buf, "hidden"));
}

static void
test_level_parse(void **state)
{
	assert_int_equal(log_level_parse("debug"), LOG_LVL_DEBUG);
	assert_int_equal(log_level_parse("warning"), LOG_LVL_WARN);
	assert_int_equal(log_level_parse("6"), LOG_LVL_INFO);
	assert_int_equal(log_level_parse("8"), -1);
	assert_int_equal(log_level_parse(""), -1);
	assert_int_equal(log_level_parse("verbose"), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_warn_appends_strerror),
		cmocka_unit_test(test_level_filter),
		cmocka_unit_test(test_level_parse),
	};

	return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
