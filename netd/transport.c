/*
 * transport.c - one PTP port's sockets: open, receive, send, TX timestamps.
 *
 * The mapping-specific parts (socket set-up, headers, addresses) sit behind
 * struct transport_ops in l2.c and udp.c; this file does what is common:
 * the userspace re-check of what the BPF filter let through, timestamps,
 * the unicast-peer rule and the TX timestamp bookkeeping.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_packet.h>
#include <linux/sock_diag.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "log.h"
#include "ptp_msg.h"
#include "transport_int.h"
#include "tstamp.h"

#ifndef SO_MEMINFO
#define SO_MEMINFO	55
#endif
#ifndef SCM_TSTAMP_SND
#define SCM_TSTAMP_SND	0
#endif

/* Room for SCM_TIMESTAMPING (either layout) plus an extended error. */
#define CONTROL_LEN	512

static const struct transport_ops *
ops_of(enum transport_kind kind)
{
	return kind == TR_L2 ? &l2_ops : &udp_ops;
}

const char *
transport_kind_name(enum transport_kind kind)
{
	switch (kind) {
	case TR_L2:
		return "L2";
	case TR_UDP4:
		return "UDPv4";
	case TR_UDP6:
		return "UDPv6";
	}
	return "?";
}

int
transport_groups(const struct transport_params *pa, uint8_t primary_mac[6],
    uint8_t pdelay_mac[6], uint8_t udp6_primary[16])
{
	/* FF0E::181; ptp4l sets the scope byte whole (flags nibble 0). */
	static const uint8_t udp6_default[16] = { 0xff, 0x0e,
	    [14] = 0x01, [15] = 0x81 };

	if (pa->dst_set && (!(pa->primary_mac[0] & 0x01) ||
	    !(pa->pdelay_mac[0] & 0x01) || pa->udp6_scope < 0 ||
	    pa->udp6_scope > 0x0f))
		return -EINVAL;
	memcpy(primary_mac, pa->dst_set ? pa->primary_mac : l2_primary_mac, 6);
	memcpy(pdelay_mac, pa->dst_set ? pa->pdelay_mac : l2_pdelay_mac, 6);
	memcpy(udp6_primary, udp6_default, 16);
	if (pa->dst_set)
		udp6_primary[1] = (uint8_t)pa->udp6_scope;
	return 0;
}

int
transport_dest_mac(const struct transport_dest *dest, uint8_t mac[6])
{
	switch (dest->kind) {
	case TD_PRIMARY:
		memcpy(mac, l2_primary_mac, 6);
		return 0;
	case TD_PDELAY:
		memcpy(mac, l2_pdelay_mac, 6);
		return 0;
	case TD_UNICAST:
		/* A unicast MAC: 6 bytes, group bit clear, not all zero. */
		if (dest->addr.len != 6 || (dest->addr.b[0] & 0x01) ||
		    memcmp(dest->addr.b, "\0\0\0\0\0\0", 6) == 0)
			return -EINVAL;
		memcpy(mac, dest->addr.b, 6);
		return 0;
	}
	return -EINVAL;
}

static int
class_of(uint8_t type)
{
	type &= 0x0f;
	if (type <= 0x3)
		return TC_EVENT;
	if (type >= 0x8 && type <= 0xD)
		return TC_GENERAL;
	return -1;
}

int
transport_one_step_msg(enum transport_step step, const uint8_t *p, size_t len)
{
	if (len < PTP_HDR_LEN || step == TSTEP_TWO)
		return 0;
	switch (p[0] & 0x0f) {
	case 0x0:	/* Sync */
		return 1;
	case 0x3:	/* Pdelay_Resp */
		return step == TSTEP_ONE_P2P;
	default:
		return 0;
	}
}

size_t
transport_min_len(unsigned type)
{
	size_t n = ptp_msg_min_len(type & 0x0f);

	/* 15.4.1, 15.5.2: a Management message carries a management TLV,
	 * whose tlvType, lengthField and managementId are 6 octets even
	 * when it has no dataField (a GET). */
	if (n != 0 && (type & 0x0f) == PTP_MT_MANAGEMENT)
		n += PTP_MGMT_TLV_MIN_LEN;
	return n;
}

size_t
transport_max_payload(enum transport_kind kind)
{
	/* The largest payload that leaves an Ethernet MTU of 1500 without
	 * fragments: IPv4 header 20 + UDP 8, IPv6 40 + 8 (Annex C, D).
	 * A smaller interface MTU is the kernel's to refuse (udp.c sets
	 * IP_PMTUDISC_DO / IPV6_DONTFRAG). */
	switch (kind) {
	case TR_L2:
		return PTP_MAX_MSG_LEN;
	case TR_UDP4:
		return PTP_MAX_MSG_LEN - 20 - 8;
	case TR_UDP6:
		return PTP_MAX_MSG_LEN - 40 - 8;
	}
	return 0;
}

enum transport_rx_verdict
transport_check_rx(enum transport_class cls, const uint8_t *p, size_t len)
{
	size_t msglen, min;

	if (len < PTP_MIN_MSG_LEN)
		return TRV_TOO_SHORT;
	if ((p[1] & 0x0f) != 2)
		return TRV_BAD_VERSION;
	if (class_of(p[0]) != (int)cls)
		return TRV_WRONG_CLASS;
	/* Each messageType has its own minimum (13.5-13.12, 15.4.1): a
	 * 44-octet Announce is as malformed as a 20-octet Sync. */
	min = transport_min_len(p[0]);
	if (len < min)
		return TRV_TOO_SHORT;
	/* Frames may carry Ethernet padding after the message, never less. */
	msglen = (size_t)p[2] << 8 | p[3];
	if (msglen < min || msglen > len)
		return TRV_BAD_LENGTH;
	return TRV_OK;
}

int
transport_check_payload(enum transport_class cls, const uint8_t *p, size_t len)
{
	if (p == NULL || len > PTP_MAX_MSG_LEN ||
	    transport_check_rx(cls, p, len) != TRV_OK ||
	    ((size_t)p[2] << 8 | p[3]) != len)
		return -EINVAL;
	return 0;
}

/* Interface index and MAC, and hardware timestamping when asked for. */
static int
port_iface(struct transport_port *port)
{
	struct ifreq ifr;
	int fd, err = 0;

	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1 &&
	    (fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		err = -errno;
		log_warn("%s: socket", port->ifname);
		return err;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", port->ifname);
	if (ioctl(fd, SIOCGIFINDEX, &ifr) == -1) {
		err = -errno;
		log_warn("%s: SIOCGIFINDEX", port->ifname);
		goto done;
	}
	port->ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) == -1) {
		err = -errno;
		log_warn("%s: SIOCGIFHWADDR", port->ifname);
		goto done;
	}
	memcpy(port->mac, ifr.ifr_hwaddr.sa_data, 6);
	if (port->kind == TR_L2 && ifr.ifr_hwaddr.sa_family != 1 /* ARPHRD_ETHER */) {
		log_warnx("%s: not an Ethernet interface", port->ifname);
		err = -EINVAL;
		goto done;
	}
	if (port->ts_mode == TS_HARDWARE)
		err = tstamp_hw_enable(fd, port->ifname, port->kind,
		    port->step);
done:
	close(fd);
	return err;
}

/*
 * A fresh peer table, as before every (re)open: what was learned on the
 * link that went away is learned again; configured peers are pinned by
 * the caller after each open.
 */
static int
transport_open_peers(struct transport_port *port,
    const struct transport_params *pa)
{
	struct transport_peer_params pp = pa->peers;
	int err;

	if (pp.max == 0) {
		pp.max = TRANSPORT_PEERS_DEFAULT;
		pp.timeout_s = TRANSPORT_PEER_DEF_TIMEOUT_S;
		pp.tx_rate = TRANSPORT_PEER_DEF_TX_RATE;
		pp.tx_burst = TRANSPORT_PEER_DEF_TX_BURST;
	}
	if ((err = transport_peers_init(&port->peers, &pp, NULL)) < 0) {
		log_warnx("%s: cannot map a table of %u unicast peers (%zu "
		    "octets)", port->ifname, pp.max,
		    transport_peers_bytes(&pp));
		return err;
	}
	port->tx_rate = pa->tx_rate;
	port->tx_burst = pa->tx_burst;
	/* Start full, as if the port had been idle. */
	port->tx_tb.t_ms = (uint32_t)transport_now_ms();
	port->tx_tb.tokens = pa->tx_burst > UINT32_MAX / 1000 ? UINT32_MAX :
	    (pa->tx_burst ? pa->tx_burst : 1) * 1000;
	return 0;
}

/*
 * The socket's receive buffer.  The kernel charges both the frames queued
 * for netd and the TX time stamps on the error queue (each a clone of the
 * frame sent) to it, and drops a time stamp that finds it full
 * (sock_queue_err_skb()): a grandmaster serving 10,000 unicast clients
 * receives 10,000 Delay_Reqs and queues 10,000 Sync time stamps a second
 * on its event socket, in bursts, and with the default 208 KiB lost most
 * of the stamps (issue 15, tests/bench/scale.sh).  SO_RCVBUFFORCE while
 * netd is root (at start); after a reopen without CAP_NET_ADMIN, what
 * net.core.rmem_max allows.  Memory is taken only as frames queue.
 */
static void
transport_rcvbuf(struct transport_port *port, int fd)
{
	int v = TRANSPORT_RCVBUF;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)) == 0)
		return;
	v = TRANSPORT_RCVBUF;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) == -1)
		log_rl(LOG_LVL_WARN, "%s: SO_RCVBUF: %s", port->ifname,
		    strerror(errno));
}

int
transport_open(struct transport_port *port, const struct transport_params *pa)
{
	const struct transport_ops *ops;
	int c, fd, err;

	memset(port, 0, sizeof(*port));
	port->fd[TC_EVENT] = port->fd[TC_GENERAL] = -1;
	if (pa->ifname == NULL || pa->ifname[0] == '\0' ||
	    strlen(pa->ifname) >= sizeof(port->ifname) ||
	    (pa->kind != TR_L2 && pa->kind != TR_UDP4 && pa->kind != TR_UDP6) ||
	    (pa->ts_mode != TS_SOFTWARE && pa->ts_mode != TS_HARDWARE) ||
	    (pa->step != TSTEP_TWO && pa->step != TSTEP_ONE_SYNC &&
	    pa->step != TSTEP_ONE_P2P) ||
	    (pa->ts_mode == TS_SOFTWARE && pa->step != TSTEP_TWO) ||
	    pa->ttl < 0 || pa->ttl > 255 ||
	    pa->dscp_event < 0 || pa->dscp_event > 63 ||
	    pa->dscp_general < 0 || pa->dscp_general > 63 ||
	    pa->tx_ts_timeout_ms < 0 ||
	    transport_groups(pa, port->primary_mac, port->pdelay_mac,
	    port->udp6_primary) != 0) {
		log_warnx("transport_open: bad parameters");
		return -EINVAL;
	}
	snprintf(port->ifname, sizeof(port->ifname), "%s", pa->ifname);
	port->kind = pa->kind;
	port->ts_mode = pa->ts_mode;
	port->step = pa->step;
	port->ttl = pa->ttl ? pa->ttl : 1;
	port->dscp[TC_EVENT] = pa->dscp_event;
	port->dscp[TC_GENERAL] = pa->dscp_general;
	port->tx_ts_timeout_ms = pa->tx_ts_timeout_ms ? pa->tx_ts_timeout_ms :
	    TRANSPORT_TX_TS_TIMEOUT_MS;
	if ((err = port_iface(port)) < 0)
		return err;
	if ((err = transport_open_peers(port, pa)) < 0)
		return err;
	ops = ops_of(port->kind);
	for (c = 0; c < TC_NUM; c++) {
		if ((fd = ops->open(port, (enum transport_class)c)) < 0) {
			transport_close(port);
			return fd;
		}
		port->fd[c] = fd;
		transport_rcvbuf(port, fd);
	}
	log_debug("%s: %s port open (%s timestamps%s)", port->ifname,
	    transport_kind_name(port->kind),
	    port->ts_mode == TS_HARDWARE ? "hardware" : "software",
	    port->step == TSTEP_ONE_P2P ? ", one-step Sync and Pdelay_Resp" :
	    port->step == TSTEP_ONE_SYNC ? ", one-step Sync" : "");
	return 0;
}

void
transport_close(struct transport_port *port)
{
	int c;

	for (c = 0; c < TC_NUM; c++) {
		if (port->fd[c] != -1)
			close(port->fd[c]);
		port->fd[c] = -1;
	}
	txq_free(port);
	tstamp_tx_free(port);
	transport_peers_free(&port->peers);
}

int
transport_fd(const struct transport_port *port, enum transport_class cls)
{
	if (cls != TC_EVENT && cls != TC_GENERAL)
		return -1;
	return port->fd[cls];
}

/* A received frame's slots: one per frame of a recvmmsg(). */
struct rx_slot {
	uint8_t hdr[16];
	union {
		struct cmsghdr align;
		uint8_t b[CONTROL_LEN];
	} control;
	struct sockaddr_storage from;
	struct iovec iov[2];
};

static void
rx_prepare(const struct transport_ops *ops, struct rx_slot *sl,
    struct transport_rx *rx, struct msghdr *msg)
{
	rx->len = 0;
	rx->have_ts = rx->hw = 0;
	memset(&rx->ts, 0, sizeof(rx->ts));
	memset(&rx->src, 0, sizeof(rx->src));
	sl->iov[0].iov_base = sl->hdr;
	sl->iov[0].iov_len = ops->rx_hdr_len;
	sl->iov[1].iov_base = rx->buf;
	sl->iov[1].iov_len = rx->cap;
	memset(msg, 0, sizeof(*msg));
	memset(&sl->from, 0, sizeof(sl->from));
	msg->msg_name = &sl->from;
	msg->msg_namelen = sizeof(sl->from);
	msg->msg_iov = ops->rx_hdr_len ? sl->iov : sl->iov + 1;
	msg->msg_iovlen = ops->rx_hdr_len ? 2 : 1;
	msg->msg_control = sl->control.b;
	msg->msg_controllen = sizeof(sl->control.b);
}

/*
 * Checks a datagram of n octets the kernel gave and fills rx: the payload
 * length (> 0), or 0 when it was dropped (counted).
 */
static int
rx_finish(struct transport_port *port, enum transport_class cls,
    struct rx_slot *sl, struct msghdr *msg, size_t n,
    struct transport_rx *rx)
{
	const struct transport_ops *ops = ops_of(port->kind);
	struct tstamp_cmsg tc;
	size_t plen;

	if (msg->msg_flags & MSG_TRUNC) {
		port->cnt.rx_truncated++;
		return 0;
	}
	if (n < ops->rx_hdr_len) {
		port->cnt.rx_too_short++;
		return 0;
	}
	plen = n - ops->rx_hdr_len;
	/* The filter already dropped these; a second check costs nothing. */
	if (port->kind == TR_L2 &&
	    ((struct sockaddr_ll *)&sl->from)->sll_pkttype > PACKET_MULTICAST) {
		port->cnt.rx_bad_pkttype++;
		return 0;
	}
	switch (transport_check_rx(cls, rx->buf, plen)) {
	case TRV_OK:
		break;
	case TRV_TOO_SHORT:
		port->cnt.rx_too_short++;
		return 0;
	case TRV_BAD_VERSION:
		port->cnt.rx_bad_version++;
		return 0;
	case TRV_WRONG_CLASS:
		port->cnt.rx_wrong_class++;
		return 0;
	case TRV_BAD_LENGTH:
		port->cnt.rx_bad_length++;
		return 0;
	}
	if (ops->rx_src(sl->hdr, &sl->from, msg->msg_namelen, &rx->src) < 0) {
		port->cnt.rx_errors++;
		return 0;
	}
	if (tstamp_parse_cmsg(msg, &tc) < 0) {
		port->cnt.rx_errors++;
		return 0;
	}
	if (port->ts_mode == TS_HARDWARE && tc.have_hw) {
		rx->have_ts = rx->hw = 1;
		rx->ts = tc.hw;
	} else if (port->ts_mode == TS_SOFTWARE && tc.have_sw) {
		rx->have_ts = 1;
		rx->ts = tc.sw;
	} else if (cls == TC_EVENT)
		port->cnt.rx_no_ts++;	/* delivered; clockd decides */
	/* Learnt only now: the frame passed the filter and every check. */
	(void)transport_peer_learn(&port->peers, &rx->src,
	    transport_now_ms());
	rx->len = plen;
	port->cnt.rx[cls]++;
	return (int)plen;
}

/* A failed receive: -EAGAIN when nothing is queued, else counted. */
static int
rx_error(struct transport_port *port, int err)
{
	if (err == -EAGAIN || err == -EWOULDBLOCK || err == -EINTR)
		return -EAGAIN;
	port->cnt.rx_errors++;
	errno = -err;
	log_warn("%s: recvmsg", port->ifname);
	return err;
}

int
transport_recv(struct transport_port *port, enum transport_class cls,
    struct transport_rx *rx)
{
	struct rx_slot sl;
	struct msghdr msg;
	ssize_t n;

	if (cls != TC_EVENT && cls != TC_GENERAL)
		return -EINVAL;
	rx_prepare(ops_of(port->kind), &sl, rx, &msg);
	if ((n = recvmsg(port->fd[cls], &msg, MSG_DONTWAIT)) == -1)
		return rx_error(port, -errno);
	return rx_finish(port, cls, &sl, &msg, (size_t)n, rx);
}

int
transport_recv_batch(struct transport_port *port, enum transport_class cls,
    struct transport_rx *rx, int max)
{
	const struct transport_ops *ops = ops_of(port->kind);
	static struct rx_slot sl[TRANSPORT_RX_BATCH];
	struct mmsghdr mm[TRANSPORT_RX_BATCH];
	int i, n;

	if (cls != TC_EVENT && cls != TC_GENERAL)
		return -EINVAL;
	if (max <= 0 || max > TRANSPORT_RX_BATCH)
		max = TRANSPORT_RX_BATCH;
	for (i = 0; i < max; i++) {
		rx_prepare(ops, &sl[i], &rx[i], &mm[i].msg_hdr);
		mm[i].msg_len = 0;
	}
	if ((n = recvmmsg(port->fd[cls], mm, (unsigned)max, MSG_DONTWAIT,
	    NULL)) == -1)
		return rx_error(port, -errno);
	for (i = 0; i < n; i++)
		(void)rx_finish(port, cls, &sl[i], &mm[i].msg_hdr,
		    mm[i].msg_len, &rx[i]);
	return n;
}

/*
 * Whether clockd may have this frame sent: a unicast destination must be
 * a peer the port has heard (or was given) and within that peer's TX
 * limit, and every frame within the port's (tx_rate).  0, -EPERM, or
 * -EDQUOT; counted.
 */
static int
transport_tx_allowed(struct transport_port *port,
    const struct transport_dest *dest, const uint8_t *payload)
{
	uint64_t now_ms = transport_now_ms();
	unsigned type = payload[0] & 0x0f;
	int err;

	/* Signaling and Management answer anyone: they serve nobody. */
	if (dest->kind == TD_UNICAST &&
	    (err = transport_peer_tx(&port->peers, &dest->addr, now_ms,
	    type != PTP_MT_SIGNALING && type != PTP_MT_MANAGEMENT)) < 0) {
		if (err == -EPERM) {
			port->cnt.tx_denied++;
			log_rl(LOG_LVL_WARN, "%s: unicast to a peer the port "
			    "has not heard", port->ifname);
		} else {
			port->cnt.tx_limited++;
			log_rl(LOG_LVL_WARN, "%s: unicast to a peer beyond "
			    "its TX limit (unicast_peer_tx_rate %u)",
			    port->ifname, port->peers.pa.tx_rate);
		}
		return err;
	}
	if (!transport_tb_take(&port->tx_tb, port->tx_rate, port->tx_burst,
	    now_ms)) {
		port->cnt.tx_limited++;
		log_rl(LOG_LVL_WARN, "%s: beyond the port's TX limit "
		    "(port_tx_rate %u)", port->ifname, port->tx_rate);
		return -EDQUOT;
	}
	return 0;
}

int
transport_send(struct transport_port *port, enum transport_class cls,
    const struct transport_dest *dest, const uint8_t *payload, size_t len,
    int want_ts, uint32_t *ts_id)
{
	struct transport_txent local, *e = NULL;
	struct timespec now;
	size_t controllen = 0;
	uint32_t id = 0;
	int err, one_step;

	if (cls != TC_EVENT && cls != TC_GENERAL)
		return -EINVAL;
	if (port->fd[cls] == -1)
		return -EBADF;
	if (transport_check_payload(cls, payload, len) < 0) {
		port->cnt.tx_errors++;
		log_rl(LOG_LVL_WARN, "%s: refusing to send a malformed %s "
		    "payload",
		    port->ifname, cls == TC_EVENT ? "event" : "general");
		return -EINVAL;
	}
	if (len > transport_max_payload(port->kind)) {
		port->cnt.tx_errors++;
		log_rl(LOG_LVL_WARN, "%s: refusing a %zu-octet payload: %s "
		    "carries at most "
		    "%zu unfragmented", port->ifname, len,
		    transport_kind_name(port->kind),
		    transport_max_payload(port->kind));
		return -EMSGSIZE;
	}
	if ((err = transport_tx_allowed(port, dest, payload)) < 0)
		return err;
	/* Queued (transport_txq.c) while deferring, when it fits; else at
	 * once, after what waits on the socket, so that the kernel numbers
	 * the TX requests in the order they were taken. */
	if (port->defer && len <= TRANSPORT_TXQ_PAYLOAD)
		e = txq_slot(port, cls);
	if (e == NULL) {
		transport_flush(port, cls);
		e = &local;
	}
	memset(e, 0, offsetof(struct transport_txent, buf));
	if (e != &local) {
		memcpy(e->buf, payload, len);
		payload = e->buf;
	}
	e->iov[TXE_PAYLOAD].iov_base = (void *)(uintptr_t)payload;
	e->iov[TXE_PAYLOAD].iov_len = len;
	if ((err = ops_of(port->kind)->frame(port, cls, dest, e)) < 0) {
		port->cnt.tx_errors++;
		log_rl(LOG_LVL_WARN, "%s: cannot address a %s message: %s",
		    port->ifname, cls == TC_EVENT ? "event" : "general",
		    strerror(-err));
		return err;
	}
	/*
	 * A one-step message takes the per-message TX_HARDWARE request too:
	 * the driver inserts the time only into a frame marked for hardware
	 * time stamping, and reports none back.  The kernel still numbers
	 * it (OPT_ID), so the socket's key moves on (txq_done()).
	 */
	one_step = !want_ts && cls == TC_EVENT &&
	    transport_one_step_msg(port->step, payload, len);
	if (one_step || want_ts)
		controllen = tstamp_tx_cmsg(e->control.b, sizeof(e->control.b),
		    port->ts_mode);
	e->one_step = one_step && controllen != 0;
	if (controllen) {
		e->msg.msg_control = e->control.b;
		e->msg.msg_controllen = controllen;
	}
	if (want_ts) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		/* Take the slot first: no timestamp is asked for untracked. */
		if ((err = tstamp_tx_add(port, cls, payload, len, &now,
		    &id)) < 0) {
			port->cnt.tx_errors++;
			log_rl(LOG_LVL_WARN, "%s: too many TX timestamps "
			    "outstanding", port->ifname);
			return -ENOBUFS;
		}
		e->want_ts = 1;
		e->ts_id = id;
		*ts_id = id;
	}
	if (e != &local) {
		port->txq[cls].n++;
		return 0;
	}
	return txq_send(port, cls, e, 1, 0);
}

/*
 * One error-queue entry, n octets of its packet in pkt: 1 and *out filled
 * when it answers a request, 0 when it matched nothing (counted).
 */
static int
errq_entry(struct transport_port *port, enum transport_class cls,
    const uint8_t *pkt, size_t n, struct msghdr *msg,
    struct transport_txts *out)
{
	struct tstamp_cmsg tc;
	const uint8_t *payload = NULL;
	size_t plen = 0;
	int off, i;

	if (tstamp_parse_cmsg(msg, &tc) < 0 || !tc.have_err ||
	    tc.tstype != SCM_TSTAMP_SND) {
		port->cnt.tx_ts_unmatched++;
		return 0;
	}
	if (n > 0) {
		if ((off = tstamp_errq_payload_off(port->kind, pkt, n)) < 0) {
			port->cnt.tx_ts_unmatched++;
			return 0;
		}
		payload = pkt + off;
		plen = n - (size_t)off;
	}
	if ((i = tstamp_tx_match(port, cls, tc.key, payload, plen)) < 0) {
		port->cnt.tx_ts_unmatched++;
		log_debug("%s: TX timestamp with key %u matches no request",
		    port->ifname, tc.key);
		return 0;
	}
	memset(out, 0, sizeof(*out));
	out->id = tstamp_tx_done(port, cls, i, tc.key);
	out->cls = cls;
	if (port->ts_mode == TS_HARDWARE ? !tc.have_hw : !tc.have_sw) {
		/* The entry answers the request but carries no usable time. */
		out->status = TXTS_MISSING;
		port->cnt.tx_ts_missing++;
	} else {
		out->status = TXTS_OK;
		out->hw = port->ts_mode == TS_HARDWARE;
		out->ts = out->hw ? tc.hw : tc.sw;
		port->cnt.tx_ts++;
	}
	return 1;
}

/*
 * The packet octets kept of an error-queue entry: its link-layer, IP and
 * UDP headers and the PTP bytes a request keeps (TRANSPORT_TX_MATCH_LEN);
 * the rest is cut (MSG_TRUNC), never compared.
 */
#define ERRQ_PKT_LEN	256

int
transport_read_errqueue_batch(struct transport_port *port,
    enum transport_class cls, struct transport_txts *out, int max,
    int *consumed)
{
	static uint8_t pkt[TRANSPORT_ERRQ_BATCH][ERRQ_PKT_LEN];
	static union {
		struct cmsghdr align;
		uint8_t b[CONTROL_LEN];
	} control[TRANSPORT_ERRQ_BATCH];
	struct mmsghdr mm[TRANSPORT_ERRQ_BATCH];
	struct iovec iov[TRANSPORT_ERRQ_BATCH];
	int i, n, err, nout = 0;

	*consumed = 0;
	if (cls != TC_EVENT && cls != TC_GENERAL)
		return -EINVAL;
	if (max > TRANSPORT_ERRQ_BATCH)
		max = TRANSPORT_ERRQ_BATCH;
	if (max < 1)
		return 0;
	memset(mm, 0, sizeof(mm[0]) * (size_t)max);
	for (i = 0; i < max; i++) {
		iov[i].iov_base = pkt[i];
		iov[i].iov_len = sizeof(pkt[i]);
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
		mm[i].msg_hdr.msg_control = control[i].b;
		mm[i].msg_hdr.msg_controllen = sizeof(control[i].b);
	}
	/* One system call for as many entries as are queued (up to max). */
	if ((n = recvmmsg(port->fd[cls], mm, (unsigned)max,
	    MSG_ERRQUEUE | MSG_DONTWAIT, NULL)) == -1) {
		err = -errno;
		if (err == -EAGAIN || err == -EWOULDBLOCK || err == -EINTR)
			return -EAGAIN;
		log_rl(LOG_LVL_WARN, "%s: recvmmsg(MSG_ERRQUEUE): %s",
		    port->ifname, strerror(-err));
		return err;
	}
	*consumed = n;
	for (i = 0; i < n; i++)
		nout += errq_entry(port, cls, pkt[i], mm[i].msg_len,
		    &mm[i].msg_hdr, &out[nout]);
	return nout;
}

int
transport_read_errqueue(struct transport_port *port, enum transport_class cls,
    struct transport_txts *out)
{
	int consumed;

	return transport_read_errqueue_batch(port, cls, out, 1, &consumed);
}

int
transport_tx_owed(const struct transport_port *port, enum transport_class cls)
{
	if (cls != TC_EVENT && cls != TC_GENERAL)
		return 0;
	return (int)port->txr[cls].owed;
}

int
transport_expire_tx(struct transport_port *port, const struct timespec *now,
    struct transport_txts *out)
{
	return tstamp_tx_expire(port, now, out);
}

int
transport_kernel_drops(const struct transport_port *port,
    enum transport_class cls, uint32_t *drops)
{
	uint32_t mi[SK_MEMINFO_VARS];
	socklen_t len = sizeof(mi);

	if ((cls != TC_EVENT && cls != TC_GENERAL) || port->fd[cls] == -1)
		return -EINVAL;
	memset(mi, 0, sizeof(mi));
	if (getsockopt(port->fd[cls], SOL_SOCKET, SO_MEMINFO, mi, &len) == -1)
		return -errno;
	*drops = mi[SK_MEMINFO_DROPS];
	return 0;
}
