/*
 * tstamp.h - SO_TIMESTAMPING for ptp-netd's sockets.
 *
 * Software mode asks the kernel for software RX timestamps on every frame
 * and, per message, a software TX timestamp; hardware mode programs the
 * NIC with SIOCSHWTSTAMP and reads the raw hardware timestamps (the PHC's
 * timescale).  TX timestamps come back on the socket's error queue, keyed
 * by SOF_TIMESTAMPING_OPT_ID.
 */
#ifndef PTPSEP_NETD_TSTAMP_H
#define PTPSEP_NETD_TSTAMP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>
#include <linux/net_tstamp.h>

#include "transport.h"

/* What the control messages of one recvmsg() carried. */
struct tstamp_cmsg {
	int have_sw;
	int have_hw;
	struct timespec sw;		/* ts[0] of SCM_TIMESTAMPING */
	struct timespec hw;		/* ts[2]: raw hardware */
	int have_err;			/* a TX timestamp notification */
	uint32_t key;			/* ee_data: the OPT_ID key */
	uint32_t tstype;		/* ee_info: SCM_TSTAMP_SND, ... */
};

/* Flags for SO_TIMESTAMPING on a socket of this mode. */
uint32_t tstamp_sock_flags(enum transport_ts_mode);
/* The per-message TX request put in an SO_TIMESTAMPING cmsg. */
uint32_t tstamp_tx_flags(enum transport_ts_mode);
/*
 * Whether the socket must be out of the event loop while this frame is
 * sent (software mode, a frame that asks for a TX timestamp): see
 * "TX timestamps and the event loop" in tstamp.c.
 */
int	tstamp_tx_quiet(enum transport_ts_mode, int want_ts);
/* Enables timestamping on fd; 0 or -errno. */
int	tstamp_enable(int fd, enum transport_ts_mode);
/*
 * Writes into buf (cap bytes, cmsg-aligned) the control message asking for
 * a TX timestamp; returns its length or 0 when cap is too small.
 */
size_t	tstamp_tx_cmsg(void *buf, size_t cap, enum transport_ts_mode);

/*
 * The SIOCSHWTSTAMP request for a transport: the step's tx_type
 * (tstamp_hw_tx_type()), the PTPv2 event filter.
 */
void	tstamp_hw_request(struct hwtstamp_config *, enum transport_kind,
	    enum transport_step);
/* HWTSTAMP_TX_ON, _ONESTEP_SYNC or _ONESTEP_P2P. */
int	tstamp_hw_tx_type(enum transport_step);
/* Its name, as the kernel's header spells it. */
const char *tstamp_hw_tx_name(int tx_type);
/* Whether the filter a driver answered with still stamps our events. */
int	tstamp_hw_reply_ok(enum transport_kind, int rx_filter);
/*
 * Programs the NIC behind ifname through socket fd.  0, or -errno with a
 * log line naming the interface when the driver refuses.
 */
int	tstamp_hw_enable(int fd, const char *ifname, enum transport_kind,
	    enum transport_step);

/*
 * Parses the control messages of msg: SCM_TIMESTAMPING in the old
 * (struct timespec) and new (64-bit) layouts, and the sock_extended_err of
 * an error-queue read (IP_RECVERR, IPV6_RECVERR, PACKET_TX_TIMESTAMP).
 * Returns 0, or -EINVAL if a timestamping cmsg is malformed.
 */
int	tstamp_parse_cmsg(struct msghdr *, struct tstamp_cmsg *);

/*
 * Where the PTP payload starts in a packet returned on the error queue
 * (the frame from its link-layer header).  Returns the offset or -EINVAL.
 */
int	tstamp_errq_payload_off(enum transport_kind, const uint8_t *, size_t);

/* ---- tstamp_tx.c: pending TX timestamp requests (transport.h) ---------- */
/*
 * Remembers a request under the socket's next key; returns 0 and sets
 * *id, -ENOSPC when that key's entry is still owed (the ring is full),
 * -ENOMEM when the ring cannot be mapped.
 */
int	tstamp_tx_add(struct transport_port *, enum transport_class,
	    const uint8_t *payload, size_t len, const struct timespec *now,
	    uint32_t *id);
/* The id the next tstamp_tx_add() hands out. */
uint32_t tstamp_tx_next_id(const struct transport_port *);
/* Forgets request id, whose send failed: its key is free, and the
 * requests after it (queued, not sent) move down one key. */
void	tstamp_tx_cancel(struct transport_port *, enum transport_class,
	    uint32_t id);
/* The kernel numbered a send of this socket that has no request (one-step). */
void	tstamp_tx_skip(struct transport_port *, enum transport_class);
/*
 * Finds the request an error-queue entry with the kernel's key answers:
 * payload (the PTP bytes returned with it, may be NULL) must equal what was
 * sent; the expected key first, then, when the bytes identify exactly one,
 * a request up to TRANSPORT_TX_DRIFT_MAX keys either side.  Returns its
 * index in the ring or -1: nothing is guessed.
 */
int	tstamp_tx_match(const struct transport_port *, enum transport_class,
	    uint32_t key, const uint8_t *payload, size_t len);
/* Frees the matched entry i, answered under key; returns its id. */
uint32_t tstamp_tx_done(struct transport_port *, enum transport_class, int i,
	    uint32_t key);
/* Reports and frees one expired request; 1 when *out filled, else 0. */
int	tstamp_tx_expire(struct transport_port *, const struct timespec *now,
	    struct transport_txts *);
/* Frees the rings (transport_close()). */
void	tstamp_tx_free(struct transport_port *);

#endif /* PTPSEP_NETD_TSTAMP_H */
