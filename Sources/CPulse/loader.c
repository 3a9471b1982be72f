/* libpulse through dlopen: see interlude_pulse.h for why. */
#include "interlude_pulse.h"

#include <sys/syscall.h>
#include <unistd.h>

#define INTERLUDE_LIST "interlude_pulse_functions.h"
#include "interlude_list_define.h"

#define CALL(symbol) INTERLUDE_RESOLVED(symbol)

static const char *const files[] = { "libpulse.so.0" };
static struct interlude_library library = { .files = files, .file_count = 1, INTERLUDE_LIBRARY_LIST };

int interlude_pulse_load(char *message, size_t capacity) { return interlude_library_load(&library, message, capacity); }
struct interlude_library *interlude_pulse_library(void) { return &library; }

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
    CALL(pa_threaded_mainloop_signal)(waker->mainloop, 0);
}
static void wake_on_context(pa_context *context, void *userdata) {
    (void)context;
    interlude_pa_waker *waker = userdata;
    waker->thread = (pid_t)syscall(SYS_gettid);
    wake(waker);
}
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
    CALL(pa_context_set_state_callback)(context, waker ? wake_on_context : NULL, waker);
}
void interlude_pa_stream_set_waker(pa_stream *stream, interlude_pa_waker *waker) {
    CALL(pa_stream_set_state_callback)(stream, waker ? wake_on_stream : NULL, waker);
    CALL(pa_stream_set_write_callback)(stream, waker ? wake_on_request : NULL, waker);
    CALL(pa_stream_set_underflow_callback)(stream, waker ? count_underflow : NULL, waker);
}

/* Waits, with the main loop locked, until the operation has ended (done, or
   cancelled because the connection died), then releases it. */
static int finish(pa_threaded_mainloop *mainloop, pa_operation *operation) {
    if (operation == NULL) return -1;
    while (CALL(pa_operation_get_state)(operation) == PA_OPERATION_RUNNING) CALL(pa_threaded_mainloop_wait)(mainloop);
    int done = CALL(pa_operation_get_state)(operation) == PA_OPERATION_DONE ? 0 : -1;
    CALL(pa_operation_unref)(operation);
    return done;
}
int interlude_pa_stream_update_timing_info_wait(pa_stream *stream, interlude_pa_waker *waker) {
    return finish(waker->mainloop, CALL(pa_stream_update_timing_info)(stream, wake_on_success, waker));
}
int interlude_pa_stream_cork_wait(pa_stream *stream, int cork, interlude_pa_waker *waker) {
    return finish(waker->mainloop, CALL(pa_stream_cork)(stream, cork, wake_on_success, waker));
}
pa_stream *interlude_pa_stream_open(pa_context *context, const char *name, const pa_sample_spec *spec,
                                    pa_proplist *properties, const pa_buffer_attr *attributes,
                                    pa_stream_flags_t flags, interlude_pa_waker *waker) {
    pa_stream *stream = CALL(pa_stream_new_with_proplist)(context, name, spec, NULL, properties);
    if (stream == NULL) return NULL;
    interlude_pa_stream_set_waker(stream, waker);
    if (CALL(pa_stream_connect_playback)(stream, NULL, attributes, flags, NULL, NULL) >= 0) {
        for (;;) {
            pa_stream_state_t state = CALL(pa_stream_get_state)(stream);
            if (state == PA_STREAM_READY) return stream;
            if (state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED) break;
            CALL(pa_threaded_mainloop_wait)(waker->mainloop);
        }
    }
    interlude_pa_stream_set_waker(stream, NULL);
    CALL(pa_stream_unref)(stream);
    return NULL;
}
int interlude_pa_stream_cork_async(pa_stream *stream, int cork) {
    pa_operation *operation = CALL(pa_stream_cork)(stream, cork, NULL, NULL);
    if (operation == NULL) return -1;
    CALL(pa_operation_unref)(operation);
    return 0;
}
int interlude_pa_stream_flush_wait(pa_stream *stream, interlude_pa_waker *waker) {
    return finish(waker->mainloop, CALL(pa_stream_flush)(stream, wake_on_success, waker));
}
int interlude_pa_stream_drain_wait(pa_stream *stream, interlude_pa_waker *waker) {
    return finish(waker->mainloop, CALL(pa_stream_drain)(stream, wake_on_success, waker));
}
