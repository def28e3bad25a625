/*
 * env.h - what clockd's engine needs from the world: "now", timers and
 * the channel to netd.
 *
 * The engine (clock*.c, port*.c, msg.c, pmcsock_net.c and the pure
 * modules they call) reaches time and netd only through these ops, and
 * includes neither libevent nor protobuf-c (netd_types.h), so that the
 * same objects run in two worlds:
 *   - the daemon: env_event.c, over libevent and the netd socket
 *     (netd_client.c, which translates netd's messages into
 *     netd_types.h's structs);
 *   - the simulator: tests/sim/ (ptpsim), on a discrete-event clock and a
 *     simulated network, with netd's clock bounds (netd/clock_bounds.c).
 * netd's answers come back into the engine through clock_netd_cbs
 * (clockd.h, clock_netd.c), whichever world delivers them.
 *
 * Times are int64 ns of a monotonic clock (CLOCK_MONOTONIC in the daemon,
 * true time in the simulator); they never go backwards.
 */
#ifndef PTPSEP_CLOCKD_ENV_H
#define PTPSEP_CLOCKD_ENV_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "netd_types.h"	/* enum netd_dest, struct netd_addr */

struct env_timer;
typedef void (*env_timer_cb)(void *arg);

struct env_ops {
	int64_t	(*now)(void *ctx);
	/* A one-shot timer; NULL on ENOMEM. */
	struct env_timer *(*timer_new)(void *ctx, env_timer_cb cb, void *arg);
	void	(*timer_free)(void *ctx, struct env_timer *t);
	/* (Re)arms t to fire once, delay_ns from now (< 0 is taken as 0),
	 * never before: now() in its callback is >= now() here + delay_ns
	 * (clock_servo.c's rate limit counts on it; env_event.c). */
	void	(*timer_arm)(void *ctx, struct env_timer *t, int64_t delay_ns);
	void	(*timer_cancel)(void *ctx, struct env_timer *t);
	int	(*timer_pending)(void *ctx, const struct env_timer *t);

	/* The channel to netd: the calls of netd_client.h. */
	void	(*netd_start)(void *ctx);
	int	(*netd_ready)(void *ctx);
	int	(*send_frame)(void *ctx, unsigned port, int event,
		    enum netd_dest dest, const struct netd_addr *unicast,
		    const uint8_t *payload, size_t len, uint64_t cookie,
		    int want_ts, const uint8_t *fu, size_t fu_len);
	int	(*clock_read)(void *ctx, uint64_t id);
	int	(*clock_adjfreq)(void *ctx, uint64_t id, double ppb);
	int	(*clock_step)(void *ctx, uint64_t id, int64_t ns);
	/* Any clock request, the system clock's and compares too (issue
	 * 14); NULL in a world without a system clock. */
	int	(*clock_req)(void *ctx, const struct netd_clock_req *r);
};

struct env {
	const struct env_ops	*ops;
	void			*ctx;
};

static inline int64_t
env_now(const struct env *e)
{
	return e->ops->now(e->ctx);
}

static inline struct env_timer *
env_timer_new(const struct env *e, env_timer_cb cb, void *arg)
{
	return e->ops->timer_new(e->ctx, cb, arg);
}

static inline void
env_timer_free(const struct env *e, struct env_timer *t)
{
	if (t != NULL)
		e->ops->timer_free(e->ctx, t);
}

static inline void
env_timer_arm(const struct env *e, struct env_timer *t, int64_t delay_ns)
{
	e->ops->timer_arm(e->ctx, t, delay_ns < 0 ? 0 : delay_ns);
}

static inline void
env_timer_cancel(const struct env *e, struct env_timer *t)
{
	e->ops->timer_cancel(e->ctx, t);
}

static inline int
env_timer_pending(const struct env *e, const struct env_timer *t)
{
	return e->ops->timer_pending(e->ctx, t);
}

/* The channel to netd (netd_client.h's calls, whichever world serves them). */
static inline void
env_netd_start(const struct env *e)
{
	e->ops->netd_start(e->ctx);
}

static inline int
env_netd_ready(const struct env *e)
{
	return e->ops->netd_ready(e->ctx);
}

static inline int
env_send_frame(const struct env *e, unsigned port, int event,
    enum netd_dest dest, const struct netd_addr *unicast,
    const uint8_t *payload, size_t len, uint64_t cookie, int want_ts)
{
	return e->ops->send_frame(e->ctx, port, event, dest, unicast, payload,
	    len, cookie, want_ts, NULL, 0);
}

/*
 * An event message with the general message that carries its TX
 * timestamp (fu, timestamp field zero): netd fills the timestamp in and
 * sends it at once, and reports a TX timestamp only when that failed
 * (netd.proto TxFrame.follow_up).
 */
static inline int
env_send_frame_fu(const struct env *e, unsigned port, enum netd_dest dest,
    const uint8_t *payload, size_t len, uint64_t cookie, const uint8_t *fu,
    size_t fu_len)
{
	return e->ops->send_frame(e->ctx, port, 1, dest, NULL, payload, len,
	    cookie, 1, fu, fu_len);
}

static inline int
env_clock_read(const struct env *e, uint64_t id)
{
	return e->ops->clock_read(e->ctx, id);
}

static inline int
env_clock_adjfreq(const struct env *e, uint64_t id, double ppb)
{
	return e->ops->clock_adjfreq(e->ctx, id, ppb);
}

static inline int
env_clock_step(const struct env *e, uint64_t id, int64_t ns)
{
	return e->ops->clock_step(e->ctx, id, ns);
}

/* -ENOTSUP when the world has no such op (an older fake, the sim). */
static inline int
env_clock_req(const struct env *e, const struct netd_clock_req *r)
{
	if (e->ops->clock_req == NULL)
		return -ENOTSUP;
	return e->ops->clock_req(e->ctx, r);
}

#endif /* PTPSEP_CLOCKD_ENV_H */
