/*
 * log.h - process-tagged logging shared by ptp-netd, ptp-clockd and ptpctl.
 *
 * Modelled on OpenNTPD's log.c: log_warn() appends strerror(errno),
 * log_warnx() does not; fatal()/fatalx() log and exit(1).  Every line carries
 * the process tag given to log_init(), so the two daemons' lines can be told
 * apart when they share a terminal or journal.
 */
#ifndef PTPSEP_LOG_H
#define PTPSEP_LOG_H

#include <stdarg.h>

enum log_level {
	LOG_LVL_ERR = 3,
	LOG_LVL_WARN = 4,
	LOG_LVL_NOTICE = 5,
	LOG_LVL_INFO = 6,
	LOG_LVL_DEBUG = 7,
};

/*
 * tag: process name put in front of every line ("netd", "clockd").
 * to_stderr: 1 logs to stderr (the daemons' -m), 0 to syslog.
 * max_level: lines above this level are dropped.
 */
void log_init(const char *tag, int to_stderr, enum log_level max_level);
void log_set_level(enum log_level max_level);
enum log_level log_get_level(void);

void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fatal(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void fatalx(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void vlog(enum log_level lvl, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void logit(enum log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* One line "msg: strerror(err)", or just msg when err is 0. */
void log_errno_line(enum log_level lvl, const char *msg, int err);
/* Parses "err", "warning", "notice", "info", "debug" or 3..7; -1 if bad. */
int log_level_parse(const char *s);

#endif /* PTPSEP_LOG_H */
