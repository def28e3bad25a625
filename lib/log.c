/*
 * log.c - process-tagged logging (see log.h).
 *
 * Lines go to stderr in the foreground (-m) and to syslog otherwise.  A line
 * is formatted once into a bounded buffer so that a hostile string cannot
 * make one log call unbounded.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "log.h"

#define LOG_LINE_MAX 1024

static const char *log_tag = "ptpsep";
static int log_to_stderr = 1;
static enum log_level log_max = LOG_LVL_INFO;

void
log_init(const char *tag, int to_stderr, enum log_level max_level)
{
	log_tag = tag;
	log_to_stderr = to_stderr;
	log_max = max_level;
	if (!to_stderr)
		openlog(tag, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

void
log_set_level(enum log_level max_level)
{
	log_max = max_level;
}

enum log_level
log_get_level(void)
{
	return log_max;
}

static const char *
log_level_name(enum log_level lvl)
{
	switch (lvl) {
	case LOG_LVL_ERR:	return "error";
	case LOG_LVL_WARN:	return "warning";
	case LOG_LVL_NOTICE:	return "notice";
	case LOG_LVL_INFO:	return "info";
	case LOG_LVL_DEBUG:	return "debug";
	}
	return "?";
}

void
vlog(enum log_level lvl, const char *fmt, va_list ap)
{
	char line[LOG_LINE_MAX];
	struct timespec ts;
	int saved = errno;

	if (lvl > log_max)
		return;
	vsnprintf(line, sizeof(line), fmt, ap);
	if (log_to_stderr) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		fprintf(stderr, "%s[%lld.%03ld]: %s%s%s\n", log_tag,
		    (long long)ts.tv_sec, ts.tv_nsec / 1000000,
		    lvl <= LOG_LVL_WARN ? log_level_name(lvl) : "",
		    lvl <= LOG_LVL_WARN ? ": " : "", line);
	} else {
		syslog((int)lvl, "%s", line);
	}
	errno = saved;
}

/* Appends ": strerror(errno)" as OpenNTPD's log_warn() does. */
static void vlog_errno(enum log_level lvl, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void
vlog_errno(enum log_level lvl, const char *fmt, va_list ap)
{
	char msg[LOG_LINE_MAX];
	int saved = errno;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	errno = saved;
	log_errno_line(lvl, msg, saved);
}

void
log_errno_line(enum log_level lvl, const char *msg, int err)
{
	if (err != 0)
		logit(lvl, "%s: %s", msg, strerror(err));
	else
		logit(lvl, "%s", msg);
}

void
logit(enum log_level lvl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(lvl, fmt, ap);
	va_end(ap);
}

void
log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog_errno(LOG_LVL_WARN, fmt, ap);
	va_end(ap);
}

void
log_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_LVL_WARN, fmt, ap);
	va_end(ap);
}

void
log_notice(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_LVL_NOTICE, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_LVL_INFO, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_LVL_DEBUG, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog_errno(LOG_LVL_ERR, fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_LVL_ERR, fmt, ap);
	va_end(ap);
	exit(1);
}

int
log_level_parse(const char *s)
{
	static const struct { const char *name; enum log_level lvl; } names[] = {
		{ "err", LOG_LVL_ERR }, { "error", LOG_LVL_ERR },
		{ "warning", LOG_LVL_WARN }, { "notice", LOG_LVL_NOTICE },
		{ "info", LOG_LVL_INFO }, { "debug", LOG_LVL_DEBUG },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i].name) == 0)
			return (int)names[i].lvl;
	if (s[0] >= '3' && s[0] <= '7' && s[1] == '\0')
		return s[0] - '0';
	return -1;
}
