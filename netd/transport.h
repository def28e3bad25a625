/*
 * transport.h - ptp-netd's network transports: the sockets of one PTP port.
 *
 * A port is one interface and one mapping of PTP onto the network
 * (IEEE 1588-2019 Annex C UDP/IPv4, Annex D UDP/IPv6, Annex E IEEE 802.3).
 * Each port owns two sockets, one for event and one for general messages,
 * each with a classic BPF filter so that the kernel hands netd only PTPv2
 * messages of the matching class.  The module only moves bytes and
 * timestamps: it holds no protocol state and no event loop.  The caller
 * polls transport_fd() (POLLIN for frames, POLLERR/POLLPRI for TX
 * timestamps on the error queue) and calls the functions below.
 *
 * Errors are returned as negative errno values and logged with log_warn.
 */
#ifndef PTPSEP_NETD_TRANSPORT_H
#define PTPSEP_NETD_TRANSPORT_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

enum transport_kind {
	TR_L2,			/* IEEE 802.3 / Ethernet, ethertype 0x88F7 */
	TR_UDP4,		/* UDP over IPv4, ports 319/320 */
	TR_UDP6,		/* UDP over IPv6, ports 319/320 */
};

/* Message class: which of the port's two sockets. */
enum transport_class {
	TC_EVENT = 0,		/* messageType 0x0-0x3, timestamped */
	TC_GENERAL = 1,		/* messageType 0x8-0xD */
	TC_NUM
};

enum transport_ts_mode {
	TS_SOFTWARE,		/* kernel software timestamps */
	TS_HARDWARE,		/* NIC timestamps, SIOCSHWTSTAMP */
};

/*
 * How event messages are stamped on a hardware port (cli_step_mode()):
 * two-step (the TX time stamp read back, sent in a Follow_Up), or
 * one-step, the NIC writing the time into the Sync as it leaves
 * (HWTSTAMP_TX_ONESTEP_SYNC), and with ONE_P2P into the Pdelay_Resp too
 * (HWTSTAMP_TX_ONESTEP_P2P).
 */
enum transport_step {
	TSTEP_TWO,
	TSTEP_ONE_SYNC,
	TSTEP_ONE_P2P,
};

enum transport_dest_kind {
	TD_PRIMARY,	/* 01-1B-19-00-00-00, 224.0.1.129, FF0E::181 */
	TD_PDELAY,	/* 01-80-C2-00-00-0E, 224.0.0.107, FF02::6B */
	TD_UNICAST,	/* an address the port learned or was given */
};

#define TRANSPORT_ADDR_MAX	16
/*
 * A peer address: 6 bytes of MAC (TR_L2), 4 of IPv4 or 16 of IPv6 address,
 * always in network byte order.  len tells which.
 */
struct transport_addr {
	uint8_t len;
	uint8_t b[TRANSPORT_ADDR_MAX];
};

struct transport_dest {
	enum transport_dest_kind kind;
	struct transport_addr addr;	/* TD_UNICAST only */
};

/*
 * The unicast peers of a port (transport_peer.c): the only unicast
 * addresses clockd may have netd send to, learned from frames received
 * (after the BPF filter and transport_recv()'s checks) or configured
 * (pinned).  A hash table keyed with random bytes, of a size fixed at
 * start (max_unicast_peers), with a token bucket per peer that bounds
 * what netd sends it (doc/design.md, "netd's unicast peers").
 */
#define TRANSPORT_PEERS_DEFAULT	16384	/* max_unicast_peers */
#define TRANSPORT_PEERS_LIMIT	(1u << 20)

/* A token bucket in milli-messages, refilled by the ms (wrap-safe). */
struct transport_tb {
	uint32_t tokens;
	uint32_t t_ms;		/* CLOCK_MONOTONIC ms of the last refill */
};

/* The list a peer is on; each list is kept in the order it was heard. */
enum transport_peer_list {
	TPL_FREE = 0,
	TPL_PROBATION,		/* heard, never sent to: evicted first */
	TPL_SERVED,		/* heard and sent to: only expires */
	TPL_PINNED,		/* configured: never expires */
	TPL_NUM
};

/* 44 octets on x86-64; a table costs that per peer + 4 per bucket. */
struct transport_peer {
	uint32_t next;		/* hash chain: index + 1, 0 ends it */
	uint32_t prev, succ;	/* its list: index + 1, 0 ends it */
	uint32_t heard_s;	/* CLOCK_MONOTONIC s when last heard */
	struct transport_tb tb;	/* what netd may send it */
	uint8_t list;		/* enum transport_peer_list */
	struct transport_addr addr;
};

struct transport_peer_params {
	unsigned max;		/* peers, 1..TRANSPORT_PEERS_LIMIT */
	unsigned timeout_s;	/* idle (unheard) that long: forgotten */
	unsigned tx_rate;	/* messages/s to one peer; 0: no limit */
	unsigned tx_burst;	/* messages at once to one peer */
};

struct transport_peer_stats {
	uint64_t learned;	/* new peers taken in */
	uint64_t full;		/* new peers not taken in: table full */
	uint64_t evicted;	/* probation peers pushed out by new ones */
	uint64_t expired;	/* forgotten after timeout_s unheard */
	uint64_t tx_limited;	/* sends refused by a peer's bucket */
	uint64_t lookups;	/* hash lookups */
	uint64_t probes;	/* chain entries compared by them */
};

struct transport_peers {
	struct transport_peer *e;	/* max entries (lazily touched) */
	uint32_t *bucket;		/* nbucket chain heads, index + 1 */
	void *map;			/* one anonymous mapping for both */
	size_t map_len;
	uint32_t nbucket;		/* power of two >= max */
	uint32_t count;			/* peers in the table */
	uint32_t hw;			/* entries ever used (high water) */
	uint32_t free;			/* free list through next, index + 1 */
	uint32_t head[TPL_NUM], tail[TPL_NUM];	/* lists, index + 1 */
	uint64_t key[2];		/* SipHash key, from getrandom() */
	struct transport_peer_params pa;
	struct transport_peer_stats st;
};

/* Smallest PTP messages (IEEE 1588-2019 13.3 header + body). */
#define PTP_HDR_LEN		34
#define PTP_MIN_MSG_LEN		44	/* Sync, Delay_Req, Follow_Up, Signaling */
#define PTP_MAX_MSG_LEN		1500
#define PTP_MGMT_TLV_MIN_LEN	6	/* tlvType, lengthField, managementId */
#define PTP_EVENT_PORT		319
#define PTP_GENERAL_PORT	320

struct transport_params {
	const char *ifname;
	enum transport_kind kind;
	enum transport_ts_mode ts_mode;
	enum transport_step step;	/* TS_HARDWARE only */
	int ttl;		/* IPv4 TTL / IPv6 hop limit; 0 means 1 */
	int dscp_event;		/* 0..63 */
	int dscp_general;	/* 0..63 */
	int tx_ts_timeout_ms;	/* 0 means TRANSPORT_TX_TS_TIMEOUT_MS */
	/*
	 * The multicast destinations (ptp_dst_mac, p2p_dst_mac, udp6_scope),
	 * joined and sent to.  dst_set 0: the protocol's defaults,
	 * 01-1B-19-00-00-00, 01-80-C2-00-00-0E and FF0E::181.
	 */
	int dst_set;
	uint8_t primary_mac[6];	/* multicast (group bit set) */
	uint8_t pdelay_mac[6];	/* multicast */
	int udp6_scope;		/* 0x0..0xF: FF0X::181 (Annex D.3) */
	/* The unicast peer table (max 0: the TRANSPORT_PEER_DEF_* values). */
	struct transport_peer_params peers;
	/* Messages/s the port sends, to any destination; 0: no limit. */
	unsigned tx_rate;
	unsigned tx_burst;
};
#define TRANSPORT_PEER_DEF_TIMEOUT_S	3900
#define TRANSPORT_PEER_DEF_TX_RATE	640
#define TRANSPORT_PEER_DEF_TX_BURST	64
#define TRANSPORT_TX_TS_TIMEOUT_MS	100
/* Each socket's receive buffer (frames and TX time stamps): transport.c. */
#define TRANSPORT_RCVBUF		(4 << 20)

/*
 * Counters.  rx_* drops are frames that reached user space although the
 * BPF filter should have rejected them (a second line of defence); the
 * kernel's own filter drops are read with transport_kernel_drops().
 */
struct transport_counters {
	uint64_t rx[TC_NUM];
	uint64_t tx[TC_NUM];
	uint64_t rx_too_short;
	uint64_t rx_bad_version;
	uint64_t rx_wrong_class;
	uint64_t rx_bad_length;		/* messageLength beyond the frame */
	uint64_t rx_truncated;		/* larger than the caller's buffer */
	uint64_t rx_bad_pkttype;	/* OTHERHOST/OUTGOING on L2 */
	uint64_t rx_no_ts;		/* event message without timestamp */
	uint64_t rx_errors;
	uint64_t tx_errors;
	uint64_t tx_denied;		/* unicast to an unknown peer */
	uint64_t tx_limited;		/* a peer's or the port's TX limit */
	uint64_t tx_ts;			/* TX timestamps reported */
	uint64_t tx_ts_missing;		/* TX timestamps that never came */
	uint64_t tx_ts_unmatched;	/* error queue entries nobody asked for */
};

/*
 * The TX timestamps a socket asked for and has not reported
 * (tstamp_tx.c): a ring indexed by the kernel's SOF_TIMESTAMPING_OPT_ID
 * key, which counts the socket's timestamped sends, so adding, matching
 * and expiring are O(1).  A grandmaster serving 10,000 unicast clients
 * asks for 10,000 Sync time stamps a second, in bursts (issue 15): the
 * ring holds a whole such second.  Mapped on first use (calloc, pages
 * untouched until used): 96 octets per entry, 1.5 MiB for the event
 * socket at most; the general socket never asks for one (check.c).
 */
#define TRANSPORT_TX_PENDING_MAX	16384	/* a power of two */
#define TRANSPORT_TX_MATCH_LEN		64
/* Keys either side of the expected one searched for a drifted entry. */
#define TRANSPORT_TX_DRIFT_MAX		64
/* A TX timestamp asked for and not yet reported. */
struct transport_tx_pending {
	uint8_t used;
	uint8_t len;			/* bytes kept in head */
	uint32_t id;			/* handed to the caller */
	uint32_t key;			/* our count of keyed sends */
	struct timespec deadline;	/* CLOCK_MONOTONIC */
	uint8_t head[TRANSPORT_TX_MATCH_LEN];
};

struct transport_tx_ring {
	struct transport_tx_pending *e;	/* TRANSPORT_TX_PENDING_MAX, or NULL */
	uint32_t next;			/* key of the next keyed send */
	uint32_t tail;			/* oldest key that may be owed */
	uint32_t off;			/* kernel key - ours (drift) */
	uint32_t owed;			/* entries in use */
};

/*
 * Sends waiting for one sendmmsg() (transport_txq.c): while the port
 * defers (transport_defer()), as netd does through a batch of clockd's,
 * a send is framed and queued, and leaves at transport_flush(), when the
 * queue is full, or before a send that cannot wait.
 */
#define TRANSPORT_TXQ_MAX	32
#define TRANSPORT_TXQ_PAYLOAD	256	/* larger ones are sent at once */
struct transport_txent;
struct transport_txq {
	unsigned n;
	struct transport_txent *e;	/* TRANSPORT_TXQ_MAX, or NULL */
};

struct transport_port {
	char ifname[IF_NAMESIZE];
	int ifindex;
	uint8_t mac[6];
	enum transport_kind kind;
	enum transport_ts_mode ts_mode;
	enum transport_step step;
	int fd[TC_NUM];			/* -1 when closed */
	struct transport_counters cnt;

	/* private to the transport modules */
	int ttl;
	int dscp[TC_NUM];
	int tx_ts_timeout_ms;
	uint8_t primary_mac[6], pdelay_mac[6];	/* L2 groups */
	uint8_t udp6_primary[16];		/* FF0X::181 */
	uint32_t next_id;
	struct transport_tx_ring txr[TC_NUM];
	struct transport_peers peers;	/* made by transport_open() */
	struct transport_tb tx_tb;	/* the port's TX limit */
	unsigned tx_rate, tx_burst;
	struct transport_txq txq[TC_NUM];
	int defer;			/* transport_defer() */

	/*
	 * Set by the caller after transport_open(): a queued send that asked
	 * for a TX timestamp failed at its flush (its ts_id is never
	 * reported otherwise).
	 */
	void (*tx_failed)(void *arg, enum transport_class, uint32_t ts_id);
	void *tx_failed_arg;
};

struct transport_rx {
	uint8_t *buf;			/* caller's buffer for the payload */
	size_t cap;
	size_t len;			/* payload bytes stored */
	int have_ts;
	int hw;				/* ts is a hardware timestamp */
	struct timespec ts;
	struct transport_addr src;	/* source MAC or IP address */
};

enum transport_txts_status {
	TXTS_OK,
	TXTS_MISSING,		/* never arrived within the timeout */
};

struct transport_txts {
	uint32_t id;
	enum transport_class cls;
	enum transport_txts_status status;
	int hw;
	struct timespec ts;	/* zero when MISSING */
};

/* ---- transport.c: the port ---------------------------------------------- */
int	transport_open(struct transport_port *, const struct transport_params *);
void	transport_close(struct transport_port *);
int	transport_fd(const struct transport_port *, enum transport_class);
/*
 * Reads one frame.  Returns the payload length (> 0), 0 when a frame was
 * read but dropped (counted; call again), -EAGAIN when nothing is queued,
 * another negative errno on error.  Event frames carry a timestamp.
 */
int	transport_recv(struct transport_port *, enum transport_class,
	    struct transport_rx *);
/*
 * Reads up to max (<= TRANSPORT_RX_BATCH) frames in one recvmmsg(), each
 * into rx[i] (buf and cap set by the caller), as transport_recv() reads
 * one: rx[i].len > 0 for a frame delivered, 0 for one dropped (counted).
 * Returns how many were read, -EAGAIN when none was queued, another
 * negative errno on error.
 */
#define TRANSPORT_RX_BATCH	32
int	transport_recv_batch(struct transport_port *, enum transport_class,
	    struct transport_rx *rx, int max);
/*
 * Sends one PTP payload.  netd builds every header.  UNICAST is allowed
 * only to a peer the port knows (-EPERM otherwise).  With want_ts a TX
 * timestamp is requested and *ts_id set; the timestamp is later returned
 * by transport_read_errqueue() or reported MISSING by transport_expire_tx().
 */
int	transport_send(struct transport_port *, enum transport_class,
	    const struct transport_dest *, const uint8_t *payload, size_t len,
	    int want_ts, uint32_t *ts_id);
/*
 * While on, transport_send() queues what it may (its checks still made at
 * once, and their errors returned); the kernel's refusal of a queued send
 * is counted and, for one with a TX request, reported through tx_failed.
 * Off flushes both sockets.
 */
void	transport_defer(struct transport_port *, int on);
/* Sends what waits in the queue of one socket. */
void	transport_flush(struct transport_port *, enum transport_class);
/*
 * Reads one entry of the socket's error queue.  Returns 1 and fills *out
 * when it matched a request, 0 when an entry was consumed but matched
 * nothing (counted), -EAGAIN when the queue is empty.
 */
int	transport_read_errqueue(struct transport_port *, enum transport_class,
	    struct transport_txts *);
/*
 * Reads up to max (<= TRANSPORT_ERRQ_BATCH) error-queue entries in one
 * recvmmsg(): returns how many matched a request (out[0..n-1] filled),
 * *consumed how many entries were read; -EAGAIN when the queue was empty.
 */
#define TRANSPORT_ERRQ_BATCH	64
int	transport_read_errqueue_batch(struct transport_port *,
	    enum transport_class, struct transport_txts *out, int max,
	    int *consumed);
/* TX timestamps asked for on this socket and not yet read or expired. */
int	transport_tx_owed(const struct transport_port *, enum transport_class);
/*
 * Reports one TX timestamp whose deadline passed before now
 * (CLOCK_MONOTONIC) as TXTS_MISSING.  Returns 1 when *out was filled, 0
 * when nothing expired; call until it returns 0.
 */
int	transport_expire_tx(struct transport_port *, const struct timespec *now,
	    struct transport_txts *);
/* Frames the kernel dropped on this socket (filter, full buffer). */
int	transport_kernel_drops(const struct transport_port *,
	    enum transport_class, uint32_t *);

/* ---- transport_peer.c: learned/configured unicast peers ------------------ */
/*
 * Maps the table: max entries of struct transport_peer and a bucket array,
 * untouched until used, so memory grows with the peers heard up to
 * transport_peers_bytes().  key: 16 random bytes, or NULL to draw them
 * with getrandom().  0, -EINVAL or -ENOMEM.
 */
int	transport_peers_init(struct transport_peers *,
	    const struct transport_peer_params *, const uint8_t *key);
void	transport_peers_free(struct transport_peers *);
size_t	transport_peers_bytes(const struct transport_peer_params *);
/*
 * A frame came from a: learn it, or refresh it (now_ms: CLOCK_MONOTONIC).
 * Returns 1 when it is (now) in the table, 0 when the table is full of
 * peers that may not be pushed out (counted), -EINVAL for a bad address.
 */
int	transport_peer_learn(struct transport_peers *,
	    const struct transport_addr *, uint64_t now_ms);
/*
 * A configured peer: never expires, never evicted.  0, -EINVAL, -ENOSPC.
 * _at: at now_ms (CLOCK_MONOTONIC, as every other call of the table's).
 */
int	transport_peer_pin(struct transport_peers *,
	    const struct transport_addr *);
int	transport_peer_pin_at(struct transport_peers *,
	    const struct transport_addr *, uint64_t now_ms);
/* The peer, or NULL when unknown or expired (then it is forgotten). */
struct transport_peer *transport_peer_find(struct transport_peers *,
	    const struct transport_addr *, uint64_t now_ms);
/*
 * clockd asks netd to send to a: 0 (a token taken; with serve, the peer
 * marked served), -EPERM when a is unknown or expired, -EDQUOT when its
 * bucket is empty (counted in st.tx_limited).
 */
int	transport_peer_tx(struct transport_peers *,
	    const struct transport_addr *, uint64_t now_ms, int serve);
/* Forgets at most budget expired peers; returns how many. */
unsigned transport_peers_expire(struct transport_peers *, uint64_t now_ms,
	    unsigned budget);
/*
 * A token bucket of rate messages/s and burst messages: 1 and one token
 * taken, or 0 when empty.  rate 0: always 1.
 */
int	transport_tb_take(struct transport_tb *, unsigned rate, unsigned burst,
	    uint64_t now_ms);
/* Keyed hash of an address (SipHash-2-4 of len and bytes). */
uint64_t transport_peer_hash(const uint64_t key[2],
	    const struct transport_addr *);
/* transport_port wrappers, at CLOCK_MONOTONIC now. */
int	transport_peer_known(struct transport_port *,
	    const struct transport_addr *);
int	transport_peer_add(struct transport_port *,
	    const struct transport_addr *);
uint64_t transport_now_ms(void);

/* ---- pure helpers, testable without privileges --------------------------- */
const char *transport_kind_name(enum transport_kind);
/* The Ethernet destination of dest (Annex E); 0 or -EINVAL. */
int	transport_dest_mac(const struct transport_dest *, uint8_t mac[6]);
/*
 * The multicast groups of params (ptp_dst_mac, p2p_dst_mac, udp6_scope;
 * the protocol's when dst_set is 0): the L2 primary and peer-delay MACs,
 * and the UDPv6 primary group FF0X::181 (Annex F, D.3).  -EINVAL if a MAC
 * is not a group address or the scope is not 0..15.
 */
int	transport_groups(const struct transport_params *pa,
	    uint8_t primary_mac[6], uint8_t pdelay_mac[6],
	    uint8_t udp6_primary[16]);
/*
 * Checks a payload the caller asks to send: length bounds, versionPTP 2,
 * messageType of the class, messageLength equal to len.  0 or -EINVAL.
 */
int	transport_check_payload(enum transport_class, const uint8_t *, size_t);
/*
 * Whether the NIC writes the time into this event message on a port of
 * step (IEEE 1588-2019 11.3.2 one-step Sync; 11.4.3 c) one-step
 * Pdelay_Resp with TSTEP_ONE_P2P): its messageType, not its flags.
 */
int	transport_one_step_msg(enum transport_step, const uint8_t *, size_t);
/* Smallest messageLength of a messageType (Management: with its TLV);
 * 0 for a reserved type. */
size_t	transport_min_len(unsigned type);
/* Largest PTP payload one unfragmented frame/datagram of kind carries. */
size_t	transport_max_payload(enum transport_kind);
/* Classifies a received payload as transport_recv does: 0 when good. */
enum transport_rx_verdict {
	TRV_OK,
	TRV_TOO_SHORT,
	TRV_BAD_VERSION,
	TRV_WRONG_CLASS,
	TRV_BAD_LENGTH,
};
enum transport_rx_verdict transport_check_rx(enum transport_class,
	    const uint8_t *, size_t);

#endif /* PTPSEP_NETD_TRANSPORT_H */
