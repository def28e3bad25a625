/*
 * test_log.c - the log module: level parsing, errno suffix, level filter,
 * lazy arguments, rate limit, outputs (verbose, use_syslog) and
 * message_tag.
 */
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

static int side_effects;

static int
side_effect(void)
{
	side_effects++;
	return 42;
}

static void
emit_lazy(void)
{
	log_debug("debug %d", side_effect());
	log_info("info %d", side_effect());
}

/* Issue 11: no log argument is computed when its level is off. */
static void
test_lazy_arguments(void **state)
{
	char buf[512];

	log_init("test", 1, LOG_LVL_NOTICE);
	side_effects = 0;
	capture_stderr(emit_lazy, buf, sizeof(buf));
	assert_int_equal(side_effects, 0);
	assert_string_equal(buf, "");

	log_set_level(LOG_LVL_INFO);
	capture_stderr(emit_lazy, buf, sizeof(buf));
	assert_int_equal(side_effects, 1);	/* info only */
	assert_non_null(strstr(buf, "info 42"));
	assert_null(strstr(buf, "debug 42"));

	log_set_level(LOG_LVL_DEBUG);
	capture_stderr(emit_lazy, buf, sizeof(buf));
	assert_int_equal(side_effects, 3);
	assert_non_null(strstr(buf, "debug 42"));
	/* Still an expression, as the function call was. */
	log_set_level(LOG_LVL_NOTICE);
	(void)(1 ? log_debug("in an expression") : (void)0);
}

static void
test_rl_admit(void **state)
{
	struct log_ratelimit rl;
	struct timespec t = { 1000, 0 };
	unsigned rep, i;

	memset(&rl, 0, sizeof(rl));
	for (i = 0; i < LOG_RL_BURST; i++) {
		assert_int_equal(log_rl_admit(&rl, &t, &rep), 1);
		assert_int_equal(rep, 0);
		t.tv_nsec += 1000;
	}
	for (i = 0; i < 25; i++)
		assert_int_equal(log_rl_admit(&rl, &t, &rep), 0);
	/* Still inside the interval. */
	t.tv_sec += LOG_RL_INTERVAL_S - 1;
	assert_int_equal(log_rl_admit(&rl, &t, &rep), 0);
	/* A new interval: admitted, and told how many were dropped. */
	t.tv_sec += 1;
	assert_int_equal(log_rl_admit(&rl, &t, &rep), 1);
	assert_int_equal(rep, 26);
	assert_int_equal(log_rl_admit(&rl, &t, &rep), 1);
	assert_int_equal(rep, 0);
	/* A clock going backwards starts a new interval, never stalls. */
	t.tv_sec -= 100;
	for (i = 0; i < LOG_RL_BURST; i++)
		assert_int_equal(log_rl_admit(&rl, &t, &rep), 1);
	assert_int_equal(log_rl_admit(&rl, &t, &rep), 0);
}

static void
emit_flood(void)
{
	int i;

	for (i = 0; i < 1000; i++)
		log_rl(LOG_LVL_WARN, "peer %d misbehaved", i);
}

static size_t
count_lines(const char *buf, const char *needle)
{
	size_t n = 0;
	const char *p = buf;

	while ((p = strstr(p, needle)) != NULL) {
		n++;
		p += strlen(needle);
	}
	return n;
}

static void
test_ratelimited_lines(void **state)
{
	char buf[8192];

	log_init("test", 1, LOG_LVL_INFO);
	capture_stderr(emit_flood, buf, sizeof(buf));
	assert_int_equal(count_lines(buf, "misbehaved"), LOG_RL_BURST);
	assert_non_null(strstr(buf, "peer 0 misbehaved"));
	assert_null(strstr(buf, "peer 10 misbehaved"));
}

static void
test_outputs(void **state)
{
	int e, s;

	/* ptp4l's defaults (verbose 0, use_syslog 1): syslog only. */
	log_outputs(0, 0, 0, 1, &e, &s);
	assert_int_equal(e, 0);
	assert_int_equal(s, 1);
	/* verbose 1: also stderr. */
	log_outputs(0, 0, 1, 1, &e, &s);
	assert_int_equal(e, 1);
	assert_int_equal(s, 1);
	/* use_syslog 0: no syslog. */
	log_outputs(0, 0, 1, 0, &e, &s);
	assert_int_equal(e, 1);
	assert_int_equal(s, 0);
	/* -m is verbose, -q is use_syslog 0, whatever the file says. */
	log_outputs(1, 1, 0, 1, &e, &s);
	assert_int_equal(e, 1);
	assert_int_equal(s, 0);
}

static void
emit_info(void)
{
	log_info("tagged line");
}

static void
test_message_tag_and_stderr_off(void **state)
{
	char buf[512];

	log_init("test", 1, LOG_LVL_INFO);
	log_set_message_tag("inst-a");
	capture_stderr(emit_info, buf, sizeof(buf));
	assert_non_null(strstr(buf, "[inst-a] tagged line"));
	log_set_message_tag(NULL);
	capture_stderr(emit_info, buf, sizeof(buf));
	assert_null(strstr(buf, "[inst-a]"));
	assert_non_null(strstr(buf, "tagged line"));
	/* verbose 0 and use_syslog 0: nothing, as ptp4l. */
	log_set_outputs(0, 0);
	capture_stderr(emit_info, buf, sizeof(buf));
	assert_string_equal(buf, "");
	log_set_outputs(1, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_warn_appends_strerror),
		cmocka_unit_test(test_level_filter),
		cmocka_unit_test(test_level_parse),
		cmocka_unit_test(test_lazy_arguments),
		cmocka_unit_test(test_rl_admit),
		cmocka_unit_test(test_ratelimited_lines),
		cmocka_unit_test(test_outputs),
		cmocka_unit_test(test_message_tag_and_stderr_off),
	};

	return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
