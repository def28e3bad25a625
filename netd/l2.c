/*
 * l2.c - PTP over IEEE 802.3 (IEEE 1588-2019 Annex E): AF_PACKET sockets
 * bound to ethertype 0x88F7.
 *
 * The socket is created with protocol 0, which hooks it to no packet type
 * at all, so it receives nothing until bind() names ETH_P_1588; the filter
 * is attached and locked before that.  It is never opened for all
 * ethertypes: that would make it a tap that sees (and runs its filter on)
 * every frame of every flow.  SOCK_RAW because netd builds the Ethernet
 * header itself and reads the source MAC from the received one.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "bpf.h"
#include "log.h"
#include "transport_int.h"
#include "tstamp.h"

#ifndef ETH_P_1588
#define ETH_P_1588	0x88F7
#endif

const uint8_t l2_primary_mac[6] = { 0x01, 0x1B, 0x19, 0x00, 0x00, 0x00 };
/* Peer delay: not forwarded by 802.1D bridges (Annex E.3). */
const uint8_t l2_pdelay_mac[6] = { 0x01, 0x80, 0xC2, 0x00, 0x00, 0x0E };

static int
l2_join(int fd, int ifindex, const uint8_t mac[6])
{
	struct packet_mreq mr;

	memset(&mr, 0, sizeof(mr));
	mr.mr_ifindex = ifindex;
	mr.mr_type = PACKET_MR_MULTICAST;
	mr.mr_alen = 6;
	memcpy(mr.mr_address, mac, 6);
	if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr,
	    sizeof(mr)) == -1)
		return -errno;
	return 0;
}

static int
l2_open(struct transport_port *port, enum transport_class cls)
{
	struct sockaddr_ll sll;
	int fd, err;

	/* Protocol 0: bound to nothing yet, so no frame is queued unfiltered. */
	if ((fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0)) == -1) {
		err = -errno;
		log_warn("%s: socket(AF_PACKET)", port->ifname);
		return err;
	}
	if ((err = bpf_attach(fd, TR_L2, cls)) < 0)
		goto fail;
	if ((err = tstamp_enable(fd, port->ts_mode)) < 0)
		goto fail;
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_1588);
	sll.sll_ifindex = port->ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) == -1) {
		err = -errno;
		log_warn("%s: bind(AF_PACKET, 0x88F7)", port->ifname);
		goto fail;
	}
	if ((err = l2_join(fd, port->ifindex, port->primary_mac)) < 0 ||
	    (err = l2_join(fd, port->ifindex, port->pdelay_mac)) < 0) {
		errno = -err;
		log_warn("%s: PACKET_ADD_MEMBERSHIP", port->ifname);
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return err;
}

static int
l2_rx_src(const uint8_t *hdr, const struct sockaddr_storage *ss,
    socklen_t sslen, struct transport_addr *src)
{
	/* Ethernet source; a multicast source is invalid (802.3 3.2.3). */
	if (hdr[6] & 0x01)
		return -1;
	src->len = 6;
	memcpy(src->b, hdr + 6, 6);
	return 0;
}

static int
l2_frame(struct transport_port *port, enum transport_class cls,
    const struct transport_dest *dest, struct transport_txent *e)
{
	int err;

	(void)cls;
	if ((err = transport_dest_mac(dest, e->hdr)) < 0)
		return err;
	/* The groups this port was configured with (ptp_dst_mac, ...). */
	if (dest->kind == TD_PRIMARY)
		memcpy(e->hdr, port->primary_mac, 6);
	else if (dest->kind == TD_PDELAY)
		memcpy(e->hdr, port->pdelay_mac, 6);
	memcpy(e->hdr + 6, port->mac, 6);
	e->hdr[12] = ETH_P_1588 >> 8;
	e->hdr[13] = ETH_P_1588 & 0xff;

	e->iov[TXE_HDR].iov_base = e->hdr;
	e->iov[TXE_HDR].iov_len = sizeof(e->hdr);
	/* No address: the socket is bound to the port's interface and
	 * ETH_P_1588 (above), and the kernel then sends on the device it
	 * keeps from the bind instead of looking the index up per frame;
	 * the destination is the header's. */
	e->msg.msg_iov = e->iov;
	e->msg.msg_iovlen = 2;
	e->expect = sizeof(e->hdr) + e->iov[TXE_PAYLOAD].iov_len;
	return 0;
}

const struct transport_ops l2_ops = {
	.open = l2_open,
	.rx_hdr_len = ETH_HLEN,
	.rx_src = l2_rx_src,
	.frame = l2_frame,
};
