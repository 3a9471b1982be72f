/* sd-bus's functions, each named once: see interlude_list_declare.h. Each
   wrapper returns what sd-bus returns: >= 0 success, -errno. */
INTERLUDE_CALL_AS(int, sdbus_open_user, (sd_bus **bus), sd_bus_open_user, (bus))
INTERLUDE_CALL_AS(int, sdbus_open_system, (sd_bus **bus), sd_bus_open_system, (bus))
INTERLUDE_USE(sd_bus_flush_close_unref)
INTERLUDE_CALL_AS(int, sdbus_get_fd, (sd_bus *bus), sd_bus_get_fd, (bus))
INTERLUDE_CALL_AS(int, sdbus_get_events, (sd_bus *bus), sd_bus_get_events, (bus))
INTERLUDE_CALL_AS(int, sdbus_get_timeout, (sd_bus *bus, uint64_t *usec), sd_bus_get_timeout, (bus, usec))
/* One step of the bus's work (reads, dispatches a message); > 0 when more may follow. */
INTERLUDE_CALL_AS(int, sdbus_process, (sd_bus *bus), sd_bus_process, (bus, NULL))
INTERLUDE_CALL_AS(int, sdbus_flush, (sd_bus *bus), sd_bus_flush, (bus))
INTERLUDE_CALL_AS(int, sdbus_request_name, (sd_bus *bus, const char *name, uint64_t flags), sd_bus_request_name,
                  (bus, name, flags))
INTERLUDE_CALL_AS(int, sdbus_add_match,
                  (sd_bus *bus, sd_bus_slot **slot, const char *match, sd_bus_message_handler_t callback, void *userdata),
                  sd_bus_add_match, (bus, slot, match, callback, userdata))
INTERLUDE_CALL_AS(sd_bus_slot *, sdbus_slot_unref, (sd_bus_slot *slot), sd_bus_slot_unref, (slot))

/* Messages. */
INTERLUDE_CALL_AS(int, sdbus_new_method_call,
                  (sd_bus *bus, sd_bus_message **message, const char *destination, const char *path,
                   const char *interface, const char *member),
                  sd_bus_message_new_method_call, (bus, message, destination, path, interface, member))
INTERLUDE_CALL_AS(int, sdbus_call,
                  (sd_bus *bus, sd_bus_message *message, uint64_t usec, sd_bus_error *error, sd_bus_message **reply),
                  sd_bus_call, (bus, message, usec, error, reply))
/* A call whose reply (or error, or timeout) reaches `callback` from sdbus_process; the slot floats (the bus owns it). */
INTERLUDE_CALL_AS(int, sdbus_call_async,
                  (sd_bus *bus, sd_bus_message *message, sd_bus_message_handler_t callback, void *userdata, uint64_t usec),
                  sd_bus_call_async, (bus, NULL, message, callback, userdata, usec))
INTERLUDE_CALL_AS(const sd_bus_error *, sdbus_message_get_error, (sd_bus_message *message), sd_bus_message_get_error,
                  (message))
INTERLUDE_CALL_AS(const char *, sdbus_message_get_sender, (sd_bus_message *message), sd_bus_message_get_sender,
                  (message))
INTERLUDE_CALL_AS(int, sdbus_new_method_return, (sd_bus_message *call, sd_bus_message **message),
                  sd_bus_message_new_method_return, (call, message))
INTERLUDE_CALL_AS(int, sdbus_new_signal,
                  (sd_bus *bus, sd_bus_message **message, const char *path, const char *interface, const char *member),
                  sd_bus_message_new_signal, (bus, message, path, interface, member))
INTERLUDE_CALL_AS(int, sdbus_send, (sd_bus *bus, sd_bus_message *message), sd_bus_send, (bus, message, NULL))
INTERLUDE_USE(sd_bus_reply_method_error)
INTERLUDE_CALL_AS(sd_bus_message *, sdbus_message_unref, (sd_bus_message *message), sd_bus_message_unref, (message))
INTERLUDE_CALL_AS(sd_bus *, sdbus_message_get_bus, (sd_bus_message *message), sd_bus_message_get_bus, (message))
INTERLUDE_CALL_AS(const char *, sdbus_message_get_member, (sd_bus_message *message), sd_bus_message_get_member,
                  (message))
INTERLUDE_CALL_AS(int, sdbus_append_basic, (sd_bus_message *message, char type, const void *pointer),
                  sd_bus_message_append_basic, (message, type, pointer))
INTERLUDE_CALL_AS(int, sdbus_open_container, (sd_bus_message *message, char type, const char *contents),
                  sd_bus_message_open_container, (message, type, contents))
INTERLUDE_CALL_AS(int, sdbus_close_container, (sd_bus_message *message), sd_bus_message_close_container, (message))
INTERLUDE_CALL_AS(int, sdbus_enter_container, (sd_bus_message *message, char type, const char *contents),
                  sd_bus_message_enter_container, (message, type, contents))
INTERLUDE_CALL_AS(int, sdbus_exit_container, (sd_bus_message *message), sd_bus_message_exit_container, (message))
INTERLUDE_CALL_AS(int, sdbus_read_basic, (sd_bus_message *message, char type, void *pointer),
                  sd_bus_message_read_basic, (message, type, pointer))
INTERLUDE_CALL_AS(int, sdbus_peek_type, (sd_bus_message *message, char *type, const char **contents),
                  sd_bus_message_peek_type, (message, type, contents))
INTERLUDE_CALL_AS(int, sdbus_skip, (sd_bus_message *message, const char *types), sd_bus_message_skip, (message, types))
INTERLUDE_CALL_AS(int, sdbus_error_set, (sd_bus_error *error, const char *name, const char *text), sd_bus_error_set,
                  (error, name, text))
INTERLUDE_CALL_AS(void, sdbus_error_free, (sd_bus_error *error), sd_bus_error_free, (error))
INTERLUDE_CALL_AS(int, sdbus_emit_properties_changed, (sd_bus *bus, const char *path, const char *interface, char **names),
                  sd_bus_emit_properties_changed_strv, (bus, path, interface, names))

/* An exported object's vtable, and the format it names (SD_BUS_VTABLE_START's). */
INTERLUDE_USE(sd_bus_add_object_vtable)
INTERLUDE_USE(sd_bus_object_vtable_format)
