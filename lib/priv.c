/*
 * priv.c - drop root, keep a named minimum of capabilities (libcap-ng).
 *
 * Order, as in OpenNTPD and chrony: everything privileged is opened first by
 * the caller; here the user is looked up (before anything changes, so a
 * typo fails with nothing half done), the capability sets are built,
 * libcap-ng switches uid/gid keeping them (it sets PR_SET_KEEPCAPS around
 * setresgid/setresuid, drops supplementary groups and clears the bounding
 * set), then no_new_privs.  Afterwards the result is read back from the
 * kernel and compared, so a silent partial drop cannot pass.
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

/* Reads the result back from the kernel: ids, groups, caps, no_new_privs. */
static int
verify_drop(uid_t uid, gid_t gid, const struct priv_needs *needs)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	unsigned cap;
	int want;

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
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) {
		log_warnx("privilege drop: no_new_privs not set");
		return -EPERM;
	}
	capng_clear(CAPNG_SELECT_ALL);
	if (capng_get_caps_process() != 0) {
		log_warnx("privilege drop: cannot read capabilities back");
		return -EIO;
	}
	/* Every capability the kernel may know, not only the four we use. */
	for (cap = 0; cap < 64; cap++) {
		want = priv_wants(needs, cap) ? 1 : 0;
		if (capng_have_capability(CAPNG_EFFECTIVE, cap) != want ||
		    capng_have_capability(CAPNG_PERMITTED, cap) != want ||
		    capng_have_capability(CAPNG_INHERITABLE, cap) ||
		    capng_have_capability(CAPNG_AMBIENT, cap)) {
			log_warnx("privilege drop: capability %u (%s) %s", cap,
			    capng_capability_to_name(cap) ?
			    capng_capability_to_name(cap) : "?",
			    want ? "lost" : "kept");
			return -EPERM;
		}
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
