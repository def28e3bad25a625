/*
 * ctlsrv.h - clockd_ctl_socket: ptpctl's view of ptp-clockd and its one
 * way to change it (SetRequest, admin_group only).
 */
#ifndef PTPSEP_CLOCKD_CTLSRV_H
#define PTPSEP_CLOCKD_CTLSRV_H

struct clockd;
struct ctlsrv;

/*
 * Listens on the configured clockd_ctl_socket (mode 0666: reading is open
 * to every local user; SetRequest is checked per peer).  Runs after the
 * privilege drop, so the socket's directory must be writable by
 * clockd_user.  NULL on failure (logged): clockd keeps running without a
 * control socket rather than leaving the clock unsynchronized.
 */
struct ctlsrv *ctlsrv_start(struct clockd *c);
void	ctlsrv_stop(struct ctlsrv *s);

#endif /* PTPSEP_CLOCKD_CTLSRV_H */
