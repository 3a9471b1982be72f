#ifndef INTERLUDE_PULSE_H
#define INTERLUDE_PULSE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/types.h>
#include <pulse/context.h>
#include <pulse/error.h>
#include <pulse/introspect.h>
#include <pulse/mainloop-api.h>
#include <pulse/operation.h>
#include <pulse/proplist.h>
#include <pulse/subscribe.h>
#include <pulse/stream.h>
#include <pulse/thread-mainloop.h>
#include "interlude_shims.h"

/* libpulse is loaded with dlopen when the player first connects to the sound
   server for desktop interruptions, not linked: a render to a WAV file, `info`,
   `alarm` and playback with desktop interruptions off map none of libpulse,
   libpulsecommon and the libraries they pull in (dbus, sndfile, systemd, ...);
   `make bench`'s desktop row measures it. The headers give the types and
   constants; every call goes through loader.c, which resolves the functions
   once in interlude_pulse_load(). Calling a wrapper before a successful load is
   a programming error (it traps).

   The desktop connection runs on the player's main thread: its context is
   driven by the player's own loop through a pa_mainloop_api the Swift side
   implements. The playback output (below) has a threaded main loop of its own. */

/* Loads libpulse.so.0 and resolves what the wrappers call:
   interlude_library_load's rule (0, or -1 with "<file>: <why>" in `message`). */
int interlude_pulse_load(char *message, size_t capacity);

/* The library as the loader sees it (its list, whether it loaded): for tests. */
struct interlude_library *interlude_pulse_library(void);

#define INTERLUDE_LIST "interlude_pulse_functions.h"
#include "interlude_list_declare.h"
#undef INTERLUDE_LIST

/* The playback output (PulseOutput, in AudioEngine): a threaded main loop of
   its own, a context and one playback stream. Unlike the desktop connection's,
   its wrappers (the list's second part, and those below) are called from the output's threads (the engine's, and the
   real-time writer's) with the main loop locked, as libpulse requires.

   A waker is what the output's notifications reach: the writer's eventfd
   (counted on each one) and the main loop (signalled, for a thread in
   pa_threaded_mainloop_wait). It must outlive the context and stream it is set on.
   `underflows` counts the server's underflow notifications (the stream ran dry
   while playing); it is written by the main loop thread and read with the main
   loop locked. `thread` is the main loop thread's id (0 before its first
   notification), written by each notification of the context's state: the
   connect waits for one, so it is set, and the thread known exactly, when the
   connect returns. */
typedef struct interlude_pa_waker {
    pa_threaded_mainloop *mainloop;
    int fd;
    uint64_t underflows;
    pid_t thread;
} interlude_pa_waker;

/* State changes of the context, of the stream, the stream's data requests and
   its underflows (counted) wake `waker` (NULL: no more). */
void interlude_pa_context_set_waker(pa_context *context, interlude_pa_waker *waker);
void interlude_pa_stream_set_waker(pa_stream *stream, interlude_pa_waker *waker);
/* Each starts the operation and waits for its end with the main loop locked
   (the lock is released while waiting). 0 when it completed, -1 when it could
   not start or was cancelled (the connection died): see pa_context_errno. */
int interlude_pa_stream_update_timing_info_wait(pa_stream *stream, interlude_pa_waker *waker);
int interlude_pa_stream_cork_wait(pa_stream *stream, int cork, interlude_pa_waker *waker);
int interlude_pa_stream_flush_wait(pa_stream *stream, interlude_pa_waker *waker);
int interlude_pa_stream_drain_wait(pa_stream *stream, interlude_pa_waker *waker);
/* A playback stream on `context` to the default sink (PULSE_SINK, or the
   server's), connected with `attributes` and `flags` and its notifications
   on `waker`, waited for with the main loop locked until it is ready: the
   stream, or NULL when it could not be made or failed (pa_context_errno says
   why). */
pa_stream *interlude_pa_stream_open(pa_context *context, const char *name, const pa_sample_spec *spec,
                                    pa_proplist *properties, const pa_buffer_attr *attributes,
                                    pa_stream_flags_t flags, interlude_pa_waker *waker);
/* Corks (1) or uncorks (0) the stream without waiting for the server's answer
   (commands reach the server in order: a write after an uncork is played).
   0 when sent, -1 when it could not be (see pa_context_errno). */
int interlude_pa_stream_cork_async(pa_stream *stream, int cork);

/* libpulse marks a monotonic (rather than wall-clock) deadline in a time event's
   timeval with this bit in tv_usec (pa_timeval_rtstore; libpulse's own mainloops
   test it). It is not in the public headers. */
static inline int interlude_pa_timeval_is_monotonic(const struct timeval *tv) {
    return (tv->tv_usec & (1LL << 30)) != 0;
}
static inline long long interlude_pa_timeval_microseconds(const struct timeval *tv) {
    return (long long)tv->tv_sec * 1000000LL + (long long)(tv->tv_usec & ~(1LL << 30));
}

#endif
