/*
 * ipc_private.h - shared by ipc.c and ipc_check.c only; not an API.
 */
#ifndef PTPSEP_IPC_PRIVATE_H
#define PTPSEP_IPC_PRIVATE_H

/* Sets what ipc_detail() returns. */
void ipc_set_detail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif /* PTPSEP_IPC_PRIVATE_H */
