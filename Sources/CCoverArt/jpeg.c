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
                          long memory_limit, struct interlude_image *image, char *message, size_t capacity) {
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
    if (setjmp(failure.back)) {
        free(pixels);
        CALL(jpeg_destroy_decompress)(&info);
        interlude_copy_message(message, capacity, failure.text);
        return -1;
    }
    CALL(jpeg_CreateDecompress)(&info, JPEG_LIB_VERSION, sizeof info);
    info.mem->max_memory_to_use = memory_limit;
    CALL(jpeg_mem_src)(&info, bytes, (unsigned long)length);
    CALL(jpeg_read_header)(&info, TRUE);
    info.out_color_space = JCS_RGB;
    unsigned denominator = 1;
    while (denominator < 8 && info.image_width / (denominator * 2) >= (unsigned)fit_width
           && info.image_height / (denominator * 2) >= (unsigned)fit_height) denominator *= 2;
    info.scale_num = 1;
    info.scale_denom = denominator;
    info.dct_method = JDCT_ISLOW;
    CALL(jpeg_start_decompress)(&info);
    size_t stride = (size_t)info.output_width * 3;
    pixels = malloc(stride * info.output_height);
    if (pixels == NULL) {
        CALL(jpeg_destroy_decompress)(&info);
        interlude_copy_message(message, capacity, "out of memory");
        return -1;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + stride * info.output_scanline;
        CALL(jpeg_read_scanlines)(&info, &row, 1);
    }
    CALL(jpeg_finish_decompress)(&info);
    image->pixels = pixels;
    image->width = (int)info.output_width;
    image->height = (int)info.output_height;
    image->channels = 3;
    CALL(jpeg_destroy_decompress)(&info);
    return 0;
}

void interlude_image_free(struct interlude_image *image) {
    free(image->pixels);
    image->pixels = NULL;
}
