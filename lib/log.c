/*
 * log.c - process-tagged logging (see log.h).
 *
 * Lines go to stderr in the foreground (-m) and to syslog otherwise.  A line
 * is formatted once into a bounded buffer so that a hostile string cannot
 * make one log call unbounded.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "log.h"

#define LOG_LINE_MAX 1024

#define LOG_MSG_TAG_MAX 64

static const char *log_tag = "ptpsep";
static int log_to_stderr = 1;
static int log_to_syslog = 0;
static int log_syslog_open = 0;
static char log_msg_tag[LOG_MSG_TAG_MAX + 4];	/* "[tag] " or "" */
enum log_level log_max_level = LOG_LVL_INFO;

void
log_init(const char *tag, int to_stderr, enum log_level max_level)
{
	log_tag = tag;
	log_max_level = max_level;
	log_set_outputs(to_stderr, !to_stderr);
}

void
log_init_outputs(const char *tag, int to_stderr, int to_syslog,
    const char *message_tag, enum log_level max_level)
{
	log_tag = tag;
	log_max_level = max_level;
	log_set_message_tag(message_tag);
	log_set_outputs(to_stderr, to_syslog);
}

void
log_outputs(int opt_m, int opt_q, int verbose, int use_syslog,
    int *to_stderr, int *to_syslog)
{
	/* ptp4l: -m sets verbose, -q clears use_syslog; the file otherwise. */
	*to_stderr = opt_m || verbose;
	*to_syslog = !opt_q && use_syslog;
}

void
log_set_outputs(int to_stderr, int to_syslog)
{
	log_to_stderr = to_stderr;
	log_to_syslog = to_syslog;
	if (to_syslog && !log_syslog_open) {
		openlog(log_tag, LOG_PID | LOG_NDELAY, LOG_DAEMON);
		log_syslog_open = 1;
	}
}

void
log_set_message_tag(const char *tag)
{
	if (tag == NULL || tag[0] == '\0')
		log_msg_tag[0] = '\0';
	else
		snprintf(log_msg_tag, sizeof(log_msg_tag), "[%.*s] ",
		    LOG_MSG_TAG_MAX, tag);
}

void
log_set_level(enum log_level max_level)
{
	log_max_level = max_level;
}

enum log_level
log_get_level(void)
{
	return log_max_level;
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

	if (lvl > log_max_level)
		return;
	vsnprintf(line, sizeof(line), fmt, ap);
	if (log_to_stderr) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		fprintf(stderr, "%s[%lld.%03ld]: %s%s%s%s\n", log_tag,
		    (long long)ts.tv_sec, ts.tv_nsec / 1000000, log_msg_tag,
		    lvl <= LOG_LVL_WARN ? log_level_name(lvl) : "",
		    lvl <= LOG_LVL_WARN ? ": " : "", line);
	}
	if (log_to_syslog)
		syslog((int)lvl, "%s%s", log_msg_tag, line);
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
(log_info)(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_LVL_INFO, fmt, ap);
	va_end(ap);
}

void
(log_debug)(const char *fmt, ...)
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

int
log_rl_admit(struct log_ratelimit *rl, const struct timespec *now,
    unsigned *report)
{
	int64_t el;

	*report = 0;
	el = (int64_t)(now->tv_sec - rl->start.tv_sec);
	if (!rl->started || el >= LOG_RL_INTERVAL_S || el < 0) {
		rl->start = *now;
		rl->started = 1;
		rl->nlogged = 0;
	}
	if (rl->nlogged >= LOG_RL_BURST) {
		if (rl->nsuppressed < UINT32_MAX)
			rl->nsuppressed++;
		return 0;
	}
	rl->nlogged++;
	*report = rl->nsuppressed;
	rl->nsuppressed = 0;
	return 1;
}

void
log_ratelimited(struct log_ratelimit *rl, enum log_level lvl,
    const char *fmt, ...)
{
	struct timespec now;
	unsigned dropped;
	va_list ap;

	/* A line the level drops costs nothing and uses no budget. */
	if (lvl > log_max_level)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!log_rl_admit(rl, &now, &dropped))
		return;
	if (dropped > 0)
		logit(lvl, "(%u similar messages suppressed)", dropped);
	va_start(ap, fmt);
	vlog(lvl, fmt, ap);
	va_end(ap);
}
