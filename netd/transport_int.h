/*
 * transport_int.h - what the transport modules share: one ops struct per
 * mapping (l2.c for Annex E, udp.c for Annexes C and D) behind transport.c.
 */
#ifndef PTPSEP_NETD_TRANSPORT_INT_H
#define PTPSEP_NETD_TRANSPORT_INT_H

#include <sys/socket.h>
#include <linux/if_ether.h>

#include "transport.h"

/*
 * One send, framed and waiting in a port's queue (transport_txq.c) or on
 * the sender's stack.  Points into itself: never copied once framed.
 */
enum { TXE_HDR = 0, TXE_PAYLOAD = 1 };	/* iov[] */
struct transport_txent {
	struct msghdr msg;
	struct iovec iov[2];
	size_t expect;			/* octets the kernel must take */
	uint32_t ts_id;			/* want_ts: the request's id */
	uint8_t want_ts, one_step;
	uint8_t hdr[ETH_HLEN];		/* L2: the Ethernet header */
	struct sockaddr_storage ss;	/* UDP: the destination */
	union {
		struct cmsghdr align;
		uint8_t b[64];
	} control;
	uint8_t buf[TRANSPORT_TXQ_PAYLOAD];	/* a queued payload's copy */
};

/*
 * transport_txq.c: sends n framed entries of one socket with sendmmsg();
 * a failed one gives its TX request back (tstamp_tx_cancel()) and, with
 * report, is reported through port->tx_failed.  The error of the last
 * that failed, or 0.
 */
int	txq_send(struct transport_port *, enum transport_class,
	    struct transport_txent *, unsigned n, int report);
/* The queue's next entry (full: flushed first); NULL without memory. */
struct transport_txent *txq_slot(struct transport_port *,
	    enum transport_class);
void	txq_free(struct transport_port *);

struct transport_ops {
	/* Opens, filters, binds and joins the socket of one class. */
	int	(*open)(struct transport_port *, enum transport_class);
	/* Bytes in front of the payload that recvmsg() returns. */
	size_t	rx_hdr_len;
	/*
	 * The source address of a received datagram, from the header bytes
	 * or msg_name; 0, or -1 when it cannot be trusted.
	 */
	int	(*rx_src)(const uint8_t *hdr, const struct sockaddr_storage *,
		    socklen_t, struct transport_addr *);
	/*
	 * Frames e->iov[TXE_PAYLOAD] (set by the caller) for dest: the
	 * link-layer header or the socket address, and e->msg's iovec and
	 * name.  No system call; an address it cannot reach is an error.
	 */
	int	(*frame)(struct transport_port *, enum transport_class,
		    const struct transport_dest *, struct transport_txent *);
};

extern const struct transport_ops l2_ops;
extern const struct transport_ops udp_ops;

/* l2.c: Annex E multicast MACs. */
extern const uint8_t l2_primary_mac[6];
extern const uint8_t l2_pdelay_mac[6];

#endif /* PTPSEP_NETD_TRANSPORT_INT_H */
