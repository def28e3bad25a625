/*
 * netd.h - ptp-netd's core: the ports, the relay to clockd, the read-only
 * control socket, and the process around them.
 *
 * netd is the only privileged process of ptpsep.  It owns the sockets
 * (transport.h), the clock (clock.h) and the link monitor (nlmon.h), and
 * relays frames and timestamps to one clockd over netd_socket.  It holds no
 * protocol state: everything clockd asks for is checked (check.c) against
 * what the protocol allows, and refused or answered by closing the
 * connection when it is not.
 *
 * Files: main.c (life of the process), port.c (a port's sockets and their
 * events), relay.c (the clockd connection), check.c (pure checks of what
 * clockd sends), ctlsrv.c (netd_ctl_socket, read-only).
 */
#ifndef PTPSEP_NETD_NETD_H
#define PTPSEP_NETD_NETD_H

#include <stdint.h>
#include <sys/types.h>

#include "ipc.h"
#include "clock.h"
#include "transport.h"
#include "outq.h"

typedef Ptpsep__Netd__NetdMsg NetdMsg;

struct event;
struct event_base;
struct cfg;
struct nlmon;

/* Why a request of the client was refused (ctl.proto RefusedCount). */
#define NETD_REFUSE_MAX	(PTPSEP__REFUSE_REASON__REFUSE_NOT_SUPPORTED + 1)
/* Why a received frame was dropped (ctl.proto RxDropCount). */
#define NETD_RXDROP_MAX	(PTPSEP__CTL__RX_DROP_REASON__RX_DROP_CLIENT_BACKLOG + 1)

/*
 * The longest follow_up template netd keeps (TxFrame.follow_up): a
 * Pdelay_Resp_Follow_Up is 54 octets, a Follow_Up 44; the rest leaves
 * room for a few TLVs (e.g. 16.2's follow-up information TLV, 32 octets).
 */
#define NETD_FU_MAX	128

/*
 * A TX timestamp netd owes the client: transport id -> client cookie,
 * and, when clockd gave one, the general message netd completes with the
 * timestamp and sends to dst (fu_len > 0).
 */
struct netd_txmap {
	int			used;
	uint32_t		ts_id;
	uint64_t		cookie;
	size_t			fu_len;
	struct transport_dest	dst;
	uint8_t			fu[NETD_FU_MAX];
};
/*
 * A ring indexed by the transport's ts_id (sequential, taken only by
 * event messages: check.c), as long as the transport's ring of the event
 * socket; 176 octets an entry, mapped on first use (2.8 MiB at most).
 */
#define NETD_TXMAP_MAX	TRANSPORT_TX_PENDING_MAX

struct netd_port {
	struct netd		*nd;
	unsigned		 index;		/* position in PortList */
	char			 ifname[IF_NAMESIZE];
	struct transport_params	 params;
	struct transport_port	 tp;
	int			 is_open;	/* sockets open */
	int			 link_up;
	struct event		*ev[TC_NUM];
	struct event		*ev_tx;		/* tp.fd_tx, only while owed */
	int			 phc_index;	/* its driver's PHC (phc.h);
						   -1: none, or software */
	struct netd_txmap	*txmap;		/* NETD_TXMAP_MAX, or NULL */
	unsigned		 txmap_used;	/* entries owed */
	uint8_t			 quiet[TC_NUM];	/* socket off the loop */
	uint8_t			 coalescing;	/* event socket off the loop
						   while a Delay_Req is held */
	int			 drained;	/* frames the last drain read */
	uint64_t		 rxdrop[NETD_RXDROP_MAX];
	uint64_t		 refused[NETD_REFUSE_MAX];
	uint64_t		 reopens;
};

struct ctlsock;

struct netd {
	struct event_base	*base;
	struct cfg		*cfg;

	/* the clock and the bounds on what clockd may do to it */
	struct clock		*clk;
	char			 clock_device[64];	/* auto resolved */
	int			 phc_index;	/* clk's /dev/ptpN, -1: no PHC */
	struct clock_bounds	 bounds;
	struct clock_bounds_state bstate;
	uint64_t		 clock_refused[NETD_REFUSE_MAX];
	int			 ptp_timescale;	/* clk counts TAI (ClockInfo) */

	/*
	 * The system clock, a second clock (sync_system_clock 1; NULL
	 * without): the same bounds, its own step window and refusals.
	 */
	struct clock		*sysclk;
	const char		*sysclk_device;	/* "system" or "virtual" */
	struct clock_bounds_state sys_bstate;
	uint64_t		 sys_refused[NETD_REFUSE_MAX];
	enum clock_cmp_method	 cmp_method;	/* sysclk against clk */
	int			 cmp_samples;	/* system_clock_samples */
	int64_t			 cmp_last_ns;	/* last compare, < 0: none */

	struct netd_port	*ports;
	size_t			 nports;

	/* relay.c: the one clockd connection */
	int			 listen_fd;
	struct event		*listen_ev;
	int			 client_fd;	/* -1: none */
	struct event		*client_ev;
	struct event		*hello_tmo;	/* armed until the Hello */
	int			 client_ready;	/* Hello exchanged */
	uid_t			 client_uid;	/* clockd_user */
	uint64_t		 client_connections;
	uint64_t		 client_backlog_closes;	/* closed: queue full */
	struct outq		 outq;		/* held for clockd (outq.h) */
	struct event		*outq_tmo;	/* sends what is held alone */
	struct event		*coal_tmo;	/* ends the ports' coalescing */
	int			 draining;	/* in port_rx_drain() */
	int64_t			 coal_again_ns;	/* the longest hold a drained
						   frame asked for */
	uint64_t		 conn_refused[NETD_REFUSE_MAX];

	/* ctlsrv.c: read-only control socket (lib/ctlsock.c) */
	struct ctlsock		*ctl;

	/* link monitor */
	struct nlmon		*nl;
	struct event		*nl_ev;

	struct event		*tick_ev;	/* TX timestamp expiry */
	int			 batching;	/* in a NetdBatch */
};

/* ---- main.c ---- */
/* Runs the TX timestamp expiry timer while any timestamp is owed. */
void	netd_arm_tick(struct netd *nd);

/* ---- port.c ---- */
int	port_init(struct netd *nd, struct netd_port *p, unsigned index,
	    const char *ifname);
int	port_open(struct netd_port *p);
/* The clock's step mode (cli_step_mode()) as the transport knows it. */
enum transport_step port_step(const struct cfg *cfg);
void	port_close(struct netd_port *p);
/* Sends the client's frame; returns 0, or a refusal reason (> 0). */
int	port_send(struct netd_port *p, enum transport_class cls,
	    const struct transport_dest *dst, const uint8_t *payload,
	    size_t len, int want_ts, uint64_t cookie, const uint8_t *fu,
	    size_t fu_len);
void	port_expire_tx(struct netd_port *p);
/*
 * Around the TxFrames of one NetdBatch: a socket taken off the event loop
 * for a software time-stamped send goes back (its time stamps read) at
 * the batch's end, not after each frame.
 */
void	port_batch_begin(struct netd *nd);
void	port_batch_end(struct netd *nd);
/*
 * Within a batch, before a member that is not a TxFrame: what the frames
 * before it owe (their time stamps) goes first, as if each had come alone.
 */
void	port_batch_flush(struct netd *nd);
/*
 * Receive coalescing (outq.h): the port's event socket leaves the loop
 * while a received Delay_Req is held; port_rx_drain() reads what came
 * meanwhile (at most PORT_DRAIN_MAX frames a port), and returns 1 when a
 * port had more: drain again in PORT_DRAIN_AGAIN_US.  port_rx_end()
 * then puts the sockets back, or with keep leaves them off for another
 * window.  port_rx_coalesce(): 1 when the socket is off the loop.
 */
#define PORT_DRAIN_AGAIN_US	1000
int	port_rx_coalesce(struct netd_port *p);
int	port_rx_drain(struct netd *nd);
void	port_rx_end(struct netd *nd, int keep);
/* Forgets the TX timestamps owed (the client went away); frees nothing. */
void	port_txmap_clear(struct netd_port *p);
/* Frees what port_init() and port_send() allocated (at exit). */
void	port_free(struct netd_port *p);
void	port_link_event(struct netd *nd, const char *ifname, int ifindex,
	    int created, int up, int deleted);
/* The interface's MAC changed: the L2 source and clockIdentity follow. */
void	port_mac_changed(struct netd *nd, const char *ifname, int ifindex,
	    const uint8_t *addr, size_t len);
/* Fills a Port message; strings point into p, bytes into buf (>= 14). */
void	port_describe(struct netd_port *p, Ptpsep__Netd__Port *m,
	    uint8_t *buf);

/* ---- relay.c: the clockd connection ---- */
int	relay_listen(struct netd *nd, const char *path, uid_t sock_uid,
	    gid_t sock_gid);
void	relay_close_client(struct netd *nd, const char *why);
int	relay_connected(const struct netd *nd);
/* netd -> clockd.  relay_rx_frame() returns 0, or -1 when the frame was
 * not relayed (counted as dropped); the others are void: a TX time stamp,
 * a failed send and a link event must reach clockd, so relay_send() closes
 * a client whose queue is full rather than drop them. */
int	relay_rx_frame(struct netd_port *p, enum transport_class cls,
	    const struct transport_rx *rx);
void	relay_tx_timestamp(struct netd_port *p, uint64_t cookie,
	    const struct transport_txts *ts);
void	relay_tx_failed(struct netd_port *p, uint64_t cookie);
void	relay_link_event(struct netd_port *p, int reopened);

/* ---- ctlsrv.c: netd_ctl_socket ---- */
int	ctlsrv_listen(struct netd *nd, const char *path);
void	ctlsrv_close_all(struct netd *nd);
/*
 * The clock and its bounds as clockd (PortList) and ptpctl (NetdInfo) see
 * them; device points into nd.
 */
void	netd_clock_info(struct netd *nd, Ptpsep__Netd__ClockInfo *ci);
/* The same for the system clock; 0, or -1 when there is none. */
int	netd_sys_clock_info(struct netd *nd, Ptpsep__Netd__ClockInfo *ci);

/* ---- check.c: pure checks of what clockd sends ---- */
enum check_verdict {
	CHECK_OK = 0,
	CHECK_VIOLATION,	/* breaks the protocol: close the connection */
};
/*
 * A TxFrame: port index in range, class known, payload a PTPv2 message of
 * that class whose messageLength is the payload length, destination one of
 * the protocol's or (unicast) an address of the port's family; a
 * follow_up only with want_tx_ts, and the general message that carries
 * that event message's timestamp (check_follow_up() in check.c).  On
 * violation *reason says why (a RefuseReason) and *why is a log text.
 */
enum check_verdict check_send_frame(const Ptpsep__Netd__TxFrame *f,
	    size_t nports, enum transport_kind kind_of_port(void *, unsigned),
	    void *arg, enum transport_class *cls, struct transport_dest *dst,
	    int *reason, const char **why);
/*
 * Writes the TX timestamp into a checked follow_up template's bytes
 * 34..43 (13.8.2, 13.11.2: 48-bit seconds, 32-bit ns, big-endian).
 */
void	check_fu_stamp(uint8_t *fu, size_t len, uint64_t sec, uint32_t nsec);
/*
 * A ClockRequest: an op is set and its value is a number; a compare
 * concerns both clocks, so system_clock with it is a violation.  *is_read:
 * 0 for an adjustment (out filled, out->system_clock the target),
 * CHECK_CLOCK_READ for a read or status, CHECK_CLOCK_COMPARE.
 */
#define CHECK_CLOCK_READ	1
#define CHECK_CLOCK_COMPARE	2
enum check_verdict check_clock_request(const Ptpsep__Netd__ClockRequest *r,
	    struct clock_req *out, int *is_read, const char **why);
/* Maps a clock bounds status to the RefuseReason clockd sees. */
int	check_refuse_reason(enum clock_status st);
/*
 * A checked TxFrame on a port of step: a message the NIC stamps in one
 * step (transport_one_step_msg()) must have twoStepFlag 0, no want_tx_ts
 * and no follow_up.  On violation *reason and *why as check_send_frame().
 */
enum check_verdict check_one_step(enum transport_step step,
	    enum transport_class cls, const Ptpsep__Netd__TxFrame *f,
	    int *reason, const char **why);

#endif /* PTPSEP_NETD_NETD_H */
