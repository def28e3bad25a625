/*
 * fuzz_ipc.c - libFuzzer target for ipc_decode(), the gate every datagram
 * from another process passes (netd reads a possibly hostile clockd).
 *
 * The first byte picks the envelope: NetdMsg, CtlRequest or CtlResponse.
 * A message that decodes must pack again within the cap, decode again, and
 * pack to the same bytes: ipc_encode and ipc_decode agree on what is valid.
 * A NetdBatch that decodes holds 1..IPC_BATCH_MAX members, none of them a
 * Hello, PortList, Error or batch (seeds: the netd_batch_* samples).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ipc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const ProtobufCMessageDescriptor *const envelopes[] = {
	&ptpsep__netd__netd_msg__descriptor,
	&ptpsep__ctl__ctl_request__descriptor,
	&ptpsep__ctl__ctl_response__descriptor,
};

/* What ipc_check() promises of an accepted batch, checked from outside. */
static void
check_batch(const Ptpsep__Netd__NetdMsg *m)
{
	const Ptpsep__Netd__NetdBatch *b = m->batch;
	size_t i;

	if (b->n_msgs < 1 || b->n_msgs > IPC_BATCH_MAX)
		abort();
	for (i = 0; i < b->n_msgs; i++) {
		switch (ipc_envelope_case(&b->msgs[i]->base)) {
		case 0:
		case PTPSEP__NETD__NETD_MSG__BODY_HELLO:
		case PTPSEP__NETD__NETD_MSG__BODY_PORT_LIST:
		case PTPSEP__NETD__NETD_MSG__BODY_ERROR:
		case PTPSEP__NETD__NETD_MSG__BODY_BATCH:
			abort();
		default:
			break;
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t once[IPC_MAX_MSG], twice[IPC_MAX_MSG];
	const ProtobufCMessageDescriptor *desc;
	ProtobufCMessage *m, *m2;
	size_t len1, len2;
	int rc;

	if (size < 1)
		return 0;
	desc = envelopes[data[0] % 3];
	rc = ipc_decode(desc, data + 1, size - 1, &m);
	if (rc != IPC_OK) {
		if (m != NULL)
			abort();	/* an error must leave nothing to free */
		return 0;
	}
	if (desc == &ptpsep__netd__netd_msg__descriptor &&
	    ipc_envelope_case(m) == PTPSEP__NETD__NETD_MSG__BODY_BATCH)
		check_batch((const Ptpsep__Netd__NetdMsg *)m);
	/*
	 * Unknown fields are kept and packed again, and protobuf-c never packs
	 * a value longer than it was read, so the re-encoding fits the cap.
	 */
	if (ipc_encode(m, once, sizeof(once), &len1) != IPC_OK)
		abort();
	if (ipc_decode(desc, once, len1, &m2) != IPC_OK)
		abort();
	if (ipc_encode(m2, twice, sizeof(twice), &len2) != IPC_OK)
		abort();
	if (len1 != len2 || memcmp(once, twice, len1) != 0)
		abort();
	ipc_free(m2);
	ipc_free(m);
	return 0;
}
