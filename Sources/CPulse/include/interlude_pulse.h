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

/* libpulse is loaded with dlopen when the player first connects to the sound
   server for desktop interruptions, not linked: a render to a WAV file, `info`,
   `alarm` and playback with desktop interruptions off map none of libpulse,
   libpulsecommon and the libraries they pull in (dbus, sndfile, systemd, ...);
   see docs/architecture.md for what it measured. The headers give the types and
   constants; every call goes through loader.c, which resolves the functions
   once in interlude_pulse_load(). Calling a wrapper before a successful load is
   a programming error (it traps).

   Everything here runs on the player's main thread: the context is driven by
   the player's own loop through a pa_mainloop_api the Swift side implements. */

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
