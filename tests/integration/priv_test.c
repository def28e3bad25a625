/*
 * priv_test.c - netd's privilege drop against the kernel (root).
 *
 * Each case runs in a forked child, in a network namespace of its own
 * (so the sockets it opens touch nothing else): priv_drop() to the given
 * user, then /proc/self/status must show non-root ids, no supplementary
 * groups, NoNewPrivs 1, CapEff = CapPrm = exactly the kept capabilities,
 * CapBnd a subset of them, CapInh = CapAmb = 0; and what the capabilities
 * allow must match: an AF_PACKET socket iff CAP_NET_RAW, binding UDP port
 * 319 iff CAP_NET_BIND_SERVICE, never setuid(0).  Two cases start with
 * ambient and inheritable capabilities, as a parent may hand them down;
 * and priv_verify() must accept the result and refuse any other mask.
 *
 * usage: priv_test [USER]   (default ptpsep-netd)
 */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/if_ether.h>
#include <cap-ng.h>

#include "log.h"
#include "priv.h"

struct status {
	unsigned		uid[4], gid[4];
	int			ngroups;
	int			nnp;
	unsigned long long	inh, prm, eff, bnd, amb;
};

static int
read_status(struct status *s)
{
	char line[512];
	FILE *f;

	memset(s, 0, sizeof(*s));
	s->nnp = -1;
	if ((f = fopen("/proc/self/status", "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "Uid: %u %u %u %u", &s->uid[0], &s->uid[1],
		    &s->uid[2], &s->uid[3]) == 4)
			continue;
		if (sscanf(line, "Gid: %u %u %u %u", &s->gid[0], &s->gid[1],
		    &s->gid[2], &s->gid[3]) == 4)
			continue;
		if (strncmp(line, "Groups:", 7) == 0) {
			char *p = line + 7, *end;

			for (;;) {
				(void)strtoul(p, &end, 10);
				if (end == p)
					break;
				s->ngroups++;
				p = end;
			}
			continue;
		}
		sscanf(line, "NoNewPrivs: %d", &s->nnp);
		sscanf(line, "CapInh: %llx", &s->inh);
		sscanf(line, "CapPrm: %llx", &s->prm);
		sscanf(line, "CapEff: %llx", &s->eff);
		sscanf(line, "CapBnd: %llx", &s->bnd);
		sscanf(line, "CapAmb: %llx", &s->amb);
	}
	fclose(f);
	return 0;
}

static int fails;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "  FAIL: %s: ", #cond);			\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		fails++;						\
	}								\
} while (0)

static int
can_packet_socket(void)
{
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_1588));

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static int
can_bind_319(void)
{
	struct sockaddr_in sin;
	int fd, ok;

	if ((fd = socket(AF_INET, SOCK_DGRAM, 0)) < 0)
		return 0;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(319);
	ok = bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0;
	close(fd);
	return ok;
}

/*
 * As a parent that hands capabilities down would: CAP_NET_RAW, CAP_FOWNER
 * and CAP_SETPCAP inheritable and ambient, before the drop.
 */
static int
preload_ambient(void)
{
	static const unsigned caps[] = { CAP_NET_RAW, CAP_FOWNER, CAP_SETPCAP };
	struct status s;
	size_t i;

	capng_get_caps_process();
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		if (capng_update(CAPNG_ADD, CAPNG_INHERITABLE, caps[i]) != 0)
			return -1;
	if (capng_apply(CAPNG_SELECT_CAPS) != 0)
		return -1;
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, caps[i], 0, 0))
			return -1;
	if (read_status(&s) != 0 || s.amb == 0 || s.inh == 0)
		return -1;
	printf("  before: CapInh %016llx CapAmb %016llx\n", s.inh, s.amb);
	return 0;
}

/*
 * priv_verify() against the process as it now is: it must accept exactly
 * what is held and name a difference either way.
 */
static void
check_verify(unsigned long long have)
{
	CHECK(priv_verify(have) == 0, "priv_verify(%llx) refused", have);
	printf("  priv_verify: the refusals logged next are expected\n");
	fflush(stdout);
	CHECK(priv_verify(have | 1ULL << CAP_SYS_ADMIN) == -EPERM,
	    "priv_verify accepted a lost CAP_SYS_ADMIN");
	if (have != 0)
		CHECK(priv_verify(0) == -EPERM,
		    "priv_verify(0) accepted CapEff %llx", have);
}

/* The child: drop, then check everything.  Exit status = failures. */
static int
child(const char *user, const struct priv_needs *needs, uid_t uid, gid_t gid,
    int ambient)
{
	unsigned long long want = priv_mask(needs);
	struct status s;
	int rc, i;

	/* Own network namespace: the sockets below touch nothing else. */
	if (unshare(CLONE_NEWNET) != 0) {
		perror("unshare(CLONE_NEWNET)");
		return 1;
	}
	if (ambient && preload_ambient() != 0) {
		fprintf(stderr, "  FAIL: cannot raise ambient capabilities\n");
		return 1;
	}
	if ((rc = priv_drop(user, needs)) != 0) {
		fprintf(stderr, "  FAIL: priv_drop: %s\n", strerror(-rc));
		return 1;
	}
	if (read_status(&s) != 0) {
		perror("/proc/self/status");
		return 1;
	}
	printf("  CapEff %016llx CapPrm %016llx CapBnd %016llx CapInh "
	    "%016llx CapAmb %016llx NoNewPrivs %d uid %u gid %u\n", s.eff,
	    s.prm, s.bnd, s.inh, s.amb, s.nnp, s.uid[0], s.gid[0]);
	for (i = 0; i < 4; i++) {
		CHECK(s.uid[i] == uid, "uid[%d] %u", i, s.uid[i]);
		CHECK(s.gid[i] == gid, "gid[%d] %u", i, s.gid[i]);
	}
	CHECK(uid != 0 && gid != 0, "dropped to root");
	CHECK(s.ngroups == 0, "%d supplementary groups", s.ngroups);
	CHECK(s.nnp == 1, "NoNewPrivs %d", s.nnp);
	CHECK(s.eff == want, "CapEff %llx want %llx", s.eff, want);
	CHECK(s.prm == want, "CapPrm %llx want %llx", s.prm, want);
	CHECK((s.bnd & ~s.eff) == 0, "CapBnd %llx not within CapEff %llx",
	    s.bnd, s.eff);
	CHECK(s.inh == 0, "CapInh %llx", s.inh);
	CHECK(s.amb == 0, "CapAmb %llx", s.amb);
	CHECK(can_packet_socket() == (int)needs->net_raw,
	    "AF_PACKET socket %s", needs->net_raw ? "refused" : "allowed");
	CHECK(can_bind_319() == (int)needs->net_bind_service,
	    "bind UDP 319 %s", needs->net_bind_service ? "refused" : "allowed");
	CHECK(setuid(0) != 0 && errno == EPERM, "setuid(0) allowed");
	CHECK(setgid(0) != 0, "setgid(0) allowed");
	check_verify(want);
	fflush(stdout);		/* the caller leaves with _exit() */
	return fails;
}

static int
run_case(const char *name, const char *user, struct priv_needs needs,
    int expect_rc, uid_t uid, gid_t gid, int ambient)
{
	char desc[128];
	pid_t pid;
	int st;

	priv_describe(&needs, desc, sizeof(desc));
	printf("case %s: user %s keep %s\n", name, user, desc);
	fflush(stdout);
	if ((pid = fork()) < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		if (expect_rc != 0) {
			/* Must fail before changing anything. */
			int rc = priv_drop(user, &needs);

			_exit(rc == expect_rc && geteuid() == 0 &&
			    getuid() == 0 ? 0 : 1);
		}
		_exit(child(user, &needs, uid, gid, ambient) ? 1 : 0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0) {
		printf("case %s: FAIL\n", name);
		return 1;
	}
	printf("case %s: ok\n", name);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *user = argc > 1 ? argv[1] : "ptpsep-netd";
	struct priv_needs none = { 0 }, raw = { 0 }, net = { 0 }, all = { 0 };
	struct passwd *pw;
	char desc[16];
	int bad = 0;

	log_init("priv_test", 1, LOG_LVL_INFO);
	if (geteuid() != 0) {
		fprintf(stderr, "priv_test: needs root\n");
		return 77;
	}
	if ((pw = getpwnam(user)) == NULL) {
		fprintf(stderr, "priv_test: no user %s\n", user);
		return 1;
	}
	raw.net_raw = 1;
	net.net_raw = net.net_admin = net.net_bind_service = 1;
	all = net;
	all.sys_time = 1;

	/* priv_describe() never overruns and always terminates. */
	priv_describe(&all, desc, sizeof(desc));
	if (strlen(desc) >= sizeof(desc))
		bad++;
	if (priv_mask(&all) != (1ULL << CAP_NET_RAW | 1ULL << CAP_NET_ADMIN |
	    1ULL << CAP_NET_BIND_SERVICE | 1ULL << CAP_SYS_TIME))
		bad++;

	bad += run_case("none (virtual clock, nothing to reopen)", user, none,
	    0, pw->pw_uid, pw->pw_gid, 0);
	bad += run_case("raw (L2, software timestamps)", user, raw, 0,
	    pw->pw_uid, pw->pw_gid, 0);
	bad += run_case("network (L2+UDP, hardware timestamps)", user, net, 0,
	    pw->pw_uid, pw->pw_gid, 0);
	bad += run_case("all (system clock)", user, all, 0, pw->pw_uid,
	    pw->pw_gid, 0);
	/* Handed-down ambient capabilities must not survive the drop. */
	bad += run_case("none, started with ambient caps", user, none, 0,
	    pw->pw_uid, pw->pw_gid, 1);
	bad += run_case("raw, started with ambient caps", user, raw, 0,
	    pw->pw_uid, pw->pw_gid, 1);
	bad += run_case("unknown user", "ptpsep-no-such-user", raw, -ENOENT,
	    0, 0, 0);
	bad += run_case("root is no drop", "root", raw, -EINVAL, 0, 0, 0);
	printf("priv_test: %s\n", bad ? "FAILED" : "ok");
	return bad ? 1 : 0;
}
