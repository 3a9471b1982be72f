#define _GNU_SOURCE
#include "interlude_shims.h"
#include <alsa/asoundlib.h>
#include <pthread.h>

static void interlude_ignore_alsa_error(const char *file, int line, const char *function, int err,
                                        const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void interlude_silence_alsa_errors(void) {
    snd_lib_error_set_handler(interlude_ignore_alsa_error);
}

int interlude_name_this_thread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}
