/*
 * netd_client.h - clockd's side of the netd connection (netd_socket).
 *
 * The pair of relay.c in netd: netd_send_frame() here is served by netd's
 * relay_tx_frame() after check_send_frame().  The connection is re-made
 * with exponential backoff whenever it drops; the engine is told through
 * the callbacks, so that its ports go FAULTY while netd is away and come
 * back when the PortList arrives again.
 */
#ifndef PTPSEP_CLOCKD_NETD_CLIENT_H
#define PTPSEP_CLOCKD_NETD_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "ipc.h"

struct event_base;
struct netd_client;

struct netd_client_cbs {
	/* Hello exchanged and the PortList received. */
	void	(*connected)(void *arg, const Ptpsep__Netd__PortList *pl);
	/* The connection is gone (netd exited or closed it). */
	void	(*disconnected)(void *arg);
	void	(*rx_frame)(void *arg, const Ptpsep__Netd__RxFrame *f);
	void	(*tx_timestamp)(void *arg, const Ptpsep__Netd__TxTimestamp *t);
	void	(*clock_reply)(void *arg, const Ptpsep__Netd__ClockReply *r);
	void	(*link_event)(void *arg, const Ptpsep__Netd__LinkEvent *e);
};

enum netd_dest {
	NETD_DEST_PRIMARY,
	NETD_DEST_PDELAY,
	NETD_DEST_UNICAST,
};

/* A unicast destination: an address netd reported as a frame's source. */
struct netd_addr {
	Ptpsep__Netd__AddrFamily family;
	uint8_t len;
	uint8_t b[16];
};

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
	    size_t len, uint64_t cookie, int want_ts);
/* Returns 0, or -1 when not connected or the send failed. */
int	netd_send_frame(struct netd_client *nc, unsigned port, int event,
	    enum netd_dest dest, const struct netd_addr *unicast,
	    const uint8_t *payload, size_t len, uint64_t cookie, int want_ts);
/* ClockRequest; the reply comes through clock_reply with this id. */
int	netd_clock_read(struct netd_client *nc, uint64_t id);
int	netd_clock_adjfreq(struct netd_client *nc, uint64_t id, double ppb);
int	netd_clock_step(struct netd_client *nc, uint64_t id, int64_t ns);

#endif /* PTPSEP_CLOCKD_NETD_CLIENT_H */
