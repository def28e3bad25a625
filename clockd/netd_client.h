/*
 * netd_client.h - clockd's side of the netd connection (netd_socket).
 *
 * The pair of relay.c in netd: netd_send_frame() here is served by netd's
 * relay_tx_frame() after check_send_frame().  The connection is re-made
 * with exponential backoff whenever it drops; the engine is told through
 * the callbacks, so that its ports go FAULTY while netd is away and come
 * back when the PortList arrives again.  The engine sees netd's messages
 * as netd_types.h's structs, which netd_client.c translates into: the
 * protobuf types stay in this file and in netd/.
 */
#ifndef PTPSEP_CLOCKD_NETD_CLIENT_H
#define PTPSEP_CLOCKD_NETD_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "ipc.h"
#include "netd_types.h"

struct event_base;
struct netd_client;

struct netd_client *netd_client_new(struct event_base *base,
	    const char *path, const struct netd_client_cbs *cbs, void *arg);
void	netd_client_free(struct netd_client *nc);
/* Starts connecting (and keeps reconnecting with backoff). */
void	netd_client_start(struct netd_client *nc);
int	netd_client_ready(const struct netd_client *nc);

/* The TxFrame netd_send_frame() sends (a: the unicast address's storage);
 * the simulator puts the same frame through netd's check_send_frame(). */
void	netd_tx_frame_fill(Ptpsep__Netd__TxFrame *f, Ptpsep__Netd__Address *a,
	    unsigned port, int event, enum netd_dest dest,
	    const struct netd_addr *unicast, const uint8_t *payload,
	    size_t len, uint64_t cookie, int want_ts, const uint8_t *fu,
	    size_t fu_len);
/*
 * These queue their message in the outbox: what the engine sends during
 * one turn of the event loop leaves together once the callbacks of that
 * turn are done, as one NetdBatch when there are two or more (doc/design.md,
 * netd_client.c nc_queue()).  They return 0 when queued, -1 when not
 * connected or the message could not be packed (the connection is then
 * dropped); a datagram a full netd socket has no room for is held and sent
 * in order once it has (up to NC_HELD_BYTES, beyond which it is lost).
 * fu: the TxFrame's follow_up (NULL, 0: none).
 */
int	netd_send_frame(struct netd_client *nc, unsigned port, int event,
	    enum netd_dest dest, const struct netd_addr *unicast,
	    const uint8_t *payload, size_t len, uint64_t cookie, int want_ts,
	    const uint8_t *fu, size_t fu_len);
/* ClockRequest; the reply comes through clock_reply with this id. */
int	netd_clock_read(struct netd_client *nc, uint64_t id);
int	netd_clock_adjfreq(struct netd_client *nc, uint64_t id, double ppb);
int	netd_clock_step(struct netd_client *nc, uint64_t id, int64_t ns);
/* Any clock request, the system clock's (system_clock) and compares. */
int	netd_clock_req(struct netd_client *nc, const struct netd_clock_req *q);
/* The refusal a ClockReply's RefuseReason stands for (CR_CLOCK_FAILED for
 * any reason clockd has no answer to). */
enum clock_refusal netd_refusal_of(Ptpsep__RefuseReason reason);

#endif /* PTPSEP_CLOCKD_NETD_CLIENT_H */
