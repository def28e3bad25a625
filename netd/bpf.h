/*
 * bpf.h - classic BPF filters for ptp-netd's sockets.
 *
 * Each socket of a port carries a filter that accepts only PTPv2 messages of
 * its class, so other traffic is dropped in the kernel before it is queued.
 */
#ifndef PTPSEP_NETD_BPF_H
#define PTPSEP_NETD_BPF_H

#include <stddef.h>
#include <linux/filter.h>

#include "transport.h"

#define BPF_PROG_MAX	16

/*
 * Offset of the PTP payload in the data a socket filter sees: an AF_PACKET
 * SOCK_RAW socket sees the frame from the Ethernet header (the kernel has
 * already pulled any 802.1Q tag out into skb metadata); a UDP socket sees
 * the datagram from the UDP header (the IP header is already pulled when
 * udp_queue_rcv_skb() runs the filter; netd_transport_test checks this).
 */
#define BPF_L2_PAYLOAD_OFF	14
#define BPF_UDP_PAYLOAD_OFF	8

/*
 * Builds into prog (room for cap instructions) a filter accepting a PTPv2
 * message of class cls at offset off, at least PTP_MIN_MSG_LEN bytes long.
 * With check_pkttype it also drops frames the kernel marked OTHERHOST,
 * OUTGOING or LOOPBACK (SKF_AD_PKTTYPE > PACKET_MULTICAST).  Returns the
 * number of instructions or -EINVAL.
 */
int	bpf_build_ptp(struct sock_filter *prog, size_t cap, unsigned int off,
	    enum transport_class cls, int check_pkttype);
int	bpf_build_for(struct sock_filter *prog, size_t cap,
	    enum transport_kind kind, enum transport_class cls);

/*
 * Attaches and locks the filter for (kind, cls) on fd, before the socket is
 * bound, so it never holds an unfiltered frame.  0 or -errno.
 */
int	bpf_attach(int fd, enum transport_kind kind, enum transport_class cls);

#endif /* PTPSEP_NETD_BPF_H */
