/* libpng through dlopen: see interlude_cover_art.h for why. The simplified
   API reports errors in the image's `message`, with no jump. */
#include "interlude_cover_art.h"
#include "interlude_shims.h"

#include <stdlib.h>
#include <string.h>
#include <png.h>

#define INTERLUDE_LIST "interlude_png_functions.h"
#include "interlude_list_define.h"

#define CALL(name) INTERLUDE_RESOLVED(name)

static const char *const files[] = { "libpng16.so.16" };
static struct interlude_library library = { .files = files, .file_count = 1, INTERLUDE_LIBRARY_LIST };

int interlude_png_load(char *message, size_t capacity) { return interlude_library_load(&library, message, capacity); }
struct interlude_library *interlude_png_library(void) { return &library; }

int interlude_png_decode(const unsigned char *bytes, size_t length, struct interlude_image *image,
                         char *message, size_t capacity) {
    png_image png;
    memset(image, 0, sizeof *image);
    memset(&png, 0, sizeof png);
    png.version = PNG_IMAGE_VERSION;
    if (!CALL(png_image_begin_read_from_memory)(&png, bytes, length)) {
        interlude_copy_message(message, capacity, png.message);
        CALL(png_image_free)(&png);
        return -1;
    }
    png.format = PNG_FORMAT_RGBA;
    unsigned char *pixels = malloc(PNG_IMAGE_SIZE(png));
    if (pixels == NULL) {
        CALL(png_image_free)(&png);
        interlude_copy_message(message, capacity, "out of memory");
        return -1;
    }
    if (!CALL(png_image_finish_read)(&png, NULL, pixels, 0, NULL)) {
        interlude_copy_message(message, capacity, png.message);
        free(pixels);
        CALL(png_image_free)(&png);
        return -1;
    }
    image->pixels = pixels;
    image->width = (int)png.width;
    image->height = (int)png.height;
    image->channels = 4;
    CALL(png_image_free)(&png);
    return 0;
}
