/*
 * outq.c - netd's held messages and the NetdBatch that carries them
 * (outq.h, doc/design.md "Batches").
 *
 * The batch is written around members already packed
 * (ipc_netd_batch_pack()).  Packing the member when it is held keeps no
 * pointer into the port's receive buffer, which the next frame
 * overwrites.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "outq.h"

/* Key and length of the batch, and of each of IPC_BATCH_MAX members. */
#define OUTQ_FRAMING	(1 + 3 + IPC_BATCH_MAX * (1 + 3))

/* IEEE 1588-2019 Table 36: messageType values */
#define OUTQ_MT_SYNC		0x0
#define OUTQ_MT_DELAY_REQ	0x1
#define OUTQ_MT_PDELAY_RESP	0x3
#define OUTQ_TWO_STEP		0x02	/* flagField[0], 13.3.2.8 */

static int
outq_is_dreq(int is_event, const uint8_t *payload, size_t len)
{
	return is_event && len >= IPC_MIN_PTP_PAYLOAD &&
	    (payload[0] & 0x0f) == OUTQ_MT_DELAY_REQ;
}

int64_t
outq_rx_hold_ns(int is_event, const uint8_t *payload, size_t len)
{
	unsigned t;

	if (outq_is_dreq(is_event, payload, len))
		return OUTQ_DREQ_HOLD_NS;
	if (!is_event || len < IPC_MIN_PTP_PAYLOAD)
		return 0;
	t = payload[0] & 0x0f;
	if (t != OUTQ_MT_SYNC && t != OUTQ_MT_PDELAY_RESP)
		return 0;
	return (payload[6] & OUTQ_TWO_STEP) != 0 ? OUTQ_RX_HOLD_NS : 0;
}

int64_t
outq_rx_hold(struct outq *q, int is_event, const uint8_t *payload,
    size_t len, int64_t now_ns, unsigned peers)
{
	int64_t hold, gap;

	if (!outq_is_dreq(is_event, payload, len))
		return outq_rx_hold_ns(is_event, payload, len);
	gap = now_ns - q->dreq_last_ns;
	if (q->dreq_last_ns == 0 || gap < 0 || gap > OUTQ_GAP_MAX_NS)
		gap = OUTQ_GAP_MAX_NS;
	/* The first one: no rate known, none assumed (a mean starting at 0
	 * would hold the first few at any rate). */
	if (q->dreq_last_ns == 0)
		q->dreq_gap_ns = OUTQ_GAP_MAX_NS;
	q->dreq_last_ns = now_ns;
	q->dreq_gap_ns += (gap - q->dreq_gap_ns) / OUTQ_GAP_WEIGHT;
	if (q->dreq_gap_ns > OUTQ_DREQ_GAP_NS)
		return 0;
	/* A peer's own interval, about peers x the mean gap (outq.h). */
	hold = (int64_t)peers * q->dreq_gap_ns / OUTQ_DREQ_HOLD_DIV;
	if (hold < OUTQ_DREQ_HOLD_NS)
		return OUTQ_DREQ_HOLD_NS;
	return hold > OUTQ_DREQ_HOLD_MAX_NS ? OUTQ_DREQ_HOLD_MAX_NS : hold;
}

void
outq_clear(struct outq *q)
{
	q->n = 0;
	q->used = 0;
	q->deadline_ns = 0;
}

int
outq_hold(struct outq *q, const ProtobufCMessage *m, enum outq_kind k,
    unsigned port, int64_t now_ns, int64_t hold_ns)
{
	int64_t dl;
	size_t len;

	if (q->n >= OUTQ_HELD_MAX)
		return -1;
	/* Room for the batch's keys and lengths too (outq_build). */
	if (q->used + OUTQ_FRAMING >= sizeof(q->buf) ||
	    ipc_encode(m, q->buf + q->used, sizeof(q->buf) - OUTQ_FRAMING -
	    q->used, &len) != IPC_OK)
		return -1;
	q->m[q->n].off = q->used;
	q->m[q->n].len = len;
	q->m[q->n].kind = k;
	q->m[q->n].port = port;
	q->n++;
	q->used += len;
	if (hold_ns <= 0)
		hold_ns = k == OUTQ_RX ? OUTQ_RX_HOLD_NS : OUTQ_TXTS_HOLD_NS;
	dl = now_ns + hold_ns;
	if (q->deadline_ns == 0 || dl < q->deadline_ns) {
		q->deadline_ns = dl;
		return 1;
	}
	return 0;
}

int
outq_droppable(const struct outq *q)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		if (q->m[i].kind != OUTQ_RX)
			return 0;
	return 1;
}

size_t
outq_build(const struct outq *q, const uint8_t *next, size_t next_len,
    uint8_t *out, size_t cap)
{
	const uint8_t *m[OUTQ_HELD_MAX + 1];
	size_t len[OUTQ_HELD_MAX + 1];
	unsigned i, n = 0;

	for (i = 0; i < q->n; i++) {
		m[n] = q->buf + q->m[i].off;
		len[n++] = q->m[i].len;
	}
	if (next != NULL) {
		m[n] = next;
		len[n++] = next_len;
	}
	return ipc_netd_batch_pack(m, len, n, out, cap);
}
