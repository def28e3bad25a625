/*
 * ipc_samples.h - one well-formed envelope of every kind, for test_ipc and
 * for the generator of the fuzz seed corpus (tests/fuzz/gen_ipc_corpus.c).
 */
#ifndef PTPSEP_IPC_SAMPLES_H
#define PTPSEP_IPC_SAMPLES_H

#include <stddef.h>

#include "ipc.h"

struct ipc_sample {
	const char *name;	/* also the seed file name */
	const ProtobufCMessageDescriptor *desc;	/* the envelope type */
	/* Builds the envelope in static storage, valid until the next call. */
	const ProtobufCMessage *(*build)(void);
};

extern const struct ipc_sample ipc_samples[];
extern const size_t ipc_n_samples;

/* A PTP header-sized payload: messageType t, versionPTP 2, length len. */
void ipc_sample_payload(uint8_t *buf, size_t len, unsigned t);

#endif /* PTPSEP_IPC_SAMPLES_H */
