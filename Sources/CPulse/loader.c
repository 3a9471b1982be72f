/* libpulse through dlopen: see interlude_pulse.h for why. */
#include "interlude_pulse.h"
#include "interlude_shims.h"

#include <dlfcn.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

static struct {
    void *library;
    pa_context *(*context_new)(pa_mainloop_api *, const char *);
    void (*context_unref)(pa_context *);
    int (*context_connect)(pa_context *, const char *, pa_context_flags_t, const pa_spawn_api *);
    void (*context_disconnect)(pa_context *);
    pa_context_state_t (*context_get_state)(const pa_context *);
    int (*context_errno)(const pa_context *);
    void (*context_set_state_callback)(pa_context *, pa_context_notify_cb_t, void *);
    void (*context_set_subscribe_callback)(pa_context *, pa_context_subscribe_cb_t, void *);
    pa_operation *(*context_subscribe)(pa_context *, pa_subscription_mask_t, pa_context_success_cb_t, void *);
    pa_operation *(*context_get_sink_input_info)(pa_context *, uint32_t, pa_sink_input_info_cb_t, void *);
    pa_operation *(*context_get_sink_input_info_list)(pa_context *, pa_sink_input_info_cb_t, void *);
    void (*operation_unref)(pa_operation *);
    const char *(*proplist_gets)(const pa_proplist *, const char *);
    const char *(*strerror)(int);
    /* The playback output (PulseOutput): its own threaded main loop and stream. */
    pa_threaded_mainloop *(*threaded_mainloop_new)(void);
    void (*threaded_mainloop_free)(pa_threaded_mainloop *);
    int (*threaded_mainloop_start)(pa_threaded_mainloop *);
    void (*threaded_mainloop_stop)(pa_threaded_mainloop *);
    void (*threaded_mainloop_lock)(pa_threaded_mainloop *);
    void (*threaded_mainloop_unlock)(pa_threaded_mainloop *);
    void (*threaded_mainloop_wait)(pa_threaded_mainloop *);
    void (*threaded_mainloop_signal)(pa_threaded_mainloop *, int);
    pa_mainloop_api *(*threaded_mainloop_get_api)(pa_threaded_mainloop *);
    pa_proplist *(*proplist_new)(void);
    void (*proplist_free)(pa_proplist *);
    int (*proplist_sets)(pa_proplist *, const char *, const char *);
    pa_context *(*context_new_with_proplist)(pa_mainloop_api *, const char *, const pa_proplist *);
    pa_stream *(*stream_new_with_proplist)(pa_context *, const char *, const pa_sample_spec *, const pa_channel_map *,
                                           pa_proplist *);
    void (*stream_unref)(pa_stream *);
    int (*stream_connect_playback)(pa_stream *, const char *, const pa_buffer_attr *, pa_stream_flags_t,
                                   const pa_cvolume *, pa_stream *);
    int (*stream_disconnect)(pa_stream *);
    pa_stream_state_t (*stream_get_state)(const pa_stream *);
    uint32_t (*stream_get_index)(const pa_stream *);
    void (*stream_set_state_callback)(pa_stream *, pa_stream_notify_cb_t, void *);
    void (*stream_set_write_callback)(pa_stream *, pa_stream_request_cb_t, void *);
    void (*stream_set_underflow_callback)(pa_stream *, pa_stream_notify_cb_t, void *);
    size_t (*stream_writable_size)(const pa_stream *);
    int (*stream_write)(pa_stream *, const void *, size_t, pa_free_cb_t, int64_t, pa_seek_mode_t);
    int (*stream_get_latency)(pa_stream *, pa_usec_t *, int *);
    const pa_timing_info *(*stream_get_timing_info)(pa_stream *);
    pa_operation *(*stream_update_timing_info)(pa_stream *, pa_stream_success_cb_t, void *);
    pa_operation *(*stream_cork)(pa_stream *, int, pa_stream_success_cb_t, void *);
    pa_operation *(*stream_flush)(pa_stream *, pa_stream_success_cb_t, void *);
    pa_operation *(*stream_drain)(pa_stream *, pa_stream_success_cb_t, void *);
    const pa_buffer_attr *(*stream_get_buffer_attr)(pa_stream *);
    pa_operation_state_t (*operation_get_state)(const pa_operation *);
} api;

int interlude_pulse_load(char *message, size_t capacity) {
    if (api.library != NULL) return 0;
    void *library = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        interlude_copy_message(message, capacity, dlerror());
        return -1;
    }
    const struct interlude_symbol symbols[] = {
#define SYMBOL(field) { "pa_" #field, (void **)&api.field }
        SYMBOL(context_new),
        SYMBOL(context_unref),
        SYMBOL(context_connect),
        SYMBOL(context_disconnect),
        SYMBOL(context_get_state),
        SYMBOL(context_errno),
        SYMBOL(context_set_state_callback),
        SYMBOL(context_set_subscribe_callback),
        SYMBOL(context_subscribe),
        SYMBOL(context_get_sink_input_info),
        SYMBOL(context_get_sink_input_info_list),
        SYMBOL(operation_unref),
        SYMBOL(proplist_gets),
        SYMBOL(strerror),
        SYMBOL(threaded_mainloop_new),
        SYMBOL(threaded_mainloop_free),
        SYMBOL(threaded_mainloop_start),
        SYMBOL(threaded_mainloop_stop),
        SYMBOL(threaded_mainloop_lock),
        SYMBOL(threaded_mainloop_unlock),
        SYMBOL(threaded_mainloop_wait),
        SYMBOL(threaded_mainloop_signal),
        SYMBOL(threaded_mainloop_get_api),
        SYMBOL(proplist_new),
        SYMBOL(proplist_free),
        SYMBOL(proplist_sets),
        SYMBOL(context_new_with_proplist),
        SYMBOL(stream_new_with_proplist),
        SYMBOL(stream_unref),
        SYMBOL(stream_connect_playback),
        SYMBOL(stream_disconnect),
        SYMBOL(stream_get_state),
        SYMBOL(stream_get_index),
        SYMBOL(stream_set_state_callback),
        SYMBOL(stream_set_write_callback),
        SYMBOL(stream_set_underflow_callback),
        SYMBOL(stream_writable_size),
        SYMBOL(stream_write),
        SYMBOL(stream_get_latency),
        SYMBOL(stream_get_timing_info),
        SYMBOL(stream_update_timing_info),
        SYMBOL(stream_cork),
        SYMBOL(stream_flush),
        SYMBOL(stream_drain),
        SYMBOL(stream_get_buffer_attr),
        SYMBOL(operation_get_state),
#undef SYMBOL
    };
    if (interlude_resolve_symbols(library, symbols, sizeof symbols / sizeof symbols[0], message, capacity) != 0) {
        memset(&api, 0, sizeof api);
        dlclose(library);
        return -1;
    }
    api.library = library;
    return 0;
}

#define CALL(field) ((__typeof__(api.field))interlude_need((void *)api.field))

pa_context *interlude_pa_context_new(pa_mainloop_api *mainloop, const char *name) {
    return CALL(context_new)(mainloop, name);
}
void interlude_pa_context_unref(pa_context *context) { CALL(context_unref)(context); }
int interlude_pa_context_connect(pa_context *context, const char *server, pa_context_flags_t flags) {
    return CALL(context_connect)(context, server, flags, NULL);
}
void interlude_pa_context_disconnect(pa_context *context) { CALL(context_disconnect)(context); }
pa_context_state_t interlude_pa_context_get_state(const pa_context *context) {
    return CALL(context_get_state)(context);
}
int interlude_pa_context_errno(const pa_context *context) { return CALL(context_errno)(context); }
void interlude_pa_context_set_state_callback(pa_context *context, pa_context_notify_cb_t callback, void *userdata) {
    CALL(context_set_state_callback)(context, callback, userdata);
}
void interlude_pa_context_set_subscribe_callback(pa_context *context, pa_context_subscribe_cb_t callback,
                                                 void *userdata) {
    CALL(context_set_subscribe_callback)(context, callback, userdata);
}
pa_operation *interlude_pa_context_subscribe(pa_context *context, pa_subscription_mask_t mask,
                                             pa_context_success_cb_t callback, void *userdata) {
    return CALL(context_subscribe)(context, mask, callback, userdata);
}
pa_operation *interlude_pa_context_get_sink_input_info(pa_context *context, uint32_t index,
                                                       pa_sink_input_info_cb_t callback, void *userdata) {
    return CALL(context_get_sink_input_info)(context, index, callback, userdata);
}
pa_operation *interlude_pa_context_get_sink_input_info_list(pa_context *context, pa_sink_input_info_cb_t callback,
                                                            void *userdata) {
    return CALL(context_get_sink_input_info_list)(context, callback, userdata);
}
void interlude_pa_operation_unref(pa_operation *operation) { CALL(operation_unref)(operation); }
const char *interlude_pa_proplist_gets(const pa_proplist *proplist, const char *key) {
    return CALL(proplist_gets)(proplist, key);
}
const char *interlude_pa_strerror(int error) { return CALL(strerror)(error); }

/* The playback output's calls. */

pa_threaded_mainloop *interlude_pa_threaded_mainloop_new(void) { return CALL(threaded_mainloop_new)(); }
void interlude_pa_threaded_mainloop_free(pa_threaded_mainloop *mainloop) { CALL(threaded_mainloop_free)(mainloop); }
int interlude_pa_threaded_mainloop_start(pa_threaded_mainloop *mainloop) {
    return CALL(threaded_mainloop_start)(mainloop);
}
void interlude_pa_threaded_mainloop_stop(pa_threaded_mainloop *mainloop) { CALL(threaded_mainloop_stop)(mainloop); }
void interlude_pa_threaded_mainloop_lock(pa_threaded_mainloop *mainloop) { CALL(threaded_mainloop_lock)(mainloop); }
void interlude_pa_threaded_mainloop_unlock(pa_threaded_mainloop *mainloop) {
    CALL(threaded_mainloop_unlock)(mainloop);
}
void interlude_pa_threaded_mainloop_wait(pa_threaded_mainloop *mainloop) { CALL(threaded_mainloop_wait)(mainloop); }
pa_mainloop_api *interlude_pa_threaded_mainloop_get_api(pa_threaded_mainloop *mainloop) {
    return CALL(threaded_mainloop_get_api)(mainloop);
}
pa_proplist *interlude_pa_proplist_new(void) { return CALL(proplist_new)(); }
void interlude_pa_proplist_free(pa_proplist *proplist) { CALL(proplist_free)(proplist); }
int interlude_pa_proplist_sets(pa_proplist *proplist, const char *key, const char *value) {
    return CALL(proplist_sets)(proplist, key, value);
}
pa_context *interlude_pa_context_new_with_proplist(pa_mainloop_api *api_, const char *name, const pa_proplist *proplist) {
    return CALL(context_new_with_proplist)(api_, name, proplist);
}
pa_stream *interlude_pa_stream_new(pa_context *context, const char *name, const pa_sample_spec *spec,
                                   pa_proplist *proplist) {
    return CALL(stream_new_with_proplist)(context, name, spec, NULL, proplist);
}
void interlude_pa_stream_unref(pa_stream *stream) { CALL(stream_unref)(stream); }
int interlude_pa_stream_connect_playback(pa_stream *stream, const pa_buffer_attr *attributes, pa_stream_flags_t flags) {
    return CALL(stream_connect_playback)(stream, NULL, attributes, flags, NULL, NULL);
}
int interlude_pa_stream_disconnect(pa_stream *stream) { return CALL(stream_disconnect)(stream); }
pa_stream_state_t interlude_pa_stream_get_state(const pa_stream *stream) { return CALL(stream_get_state)(stream); }
uint32_t interlude_pa_stream_get_index(const pa_stream *stream) { return CALL(stream_get_index)(stream); }
size_t interlude_pa_stream_writable_size(const pa_stream *stream) { return CALL(stream_writable_size)(stream); }
int interlude_pa_stream_write(pa_stream *stream, const void *data, size_t bytes, pa_seek_mode_t seek) {
    /* No free callback: libpulse copies the bytes, so the writer's buffer is its own again at once. */
    return CALL(stream_write)(stream, data, bytes, NULL, 0, seek);
}
int interlude_pa_stream_get_latency(pa_stream *stream, pa_usec_t *latency, int *negative) {
    return CALL(stream_get_latency)(stream, latency, negative);
}
const pa_timing_info *interlude_pa_stream_get_timing_info(pa_stream *stream) {
    return CALL(stream_get_timing_info)(stream);
}
const pa_buffer_attr *interlude_pa_stream_get_buffer_attr(pa_stream *stream) {
    return CALL(stream_get_buffer_attr)(stream);
}

/* Every notification the output waits for (a state change, the server asking
   for data, an operation's end) does the same two things: it counts on the
   writer's eventfd, which the writer polls, and wakes whoever waits in
   pa_threaded_mainloop_wait. They run on libpulse's main loop thread. */
static void wake(interlude_pa_waker *waker) {
    uint64_t one = 1;
    if (waker->fd >= 0) {
        ssize_t written = write(waker->fd, &one, sizeof one);
        (void)written; /* an eventfd counter: never full in practice, and a missed count only delays the writer a period */
    }
    CALL(threaded_mainloop_signal)(waker->mainloop, 0);
}
static void wake_on_context(pa_context *context, void *userdata) { (void)context; wake(userdata); }
static void wake_on_stream(pa_stream *stream, void *userdata) { (void)stream; wake(userdata); }
static void count_underflow(pa_stream *stream, void *userdata) {
    (void)stream;
    interlude_pa_waker *waker = userdata;
    waker->underflows += 1;
    wake(waker);
}
static void wake_on_request(pa_stream *stream, size_t bytes, void *userdata) {
    (void)stream;
    (void)bytes;
    wake(userdata);
}
static void wake_on_success(pa_stream *stream, int success, void *userdata) {
    (void)stream;
    (void)success;
    wake(userdata);
}

void interlude_pa_context_set_waker(pa_context *context, interlude_pa_waker *waker) {
    CALL(context_set_state_callback)(context, waker ? wake_on_context : NULL, waker);
}
void interlude_pa_stream_set_waker(pa_stream *stream, interlude_pa_waker *waker) {
    CALL(stream_set_state_callback)(stream, waker ? wake_on_stream : NULL, waker);
    CALL(stream_set_write_callback)(stream, waker ? wake_on_request : NULL, waker);
    CALL(stream_set_underflow_callback)(stream, waker ? count_underflow : NULL, waker);
}

/* Waits, with the main loop locked, until the operation has ended (done, or
   cancelled because the connection died), then releases it. */
static int finish(pa_threaded_mainloop *mainloop, pa_operation *operation) {
    if (operation == NULL) return -1;
    while (CALL(operation_get_state)(operation) == PA_OPERATION_RUNNING) CALL(threaded_mainloop_wait)(mainloop);
    int done = CALL(operation_get_state)(operation) == PA_OPERATION_DONE ? 0 : -1;
    CALL(operation_unref)(operation);
    return done;
}
int interlude_pa_stream_update_timing_info_wait(pa_stream *stream, interlude_pa_waker *waker) {
    return finish(waker->mainloop, CALL(stream_update_timing_info)(stream, wake_on_success, waker));
}
int interlude_pa_stream_cork_wait(pa_stream *stream, int cork, interlude_pa_waker *waker) {
    return finish(waker->mainloop, CALL(stream_cork)(stream, cork, wake_on_success, waker));
}
int interlude_pa_stream_flush_wait(pa_stream *stream, interlude_pa_waker *waker) {
    return finish(waker->mainloop, CALL(stream_flush)(stream, wake_on_success, waker));
}
int interlude_pa_stream_drain_wait(pa_stream *stream, interlude_pa_waker *waker) {
    return finish(waker->mainloop, CALL(stream_drain)(stream, wake_on_success, waker));
}
