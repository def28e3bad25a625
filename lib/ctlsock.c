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
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "ctlsock.h"
#include "log.h"
#include "usock.h"

struct ctlsock_client {
	struct ctlsock_client	*next;
	struct ctlsock		*cs;
	int			 fd;
	int			 hello;		/* Hello exchanged */
	int			 failed;	/* a reply could not be sent */
	int			 admin;		/* root or admin_group */
	int64_t			 last_ns;	/* last request, monotonic */
	struct usock_peer	 peer;
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
	int			 have_admin_gid;
	gid_t			 admin_gid;
	struct ctlsock_refusal	*refusing;	/* waiting for a Hello */
	unsigned		 nrefusing;
};

/* A connection refused for want of a slot, waiting for its Hello. */
struct ctlsock_refusal {
	struct ctlsock_refusal	*next;
	struct ctlsock		*cs;
	int			 fd;
	const char		*why;
	struct event		*ev;
};

static void ctlsock_ev_accept(evutil_socket_t fd, short what, void *arg);
static void ctlsock_ev_client(evutil_socket_t fd, short what, void *arg);
static void ctlsock_ev_idle(evutil_socket_t fd, short what, void *arg);
static void ctlsock_ev_resume(evutil_socket_t fd, short what, void *arg);
static void ctlsock_ev_refuse(evutil_socket_t fd, short what, void *arg);

static int64_t
ctlsock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

struct ctlsock *
ctlsock_listen(struct event_base *base, const char *path, mode_t mode,
    const struct ctlsock_ops *ops, void *arg)
{
	struct ctlsock *cs;
	char why[256];
	int fd;

	if ((cs = calloc(1, sizeof(*cs))) == NULL) {
		log_warn("%s", ops->name);
		return NULL;
	}
	fd = usock_listen(path, SOCK_SEQPACKET, mode, SOCKPATH_NO_ID,
	    SOCKPATH_NO_ID, CTLSOCK_MAX_CLIENTS + CTLSOCK_MAX_REFUSING, 0,
	    why, sizeof(why));
	if (fd < 0) {
		log_warnx("%s: %s", ops->name, why);
		goto no_socket;
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
		(void)sockpath_unlink(path);
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
	while (cs->refusing != NULL) {
		struct ctlsock_refusal *rf = cs->refusing;

		cs->refusing = rf->next;
		event_free(rf->ev);
		close(rf->fd);
		free(rf);
	}
	event_free(cs->ev);
	close(cs->fd);
	if (unlink_path)
		(void)sockpath_unlink(cs->path);
	free(cs);
}

unsigned
ctlsock_nclients(const struct ctlsock *cs)
{
	return cs->nclients;
}

void
ctlsock_set_admin_group(struct ctlsock *cs, int have_gid, gid_t gid)
{
	cs->have_admin_gid = have_gid;
	cs->admin_gid = gid;
}

const struct usock_peer *
ctlsock_peer(const struct ctlsock_client *cl)
{
	return &cl->peer;
}

enum ctlsock_verdict
ctlsock_admit(const struct ctlsock_slot *slots, size_t n, uid_t uid,
    int admin, size_t *victim)
{
	size_t i, same = 0, others = 0, best = n;

	for (i = 0; i < n; i++) {
		if (slots[i].admin)
			continue;
		others++;
		if (slots[i].uid == uid)
			same++;
		if (best == n || slots[i].last_ns < slots[best].last_ns)
			best = i;
	}
	if (admin) {
		if (n < CTLSOCK_MAX_CLIENTS)
			return CTLSOCK_ADMIT;
		if (best == n)
			return CTLSOCK_BUSY_FULL;	/* all admins */
		*victim = best;
		return CTLSOCK_EVICT;
	}
	if (same >= CTLSOCK_PER_UID)
		return CTLSOCK_BUSY_UID;
	if (others >= CTLSOCK_MAX_CLIENTS - CTLSOCK_ADMIN_SLOTS ||
	    n >= CTLSOCK_MAX_CLIENTS)
		return CTLSOCK_BUSY_FULL;
	return CTLSOCK_ADMIT;
}

/*
 * Sends Error{BUSY, why} and closes, after reading what the client sent
 * (its Hello), so that it gets the Error and not a reset (usock_drain()).
 */
static void
ctlsock_refuse_now(int fd, const char *why)
{
	Ptpsep__Ctl__CtlResponse r = PTPSEP__CTL__CTL_RESPONSE__INIT;
	Ptpsep__Error e;

	usock_drain(fd, 16);
	ipc_error_init(&e, PTPSEP__ERROR_CODE__ERROR_BUSY, why);
	r.body_case = PTPSEP__CTL__CTL_RESPONSE__BODY_ERROR;
	r.error = &e;
	(void)ipc_send_ctl_response(fd, &r);
	close(fd);
}

static void
ctlsock_ev_refuse(evutil_socket_t fd, short what, void *arg)
{
	struct ctlsock_refusal *rf = arg, **pp;
	struct ctlsock *cs = rf->cs;

	for (pp = &cs->refusing; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == rf) {
			*pp = rf->next;
			break;
		}
	}
	cs->nrefusing--;
	event_free(rf->ev);
	/* Readable (its Hello) or CTLSOCK_REFUSE_MS passed: answer now. */
	ctlsock_refuse_now(rf->fd, rf->why);
	free(rf);
}

/*
 * Refuses a connection with ERROR_BUSY once its Hello is there: ptpctl
 * connects and then sends Hello, which may not have arrived yet.  At most
 * CTLSOCK_MAX_REFUSING wait (each for CTLSOCK_REFUSE_MS); beyond that the
 * answer goes at once.
 */
static void
ctlsock_refuse(struct ctlsock *cs, int fd, const char *why)
{
	struct ctlsock_refusal *rf;
	struct timeval tv = { 0, CTLSOCK_REFUSE_MS * 1000 };
	uint8_t b;

	if (recv(fd, &b, 1, MSG_DONTWAIT | MSG_PEEK) >= 0 ||
	    cs->nrefusing >= CTLSOCK_MAX_REFUSING ||
	    (rf = calloc(1, sizeof(*rf))) == NULL) {
		ctlsock_refuse_now(fd, why);
		return;
	}
	rf->cs = cs;
	rf->fd = fd;
	rf->why = why;
	rf->ev = event_new(cs->base, fd, EV_READ, ctlsock_ev_refuse, rf);
	if (rf->ev == NULL || event_add(rf->ev, &tv) != 0) {
		if (rf->ev != NULL)
			event_free(rf->ev);
		free(rf);
		ctlsock_refuse_now(fd, why);
		return;
	}
	rf->next = cs->refusing;
	cs->refusing = rf;
	cs->nrefusing++;
}

static void
ctlsock_arm_idle(struct ctlsock_client *cl)
{
	struct timeval tv = { CTLSOCK_IDLE_S, 0 };

	evtimer_add(cl->t_idle, &tv);
}

/* Is there a slot for peer?  Evicts one for an admin if need be. */
static int
ctlsock_place(struct ctlsock *cs, const struct usock_peer *peer,
    int admin, int fd)
{
	struct ctlsock_slot slots[CTLSOCK_MAX_CLIENTS];
	struct ctlsock_client *cl, *by_slot[CTLSOCK_MAX_CLIENTS];
	size_t n = 0, victim = 0;

	for (cl = cs->clients; cl != NULL && n < CTLSOCK_MAX_CLIENTS;
	    cl = cl->next) {
		slots[n].uid = cl->peer.uid;
		slots[n].admin = cl->admin;
		slots[n].last_ns = cl->last_ns;
		by_slot[n++] = cl;
	}
	switch (ctlsock_admit(slots, n, peer->uid, admin, &victim)) {
	case CTLSOCK_ADMIT:
		return 0;
	case CTLSOCK_EVICT:
		cl = by_slot[victim];
		log_rl(LOG_LVL_NOTICE, "%s: client pid %d uid %u dropped to "
		    "make room for uid %u", cs->ops->name, (int)cl->peer.pid,
		    (unsigned)cl->peer.uid, (unsigned)peer->uid);
		(void)ctlsock_error(cl, PTPSEP__ERROR_CODE__ERROR_BUSY,
		    "connection closed to make room for an administrator");
		ctlsock_drop(cl);
		return 0;
	case CTLSOCK_BUSY_UID:
		log_rl(LOG_LVL_NOTICE, "%s: uid %u (pid %d) refused: it holds "
		    "%d connections already", cs->ops->name,
		    (unsigned)peer->uid, (int)peer->pid, CTLSOCK_PER_UID);
		ctlsock_refuse(cs, fd, "this user holds too many control "
		    "connections; close one and try again");
		return -1;
	case CTLSOCK_BUSY_FULL:
		break;
	}
	log_rl(LOG_LVL_NOTICE, "%s: uid %u (pid %d) refused: no free slot",
	    cs->ops->name, (unsigned)peer->uid, (int)peer->pid);
	ctlsock_refuse(cs, fd, "too many control clients; try again");
	return -1;
}

static void
ctlsock_ev_accept(evutil_socket_t lfd, short what, void *arg)
{
	struct ctlsock *cs = arg;
	struct ctlsock_client *cl;
	struct usock_peer peer;
	struct timeval tv = { CTLSOCK_HELLO_S, 0 };
	char why[64];
	int fd, admin;

	if ((fd = usock_accept(lfd, &peer, why, sizeof(why))) < 0) {
		if (fd != -EAGAIN && fd != -EINTR)
			log_rl(LOG_LVL_WARN, "%s: %s", cs->ops->name, why);
		return;
	}
	admin = usock_peer_is_admin(&peer, cs->have_admin_gid,
	    cs->admin_gid);
	if (ctlsock_place(cs, &peer, admin, fd) != 0)
		return;
	if ((cl = calloc(1, sizeof(*cl))) == NULL)
		goto no_client;
	cl->cs = cs;
	cl->fd = fd;
	cl->peer = peer;
	cl->admin = admin;
	cl->last_ns = ctlsock_now_ns();
	cl->ev = event_new(cs->base, fd, EV_READ | EV_PERSIST,
	    ctlsock_ev_client, cl);
	cl->t_idle = evtimer_new(cs->base, ctlsock_ev_idle, cl);
	cl->t_pause = evtimer_new(cs->base, ctlsock_ev_resume, cl);
	if (cl->ev == NULL || cl->t_idle == NULL || cl->t_pause == NULL ||
	    event_add(cl->ev, NULL) != 0)
		goto no_event;
	/* Until its Hello, a connection holds a slot for CTLSOCK_HELLO_S. */
	evtimer_add(cl->t_idle, &tv);
	clock_gettime(CLOCK_MONOTONIC, &cl->window);
	cl->next = cs->clients;
	cs->clients = cl;
	cs->nclients++;
	log_debug("%s: client pid %d uid %u%s", cs->ops->name,
	    (int)cl->peer.pid, (unsigned)cl->peer.uid,
	    admin ? " (admin)" : "");
	return;
no_event:
	if (cl->ev != NULL)
		event_free(cl->ev);
	if (cl->t_idle != NULL)
		event_free(cl->t_idle);
	if (cl->t_pause != NULL)
		event_free(cl->t_pause);
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
	Ptpsep__ErrorCode code;
	Ptpsep__Hello h;
	const char *why;

	code = usock_hello_check(&req->base, PTPSEP__ROLE__ROLE_CTL, &why);
	if (code != PTPSEP__ERROR_CODE__ERROR_UNSPECIFIED) {
		(void)ctlsock_error(cl, code, why);
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
			log_rl(LOG_LVL_DEBUG, "%s: client pid %d: %s (%s)",
			    cs->ops->name,
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
	cl->last_ns = ctlsock_now_ns();
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
