/*
 * netd_types.h - netd's messages as clockd's engine sees them.
 *
 * The channel to netd speaks protobuf-c (proto/netd.proto); the engine
 * (clock*.c, port*.c) does not.  netd_client.c translates each decoded
 * message into one of these, pointing into the decoded message rather than
 * copying it (a payload stays where ipc_recv() put it, valid for the
 * callback only), and the simulator (tests/sim/) builds them directly.
 * So wire types stay at the edge of the engine (doc/design.md), and the
 * engine's callbacks can be driven by a test without a protobuf message.
 */
#ifndef PTPSEP_CLOCKD_NETD_TYPES_H
#define PTPSEP_CLOCKD_NETD_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "clock_policy.h"	/* enum clock_refusal */
#include "ptp_msg.h"		/* struct ptp_timestamp */

/* The largest PTP message netd relays either way (lib/ipc.h's
 * IPC_MAX_PTP_PAYLOAD, the Ethernet MTU). */
#define NETD_MAX_PAYLOAD	1500

/* Where a frame goes (netd.proto Destination). */
enum netd_dest {
	NETD_DEST_PRIMARY,
	NETD_DEST_PDELAY,
	NETD_DEST_UNICAST,
};

/* An address's family; the values are netd.proto's AddrFamily. */
enum netd_af {
	NETD_AF_NONE = 0,
	NETD_AF_MAC = 1,	/* 6 octets */
	NETD_AF_IPV4 = 2,	/* 4 octets, network byte order */
	NETD_AF_IPV6 = 3,	/* 16 octets */
};

/* A port's transport; the values are common.proto's Transport (ptpctl
 * shows them as they are). */
enum netd_transport {
	NETD_TR_NONE = 0,
	NETD_TR_L2 = 1,
	NETD_TR_UDP_IPV4 = 2,
	NETD_TR_UDP_IPV6 = 3,
};

/* How netd compared the system clock with the PTP clock; the values are
 * netd.proto's SysoffMethod. */
enum netd_sysoff {
	NETD_SYSOFF_NONE = 0,
	NETD_SYSOFF_PRECISE = 1,
	NETD_SYSOFF_EXTENDED = 2,
	NETD_SYSOFF_BASIC = 3,
	NETD_SYSOFF_SAME_BASE = 4,
};

/* A clock request (ClockRequest) of the engine's; see env_clock_req(). */
enum netd_clock_op {
	NETD_CLOCK_READ = 1,	/* get_status */
	NETD_CLOCK_ADJFREQ,
	NETD_CLOCK_STEP,
	NETD_CLOCK_COMPARE,	/* system minus PTP clock (ClockOffset) */
	NETD_CLOCK_LEAP,	/* arm/cancel a leap second (ClockSetLeap) */
};

struct netd_clock_req {
	uint64_t		 id;
	enum netd_clock_op	 op;
	int			 system_clock;	/* act on the system clock */
	double			 freq_ppb;	/* ADJFREQ */
	int64_t			 step_ns;	/* STEP */
	int			 leap;		/* LEAP: +1, -1, 0 cancel */
	int			 set_tai;	/* LEAP: also set tai_offset */
	int			 tai_offset;	/* LEAP: TAI - UTC, s */
};

/* A unicast destination: an address netd reported as a frame's source. */
struct netd_addr {
	enum netd_af	 family;
	uint8_t		 len;
	uint8_t		 b[16];
};

/* RxFrame: a PTP message received on a port. */
struct netd_rx {
	unsigned		 port;		/* netd's port index */
	int			 event;		/* from the event socket */
	const uint8_t		*payload;	/* the PTP message, not copied */
	size_t			 len;
	int			 have_ts;	/* rx_ts present */
	struct ptp_timestamp	 ts;		/* in netd's clock's timescale */
	enum netd_af		 src_family;	/* NETD_AF_NONE: not given */
	const uint8_t		*src;		/* src_len octets, not copied */
	size_t			 src_len;
};

/* TxTimestamp: the TX time stamp of a frame sent with want_ts. */
struct netd_txts {
	uint64_t		 cookie;	/* the TxFrame's (clockd.h COOKIE) */
	unsigned		 port;
	int			 ok;		/* sent and stamped: ts is valid */
	struct ptp_timestamp	 ts;
};

/* ClockReply: netd's answer to a clock request of this id. */
struct netd_clock_reply {
	uint64_t		 id;
	int			 ok;
	enum clock_refusal	 refusal;	/* !ok: why; CR_NONE when ok */
	int			 have_now;	/* now present */
	struct ptp_timestamp	 now;		/* the clock after the request */
	double			 freq_ppb;	/* the frequency in effect */
	int			 system_clock;	/* about the system clock */
	int			 have_offset;	/* the answer to a compare */
	struct netd_clock_offset {
		int64_t		 sys_minus_ptp_ns;	/* raw, no UTC */
		int		 have_ptp_time;
		struct ptp_timestamp ptp_time;	/* the PTP clock then */
		uint32_t	 delay_ns;	/* the read bracket */
		enum netd_sysoff method;
	}			 offset;
};

/* LinkEvent: a port's carrier changed. */
struct netd_link_event {
	unsigned		 port;
	int			 up;
};

/* A Port of the PortList. */
struct netd_port_desc {
	const char		*iface;		/* not copied */
	enum netd_transport	 transport;
	int			 link_up;
	/* PTP_CLOCK_ID_LEN octets, NULL when netd gave none (no MAC) */
	const uint8_t		*clock_identity;
	int			 one_step;	/* the NIC writes Sync times */
};

/* ClockInfo: the bounds netd enforces on its clock. */
struct netd_clock_info {
	double			 max_freq_ppb;
	int			 step_allowed;
	int64_t			 max_step_ns;	/* 0: no operator limit */
	uint32_t		 min_adj_interval_ms;
	int			 ptp_timescale;	/* counts TAI (a PHC) */
	int			 phc_index;	/* -1: none */
	enum netd_sysoff	 sysoff;	/* the system clock's only */
	int			 leap_allowed;	/* counts UTC, kernel_leap 1 */
	int			 is_virtual;	/* netd's `virtual' clock */
};

/* PortList: netd's ports, right after Hello. */
struct netd_port_list {
	const struct netd_port_desc *ports;
	size_t			 nports;
	int			 have_clock;	/* clock present */
	struct netd_clock_info	 clock;
	/* the system clock netd owns with sync_system_clock 1 */
	int			 have_sys_clock;
	struct netd_clock_info	 sys_clock;
};

/* netd's messages into the engine (clockd.h: clock_netd_cbs).  Pointers in
 * the messages are valid during the call only. */
struct netd_client_cbs {
	/* Hello exchanged and the PortList received. */
	void	(*connected)(void *arg, const struct netd_port_list *pl);
	/* The connection is gone (netd exited or closed it). */
	void	(*disconnected)(void *arg);
	void	(*rx_frame)(void *arg, const struct netd_rx *f);
	void	(*tx_timestamp)(void *arg, const struct netd_txts *t);
	void	(*clock_reply)(void *arg, const struct netd_clock_reply *r);
	void	(*link_event)(void *arg, const struct netd_link_event *e);
};

#endif /* PTPSEP_CLOCKD_NETD_TYPES_H */
