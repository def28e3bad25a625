/*
 * ctl.h - ptpctl: the command-line client of ptp-clockd and ptp-netd.
 *
 * Files: main.c (options, commands, exit status), client.c (a control
 * connection: connect, Hello, one request and its response, decoded
 * strictly by ipc_recv), json.c (a small JSON writer), show*.c (human and
 * JSON output of each response: show.c shared formatters, ports, foreign;
 * show_status.c, show_ds.c, show_netd.c; show.h what they share),
 * metrics.c (OpenMetrics text).
 */
#ifndef PTPSEP_CTL_CTL_H
#define PTPSEP_CTL_CTL_H

#include <stdint.h>
#include <stdio.h>

#include "ipc.h"

typedef Ptpsep__Ctl__CtlRequest CtlRequest;
typedef Ptpsep__Ctl__CtlResponse CtlResponse;

/* Exit status of ptpctl (documented in ptpctl.8). */
enum ctl_exit {
	CTL_EXIT_OK = 0,
	CTL_EXIT_FAIL = 1,		/* anything else: protocol, daemon error */
	CTL_EXIT_USAGE = 2,		/* bad command, option or value */
	CTL_EXIT_NOT_RUNNING = 3,	/* nothing listens on the socket */
	CTL_EXIT_DENIED = 4,		/* the daemon or the socket said no */
};

/* ---- client.c ---- */
struct ctl_conn {
	int		 fd;
	const char	*daemon;	/* "ptp-clockd", for messages */
	const char	*path;
};

#define CTL_TIMEOUT_S	5	/* for every answer */

/*
 * Connects to path and exchanges Hello.  Returns CTL_EXIT_OK, or an exit
 * status after printing one line naming the daemon and the socket (unless
 * quiet).
 */
int	ctl_open(struct ctl_conn *cn, const char *daemon, const char *path,
	    int quiet);
/*
 * Sends req and receives its response.  A response with body_case
 * `want` is stored in *out (release with ipc_free); an Error, or anything
 * else, is reported (one line) and mapped to an exit status.
 */
int	ctl_call(struct ctl_conn *cn, const CtlRequest *req,
	    Ptpsep__Ctl__CtlResponse__BodyCase want, CtlResponse **out);
void	ctl_close(struct ctl_conn *cn);

/* ---- json.c: compact JSON on one line ---- */
#define CTL_JSON_DEPTH	16

struct ctl_json {
	FILE	*out;
	int	 depth;
	int	 first[CTL_JSON_DEPTH];
};

void	ctl_json_init(struct ctl_json *j, FILE *out);
/* key is NULL inside an array. */
void	ctl_json_obj(struct ctl_json *j, const char *key);
void	ctl_json_arr(struct ctl_json *j, const char *key);
void	ctl_json_end_obj(struct ctl_json *j);
void	ctl_json_end_arr(struct ctl_json *j);
void	ctl_json_str(struct ctl_json *j, const char *key, const char *v);
void	ctl_json_int(struct ctl_json *j, const char *key, int64_t v);
void	ctl_json_uint(struct ctl_json *j, const char *key, uint64_t v);
void	ctl_json_double(struct ctl_json *j, const char *key, double v);
void	ctl_json_bool(struct ctl_json *j, const char *key, int v);
void	ctl_json_null(struct ctl_json *j, const char *key);
/* Ends the top-level value with a newline. */
void	ctl_json_done(struct ctl_json *j);

/* ---- show*.c ---- */
/* "001122.fffe.334455" (as ptp4l); "" for an empty identity. */
void	ctl_fmt_identity(char *buf, size_t len, const ProtobufCBinaryData *id);
/* An enum value's name without prefix, in lower case unless upper. */
const char *ctl_enum_name(const ProtobufCEnumDescriptor *d, int v,
	    const char *prefix, int upper, char *buf, size_t len);
const char *ctl_port_state_name(int state, char *buf, size_t len);

void	ctl_show_status(const Ptpsep__Ctl__Status *s, int json);
void	ctl_show_ports(const Ptpsep__Ctl__Ports *p, int json);
/* key: for JSON, NULL prints the dataset as the top-level value. */
void	ctl_show_dataset(struct ctl_json *j, const char *key,
	    const Ptpsep__Ctl__Dataset *d, int json);
/* The defaultDS after `set`, as member "default_ds" in JSON. */
void	ctl_show_default(struct ctl_json *j, const Ptpsep__Ctl__DefaultDS *d,
	    int json);
void	ctl_show_foreign(const Ptpsep__Ctl__ForeignMasters *f, int json);
void	ctl_show_netd(const Ptpsep__Ctl__NetdInfo *n, int json);

/* ---- metrics.c ---- */
/* Either may be NULL (daemon not reachable: its ptpsep_up is 0). */
void	ctl_metrics(FILE *out, const Ptpsep__Ctl__Status *st,
	    const Ptpsep__Ctl__NetdInfo *ni);

#endif /* PTPSEP_CTL_CTL_H */
