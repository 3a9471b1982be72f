/* libjpeg through dlopen: see interlude_cover_art.h for why. libjpeg reports
   errors through a callback that must not return: it jumps back here. */
#include "interlude_cover_art.h"
#include "interlude_shims.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

#define INTERLUDE_LIST "interlude_jpeg_functions.h"
#include "interlude_list_define.h"

#define CALL(name) INTERLUDE_RESOLVED(name)

static const char *const files[] = { "libjpeg.so.62" };
static struct interlude_library library = { .files = files, .file_count = 1, INTERLUDE_LIBRARY_LIST };

int interlude_jpeg_load(char *message, size_t capacity) { return interlude_library_load(&library, message, capacity); }
struct interlude_library *interlude_jpeg_library(void) { return &library; }

struct failure {
    struct jpeg_error_mgr manager;
    jmp_buf back;
    char text[JMSG_LENGTH_MAX];
};

static void on_error(j_common_ptr info) {
    struct failure *failure = (struct failure *)info->err;
    failure->manager.format_message(info, failure->text);
    longjmp(failure->back, 1);
}

/* Warnings (corrupt data that libjpeg skips over) are not errors: a picture
   with a damaged stretch still shows. One whose data ends early is refused
   (libjpeg would fill the rest with grey): that is a truncated file. */
static void on_message(j_common_ptr info, int level) {
    if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) on_error(info);
}

int interlude_jpeg_decode(const unsigned char *bytes, size_t length, int fit_width, int fit_height,
                          long memory_limit, size_t pixel_limit, struct interlude_image *image,
                          char *message, size_t capacity) {
    struct jpeg_decompress_struct info;
    struct failure failure;
    memset(image, 0, sizeof *image);
    memset(&info, 0, sizeof info);
    info.err = CALL(jpeg_std_error)(&failure.manager);
    failure.manager.error_exit = on_error;
    failure.manager.emit_message = on_message;
    failure.text[0] = 0;
    /* Volatile: written after setjmp and read after the jump back. */
    unsigned char *volatile pixels = NULL;
    unsigned char *volatile row = NULL;
    if (setjmp(failure.back)) {
        free(pixels);
        free(row);
        CALL(jpeg_destroy_decompress)(&info);
        interlude_copy_message(message, capacity, failure.text);
        return -1;
    }
    CALL(jpeg_CreateDecompress)(&info, JPEG_LIB_VERSION, sizeof info);
    info.mem->max_memory_to_use = memory_limit;
    CALL(jpeg_mem_src)(&info, bytes, (unsigned long)length);
    CALL(jpeg_read_header)(&info, TRUE);
    info.out_color_space = JCS_RGB;
    info.dct_method = JDCT_ISLOW;
    info.scale_num = 1;
    /* The smallest of libjpeg's scales still at least fit_width x fit_height,
       then larger steps while the RGBA pixels would pass pixel_limit. The
       output's size is libjpeg's own (it rounds up: 75 / 2 is 38), read
       after jpeg_calc_output_dimensions, never worked out here. */
    unsigned denominator = 1;
    while (denominator < 8 && info.image_width / (denominator * 2) >= (unsigned)fit_width
           && info.image_height / (denominator * 2) >= (unsigned)fit_height) denominator *= 2;
    for (;;) {
        info.scale_denom = denominator;
        CALL(jpeg_calc_output_dimensions)(&info);
        if ((size_t)info.output_width * info.output_height * 4 <= pixel_limit) break;
        if (denominator == 8) {
            CALL(jpeg_destroy_decompress)(&info);
            interlude_copy_message(message, capacity, "too many pixels even at an eighth of its size");
            return -1;
        }
        denominator *= 2;
    }
    CALL(jpeg_start_decompress)(&info);
    /* Rows of 4 bytes a pixel, RGB and an opaque alpha: the layout libpng's
       pictures have, the one libchafa reads right at every width (its RGB8
       path misreads rows whose length is not a multiple of 4 bytes: a
       300-pixel picture halved to 150 came out grey noise). */
    size_t width = info.output_width, height = info.output_height;
    row = malloc(width * 3);
    pixels = malloc(width * 4 * height);
    if (pixels == NULL || row == NULL) {
        free(pixels);
        free(row);
        CALL(jpeg_destroy_decompress)(&info);
        interlude_copy_message(message, capacity, "out of memory");
        return -1;
    }
    while (info.output_scanline < height) {
        unsigned char *out = pixels + width * 4 * info.output_scanline;
        JSAMPROW rows[1] = { row };
        /* From memory libjpeg never suspends: no row is damage, not a wait. */
        if (CALL(jpeg_read_scanlines)(&info, rows, 1) != 1) {
            free(pixels);
            free(row);
            CALL(jpeg_destroy_decompress)(&info);
            interlude_copy_message(message, capacity, "libjpeg gave no row");
            return -1;
        }
        for (size_t x = 0; x < width; x++) {
            out[x * 4] = row[x * 3];
            out[x * 4 + 1] = row[x * 3 + 1];
            out[x * 4 + 2] = row[x * 3 + 2];
            out[x * 4 + 3] = 0xFF;
        }
    }
    CALL(jpeg_finish_decompress)(&info);
    free(row);
    image->pixels = pixels;
    image->width = (int)width;
    image->height = (int)height;
    image->channels = 4;
    CALL(jpeg_destroy_decompress)(&info);
    return 0;
}

void interlude_image_free(struct interlude_image *image) {
    free(image->pixels);
    image->pixels = NULL;
}
