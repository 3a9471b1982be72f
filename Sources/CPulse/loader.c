/* libpulse through dlopen: see interlude_pulse.h for why. */
#include "interlude_pulse.h"

#include <dlfcn.h>
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
} api;

static void *need(void *pointer) {
    if (pointer == NULL) abort();
    return pointer;
}

static void copy_message(char *message, size_t capacity, const char *text) {
    if (capacity == 0) return;
    strncpy(message, text ? text : "unknown error", capacity - 1);
    message[capacity - 1] = '\0';
}

int interlude_pulse_load(char *message, size_t capacity) {
    if (api.library != NULL) return 0;
    void *library = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        copy_message(message, capacity, dlerror());
        return -1;
    }
    struct { const char *name; void **slot; } symbols[] = {
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
#undef SYMBOL
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        dlerror();
        void *address = dlsym(library, symbols[i].name);
        if (address == NULL) {
            const char *error = dlerror();
            copy_message(message, capacity, error ? error : symbols[i].name);
            memset(&api, 0, sizeof api);
            dlclose(library);
            return -1;
        }
        *symbols[i].slot = address;
    }
    api.library = library;
    return 0;
}

#define CALL(field) ((__typeof__(api.field))need((void *)api.field))

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
