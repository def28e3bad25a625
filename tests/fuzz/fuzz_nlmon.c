/*
 * fuzz_nlmon.c - libFuzzer target for netd's rtnetlink parser and link
 * table (netd/nlmon.c): the bytes of one datagram, fed twice to one table
 * so that the second pass exercises the transitions (MAC change, carrier,
 * re-creation) as well as creation.  The input is not copied to an aligned
 * buffer on purpose: the parser must not depend on alignment.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "log.h"
#include "netd/nlmon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
sink(const struct nlmon_event *ev, void *arg)
{
	size_t *n = arg;

	/* Touch every field so the sanitizers see any bad read. */
	*n += (size_t)ev->type + (size_t)ev->ifindex + ev->addr_len +
	    (size_t)ev->ifname[0];
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int inited;
	struct nlmon_state st;
	size_t n = 0;

	if (!inited) {
		log_init("fuzz", 1, LOG_LVL_ERR);
		inited = 1;
	}
	nlmon_state_init(&st);
	/* Odd sizes also run the dump sweep path. */
	if (size & 1)
		nlmon_state_dump_begin(&st);
	(void)nlmon_feed(&st, data, size, sink, &n);
	(void)nlmon_feed(&st, data, size, sink, &n);
	nlmon_state_free(&st);
	return 0;
}
