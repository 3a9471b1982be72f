#ifndef INTERLUDE_ALLOCATION_COUNTER_H
#define INTERLUDE_ALLOCATION_COUNTER_H

/// Counts heap allocations made on chosen threads, for the tests that prove the
/// audio writer allocates nothing. This target defines malloc, calloc, realloc,
/// posix_memalign, aligned_alloc, memalign and free for the whole test process
/// (the executable's definitions interpose glibc's, for every library); each
/// forwards to glibc's own allocator (__libc_malloc and friends), so nothing
/// changes but the counting. Threads are counted when marked (a thread-local
/// flag) or, while a name is armed, when their name (prctl PR_GET_NAME) is it.
/// Built without the interposer under ThreadSanitizer, whose own allocator must
/// see every allocation: then `interlude_allocations_available()` is 0.

/// 1 when the interposer is built in.
int interlude_allocations_available(void);

/// Counts (1) or stops counting (0) allocations made on the calling thread.
void interlude_allocations_mark_this_thread(int counted);

/// Counts allocations made on any thread named `name` (at most 15 bytes), or
/// none when `name` is NULL.
void interlude_allocations_count_threads_named(const char *name);

/// Clears the count and the callers recorded.
void interlude_allocations_reset(void);

/// Allocations counted since the last reset (malloc, calloc, realloc,
/// posix_memalign, aligned_alloc, memalign; frees are not counted).
long interlude_allocations_counted(void);

/// The return addresses of the first counted allocations (up to `capacity`,
/// at most 64): which code asked. Returns how many were written.
int interlude_allocations_callers(void **callers, int capacity);

#endif
