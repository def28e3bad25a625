/*
 * tstamp.c - SO_TIMESTAMPING set-up, SIOCSHWTSTAMP and cmsg parsing.
 *
 * Flags (see the kernel's Documentation/networking/timestamping.rst):
 *  - software: RX_SOFTWARE generates a timestamp for every received frame,
 *    SOFTWARE reports software timestamps in SCM_TIMESTAMPING ts[0].
 *  - hardware: RX_HARDWARE and RAW_HARDWARE, reported in ts[2] (the PHC's
 *    own timescale; netd converts).
 *  - OPT_ID in both: each TX timestamp carries a key (ee_data) counting the
 *    socket's timestamped sends, so it can be matched to its request.
 *  - TX_SOFTWARE/TX_HARDWARE are not set on the socket but asked per
 *    message in a cmsg: only the event messages the caller wants stamped
 *    take a key and an error-queue entry; general messages take none.
 *  - not OPT_TSONLY: the sent packet comes back with its timestamp, and
 *    netd checks that its payload is what the matched request sent, since
 *    a send that fails after the kernel took a key would shift every later
 *    key by one.  The socket is opened as root, so the kernel returns the
 *    packet even with net.core.tstamp_allow_data = 0.
 *  - not OPT_CMSG/OPT_PKTINFO: the sockets are bound to one device, the
 *    IP_PKTINFO they would add tells nothing new.
 *
 * TX timestamps and the event loop.  A software TX timestamp is taken in
 * the driver's xmit (skb_tx_timestamp(), in veth before it hands the frame
 * to the peer), and the kernel queues it on the socket's error queue right
 * there, in the sending context, waking whatever waits on the socket.
 * With the socket in netd's epoll set that wake-up runs the epoll callback
 * between the timestamp and the frame's departure, so t1 (Sync), t3
 * (Pdelay_Resp) came out early: a free-running ptp4l slave over a veth saw
 * our grandmaster's mean offset ~0.7 us (E2E) and ~2.3 us (P2P) above a
 * ptp4l grandmaster's in the same run, the Pdelay_Resp's one-way time
 * ~0.5 us longer (tests/interop/gm_offset.sh).  ptp4l has no waiter on
 * the socket while it sends (it polls for the timestamp afterwards).  So
 * netd takes the socket out of the loop for such a send and puts it back
 * at once.  The timestamp is queued by the time the send returns, so
 * port_send() reads it from the error queue before the socket goes back;
 * one queued later is reported by epoll_ctl(ADD) or by the EPOLLERR that
 * follows, and port_ev_read() reads the error queue only while a
 * timestamp is owed (transport_tx_owed()).
 * Hardware timestamps are taken by the NIC and need none of this.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/errqueue.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>

#include "drv.h"
#include "log.h"
#include "tstamp.h"

#ifndef SO_TIMESTAMPING_OLD
#define SO_TIMESTAMPING_OLD	37
#endif
#ifndef SO_TIMESTAMPING_NEW
#define SO_TIMESTAMPING_NEW	65
#endif
#ifndef PACKET_TX_TIMESTAMP
#define PACKET_TX_TIMESTAMP	16
#endif

/* struct scm_timestamping64 as the kernel writes it for SO_TIMESTAMPING_NEW. */
struct tstamp_ts64 {
	long long tv_sec;
	long long tv_nsec;
};

uint32_t
tstamp_sock_flags(enum transport_ts_mode mode)
{
	if (mode == TS_HARDWARE)
		return SOF_TIMESTAMPING_RX_HARDWARE |
		    SOF_TIMESTAMPING_RAW_HARDWARE | SOF_TIMESTAMPING_OPT_ID;
	return SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE |
	    SOF_TIMESTAMPING_OPT_ID;
}

uint32_t
tstamp_tx_flags(enum transport_ts_mode mode)
{
	return mode == TS_HARDWARE ? SOF_TIMESTAMPING_TX_HARDWARE :
	    SOF_TIMESTAMPING_TX_SOFTWARE;
}

int
tstamp_tx_quiet(enum transport_ts_mode mode, int want_ts)
{
	return mode == TS_SOFTWARE && want_ts;
}

int
tstamp_enable(int fd, enum transport_ts_mode mode)
{
	int flags = (int)tstamp_sock_flags(mode), err;

	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags,
	    sizeof(flags)) == -1) {
		err = -errno;
		log_warn("SO_TIMESTAMPING");
		return err;
	}
	return 0;
}

size_t
tstamp_tx_cmsg(void *buf, size_t cap, enum transport_ts_mode mode)
{
	struct cmsghdr *cm = buf;
	uint32_t flags = tstamp_tx_flags(mode);

	if (cap < CMSG_SPACE(sizeof(flags)))
		return 0;
	memset(buf, 0, CMSG_SPACE(sizeof(flags)));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SO_TIMESTAMPING;
	cm->cmsg_len = CMSG_LEN(sizeof(flags));
	memcpy(CMSG_DATA(cm), &flags, sizeof(flags));
	return CMSG_SPACE(sizeof(flags));
}

int
tstamp_hw_tx_type(enum transport_step step)
{
	switch (step) {
	case TSTEP_ONE_SYNC:
		return HWTSTAMP_TX_ONESTEP_SYNC;
	case TSTEP_ONE_P2P:
		return HWTSTAMP_TX_ONESTEP_P2P;
	default:
		return HWTSTAMP_TX_ON;
	}
}

const char *
tstamp_hw_tx_name(int tx_type)
{
	switch (tx_type) {
	case HWTSTAMP_TX_OFF:		return "HWTSTAMP_TX_OFF";
	case HWTSTAMP_TX_ON:		return "HWTSTAMP_TX_ON";
	case HWTSTAMP_TX_ONESTEP_SYNC:	return "HWTSTAMP_TX_ONESTEP_SYNC";
	case HWTSTAMP_TX_ONESTEP_P2P:	return "HWTSTAMP_TX_ONESTEP_P2P";
	default:			return "an unknown tx_type";
	}
}

void
tstamp_hw_request(struct hwtstamp_config *cfg, enum transport_kind kind,
    enum transport_step step)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->flags = 0;
	/*
	 * One-step: the NIC writes the Sync's originTimestamp (and with P2P
	 * the Pdelay_Resp's correctionField) as the frame leaves, and
	 * reports no TX time stamp for it (the kernel's timestamping.rst).
	 */
	cfg->tx_type = tstamp_hw_tx_type(step);
	/* Ask for the narrowest filter that stamps our events. */
	switch (kind) {
	case TR_L2:
		cfg->rx_filter = HWTSTAMP_FILTER_PTP_V2_L2_EVENT;
		break;
	case TR_UDP4:
	case TR_UDP6:
		cfg->rx_filter = HWTSTAMP_FILTER_PTP_V2_L4_EVENT;
		break;
	}
}

int
tstamp_hw_reply_ok(enum transport_kind kind, int rx_filter)
{
	/*
	 * A driver may widen the filter (many stamp every packet, or every
	 * PTPv2 event whatever the transport); any superset of our events is
	 * fine.  A narrower one (only Sync, only Delay_Req, v1) is not.
	 */
	switch (rx_filter) {
	case HWTSTAMP_FILTER_ALL:
	case HWTSTAMP_FILTER_PTP_V2_EVENT:
		return 1;
	case HWTSTAMP_FILTER_PTP_V2_L2_EVENT:
		return kind == TR_L2;
	case HWTSTAMP_FILTER_PTP_V2_L4_EVENT:
		return kind == TR_UDP4 || kind == TR_UDP6;
	default:
		return 0;
	}
}

int
tstamp_hw_enable(int fd, const char *ifname, enum transport_kind kind,
    enum transport_step step)
{
	struct hwtstamp_config cfg;
	int err, want, tx;

	tstamp_hw_request(&cfg, kind, step);
	want = cfg.rx_filter;
	tx = cfg.tx_type;
	if ((err = drv()->hwts_set(fd, ifname, &cfg)) != 0) {
		errno = -err;
		if (err == -EOPNOTSUPP || err == -EINVAL || err == -ERANGE)
			log_warn("%s: driver refuses hardware timestamping "
			    "(SIOCSHWTSTAMP tx_type %s rx_filter %d)",
			    ifname, tstamp_hw_tx_name(tx), want);
		else
			log_warn("%s: SIOCSHWTSTAMP", ifname);
		return err;
	}
	/*
	 * A driver that answers another tx_type would stamp two-step where
	 * one-step was asked (the Sync would leave with originTimestamp 0
	 * and no Follow_Up), or the reverse.
	 */
	if (cfg.tx_type != tx || !tstamp_hw_reply_ok(kind, cfg.rx_filter)) {
		log_warnx("%s: driver answered tx_type %d rx_filter %d to a "
		    "request for tx_type %d (%s) rx_filter %d: PTP events "
		    "would not be stamped as asked", ifname, cfg.tx_type,
		    cfg.rx_filter, tx, tstamp_hw_tx_name(tx), want);
		return -EOPNOTSUPP;
	}
	if (cfg.rx_filter != want)
		log_info("%s: hardware timestamping with rx_filter %d "
		    "(asked %d)", ifname, cfg.rx_filter, want);
	return 0;
}

static int
ts_nonzero(const struct timespec *ts)
{
	return ts->tv_sec != 0 || ts->tv_nsec != 0;
}

int
tstamp_parse_cmsg(struct msghdr *msg, struct tstamp_cmsg *out)
{
	struct cmsghdr *cm;
	struct sock_extended_err ee;
	struct timespec ts[3];
	struct tstamp_ts64 t64[3];
	int i;

	memset(out, 0, sizeof(*out));
	for (cm = CMSG_FIRSTHDR(msg); cm != NULL; cm = CMSG_NXTHDR(msg, cm)) {
		if (cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SO_TIMESTAMPING_NEW) {
			if (cm->cmsg_len < CMSG_LEN(sizeof(t64)))
				return -EINVAL;
			memcpy(t64, CMSG_DATA(cm), sizeof(t64));
			for (i = 0; i < 3; i++) {
				ts[i].tv_sec = (time_t)t64[i].tv_sec;
				ts[i].tv_nsec = (long)t64[i].tv_nsec;
			}
		} else if (cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SO_TIMESTAMPING_OLD) {
			if (cm->cmsg_len < CMSG_LEN(sizeof(ts)))
				return -EINVAL;
			memcpy(ts, CMSG_DATA(cm), sizeof(ts));
		} else if ((cm->cmsg_level == SOL_IP &&
		    cm->cmsg_type == IP_RECVERR) ||
		    (cm->cmsg_level == SOL_IPV6 &&
		    cm->cmsg_type == IPV6_RECVERR) ||
		    (cm->cmsg_level == SOL_PACKET &&
		    cm->cmsg_type == PACKET_TX_TIMESTAMP)) {
			if (cm->cmsg_len < CMSG_LEN(sizeof(ee)))
				return -EINVAL;
			memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
			/* ICMP errors and the like are not timestamps. */
			if (ee.ee_errno != ENOMSG ||
			    ee.ee_origin != SO_EE_ORIGIN_TIMESTAMPING)
				continue;
			out->have_err = 1;
			out->key = ee.ee_data;
			out->tstype = ee.ee_info;
			continue;
		} else
			continue;
		for (i = 0; i < 3; i++)
			if (ts[i].tv_nsec < 0 || ts[i].tv_nsec >= 1000000000L)
				return -EINVAL;
		if (ts_nonzero(&ts[0])) {
			out->have_sw = 1;
			out->sw = ts[0];
		}
		/* ts[1] is deprecated (always zero); ts[2] is raw hardware. */
		if (ts_nonzero(&ts[2])) {
			out->have_hw = 1;
			out->hw = ts[2];
		}
	}
	return 0;
}

int
tstamp_errq_payload_off(enum transport_kind kind, const uint8_t *p, size_t len)
{
	size_t off = 0, ihl;
	unsigned int type;

	/* The packet comes back from its Ethernet header (an 802.1Q tag
	 * inserted in software shows up here too). */
	if (len < 14)
		return -EINVAL;
	type = (unsigned int)p[12] << 8 | p[13];
	off = 14;
	if (type == 0x8100 || type == 0x88a8) {
		if (len < 18)
			return -EINVAL;
		type = (unsigned int)p[16] << 8 | p[17];
		off = 18;
	}
	switch (kind) {
	case TR_L2:
		if (type != 0x88F7)
			return -EINVAL;
		break;
	case TR_UDP4:
		if (type != 0x0800 || len < off + 20 || p[off] >> 4 != 4 ||
		    p[off + 9] != IPPROTO_UDP)
			return -EINVAL;
		ihl = (size_t)(p[off] & 0x0f) * 4;
		if (ihl < 20)
			return -EINVAL;
		off += ihl + 8;
		break;
	case TR_UDP6:
		/* netd sends no extension headers */
		if (type != 0x86DD || len < off + 40 || p[off] >> 4 != 6 ||
		    p[off + 6] != IPPROTO_UDP)
			return -EINVAL;
		off += 40 + 8;
		break;
	default:
		return -EINVAL;
	}
	if (off > len)
		return -EINVAL;
	return (int)off;
}
