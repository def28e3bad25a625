/*
 * notify.h - readiness for systemd (the sd_notify protocol), without
 * libsystemd.
 *
 * Under Type=notify the service manager puts the path of a datagram socket
 * in $NOTIFY_SOCKET ("/run/systemd/notify", or "@name" for an abstract
 * socket); a daemon reports its state by sending "READY=1", "STOPPING=1",
 * ... to it.  Outside systemd the variable is unset and these calls do
 * nothing.  The socket is world-writable, so the calls work after the
 * privilege drop; they only need socket(AF_UNIX) and sendmsg, which
 * clockd's seccomp filter allows.
 */
#ifndef PTPSEP_NOTIFY_H
#define PTPSEP_NOTIFY_H

/*
 * Sends state (e.g. "READY=1") to $NOTIFY_SOCKET.  Returns 1 if sent, 0 if
 * there is no $NOTIFY_SOCKET, or a negative errno (logged with log_warn).
 */
int	notify_send(const char *state);

#endif /* PTPSEP_NOTIFY_H */
