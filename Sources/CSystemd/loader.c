/* sd-bus through dlopen: see interlude_sdbus.h for why. */
#define _GNU_SOURCE
#include "interlude_sdbus.h"
#include "interlude_shims.h"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct {
    void *library;
    const unsigned *vtable_format;
    int (*open_user)(sd_bus **);
    int (*open_system)(sd_bus **);
    sd_bus *(*flush_close_unref)(sd_bus *);
    int (*get_fd)(sd_bus *);
    int (*get_events)(sd_bus *);
    int (*get_timeout)(sd_bus *, uint64_t *);
    int (*process)(sd_bus *, sd_bus_message **);
    int (*flush)(sd_bus *);
    int (*request_name)(sd_bus *, const char *, uint64_t);
    int (*add_match)(sd_bus *, sd_bus_slot **, const char *, sd_bus_message_handler_t, void *);
    sd_bus_slot *(*slot_unref)(sd_bus_slot *);
    int (*new_method_call)(sd_bus *, sd_bus_message **, const char *, const char *, const char *, const char *);
    int (*call)(sd_bus *, sd_bus_message *, uint64_t, sd_bus_error *, sd_bus_message **);
    int (*new_method_return)(sd_bus_message *, sd_bus_message **);
    int (*new_signal)(sd_bus *, sd_bus_message **, const char *, const char *, const char *);
    int (*send)(sd_bus *, sd_bus_message *, uint64_t *);
    int (*reply_method_error)(sd_bus_message *, const sd_bus_error *);
    sd_bus_message *(*message_unref)(sd_bus_message *);
    sd_bus *(*message_get_bus)(sd_bus_message *);
    const char *(*message_get_member)(sd_bus_message *);
    int (*append_basic)(sd_bus_message *, char, const void *);
    int (*open_container)(sd_bus_message *, char, const char *);
    int (*close_container)(sd_bus_message *);
    int (*enter_container)(sd_bus_message *, char, const char *);
    int (*exit_container)(sd_bus_message *);
    int (*read_basic)(sd_bus_message *, char, void *);
    int (*peek_type)(sd_bus_message *, char *, const char **);
    int (*skip)(sd_bus_message *, const char *);
    int (*error_set)(sd_bus_error *, const char *, const char *);
    void (*error_free)(sd_bus_error *);
    int (*emit_properties_changed_strv)(sd_bus *, const char *, const char *, char **);
    int (*add_object_vtable)(sd_bus *, sd_bus_slot **, const char *, const char *, const sd_bus_vtable *, void *);
} api;

int interlude_sdbus_load(char *message, size_t capacity) {
    if (api.library != NULL) return 0;
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        interlude_copy_message(message, capacity, dlerror());
        return -1;
    }
    const struct interlude_symbol symbols[] = {
#define SYMBOL(field, name) { name, (void **)&api.field }
        SYMBOL(vtable_format, "sd_bus_object_vtable_format"),
        SYMBOL(open_user, "sd_bus_open_user"),
        SYMBOL(open_system, "sd_bus_open_system"),
        SYMBOL(flush_close_unref, "sd_bus_flush_close_unref"),
        SYMBOL(get_fd, "sd_bus_get_fd"),
        SYMBOL(get_events, "sd_bus_get_events"),
        SYMBOL(get_timeout, "sd_bus_get_timeout"),
        SYMBOL(process, "sd_bus_process"),
        SYMBOL(flush, "sd_bus_flush"),
        SYMBOL(request_name, "sd_bus_request_name"),
        SYMBOL(add_match, "sd_bus_add_match"),
        SYMBOL(slot_unref, "sd_bus_slot_unref"),
        SYMBOL(new_method_call, "sd_bus_message_new_method_call"),
        SYMBOL(call, "sd_bus_call"),
        SYMBOL(new_method_return, "sd_bus_message_new_method_return"),
        SYMBOL(new_signal, "sd_bus_message_new_signal"),
        SYMBOL(send, "sd_bus_send"),
        SYMBOL(reply_method_error, "sd_bus_reply_method_error"),
        SYMBOL(message_unref, "sd_bus_message_unref"),
        SYMBOL(message_get_bus, "sd_bus_message_get_bus"),
        SYMBOL(message_get_member, "sd_bus_message_get_member"),
        SYMBOL(append_basic, "sd_bus_message_append_basic"),
        SYMBOL(open_container, "sd_bus_message_open_container"),
        SYMBOL(close_container, "sd_bus_message_close_container"),
        SYMBOL(enter_container, "sd_bus_message_enter_container"),
        SYMBOL(exit_container, "sd_bus_message_exit_container"),
        SYMBOL(read_basic, "sd_bus_message_read_basic"),
        SYMBOL(peek_type, "sd_bus_message_peek_type"),
        SYMBOL(skip, "sd_bus_message_skip"),
        SYMBOL(error_set, "sd_bus_error_set"),
        SYMBOL(error_free, "sd_bus_error_free"),
        SYMBOL(emit_properties_changed_strv, "sd_bus_emit_properties_changed_strv"),
        SYMBOL(add_object_vtable, "sd_bus_add_object_vtable"),
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

/* A wrapper called before a successful load is a bug: fail as sd-bus would on a bad argument. */
#define NEED(field) do { if (api.field == NULL) return -ENOSYS; } while (0)

int interlude_sdbus_open_user(sd_bus **bus) { NEED(open_user); return api.open_user(bus); }
int interlude_sdbus_open_system(sd_bus **bus) { NEED(open_system); return api.open_system(bus); }
void interlude_sdbus_close(sd_bus *bus) { if (api.flush_close_unref && bus) api.flush_close_unref(bus); }
int interlude_sdbus_get_fd(sd_bus *bus) { NEED(get_fd); return api.get_fd(bus); }
int interlude_sdbus_get_events(sd_bus *bus) { NEED(get_events); return api.get_events(bus); }
int interlude_sdbus_get_timeout(sd_bus *bus, uint64_t *usec) { NEED(get_timeout); return api.get_timeout(bus, usec); }
int interlude_sdbus_process(sd_bus *bus) { NEED(process); return api.process(bus, NULL); }
int interlude_sdbus_flush(sd_bus *bus) { NEED(flush); return api.flush(bus); }
int interlude_sdbus_request_name(sd_bus *bus, const char *name, uint64_t flags) {
    NEED(request_name);
    return api.request_name(bus, name, flags);
}
int interlude_sdbus_add_match(sd_bus *bus, sd_bus_slot **slot, const char *match, sd_bus_message_handler_t callback,
                              void *userdata) {
    NEED(add_match);
    return api.add_match(bus, slot, match, callback, userdata);
}
sd_bus_slot *interlude_sdbus_slot_unref(sd_bus_slot *slot) { return api.slot_unref ? api.slot_unref(slot) : NULL; }

int interlude_sdbus_new_method_call(sd_bus *bus, sd_bus_message **message, const char *destination, const char *path,
                                    const char *interface, const char *member) {
    NEED(new_method_call);
    return api.new_method_call(bus, message, destination, path, interface, member);
}
int interlude_sdbus_call(sd_bus *bus, sd_bus_message *message, uint64_t usec, sd_bus_error *error,
                         sd_bus_message **reply) {
    NEED(call);
    return api.call(bus, message, usec, error, reply);
}
int interlude_sdbus_new_method_return(sd_bus_message *call, sd_bus_message **message) {
    NEED(new_method_return);
    return api.new_method_return(call, message);
}
int interlude_sdbus_new_signal(sd_bus *bus, sd_bus_message **message, const char *path, const char *interface,
                               const char *member) {
    NEED(new_signal);
    return api.new_signal(bus, message, path, interface, member);
}
int interlude_sdbus_send(sd_bus *bus, sd_bus_message *message) { NEED(send); return api.send(bus, message, NULL); }
int interlude_sdbus_reply_error(sd_bus_message *call, const char *name, const char *text) {
    NEED(reply_method_error);
    sd_bus_error error = SD_BUS_ERROR_NULL;
    api.error_set(&error, name, text);
    int result = api.reply_method_error(call, &error);
    api.error_free(&error);
    return result;
}
sd_bus_message *interlude_sdbus_message_unref(sd_bus_message *message) {
    return api.message_unref ? api.message_unref(message) : NULL;
}
sd_bus *interlude_sdbus_message_get_bus(sd_bus_message *message) {
    return api.message_get_bus ? api.message_get_bus(message) : NULL;
}
const char *interlude_sdbus_message_get_member(sd_bus_message *message) {
    return api.message_get_member ? api.message_get_member(message) : NULL;
}
int interlude_sdbus_append_basic(sd_bus_message *message, char type, const void *pointer) {
    NEED(append_basic);
    return api.append_basic(message, type, pointer);
}
int interlude_sdbus_open_container(sd_bus_message *message, char type, const char *contents) {
    NEED(open_container);
    return api.open_container(message, type, contents);
}
int interlude_sdbus_close_container(sd_bus_message *message) { NEED(close_container); return api.close_container(message); }
int interlude_sdbus_enter_container(sd_bus_message *message, char type, const char *contents) {
    NEED(enter_container);
    return api.enter_container(message, type, contents);
}
int interlude_sdbus_exit_container(sd_bus_message *message) { NEED(exit_container); return api.exit_container(message); }
int interlude_sdbus_read_basic(sd_bus_message *message, char type, void *pointer) {
    NEED(read_basic);
    return api.read_basic(message, type, pointer);
}
int interlude_sdbus_peek_type(sd_bus_message *message, char *type, const char **contents) {
    NEED(peek_type);
    return api.peek_type(message, type, contents);
}
int interlude_sdbus_skip(sd_bus_message *message, const char *types) { NEED(skip); return api.skip(message, types); }
int interlude_sdbus_error_set(sd_bus_error *error, const char *name, const char *text) {
    NEED(error_set);
    return api.error_set(error, name, text);
}
void interlude_sdbus_error_free(sd_bus_error *error) { if (api.error_free) api.error_free(error); }
int interlude_sdbus_emit_properties_changed(sd_bus *bus, const char *path, const char *interface, char **names) {
    NEED(emit_properties_changed_strv);
    return api.emit_properties_changed_strv(bus, path, interface, names);
}

/* An exported interface: the vtable sd-bus reads for as long as the slot
   lives, the strings it points to, and the callbacks. */
typedef struct {
    sd_bus_slot *slot;
    sd_bus_vtable *vtable;
    char **strings;
    size_t string_count;
    void *userdata;
    interlude_sdbus_method_handler method;
    interlude_sdbus_property_getter get;
    interlude_sdbus_property_setter set;
} exported_object;

static int method_trampoline(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    exported_object *object = userdata;
    return object->method(call, object->userdata, error);
}

static int getter_trampoline(sd_bus *bus, const char *path, const char *interface, const char *property,
                             sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface;
    exported_object *object = userdata;
    return object->get(property, reply, object->userdata, error);
}

static int setter_trampoline(sd_bus *bus, const char *path, const char *interface, const char *property,
                             sd_bus_message *value, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface;
    exported_object *object = userdata;
    return object->set(property, value, object->userdata, error);
}

static const char *keep(exported_object *object, const char *text) {
    char *copy = strdup(text ? text : "");
    if (copy != NULL) object->strings[object->string_count++] = copy;
    return copy;
}

void interlude_sdbus_object_remove(void *pointer) {
    exported_object *object = pointer;
    if (object == NULL) return;
    if (object->slot != NULL && api.slot_unref) api.slot_unref(object->slot);
    for (size_t i = 0; i < object->string_count; i++) free(object->strings[i]);
    free(object->strings);
    free(object->vtable);
    free(object);
}

int interlude_sdbus_add_object(sd_bus *bus, void **result, const char *path, const char *interface,
                               const interlude_sdbus_member *members, size_t count, void *userdata,
                               interlude_sdbus_method_handler method, interlude_sdbus_property_getter get,
                               interlude_sdbus_property_setter set) {
    NEED(add_object_vtable);
    exported_object *object = calloc(1, sizeof *object);
    if (object == NULL) return -ENOMEM;
    object->vtable = calloc(count + 2, sizeof(sd_bus_vtable));
    object->strings = calloc(count * 3 + 1, sizeof(char *));
    if (object->vtable == NULL || object->strings == NULL) {
        interlude_sdbus_object_remove(object);
        return -ENOMEM;
    }
    object->userdata = userdata;
    object->method = method;
    object->get = get;
    object->set = set;
    sd_bus_vtable *v = object->vtable;
    /* What SD_BUS_VTABLE_START writes, with the format symbol resolved at load. */
    v[0].type = _SD_BUS_VTABLE_START;
    v[0].flags = 0;
    v[0].x.start.element_size = sizeof(sd_bus_vtable);
    v[0].x.start.features = _SD_BUS_VTABLE_PARAM_NAMES;
    v[0].x.start.vtable_format_reference = api.vtable_format;
    for (size_t i = 0; i < count; i++) {
        sd_bus_vtable *entry = &v[i + 1];
        const interlude_sdbus_member *member = &members[i];
        entry->flags = member->flags;
        switch (member->kind) {
        case INTERLUDE_SDBUS_METHOD:
            entry->type = _SD_BUS_VTABLE_METHOD;
            entry->x.method.member = keep(object, member->member);
            entry->x.method.signature = keep(object, member->signature);
            entry->x.method.result = keep(object, member->result);
            entry->x.method.handler = method_trampoline;
            entry->x.method.offset = 0;
            entry->x.method.names = "";
            break;
        case INTERLUDE_SDBUS_PROPERTY:
        case INTERLUDE_SDBUS_WRITABLE_PROPERTY:
            entry->type = member->kind == INTERLUDE_SDBUS_PROPERTY ? _SD_BUS_VTABLE_PROPERTY
                                                                    : _SD_BUS_VTABLE_WRITABLE_PROPERTY;
            entry->x.property.member = keep(object, member->member);
            entry->x.property.signature = keep(object, member->signature);
            entry->x.property.get = getter_trampoline;
            entry->x.property.set = member->kind == INTERLUDE_SDBUS_PROPERTY ? NULL : setter_trampoline;
            entry->x.property.offset = 0;
            break;
        default:
            entry->type = _SD_BUS_VTABLE_SIGNAL;
            entry->x.signal.member = keep(object, member->member);
            entry->x.signal.signature = keep(object, member->signature);
            entry->x.signal.names = "";
            break;
        }
    }
    v[count + 1].type = _SD_BUS_VTABLE_END;
    int r = api.add_object_vtable(bus, &object->slot, path, interface, object->vtable, object);
    if (r < 0) {
        interlude_sdbus_object_remove(object);
        return r;
    }
    *result = object;
    return 0;
}

/* The pages of libsystemd that setting up a connection touched, given back:
   see interlude_sdbus.h and interlude_release_clean_segments. */
struct release_target { ElfW(Addr) base; long released; };

static int release_segments(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct release_target *target = data;
    if (info->dlpi_addr != target->base) return 0;
    target->released = interlude_release_clean_segments(info, 0);
    return 1;
}

long interlude_sdbus_release_code(void) {
    if (api.library == NULL) return -ENOSYS;
    struct link_map *map = NULL;
    if (dlinfo(api.library, RTLD_DI_LINKMAP, &map) != 0 || map == NULL) return -EINVAL;
    struct release_target target = { map->l_addr, -EINVAL };
    dl_iterate_phdr(release_segments, &target);
    return target.released;
}
