/*
 * test_leapfile.c - lib/leapfile.c: the tz database's leap-seconds.list
 * (tests/vectors/leap-seconds.list, tzdata's copy, expiring 2026-06-28)
 * and every malformed input refused with its reason.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "leapfile.h"

#ifndef LEAP_VECTOR
#error LEAP_VECTOR: the path of tests/vectors/leap-seconds.list
#endif

/* Unix seconds of a few UTC midnights */
#define D1972_07_01	78796800LL
#define D2015_07_01	1435708800LL
#define D2017_01_01	1483228800LL
#define D2026_06_28	1782604800LL

/* A small valid file: the first three entries and an expiry; tests edit
 * copies of it. */
static const char small[] =
    "# a comment\n"
    "#$\t3676924800\n"
    "#@\t3991593600\n"
    "2272060800\t10\t# 1 Jan 1972\n"
    "2287785600\t11\t# 1 Jul 1972\n"
    "\n"
    "2303683200 12 # 1 Jan 1973\n"
    "#h\tnot checked\n";

static struct leaptab tab;

static int
parse(const char *s, struct leapfile_err *err)
{
	return leapfile_parse(s, strlen(s), &tab, err);
}

/* The code (and line) a text is refused with. */
static void
refused(const char *s, enum leapfile_code code, unsigned line)
{
	struct leapfile_err err;
	char why[128];

	assert_int_equal(parse(s, &err), -1);
	leapfile_format(&err, why, sizeof(why));
	if (err.code != code || err.line != line)
		fail_msg("got \"%s\" (code %d line %u), want code %d line %u",
		    why, err.code, err.line, code, line);
}

static void
test_real_file(void **state)
{
	struct leapfile_err err;
	int64_t at;
	int off, delta;

	(void)state;
	assert_int_equal(leapfile_load(LEAP_VECTOR, &tab, &err), 0);
	assert_int_equal(tab.n, 28);
	assert_int_equal(tab.e[0].utc_s, 63072000);	/* 1972-01-01 */
	assert_int_equal(tab.e[0].offset, 10);
	assert_int_equal(tab.e[1].utc_s, D1972_07_01);
	assert_int_equal(tab.e[27].utc_s, D2017_01_01);
	assert_int_equal(tab.e[27].offset, 37);
	assert_int_equal(tab.expires_s, D2026_06_28);	/* #@ 3991593600 */
	assert_int_equal(tab.updated_s, 3960835200LL - LEAPFILE_NTP_UNIX);

	assert_int_equal(leaptab_offset(&tab, 63071999, &off), -1);
	assert_int_equal(leaptab_offset(&tab, 63072000, &off), 0);
	assert_int_equal(off, 10);
	assert_int_equal(leaptab_offset(&tab, D2017_01_01 - 1, &off), 0);
	assert_int_equal(off, 36);
	assert_int_equal(leaptab_offset(&tab, D2017_01_01, &off), 0);
	assert_int_equal(off, 37);

	/* the next leap: from 2015-07-01 on, the 2017 one; none after */
	assert_int_equal(leaptab_next(&tab, D2015_07_01, &at, &delta), 1);
	assert_int_equal(at, D2017_01_01);
	assert_int_equal(delta, 1);
	assert_int_equal(leaptab_next(&tab, D2017_01_01 - 1, &at, &delta), 1);
	assert_int_equal(at, D2017_01_01);
	assert_int_equal(leaptab_next(&tab, D2017_01_01, &at, &delta), 0);
	assert_int_equal(leaptab_next(&tab, 0, &at, &delta), 1);
	assert_int_equal(at, D1972_07_01);

	assert_int_equal(leaptab_expired(&tab, D2026_06_28 - 1), 0);
	assert_int_equal(leaptab_expired(&tab, D2026_06_28), 1);
}

/* PTP time (TAI) to POSIX UTC across the 2017 insertion. */
static void
test_utc_from_tai(void **state)
{
	struct leapfile_err err;
	int64_t m = D2017_01_01, utc;
	int off;

	(void)state;
	assert_int_equal(leapfile_load(LEAP_VECTOR, &tab, &err), 0);
	/* 23:59:59 UTC is TAI m + 35 */
	assert_int_equal(leaptab_utc_from_tai(&tab, m + 35, &utc, &off), 0);
	assert_int_equal(utc, m - 1);
	assert_int_equal(off, 36);
	/* 23:59:60 is TAI m + 36: POSIX writes 23:59:59 again */
	assert_int_equal(leaptab_utc_from_tai(&tab, m + 36, &utc, &off), 0);
	assert_int_equal(utc, m - 1);
	/* 00:00:00 is TAI m + 37 */
	assert_int_equal(leaptab_utc_from_tai(&tab, m + 37, &utc, &off), 0);
	assert_int_equal(utc, m);
	assert_int_equal(off, 37);
	/* before 1972: no integer offset */
	assert_int_equal(leaptab_utc_from_tai(&tab, 63072000 + 9, &utc, &off),
	    -1);
	assert_int_equal(leaptab_utc_from_tai(&tab, 63072000 + 10, &utc, &off),
	    0);
	assert_int_equal(utc, 63072000);
}

static void
test_small_ok(void **state)
{
	struct leapfile_err err;

	(void)state;
	assert_int_equal(parse(small, &err), 0);
	assert_int_equal(tab.n, 3);
	assert_int_equal(tab.e[2].offset, 12);
	/* a negative leap is allowed: offset -1 */
	assert_int_equal(parse("#@ 3991593600\n2272060800 10\n"
	    "2287785600 9\n", &err), 0);
	assert_int_equal(tab.e[1].offset, 9);
}

static void
test_load_errors(void **state)
{
	struct leapfile_err err;
	char path[] = "/tmp/test_leapfile.XXXXXX", why[128];
	char *big;
	FILE *f;
	int fd;

	(void)state;
	assert_int_equal(leapfile_load("/nonexistent/leap", &tab, &err), -1);
	assert_int_equal(err.code, LF_IO);
	assert_int_equal(err.sys_errno, ENOENT);
	leapfile_format(&err, why, sizeof(why));
	assert_string_equal(why, strerror(ENOENT));
	assert_int_equal(leapfile_load("/tmp", &tab, &err), -1);
	assert_int_equal(err.code, LF_NOT_REGULAR);

	/* over 64 KiB: comments only, each line short */
	assert_true((fd = mkstemp(path)) >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	big = malloc(LEAPFILE_MAX_SIZE + 2);
	assert_non_null(big);
	memset(big, '#', LEAPFILE_MAX_SIZE + 1);
	for (size_t i = 100; i < LEAPFILE_MAX_SIZE + 1; i += 100)
		big[i] = '\n';
	big[LEAPFILE_MAX_SIZE] = '\n';
	assert_int_equal(fwrite(big, 1, LEAPFILE_MAX_SIZE + 1, f),
	    LEAPFILE_MAX_SIZE + 1);
	fclose(f);
	assert_int_equal(leapfile_load(path, &tab, &err), -1);
	assert_int_equal(err.code, LF_TOO_BIG);
	unlink(path);
	free(big);
}

static void
test_malformed(void **state)
{
	char buf[4096], line[400];
	int i;

	(void)state;
	/* truncated: the last line cut, no newline */
	refused("#@ 3991593600\n2272060800 10\n22877856", LF_TRUNCATED, 3);
	refused("", LF_EMPTY, 0);
	refused("# only comments\n#@ 3991593600\n", LF_EMPTY, 0);
	/* bad numbers */
	refused("#@ 3991593600\n2272060800 1O\n", LF_BAD_NUMBER, 2);
	refused("#@ 3991593600\n-2272060800 10\n", LF_BAD_NUMBER, 2);
	refused("#@ 3991593600\n2272060800 +10\n", LF_BAD_NUMBER, 2);
	refused("#@ 3991593600\n99999999999999 10\n", LF_BAD_NUMBER, 2);
	refused("#@ 3991593600\n4294967296 10\n", LF_BAD_NUMBER, 2);
	refused("#@ 3991593600\n2272060800 1001\n", LF_BAD_NUMBER, 2);
	refused("#@ 39915936x0\n2272060800 10\n", LF_BAD_NUMBER, 1);
	refused("#@\n2272060800 10\n", LF_BAD_NUMBER, 1);
	/* a field missing, or something after them */
	refused("#@ 3991593600\n2272060800\n", LF_BAD_LINE, 2);
	refused("#@ 3991593600\n2272060800 # 10\n", LF_BAD_LINE, 2);
	refused("#@ 3991593600\n2272060800 10 11\n", LF_BAD_LINE, 2);
	refused("#@ 3991593600 x\n2272060800 10\n", LF_BAD_LINE, 1);
	/* decreasing (and equal) times */
	refused("#@ 3991593600\n2272060800 10\n2303683200 11\n"
	    "2287785600 12\n", LF_NOT_INCREASING, 4);
	refused("#@ 3991593600\n2272060800 10\n2272060800 11\n",
	    LF_NOT_INCREASING, 3);
	/* an offset jump of 2, and none at all */
	refused("#@ 3991593600\n2272060800 10\n2287785600 12\n",
	    LF_BAD_STEP, 3);
	refused("#@ 3991593600\n2272060800 10\n2287785600 10\n",
	    LF_BAD_STEP, 3);
	/* not on a midnight (one second early) */
	refused("#@ 3991593600\n2272060800 10\n2287785599 11\n",
	    LF_NOT_MIDNIGHT, 3);
	/* before 1972, or a first entry that is not 10 s at 1972-01-01 */
	refused("#@ 3991593600\n2208988800 10\n", LF_BEFORE_1972, 2);
	refused("#@ 3991593600\n2287785600 11\n", LF_BAD_FIRST, 2);
	refused("#@ 3991593600\n2272060800 11\n", LF_BAD_FIRST, 2);
	/* expiry: missing, twice, not after the last entry */
	refused("2272060800 10\n", LF_NO_EXPIRY, 0);
	refused("#@ 3991593600\n#@ 3991593600\n2272060800 10\n",
	    LF_DUP_EXPIRY, 2);
	refused("#$ 3991593600\n#$ 3991593600\n#@ 3991593600\n"
	    "2272060800 10\n", LF_DUP_EXPIRY, 2);
	refused("#@ 2272060800\n2272060800 10\n", LF_BAD_EXPIRY, 0);
	/* CRLF, NUL and other control characters */
	refused("#@ 3991593600\r\n2272060800 10\r\n", LF_CR, 1);
	refused("#@ 3991593600\n2272060800 10 # \x01\n", LF_CONTROL, 2);
	assert_int_equal(leapfile_parse("#@ 3991593600\n2272060800 1\0\n",
	    28, &tab, &(struct leapfile_err){ 0 }), -1);
	/* an over-long line (257 bytes), a comment at that */
	memset(line, 'x', sizeof(line));
	line[0] = '#';
	line[LEAPFILE_MAX_LINE + 1] = '\0';
	snprintf(buf, sizeof(buf), "#@ 3991593600\n%s\n2272060800 10\n",
	    line);
	refused(buf, LF_LONG_LINE, 2);
	/* 256 bytes is still fine */
	line[LEAPFILE_MAX_LINE] = '\0';
	snprintf(buf, sizeof(buf), "#@ 3991593600\n%s\n2272060800 10\n",
	    line);
	assert_int_equal(parse(buf, &(struct leapfile_err){ 0 }), 0);

	/* too many entries: 64 pass, 65 are refused (the 65th line) */
	{
		static char many[65 * 32 + 64];
		size_t n = 0;
		long long t = 2272060800LL;

		n = (size_t)snprintf(many, sizeof(many), "#@ 3991593600\n");
		for (i = 0; i < 65; i++) {
			if (i == 64)
				assert_int_equal(leapfile_parse(many, n, &tab,
				    &(struct leapfile_err){ 0 }), 0);
			n += (size_t)snprintf(many + n, sizeof(many) - n,
			    "%lld %d\n", t, 10 + i);
			t += 86400;
		}
		refused(many, LF_TOO_MANY, 66);
	}
}

/* Every prefix of the real file that ends inside a line is refused as
 * truncated; one that ends on a line end parses or names a whole-file
 * reason (no entries, no expiry), never a crash. */
static void
test_prefixes(void **state)
{
	static char buf[LEAPFILE_MAX_SIZE + 1];
	struct leapfile_err err;
	size_t len, n;
	FILE *f;

	(void)state;
	assert_non_null(f = fopen(LEAP_VECTOR, "r"));
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	for (n = 0; n < len; n++) {
		if (leapfile_parse(buf, n, &tab, &err) == 0)
			continue;
		if (n > 0 && buf[n - 1] != '\n')
			assert_int_equal(err.code, LF_TRUNCATED);
		else
			assert_true(err.code == LF_EMPTY ||
			    err.code == LF_NO_EXPIRY || err.code == LF_BAD_EXPIRY);
	}
	assert_int_equal(leapfile_parse(buf, len, &tab, &err), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_file),
		cmocka_unit_test(test_utc_from_tai),
		cmocka_unit_test(test_small_ok),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_prefixes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
