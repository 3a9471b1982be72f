/* FFmpeg's libraries through dlopen: see interlude_ffmpeg.h for why. */
#include "interlude_ffmpeg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define STRINGIFY2(x) #x
#define STRINGIFY(x) STRINGIFY2(x)

static struct {
    int loaded;
    AVFrame *(*av_frame_alloc)(void);
    void (*av_frame_free)(AVFrame **);
    void (*av_frame_unref)(AVFrame *);
    int (*av_strerror)(int, char *, size_t);
    AVDictionaryEntry *(*av_dict_get)(const AVDictionary *, const char *, const AVDictionaryEntry *, int);
    void (*av_channel_layout_default)(AVChannelLayout *, int);
    int (*av_channel_layout_copy)(AVChannelLayout *, const AVChannelLayout *);
    void (*av_channel_layout_uninit)(AVChannelLayout *);
    int64_t (*av_rescale_q)(int64_t, AVRational, AVRational);
    void (*av_log_set_level)(int);

    const AVCodec *(*avcodec_find_decoder)(enum AVCodecID);
    AVCodecContext *(*avcodec_alloc_context3)(const AVCodec *);
    void (*avcodec_free_context)(AVCodecContext **);
    int (*avcodec_parameters_to_context)(AVCodecContext *, const AVCodecParameters *);
    int (*avcodec_open2)(AVCodecContext *, const AVCodec *, AVDictionary **);
    int (*avcodec_send_packet)(AVCodecContext *, const AVPacket *);
    int (*avcodec_receive_frame)(AVCodecContext *, AVFrame *);
    void (*avcodec_flush_buffers)(AVCodecContext *);
    const char *(*avcodec_get_name)(enum AVCodecID);
    AVPacket *(*av_packet_alloc)(void);
    void (*av_packet_free)(AVPacket **);
    void (*av_packet_unref)(AVPacket *);

    int (*avformat_open_input)(AVFormatContext **, const char *, const AVInputFormat *, AVDictionary **);
    const AVInputFormat *(*av_find_input_format)(const char *);
    int (*avformat_find_stream_info)(AVFormatContext *, AVDictionary **);
    int (*av_find_best_stream)(AVFormatContext *, enum AVMediaType, int, int, const AVCodec **, int);
    void (*avformat_close_input)(AVFormatContext **);
    int (*av_read_frame)(AVFormatContext *, AVPacket *);
    int (*avformat_seek_file)(AVFormatContext *, int, int64_t, int64_t, int64_t, int);

    int (*swr_alloc_set_opts2)(SwrContext **, const AVChannelLayout *, enum AVSampleFormat, int,
                               const AVChannelLayout *, enum AVSampleFormat, int, int, void *);
    int (*swr_init)(SwrContext *);
    int (*swr_set_matrix)(SwrContext *, const double *, int);
    void (*swr_free)(SwrContext **);
    int (*swr_convert)(SwrContext *, uint8_t **, int, const uint8_t **, int);
    int64_t (*swr_get_delay)(SwrContext *, int64_t);
} api;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

static void *need(void *pointer) {
    if (pointer == NULL) abort();
    return pointer;
}

static void copy_message(char *message, size_t capacity, const char *text) {
    if (capacity == 0) return;
    strncpy(message, text ? text : "unknown error", capacity - 1);
    message[capacity - 1] = '\0';
}

struct symbol { const char *name; void **slot; };

static int resolve(void *library, const struct symbol *symbols, size_t count, char *message, size_t capacity) {
    for (size_t i = 0; i < count; i++) {
        dlerror();
        void *address = dlsym(library, symbols[i].name);
        if (address == NULL) {
            const char *error = dlerror();
            copy_message(message, capacity, error ? error : symbols[i].name);
            return -1;
        }
        *symbols[i].slot = address;
    }
    return 0;
}

#define SYMBOL(name) { #name, (void **)&api.name }

static int load_locked(char *message, size_t capacity) {
    /* The sonames of the headers this file was compiled with: a library of
       another major version has other structure layouts. Dependencies first,
       so each library finds what it needs already mapped. */
    static const char *const names[] = {
        "libavutil.so." STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
        "libswresample.so." STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR),
        "libavcodec.so." STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
        "libavformat.so." STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    };
    void *libraries[4] = { NULL, NULL, NULL, NULL };
    for (size_t i = 0; i < 4; i++) {
        libraries[i] = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (libraries[i] == NULL) {
            copy_message(message, capacity, dlerror());
            goto fail;
        }
    }
    const struct symbol avutil[] = {
        SYMBOL(av_frame_alloc), SYMBOL(av_frame_free), SYMBOL(av_frame_unref), SYMBOL(av_strerror),
        SYMBOL(av_dict_get), SYMBOL(av_channel_layout_default), SYMBOL(av_channel_layout_copy),
        SYMBOL(av_channel_layout_uninit), SYMBOL(av_rescale_q), SYMBOL(av_log_set_level),
    };
    const struct symbol swresample[] = {
        SYMBOL(swr_alloc_set_opts2), SYMBOL(swr_init), SYMBOL(swr_set_matrix), SYMBOL(swr_free), SYMBOL(swr_convert), SYMBOL(swr_get_delay),
    };
    const struct symbol avcodec[] = {
        SYMBOL(avcodec_find_decoder), SYMBOL(avcodec_alloc_context3), SYMBOL(avcodec_free_context),
        SYMBOL(avcodec_parameters_to_context), SYMBOL(avcodec_open2), SYMBOL(avcodec_send_packet),
        SYMBOL(avcodec_receive_frame), SYMBOL(avcodec_flush_buffers), SYMBOL(avcodec_get_name),
        SYMBOL(av_packet_alloc), SYMBOL(av_packet_free), SYMBOL(av_packet_unref),
    };
    const struct symbol avformat[] = {
        SYMBOL(avformat_open_input), SYMBOL(av_find_input_format), SYMBOL(avformat_find_stream_info), SYMBOL(av_find_best_stream),
        SYMBOL(avformat_close_input), SYMBOL(av_read_frame), SYMBOL(avformat_seek_file),
    };
    if (resolve(libraries[0], avutil, sizeof avutil / sizeof avutil[0], message, capacity) != 0
        || resolve(libraries[1], swresample, sizeof swresample / sizeof swresample[0], message, capacity) != 0
        || resolve(libraries[2], avcodec, sizeof avcodec / sizeof avcodec[0], message, capacity) != 0
        || resolve(libraries[3], avformat, sizeof avformat / sizeof avformat[0], message, capacity) != 0) {
        memset(&api, 0, sizeof api);
        goto fail;
    }
    /* We report problems ourselves, one line naming the file; FFmpeg's own
       log would otherwise write to the player's terminal. */
    api.av_log_set_level(AV_LOG_QUIET);
    api.loaded = 1;
    return 0;
fail:
    for (size_t i = 0; i < 4; i++) {
        if (libraries[i] != NULL) dlclose(libraries[i]);
    }
    return -1;
}

int interlude_ffmpeg_load(char *message, size_t capacity) {
    pthread_mutex_lock(&load_lock);
    int result = api.loaded ? 0 : load_locked(message, capacity);
    pthread_mutex_unlock(&load_lock);
    return result;
}

int interlude_ffmpeg_loaded(void) {
    pthread_mutex_lock(&load_lock);
    int loaded = api.loaded;
    pthread_mutex_unlock(&load_lock);
    return loaded;
}

#define CALL(field) ((__typeof__(api.field))need((void *)api.field))

AVFrame *interlude_av_frame_alloc(void) { return CALL(av_frame_alloc)(); }
void interlude_av_frame_free(AVFrame **frame) { CALL(av_frame_free)(frame); }
void interlude_av_frame_unref(AVFrame *frame) { CALL(av_frame_unref)(frame); }
int interlude_av_strerror(int errnum, char *buffer, size_t size) { return CALL(av_strerror)(errnum, buffer, size); }
AVDictionaryEntry *interlude_av_dict_get(const AVDictionary *dictionary, const char *key,
                                         const AVDictionaryEntry *previous, int flags) {
    return CALL(av_dict_get)(dictionary, key, previous, flags);
}
void interlude_av_channel_layout_default(AVChannelLayout *layout, int channels) {
    CALL(av_channel_layout_default)(layout, channels);
}
int interlude_av_channel_layout_copy(AVChannelLayout *destination, const AVChannelLayout *source) {
    return CALL(av_channel_layout_copy)(destination, source);
}
void interlude_av_channel_layout_uninit(AVChannelLayout *layout) { CALL(av_channel_layout_uninit)(layout); }
int64_t interlude_av_rescale_q(int64_t value, AVRational from, AVRational to) {
    return CALL(av_rescale_q)(value, from, to);
}

const AVCodec *interlude_avcodec_find_decoder(enum AVCodecID id) { return CALL(avcodec_find_decoder)(id); }
AVCodecContext *interlude_avcodec_alloc_context3(const AVCodec *codec) { return CALL(avcodec_alloc_context3)(codec); }
void interlude_avcodec_free_context(AVCodecContext **context) { CALL(avcodec_free_context)(context); }
int interlude_avcodec_parameters_to_context(AVCodecContext *context, const AVCodecParameters *parameters) {
    return CALL(avcodec_parameters_to_context)(context, parameters);
}
int interlude_avcodec_open2(AVCodecContext *context, const AVCodec *codec, AVDictionary **options) {
    return CALL(avcodec_open2)(context, codec, options);
}
int interlude_avcodec_send_packet(AVCodecContext *context, const AVPacket *packet) {
    return CALL(avcodec_send_packet)(context, packet);
}
int interlude_avcodec_receive_frame(AVCodecContext *context, AVFrame *frame) {
    return CALL(avcodec_receive_frame)(context, frame);
}
void interlude_avcodec_flush_buffers(AVCodecContext *context) { CALL(avcodec_flush_buffers)(context); }
const char *interlude_avcodec_get_name(enum AVCodecID id) { return CALL(avcodec_get_name)(id); }
AVPacket *interlude_av_packet_alloc(void) { return CALL(av_packet_alloc)(); }
void interlude_av_packet_free(AVPacket **packet) { CALL(av_packet_free)(packet); }
void interlude_av_packet_unref(AVPacket *packet) { CALL(av_packet_unref)(packet); }

int interlude_avformat_open_input(AVFormatContext **context, const char *url, const char *demuxer) {
    const AVInputFormat *format = NULL;
    if (demuxer != NULL && (format = CALL(av_find_input_format)(demuxer)) == NULL) return AVERROR_DEMUXER_NOT_FOUND;
    return CALL(avformat_open_input)(context, url, format, NULL);
}
int interlude_avformat_find_stream_info(AVFormatContext *context) {
    return CALL(avformat_find_stream_info)(context, NULL);
}
int interlude_av_find_best_stream(AVFormatContext *context, enum AVMediaType type) {
    return CALL(av_find_best_stream)(context, type, -1, -1, NULL, 0);
}
void interlude_avformat_close_input(AVFormatContext **context) { CALL(avformat_close_input)(context); }
int interlude_av_read_frame(AVFormatContext *context, AVPacket *packet) { return CALL(av_read_frame)(context, packet); }
int interlude_avformat_seek_file(AVFormatContext *context, int stream, int64_t minimum, int64_t timestamp,
                                 int64_t maximum, int flags) {
    return CALL(avformat_seek_file)(context, stream, minimum, timestamp, maximum, flags);
}

SwrContext *interlude_swr_create(const AVChannelLayout *out_layout, int out_rate,
                                 const AVChannelLayout *in_layout, enum AVSampleFormat in_format, int in_rate,
                                 int *error) {
    SwrContext *context = NULL;
    int status = CALL(swr_alloc_set_opts2)(&context, out_layout, AV_SAMPLE_FMT_S16, out_rate,
                                           in_layout, in_format, in_rate, 0, NULL);
    /* Mono and stereo meet as libmpg123 meets them, so a queue keeps one level
       whichever library decodes a file: mono is copied to both sides (not at
       -3 dB, libswresample's default), stereo is mixed down as (L + R) / 2. */
    if (status >= 0 && in_layout->nb_channels == 1 && out_layout->nb_channels == 2) {
        static const double copy[2] = { 1.0, 1.0 };
        status = CALL(swr_set_matrix)(context, copy, 1);
    } else if (status >= 0 && in_layout->nb_channels == 2 && out_layout->nb_channels == 1) {
        static const double mix[2] = { 0.5, 0.5 };
        status = CALL(swr_set_matrix)(context, mix, 2);
    }
    if (status >= 0) status = CALL(swr_init)(context);
    if (status < 0) {
        if (context != NULL) CALL(swr_free)(&context);
        *error = status;
        return NULL;
    }
    return context;
}
void interlude_swr_free(SwrContext **context) { CALL(swr_free)(context); }
int interlude_swr_convert(SwrContext *context, uint8_t *output, int out_count, const uint8_t **input, int in_count) {
    uint8_t *planes[1] = { output };
    return CALL(swr_convert)(context, planes, out_count, input, in_count);
}
int64_t interlude_swr_get_delay(SwrContext *context, int64_t base) { return CALL(swr_get_delay)(context, base); }
