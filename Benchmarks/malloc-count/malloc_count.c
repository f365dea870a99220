// Counts the process's heap allocations, for `pipeline-bench`'s mallocs per event of each stage:
//
//   cc -O2 -shared -fPIC -o malloc_count.so Benchmarks/malloc-count/malloc_count.c
//   LD_PRELOAD=$PWD/malloc_count.so .build-release/release/pipeline-bench 3000
//
// Every malloc, calloc, realloc and aligned allocation of every thread is counted (glibc's own
// functions do the work); pipeline-bench finds `pushrelay_malloc_count` with dlsym and prints the
// count per event beside each stage's CPU time. Exact, so a change of one allocation per event
// shows where times drown in the machine's noise.
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_ulong allocations;

static void counted(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

void *malloc(size_t size) { counted(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { counted(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { counted(); return __libc_realloc(pointer, size); }
void *aligned_alloc(size_t alignment, size_t size) { counted(); return __libc_memalign(alignment, size); }
void *memalign(size_t alignment, size_t size) { counted(); return __libc_memalign(alignment, size); }

int posix_memalign(void **out, size_t alignment, size_t size) {
    counted();
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return 12;  // ENOMEM
    *out = pointer;
    return 0;
}

unsigned long pushrelay_malloc_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
