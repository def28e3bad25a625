/*
 * ctlsock.c - the server side of a control socket; see ctlsock.h.
 *
 * Every client socket is non-blocking and is read one datagram per event
 * callback, so one client cannot hold the event loop: the daemon's PTP
 * sockets and timers get their turn between any two control requests.
 * SOCK_SEQPACKET delivers whole datagrams, so a client that disconnects
 * "mid-message" is seen as end of file, never as half a request.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "ctlsock.h"
#include "log.h"

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS	59	/* Linux 4.13 */
#endif

struct ctlsock_client {
	struct ctlsock_client	*next;
	struct ctlsock		*cs;
	int			 fd;
	int			 hello;		/* Hello exchanged */
	int			 failed;	/* a reply could not be sent */
	struct ctlsock_peer	 peer;
	struct event		*ev;		/* readable */
	struct event		*t_idle;	/* idle timeout */
	struct event		*t_pause;	/* end of a rate-limit pause */
	struct timespec		 window;	/* start of the rate window */
	unsigned		 nreq;		/* requests in the window */
};

struct ctlsock {
	struct event_base	*base;
	const struct ctlsock_ops *ops;
	void			*arg;
	int			 fd;
	struct event		*ev;
	char			 path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct ctlsock_client	*clients;
	unsigned		 nclients;
};

static void ctlsock_ev_accept(evutil_socket_t fd, short what, void *arg);
static void ctlsock_ev_client(evutil_socket_t fd, short what, void *arg);
static void ctlsock_ev_idle(evutil_socket_t fd, short what, void *arg);
static void ctlsock_ev_resume(evutil_socket_t fd, short what, void *arg);

struct ctlsock *
ctlsock_listen(struct event_base *base, const char *path, mode_t mode,
    const struct ctlsock_ops *ops, void *arg)
{
	struct sockaddr_un sun;
	struct ctlsock *cs;
	int fd, err;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		log_warnx("%s %s: path too long", ops->name, path);
		return NULL;
	}
	strcpy(sun.sun_path, path);
	if ((cs = calloc(1, sizeof(*cs))) == NULL) {
		log_warn("%s", ops->name);
		return NULL;
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		log_warn("%s: socket", ops->name);
		goto no_socket;
	}
	(void)unlink(path);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
	    chmod(path, mode) != 0 ||
	    listen(fd, CTLSOCK_MAX_CLIENTS) != 0) {
		err = errno;
		log_warnx("%s %s: %s", ops->name, path, strerror(err));
		goto no_bind;
	}
	cs->base = base;
	cs->ops = ops;
	cs->arg = arg;
	cs->fd = fd;
	strcpy(cs->path, path);
	cs->ev = event_new(base, fd, EV_READ | EV_PERSIST, ctlsock_ev_accept,
	    cs);
	if (cs->ev == NULL || event_add(cs->ev, NULL) != 0) {
		log_warnx("%s: cannot watch the socket", ops->name);
		if (cs->ev != NULL)
			event_free(cs->ev);
		(void)unlink(path);
		goto no_bind;
	}
	return cs;
no_bind:
	close(fd);
no_socket:
	free(cs);
	return NULL;
}

static void
ctlsock_drop(struct ctlsock_client *cl)
{
	struct ctlsock *cs = cl->cs;
	struct ctlsock_client **pp;

	for (pp = &cs->clients; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == cl) {
			*pp = cl->next;
			break;
		}
	}
	cs->nclients--;
	event_free(cl->ev);
	event_free(cl->t_idle);
	event_free(cl->t_pause);
	close(cl->fd);
	free(cl);
}

void
ctlsock_close(struct ctlsock *cs, int unlink_path)
{
	if (cs == NULL)
		return;
	while (cs->clients != NULL)
		ctlsock_drop(cs->clients);
	event_free(cs->ev);
	close(cs->fd);
	if (unlink_path)
		(void)unlink(cs->path);
	free(cs);
}

unsigned
ctlsock_nclients(const struct ctlsock *cs)
{
	return cs->nclients;
}

const struct ctlsock_peer *
ctlsock_peer(const struct ctlsock_client *cl)
{
	return &cl->peer;
}

int
ctlsock_peer_is_admin(const struct ctlsock_peer *p, int have_gid, gid_t gid)
{
	size_t i;

	if (p->uid == 0)
		return 1;
	if (!have_gid)
		return 0;
	if (p->gid == gid)
		return 1;
	for (i = 0; i < p->ngroups && i < CTLSOCK_MAX_GROUPS; i++)
		if (p->groups[i] == gid)
			return 1;
	return 0;
}

/*
 * The kernel's view of the peer at connect(): SO_PEERCRED for uid, gid and
 * pid, SO_PEERGROUPS for the supplementary groups.  Both are race-free
 * (unlike reading /proc/PID/status, whose PID may be gone or reused) and
 * reflect the process's real groups (unlike getgrouplist() on the user's
 * name, which says what a fresh login would get).
 */
static int
ctlsock_get_peer(int fd, struct ctlsock_peer *p)
{
	struct ucred uc;
	socklen_t len = sizeof(uc);

	memset(p, 0, sizeof(*p));
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) != 0 ||
	    len != sizeof(uc))
		return -1;
	p->pid = uc.pid;
	p->uid = uc.uid;
	p->gid = uc.gid;
	len = sizeof(p->groups);
	/* ERANGE: more groups than we keep; the first ones still count. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, p->groups, &len) == 0)
		p->ngroups = len / sizeof(gid_t);
	else
		p->ngroups = 0;
	if (p->ngroups > CTLSOCK_MAX_GROUPS)
		p->ngroups = CTLSOCK_MAX_GROUPS;
	return 0;
}

static void
ctlsock_arm_idle(struct ctlsock_client *cl)
{
	struct timeval tv = { CTLSOCK_IDLE_S, 0 };

	evtimer_add(cl->t_idle, &tv);
}

static void
ctlsock_ev_accept(evutil_socket_t lfd, short what, void *arg)
{
	struct ctlsock *cs = arg;
	struct ctlsock_client *cl;
	int fd;

	fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (cs->nclients >= CTLSOCK_MAX_CLIENTS) {
		Ptpsep__Ctl__CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
		Ptpsep__Error e;

		/* Say why, so that ptpctl does not report a dead daemon. */
		ipc_error_init(&e, PTPSEP__ERROR_CODE__ERROR_BUSY,
		    "too many control clients; try again");
		r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_ERROR;
		r.error = &e;
		(void)ipc_send_ctl_response(fd, &r);
		close(fd);
		return;
	}
	if ((cl = calloc(1, sizeof(*cl))) == NULL)
		goto no_client;
	cl->cs = cs;
	cl->fd = fd;
	if (ctlsock_get_peer(fd, &cl->peer) != 0) {
		log_warn("%s: SO_PEERCRED", cs->ops->name);
		goto no_cred;
	}
	cl->ev = event_new(cs->base, fd, EV_READ | EV_PERSIST,
	    ctlsock_ev_client, cl);
	cl->t_idle = evtimer_new(cs->base, ctlsock_ev_idle, cl);
	cl->t_pause = evtimer_new(cs->base, ctlsock_ev_resume, cl);
	if (cl->ev == NULL || cl->t_idle == NULL || cl->t_pause == NULL ||
	    event_add(cl->ev, NULL) != 0)
		goto no_event;
	ctlsock_arm_idle(cl);
	clock_gettime(CLOCK_MONOTONIC, &cl->window);
	cl->next = cs->clients;
	cs->clients = cl;
	cs->nclients++;
	log_debug("%s: client pid %d uid %u", cs->ops->name,
	    (int)cl->peer.pid, (unsigned)cl->peer.uid);
	return;
no_event:
	if (cl->ev != NULL)
		event_free(cl->ev);
	if (cl->t_idle != NULL)
		event_free(cl->t_idle);
	if (cl->t_pause != NULL)
		event_free(cl->t_pause);
no_cred:
	free(cl);
no_client:
	close(fd);
}

int
ctlsock_reply(struct ctlsock_client *cl, const Ptpsep__Ctl__CtlResponse *r)
{
	int rc = ipc_send_ctl_response(cl->fd, r);

	if (rc == IPC_OK)
		return 0;
	/*
	 * IPC_E_AGAIN: the client does not read its answers (its receive
	 * buffer is full).  Waiting for it would need a queue per client;
	 * dropping it costs a well-behaved client nothing.
	 */
	log_debug("%s: reply to pid %d: %s (%s)", cl->cs->ops->name,
	    (int)cl->peer.pid, ipc_strerror(rc), ipc_detail());
	cl->failed = 1;
	return -1;
}

int
ctlsock_error(struct ctlsock_client *cl, Ptpsep__ErrorCode code,
    const char *text)
{
	Ptpsep__Ctl__CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Error e;

	ipc_error_init(&e, code, text);
	r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_ERROR;
	r.error = &e;
	return ctlsock_reply(cl, &r);
}

static void
ctlsock_ev_idle(evutil_socket_t fd, short what, void *arg)
{
	struct ctlsock_client *cl = arg;

	log_debug("%s: client pid %d idle, dropped", cl->cs->ops->name,
	    (int)cl->peer.pid);
	ctlsock_drop(cl);
}

static void
ctlsock_ev_resume(evutil_socket_t fd, short what, void *arg)
{
	struct ctlsock_client *cl = arg;

	clock_gettime(CLOCK_MONOTONIC, &cl->window);
	cl->nreq = 0;
	if (event_add(cl->ev, NULL) != 0)
		ctlsock_drop(cl);
}

/*
 * Counts a request against the client's budget.  Over CTLSOCK_RATE in one
 * second the client is not read until the second is over: its requests
 * wait in its socket, and then it blocks in send.  Returns 1 if paused.
 */
static int
ctlsock_rate_limit(struct ctlsock_client *cl)
{
	struct timespec now;
	int64_t el;
	struct timeval tv;

	clock_gettime(CLOCK_MONOTONIC, &now);
	el = (int64_t)(now.tv_sec - cl->window.tv_sec) * 1000000000LL +
	    (now.tv_nsec - cl->window.tv_nsec);
	if (el >= 1000000000LL || el < 0) {
		cl->window = now;
		cl->nreq = 0;
		el = 0;
	}
	if (++cl->nreq <= CTLSOCK_RATE)
		return 0;
	event_del(cl->ev);
	tv.tv_sec = 0;
	tv.tv_usec = (suseconds_t)((1000000000LL - el) / 1000);
	evtimer_add(cl->t_pause, &tv);
	return 1;
}

static int
ctlsock_hello(struct ctlsock_client *cl, const Ptpsep__Ctl__CtlRequest *req)
{
	Ptpsep__Ctl__CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Hello h;

	if (req->body_case != PTPSEP__CTL__CTL_REQUEST__BODY_HELLO) {
		(void)ctlsock_error(cl, PTPSEP__ERROR_CODE__ERROR_PROTOCOL,
		    "first message is not Hello");
		return -1;
	}
	if (ipc_hello_check(req->hello, PTPSEP__ROLE__ROLE_CTL) != IPC_OK) {
		(void)ctlsock_error(cl,
		    PTPSEP__ERROR_CODE__ERROR_VERSION_MISMATCH, ipc_detail());
		return -1;
	}
	cl->hello = 1;
	ipc_hello_init(&h, cl->cs->ops->role);
	r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_HELLO;
	r.hello = &h;
	return ctlsock_reply(cl, &r);
}

static void
ctlsock_ev_client(evutil_socket_t fd, short what, void *arg)
{
	struct ctlsock_client *cl = arg;
	struct ctlsock *cs = cl->cs;
	Ptpsep__Ctl__CtlRequest *req;
	int rc, keep;

	rc = ipc_recv_ctl_request(cl->fd, &req);
	if (rc == IPC_E_AGAIN)
		return;
	if (rc != IPC_OK) {
		if (rc != IPC_E_EOF) {
			log_debug("%s: client pid %d: %s (%s)", cs->ops->name,
			    (int)cl->peer.pid, ipc_strerror(rc),
			    ipc_detail());
			(void)ctlsock_error(cl,
			    PTPSEP__ERROR_CODE__ERROR_PROTOCOL,
			    ipc_strerror(rc));
		}
		ctlsock_drop(cl);
		return;
	}
	ctlsock_arm_idle(cl);
	if (!cl->hello) {
		keep = ctlsock_hello(cl, req) == 0;
	} else if (req->body_case == PTPSEP__CTL__CTL_REQUEST__BODY_HELLO) {
		(void)ctlsock_error(cl, PTPSEP__ERROR_CODE__ERROR_PROTOCOL,
		    "Hello sent twice");
		keep = 0;
	} else {
		keep = cs->ops->serve(cs->arg, cl, req) == 0;
	}
	ipc_free(&req->base);
	if (!keep || cl->failed) {
		ctlsock_drop(cl);
		return;
	}
	(void)ctlsock_rate_limit(cl);
}
