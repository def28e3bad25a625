/*
 * env_event.c - env.h over libevent and the netd socket: what the engine
 * (clock*.c, port*.c, msg.c) runs on in ptp-clockd.  The simulator
 * (tests/sim/) has its own implementation of the same ops.
 */
#include "config.h"

#include <stdlib.h>
#include <time.h>

#include <event2/event.h>

#include "env_event.h"

struct env_timer {
	struct env_event *ee;
	struct event	*ev;
	env_timer_cb	 cb;
	void		*arg;
	int64_t		 due;	/* ee_now() ns it may fire at */
};

struct env_event {
	struct env		 env;
	struct event_base	*base;
	struct netd_client	*nc;
};

static void ee_add(struct env_timer *t, int64_t delay_ns);

static int64_t
ee_now(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * libevent counts a timer from the time it cached when its loop last
 * woke, not from when evtimer_add() was called: a timer armed late in a
 * busy callback, for instance after netd's reply to a frequency change
 * read in the same burst as the Sync that caused it, fired early by that
 * much once another event woke the loop (7 ms of 30 in test_clock_env),
 * and clockd's next frequency change reached netd inside
 * min_adj_interval_ms (RATE_LIMITED).  env.h promises no timer before its
 * time: the cache is refreshed before arming, and a timer still early
 * (CLOCK_MONOTONIC_COARSE, which libevent takes where it is fine enough)
 * waits out the rest.
 */
static void
ee_timer_fire(evutil_socket_t fd, short what, void *arg)
{
	struct env_timer *t = arg;
	int64_t left = t->due - ee_now(NULL);

	(void)fd;
	(void)what;
	if (left > 0) {
		ee_add(t, left);
		return;
	}
	t->cb(t->arg);
}

static struct env_timer *
ee_timer_new(void *ctx, env_timer_cb cb, void *arg)
{
	struct env_event *ee = ctx;
	struct env_timer *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->ee = ee;
	t->cb = cb;
	t->arg = arg;
	if ((t->ev = evtimer_new(ee->base, ee_timer_fire, t)) == NULL) {
		free(t);
		return NULL;
	}
	return t;
}

static void
ee_timer_free(void *ctx, struct env_timer *t)
{
	(void)ctx;
	event_free(t->ev);
	free(t);
}

static void
ee_add(struct env_timer *t, int64_t delay_ns)
{
	struct timeval tv;
	int64_t us;

	/* Rounded up to libevent's microseconds. */
	us = delay_ns <= 0 ? 0 : (delay_ns + 999) / 1000;
	tv.tv_sec = (time_t)(us / 1000000);
	tv.tv_usec = (suseconds_t)(us % 1000000);
	event_base_update_cache_time(t->ee->base);
	evtimer_add(t->ev, &tv);
}

static void
ee_timer_arm(void *ctx, struct env_timer *t, int64_t delay_ns)
{
	(void)ctx;
	if (delay_ns < 0)
		delay_ns = 0;
	t->due = ee_now(NULL) + delay_ns;
	ee_add(t, delay_ns);
}

static void
ee_timer_cancel(void *ctx, struct env_timer *t)
{
	(void)ctx;
	evtimer_del(t->ev);
}

static int
ee_timer_pending(void *ctx, const struct env_timer *t)
{
	(void)ctx;
	return evtimer_pending(t->ev, NULL) != 0;
}

static void
ee_netd_start(void *ctx)
{
	struct env_event *ee = ctx;

	netd_client_start(ee->nc);
}

static int
ee_netd_ready(void *ctx)
{
	struct env_event *ee = ctx;

	return netd_client_ready(ee->nc);
}

static int
ee_send_frame(void *ctx, unsigned port, int event, enum netd_dest dest,
    const struct netd_addr *unicast, const uint8_t *payload, size_t len,
    uint64_t cookie, int want_ts, const uint8_t *fu, size_t fu_len)
{
	struct env_event *ee = ctx;

	return netd_send_frame(ee->nc, port, event, dest, unicast, payload,
	    len, cookie, want_ts, fu, fu_len);
}

static int
ee_clock_read(void *ctx, uint64_t id)
{
	struct env_event *ee = ctx;

	return netd_clock_read(ee->nc, id);
}

static int
ee_clock_adjfreq(void *ctx, uint64_t id, double ppb)
{
	struct env_event *ee = ctx;

	return netd_clock_adjfreq(ee->nc, id, ppb);
}

static int
ee_clock_step(void *ctx, uint64_t id, int64_t ns)
{
	struct env_event *ee = ctx;

	return netd_clock_step(ee->nc, id, ns);
}

static int
ee_clock_req(void *ctx, const struct netd_clock_req *r)
{
	struct env_event *ee = ctx;

	return netd_clock_req(ee->nc, r);
}

static const struct env_ops ee_ops = {
	.now = ee_now,
	.timer_new = ee_timer_new,
	.timer_free = ee_timer_free,
	.timer_arm = ee_timer_arm,
	.timer_cancel = ee_timer_cancel,
	.timer_pending = ee_timer_pending,
	.netd_start = ee_netd_start,
	.netd_ready = ee_netd_ready,
	.send_frame = ee_send_frame,
	.clock_read = ee_clock_read,
	.clock_adjfreq = ee_clock_adjfreq,
	.clock_step = ee_clock_step,
	.clock_req = ee_clock_req,
};

struct env_event *
env_event_new(struct event_base *base, const char *netd_path,
    const struct netd_client_cbs *cbs, void *arg)
{
	struct env_event *ee = calloc(1, sizeof(*ee));

	if (ee == NULL)
		return NULL;
	ee->base = base;
	ee->nc = netd_client_new(base, netd_path, cbs, arg);
	if (ee->nc == NULL) {
		free(ee);
		return NULL;
	}
	ee->env.ops = &ee_ops;
	ee->env.ctx = ee;
	return ee;
}

const struct env *
env_event_env(struct env_event *ee)
{
	return &ee->env;
}

void
env_event_free(struct env_event *ee)
{
	if (ee == NULL)
		return;
	netd_client_free(ee->nc);
	free(ee);
}
