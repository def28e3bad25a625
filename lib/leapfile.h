/*
 * leapfile.h - the tz database's leap-seconds.list (the `leapfile' key).
 *
 * The file is bytes from disk that an operator (or a package) put there,
 * read by clockd before its sandbox and by --check-config: every
 * malformed input is refused with a specific reason and its line, and the
 * decoder is bounded (file size, line length, entry count).  Its format,
 * as the IERS and tz publish it:
 *
 *	#$	3960835200		the last update (NTP seconds), optional
 *	#@	3991593600		the expiry (NTP seconds), required
 *	#h	...			a SHA-1 of the data: not checked
 *	2272060800	10	# 1 Jan 1972
 *
 * A data line is "NTP-seconds TAI-UTC [# comment]": from that UTC instant
 * (NTP epoch 1900-01-01, 2208988800 s before the Unix epoch) TAI-UTC is
 * that many seconds.  The table here keeps Unix seconds (UTC, POSIX:
 * 86400 s a day).  The checks: times strictly increasing, each on 00:00
 * UTC; the first entry 10 s at 1972-01-01 (where integer TAI-UTC began);
 * each later offset the previous one +1 or -1; one expiry, after the last
 * entry.
 *
 * An expired table still gives the past offsets exactly (a leap is known
 * at least months ahead; only the future is uncertain): callers warn.
 */
#ifndef PTPSEP_LEAPFILE_H
#define PTPSEP_LEAPFILE_H

#include <stddef.h>
#include <stdint.h>

#define LEAPFILE_MAX_SIZE	65536	/* bytes; tz's file is ~5 KiB */
#define LEAPFILE_MAX_LINE	256	/* bytes, without the newline */
#define LEAPFILE_MAX_ENTRIES	64	/* 28 in 2026 */
/* NTP seconds at the Unix epoch (1970-01-01 - 1900-01-01) */
#define LEAPFILE_NTP_UNIX	2208988800LL
/* 1972-01-01 00:00 UTC, Unix seconds: TAI-UTC was 10 s from then on */
#define LEAPFILE_FIRST_UTC	63072000LL
#define LEAPFILE_FIRST_OFFSET	10

struct leap_entry {
	int64_t		 utc_s;		/* Unix seconds, 00:00 UTC */
	int		 offset;	/* TAI-UTC from utc_s on, s */
};

struct leaptab {
	size_t		 n;
	struct leap_entry e[LEAPFILE_MAX_ENTRIES];
	int64_t		 expires_s;	/* Unix seconds (#@) */
	int64_t		 updated_s;	/* Unix seconds (#$), 0: not given */
};

enum leapfile_code {
	LF_OK = 0,
	LF_IO,			/* open/read failed: sys_errno */
	LF_NOT_REGULAR,		/* not a regular file */
	LF_TOO_BIG,		/* over LEAPFILE_MAX_SIZE */
	LF_EMPTY,		/* no data line */
	LF_TRUNCATED,		/* no newline at the end */
	LF_LONG_LINE,		/* over LEAPFILE_MAX_LINE */
	LF_CR,			/* a carriage return (CRLF line ends) */
	LF_CONTROL,		/* NUL or another control character */
	LF_BAD_NUMBER,		/* not decimal digits, or out of range */
	LF_BAD_LINE,		/* a field missing, or garbage after them */
	LF_NOT_MIDNIGHT,	/* a leap not at 00:00 UTC */
	LF_BEFORE_1972,		/* a time before 1972-01-01 */
	LF_BAD_FIRST,		/* the first entry not 10 s at 1972-01-01 */
	LF_NOT_INCREASING,	/* a time not after the previous one */
	LF_BAD_STEP,		/* an offset not the previous +1 or -1 */
	LF_TOO_MANY,		/* over LEAPFILE_MAX_ENTRIES */
	LF_NO_EXPIRY,		/* no #@ line */
	LF_DUP_EXPIRY,		/* two #@ (or #$) lines */
	LF_BAD_EXPIRY,		/* #@ not after the last entry */
};

struct leapfile_err {
	enum leapfile_code code;
	unsigned	 line;		/* 1-based, 0: the whole file */
	int		 sys_errno;	/* LF_IO */
};

/* A short English reason for code. */
const char *leapfile_strerror(enum leapfile_code code);
/* "line N: reason" (or the reason, or "path: strerror"): buf, always
 * terminated. */
void	leapfile_format(const struct leapfile_err *err, char *buf,
	    size_t len);
/* Decodes buf[0..len) into *t: 0, or -1 with *err filled (t is then
 * undefined). */
int	leapfile_parse(const char *buf, size_t len, struct leaptab *t,
	    struct leapfile_err *err);
/* Reads path (a regular file, at most LEAPFILE_MAX_SIZE) and decodes it. */
int	leapfile_load(const char *path, struct leaptab *t,
	    struct leapfile_err *err);

/* TAI-UTC at the UTC instant utc_s (Unix seconds): 0 and *offset, or -1
 * before 1972 (no integer offset then). */
int	leaptab_offset(const struct leaptab *t, int64_t utc_s, int *offset);
/*
 * The first leap after utc_s: 1 with *at (Unix seconds of the 00:00 UTC
 * that follows the leap second) and *delta (+1: a second inserted, 23:59:60;
 * -1: 23:59:59 left out), or 0 when the table has none after utc_s.
 */
int	leaptab_next(const struct leaptab *t, int64_t utc_s, int64_t *at,
	    int *delta);
/*
 * The UTC instant (POSIX seconds: an inserted second repeats 23:59:59) and
 * TAI-UTC of the TAI instant tai_s given in seconds since 1970-01-01
 * 00:00:00 TAI (the PTP timescale, IEEE 1588-2019 7.2.2), and
 * *offset = tai_s - *utc_s: 0, or -1 before 1972.  The inserted second
 * itself is the second 23:59:59 again, as the kernel counts it.
 */
int	leaptab_utc_from_tai(const struct leaptab *t, int64_t tai_s,
	    int64_t *utc_s, int *offset);
/* 1 when the table has expired at utc_s (Unix seconds). */
int	leaptab_expired(const struct leaptab *t, int64_t utc_s);

#endif /* PTPSEP_LEAPFILE_H */
