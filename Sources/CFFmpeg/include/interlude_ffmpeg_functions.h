/* FFmpeg's functions, each named once: see interlude_list_declare.h.
   INTERLUDE_FROM is the file of those after it, an index in loader.c's
   `files` (dependencies first). */
#undef INTERLUDE_FROM
#define INTERLUDE_FROM 0 /* libavutil */
INTERLUDE_CALL(AVFrame *, av_frame_alloc, (void), ())
INTERLUDE_CALL(void, av_frame_free, (AVFrame **frame), (frame))
INTERLUDE_CALL(void, av_frame_unref, (AVFrame *frame), (frame))
INTERLUDE_CALL(int, av_strerror, (int errnum, char *buffer, size_t size), (errnum, buffer, size))
INTERLUDE_CALL(AVDictionaryEntry *, av_dict_get,
               (const AVDictionary *dictionary, const char *key, const AVDictionaryEntry *previous, int flags),
               (dictionary, key, previous, flags))
INTERLUDE_CALL(void, av_channel_layout_default, (AVChannelLayout *layout, int channels), (layout, channels))
INTERLUDE_CALL(int, av_channel_layout_copy, (AVChannelLayout *destination, const AVChannelLayout *source),
               (destination, source))
INTERLUDE_CALL(void, av_channel_layout_uninit, (AVChannelLayout *layout), (layout))
INTERLUDE_CALL(int64_t, av_rescale_q, (int64_t value, AVRational from, AVRational to), (value, from, to))
INTERLUDE_USE(av_log_set_level)
INTERLUDE_USE(av_log_set_callback)
INTERLUDE_USE(av_malloc)
INTERLUDE_CALL(void, av_freep, (void *pointer), (pointer))
INTERLUDE_CALL(int, av_dict_set, (AVDictionary **dictionary, const char *key, const char *value, int flags),
               (dictionary, key, value, flags))
INTERLUDE_CALL(void, av_dict_free, (AVDictionary **dictionary), (dictionary))
INTERLUDE_CALL(int, av_opt_get, (void *object, const char *name, int flags, uint8_t **value), (object, name, flags, value))

#undef INTERLUDE_FROM
#define INTERLUDE_FROM 1 /* libswresample */
INTERLUDE_USE(swr_alloc_set_opts2)
INTERLUDE_USE(swr_init)
INTERLUDE_USE(swr_set_matrix)
INTERLUDE_CALL(void, swr_free, (SwrContext **context), (context))
INTERLUDE_USE(swr_convert)
INTERLUDE_CALL(int64_t, swr_get_delay, (SwrContext *context, int64_t base), (context, base))

#undef INTERLUDE_FROM
#define INTERLUDE_FROM 2 /* libavcodec */
INTERLUDE_CALL(const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))
INTERLUDE_CALL(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))
INTERLUDE_CALL(void, avcodec_free_context, (AVCodecContext **context), (context))
INTERLUDE_CALL(int, avcodec_parameters_to_context, (AVCodecContext *context, const AVCodecParameters *parameters),
               (context, parameters))
INTERLUDE_CALL(int, avcodec_open2, (AVCodecContext *context, const AVCodec *codec, AVDictionary **options),
               (context, codec, options))
INTERLUDE_CALL(int, avcodec_send_packet, (AVCodecContext *context, const AVPacket *packet), (context, packet))
INTERLUDE_CALL(int, avcodec_receive_frame, (AVCodecContext *context, AVFrame *frame), (context, frame))
INTERLUDE_CALL(void, avcodec_flush_buffers, (AVCodecContext *context), (context))
INTERLUDE_CALL(const char *, avcodec_get_name, (enum AVCodecID id), (id))
INTERLUDE_CALL(AVPacket *, av_packet_alloc, (void), ())
INTERLUDE_CALL(void, av_packet_free, (AVPacket **packet), (packet))
INTERLUDE_CALL(void, av_packet_unref, (AVPacket *packet), (packet))
INTERLUDE_CALL(int, av_new_packet, (AVPacket *packet, int size), (packet, size))
INTERLUDE_CALL(void, av_packet_move_ref, (AVPacket *destination, AVPacket *source), (destination, source))
INTERLUDE_CALL(AVCodecParameters *, avcodec_parameters_alloc, (void), ())
INTERLUDE_CALL(void, avcodec_parameters_free, (AVCodecParameters **parameters), (parameters))
INTERLUDE_CALL(int, avcodec_parameters_copy, (AVCodecParameters *destination, const AVCodecParameters *source),
               (destination, source))

#undef INTERLUDE_FROM
#define INTERLUDE_FROM 3 /* libavformat */
/* A stream's URL (StreamReader): the context made by avformat_alloc_context, with its interrupt callback set. */
INTERLUDE_CALL_AS(int, avformat_open_url, (AVFormatContext **context, const char *url, AVDictionary **options),
                  avformat_open_input, (context, url, NULL, options))
INTERLUDE_CALL(AVFormatContext *, avformat_alloc_context, (void), ())
/* A stream's connection, opened before its container so that its content type can set the probe (StreamReader). */
INTERLUDE_CALL_AS(int, avio_open_url,
                  (AVIOContext **io, const char *url, const AVIOInterruptCB *interrupt, AVDictionary **options),
                  avio_open2, (io, url, AVIO_FLAG_READ, interrupt, options))
INTERLUDE_CALL(int, avio_closep, (AVIOContext **io), (io))
INTERLUDE_CALL(int, avformat_network_init, (void), ())
INTERLUDE_USE(avio_alloc_context)
INTERLUDE_USE(avio_context_free)
INTERLUDE_USE(av_find_input_format)
INTERLUDE_CALL(int, avformat_find_stream_info, (AVFormatContext *context), (context, NULL))
INTERLUDE_CALL(int, av_find_best_stream, (AVFormatContext *context, enum AVMediaType type), (context, type, -1, -1, NULL, 0))
INTERLUDE_CALL_AS(void, avformat_close_url, (AVFormatContext **context), avformat_close_input, (context))
INTERLUDE_CALL(int, av_read_frame, (AVFormatContext *context, AVPacket *packet), (context, packet))
INTERLUDE_CALL(int, avformat_seek_file,
               (AVFormatContext *context, int stream, int64_t minimum, int64_t timestamp, int64_t maximum, int flags),
               (context, stream, minimum, timestamp, maximum, flags))
