#define _GNU_SOURCE
#include "allocation_counter.h"
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>
#include <sys/prctl.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define INTERLUDE_NO_INTERPOSER 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define INTERLUDE_NO_INTERPOSER 1
#endif

enum { max_callers = 4096 };
static _Atomic long counted;
static _Atomic int armed_by_name;
static char armed_name[16];
static void *_Atomic callers[max_callers];
static _Atomic int caller_count;
static __thread int marked __attribute__((tls_model("initial-exec")));
// Unused where a sanitizer owns malloc (INTERLUDE_NO_INTERPOSER), hence `unused`.
static __thread int inside __attribute__((tls_model("initial-exec"), unused));
enum { max_stacks = 64, stack_depth = 8 };
static void *stacks[max_stacks][stack_depth] __attribute__((unused));

void interlude_allocations_mark_this_thread(int on) { marked = on; }

void interlude_allocations_count_threads_named(const char *name) {
    if (name == NULL) {
        atomic_store(&armed_by_name, 0);
        return;
    }
    atomic_store(&armed_by_name, 0);
    // backtrace loads libgcc_s on its first call: do that here, not inside malloc.
    void *frames[2];
    backtrace(frames, 2);
    strncpy(armed_name, name, sizeof armed_name - 1);
    armed_name[sizeof armed_name - 1] = 0;
    atomic_store(&armed_by_name, 1);
}

// One counting window at a time in the process: the count is global, and
// Swift Testing runs suites side by side, so a window of one suite would
// count the writer thread another suite's test had armed by name.
static pthread_mutex_t window = PTHREAD_MUTEX_INITIALIZER;

void interlude_allocations_begin_window(void) {
    pthread_mutex_lock(&window);
    interlude_allocations_reset();
}

void interlude_allocations_end_window(void) {
    atomic_store(&armed_by_name, 0);
    marked = 0;
    pthread_mutex_unlock(&window);
}

void interlude_allocations_reset(void) {
    atomic_store(&caller_count, 0);
    atomic_store(&counted, 0);
}

long interlude_allocations_counted(void) { return atomic_load(&counted); }

int interlude_allocations_callers(void **out, int capacity) {
    int count = atomic_load(&caller_count);
    if (count > max_callers) count = max_callers;
    if (count > capacity) count = capacity;
    for (int index = 0; index < count; index++) out[index] = atomic_load(&callers[index]);
    return count;
}

const char *interlude_allocations_object_of(void *pc) {
    Dl_info info;
    if (dladdr(pc, &info) == 0) return NULL;
    return info.dli_fname;
}

long interlude_allocations_offset_of(void *pc) {
    Dl_info info;
    if (dladdr(pc, &info) == 0) return -1;
    return (long)((char *)pc - (char *)info.dli_fbase);
}

const char *interlude_allocations_symbol_of(void *pc) {
    Dl_info info;
    if (dladdr(pc, &info) == 0) return NULL;
    return info.dli_sname;
}

#ifdef INTERLUDE_NO_INTERPOSER

int interlude_allocations_available(void) { return 0; }
int interlude_allocations_stack(int index, void **frames, int capacity) {
    (void)index; (void)frames; (void)capacity;
    return 0;
}

#else

int interlude_allocations_available(void) { return 1; }

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static int counts_here(void) {
    if (inside) return 0;
    if (marked) return 1;
    if (!atomic_load_explicit(&armed_by_name, memory_order_acquire)) return 0;
    // PR_GET_NAME on the calling thread: one system call, no allocation, no lock.
    char name[16] = {0};
    if (prctl(PR_GET_NAME, name, 0, 0, 0) != 0) return 0;
    return strncmp(name, armed_name, sizeof name) == 0;
}

static void count(void *caller) {
    atomic_fetch_add(&counted, 1);
    int slot = atomic_fetch_add(&caller_count, 1);
    if (slot < max_callers) atomic_store(&callers[slot], caller);
    if (slot < max_stacks && !inside) {
        inside = 1;
        void *frames[stack_depth + 2] = {0};
        int depth = backtrace(frames, stack_depth + 2);
        for (int index = 2; index < depth && index < stack_depth + 2; index++) stacks[slot][index - 2] = frames[index];
        inside = 0;
    }
}

int interlude_allocations_stack(int index, void **frames, int capacity) {
    if (index < 0 || index >= max_stacks || index >= atomic_load(&caller_count)) return 0;
    int count = 0;
    while (count < stack_depth && count < capacity && stacks[index][count] != NULL) {
        frames[count] = stacks[index][count];
        count++;
    }
    return count;
}

void *malloc(size_t size) {
    if (counts_here()) count(__builtin_return_address(0));
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    if (counts_here()) count(__builtin_return_address(0));
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    if (counts_here()) count(__builtin_return_address(0));
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    if (counts_here()) count(__builtin_return_address(0));
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (counts_here()) count(__builtin_return_address(0));
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    if (counts_here()) count(__builtin_return_address(0));
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

void free(void *pointer) { __libc_free(pointer); }

#endif
