/*
 * outq.c - netd's held messages and the NetdBatch that carries them
 * (outq.h, doc/design.md "Batches").
 *
 * The batch is written around members already packed: NetdMsg field 10
 * (batch) holding NetdBatch field 1 (msgs) once per member, each a
 * length-delimited field (protobuf encoding, wire type 2).  Packing the
 * member when it is held keeps no pointer into the port's receive buffer,
 * which the next frame overwrites.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "outq.h"

#define OUTQ_TAG_BATCH	((10u << 3) | 2u)	/* NetdMsg.batch */
#define OUTQ_TAG_MSGS	((1u << 3) | 2u)	/* NetdBatch.msgs */
/* Key and length of the batch, and of each of IPC_BATCH_MAX members. */
#define OUTQ_FRAMING	(1 + 3 + IPC_BATCH_MAX * (1 + 3))

/* IEEE 1588-2019 Table 36: messageType values */
#define OUTQ_MT_SYNC		0x0
#define OUTQ_MT_PDELAY_RESP	0x3
#define OUTQ_TWO_STEP		0x02	/* flagField[0], 13.3.2.8 */

int
outq_rx_holds(int is_event, const uint8_t *payload, size_t len)
{
	unsigned t;

	if (!is_event || len < IPC_MIN_PTP_PAYLOAD)
		return 0;
	t = payload[0] & 0x0f;
	if (t != OUTQ_MT_SYNC && t != OUTQ_MT_PDELAY_RESP)
		return 0;
	return (payload[6] & OUTQ_TWO_STEP) != 0;
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
    unsigned port, int64_t now_ns)
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
	dl = now_ns + (k == OUTQ_RX ? OUTQ_RX_HOLD_NS : OUTQ_TXTS_HOLD_NS);
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

static size_t
varint_len(size_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static uint8_t *
put_varint(uint8_t *p, size_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* The key and length of a member, then its bytes. */
static uint8_t *
put_member(uint8_t *p, const uint8_t *b, size_t len)
{
	*p++ = OUTQ_TAG_MSGS;
	p = put_varint(p, len);
	memcpy(p, b, len);
	return p + len;
}

size_t
outq_build(const struct outq *q, const uint8_t *next, size_t next_len,
    uint8_t *out, size_t cap)
{
	size_t i, inner = 0, total, n = q->n + (next != NULL);
	uint8_t *p = out;

	if (cap > IPC_MAX_MSG)
		cap = IPC_MAX_MSG;
	if (n == 0)
		return 0;
	if (n == 1) {
		/* One message goes as itself, not as a batch of one. */
		const uint8_t *b = next != NULL ? next : q->buf + q->m[0].off;
		size_t len = next != NULL ? next_len : q->m[0].len;

		if (len > cap)
			return 0;
		memcpy(out, b, len);
		return len;
	}
	for (i = 0; i < q->n; i++)
		inner += 1 + varint_len(q->m[i].len) + q->m[i].len;
	if (next != NULL)
		inner += 1 + varint_len(next_len) + next_len;
	total = 1 + varint_len(inner) + inner;
	if (total > cap)
		return 0;
	*p++ = OUTQ_TAG_BATCH;
	p = put_varint(p, inner);
	for (i = 0; i < q->n; i++)
		p = put_member(p, q->buf + q->m[i].off, q->m[i].len);
	if (next != NULL)
		p = put_member(p, next, next_len);
	return (size_t)(p - out);
}
