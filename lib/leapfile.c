/*
 * leapfile.c - decoder of the tz database's leap-seconds.list (leapfile.h).
 *
 * One pass over the bytes, a line at a time; nothing is stored until a
 * line has passed its checks, and the whole table is checked (expiry)
 * before the caller may use it.  The #h SHA-1 line is not checked: the
 * file's integrity is the package manager's and the file system's
 * business, and the checks here catch a truncated or edited table.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "leapfile.h"

#define DAY_S		86400
/* NTP seconds fit 32 bits in era 0 (to 2036); a larger value is refused */
#define NTP_MAX		4294967295LL
#define OFFSET_MAX	1000

static const char *const lf_reasons[] = {
	[LF_OK] = "no error",
	[LF_IO] = "cannot read the file",
	[LF_NOT_REGULAR] = "not a regular file",
	[LF_TOO_BIG] = "file larger than 64 KiB",
	[LF_EMPTY] = "no leap-second entries",
	[LF_TRUNCATED] = "truncated: no newline at the end",
	[LF_LONG_LINE] = "line longer than 256 bytes",
	[LF_CR] = "carriage return (CRLF line ends?)",
	[LF_CONTROL] = "control character",
	[LF_BAD_NUMBER] = "bad number",
	[LF_BAD_LINE] = "expected \"NTP-seconds TAI-UTC [# comment]\"",
	[LF_NOT_MIDNIGHT] = "leap time not at 00:00 UTC",
	[LF_BEFORE_1972] = "time before 1972-01-01",
	[LF_BAD_FIRST] = "first entry is not 10 s at 1972-01-01",
	[LF_NOT_INCREASING] = "time not after the previous entry",
	[LF_BAD_STEP] = "offset not the previous one +1 or -1",
	[LF_TOO_MANY] = "more than 64 entries",
	[LF_NO_EXPIRY] = "no expiry line (#@)",
	[LF_DUP_EXPIRY] = "second #@ or #$ line",
	[LF_BAD_EXPIRY] = "expiry not after the last entry",
};

const char *
leapfile_strerror(enum leapfile_code code)
{
	if ((unsigned)code >= sizeof(lf_reasons) / sizeof(lf_reasons[0]) ||
	    lf_reasons[code] == NULL)
		return "unknown error";
	return lf_reasons[code];
}

void
leapfile_format(const struct leapfile_err *err, char *buf, size_t len)
{
	if (len == 0)
		return;
	if (err->code == LF_IO)
		snprintf(buf, len, "%s", strerror(err->sys_errno));
	else if (err->line > 0)
		snprintf(buf, len, "line %u: %s", err->line,
		    leapfile_strerror(err->code));
	else
		snprintf(buf, len, "%s", leapfile_strerror(err->code));
}

static int
lf_fail(struct leapfile_err *err, enum leapfile_code code, unsigned line)
{
	err->code = code;
	err->line = line;
	err->sys_errno = 0;
	return -1;
}

static int
is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

static const char *
skip_blank(const char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

/* Decimal digits, at most 12 and at most max: the end, or NULL. */
static const char *
number(const char *p, const char *end, int64_t max, int64_t *v)
{
	const char *start = p;
	int64_t x = 0;

	while (p < end && *p >= '0' && *p <= '9') {
		if (p - start >= 12)
			return NULL;
		x = x * 10 + (*p - '0');
		p++;
	}
	if (p == start || x > max)
		return NULL;
	/* a number runs into the next blank, '#' or the end of the line */
	if (p < end && !is_blank(*p) && *p != '#')
		return NULL;
	*v = x;
	return p;
}

/* "#@ N" / "#$ N": the NTP seconds as Unix seconds. */
static enum leapfile_code
special(const char *p, const char *end, int64_t *unix_s)
{
	int64_t ntp;

	p = skip_blank(p + 2, end);
	if ((p = number(p, end, NTP_MAX, &ntp)) == NULL)
		return LF_BAD_NUMBER;
	if (skip_blank(p, end) != end)
		return LF_BAD_LINE;
	*unix_s = ntp - LEAPFILE_NTP_UNIX;
	return LF_OK;
}

static enum leapfile_code
entry(const char *p, const char *end, struct leaptab *t)
{
	const struct leap_entry *prev;
	int64_t ntp, off, utc;

	if ((p = number(p, end, NTP_MAX, &ntp)) == NULL)
		return LF_BAD_NUMBER;
	if (p == end || !is_blank(*p))
		return LF_BAD_LINE;
	p = skip_blank(p, end);
	if (p == end || *p == '#')
		return LF_BAD_LINE;
	if ((p = number(p, end, OFFSET_MAX, &off)) == NULL)
		return LF_BAD_NUMBER;
	p = skip_blank(p, end);
	if (p != end && *p != '#')
		return LF_BAD_LINE;

	utc = ntp - LEAPFILE_NTP_UNIX;
	if (utc < LEAPFILE_FIRST_UTC)
		return LF_BEFORE_1972;
	if (utc % DAY_S != 0)
		return LF_NOT_MIDNIGHT;
	if (t->n == 0) {
		if (utc != LEAPFILE_FIRST_UTC || off != LEAPFILE_FIRST_OFFSET)
			return LF_BAD_FIRST;
	} else {
		prev = &t->e[t->n - 1];
		if (utc <= prev->utc_s)
			return LF_NOT_INCREASING;
		if (off != prev->offset + 1 && off != prev->offset - 1)
			return LF_BAD_STEP;
	}
	if (t->n == LEAPFILE_MAX_ENTRIES)
		return LF_TOO_MANY;
	t->e[t->n].utc_s = utc;
	t->e[t->n].offset = (int)off;
	t->n++;
	return LF_OK;
}

int
leapfile_parse(const char *buf, size_t len, struct leaptab *t,
    struct leapfile_err *err)
{
	const char *p = buf, *end = buf + len, *eol, *q;
	enum leapfile_code code;
	unsigned line = 0;
	int have_exp = 0, have_upd = 0;

	memset(t, 0, sizeof(*t));
	if (len > LEAPFILE_MAX_SIZE)
		return lf_fail(err, LF_TOO_BIG, 0);
	while (p < end) {
		line++;
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			return lf_fail(err, LF_TRUNCATED, line);
		if (eol - p > LEAPFILE_MAX_LINE)
			return lf_fail(err, LF_LONG_LINE, line);
		for (q = p; q < eol; q++) {
			if (*q == '\r')
				return lf_fail(err, LF_CR, line);
			if ((unsigned char)*q < 0x20 && *q != '\t')
				return lf_fail(err, LF_CONTROL, line);
			if (*q == 0x7f)
				return lf_fail(err, LF_CONTROL, line);
		}
		code = LF_OK;
		if (eol - p >= 2 && p[0] == '#' && p[1] == '@') {
			code = have_exp ? LF_DUP_EXPIRY :
			    special(p, eol, &t->expires_s);
			have_exp = 1;
		} else if (eol - p >= 2 && p[0] == '#' && p[1] == '$') {
			code = have_upd ? LF_DUP_EXPIRY :
			    special(p, eol, &t->updated_s);
			have_upd = 1;
		} else if (p < eol && p[0] == '#') {
			;	/* a comment, #h included */
		} else if (skip_blank(p, eol) != eol) {
			code = entry(p, eol, t);
		}
		if (code != LF_OK)
			return lf_fail(err, code, line);
		p = eol + 1;
	}
	if (t->n == 0)
		return lf_fail(err, LF_EMPTY, 0);
	if (!have_exp)
		return lf_fail(err, LF_NO_EXPIRY, 0);
	if (t->expires_s <= t->e[t->n - 1].utc_s)
		return lf_fail(err, LF_BAD_EXPIRY, 0);
	err->code = LF_OK;
	err->line = 0;
	err->sys_errno = 0;
	return 0;
}

int
leapfile_load(const char *path, struct leaptab *t, struct leapfile_err *err)
{
	static char buf[LEAPFILE_MAX_SIZE + 1];
	struct stat st;
	size_t got = 0;
	ssize_t r;
	int fd, rc;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) == -1)
		goto io;
	if (fstat(fd, &st) == -1)
		goto io_close;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return lf_fail(err, LF_NOT_REGULAR, 0);
	}
	/* one byte more than allowed, to see a file that grew since fstat */
	while (got < sizeof(buf)) {
		r = read(fd, buf + got, sizeof(buf) - got);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			goto io_close;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	rc = leapfile_parse(buf, got, t, err);
	return rc;
io_close:
	rc = errno;
	close(fd);
	errno = rc;
io:
	err->code = LF_IO;
	err->line = 0;
	err->sys_errno = errno;
	return -1;
}

int
leaptab_offset(const struct leaptab *t, int64_t utc_s, int *offset)
{
	size_t i;

	for (i = t->n; i > 0; i--)
		if (utc_s >= t->e[i - 1].utc_s) {
			*offset = t->e[i - 1].offset;
			return 0;
		}
	return -1;
}

int
leaptab_next(const struct leaptab *t, int64_t utc_s, int64_t *at, int *delta)
{
	size_t i;

	for (i = 1; i < t->n; i++)
		if (t->e[i].utc_s > utc_s) {
			*at = t->e[i].utc_s;
			*delta = t->e[i].offset - t->e[i - 1].offset;
			return 1;
		}
	return 0;
}

int
leaptab_utc_from_tai(const struct leaptab *t, int64_t tai_s, int64_t *utc_s,
    int *offset)
{
	size_t i;

	/*
	 * Entry i holds from the TAI instant utc_s + offset on, but for
	 * the inserted second itself (TAI midnight + old offset - 1 .. +1
	 * s, 23:59:60 UTC), which POSIX time writes as a second 23:59:59:
	 * that is utc_s - 1 with the new offset, so entry i holds from
	 * utc_s + the smaller of the two offsets.  A left-out second needs
	 * nothing: TAI goes straight from 23:59:58 to 00:00.
	 */
	for (i = t->n; i > 0; i--) {
		const struct leap_entry *e = &t->e[i - 1];
		int from = e->offset;

		if (i > 1 && t->e[i - 2].offset < from)
			from = t->e[i - 2].offset;
		if (tai_s >= e->utc_s + from) {
			*offset = e->offset;
			*utc_s = tai_s - e->offset;
			return 0;
		}
	}
	return -1;
}

int
leaptab_expired(const struct leaptab *t, int64_t utc_s)
{
	return utc_s >= t->expires_s;
}
