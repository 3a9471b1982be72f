#ifndef INTERLUDE_PULSE_H
#define INTERLUDE_PULSE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <pulse/context.h>
#include <pulse/error.h>
#include <pulse/introspect.h>
#include <pulse/mainloop-api.h>
#include <pulse/operation.h>
#include <pulse/proplist.h>
#include <pulse/subscribe.h>
#include <pulse/stream.h>
#include <pulse/thread-mainloop.h>

/* libpulse is loaded with dlopen when the player first connects to the sound
   server for desktop interruptions, not linked: a render to a WAV file, `info`,
   `alarm` and playback with desktop interruptions off map none of libpulse,
   libpulsecommon and the libraries they pull in (dbus, sndfile, systemd, ...);
   see docs/architecture.md for what it measured. The headers give the types and
   constants; every call goes through loader.c, which resolves the functions
   once in interlude_pulse_load(). Calling a wrapper before a successful load is
   a programming error (it traps).

   The desktop connection runs on the player's main thread: its context is
   driven by the player's own loop through a pa_mainloop_api the Swift side
   implements. The playback output (below) has a threaded main loop of its own. */

/* Loads libpulse.so.0 and resolves what the wrappers call. Returns 0, or -1 with
   dlopen's or dlsym's own message in `message` (NUL-terminated, truncated to
   `capacity`). Idempotent once it has succeeded. */
int interlude_pulse_load(char *message, size_t capacity);

pa_context *interlude_pa_context_new(pa_mainloop_api *api, const char *name);
void interlude_pa_context_unref(pa_context *context);
int interlude_pa_context_connect(pa_context *context, const char *server, pa_context_flags_t flags);
void interlude_pa_context_disconnect(pa_context *context);
pa_context_state_t interlude_pa_context_get_state(const pa_context *context);
int interlude_pa_context_errno(const pa_context *context);
void interlude_pa_context_set_state_callback(pa_context *context, pa_context_notify_cb_t callback, void *userdata);
void interlude_pa_context_set_subscribe_callback(pa_context *context, pa_context_subscribe_cb_t callback, void *userdata);
pa_operation *interlude_pa_context_subscribe(pa_context *context, pa_subscription_mask_t mask,
                                             pa_context_success_cb_t callback, void *userdata);
pa_operation *interlude_pa_context_get_sink_input_info(pa_context *context, uint32_t index,
                                                       pa_sink_input_info_cb_t callback, void *userdata);
pa_operation *interlude_pa_context_get_sink_input_info_list(pa_context *context, pa_sink_input_info_cb_t callback,
                                                            void *userdata);
void interlude_pa_operation_unref(pa_operation *operation);
const char *interlude_pa_proplist_gets(const pa_proplist *proplist, const char *key);
const char *interlude_pa_strerror(int error);

/* The playback output (PulseOutput, in AudioEngine): a threaded main loop of
   its own, a context and one playback stream. Unlike the desktop connection
   above, these are called from the output's threads (the engine's, and the
   real-time writer's) with the main loop locked, as libpulse requires.

   A waker is what the output's notifications reach: the writer's eventfd
   (counted on each one) and the main loop (signalled, for a thread in
   pa_threaded_mainloop_wait). It must outlive the context and stream it is set on.
   `underflows` counts the server's underflow notifications (the stream ran dry
   while playing); it is written by the main loop thread and read with the main
   loop locked. */
typedef struct interlude_pa_waker {
    pa_threaded_mainloop *mainloop;
    int fd;
    uint64_t underflows;
} interlude_pa_waker;

pa_threaded_mainloop *interlude_pa_threaded_mainloop_new(void);
void interlude_pa_threaded_mainloop_free(pa_threaded_mainloop *mainloop);
int interlude_pa_threaded_mainloop_start(pa_threaded_mainloop *mainloop);
void interlude_pa_threaded_mainloop_stop(pa_threaded_mainloop *mainloop);
void interlude_pa_threaded_mainloop_lock(pa_threaded_mainloop *mainloop);
void interlude_pa_threaded_mainloop_unlock(pa_threaded_mainloop *mainloop);
void interlude_pa_threaded_mainloop_wait(pa_threaded_mainloop *mainloop);
pa_mainloop_api *interlude_pa_threaded_mainloop_get_api(pa_threaded_mainloop *mainloop);
pa_proplist *interlude_pa_proplist_new(void);
void interlude_pa_proplist_free(pa_proplist *proplist);
int interlude_pa_proplist_sets(pa_proplist *proplist, const char *key, const char *value);
pa_context *interlude_pa_context_new_with_proplist(pa_mainloop_api *api, const char *name, const pa_proplist *proplist);
/* The default channel map for the spec's channel count. */
pa_stream *interlude_pa_stream_new(pa_context *context, const char *name, const pa_sample_spec *spec,
                                   pa_proplist *proplist);
void interlude_pa_stream_unref(pa_stream *stream);
/* To the default sink (PULSE_SINK, or the server's), at the server's volume. */
int interlude_pa_stream_connect_playback(pa_stream *stream, const pa_buffer_attr *attributes, pa_stream_flags_t flags);
int interlude_pa_stream_disconnect(pa_stream *stream);
pa_stream_state_t interlude_pa_stream_get_state(const pa_stream *stream);
uint32_t interlude_pa_stream_get_index(const pa_stream *stream);
size_t interlude_pa_stream_writable_size(const pa_stream *stream);
/* pa_stream_write with no free callback (libpulse copies) at offset 0 from `seek`. */
int interlude_pa_stream_write(pa_stream *stream, const void *data, size_t bytes, pa_seek_mode_t seek);
int interlude_pa_stream_get_latency(pa_stream *stream, pa_usec_t *latency, int *negative);
const pa_timing_info *interlude_pa_stream_get_timing_info(pa_stream *stream);
const pa_buffer_attr *interlude_pa_stream_get_buffer_attr(pa_stream *stream);

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
