/*
 * priv.c - drop root, keep a named minimum of capabilities (libcap-ng).
 *
 * Order, as in OpenNTPD and chrony: everything privileged is opened first by
 * the caller; here the user is looked up (before anything changes, so a
 * typo fails with nothing half done), the capability sets are built,
 * libcap-ng switches uid/gid keeping them (it sets PR_SET_KEEPCAPS around
 * setresgid/setresuid, drops supplementary groups and clears the bounding
 * set), then no_new_privs.  Afterwards the result is read back from the
 * kernel (/proc/self/status, all five sets) and compared, so a silent
 * partial drop cannot pass.  priv_shed() is the same for a process that
 * starts as its user: nothing to switch, everything to give up.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>
#include <cap-ng.h>

#include "log.h"
#include "priv.h"

struct priv_cap {
	unsigned	 cap;
	const char	*name;
};

static const struct priv_cap priv_caps[] = {
	{ CAP_NET_RAW, "CAP_NET_RAW" },
	{ CAP_NET_ADMIN, "CAP_NET_ADMIN" },
	{ CAP_NET_BIND_SERVICE, "CAP_NET_BIND_SERVICE" },
	{ CAP_SYS_TIME, "CAP_SYS_TIME" },
};

static int
priv_wants(const struct priv_needs *needs, unsigned cap)
{
	switch (cap) {
	case CAP_NET_RAW:
		return needs->net_raw;
	case CAP_NET_ADMIN:
		return needs->net_admin;
	case CAP_NET_BIND_SERVICE:
		return needs->net_bind_service;
	case CAP_SYS_TIME:
		return needs->sys_time;
	}
	return 0;
}

unsigned long long
priv_mask(const struct priv_needs *needs)
{
	unsigned long long m = 0;
	size_t i;

	for (i = 0; i < sizeof(priv_caps) / sizeof(priv_caps[0]); i++)
		if (priv_wants(needs, priv_caps[i].cap))
			m |= 1ULL << priv_caps[i].cap;
	return m;
}

void
priv_describe(const struct priv_needs *needs, char *buf, size_t len)
{
	size_t i, off = 0;
	int n;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < sizeof(priv_caps) / sizeof(priv_caps[0]); i++) {
		if (!priv_wants(needs, priv_caps[i].cap))
			continue;
		n = snprintf(buf + off, len - off, "%s%s", off ? "," : "",
		    priv_caps[i].name);
		if (n < 0 || (size_t)n >= len - off)
			return;		/* truncated, still terminated */
		off += (size_t)n;
	}
	if (off == 0)
		snprintf(buf, len, "none");
}

static int
lookup_user(const char *user, uid_t *uid, gid_t *gid)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	int rc;

	rc = getpwnam_r(user, &pw, buf, sizeof(buf), &res);
	if (res == NULL) {
		if (rc == 0)
			rc = ENOENT;
		errno = rc;
		log_warn("user %s", user);
		return -rc;
	}
	if (pw.pw_uid == 0 || pw.pw_gid == 0) {
		log_warnx("user %s: uid/gid 0 would not drop privileges", user);
		return -EINVAL;
	}
	*uid = pw.pw_uid;
	*gid = pw.pw_gid;
	return 0;
}

/*
 * "net_raw,fowner" for the capabilities of mask (libcap-ng's names; a bit
 * it does not know as "cap_N").  Always NUL-terminates; "..." if cut.
 */
void
priv_names(unsigned long long mask, char *buf, size_t len)
{
	const char *name;
	char num[16];
	size_t off = 0;
	unsigned cap;
	int n;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (cap = 0; cap < 64; cap++) {
		if (!(mask & (1ULL << cap)))
			continue;
		if ((name = capng_capability_to_name(cap)) == NULL) {
			snprintf(num, sizeof(num), "cap_%u", cap);
			name = num;
		}
		n = snprintf(buf + off, len - off, "%s%s", off ? "," : "",
		    name);
		if (n < 0 || (size_t)n >= len - off) {
			if (len >= 4)
				memcpy(buf + len - 4, "...", 4);
			return;
		}
		off += (size_t)n;
	}
	if (off == 0)
		snprintf(buf, len, "none");
}

int
priv_read_status(struct priv_status *ps)
{
	char line[256];
	FILE *f;
	int seen = 0;

	memset(ps, 0, sizeof(*ps));
	ps->nnp = -1;
	if ((f = fopen("/proc/self/status", "re")) == NULL) {
		log_warn("privilege check: /proc/self/status");
		return -EIO;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "CapInh: %llx", &ps->inh) == 1)
			seen |= 1;
		else if (sscanf(line, "CapPrm: %llx", &ps->prm) == 1)
			seen |= 2;
		else if (sscanf(line, "CapEff: %llx", &ps->eff) == 1)
			seen |= 4;
		else if (sscanf(line, "CapBnd: %llx", &ps->bnd) == 1)
			seen |= 8;
		else if (sscanf(line, "CapAmb: %llx", &ps->amb) == 1)
			seen |= 16;
		else if (sscanf(line, "NoNewPrivs: %d", &ps->nnp) == 1)
			seen |= 32;
	}
	fclose(f);
	/* A kernel without one of these lines cannot be checked: refuse. */
	if (seen != 63) {
		log_warnx("privilege check: /proc/self/status lacks a "
		    "capability or NoNewPrivs line");
		return -EIO;
	}
	return 0;
}

/* Logs one set that holds more (or less) than it may; returns 1 if so. */
static int
priv_check_set(const char *set, unsigned long long have,
    unsigned long long extra, unsigned long long lost)
{
	char names[512];

	if (extra != 0) {
		priv_names(extra, names, sizeof(names));
		log_warnx("privilege check: %s %016llx still holds %s", set,
		    have, names);
	}
	if (lost != 0) {
		priv_names(lost, names, sizeof(names));
		log_warnx("privilege check: %s %016llx lost %s", set, have,
		    names);
	}
	return extra != 0 || lost != 0;
}

int
priv_verify(unsigned long long keep)
{
	struct priv_status ps;
	int bad = 0, rc;

	if ((rc = priv_read_status(&ps)) < 0)
		return rc;
	bad += priv_check_set("CapEff", ps.eff, ps.eff & ~keep, keep & ~ps.eff);
	bad += priv_check_set("CapPrm", ps.prm, ps.prm & ~keep, keep & ~ps.prm);
	bad += priv_check_set("CapInh", ps.inh, ps.inh, 0);
	bad += priv_check_set("CapAmb", ps.amb, ps.amb, 0);
	/* Within what is kept (libcap-ng empties it: normally 0). */
	bad += priv_check_set("CapBnd", ps.bnd, ps.bnd & ~keep, 0);
	if (ps.nnp != 1) {
		log_warnx("privilege check: NoNewPrivs is %d", ps.nnp);
		bad++;
	}
	return bad ? -EPERM : 0;
}

/* Reads the result back from the kernel: ids, groups, caps, no_new_privs. */
static int
verify_drop(uid_t uid, gid_t gid, const struct priv_needs *needs)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	if (getresuid(&ru, &eu, &su) != 0 || getresgid(&rg, &eg, &sg) != 0) {
		log_warn("getresuid/getresgid");
		return -errno;
	}
	if (ru != uid || eu != uid || su != uid ||
	    rg != gid || eg != gid || sg != gid) {
		log_warnx("privilege drop: ids are %u/%u/%u %u/%u/%u",
		    ru, eu, su, rg, eg, sg);
		return -EPERM;
	}
	if (getgroups(0, NULL) != 0) {
		log_warnx("privilege drop: supplementary groups remain");
		return -EPERM;
	}
	/* The kernel's own account of all five sets, not libcap-ng's. */
	return priv_verify(priv_mask(needs));
}

/*
 * The bounding set can only shrink with CAP_SETPCAP in the effective set
 * (capabilities(7)).  Raises it there if it is permitted, then drops every
 * capability the kernel knows from the bounding set.  Without it nothing
 * is dropped: priv_verify() afterwards names what is left.
 */
static void
priv_drop_bounding(void)
{
	unsigned cap;

	capng_clear(CAPNG_SELECT_ALL);
	if (capng_get_caps_process() != 0 ||
	    !capng_have_capability(CAPNG_PERMITTED, CAP_SETPCAP))
		return;
	if (!capng_have_capability(CAPNG_EFFECTIVE, CAP_SETPCAP) &&
	    (capng_update(CAPNG_ADD, CAPNG_EFFECTIVE, CAP_SETPCAP) != 0 ||
	    capng_apply(CAPNG_SELECT_CAPS) != 0)) {
		log_warnx("privilege drop: cannot make CAP_SETPCAP effective");
		return;
	}
	/* Up to the first number the kernel does not know (EINVAL). */
	for (cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 &&
		    errno == EINVAL)
			break;
}

int
priv_shed(void)
{
	struct priv_status ps;
	int rc;

	/*
	 * Only what is held is touched: under systemd's SystemCallFilter=
	 * ~@privileged (the units) capset() fails with EPERM even when it
	 * would lower nothing, and an empty set needs no call.  Order:
	 * ambient first (an exec would carry it on; clearing it needs no
	 * privilege), then the bounding set while CAP_SETPCAP may still be
	 * held, then inheritable, permitted and effective together.
	 */
	if ((rc = priv_read_status(&ps)) < 0)
		return rc;
	if (ps.amb != 0 &&
	    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0) {
		rc = -errno;
		log_warn("privilege drop: PR_CAP_AMBIENT_CLEAR_ALL");
		return rc;
	}
	if (ps.bnd != 0)
		priv_drop_bounding();
	if ((ps.inh | ps.prm | ps.eff) != 0) {
		capng_clear(CAPNG_SELECT_CAPS);
		if (capng_apply(CAPNG_SELECT_CAPS) != 0) {
			log_warnx("privilege drop: cannot clear the "
			    "capability sets");
			return -EPERM;
		}
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		rc = -errno;
		log_warn("privilege drop: PR_SET_NO_NEW_PRIVS");
		return rc;
	}
	if ((rc = priv_verify(0)) < 0) {
		if (priv_read_status(&ps) == 0 && ps.bnd != 0)
			log_warnx("privilege drop: the bounding set can only "
			    "be emptied with CAP_SETPCAP: start as root (the "
			    "daemon drops itself) or with an empty bounding "
			    "set (systemd CapabilityBoundingSet=, setpriv "
			    "--bounding-set=-all)");
		return rc;
	}
	return 0;
}

int
priv_drop(const char *user, const struct priv_needs *needs)
{
	char desc[128];
	uid_t uid;
	gid_t gid;
	size_t i;
	int rc;

	if (user == NULL || needs == NULL)
		return -EINVAL;
	if (geteuid() != 0) {
		log_warnx("privilege drop: not running as root");
		return -EPERM;
	}
	if ((rc = lookup_user(user, &uid, &gid)) < 0)
		return rc;

	capng_clear(CAPNG_SELECT_ALL);
	for (i = 0; i < sizeof(priv_caps) / sizeof(priv_caps[0]); i++) {
		if (!priv_wants(needs, priv_caps[i].cap))
			continue;
		if (capng_update(CAPNG_ADD, CAPNG_EFFECTIVE | CAPNG_PERMITTED,
		    priv_caps[i].cap) != 0) {
			log_warnx("privilege drop: capng_update %s",
			    priv_caps[i].name);
			return -EINVAL;
		}
	}
	/*
	 * No supplementary groups: the IPC sockets' ownership and modes were
	 * set while still root, so netd's user needs no group access.
	 */
	errno = 0;
	rc = capng_change_id((int)uid, (int)gid, CAPNG_DROP_SUPP_GRP |
	    CAPNG_CLEAR_BOUNDING | CAPNG_CLEAR_AMBIENT);
	if (rc != 0) {
		/* errno is that of the failing call; rc names the step. */
		log_warn("privilege drop: capng_change_id(%s) step %d", user,
		    -rc);
		return errno != 0 ? -errno : -EPERM;
	}
	/* Makes exec unable to grant anything (setuid bits, file caps). */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		rc = -errno;
		log_warn("privilege drop: PR_SET_NO_NEW_PRIVS");
		return rc;
	}
	if ((rc = verify_drop(uid, gid, needs)) < 0)
		return rc;
	priv_describe(needs, desc, sizeof(desc));
	log_info("dropped privileges to %s (uid %u gid %u), keeping %s", user,
	    uid, gid, desc);
	return 0;
}
