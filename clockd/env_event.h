/*
 * env_event.h - the daemon's world for clockd's engine (env.h): time is
 * CLOCK_MONOTONIC, timers are libevent timers on the daemon's event base,
 * and netd is the netd_socket connection (netd_client.c), whose messages
 * go to the callbacks given here (clock_netd_cbs).
 */
#ifndef PTPSEP_CLOCKD_ENV_EVENT_H
#define PTPSEP_CLOCKD_ENV_EVENT_H

#include "env.h"
#include "netd_client.h"

struct event_base;
struct env_event;

/* NULL on ENOMEM.  Nothing connects before env->ops->netd_start. */
struct env_event *env_event_new(struct event_base *base,
	    const char *netd_path, const struct netd_client_cbs *cbs,
	    void *arg);
const struct env *env_event_env(struct env_event *ee);
/* After the engine freed its timers (clock_fini). */
void	env_event_free(struct env_event *ee);

#endif /* PTPSEP_CLOCKD_ENV_EVENT_H */
