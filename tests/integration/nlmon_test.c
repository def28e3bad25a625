/*
 * nlmon_test.c - netd's link monitor against the kernel (root, run inside a
 * network namespace that nlmon.sh created, with veth nlm-v0/nlm-v1 in it).
 *
 *   nlmon_test            the event test: dump, then down/up, MAC change,
 *                         delete, re-create; asserts order and ifindexes.
 *   nlmon_test -c DIR     capture: writes every rtnetlink datagram that a
 *                         dump and the same changes produce into DIR (the
 *                         fuzz seed corpus, tests/fuzz/corpus/nlmon).
 *
 * Changes are made with ip(8), which inherits the namespace.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "log.h"
#include "netd/nlmon.h"

#define IF0	"nlm-v0"
#define IF1	"nlm-v1"

static int failures;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		failures++;						\
	}								\
} while (0)

static void
run(const char *cmd)
{
	printf("+ %s\n", cmd);
	fflush(stdout);
	if (system(cmd) != 0) {
		fprintf(stderr, "FAIL: %s\n", cmd);
		exit(1);
	}
}

/* Events of IF0 only, in order. */
struct evlog {
	struct nlmon_event	v[64];
	int			n;
};

static void
on_event(const struct nlmon_event *ev, void *arg)
{
	struct evlog *lg = arg;

	printf("  event %-11s %-7s ifindex %d old %d carrier %d\n",
	    nlmon_event_name(ev->type), ev->ifname, ev->ifindex,
	    ev->old_ifindex, ev->carrier);
	if (strcmp(ev->ifname, IF0) != 0 || lg->n == 64)
		return;
	lg->v[lg->n++] = *ev;
}

/*
 * Polls until want events of IF0 have been logged since *lg was cleared,
 * or 3 s pass, then reads a little longer to catch any extra one.
 */
static void
wait_events(struct nlmon *nl, struct evlog *lg, int want)
{
	struct pollfd pfd = { .fd = nlmon_fd(nl), .events = POLLIN };
	int waited = 0, rc;

	while (waited < 3000) {
		rc = poll(&pfd, 1, lg->n >= want ? 200 : 100);
		if (rc < 0 && errno != EINTR) {
			perror("poll");
			exit(1);
		}
		if (rc > 0 && nlmon_read(nl, on_event, lg) < 0) {
			fprintf(stderr, "FAIL: nlmon_read\n");
			exit(1);
		}
		if (rc == 0 && lg->n >= want)
			return;
		waited += 100;
	}
}

static int
ifindex_of(const char *name)
{
	char path[128];
	FILE *f;
	int idx = -1;

	snprintf(path, sizeof(path), "/sys/class/net/%s/ifindex", name);
	if ((f = fopen(path, "r")) != NULL) {
		if (fscanf(f, "%d", &idx) != 1)
			idx = -1;
		fclose(f);
	}
	return idx;
}

static int
event_test(void)
{
	struct evlog lg = { .n = 0 };
	struct nlmon *nl;
	int idx0, idx1;

	if ((nl = nlmon_open()) == NULL)
		return 1;
	idx0 = ifindex_of(IF0);
	CHECK(idx0 > 0, "no %s in this namespace", IF0);

	printf("dump\n");
	CHECK(nlmon_request_dump(nl) == 0, "dump request");
	wait_events(nl, &lg, 1);
	CHECK(lg.n == 1 && lg.v[0].type == NLMON_EV_CREATED &&
	    lg.v[0].ifindex == idx0 && lg.v[0].old_ifindex == 0 &&
	    lg.v[0].addr_len == 6, "dump: CREATED %s index %d", IF0, idx0);

	lg.n = 0;
	run("ip link set " IF1 " up && ip link set " IF0 " up");
	wait_events(nl, &lg, 1);
	CHECK(lg.n == 1 && lg.v[0].type == NLMON_EV_UP &&
	    lg.v[0].ifindex == idx0, "UP after both ends up (got %d)", lg.n);

	lg.n = 0;
	run("ip link set " IF0 " down");
	wait_events(nl, &lg, 1);
	CHECK(lg.n == 1 && lg.v[0].type == NLMON_EV_DOWN &&
	    lg.v[0].ifindex == idx0, "DOWN (got %d)", lg.n);

	lg.n = 0;
	run("ip link set " IF0 " up");
	wait_events(nl, &lg, 1);
	CHECK(lg.n == 1 && lg.v[0].type == NLMON_EV_UP, "UP again");

	/* Carrier loss from the far end: the peer goes down. */
	lg.n = 0;
	run("ip link set " IF1 " down");
	wait_events(nl, &lg, 1);
	CHECK(lg.n == 1 && lg.v[0].type == NLMON_EV_DOWN,
	    "DOWN when the peer goes down (got %d)", lg.n);
	lg.n = 0;
	run("ip link set " IF1 " up");
	wait_events(nl, &lg, 1);
	CHECK(lg.n == 1 && lg.v[0].type == NLMON_EV_UP, "UP with the peer");

	lg.n = 0;
	run("ip link set " IF0 " address 02:00:00:6e:6c:01");
	wait_events(nl, &lg, 1);
	CHECK(lg.n >= 1 && lg.v[0].type == NLMON_EV_MAC_CHANGED &&
	    lg.v[0].addr[5] == 0x01 && lg.v[0].addr[0] == 0x02,
	    "MAC_CHANGED");

	lg.n = 0;
	run("ip link del " IF0);
	wait_events(nl, &lg, 1);
	/* The kernel announces the carrier loss before the deletion. */
	CHECK(lg.n >= 1 && lg.n <= 2 &&
	    lg.v[lg.n - 1].type == NLMON_EV_DELETED &&
	    lg.v[lg.n - 1].ifindex == idx0 &&
	    (lg.n == 1 || (lg.v[0].type == NLMON_EV_DOWN &&
	    lg.v[0].ifindex == idx0)),
	    "[DOWN] DELETED index %d (got %d)", idx0, lg.n);

	lg.n = 0;
	run("ip link add " IF0 " type veth peer name " IF1 " && "
	    "ip link set " IF0 " up && ip link set " IF1 " up");
	idx1 = ifindex_of(IF0);
	wait_events(nl, &lg, 2);
	CHECK(idx1 > 0 && idx1 != idx0, "new ifindex %d vs %d", idx1, idx0);
	CHECK(lg.n == 2 && lg.v[0].type == NLMON_EV_CREATED &&
	    lg.v[0].ifindex == idx1 && lg.v[0].old_ifindex == idx0 &&
	    lg.v[1].type == NLMON_EV_UP && lg.v[1].ifindex == idx1,
	    "re-created: CREATED %d (old %d) then UP (got %d events)", idx1,
	    idx0, lg.n);

	nlmon_close(nl);
	printf("%s\n", failures ? "nlmon_test: FAILED" : "nlmon_test: ok");
	return failures ? 1 : 0;
}

/* ---- capture mode: a plain socket, independent of the code under test -- */

static int cap_fd = -1, cap_count;
static const char *cap_dir;

static void
capture_drain(int ms)
{
	struct pollfd pfd = { .fd = cap_fd, .events = POLLIN };
	char buf[32768], path[4096];
	ssize_t len;
	int fd;

	while (poll(&pfd, 1, ms) > 0) {
		if ((len = recv(cap_fd, buf, sizeof(buf), MSG_DONTWAIT)) <= 0)
			break;
		snprintf(path, sizeof(path), "%s/seed-%02d", cap_dir,
		    cap_count++);
		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 ||
		    write(fd, buf, (size_t)len) != len) {
			perror(path);
			exit(1);
		}
		close(fd);
		printf("  %s: %zd bytes\n", path, len);
	}
}

static int
capture(const char *dir)
{
	struct {
		struct nlmsghdr		h;
		struct ifinfomsg	ifi;
	} req;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
	    .nl_groups = RTMGRP_LINK };

	cap_dir = dir;
	if ((cap_fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)) < 0 ||
	    bind(cap_fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		perror("netlink");
		return 1;
	}
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = sizeof(req);
	req.h.nlmsg_type = RTM_GETLINK;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = 1;
	sa.nl_groups = 0;
	if (sendto(cap_fd, &req, sizeof(req), 0, (struct sockaddr *)&sa,
	    sizeof(sa)) < 0) {
		perror("RTM_GETLINK");
		return 1;
	}
	capture_drain(300);
	run("ip link set " IF1 " up && ip link set " IF0 " up");
	capture_drain(300);
	run("ip link set " IF0 " address 02:00:00:6e:6c:02");
	capture_drain(300);
	run("ip link del " IF0);
	capture_drain(300);
	close(cap_fd);
	return cap_count > 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	log_init("nlmon_test", 1, LOG_LVL_DEBUG);
	if (argc == 3 && strcmp(argv[1], "-c") == 0)
		return capture(argv[2]);
	if (argc != 1) {
		fprintf(stderr, "usage: nlmon_test [-c DIR]\n");
		return 2;
	}
	return event_test();
}
