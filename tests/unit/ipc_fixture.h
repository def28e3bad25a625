/*
 * ipc_fixture.h - what the IPC unit tests (tests/unit/test_ipc*.c) share:
 * a connected SOCK_SEQPACKET socketpair per test, raw sends that bypass
 * ipc.c's gates (what a hostile peer can do), the check that a connection
 * still works after a fault, the samples by name, and a count of heap
 * allocations (ipc_fixture.c interposes malloc, calloc and realloc).
 */
#ifndef PTPSEP_TESTS_IPC_FIXTURE_H
#define PTPSEP_TESTS_IPC_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ipc.h"
#include "ipc_samples.h"

/* The two ends of one socketpair: a sends, b receives (or the reverse). */
struct fx_pair {
	int a, b;
};

/*
 * Counts the heap allocations made while counting is on, protobuf-c's
 * default allocator included.  Without a sanitizer ipc_fixture.c defines
 * malloc, calloc and realloc (protobuf-c calls them through the PLT, so
 * the definitions take its calls); under AddressSanitizer malloc belongs
 * to the sanitizer's runtime, and the count comes from the hook that
 * runtime calls on every allocation instead.
 */
#if defined(__SANITIZE_ADDRESS__)
#define FX_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FX_ASAN	1
#endif
#endif
#ifndef FX_ASAN
#define FX_ASAN	0
#endif
#if FX_ASAN || defined(__GLIBC__)
#define HAVE_MALLOC_COUNT	1
#else
#define HAVE_MALLOC_COUNT	0
#endif

/* While fx_malloc_counting is set, fx_malloc_calls counts allocations.
 * Volatile: the compiler takes malloc for a builtin that reads no global
 * and would move the stores to these across the calls they count. */
extern volatile int fx_malloc_counting;
extern volatile unsigned long fx_malloc_calls;

/* cmocka setup and teardown: *state is a struct fx_pair, ends closed after. */
int fx_setup_pair(void **state);
int fx_teardown_pair(void **state);
#define FX_PAIR_TEST(f) \
	cmocka_unit_test_setup_teardown(f, fx_setup_pair, fx_teardown_pair)

size_t fx_raw_pack(const ProtobufCMessage *m, uint8_t *buf, size_t cap);
void fx_raw_send(int fd, const void *buf, size_t len);
void fx_assert_usable(struct fx_pair *p);
const ProtobufCMessage *fx_sample(const char *name);
unsigned long fx_count_allocs(struct fx_pair *p, const ProtobufCMessage *m,
    int n, size_t batch);
void fx_assert_no_allocs(struct fx_pair *p, const char *const *names,
    size_t k, int n, size_t batch, const char *unit);

#endif
