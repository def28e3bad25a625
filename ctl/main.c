/*
 * ptpctl - query and steer ptp-netd and ptp-clockd.
 *
 *   ptpctl [-f FILE] [-s CLOCKD_CTL_SOCKET] [-n NETD_CTL_SOCKET] [--json]
 *          COMMAND [ARGS]
 *
 * Every command is one or a few ctl.proto requests over a control socket
 * (client.c); the output is aligned text or, with --json, one JSON object
 * per answer (show.c).  Exit status: enum ctl_exit (ctl.h, ptpctl.8).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cfg.h"
#include "ctl.h"
#include "log.h"

#define CTL_WATCH_MAX	1000000
#define CTL_MAX_ARGS	8

struct ctl_opts {
	const char	*clockd_path;
	const char	*netd_path;
	int		 json;
	int		 argc;		/* the command's arguments */
	char		**argv;
};

static void
ctl_usage(FILE *out)
{
	fprintf(out,
	    "usage: ptpctl [-hv] [-f FILE] [-s SOCKET] [-n SOCKET] [--json] "
	    "COMMAND [ARGS]\n"
	    "Query and steer ptp-netd and ptp-clockd.\n\n"
	    "  -f FILE     take the socket paths from this configuration file\n"
	    "  -s SOCKET   ptp-clockd's control socket (clockd_ctl_socket)\n"
	    "  -n SOCKET   ptp-netd's control socket (netd_ctl_socket)\n"
	    "  --json      machine-readable output\n\n"
	    "commands:\n"
	    "  status                      state, grandmaster, offset, delay, "
	    "frequency\n"
	    "  ports                       the ports of ptp-clockd\n"
	    "  datasets [default|current|parent|time-properties|port N]\n"
	    "  foreign [N]                 foreign masters (of port N)\n"
	    "  netd                        netd's ports, sockets, counters\n"
	    "  set KEY VALUE               priority1, priority2, clockClass "
	    "(0..255);\n"
	    "  set port N enable|disable   (root or admin_group only)\n"
	    "  watch [-c COUNT]            status every second\n"
	    "  metrics                     OpenMetrics text\n"
	    "exit status: 0 ok, 1 error, 2 bad argument, 3 daemon not "
	    "running, 4 permission denied\n");
}

/* A decimal number in [lo, hi]; -1 if s is not one. */
static int
ctl_parse_num(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int ctl_bad(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* A bad argument: one line, exit status CTL_EXIT_USAGE. */
static int
ctl_bad(const char *fmt, ...)
{
	va_list ap;

	fputs("ptpctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return CTL_EXIT_USAGE;
}

/* One request to one daemon: open, call, close. */
static int
ctl_one(const char *daemon, const char *path, const CtlRequest *req,
    Ptpsep__Ctl__CtlResponse__BodyCase want, CtlResponse **out)
{
	struct ctl_conn cn;
	int rc;

	*out = NULL;
	if ((rc = ctl_open(&cn, daemon, path, 0)) != CTL_EXIT_OK)
		return rc;
	rc = ctl_call(&cn, req, want, out);
	ctl_close(&cn);
	return rc;
}

static int
ctl_cmd_status(const struct ctl_opts *o)
{
	CtlRequest req = PTPSEP__CTL__CTL_REQUEST__INIT;
	Ptpsep__Ctl__StatusRequest sr = PTPSEP__CTL__STATUS_REQUEST__INIT;
	CtlResponse *resp;
	int rc;

	if (o->argc != 0)
		return ctl_bad("status takes no argument (%s)", o->argv[0]);
	req.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_STATUS;
	req.status = &sr;
	rc = ctl_one("ptp-clockd", o->clockd_path, &req,
	    PTPSEP__CTL__CTL_RESPONSE__BODY_STATUS, &resp);
	if (rc != CTL_EXIT_OK)
		return rc;
	ctl_show_status(resp->status, o->json);
	ipc_free(&resp->base);
	return CTL_EXIT_OK;
}

static int
ctl_cmd_ports(const struct ctl_opts *o)
{
	CtlRequest req = PTPSEP__CTL__CTL_REQUEST__INIT;
	Ptpsep__Ctl__PortsRequest pr = PTPSEP__CTL__PORTS_REQUEST__INIT;
	CtlResponse *resp;
	int rc;

	if (o->argc != 0)
		return ctl_bad("ports takes no argument (%s)", o->argv[0]);
	req.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_PORTS;
	req.ports = &pr;
	rc = ctl_one("ptp-clockd", o->clockd_path, &req,
	    PTPSEP__CTL__CTL_RESPONSE__BODY_PORTS, &resp);
	if (rc != CTL_EXIT_OK)
		return rc;
	ctl_show_ports(resp->ports, o->json);
	ipc_free(&resp->base);
	return CTL_EXIT_OK;
}

/* Asks for one dataset on an open connection and shows it. */
static int
ctl_dataset_one(struct ctl_conn *cn, struct ctl_json *j, const char *key,
    int kind, unsigned port, int json, uint32_t *nports)
{
	CtlRequest req = PTPSEP__CTL__CTL_REQUEST__INIT;
	Ptpsep__Ctl__DatasetRequest dr = PTPSEP__CTL__DATASET_REQUEST__INIT;
	CtlResponse *resp;
	int rc;

	dr.kind = kind;
	dr.port_number = port;
	req.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_DATASET;
	req.dataset = &dr;
	rc = ctl_call(cn, &req, PTPSEP__CTL__CTL_RESPONSE__BODY_DATASET, &resp);
	if (rc != CTL_EXIT_OK)
		return rc;
	if (nports != NULL &&
	    resp->dataset->ds_case == PTPSEP__CTL__DATASET__DS_DEFAULT_DS)
		*nports = resp->dataset->default_ds->number_ports;
	ctl_show_dataset(j, key, resp->dataset, json);
	ipc_free(&resp->base);
	return CTL_EXIT_OK;
}

static int
ctl_cmd_datasets(const struct ctl_opts *o)
{
	static const struct {
		const char *arg, *key;
		int kind;
	} kinds[] = {
		{ "default", "default", PTPSEP__CTL__DATASET_KIND__DATASET_DEFAULT },
		{ "current", "current", PTPSEP__CTL__DATASET_KIND__DATASET_CURRENT },
		{ "parent", "parent", PTPSEP__CTL__DATASET_KIND__DATASET_PARENT },
		{ "time-properties", "time_properties",
		  PTPSEP__CTL__DATASET_KIND__DATASET_TIME_PROPERTIES },
	};
	struct ctl_conn cn;
	struct ctl_json j;
	uint32_t nports = 0, p;
	long port = 0;
	size_t i, which = (size_t)-1;
	int rc, all = o->argc == 0;

	if (o->argc == 2 && strcmp(o->argv[0], "port") == 0) {
		if (ctl_parse_num(o->argv[1], 1, 65534, &port) != 0)
			return ctl_bad("bad port number %s", o->argv[1]);
	} else if (o->argc == 1) {
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (strcmp(o->argv[0], kinds[i].arg) == 0)
				which = i;
		if (which == (size_t)-1)
			return ctl_bad("unknown dataset %s (default, current, "
			    "parent, time-properties, port N)", o->argv[0]);
	} else if (!all) {
		return ctl_bad("usage: datasets [default|current|parent|"
		    "time-properties|port N]");
	}
	if ((rc = ctl_open(&cn, "ptp-clockd", o->clockd_path, 0)) !=
	    CTL_EXIT_OK)
		return rc;
	ctl_json_init(&j, stdout);
	if (port != 0) {
		rc = ctl_dataset_one(&cn, &j, NULL,
		    PTPSEP__CTL__DATASET_KIND__DATASET_PORT, (unsigned)port,
		    o->json, NULL);
	} else if (!all) {
		rc = ctl_dataset_one(&cn, &j, NULL, kinds[which].kind, 0,
		    o->json, NULL);
	} else {
		if (o->json)
			ctl_json_obj(&j, NULL);
		for (i = 0; rc == CTL_EXIT_OK &&
		    i < sizeof(kinds) / sizeof(kinds[0]); i++) {
			rc = ctl_dataset_one(&cn, &j, kinds[i].key,
			    kinds[i].kind, 0, o->json, &nports);
			if (!o->json)
				printf("\n");
		}
		if (o->json)
			ctl_json_arr(&j, "ports");
		for (p = 1; rc == CTL_EXIT_OK && p <= nports &&
		    p <= IPC_MAX_PORTS; p++) {
			rc = ctl_dataset_one(&cn, &j, NULL,
			    PTPSEP__CTL__DATASET_KIND__DATASET_PORT, p,
			    o->json, NULL);
			if (!o->json)
				printf("\n");
		}
		if (o->json)
			ctl_json_end_arr(&j);
		if (o->json)
			ctl_json_end_obj(&j);
	}
	if (o->json && rc == CTL_EXIT_OK)
		ctl_json_done(&j);
	fflush(stdout);
	ctl_close(&cn);
	return rc;
}

static int
ctl_cmd_foreign(const struct ctl_opts *o)
{
	CtlRequest req = PTPSEP__CTL__CTL_REQUEST__INIT;
	Ptpsep__Ctl__ForeignRequest fr = PTPSEP__CTL__FOREIGN_REQUEST__INIT;
	CtlResponse *resp;
	long port = 0;
	int rc;

	if (o->argc > 1 || (o->argc == 1 &&
	    ctl_parse_num(o->argv[0], 1, 65534, &port) != 0))
		return ctl_bad("usage: foreign [PORT]");
	fr.port_number = (uint32_t)port;
	req.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_FOREIGN;
	req.foreign = &fr;
	rc = ctl_one("ptp-clockd", o->clockd_path, &req,
	    PTPSEP__CTL__CTL_RESPONSE__BODY_FOREIGN, &resp);
	if (rc != CTL_EXIT_OK)
		return rc;
	ctl_show_foreign(resp->foreign, o->json);
	ipc_free(&resp->base);
	return CTL_EXIT_OK;
}

static int
ctl_get_netd(const char *path, CtlResponse **resp)
{
	CtlRequest req = PTPSEP__CTL__CTL_REQUEST__INIT;
	Ptpsep__Ctl__NetdInfoRequest nr = PTPSEP__CTL__NETD_INFO_REQUEST__INIT;

	req.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_NETD_INFO;
	req.netd_info = &nr;
	return ctl_one("ptp-netd", path, &req,
	    PTPSEP__CTL__CTL_RESPONSE__BODY_NETD_INFO, resp);
}

static int
ctl_cmd_netd(const struct ctl_opts *o)
{
	CtlResponse *resp;
	int rc;

	if (o->argc != 0)
		return ctl_bad("netd takes no argument (%s)", o->argv[0]);
	if ((rc = ctl_get_netd(o->netd_path, &resp)) != CTL_EXIT_OK)
		return rc;
	ctl_show_netd(resp->netd_info, o->json);
	ipc_free(&resp->base);
	return CTL_EXIT_OK;
}

static int
ctl_cmd_set(const struct ctl_opts *o)
{
	CtlRequest req = PTPSEP__CTL__CTL_REQUEST__INIT;
	Ptpsep__Ctl__SetRequest sr = PTPSEP__CTL__SET_REQUEST__INIT;
	Ptpsep__Ctl__PortEnable pe = PTPSEP__CTL__PORT_ENABLE__INIT;
	CtlResponse *resp;
	struct ctl_json j;
	long v;
	int rc;

	if (o->argc == 3 && strcmp(o->argv[0], "port") == 0) {
		if (ctl_parse_num(o->argv[1], 1, 65534, &v) != 0)
			return ctl_bad("bad port number %s", o->argv[1]);
		if (strcmp(o->argv[2], "enable") == 0)
			pe.enable = 1;
		else if (strcmp(o->argv[2], "disable") != 0)
			return ctl_bad("set port N enable|disable, not %s",
			    o->argv[2]);
		pe.port_number = (uint32_t)v;
		sr.what_case = PTPSEP__CTL__SET_REQUEST__WHAT_PORT_ENABLE;
		sr.port_enable = &pe;
	} else if (o->argc == 2) {
		if (ctl_parse_num(o->argv[1], 0, 255, &v) != 0)
			return ctl_bad("bad value %s (0..255)", o->argv[1]);
		if (strcmp(o->argv[0], "priority1") == 0) {
			sr.what_case = PTPSEP__CTL__SET_REQUEST__WHAT_PRIORITY1;
			sr.priority1 = (uint32_t)v;
		} else if (strcmp(o->argv[0], "priority2") == 0) {
			sr.what_case = PTPSEP__CTL__SET_REQUEST__WHAT_PRIORITY2;
			sr.priority2 = (uint32_t)v;
		} else if (strcmp(o->argv[0], "clockClass") == 0 ||
		    strcmp(o->argv[0], "clock_class") == 0) {
			sr.what_case =
			    PTPSEP__CTL__SET_REQUEST__WHAT_CLOCK_CLASS;
			sr.clock_class = (uint32_t)v;
		} else {
			return ctl_bad("unknown setting %s (priority1, "
			    "priority2, clockClass, port N)", o->argv[0]);
		}
	} else {
		return ctl_bad("usage: set KEY VALUE | set port N "
		    "enable|disable");
	}
	req.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_SET;
	req.set = &sr;
	rc = ctl_one("ptp-clockd", o->clockd_path, &req,
	    PTPSEP__CTL__CTL_RESPONSE__BODY_SET, &resp);
	if (rc != CTL_EXIT_OK)
		return rc;
	ctl_json_init(&j, stdout);
	if (o->json) {
		ctl_json_obj(&j, NULL);
		ctl_json_bool(&j, "ok", 1);
	}
	if (resp->set->default_ds != NULL)
		ctl_show_default(&j, resp->set->default_ds, o->json);
	if (o->json) {
		ctl_json_end_obj(&j);
		ctl_json_done(&j);
	}
	fflush(stdout);
	ipc_free(&resp->base);
	return CTL_EXIT_OK;
}

static int
ctl_cmd_watch(const struct ctl_opts *o)
{
	CtlRequest req = PTPSEP__CTL__CTL_REQUEST__INIT;
	Ptpsep__Ctl__StatusRequest sr = PTPSEP__CTL__STATUS_REQUEST__INIT;
	struct timespec ts = { 1, 0 };
	struct ctl_conn cn;
	CtlResponse *resp;
	long count = -1, n;
	int rc, tty = isatty(STDOUT_FILENO);

	if (o->argc == 2 && strcmp(o->argv[0], "-c") == 0) {
		if (ctl_parse_num(o->argv[1], 1, CTL_WATCH_MAX, &count) != 0)
			return ctl_bad("bad count %s", o->argv[1]);
	} else if (o->argc != 0) {
		return ctl_bad("usage: watch [-c COUNT]");
	}
	req.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_STATUS;
	req.status = &sr;
	if ((rc = ctl_open(&cn, "ptp-clockd", o->clockd_path, 0)) !=
	    CTL_EXIT_OK)
		return rc;
	for (n = 0; count < 0 || n < count; n++) {
		if (n > 0)
			nanosleep(&ts, NULL);
		rc = ctl_call(&cn, &req, PTPSEP__CTL__CTL_RESPONSE__BODY_STATUS,
		    &resp);
		if (rc != CTL_EXIT_OK)
			break;
		if (tty && !o->json)
			fputs("\033[H\033[2J", stdout);	/* home, clear */
		else if (n > 0 && !o->json)
			fputs("\n", stdout);
		ctl_show_status(resp->status, o->json);
		ipc_free(&resp->base);
	}
	ctl_close(&cn);
	return rc;
}

static int
ctl_cmd_metrics(const struct ctl_opts *o)
{
	CtlRequest req = PTPSEP__CTL__CTL_REQUEST__INIT;
	Ptpsep__Ctl__StatusRequest sr = PTPSEP__CTL__STATUS_REQUEST__INIT;
	CtlResponse *st = NULL, *ni = NULL;
	int rc1, rc2;

	if (o->argc != 0)
		return ctl_bad("metrics takes no argument (%s)", o->argv[0]);
	req.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_STATUS;
	req.status = &sr;
	rc1 = ctl_one("ptp-clockd", o->clockd_path, &req,
	    PTPSEP__CTL__CTL_RESPONSE__BODY_STATUS, &st);
	rc2 = ctl_get_netd(o->netd_path, &ni);
	/* What was reachable is printed; the status says what was not. */
	ctl_metrics(stdout, st != NULL ? st->status : NULL,
	    ni != NULL ? ni->netd_info : NULL);
	ipc_free(st != NULL ? &st->base : NULL);
	ipc_free(ni != NULL ? &ni->base : NULL);
	return rc1 != CTL_EXIT_OK ? rc1 : rc2;
}

static const struct {
	const char *name;
	int (*fn)(const struct ctl_opts *);
} ctl_cmds[] = {
	{ "status", ctl_cmd_status },
	{ "ports", ctl_cmd_ports },
	{ "datasets", ctl_cmd_datasets },
	{ "foreign", ctl_cmd_foreign },
	{ "netd", ctl_cmd_netd },
	{ "set", ctl_cmd_set },
	{ "watch", ctl_cmd_watch },
	{ "metrics", ctl_cmd_metrics },
};

int
main(int argc, char **argv)
{
	const char *file = NULL, *cmd = NULL, *spath = NULL, *npath = NULL;
	char *args[CTL_MAX_ARGS];
	struct ctl_opts o;
	struct cfg *cfg;
	size_t k;
	int i, rc;

	log_init("ptpctl", 1, LOG_LVL_WARN);
	memset(&o, 0, sizeof(o));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			ctl_usage(stdout);
			return CTL_EXIT_OK;
		} else if (!strcmp(argv[i], "-v") ||
		    !strcmp(argv[i], "--version")) {
			printf("ptpctl %s\n", PACKAGE_VERSION);
			return CTL_EXIT_OK;
		} else if (!strcmp(argv[i], "-f") && i + 1 < argc) {
			file = argv[++i];
		} else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			spath = argv[++i];
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			npath = argv[++i];
		} else if (!strcmp(argv[i], "--json") ||
		    !strcmp(argv[i], "-j")) {
			o.json = 1;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "ptpctl: unknown option or missing "
			    "value: %s\n", argv[i]);
			ctl_usage(stderr);
			return CTL_EXIT_USAGE;
		} else {
			cmd = argv[i];
			break;
		}
	}
	if (cmd == NULL) {
		ctl_usage(stderr);
		return CTL_EXIT_USAGE;
	}
	/* --json may also follow the command. */
	for (i = i + 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j"))
			o.json = 1;
		else if (o.argc < CTL_MAX_ARGS)
			args[o.argc++] = argv[i];
		else
			return ctl_bad("too many arguments (%s)", argv[i]);
	}
	o.argv = args;
	for (k = 0; k < sizeof(ctl_cmds) / sizeof(ctl_cmds[0]); k++)
		if (strcmp(cmd, ctl_cmds[k].name) == 0)
			break;
	if (k == sizeof(ctl_cmds) / sizeof(ctl_cmds[0])) {
		fprintf(stderr, "ptpctl: unknown command %s\n", cmd);
		ctl_usage(stderr);
		return CTL_EXIT_USAGE;
	}
	if ((cfg = cfg_new()) == NULL)
		return CTL_EXIT_FAIL;
	if (file != NULL && cfg_load_file(cfg, file) != 0) {
		cfg_free(cfg);
		return CTL_EXIT_USAGE;
	}
	o.clockd_path = spath != NULL ? spath :
	    cfg_get_str(cfg, NULL, "clockd_ctl_socket");
	o.netd_path = npath != NULL ? npath :
	    cfg_get_str(cfg, NULL, "netd_ctl_socket");
	rc = ctl_cmds[k].fn(&o);
	cfg_free(cfg);
	return rc;
}
