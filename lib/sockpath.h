/*
 * sockpath.h - creating a Unix socket's node safely (issue 11, item 7).
 *
 * The daemons bind sockets in directories such as /run/ptpsep and then
 * give the node its owner and mode.  Done by path (bind, chown, chmod),
 * a symlink planted at the path makes chown/chmod act on its target, and
 * a directory another user can write lets that user swap the node.  Here:
 *
 *   - the socket's directory is opened O_DIRECTORY|O_NOFOLLOW (created
 *     0755 first if missing) and must be owned by root or by us, and not
 *     writable by group or others unless it is sticky and root's (as
 *     /tmp): then nobody else can remove or rename what we create there;
 *   - an old node at the name is removed (unlinkat) only if it is a
 *     socket; a symlink, file or directory there is refused, never
 *     followed or deleted;
 *   - the umask is set for bind() so that the node is born with its final
 *     mode (no chmod by path); the owner is set with fchownat(...,
 *     AT_SYMLINK_NOFOLLOW) in the opened directory;
 *   - fstatat(..., AT_SYMLINK_NOFOLLOW) then checks that the name in that
 *     directory is a socket with that owner and mode.
 *
 * Trusted, not checked: the directories above the socket's (/run, /tmp):
 * bind() still takes the whole path, so whoever may rename one of them
 * could make the node appear elsewhere; the fstatat() in the opened
 * directory then fails and the socket is refused.
 *
 * Errors come back as -errno with a sentence in why (for the log).
 */
#ifndef PTPSEP_SOCKPATH_H
#define PTPSEP_SOCKPATH_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#define SOCKPATH_NO_ID	((uid_t)-1)	/* leave the owner (or group) */

/*
 * Binds fd (an AF_UNIX socket) to path with mode (e.g. 0660), then owner
 * uid and group gid (SOCKPATH_NO_ID: unchanged).  0 or -errno.
 */
int	sockpath_bind(int fd, const char *path, mode_t mode, uid_t uid,
	    gid_t gid, char *why, size_t whylen);
/* Removes path if it is a socket (never a symlink's target); 0 or -errno. */
int	sockpath_unlink(const char *path);
/*
 * Pure: may sockets be made in a directory with this stat, by a process
 * of effective uid euid?  0, or -EPERM with the reason in why.
 */
int	sockpath_dir_check(const struct stat *st, uid_t euid, char *why,
	    size_t whylen);

#endif /* PTPSEP_SOCKPATH_H */
