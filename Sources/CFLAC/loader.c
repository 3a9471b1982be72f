/* libFLAC through dlopen: see interlude_flac.h for why. */
#include "interlude_flac.h"
#include "interlude_shims.h"

#include <FLAC/export.h>
#include <FLAC/stream_decoder.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define INTERLUDE_LIST "interlude_flac_functions.h"
#include "interlude_list_define.h"

#define CALL(name) INTERLUDE_RESOLVED(FLAC__##name)
#define STRINGS(name) (*INTERLUDE_RESOLVED(FLAC__##name))

/* libtool's soname: the interface's current number minus its age. */
static char soname[32];
static void name_the_file(struct interlude_library *library) {
    (void)library;
    snprintf(soname, sizeof soname, "libFLAC.so.%d", FLAC_API_VERSION_CURRENT - FLAC_API_VERSION_AGE);
}

static const char *const files[] = { soname };
static struct interlude_library library = {
    .files = files, .file_count = 1, INTERLUDE_LIBRARY_LIST, .before = name_the_file,
};

int interlude_flac_load(char *message, size_t capacity) { return interlude_library_load(&library, message, capacity); }
int interlude_flac_loaded(void) { return interlude_library_loaded(&library); }
struct interlude_library *interlude_flac_library(void) { return &library; }

struct interlude_flac {
    FLAC__StreamDecoder *decoder;
    /* The file, read through the stream callbacks below; `at_end` once a read found its end. */
    int fd;
    int at_end;
    unsigned rate, channels, bits;
    uint64_t total;
    int has_info;
    /* The frame the write callback copied last; `ready` until handed out. */
    int32_t *samples;
    size_t capacity;
    unsigned length;
    uint64_t first_sample;
    int ready;
    unsigned errors;
    FLAC__StreamDecoderErrorStatus first_error;
    char **comments;
    size_t *comment_lengths;
    size_t comment_count;
    uint64_t *cue_starts;
    size_t cue_count;
};

static FLAC__StreamDecoderWriteStatus on_write(const FLAC__StreamDecoder *decoder, const FLAC__Frame *frame,
                                               const FLAC__int32 *const buffer[], void *data) {
    (void)decoder;
    interlude_flac *flac = data;
    unsigned channels = frame->header.channels, length = frame->header.blocksize;
    size_t needed = (size_t)channels * length;
    if (needed > flac->capacity) {
        int32_t *grown = realloc(flac->samples, needed * sizeof *grown);
        if (grown == NULL) return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT;
        flac->samples = grown;
        flac->capacity = needed;
    }
    for (unsigned i = 0; i < length; i++) {
        for (unsigned c = 0; c < channels; c++) flac->samples[(size_t)i * channels + c] = buffer[c][i];
    }
    flac->length = length;
    flac->first_sample = frame->header.number_type == FLAC__FRAME_NUMBER_TYPE_SAMPLE_NUMBER
        ? frame->header.number.sample_number
        : (uint64_t)frame->header.number.frame_number * length;
    flac->ready = 1;
    return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE;
}

static void on_metadata(const FLAC__StreamDecoder *decoder, const FLAC__StreamMetadata *metadata, void *data) {
    (void)decoder;
    interlude_flac *flac = data;
    if (metadata->type == FLAC__METADATA_TYPE_STREAMINFO) {
        flac->rate = metadata->data.stream_info.sample_rate;
        flac->channels = metadata->data.stream_info.channels;
        flac->bits = metadata->data.stream_info.bits_per_sample;
        flac->total = metadata->data.stream_info.total_samples;
        flac->has_info = 1;
    } else if (metadata->type == FLAC__METADATA_TYPE_VORBIS_COMMENT && flac->comments == NULL) {
        const FLAC__StreamMetadata_VorbisComment *block = &metadata->data.vorbis_comment;
        if (block->num_comments == 0) return;
        flac->comments = calloc(block->num_comments, sizeof *flac->comments);
        flac->comment_lengths = calloc(block->num_comments, sizeof *flac->comment_lengths);
        if (flac->comments == NULL || flac->comment_lengths == NULL) return;
        for (uint32_t i = 0; i < block->num_comments; i++) {
            const FLAC__StreamMetadata_VorbisComment_Entry *entry = &block->comments[i];
            char *copy = malloc(entry->length ? entry->length : 1);
            if (copy == NULL) break;
            memcpy(copy, entry->entry, entry->length);
            flac->comments[flac->comment_count] = copy;
            flac->comment_lengths[flac->comment_count] = entry->length;
            flac->comment_count++;
        }
    } else if (metadata->type == FLAC__METADATA_TYPE_CUESHEET && flac->cue_starts == NULL) {
        const FLAC__StreamMetadata_CueSheet *sheet = &metadata->data.cue_sheet;
        if (sheet->num_tracks < 2) return;
        flac->cue_starts = calloc(sheet->num_tracks, sizeof *flac->cue_starts);
        if (flac->cue_starts == NULL) return;
        /* The last track is the lead-out, which starts no audio. */
        for (uint32_t i = 0; i + 1 < sheet->num_tracks; i++) {
            const FLAC__StreamMetadata_CueSheet_Track *track = &sheet->tracks[i];
            if (track->type != 0) continue;
            uint64_t start = track->offset;
            for (unsigned j = 0; j < track->num_indices; j++) {
                if (track->indices[j].number == 1 || j == 0) start = track->offset + track->indices[j].offset;
                if (track->indices[j].number == 1) break;
            }
            flac->cue_starts[flac->cue_count++] = start;
        }
    }
}

static void on_error(const FLAC__StreamDecoder *decoder, FLAC__StreamDecoderErrorStatus status, void *data) {
    (void)decoder;
    interlude_flac *flac = data;
    if (flac->errors++ == 0) flac->first_error = status;
}

/* The stream callbacks over the descriptor: what FLAC__stream_decoder_init_file
   does over a FILE it opens by name, without the second open. */
static FLAC__StreamDecoderReadStatus on_read(const FLAC__StreamDecoder *decoder, FLAC__byte buffer[], size_t *bytes,
                                             void *data) {
    (void)decoder;
    interlude_flac *flac = data;
    if (*bytes == 0) return FLAC__STREAM_DECODER_READ_STATUS_ABORT;
    ssize_t count;
    do count = read(flac->fd, buffer, *bytes); while (count < 0 && errno == EINTR);
    if (count < 0) {
        *bytes = 0;
        return FLAC__STREAM_DECODER_READ_STATUS_ABORT;
    }
    *bytes = (size_t)count;
    if (count == 0) {
        flac->at_end = 1;
        return FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM;
    }
    return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE;
}

static FLAC__StreamDecoderSeekStatus on_seek(const FLAC__StreamDecoder *decoder, FLAC__uint64 offset, void *data) {
    (void)decoder;
    interlude_flac *flac = data;
    if (offset > (FLAC__uint64)INT64_MAX || lseek(flac->fd, (off_t)offset, SEEK_SET) < 0)
        return FLAC__STREAM_DECODER_SEEK_STATUS_ERROR;
    flac->at_end = 0;
    return FLAC__STREAM_DECODER_SEEK_STATUS_OK;
}

static FLAC__StreamDecoderTellStatus on_tell(const FLAC__StreamDecoder *decoder, FLAC__uint64 *offset, void *data) {
    (void)decoder;
    interlude_flac *flac = data;
    off_t position = lseek(flac->fd, 0, SEEK_CUR);
    if (position < 0) return FLAC__STREAM_DECODER_TELL_STATUS_ERROR;
    *offset = (FLAC__uint64)position;
    return FLAC__STREAM_DECODER_TELL_STATUS_OK;
}

static FLAC__StreamDecoderLengthStatus on_length(const FLAC__StreamDecoder *decoder, FLAC__uint64 *length, void *data) {
    (void)decoder;
    interlude_flac *flac = data;
    struct stat info;
    if (fstat(flac->fd, &info) != 0) return FLAC__STREAM_DECODER_LENGTH_STATUS_ERROR;
    *length = (FLAC__uint64)info.st_size;
    return FLAC__STREAM_DECODER_LENGTH_STATUS_OK;
}

static FLAC__bool on_eof(const FLAC__StreamDecoder *decoder, void *data) {
    (void)decoder;
    return ((interlude_flac *)data)->at_end;
}

static void state_message(const interlude_flac *flac, char *message, size_t capacity) {
    FLAC__StreamDecoderState state = CALL(stream_decoder_get_state)(flac->decoder);
    interlude_copy_message(message, capacity, STRINGS(StreamDecoderStateString)[state]);
}

void interlude_flac_close(interlude_flac *flac) {
    if (flac == NULL) return;
    if (flac->decoder != NULL) {
        CALL(stream_decoder_finish)(flac->decoder);
        CALL(stream_decoder_delete)(flac->decoder);
    }
    if (flac->fd >= 0) close(flac->fd);
    for (size_t i = 0; i < flac->comment_count; i++) free(flac->comments[i]);
    free(flac->comments);
    free(flac->comment_lengths);
    free(flac->cue_starts);
    free(flac->samples);
    free(flac);
}

interlude_flac *interlude_flac_open(int fd, char *message, size_t capacity) {
    interlude_flac *flac = calloc(1, sizeof *flac);
    if (flac == NULL) close(fd);
    else flac->fd = fd;
    if (flac == NULL || (flac->decoder = CALL(stream_decoder_new)()) == NULL) {
        interlude_copy_message(message, capacity, "out of memory");
        interlude_flac_close(flac);
        return NULL;
    }
    CALL(stream_decoder_set_md5_checking)(flac->decoder, false);
    CALL(stream_decoder_set_metadata_respond)(flac->decoder, FLAC__METADATA_TYPE_VORBIS_COMMENT);
    CALL(stream_decoder_set_metadata_respond)(flac->decoder, FLAC__METADATA_TYPE_CUESHEET);
    FLAC__StreamDecoderInitStatus status =
        CALL(stream_decoder_init_stream)(flac->decoder, on_read, on_seek, on_tell, on_length, on_eof, on_write,
                                         on_metadata, on_error, flac);
    if (status != FLAC__STREAM_DECODER_INIT_STATUS_OK) {
        interlude_copy_message(message, capacity, STRINGS(StreamDecoderInitStatusString)[status]);
        interlude_flac_close(flac);
        return NULL;
    }
    if (!CALL(stream_decoder_process_until_end_of_metadata)(flac->decoder) || !flac->has_info
        || flac->rate == 0 || flac->channels == 0) {
        if (flac->has_info) state_message(flac, message, capacity);
        else interlude_copy_message(message, capacity, "no FLAC stream information");
        interlude_flac_close(flac);
        return NULL;
    }
    return flac;
}

unsigned interlude_flac_sample_rate(const interlude_flac *flac) { return flac->rate; }
unsigned interlude_flac_channels(const interlude_flac *flac) { return flac->channels; }
unsigned interlude_flac_bits_per_sample(const interlude_flac *flac) { return flac->bits; }
uint64_t interlude_flac_total_samples(const interlude_flac *flac) { return flac->total; }

int interlude_flac_next_frame(interlude_flac *flac, char *message, size_t capacity) {
    if (flac->ready == 2) {
        /* The frame a seek decoded, not yet handed out. */
        flac->ready = 0;
        return 1;
    }
    flac->ready = 0;
    while (!flac->ready) {
        FLAC__StreamDecoderState state = CALL(stream_decoder_get_state)(flac->decoder);
        if (state == FLAC__STREAM_DECODER_END_OF_STREAM) return 0;
        if (!CALL(stream_decoder_process_single)(flac->decoder)) {
            state_message(flac, message, capacity);
            return -1;
        }
    }
    flac->ready = 0;
    return 1;
}

const int32_t *interlude_flac_frame_samples(const interlude_flac *flac) { return flac->samples; }
unsigned interlude_flac_frame_length(const interlude_flac *flac) { return flac->length; }
uint64_t interlude_flac_frame_first_sample(const interlude_flac *flac) { return flac->first_sample; }

int interlude_flac_seek(interlude_flac *flac, uint64_t sample, char *message, size_t capacity) {
    flac->ready = 0;
    if (!CALL(stream_decoder_seek_absolute)(flac->decoder, sample)) {
        state_message(flac, message, capacity);
        /* A failed seek leaves the decoder in FLAC__STREAM_DECODER_SEEK_ERROR until flushed. */
        CALL(stream_decoder_flush)(flac->decoder);
        flac->ready = 0;
        return -1;
    }
    /* seek_absolute decodes the frame holding `sample` and hands it to the
       write callback from `sample` on: keep it for the next read. */
    if (flac->ready) flac->ready = 2;
    return 0;
}

unsigned interlude_flac_take_errors(interlude_flac *flac, char *message, size_t capacity) {
    unsigned count = flac->errors;
    if (count > 0) {
        interlude_copy_message(message, capacity, STRINGS(StreamDecoderErrorStatusString)[flac->first_error]);
    }
    flac->errors = 0;
    return count;
}

size_t interlude_flac_comment_count(const interlude_flac *flac) { return flac->comment_count; }
const char *interlude_flac_comment(const interlude_flac *flac, size_t index, size_t *length) {
    *length = flac->comment_lengths[index];
    return flac->comments[index];
}

size_t interlude_flac_cue_track_count(const interlude_flac *flac) { return flac->cue_count; }
uint64_t interlude_flac_cue_track_start(const interlude_flac *flac, size_t index) { return flac->cue_starts[index]; }
