/*
 * outq.h - what netd holds back for clockd, and the NetdBatch that takes
 * it along (doc/design.md, "Batches").
 *
 * A message clockd acts on only together with a later one is held: a
 * two-step Sync or Pdelay_Resp (its Follow_Up comes next) and a TX time
 * stamp (clockd uses it with the response to that request).  A received
 * Delay_Req is held too, for company rather than for a partner: a
 * grandmaster with many clients gets them back to back, and one wakeup of
 * clockd for several saves a context switch each (doc/design.md,
 * "Batches").  Whatever netd
 * sends next carries the held ones in front of it in one datagram, so
 * clockd wakes once for the pair instead of twice.  Order is never
 * changed.  Batching is transport, like interrupt coalescing: the only
 * thing netd reads of a frame for it is messageType and twoStepFlag.
 *
 * Pure: no I/O and no clock.  relay.c owns the timer and the socket.
 */
#ifndef PTPSEP_NETD_OUTQ_H
#define PTPSEP_NETD_OUTQ_H

#include <stddef.h>
#include <stdint.h>

#include "ipc.h"

/* Held at most; the next message makes a full batch of IPC_BATCH_MAX. */
#define OUTQ_HELD_MAX	(IPC_BATCH_MAX - 1)

/*
 * How long a held message may wait for company.  A Follow_Up follows its
 * Sync within the master's TX time stamp latency (tens of microseconds in
 * software, IEEE 1588-2019 9.5.10 only says "as soon as possible"), so 2 ms
 * costs a lone Sync little and is far longer than the pair is apart.  A TX
 * time stamp of a Delay_Req waits for its Delay_Resp, one round trip to
 * the master plus the master's turnaround: 10 ms covers a LAN with room to
 * spare, and clockd needs the stamp only when the response is there.
 * Both are backstops: in steady state the next message comes first.
 *
 * A Delay_Req's t4 is the receive stamp taken on arrival, so holding it
 * costs no accuracy; it only delays the Delay_Resp, by at most
 * OUTQ_DREQ_HOLD_NS plus clockd's turnaround, which a client takes until
 * its next Delay_Req (IEEE 1588-2019 11.3.2 asks for no bound; ptp4l
 * matches a Delay_Resp to any of its Delay_Reqs of the last 5 s).  20 ms
 * is a third of the shortest Delay_Req interval a grandmaster commonly
 * grants (16/s), and amortizes one round trip netd -> clockd -> netd over
 * every Delay_Req of the window: at 100 clients at 1/s (10 ms apart) three
 * instead of one.  By measurement (tests/bench/scale.sh, same runs): 5 ms
 * held from 400/s on -> 20 ms from 25/s on cut our CPU at 100 clients at
 * 1/s by 45%, at 1,000 at 1/s and 100 at 16/s by a quarter; 10 ms from
 * 50/s on saved about half as much.
 */
#define OUTQ_RX_HOLD_NS		2000000
#define OUTQ_TXTS_HOLD_NS	10000000
#define OUTQ_DREQ_HOLD_NS	20000000
/*
 * A Delay_Req is held only when company is likely: when the mean gap
 * between received Delay_Reqs (outq_rx_hold(), a moving average over about
 * OUTQ_GAP_WEIGHT of them) is at most OUTQ_DREQ_GAP_NS (25 a second or
 * more).  Holding one that leaves alone costs netd a timer wake-up and
 * saves nothing.  A gap is counted at most OUTQ_GAP_MAX_NS, so that one
 * quiet spell does not stop holding for long.
 */
#define OUTQ_DREQ_GAP_NS	(2 * OUTQ_DREQ_HOLD_NS)
#define OUTQ_GAP_WEIGHT		8
#define OUTQ_GAP_MAX_NS		100000000
/*
 * With many unicast peers the hold is longer: when each peer sends at its
 * own rate, one peer's Delay_Req interval is about the number of peers
 * times the mean gap, and a hold of an eighth of that (OUTQ_DREQ_HOLD_DIV)
 * still answers a client long before its next Delay_Req; at most
 * OUTQ_DREQ_HOLD_MAX_NS.  At 100 clients at 1/s: 100 ms, netd 29 wake-ups
 * a second instead of 88 and our CPU 0.0048 instead of 0.0071 core
 * (tests/bench/scale.sh); at 16/s the interval is 62.5 ms and the hold
 * stays 20 ms.  A port with few peers (multicast clients) keeps 20 ms.
 */
#define OUTQ_DREQ_HOLD_DIV	8
#define OUTQ_DREQ_HOLD_MAX_NS	100000000

enum outq_kind {
	OUTQ_RX,	/* an RxFrame: droppable when clockd's queue is full */
	OUTQ_TXTS,	/* a TxTimestamp: never dropped */
};

struct outq_member {
	size_t		off, len;	/* packed NetdMsg in outq.buf */
	enum outq_kind	kind;
	unsigned	port;		/* for the drop counter of an RxFrame */
};

struct outq {
	struct outq_member	m[OUTQ_HELD_MAX];
	size_t			n;
	size_t			used;		/* of buf */
	int64_t			deadline_ns;	/* send by then; 0: none held */
	/* received Delay_Reqs: the last one's time and the mean gap (ns);
	 * outq_clear() keeps them */
	int64_t			dreq_last_ns, dreq_gap_ns;
	uint8_t			buf[IPC_MAX_MSG];
};

/*
 * How long to hold this received frame, in ns, or 0 not to: an event
 * message that is a Sync or a Pdelay_Resp with twoStepFlag set (flagField
 * octet 0 bit 1, IEEE 1588-2019 13.3.2.8), whose Follow_Up clockd will
 * want with it, OUTQ_RX_HOLD_NS; a Delay_Req, OUTQ_DREQ_HOLD_NS.
 */
int64_t	outq_rx_hold_ns(int is_event, const uint8_t *payload, size_t len);

/*
 * outq_rx_hold_ns(), and for a Delay_Req received at now_ns on a port with
 * peers unicast peers the rate above: its hold (OUTQ_DREQ_HOLD_NS to
 * OUTQ_DREQ_HOLD_MAX_NS), or 0 when company is not expected.  Updates the
 * mean gap.
 */
int64_t	outq_rx_hold(struct outq *q, int is_event, const uint8_t *payload,
	    size_t len, int64_t now_ns, unsigned peers);
void	outq_clear(struct outq *q);

/*
 * Holds the NetdMsg m (packed here with ipc_encode) received at now_ns,
 * to be sent by now_ns + hold_ns (hold_ns 0: the kind's default,
 * OUTQ_RX_HOLD_NS or OUTQ_TXTS_HOLD_NS).  Returns 1 when the deadline
 * moved earlier (re-arm the timer), 0 when it did not, -1 when there is
 * no room (OUTQ_HELD_MAX held or the bytes do not fit): send what is held
 * first, then hold again.
 */
int	outq_hold(struct outq *q, const ProtobufCMessage *m, enum outq_kind k,
	    unsigned port, int64_t now_ns, int64_t hold_ns);

/* Every held message may be dropped (all are RxFrames). */
int	outq_droppable(const struct outq *q);

/*
 * Writes into out the datagram that sends what is held followed by next
 * (a packed NetdMsg, or NULL): one NetdMsg{batch} of the held ones and
 * next, or the one message alone when there is only one.  Returns its
 * length, or 0 when it would exceed cap (send what is held first).  The
 * queue is left as it is; outq_clear() once sent.
 */
size_t	outq_build(const struct outq *q, const uint8_t *next, size_t next_len,
	    uint8_t *out, size_t cap);

#endif /* PTPSEP_NETD_OUTQ_H */
