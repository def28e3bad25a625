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
#include <time.h>

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

/*
 * The outputs as ptp4l chooses them: stderr when verbose (config key
 * `verbose`, or -m), syslog when use_syslog (config key `use_syslog`, off
 * with -q).  Both may be on; with both off nothing is printed (as ptp4l).
 * Pure: sets *to_stderr and *to_syslog.
 */
void log_outputs(int opt_m, int opt_q, int verbose, int use_syslog,
    int *to_stderr, int *to_syslog);
void log_set_outputs(int to_stderr, int to_syslog);
/* log_init() with both outputs and message_tag chosen (the daemons). */
void log_init_outputs(const char *tag, int to_stderr, int to_syslog,
    const char *message_tag, enum log_level max_level);
/*
 * message_tag (ptp4l's key): "[tag] " in front of every message, to tell
 * instances apart in a shared journal; NULL or "" for none.  Copied.
 */
void log_set_message_tag(const char *tag);

/*
 * The level lines are filtered at.  Read by the log_info()/log_debug()
 * macros so that their arguments are not even computed when the level is
 * off; set it with log_init()/log_set_level() only.
 */
extern enum log_level log_max_level;
#define log_enabled(lvl)	((lvl) <= log_max_level)

void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void (log_info)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void (log_debug)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Lazy: nothing after fmt is evaluated when the level is off (a debug
 * line may format a whole message).  An expression of type void, so it
 * fits wherever the function call did; -Wformat still checks the call.
 */
#define log_info(...)	((void)(log_enabled(LOG_LVL_INFO) &&	\
	((log_info)(__VA_ARGS__), 1)))
#define log_debug(...)	((void)(log_enabled(LOG_LVL_DEBUG) &&	\
	((log_debug)(__VA_ARGS__), 1)))
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

/*
 * Rate limit for a line that a peer can make us write again and again (a
 * client connecting in a loop, garbage on a socket): per call site, at
 * most LOG_RL_BURST lines in LOG_RL_INTERVAL_S seconds; the first line
 * after an interval in which some were dropped says how many.  A zeroed
 * struct is ready to use.
 */
#define LOG_RL_BURST		10
#define LOG_RL_INTERVAL_S	10

struct log_ratelimit {
	struct timespec	start;		/* of this interval */
	int		started;	/* start is valid */
	unsigned	nlogged;	/* lines in the current interval */
	unsigned	nsuppressed;	/* dropped since the last line */
};

/*
 * Pure: 1 if a line at now may be written, 0 to drop it (counted).  When
 * it returns 1, *report is the number dropped before it (to be said), and
 * the count restarts.
 */
int	log_rl_admit(struct log_ratelimit *rl, const struct timespec *now,
	    unsigned *report);
void	log_ratelimited(struct log_ratelimit *rl, enum log_level lvl,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* log_ratelimited() with a limit of its own for this call site. */
#define log_rl(lvl, ...) do {						\
	static struct log_ratelimit log_rl_site_;			\
	log_ratelimited(&log_rl_site_, (lvl), __VA_ARGS__);		\
} while (0)

#endif /* PTPSEP_LOG_H */
