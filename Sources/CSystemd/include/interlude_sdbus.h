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
#include "interlude_shims.h"

/* Loads libsystemd.so.0 and resolves what the wrappers call:
   interlude_library_load's rule (0, or -1 with "<file>: <why>" in `message`).
   Calling a wrapper before a successful load is a programming error (it traps). */
int interlude_sdbus_load(char *message, size_t capacity);

/* The library as the loader sees it (its list, whether it loaded): for tests. */
struct interlude_library *interlude_sdbus_library(void);

/* Gives back the resident pages of libsystemd's read-only segments (code,
   constants, symbol tables; never the relocated ones), for after a
   connection's set-up: the kernel maps a file 64 KB around each page touched,
   and loading, connecting, authenticating, owning a name and exporting objects
   run code scattered over most of the library (about 0.6 MB resident) that a
   connection's steady work never runs again. What is used later is read back
   from the page cache. Bytes released, or -errno (-ENOTSUP: text relocations). */
long interlude_sdbus_release_code(void);

#define INTERLUDE_LIST "interlude_sdbus_functions.h"
#include "interlude_list_declare.h"
#undef INTERLUDE_LIST

void interlude_sdbus_close(sd_bus *bus);
int interlude_sdbus_reply_error(sd_bus_message *call, const char *name, const char *text);

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
