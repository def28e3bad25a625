/*
 * notify.c - the sd_notify protocol in one function (see notify.h).
 *
 * What systemd documents (sd_notify(3), "Notes"): one datagram on an
 * AF_UNIX socket; a path starting with '@' names an abstract socket (the
 * '@' becomes a NUL byte, and the address length is exact, not padded).
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "log.h"
#include "notify.h"

int
notify_send(const char *state)
{
	struct sockaddr_un sun;
	const char *path = getenv("NOTIFY_SOCKET");
	socklen_t salen;
	size_t len;
	ssize_t n;
	int fd, err;

	if (path == NULL || path[0] == '\0')
		return 0;
	len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof(sun.sun_path)) {
		log_warnx("NOTIFY_SOCKET %s: not a Unix socket address", path);
		return -EINVAL;
	}
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, len);
	salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
	if (path[0] == '@')
		sun.sun_path[0] = '\0';		/* abstract namespace */
	else
		salen++;			/* with the terminating NUL */

	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0) {
		err = errno;
		log_warn("notify: socket");
		return -err;
	}
	n = sendto(fd, state, strlen(state), MSG_NOSIGNAL,
	    (struct sockaddr *)&sun, salen);
	err = errno;
	(void)close(fd);
	if (n < 0) {
		errno = err;
		log_warn("notify: %s to %s", state, path);
		return -err;
	}
	return 1;
}
