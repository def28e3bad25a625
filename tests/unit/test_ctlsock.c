/*
 * test_ctlsock.c - the control sockets (lib/ctlsock.c): the slot policy
 * (no user can lock root out), and the busy path on a real socket (the
 * refused client reads ERROR_BUSY, not a reset).  The admin check (who may
 * send a SetRequest to clockd) is lib/usock.c's: test_usock.c.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>

#include "ctlsock.h"
#include "log.h"

/* ---- slot policy (pure) ---- */

static void
fill(struct ctlsock_slot *sl, size_t i, uid_t uid, int admin, int64_t t)
{
	sl[i].uid = uid;
	sl[i].admin = admin;
	sl[i].last_ns = t;
}

static void
test_admit_per_uid(void **state)
{
	struct ctlsock_slot sl[CTLSOCK_MAX_CLIENTS];
	size_t v = 99;

	fill(sl, 0, 65534, 0, 1);
	assert_int_equal(ctlsock_admit(sl, 1, 65534, 0, &v), CTLSOCK_ADMIT);
	fill(sl, 1, 65534, 0, 2);
	assert_int_equal(ctlsock_admit(sl, 2, 65534, 0, &v),
	    CTLSOCK_BUSY_UID);
	/* Another user is not affected, nor root. */
	assert_int_equal(ctlsock_admit(sl, 2, 1000, 0, &v), CTLSOCK_ADMIT);
	assert_int_equal(ctlsock_admit(sl, 2, 0, 1, &v), CTLSOCK_ADMIT);
}

static void
test_admit_reserved_and_evict(void **state)
{
	struct ctlsock_slot sl[CTLSOCK_MAX_CLIENTS];
	size_t i, n, v = 99;

	/* Many users, two connections each, as many as they may hold. */
	for (n = 0; n < CTLSOCK_MAX_CLIENTS; n++) {
		if (ctlsock_admit(sl, n, (uid_t)(2000 + n / 2), 0, &v) !=
		    CTLSOCK_ADMIT)
			break;
		fill(sl, n, (uid_t)(2000 + n / 2), 0, (int64_t)(100 + n));
	}
	assert_int_equal(n, CTLSOCK_MAX_CLIENTS - CTLSOCK_ADMIN_SLOTS);
	/* A fresh user finds no slot; root does. */
	assert_int_equal(ctlsock_admit(sl, n, 5000, 0, &v),
	    CTLSOCK_BUSY_FULL);
	for (i = 0; i < CTLSOCK_ADMIN_SLOTS; i++, n++) {
		assert_int_equal(ctlsock_admit(sl, n, 0, 1, &v),
		    CTLSOCK_ADMIT);
		fill(sl, n, 0, 1, 1);	/* admins idle the longest */
	}
	assert_int_equal(n, CTLSOCK_MAX_CLIENTS);
	/* All full: an admin evicts the non-admin idle the longest. */
	sl[3].last_ns = 5;
	assert_int_equal(ctlsock_admit(sl, n, 0, 1, &v), CTLSOCK_EVICT);
	assert_int_equal(v, 3);
	assert_false(sl[v].admin);
	/* A non-admin never evicts. */
	assert_int_equal(ctlsock_admit(sl, n, 5000, 0, &v),
	    CTLSOCK_BUSY_FULL);
	/* Only admins hold slots: nobody to evict. */
	for (i = 0; i < n; i++)
		fill(sl, i, 0, 1, 1);
	assert_int_equal(ctlsock_admit(sl, n, 0, 1, &v), CTLSOCK_BUSY_FULL);
}

/* ---- busy path on a real socket ---- */

static int
serve_nothing(void *arg, struct ctlsock_client *cl,
    const Ptpsep__Ctl__CtlRequest *req)
{
	return ctlsock_error(cl, PTPSEP__ERROR_CODE__ERROR_NOT_SUPPORTED,
	    "test");
}

static const struct ctlsock_ops test_ops = {
	.name = "test_ctl_socket",
	.role = PTPSEP__ROLE__ROLE_CLOCKD,
	.serve = serve_nothing,
};

static void
pump(struct event_base *base, int ms)
{
	struct timespec d = { 0, 1000000 };
	int i;

	for (i = 0; i < ms; i++) {
		event_base_loop(base, EVLOOP_NONBLOCK);
		nanosleep(&d, NULL);
	}
}

static int
connect_to(const char *path)
{
	int fd = usock_connect(path, SOCK_SEQPACKET, 2, 0);

	assert_true(fd >= 0);
	return fd;
}

static void
send_hello(int fd)
{
	Ptpsep__Ctl__CtlRequest r = PTPSEP__CTL__CTL_REQUEST__INIT;
	Ptpsep__Hello h;

	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CTL);
	r.body_case = PTPSEP__CTL__CTL_REQUEST__BODY_HELLO;
	r.hello = &h;
	assert_int_equal(ipc_send_ctl_request(fd, &r), IPC_OK);
}

/* The body of the one response on fd (after pumping), or -1 on error. */
static int
answer(struct event_base *base, int fd, char *text, size_t len)
{
	Ptpsep__Ctl__CtlResponse *resp;
	int body, rc;

	pump(base, 50);
	rc = ipc_recv_ctl_response(fd, &resp);
	if (rc != IPC_OK) {
		snprintf(text, len, "%s (%s)", ipc_strerror(rc),
		    strerror(errno));
		return -1;
	}
	body = (int)resp->body_case;
	text[0] = '\0';
	if (resp->body_case == PTPSEP__CTL__CTL_RESPONSE__BODY_ERROR) {
		snprintf(text, len, "%d %s", (int)resp->error->code,
		    resp->error->message ? resp->error->message : "");
	}
	ipc_free(&resp->base);
	return body;
}

static void
test_busy_reads_hello(void **state)
{
	char dir[] = "/tmp/test_ctlsock.XXXXXX", path[128], text[256];
	char want[64];
	struct event_base *base;
	struct ctlsock *cs;
	int fds[CTLSOCK_MAX_CLIENTS], fd, i, nadmit;

	/* As root every connection is an admin's; else the per-uid cap. */
	nadmit = geteuid() == 0 ? CTLSOCK_MAX_CLIENTS : CTLSOCK_PER_UID;
	log_init("test", 1, LOG_LVL_ERR);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ctl.sock", dir);
	assert_non_null(base = event_base_new());
	cs = ctlsock_listen(base, path, 0666, &test_ops, NULL);
	assert_non_null(cs);
	for (i = 0; i < nadmit; i++) {
		fds[i] = connect_to(path);
		send_hello(fds[i]);
		assert_int_equal(answer(base, fds[i], text, sizeof(text)),
		    PTPSEP__CTL__CTL_RESPONSE__BODY_HELLO);
	}
	assert_int_equal(ctlsock_nclients(cs), nadmit);
	snprintf(want, sizeof(want), "%d ",
	    (int)PTPSEP__ERROR_CODE__ERROR_BUSY);

	/* Hello there before the accept: answered BUSY, not reset. */
	fd = connect_to(path);
	send_hello(fd);
	assert_int_equal(answer(base, fd, text, sizeof(text)),
	    PTPSEP__CTL__CTL_RESPONSE__BODY_ERROR);
	assert_memory_equal(text, want, strlen(want));
	close(fd);

	/* Hello after the accept (the server waits for it). */
	fd = connect_to(path);
	pump(base, 20);
	send_hello(fd);
	assert_int_equal(answer(base, fd, text, sizeof(text)),
	    PTPSEP__CTL__CTL_RESPONSE__BODY_ERROR);
	assert_memory_equal(text, want, strlen(want));
	close(fd);
	assert_int_equal(ctlsock_nclients(cs), nadmit);

	/* Closed connections give their slots back. */
	for (i = 0; i < nadmit; i++)
		close(fds[i]);
	pump(base, 20);
	assert_int_equal(ctlsock_nclients(cs), 0);

	ctlsock_close(cs, 1);
	event_base_free(base);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * Item 7: a file (or a symlink to one) at the socket's path is neither
 * removed nor followed, and a world-writable directory is refused.
 */
static void
test_listen_refuses_planted(void **state)
{
	char dir[] = "/tmp/test_ctlsock.XXXXXX", path[128], target[128];
	struct event_base *base;
	struct stat st;
	FILE *f;

	log_init("test", 1, LOG_LVL_ERR - 1);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ctl.sock", dir);
	snprintf(target, sizeof(target), "%s/target", dir);
	assert_non_null(base = event_base_new());
	assert_non_null(f = fopen(target, "w"));
	fputs("keep\n", f);
	fclose(f);
	assert_int_equal(chmod(target, 0600), 0);

	assert_int_equal(symlink(target, path), 0);
	assert_null(ctlsock_listen(base, path, 0666, &test_ops, NULL));
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(unlink(path), 0);

	assert_null(ctlsock_listen(base, target, 0666, &test_ops, NULL));
	assert_int_equal(stat(target, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(st.st_size, 5);

	assert_int_equal(chmod(dir, 0777), 0);
	assert_null(ctlsock_listen(base, path, 0666, &test_ops, NULL));
	assert_int_equal(lstat(path, &st), -1);

	assert_int_equal(unlink(target), 0);
	assert_int_equal(rmdir(dir), 0);
	event_base_free(base);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_admit_per_uid),
		cmocka_unit_test(test_admit_reserved_and_evict),
		cmocka_unit_test(test_busy_reads_hello),
		cmocka_unit_test(test_listen_refuses_planted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
