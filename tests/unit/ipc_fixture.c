/*
 * ipc_fixture.c - the IPC unit tests' shared fixtures (ipc_fixture.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ipc_fixture.h"

volatile int fx_malloc_counting;
volatile unsigned long fx_malloc_calls;

#if FX_ASAN
/* The sanitizer runtime's allocation hook (sanitizer/allocator_interface.h,
 * which gcc does not ship): called for every malloc, calloc and realloc. */
extern int __sanitizer_install_malloc_and_free_hooks(
    void (*)(const volatile void *, size_t), void (*)(const volatile void *));

static void
fx_malloc_hook(const volatile void *ptr, size_t n)
{
	(void)ptr;
	(void)n;
	if (fx_malloc_counting)
		fx_malloc_calls++;
}

static void
fx_free_hook(const volatile void *ptr)
{
	(void)ptr;
}

__attribute__((constructor)) static void
fx_install_hooks(void)
{
	(void)__sanitizer_install_malloc_and_free_hooks(fx_malloc_hook,
	    fx_free_hook);
}
#elif HAVE_MALLOC_COUNT
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

void *
malloc(size_t n)
{
	if (fx_malloc_counting)
		fx_malloc_calls++;
	return __libc_malloc(n);
}

void *
calloc(size_t k, size_t n)
{
	if (fx_malloc_counting)
		fx_malloc_calls++;
	return __libc_calloc(k, n);
}

void *
realloc(void *p, size_t n)
{
	if (fx_malloc_counting)
		fx_malloc_calls++;
	return __libc_realloc(p, n);
}
#endif

int
fx_setup_pair(void **state)
{
	struct fx_pair *p = calloc(1, sizeof(*p));
	int sv[2];

	if (p == NULL || socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0) {
		free(p);
		return -1;
	}
	p->a = sv[0];
	p->b = sv[1];
	*state = p;
	return 0;
}

int
fx_teardown_pair(void **state)
{
	struct fx_pair *p = *state;

	if (p->a >= 0)
		close(p->a);
	if (p->b >= 0)
		close(p->b);
	free(p);
	return 0;
}

/* Packs m without any of ipc_encode's gates: what a hostile peer can do. */
size_t
fx_raw_pack(const ProtobufCMessage *m, uint8_t *buf, size_t cap)
{
	size_t len = protobuf_c_message_get_packed_size(m);

	assert_true(len <= cap);
	return protobuf_c_message_pack(m, buf);
}

void
fx_raw_send(int fd, const void *buf, size_t len)
{
	assert_int_equal(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len);
}

/* A small valid message, to show the connection still works after a fault. */
void
fx_assert_usable(struct fx_pair *p)
{
	Ptpsep__Netd__NetdMsg env = PTPSEP__NETD__NETD_MSG__INIT, *got;
	Ptpsep__Hello h;

	ipc_hello_init(&h, PTPSEP__ROLE__ROLE_CLOCKD);
	env.body_case = PTPSEP__NETD__NETD_MSG__BODY_HELLO;
	env.hello = &h;
	assert_int_equal(ipc_send_netd(p->a, &env), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_OK);
	assert_int_equal(got->body_case, PTPSEP__NETD__NETD_MSG__BODY_HELLO);
	assert_int_equal(got->hello->role, PTPSEP__ROLE__ROLE_CLOCKD);
	ipc_free(&got->base);
}

const ProtobufCMessage *
fx_sample(const char *name)
{
	size_t i;

	for (i = 0; i < ipc_n_samples; i++)
		if (strcmp(ipc_samples[i].name, name) == 0)
			return ipc_samples[i].build();
	fail_msg("no sample %s", name);
	return NULL;
}

/*
 * Sends m over p and receives it n times with allocations counted, after
 * one round trip uncounted (the first call may set up buffers of the C
 * library); each must succeed and, with batch > 0, arrive as a NetdBatch
 * of that many messages.  Returns the heap allocations counted.
 */
unsigned long
fx_count_allocs(struct fx_pair *p, const ProtobufCMessage *m, int n,
    size_t batch)
{
	Ptpsep__Netd__NetdMsg *got;
	int k;

	assert_int_equal(ipc_send(p->a, m), IPC_OK);
	assert_int_equal(ipc_recv_netd(p->b, &got), IPC_OK);
	ipc_free(&got->base);
	fx_malloc_calls = 0;
	fx_malloc_counting = 1;
	for (k = 0; k < n; k++) {
		if (ipc_send(p->a, m) != IPC_OK ||
		    ipc_recv_netd(p->b, &got) != IPC_OK)
			break;
		if (batch > 0)
			assert_int_equal(got->batch->n_msgs, batch);
		ipc_free(&got->base);
	}
	fx_malloc_counting = 0;
	assert_int_equal(k, n);
	return fx_malloc_calls;
}

/*
 * Each of the samples named in names[0..k-1] goes through n round trips
 * (fx_count_allocs) without a heap allocation; what is counted otherwise
 * fails the test, naming the sample and the unit ("messages", "batches").
 */
void
fx_assert_no_allocs(struct fx_pair *p, const char *const *names, size_t k,
    int n, size_t batch, const char *unit)
{
	unsigned long calls;
	size_t i;

	for (i = 0; i < k; i++) {
		calls = fx_count_allocs(p, fx_sample(names[i]), n, batch);
		if (calls != 0)
			fail_msg("%s: %lu heap allocations in %d %s",
			    names[i], calls, n, unit);
	}
}
