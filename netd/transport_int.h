/*
 * transport_int.h - what the transport modules share: one ops struct per
 * mapping (l2.c for Annex E, udp.c for Annexes C and D) behind transport.c.
 */
#ifndef PTPSEP_NETD_TRANSPORT_INT_H
#define PTPSEP_NETD_TRANSPORT_INT_H

#include <sys/socket.h>

#include "transport.h"

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
	/* Sends payload to dest with the given control messages. */
	int	(*send)(struct transport_port *, enum transport_class,
		    const struct transport_dest *, const uint8_t *, size_t,
		    void *control, size_t controllen);
};

extern const struct transport_ops l2_ops;
extern const struct transport_ops udp_ops;

/* l2.c: Annex E multicast MACs. */
extern const uint8_t l2_primary_mac[6];
extern const uint8_t l2_pdelay_mac[6];

#endif /* PTPSEP_NETD_TRANSPORT_INT_H */
