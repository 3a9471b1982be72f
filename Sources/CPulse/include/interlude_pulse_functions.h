/* libpulse's functions, each named once: see interlude_list_declare.h. */
/* The desktop connection (SoundServerConnection), on the player's main thread. */
INTERLUDE_CALL(pa_context *, pa_context_new, (pa_mainloop_api *mainloop, const char *name), (mainloop, name))
INTERLUDE_CALL(void, pa_context_unref, (pa_context *context), (context))
INTERLUDE_CALL(int, pa_context_connect, (pa_context *context, const char *server, pa_context_flags_t flags),
               (context, server, flags, NULL))
INTERLUDE_CALL(void, pa_context_disconnect, (pa_context *context), (context))
INTERLUDE_CALL(pa_context_state_t, pa_context_get_state, (const pa_context *context), (context))
INTERLUDE_CALL(int, pa_context_errno, (const pa_context *context), (context))
INTERLUDE_CALL(void, pa_context_set_state_callback, (pa_context *context, pa_context_notify_cb_t callback, void *userdata),
               (context, callback, userdata))
INTERLUDE_CALL(void, pa_context_set_subscribe_callback,
               (pa_context *context, pa_context_subscribe_cb_t callback, void *userdata), (context, callback, userdata))
INTERLUDE_CALL(pa_operation *, pa_context_subscribe,
               (pa_context *context, pa_subscription_mask_t mask, pa_context_success_cb_t callback, void *userdata),
               (context, mask, callback, userdata))
INTERLUDE_CALL(pa_operation *, pa_context_get_sink_input_info,
               (pa_context *context, uint32_t index, pa_sink_input_info_cb_t callback, void *userdata),
               (context, index, callback, userdata))
INTERLUDE_CALL(pa_operation *, pa_context_get_sink_input_info_list,
               (pa_context *context, pa_sink_input_info_cb_t callback, void *userdata), (context, callback, userdata))
INTERLUDE_CALL(void, pa_operation_unref, (pa_operation *operation), (operation))
INTERLUDE_CALL(const char *, pa_proplist_gets, (const pa_proplist *proplist, const char *key), (proplist, key))
INTERLUDE_CALL(const char *, pa_strerror, (int error), (error))

/* The playback output (PulseOutput): see interlude_pulse.h. */
INTERLUDE_CALL(pa_threaded_mainloop *, pa_threaded_mainloop_new, (void), ())
INTERLUDE_CALL(void, pa_threaded_mainloop_free, (pa_threaded_mainloop *mainloop), (mainloop))
INTERLUDE_CALL(int, pa_threaded_mainloop_start, (pa_threaded_mainloop *mainloop), (mainloop))
INTERLUDE_CALL(void, pa_threaded_mainloop_stop, (pa_threaded_mainloop *mainloop), (mainloop))
INTERLUDE_CALL(void, pa_threaded_mainloop_lock, (pa_threaded_mainloop *mainloop), (mainloop))
INTERLUDE_CALL(void, pa_threaded_mainloop_unlock, (pa_threaded_mainloop *mainloop), (mainloop))
INTERLUDE_CALL(void, pa_threaded_mainloop_wait, (pa_threaded_mainloop *mainloop), (mainloop))
INTERLUDE_USE(pa_threaded_mainloop_signal)
INTERLUDE_CALL(pa_mainloop_api *, pa_threaded_mainloop_get_api, (pa_threaded_mainloop *mainloop), (mainloop))
INTERLUDE_CALL(pa_proplist *, pa_proplist_new, (void), ())
INTERLUDE_CALL(void, pa_proplist_free, (pa_proplist *proplist), (proplist))
INTERLUDE_CALL(int, pa_proplist_sets, (pa_proplist *proplist, const char *key, const char *value), (proplist, key, value))
INTERLUDE_CALL(pa_context *, pa_context_new_with_proplist,
               (pa_mainloop_api *mainloop, const char *name, const pa_proplist *proplist), (mainloop, name, proplist))
/* The default channel map for the spec's channel count. */
INTERLUDE_CALL_AS(pa_stream *, pa_stream_new,
                  (pa_context *context, const char *name, const pa_sample_spec *spec, pa_proplist *proplist),
                  pa_stream_new_with_proplist, (context, name, spec, NULL, proplist))
INTERLUDE_CALL(void, pa_stream_unref, (pa_stream *stream), (stream))
/* To the default sink (PULSE_SINK, or the server's), at the server's volume. */
INTERLUDE_CALL(int, pa_stream_connect_playback,
               (pa_stream *stream, const pa_buffer_attr *attributes, pa_stream_flags_t flags),
               (stream, NULL, attributes, flags, NULL, NULL))
INTERLUDE_CALL(int, pa_stream_disconnect, (pa_stream *stream), (stream))
INTERLUDE_CALL(pa_stream_state_t, pa_stream_get_state, (const pa_stream *stream), (stream))
INTERLUDE_CALL(uint32_t, pa_stream_get_index, (const pa_stream *stream), (stream))
INTERLUDE_USE(pa_stream_set_state_callback)
INTERLUDE_USE(pa_stream_set_write_callback)
INTERLUDE_USE(pa_stream_set_underflow_callback)
INTERLUDE_CALL(size_t, pa_stream_writable_size, (const pa_stream *stream), (stream))
/* At offset 0 from `seek`, no free callback: libpulse copies the bytes, so
   the writer's buffer is its own again at once. */
INTERLUDE_CALL(int, pa_stream_write, (pa_stream *stream, const void *data, size_t bytes, pa_seek_mode_t seek),
               (stream, data, bytes, NULL, 0, seek))
INTERLUDE_CALL(int, pa_stream_get_latency, (pa_stream *stream, pa_usec_t *latency, int *negative),
               (stream, latency, negative))
INTERLUDE_CALL(const pa_timing_info *, pa_stream_get_timing_info, (pa_stream *stream), (stream))
INTERLUDE_USE(pa_stream_update_timing_info)
INTERLUDE_USE(pa_stream_cork)
/* A live stream's properties (its media.role while an alarm rings): the server's policy modules see the change. */
INTERLUDE_CALL(pa_operation *, pa_stream_proplist_update,
               (pa_stream *stream, pa_update_mode_t mode, pa_proplist *proplist, pa_stream_success_cb_t callback, void *userdata),
               (stream, mode, proplist, callback, userdata))
INTERLUDE_USE(pa_stream_flush)
INTERLUDE_USE(pa_stream_drain)
INTERLUDE_CALL(const pa_buffer_attr *, pa_stream_get_buffer_attr, (pa_stream *stream), (stream))
INTERLUDE_USE(pa_operation_get_state)
