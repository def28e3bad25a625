/*
 * client.c - one control connection of ptpctl (ctl.proto over
 * SOCK_SEQPACKET): connect, Hello, then request and response.
 *
 * Responses are decoded by ipc_recv(), which refuses anything that does
 * not unpack, has no known body or breaks ipc_check()'s limits: ptpctl
 * prints nothing a daemon did not send well-formed.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl.h"
#include "usock.h"

static int
ctl_error_exit(Ptpsep__ErrorCode code)
{
	switch (code) {
	case PTPSEP__ERROR_CODE__ERROR_PERMISSION_DENIED:
		return CTL_EXIT_DENIED;
	case PTPSEP__ERROR_CODE__ERROR_BAD_ARGUMENT:
		return CTL_EXIT_USAGE;
	default:
		return CTL_EXIT_FAIL;
	}
}

static void
ctl_report_error(const struct ctl_conn *cn, const Ptpsep__Error *e)
{
	char name[64], *u;

	ctl_enum_name(&ptpsep__error_code__descriptor, e->code, "ERROR_", 0,
	    name, sizeof(name));
	while ((u = strchr(name, '_')) != NULL)
		*u = ' ';
	fprintf(stderr, "ptpctl: %s (%s): %s: %s\n", cn->daemon, cn->path,
	    name, e->message != NULL &&
	    e->message[0] != '\0' ? e->message : "no detail");
}

/* Receives one response; reports and maps failures. */
static int
ctl_recv(struct ctl_conn *cn, CtlResponse **out)
{
	int rc = ipc_recv_ctl_response(cn->fd, out);

	if (rc == IPC_OK)
		return CTL_EXIT_OK;
	if (rc == IPC_E_AGAIN)
		fprintf(stderr, "ptpctl: %s (%s): no answer within %d s\n",
		    cn->daemon, cn->path, CTL_TIMEOUT_S);
	else if (rc == IPC_E_EOF)
		fprintf(stderr, "ptpctl: %s (%s): closed the connection\n",
		    cn->daemon, cn->path);
	else
		fprintf(stderr, "ptpctl: %s (%s): bad response: %s (%s)\n",
		    cn->daemon, cn->path, ipc_strerror(rc), ipc_detail());
	return CTL_EXIT_FAIL;
}

int
ctl_open(struct ctl_conn *cn, const char *daemon, const char *path,
    int quiet)
{
	CtlRequest req = PTPSEP__CTL__CTL_REQUEST__INIT;
	CtlResponse *resp;
	Ptpsep__Hello h;
	const char *why;
	int rc;

	cn->daemon = daemon;
	cn->path = path;
	cn->fd = usock_connect(path, SOCK_SEQPACKET, CTL_TIMEOUT_S, 0);
	switch (cn->fd < 0 ? -cn->fd : 0) {
	case 0:
		break;
	case ENAMETOOLONG:
		cn->fd = -1;
		fprintf(stderr, "ptpctl: %s: socket path too long\n", path);
		return CTL_EXIT_USAGE;
	case EMFILE:
	case ENFILE:
	case ENOBUFS:
	case ENOMEM:
		fprintf(stderr, "ptpctl: socket: %s\n", strerror(-cn->fd));
		cn->fd = -1;
		return CTL_EXIT_FAIL;
	case EACCES:
	case EPERM:
		cn->fd = -1;
		if (!quiet)
			fprintf(stderr, "ptpctl: %s: permission denied on %s\n",
			    daemon, path);
		return CTL_EXIT_DENIED;
	default:
		/* ENOENT, ECONNREFUSED (a stale socket), ENOTSOCK, ... */
		if (!quiet)
			fprintf(stderr, "ptpctl: %s is not running (cannot "
			    "connect to %s: %s)\n", daemon, path,
			    strerror(-cn->fd));
		cn->fd = -1;
		return CTL_EXIT_NOT_RUNNING;
	}
	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CTL);
	req.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_HELLO;
	req.hello = &h;
	if ((rc = ipc_send_ctl_request(cn->fd, &req)) != IPC_OK) {
		if (!quiet)
			fprintf(stderr, "ptpctl: %s is not running (%s: %s)\n",
			    daemon, path, ipc_detail());
		ctl_close(cn);
		return CTL_EXIT_NOT_RUNNING;
	}
	if ((rc = ctl_recv(cn, &resp)) != CTL_EXIT_OK) {
		ctl_close(cn);
		return rc;
	}
	rc = CTL_EXIT_OK;
	if (resp->body_case == PTPSEP__CTL__CTL_RESPONSE__BODY_ERROR) {
		ctl_report_error(cn, resp->error);
		rc = ctl_error_exit(resp->error->code);
	} else if (usock_hello_check(&resp->base,
	    PTPSEP__ROLE__ROLE_UNSPECIFIED, &why) !=
	    PTPSEP__ERROR_CODE__ERROR_UNSPECIFIED) {
		fprintf(stderr, "ptpctl: %s (%s): %s\n", daemon, path, why);
		rc = CTL_EXIT_FAIL;
	}
	ipc_free(&resp->base);
	if (rc != CTL_EXIT_OK)
		ctl_close(cn);
	return rc;
}

int
ctl_call(struct ctl_conn *cn, const CtlRequest *req,
    Ptpsep__Ctl__CtlResponse__BodyCase want, CtlResponse **out)
{
	CtlResponse *resp;
	int rc;

	*out = NULL;
	if ((rc = ipc_send_ctl_request(cn->fd, req)) != IPC_OK) {
		if (rc == IPC_E_SYS && (errno == EPIPE || errno == ECONNRESET)) {
			fprintf(stderr, "ptpctl: %s is not running (%s: "
			    "connection lost)\n", cn->daemon, cn->path);
			return CTL_EXIT_NOT_RUNNING;
		}
		fprintf(stderr, "ptpctl: %s (%s): send: %s (%s)\n", cn->daemon,
		    cn->path, ipc_strerror(rc), ipc_detail());
		return CTL_EXIT_FAIL;
	}
	if ((rc = ctl_recv(cn, &resp)) != CTL_EXIT_OK)
		return rc;
	if (resp->body_case == want) {
		*out = resp;
		return CTL_EXIT_OK;
	}
	if (resp->body_case == PTPSEP__CTL__CTL_RESPONSE__BODY_ERROR) {
		ctl_report_error(cn, resp->error);
		rc = ctl_error_exit(resp->error->code);
	} else {
		fprintf(stderr, "ptpctl: %s (%s): unexpected response %u\n",
		    cn->daemon, cn->path, (unsigned)resp->body_case);
		rc = CTL_EXIT_FAIL;
	}
	ipc_free(&resp->base);
	return rc;
}

void
ctl_close(struct ctl_conn *cn)
{
	if (cn->fd >= 0)
		close(cn->fd);
	cn->fd = -1;
}
