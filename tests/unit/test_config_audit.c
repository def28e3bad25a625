/*
 * test_config_audit.c - how the configuration is read (lib/cfg.c):
 * accessor misuse aborts, the audit of the keys never queried
 * (cfg_audit(), cfg_key_queried()), and PTPSEP_KEY_AUDIT's file.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config_fixture.h"
#include "log.h"

/* ---- accessor misuse ---- */

/* Accessor misuse is a bug in the caller: the process aborts. */
static void
misuse_unknown(void)
{
	struct cfg *cfg = cfg_new();

	(void)cfg_get_int(cfg, NULL, "domianNumber");
}

static void
misuse_type(void)
{
	struct cfg *cfg = cfg_new();

	(void)cfg_get_str(cfg, NULL, "domainNumber");
}

static void
expect_abort(void (*fn)(void))
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		log_init("test", 1, LOG_LVL_ERR - 1);	/* quiet */
		fn();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

static void
test_accessor_misuse(void **state)
{
	(void)state;
	expect_abort(misuse_unknown);
	expect_abort(misuse_type);
}

/* ---- the key audit ---- */

static void
count_key(void *arg, const struct cfg_key *k)
{
	(void)k;
	(*(size_t *)arg)++;
}

static void
remember_key(void *arg, const struct cfg_key *k)
{
	if (strcmp(k->name, "priority1") == 0)
		*(int *)arg = 1;
}

/*
 * Getting a key marks it queried, loading or setting it does not, an
 * alias marks its target; cfg_audit() lists the rest.
 */
static void
test_key_audit(void **state)
{
	struct cfg *cfg = new_cfg();
	size_t n_impl = 0, n, seen = 0;
	int found = 0;

	(void)state;
	assert_int_equal(load(cfg, "[global]\npriority1 7\nslaveOnly 1\n"
	    "[eth0]\nlogSyncInterval -3\n"), 0);
	assert_int_equal(cfg_set_int(cfg, NULL, "priority2", 9), 0);
	n_impl = cfg_audit(cfg, 0, CFG_ST_IMPLEMENTED, NULL, NULL);
	assert_true(n_impl > 50);
	assert_int_equal(cfg_audit(cfg, 1, CFG_ST_IMPLEMENTED, NULL, NULL), 0);
	assert_false(cfg_key_queried(cfg, "priority1"));
	assert_false(cfg_key_queried(cfg, "priority2"));

	assert_int_equal(cfg_get_int(cfg, NULL, "priority1"), 7);
	assert_int_equal(cfg_get_int(cfg, "eth0", "logSyncInterval"), -3);
	assert_int_equal(cfg_get_int(cfg, NULL, "slaveOnly"), 1);
	assert_true(cfg_is_set(cfg, NULL, "domainNumber") == 0);
	assert_true(cfg_key_queried(cfg, "priority1"));
	assert_true(cfg_key_queried(cfg, "logSyncInterval"));
	/* The alias and its target are one key. */
	assert_true(cfg_key_queried(cfg, "clientOnly"));
	assert_true(cfg_key_queried(cfg, "slaveOnly"));
	assert_true(cfg_key_queried(cfg, "domainNumber"));
	assert_false(cfg_key_queried(cfg, "priority2"));

	n = cfg_audit(cfg, 1, CFG_ST_IMPLEMENTED, remember_key, &found);
	assert_int_equal(n, 4);
	assert_true(found);
	assert_int_equal(cfg_audit(cfg, 0, CFG_ST_IMPLEMENTED, count_key,
	    &seen), n_impl - 4);
	assert_int_equal(seen, n_impl - 4);
	/* Unimplemented keys are audited apart. */
	assert_int_equal(cfg_audit(cfg, 1, CFG_ST_UNIMPLEMENTED, NULL, NULL),
	    0);
	(void)cfg_get_int(cfg, NULL, "socket_priority");
	assert_int_equal(cfg_audit(cfg, 1, CFG_ST_UNIMPLEMENTED, NULL, NULL),
	    1);
	cfg_free(cfg);
}

/* PTPSEP_KEY_AUDIT: cfg_free() appends the queried keys to the file. */
static void
test_key_audit_file(void **state)
{
	char path[] = "/tmp/test_config_audit.XXXXXX", buf[256];
	struct cfg *cfg;
	FILE *f;
	size_t len;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(setenv(CFG_AUDIT_ENV, path, 1), 0);
	cfg = new_cfg();
	(void)cfg_get_int(cfg, NULL, "priority2");
	(void)cfg_get_str(cfg, "eth9", "ptp_dst_mac");
	(void)cfg_get_int(cfg, NULL, "priority2");
	cfg_free(cfg);
	cfg = new_cfg();	/* a second process appends */
	(void)cfg_get_int(cfg, NULL, "domainNumber");
	cfg_free(cfg);
	assert_int_equal(unsetenv(CFG_AUDIT_ENV), 0);

	f = fopen(path, "r");
	assert_non_null(f);
	len = fread(buf, 1, sizeof(buf) - 1, f);
	buf[len] = '\0';
	fclose(f);
	unlink(path);
	/* Table order, each key once per process. */
	assert_string_equal(buf, "priority2\nptp_dst_mac\ndomainNumber\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accessor_misuse),
		cmocka_unit_test(test_key_audit),
		cmocka_unit_test(test_key_audit_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
