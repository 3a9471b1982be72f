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

#define INTERLUDE_LIST "interlude_sdbus_functions.h"
#include "interlude_list_define.h"

#define CALL(symbol) INTERLUDE_RESOLVED(symbol)

static const char *const files[] = { "libsystemd.so.0" };
static struct interlude_library library = { .files = files, .file_count = 1, INTERLUDE_LIBRARY_LIST };

int interlude_sdbus_load(char *message, size_t capacity) { return interlude_library_load(&library, message, capacity); }
struct interlude_library *interlude_sdbus_library(void) { return &library; }

void interlude_sdbus_close(sd_bus *bus) { CALL(sd_bus_flush_close_unref)(bus); }
int interlude_sdbus_reply_error(sd_bus_message *call, const char *name, const char *text) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    CALL(sd_bus_error_set)(&error, name, text);
    int result = CALL(sd_bus_reply_method_error)(call, &error);
    CALL(sd_bus_error_free)(&error);
    return result;
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
    if (object->slot != NULL) CALL(sd_bus_slot_unref)(object->slot);
    for (size_t i = 0; i < object->string_count; i++) free(object->strings[i]);
    free(object->strings);
    free(object->vtable);
    free(object);
}

int interlude_sdbus_add_object(sd_bus *bus, void **result, const char *path, const char *interface,
                               const interlude_sdbus_member *members, size_t count, void *userdata,
                               interlude_sdbus_method_handler method, interlude_sdbus_property_getter get,
                               interlude_sdbus_property_setter set) {
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
    v[0].x.start.vtable_format_reference = CALL(sd_bus_object_vtable_format);
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
    int r = CALL(sd_bus_add_object_vtable)(bus, &object->slot, path, interface, object->vtable, object);
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
    if (!interlude_library_loaded(&library)) return -ENOSYS;
    struct link_map *map = NULL;
    if (dlinfo(library.handles[0], RTLD_DI_LINKMAP, &map) != 0 || map == NULL) return -EINVAL;
    struct release_target target = { map->l_addr, -EINVAL };
    dl_iterate_phdr(release_segments, &target);
    return target.released;
}
