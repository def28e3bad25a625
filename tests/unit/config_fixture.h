/*
 * config_fixture.h - what the configuration unit tests
 * (tests/unit/test_config*.c, test_cfg_utab.c) share: a cfg whose diagnostics are captured
 * in `diags`, loading a text as file "t.cfg", and asserting on the
 * diagnostics reported.
 */
#ifndef PTPSEP_TESTS_CONFIG_FIXTURE_H
#define PTPSEP_TESTS_CONFIG_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "cfg.h"

#define MAX_DIAGS 512

struct diags {
	unsigned int n;
	struct {
		enum cfg_severity sev;
		unsigned int line;
		char key[128];
		char text[1024];
	} d[MAX_DIAGS];
};

/* The diagnostics of the cfg that new_cfg() made last. */
extern struct diags diags;

/* A new cfg reporting into diags (emptied). */
struct cfg *new_cfg(void);

/* Loads text as the file "t.cfg". */
int load(struct cfg *cfg, const char *text);

/* Asserts one diagnostic with exactly this text was reported. */
void assert_diag(const char *text);

/* Loads text, expects one error with this text. */
void expect_one_error(const char *cfgtext, const char *msg);

#endif /* PTPSEP_TESTS_CONFIG_FIXTURE_H */
