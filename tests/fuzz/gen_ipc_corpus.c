/*
 * gen_ipc_corpus.c - writes the seed corpus of fuzz_ipc: every sample of
 * tests/unit/ipc_samples.c, packed, behind the byte that selects its
 * envelope in fuzz_ipc.c.  Run after a schema change and commit the files:
 *
 *	tests/fuzz/gen_ipc_corpus tests/fuzz/corpus/ipc
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>

#include "ipc.h"
#include "ipc_samples.h"

static int
selector(const ProtobufCMessageDescriptor *d)
{
	if (d == &ptpsep__netd__netd_msg__descriptor)
		return 0;
	if (d == &ptpsep__ctl__ctl_request__descriptor)
		return 1;
	return 2;
}

int
main(int argc, char **argv)
{
	static uint8_t buf[IPC_MAX_MSG + 1];
	char path[4096];
	size_t i, len;
	FILE *f;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (i = 0; i < ipc_n_samples; i++) {
		const struct ipc_sample *s = &ipc_samples[i];

		buf[0] = (uint8_t)selector(s->desc);
		/* ipc_encode does not check (ipc.h): a seed must be valid. */
		rc = ipc_check(s->build());
		if (rc == IPC_OK)
			rc = ipc_encode(s->build(), buf + 1, IPC_MAX_MSG, &len);
		if (rc != IPC_OK) {
			fprintf(stderr, "%s: %s: %s\n", s->name,
			    ipc_strerror(rc), ipc_detail());
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%s", argv[1], s->name);
		if ((f = fopen(path, "wb")) == NULL ||
		    fwrite(buf, 1, len + 1, f) != len + 1 || fclose(f) != 0) {
			perror(path);
			return 1;
		}
	}
	printf("wrote %zu seeds to %s\n", ipc_n_samples, argv[1]);
	return 0;
}
