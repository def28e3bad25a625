/*
 * transport_txq.c - sends of one socket leaving in one sendmmsg().
 *
 * A grandmaster's traffic comes from clockd in batches: a period's Syncs
 * to every unicast client, their Follow_Ups once the time stamps are
 * read, a drain's Delay_Resps.  One sendmsg() each made the system call's
 * own cost (~1 us on this kind of VM, before any work) the largest part
 * of netd's that the protocol does not need: 350 a second at 100 clients
 * at 1 Sync/s.  While the port defers (transport_defer(), through a batch
 * of clockd's), transport_send() makes every check, takes the TX request
 * and frames the send, then queues it; the queue leaves in one
 * sendmmsg() at transport_flush(), when it is full, or before a send of
 * the same socket that cannot wait, so each socket's sends keep their
 * order and the kernel numbers the TX time stamps (OPT_ID) in the order
 * the requests were taken.
 *
 * A send the kernel refuses at the flush gives its TX request back
 * (tstamp_tx_cancel(), which moves the later, unsent ones down a key) and
 * is reported through port->tx_failed, as transport_send() would have
 * returned the error; the ones after it are still sent.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "log.h"
#include "transport_int.h"
#include "tstamp.h"

/* One entry's end: what the kernel said of it (0 or -errno). */
static void
txq_done(struct transport_port *port, enum transport_class cls,
    struct transport_txent *e, int err, int report)
{
	if (err == 0) {
		/* The kernel numbers timestamped sends of a socket from 0,
		 * a one-step send too, without a request of ours. */
		if (e->one_step)
			tstamp_tx_skip(port, cls);
		port->cnt.tx[cls]++;
		return;
	}
	if (e->want_ts)
		tstamp_tx_cancel(port, cls, e->ts_id);
	port->cnt.tx_errors++;
	log_rl(LOG_LVL_WARN, "%s: send %s: %s", port->ifname,
	    cls == TC_EVENT ? "event" : "general", strerror(-err));
	if (report && e->want_ts && port->tx_failed != NULL)
		port->tx_failed(port->tx_failed_arg, cls, e->ts_id);
}

int
txq_send(struct transport_port *port, enum transport_class cls,
    struct transport_txent *e, unsigned n, int report)
{
	struct mmsghdr mm[TRANSPORT_TXQ_MAX];
	unsigned i = 0, j;
	int r, err, last = 0;

	if (n > TRANSPORT_TXQ_MAX)
		n = TRANSPORT_TXQ_MAX;	/* cannot happen: the queue's size */
	for (j = 0; j < n; j++) {
		mm[j].msg_hdr = e[j].msg;
		mm[j].msg_len = 0;
	}
	while (i < n) {
		r = sendmmsg(port->fd[cls], mm + i, n - i, 0);
		if (r > 0) {
			for (j = i; j < i + (unsigned)r; j++) {
				err = mm[j].msg_len == e[j].expect ? 0 : -EIO;
				txq_done(port, cls, &e[j], err, report);
				if (err)
					last = err;
			}
			i += (unsigned)r;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		/* The first not sent failed; the rest are tried again. */
		last = r < 0 ? -errno : -EIO;
		txq_done(port, cls, &e[i], last, report);
		i++;
	}
	return last;
}

void
transport_flush(struct transport_port *port, enum transport_class cls)
{
	struct transport_txq *q = &port->txq[cls];
	unsigned n = q->n;

	if (n == 0)
		return;
	q->n = 0;
	if (port->fd[cls] == -1)
		return;		/* closed meanwhile: transport_close() */
	(void)txq_send(port, cls, q->e, n, 1);
}

void
transport_defer(struct transport_port *port, int on)
{
	int c;

	port->defer = on;
	if (!on)
		for (c = 0; c < TC_NUM; c++)
			transport_flush(port, (enum transport_class)c);
}

/*
 * The queue's next free entry, made room for; NULL when it has no memory
 * (the send then goes at once).
 */
struct transport_txent *
txq_slot(struct transport_port *port, enum transport_class cls)
{
	struct transport_txq *q = &port->txq[cls];

	if (q->e == NULL &&
	    (q->e = calloc(TRANSPORT_TXQ_MAX, sizeof(*q->e))) == NULL)
		return NULL;
	if (q->n == TRANSPORT_TXQ_MAX)
		transport_flush(port, cls);
	return &q->e[q->n];
}

void
txq_free(struct transport_port *port)
{
	int c;

	for (c = 0; c < TC_NUM; c++) {
		free(port->txq[c].e);
		port->txq[c].e = NULL;
		port->txq[c].n = 0;
	}
}
