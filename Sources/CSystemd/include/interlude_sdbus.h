/* sd-bus (libsystemd) through dlopen, for MPRIS and any other bus client.
   The player maps libsystemd only when a bus is to be used, so a headless
   run without one keeps its footprint; and sd-bus's variadic calls and
   vtable macros, which Swift cannot use, are wrapped here. Every symbol is
   prefixed. Functions return what sd-bus returns: >= 0 success, -errno. */
#ifndef INTERLUDE_SDBUS_H
#define INTERLUDE_SDBUS_H

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

/* 0, or -1 with dlerror()'s message (or the missing symbol) in `message`. */
int interlude_sdbus_load(char *message, size_t capacity);

/* Gives back the resident pages of libsystemd's read-only segments (code,
   constants, symbol tables; never the relocated ones), for after a
   connection's set-up: the kernel maps a file 64 KB around each page touched,
   and loading, connecting, authenticating, owning a name and exporting objects
   run code scattered over most of the library (about 0.6 MB resident) that a
   connection's steady work never runs again. What is used later is read back
   from the page cache. Bytes released, or -errno (-ENOTSUP: text relocations). */
long interlude_sdbus_release_code(void);

int interlude_sdbus_open_user(sd_bus **bus);
int interlude_sdbus_open_system(sd_bus **bus);
void interlude_sdbus_close(sd_bus *bus);
int interlude_sdbus_get_fd(sd_bus *bus);
int interlude_sdbus_get_events(sd_bus *bus);
int interlude_sdbus_get_timeout(sd_bus *bus, uint64_t *usec);
/* One step of the bus's work (reads, dispatches a message); > 0 when more may follow. */
int interlude_sdbus_process(sd_bus *bus);
int interlude_sdbus_flush(sd_bus *bus);
int interlude_sdbus_request_name(sd_bus *bus, const char *name, uint64_t flags);
int interlude_sdbus_add_match(sd_bus *bus, sd_bus_slot **slot, const char *match,
                              sd_bus_message_handler_t callback, void *userdata);
sd_bus_slot *interlude_sdbus_slot_unref(sd_bus_slot *slot);

/* Messages. */
int interlude_sdbus_new_method_call(sd_bus *bus, sd_bus_message **message, const char *destination,
                                    const char *path, const char *interface, const char *member);
int interlude_sdbus_call(sd_bus *bus, sd_bus_message *message, uint64_t usec, sd_bus_error *error,
                         sd_bus_message **reply);
int interlude_sdbus_new_method_return(sd_bus_message *call, sd_bus_message **message);
int interlude_sdbus_new_signal(sd_bus *bus, sd_bus_message **message, const char *path, const char *interface,
                               const char *member);
int interlude_sdbus_send(sd_bus *bus, sd_bus_message *message);
int interlude_sdbus_reply_error(sd_bus_message *call, const char *name, const char *text);
sd_bus_message *interlude_sdbus_message_unref(sd_bus_message *message);
sd_bus *interlude_sdbus_message_get_bus(sd_bus_message *message);
const char *interlude_sdbus_message_get_member(sd_bus_message *message);
int interlude_sdbus_append_basic(sd_bus_message *message, char type, const void *pointer);
int interlude_sdbus_open_container(sd_bus_message *message, char type, const char *contents);
int interlude_sdbus_close_container(sd_bus_message *message);
int interlude_sdbus_enter_container(sd_bus_message *message, char type, const char *contents);
int interlude_sdbus_exit_container(sd_bus_message *message);
int interlude_sdbus_read_basic(sd_bus_message *message, char type, void *pointer);
int interlude_sdbus_peek_type(sd_bus_message *message, char *type, const char **contents);
int interlude_sdbus_skip(sd_bus_message *message, const char *types);
int interlude_sdbus_error_set(sd_bus_error *error, const char *name, const char *text);
void interlude_sdbus_error_free(sd_bus_error *error);
int interlude_sdbus_emit_properties_changed(sd_bus *bus, const char *path, const char *interface, char **names);

/* An object's interface from a plain description, as SD_BUS_METHOD,
   SD_BUS_PROPERTY and SD_BUS_SIGNAL would declare it; every call goes to
   the three callbacks with `userdata`, the member's name telling them apart. */
enum {
    INTERLUDE_SDBUS_METHOD = 0,
    INTERLUDE_SDBUS_PROPERTY = 1,
    INTERLUDE_SDBUS_WRITABLE_PROPERTY = 2,
    INTERLUDE_SDBUS_SIGNAL = 3,
};

typedef struct {
    int kind;
    const char *member;
    /* Arguments (methods, signals) or the property's type. */
    const char *signature;
    /* A method's result. */
    const char *result;
    uint64_t flags;
} interlude_sdbus_member;

typedef int (*interlude_sdbus_method_handler)(sd_bus_message *call, void *userdata, sd_bus_error *error);
typedef int (*interlude_sdbus_property_getter)(const char *property, sd_bus_message *reply, void *userdata,
                                               sd_bus_error *error);
typedef int (*interlude_sdbus_property_setter)(const char *property, sd_bus_message *value, void *userdata,
                                               sd_bus_error *error);

/* The description is copied (names and all); the slot owns the copy: unref
   it with interlude_sdbus_object_remove. */
int interlude_sdbus_add_object(sd_bus *bus, void **object, const char *path, const char *interface,
                               const interlude_sdbus_member *members, size_t count, void *userdata,
                               interlude_sdbus_method_handler method, interlude_sdbus_property_getter get,
                               interlude_sdbus_property_setter set);
void interlude_sdbus_object_remove(void *object);

#endif
