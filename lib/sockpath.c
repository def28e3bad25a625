/*
 * sockpath.c - creating a Unix socket's node safely; see sockpath.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "sockpath.h"

int
sockpath_dir_check(const struct stat *st, uid_t euid, char *why,
    size_t whylen)
{
	if (!S_ISDIR(st->st_mode)) {
		snprintf(why, whylen, "not a directory");
		return -ENOTDIR;
	}
	if (st->st_uid != 0 && st->st_uid != euid) {
		snprintf(why, whylen, "directory owned by uid %u (must be "
		    "root's or uid %u's)", (unsigned)st->st_uid,
		    (unsigned)euid);
		return -EPERM;
	}
	/*
	 * Writable by others, they could replace our node; a sticky
	 * directory of root's (/tmp) keeps each user's names his own.
	 */
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
	    !((st->st_mode & S_ISVTX) != 0 && st->st_uid == 0)) {
		snprintf(why, whylen, "directory mode %04o is writable by "
		    "group or others (and not sticky and root's)",
		    (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* Splits path into its directory (dir) and last component (*name). */
static int
sockpath_split(const char *path, char *dir, size_t dirlen,
    const char **name, char *why, size_t whylen)
{
	const char *slash = strrchr(path, '/');

	if (strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		snprintf(why, whylen, "path too long");
		return -ENAMETOOLONG;
	}
	if (slash == NULL) {
		snprintf(dir, dirlen, ".");
		*name = path;
	} else if (slash == path) {
		snprintf(dir, dirlen, "/");
		*name = slash + 1;
	} else {
		snprintf(dir, dirlen, "%.*s", (int)(slash - path), path);
		*name = slash + 1;
	}
	if (**name == '\0' || strcmp(*name, ".") == 0 ||
	    strcmp(*name, "..") == 0) {
		snprintf(why, whylen, "no file name");
		return -EINVAL;
	}
	return 0;
}

/* Opens and checks the directory of path; creates it 0755 if missing. */
static int
sockpath_open_dir(const char *path, const char **name, char *why,
    size_t whylen)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct stat st;
	int dfd, rc;

	if ((rc = sockpath_split(path, dir, sizeof(dir), name, why,
	    whylen)) != 0)
		return rc;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0 && errno == ENOENT && mkdir(dir, 0755) == 0)
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (dfd < 0) {
		rc = -errno;
		snprintf(why, whylen, "directory %s: %s%s", dir,
		    strerror(-rc), rc == -ELOOP || rc == -ENOTDIR ?
		    " (a symlink is not accepted)" : "");
		return rc;
	}
	if (fstat(dfd, &st) != 0) {
		rc = -errno;
		snprintf(why, whylen, "directory %s: %s", dir, strerror(-rc));
		close(dfd);
		return rc;
	}
	if ((rc = sockpath_dir_check(&st, geteuid(), why, whylen)) != 0) {
		char what[160];

		snprintf(what, sizeof(what), "%s", why);
		snprintf(why, whylen, "%s: %s", dir, what);
		close(dfd);
		return rc;
	}
	return dfd;
}

/* Removes a stale socket at name in dfd; refuses anything else there. */
static int
sockpath_clear(int dfd, const char *name, const char *path, char *why,
    size_t whylen)
{
	struct stat st;
	int rc;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno == ENOENT)
			return 0;
		rc = -errno;
		snprintf(why, whylen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(why, whylen, "%s exists and is not a socket (%s); "
		    "not touched", path, S_ISLNK(st.st_mode) ? "a symlink" :
		    S_ISDIR(st.st_mode) ? "a directory" : "a file");
		return -EEXIST;
	}
	if (unlinkat(dfd, name, 0) != 0 && errno != ENOENT) {
		rc = -errno;
		snprintf(why, whylen, "remove old socket %s: %s", path,
		    strerror(-rc));
		return rc;
	}
	return 0;
}

int
sockpath_bind(int fd, const char *path, mode_t mode, uid_t uid, gid_t gid,
    char *why, size_t whylen)
{
	struct sockaddr_un sun;
	struct stat st;
	const char *name;
	mode_t old;
	int dfd, rc;

	if ((dfd = sockpath_open_dir(path, &name, why, whylen)) < 0)
		return dfd;
	if ((rc = sockpath_clear(dfd, name, path, why, whylen)) != 0)
		goto out;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, strlen(path));
	/* bind() never follows a symlink at the name: EADDRINUSE. */
	old = umask((mode_t)(~mode & 0777));
	rc = bind(fd, (struct sockaddr *)&sun, sizeof(sun));
	umask(old);
	if (rc != 0) {
		rc = -errno;
		snprintf(why, whylen, "bind %s: %s", path, strerror(-rc));
		goto out;
	}
	if ((uid != SOCKPATH_NO_ID || gid != (gid_t)SOCKPATH_NO_ID) &&
	    fchownat(dfd, name, uid, gid, AT_SYMLINK_NOFOLLOW) != 0) {
		rc = -errno;
		snprintf(why, whylen, "chown %s: %s", path, strerror(-rc));
		goto unlink;
	}
	/* Is the name in the directory we checked our socket, as meant? */
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		rc = -errno;
		snprintf(why, whylen, "%s after bind: %s", path,
		    strerror(-rc));
		goto out;
	}
	if (!S_ISSOCK(st.st_mode) || (st.st_mode & 07777) != mode ||
	    (uid != SOCKPATH_NO_ID && st.st_uid != uid) ||
	    (gid != (gid_t)SOCKPATH_NO_ID && st.st_gid != gid)) {
		snprintf(why, whylen, "%s after bind is not the socket made "
		    "(mode %04o uid %u gid %u)", path,
		    (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid,
		    (unsigned)st.st_gid);
		rc = -EEXIST;
		goto unlink;
	}
	close(dfd);
	return 0;
unlink:
	/* Ours, or a socket at least: never anything else. */
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISSOCK(st.st_mode))
		(void)unlinkat(dfd, name, 0);
out:
	close(dfd);
	return rc;
}

/*
 * By path, not in an opened directory: clockd removes its sockets at exit
 * inside its seccomp sandbox, where open() fails.  unlink() removes a
 * symlink itself, never its target, and only a socket is removed.
 */
int
sockpath_unlink(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return -errno;
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	if (unlink(path) != 0)
		return -errno;
	return 0;
}
