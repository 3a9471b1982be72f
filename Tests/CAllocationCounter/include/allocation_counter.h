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

/// Waits until no other counting window is open in the process, then opens
/// one and clears the count: every test that counts holds a window from its
/// reset to its last read of the count, so two suites running side by side
/// never count each other's threads.
void interlude_allocations_begin_window(void);

/// Closes the window (and stops counting by name or on this thread).
void interlude_allocations_end_window(void);

/// Clears the count and the callers recorded.
void interlude_allocations_reset(void);

/// Allocations counted since the last reset (malloc, calloc, realloc,
/// posix_memalign, aligned_alloc, memalign; frees are not counted).
long interlude_allocations_counted(void);

/// The return addresses of the first counted allocations (up to `capacity`,
/// at most 4096): which code asked. Returns how many were written.
int interlude_allocations_callers(void **callers, int capacity);

/// The file of the shared object (or executable) that holds code address
/// `pc`, or NULL: tells whose code asked for a counted allocation.
const char *interlude_allocations_object_of(void *pc);

/// `pc` as an offset into its object (for addr2line), or -1.
long interlude_allocations_offset_of(void *pc);

/// The function holding `pc`, when the object exports it, or NULL.
const char *interlude_allocations_symbol_of(void *pc);

/// The call stack (return addresses, innermost first, up to 8) of counted
/// allocation number `index` (the first 64 only). Returns how many were written.
int interlude_allocations_stack(int index, void **frames, int capacity);

#endif
