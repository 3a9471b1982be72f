#ifndef INTERLUDE_FFMPEG_H
#define INTERLUDE_FFMPEG_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>
#include "interlude_shims.h"

/* FFmpeg's libraries (libavformat, libavcodec, libswresample, libavutil) are
   loaded with dlopen when the first file that is not MPEG audio is opened,
   not linked: `interlude play` of an MP3 then maps none of them (about 20 MB
   of shared objects and their own dependencies, which the player's RSS budget
   cannot spare, and which an MP3 listener never needs). The headers still
   give the types, the structures and the constants; every call goes through
   loader.c, which resolves the functions once in interlude_ffmpeg_load().
   The sonames are taken from the headers' major versions, so the structures
   Swift reads are those of the library loaded. Calling any wrapper below
   before a successful load is a programming error (it traps).

   Only FFmpegDecoder (Sources/AudioDecoding/Decoding) and the stream's reader and
   decoder (Sources/AudioDecoding/Streaming) call these, each on the thread that
   owns the context: a stream's AVFormatContext its reader thread's, its codec the
   main loop's. */

/* Loads the four libraries and resolves what the wrappers call: their
   dependency trees one object at a time, each step's touched read-only pages
   given back (see loader.c), so the load does not hold the ~20 MB that one
   dlopen of the whole tree would touch at once. interlude_library_load's rule
   (0, or -1 with "<file>: <why>" in `message`). */
int interlude_ffmpeg_load(char *message, size_t capacity);

/* For a file's or a station's set-up (opening, reading the stream's
   parameters, opening the codec, the first frame), which runs code and reads
   tables that decoding never uses again (until the first set-up is done, the
   program's own start-up code too): gives back those pages at each step, as the load does, so
   they never all add up and do not stay. The process's first set-up touches
   more (libavcodec initialises every codec's static data, video codecs'
   libraries included, at its first look-up): until one has completed (`done`
   after its last step) every object FFmpeg brought in is released at every
   step; after it, only FFmpeg's own four libraries, once at the end of a
   set-up (`done`), a few system calls. */
void interlude_ffmpeg_release_setup_pages(int done);

/* For a program (the player), not a library or a test runner: once FFmpeg's
   libraries are loaded, exit() flushes stdio and ends the process without
   running the exit handlers registered before the load or any object's
   destructors. The ~130 objects of FFmpeg's tree each have destructors
   (and code around them) that the kernel maps back 64 KB at a time: about
   9 MB resident at the very end of a run, a process's peak. Nothing of
   them is worth running on the way out: they free memory and tear down
   libraries (TLS, XML, video codecs) the player never used; the kernel
   closes files and sockets. Set before the load; not under a sanitizer,
   whose reports run at exit. */
void interlude_ffmpeg_exit_quickly(void);

/* A stream's reader thread (after a load): from now on the first error line
   FFmpeg logs on this thread is kept (the reason behind an EIO: a certificate
   that does not verify, a name that does not resolve), and read once, into
   `buffer`, by interlude_ffmpeg_noted_error (its length; 0 when none). Other
   threads' lines and lower levels stay unprinted, as with AV_LOG_QUIET. */
void interlude_ffmpeg_note_errors(void);
size_t interlude_ffmpeg_noted_error(char *buffer, size_t capacity);
/* How many times FFmpeg's http said it reopens a connection its server
   closed ("Will reconnect at ...", the `reconnect` options) on this thread
   since interlude_ffmpeg_note_errors. */
long interlude_ffmpeg_reconnections(void);

/* Whether interlude_ffmpeg_load has succeeded in this process. */
int interlude_ffmpeg_loaded(void);

/* The library as the loader sees it (its list, whether it loaded): for tests. */
struct interlude_library *interlude_ffmpeg_library(void);

#define INTERLUDE_LIST "interlude_ffmpeg_functions.h"
#include "interlude_list_declare.h"
#undef INTERLUDE_LIST

/* libavformat */
/* `demuxer` names the demuxer (libavformat's short name: "mov", "flac", ...)
   that the caller recognised by the file's magic number, so libavformat does not
   probe: probing calls every demuxer's probe function, which maps in pages of
   libavformat and of libraries such as libopenmpt (about 2 MB resident).
   NULL probes.
   The file is read from `fd`, the descriptor the caller checked is a regular
   file (a name opened again could be a FIFO by then), through an AVIOContext
   of our own; the descriptor is the context's from here on, closed by
   interlude_avformat_close_input (or at once when this fails). */
int interlude_avformat_open_input(AVFormatContext **context, int fd, const char *demuxer);
/* Closes what interlude_avformat_open_input opened: the context, its I/O and the descriptor. */
void interlude_avformat_close_input(AVFormatContext **context);

/* libswresample: a converter from the decoder's frames to s16 interleaved,
   with libswresample's defaults (no dither), which is what the `ffmpeg`
   program uses for `-f s16le`: the two outputs are then the same samples. */
SwrContext *interlude_swr_create(const AVChannelLayout *out_layout, int out_rate,
                                 const AVChannelLayout *in_layout, enum AVSampleFormat in_format, int in_rate,
                                 int *error);
int interlude_swr_convert(SwrContext *context, uint8_t *output, int out_count,
                          const uint8_t **input, int in_count);

/* Macros Swift cannot import. */
static inline int interlude_averror_eof(void) { return AVERROR_EOF; }
static inline int interlude_averror_exit(void) { return AVERROR_EXIT; }
static inline int interlude_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int interlude_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t interlude_av_nopts_value(void) { return AV_NOPTS_VALUE; }

#endif
