#ifndef INTERLUDE_FLAC_H
#define INTERLUDE_FLAC_H

#include <stddef.h>
#include <stdint.h>
#include "interlude_shims.h"

/* libFLAC is loaded with dlopen when the first FLAC file is opened, not
   linked: `interlude play` of an MP3 maps none of it. FLAC goes through
   libFLAC rather than FFmpeg's libraries because those cost about 25 MB
   resident just to map (libavcodec alone pulls in some 130 shared objects:
   video encoders, libbluray, librsvg, ...), while libFLAC and libogg map in
   well under a megabyte; the decode is the same, sample for sample (FLAC is
   lossless). The soname is taken from the headers' API version, so the
   structures read here are those of the library loaded.

   The stream decoder's callbacks live here, in C: each decoded frame is
   copied into the handle's own interleaved buffer, which the caller reads
   until it asks for the next frame. Only FLACDecoder (Sources/AudioDecoding/
   Decoding) calls these, on the thread that owns the handle. Calling any of
   them before a successful interlude_flac_load is a programming error (it
   traps). */

/* Loads libFLAC and resolves what this file calls (interlude_flac_functions.h):
   interlude_library_load's rule (0, or -1 with "<file>: <why>" in `message`). */
int interlude_flac_load(char *message, size_t capacity);

/* Whether interlude_flac_load has succeeded in this process. */
int interlude_flac_loaded(void);

/* The library as the loader sees it (its list, whether it loaded): for tests. */
struct interlude_library *interlude_flac_library(void);

typedef struct interlude_flac interlude_flac;

/* Reads the file open on `fd` (the descriptor the caller checked is a regular
   file: a name opened again could be a FIFO by then) and its metadata up to
   the first audio frame (an ID3v2 tag before it is skipped by libFLAC). The
   descriptor is the decoder's from here on, closed with it (or at once when
   this fails). NULL, with libFLAC's words in `message`, when there is no
   stream information. */
interlude_flac *interlude_flac_open(int fd, char *message, size_t capacity);
void interlude_flac_close(interlude_flac *flac);

unsigned interlude_flac_sample_rate(const interlude_flac *flac);
unsigned interlude_flac_channels(const interlude_flac *flac);
unsigned interlude_flac_bits_per_sample(const interlude_flac *flac);
/* 0 when the stream information does not say. */
uint64_t interlude_flac_total_samples(const interlude_flac *flac);

/* Decodes the next frame into the handle's buffer: 1 with a frame, 0 at the
   end of the stream, -1 when the decoder cannot go on (libFLAC's state in
   `message`). Damage met on the way (a lost sync, a bad header, a frame that
   failed its checksum) is counted, not fatal: see interlude_flac_take_errors.
   After a successful seek the first call hands out the frame the seek
   decoded, starting at the sample asked for. */
int interlude_flac_next_frame(interlude_flac *flac, char *message, size_t capacity);
/* The current frame's samples, interleaved, as libFLAC gives them (signed,
   right-aligned to the stream's bits per sample). */
const int32_t *interlude_flac_frame_samples(const interlude_flac *flac);
unsigned interlude_flac_frame_length(const interlude_flac *flac);
/* The current frame's first sample, counted from the stream's start. */
uint64_t interlude_flac_frame_first_sample(const interlude_flac *flac);

/* Moves so that the next frame starts at `sample`: 0, or -1 with libFLAC's
   state in `message` (the decoder is reset: a seek to 0 works again). */
int interlude_flac_seek(interlude_flac *flac, uint64_t sample, char *message, size_t capacity);

/* Damage reports since the last call: their count, and libFLAC's words for
   the first of them in `message`. */
unsigned interlude_flac_take_errors(interlude_flac *flac, char *message, size_t capacity);

/* The Vorbis comment block's entries ("KEY=value", bytes as stored, not
   NUL-terminated: `length` says how long). */
size_t interlude_flac_comment_count(const interlude_flac *flac);
const char *interlude_flac_comment(const interlude_flac *flac, size_t index, size_t *length);

/* The CUESHEET block's audio tracks, the lead-out left out: each track's
   start (its offset plus its INDEX 01's, or its first index's), in samples. */
size_t interlude_flac_cue_track_count(const interlude_flac *flac);
uint64_t interlude_flac_cue_track_start(const interlude_flac *flac, size_t index);

#endif
