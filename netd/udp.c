/*
 * udp.c - PTP over UDP/IPv4 (IEEE 1588-2019 Annex C) and UDP/IPv6
 * (Annex D): ports 319 (event) and 320 (general), bound to one device.
 *
 * A UDP socket queues nothing before bind(), so the filter and every
 * option are in place before it is bound.  Datagrams are never
 * fragmented (IP_PMTUDISC_DO, IPV6_DONTFRAG): a payload that does not fit
 * the interface MTU is refused by the kernel, and transport_send()
 * refuses anything above transport_max_payload() first.  The filter sees the datagram
 * from its UDP header (bpf.h).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "bpf.h"
#include "log.h"
#include "transport_int.h"
#include "tstamp.h"

#ifndef IP_MULTICAST_ALL
#define IP_MULTICAST_ALL	49
#endif
#ifndef IPV6_MULTICAST_ALL
#define IPV6_MULTICAST_ALL	29
#endif

/* Annex C.3: primary and peer-delay groups. */
#define UDP4_PRIMARY	"224.0.1.129"
#define UDP4_PDELAY	"224.0.0.107"
/* Annex D.3: FF0X::181 with X the scope (E: global), and FF02::6B. */
#define UDP6_PRIMARY	"ff0e::181"
#define UDP6_PDELAY	"ff02::6b"

static int
setint(int fd, int level, int opt, int val, const char *ifname,
    const char *name)
{
	if (setsockopt(fd, level, opt, &val, sizeof(val)) == -1) {
		int err = -errno;
		log_warn("%s: setsockopt %s", ifname, name);
		return err;
	}
	return 0;
}

static int
udp4_options(struct transport_port *port, int fd, enum transport_class cls)
{
	struct ip_mreqn mr;
	const char *groups[] = { UDP4_PRIMARY, UDP4_PDELAY };
	size_t i;
	int err;

	memset(&mr, 0, sizeof(mr));
	mr.imr_ifindex = port->ifindex;
	if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &mr,
	    sizeof(mr)) == -1) {
		err = -errno;
		log_warn("%s: IP_MULTICAST_IF", port->ifname);
		return err;
	}
	if ((err = setint(fd, IPPROTO_IP, IP_MULTICAST_LOOP, 0, port->ifname,
	    "IP_MULTICAST_LOOP")) < 0 ||
	    (err = setint(fd, IPPROTO_IP, IP_MULTICAST_TTL, port->ttl,
	    port->ifname, "IP_MULTICAST_TTL")) < 0 ||
	    (err = setint(fd, IPPROTO_IP, IP_TTL, port->ttl, port->ifname,
	    "IP_TTL")) < 0 ||
	    (err = setint(fd, IPPROTO_IP, IP_TOS, port->dscp[cls] << 2,
	    port->ifname, "IP_TOS")) < 0 ||
	    /* Only the groups this socket joined, not every socket's. */
	    (err = setint(fd, IPPROTO_IP, IP_MULTICAST_ALL, 0, port->ifname,
	    "IP_MULTICAST_ALL")) < 0 ||
	    /* A datagram too big for the path fails (EMSGSIZE) instead of
	     * leaving in fragments: netd promises whole PTP messages. */
	    (err = setint(fd, IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DO,
	    port->ifname, "IP_MTU_DISCOVER")) < 0)
		return err;
	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		memset(&mr, 0, sizeof(mr));
		inet_pton(AF_INET, groups[i], &mr.imr_multiaddr);
		mr.imr_ifindex = port->ifindex;
		if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr,
		    sizeof(mr)) == -1) {
			err = -errno;
			log_warn("%s: IP_ADD_MEMBERSHIP %s", port->ifname,
			    groups[i]);
			return err;
		}
	}
	return 0;
}

static int
udp6_options(struct transport_port *port, int fd, enum transport_class cls)
{
	struct ipv6_mreq mr;
	const char *groups[] = { UDP6_PRIMARY, UDP6_PDELAY };
	size_t i;
	int err;

	if ((err = setint(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, port->ifindex,
	    port->ifname, "IPV6_MULTICAST_IF")) < 0 ||
	    (err = setint(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, 0,
	    port->ifname, "IPV6_MULTICAST_LOOP")) < 0 ||
	    (err = setint(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, port->ttl,
	    port->ifname, "IPV6_MULTICAST_HOPS")) < 0 ||
	    (err = setint(fd, IPPROTO_IPV6, IPV6_UNICAST_HOPS, port->ttl,
	    port->ifname, "IPV6_UNICAST_HOPS")) < 0 ||
	    (err = setint(fd, IPPROTO_IPV6, IPV6_TCLASS, port->dscp[cls] << 2,
	    port->ifname, "IPV6_TCLASS")) < 0 ||
	    (err = setint(fd, IPPROTO_IPV6, IPV6_MULTICAST_ALL, 0,
	    port->ifname, "IPV6_MULTICAST_ALL")) < 0 ||
	    /* As for IPv4: never fragment (RFC 3542 11.2). */
	    (err = setint(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER,
	    IPV6_PMTUDISC_DO, port->ifname, "IPV6_MTU_DISCOVER")) < 0 ||
	    (err = setint(fd, IPPROTO_IPV6, IPV6_DONTFRAG, 1, port->ifname,
	    "IPV6_DONTFRAG")) < 0)
		return err;
	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		memset(&mr, 0, sizeof(mr));
		inet_pton(AF_INET6, groups[i], &mr.ipv6mr_multiaddr);
		if (i == 0)	/* FF0X::181, X from udp6_scope */
			memcpy(&mr.ipv6mr_multiaddr, port->udp6_primary, 16);
		mr.ipv6mr_interface = (unsigned int)port->ifindex;
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &mr,
		    sizeof(mr)) == -1) {
			err = -errno;
			log_warn("%s: IPV6_JOIN_GROUP %s", port->ifname,
			    groups[i]);
			return err;
		}
	}
	return 0;
}

static uint16_t
udp_port(enum transport_class cls)
{
	return cls == TC_EVENT ? PTP_EVENT_PORT : PTP_GENERAL_PORT;
}

static int
udp_open(struct transport_port *port, enum transport_class cls)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	socklen_t sslen;
	int fd, err, af = port->kind == TR_UDP6 ? AF_INET6 : AF_INET;

	if ((fd = socket(af, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    IPPROTO_UDP)) == -1) {
		err = -errno;
		log_warn("%s: socket(UDP)", port->ifname);
		return err;
	}
	if ((err = bpf_attach(fd, port->kind, cls)) < 0 ||
	    (err = tstamp_enable(fd, port->ts_mode)) < 0)
		goto fail;
	/* Several ports (one per interface) bind the same UDP port. */
	if ((err = setint(fd, SOL_SOCKET, SO_REUSEADDR, 1, port->ifname,
	    "SO_REUSEADDR")) < 0)
		goto fail;
	if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, port->ifname,
	    (socklen_t)strlen(port->ifname)) == -1) {
		err = -errno;
		log_warn("%s: SO_BINDTODEVICE", port->ifname);
		goto fail;
	}
	memset(&ss, 0, sizeof(ss));
	if (af == AF_INET) {
		if ((err = udp4_options(port, fd, cls)) < 0)
			goto fail;
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_ANY);
		sin->sin_port = htons(udp_port(cls));
		sslen = sizeof(*sin);
	} else {
		if ((err = setint(fd, IPPROTO_IPV6, IPV6_V6ONLY, 1,
		    port->ifname, "IPV6_V6ONLY")) < 0 ||
		    (err = udp6_options(port, fd, cls)) < 0)
			goto fail;
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = in6addr_any;
		sin6->sin6_port = htons(udp_port(cls));
		sslen = sizeof(*sin6);
	}
	/* Bound to the wildcard so that the multicast groups arrive too. */
	if (bind(fd, (struct sockaddr *)&ss, sslen) == -1) {
		err = -errno;
		log_warn("%s: bind(UDP %u)", port->ifname, udp_port(cls));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return err;
}

static int
udp_rx_src(const uint8_t *hdr, const struct sockaddr_storage *ss,
    socklen_t sslen, struct transport_addr *src)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET && sslen >= sizeof(*sin)) {
		src->len = 4;
		memcpy(src->b, &sin->sin_addr, 4);
		return 0;
	}
	if (ss->ss_family == AF_INET6 && sslen >= sizeof(*sin6)) {
		src->len = 16;
		memcpy(src->b, &sin6->sin6_addr, 16);
		return 0;
	}
	return -1;
}

static int
udp_dest(const struct transport_port *port, enum transport_class cls,
    const struct transport_dest *dest, struct sockaddr_storage *ss,
    socklen_t *sslen)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (port->kind == TR_UDP4) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(udp_port(cls));
		*sslen = sizeof(*sin);
		switch (dest->kind) {
		case TD_PRIMARY:
			inet_pton(AF_INET, UDP4_PRIMARY, &sin->sin_addr);
			return 0;
		case TD_PDELAY:
			inet_pton(AF_INET, UDP4_PDELAY, &sin->sin_addr);
			return 0;
		case TD_UNICAST:
			if (dest->addr.len != 4)
				return -EINVAL;
			memcpy(&sin->sin_addr, dest->addr.b, 4);
			return 0;
		}
		return -EINVAL;
	}
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(udp_port(cls));
	/* Link-scope groups and link-local peers need the interface. */
	sin6->sin6_scope_id = (uint32_t)port->ifindex;
	*sslen = sizeof(*sin6);
	switch (dest->kind) {
	case TD_PRIMARY:
		memcpy(&sin6->sin6_addr, port->udp6_primary, 16);
		return 0;
	case TD_PDELAY:
		inet_pton(AF_INET6, UDP6_PDELAY, &sin6->sin6_addr);
		return 0;
	case TD_UNICAST:
		if (dest->addr.len != 16)
			return -EINVAL;
		memcpy(&sin6->sin6_addr, dest->addr.b, 16);
		return 0;
	}
	return -EINVAL;
}

static int
udp_frame(struct transport_port *port, enum transport_class cls,
    const struct transport_dest *dest, struct transport_txent *e)
{
	socklen_t sslen;
	int err;

	if ((err = udp_dest(port, cls, dest, &e->ss, &sslen)) < 0)
		return err;
	e->msg.msg_name = &e->ss;
	e->msg.msg_namelen = sslen;
	e->msg.msg_iov = &e->iov[TXE_PAYLOAD];
	e->msg.msg_iovlen = 1;
	e->expect = e->iov[TXE_PAYLOAD].iov_len;
	return 0;
}

const struct transport_ops udp_ops = {
	.open = udp_open,
	.rx_hdr_len = 0,
	.rx_src = udp_rx_src,
	.frame = udp_frame,
};
