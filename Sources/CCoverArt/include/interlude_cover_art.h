#ifndef INTERLUDE_COVER_ART_H
#define INTERLUDE_COVER_ART_H

#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

/* Cover art's libraries, each loaded with dlopen when the first picture is
   shown: libjpeg (libjpeg-turbo), libpng and libchafa (terminal graphics,
   which brings glib). Headless playback, and a player whose pane shows no
   picture, map none of them. The libraries' own headers stay in the .c
   files (chafa's needs glib's), so Swift sees only what is below.

   Every function here runs on the cover art's own thread
   (Sources/Interlude/CoverArt/CoverArtThread.swift), never the main loop. */

/* Each loads its library and resolves its list once: interlude_library_load's
   rule (0, or -1 with "<file>: <why>" in `message`). */
int interlude_jpeg_load(char *message, size_t capacity);
int interlude_png_load(char *message, size_t capacity);
int interlude_chafa_load(char *message, size_t capacity);
/* The libraries as the loader sees them (their lists, whether they loaded): for tests. */
struct interlude_library *interlude_jpeg_library(void);
struct interlude_library *interlude_png_library(void);
struct interlude_library *interlude_chafa_library(void);

/* Decoded pixels, 8 bits a channel, rows packed: 4 channels (RGBA, not
   premultiplied; a JPEG's alpha is opaque), so a row is always a multiple of
   4 bytes. Freed with interlude_image_free. */
struct interlude_image {
    unsigned char *pixels;
    int width;
    int height;
    int channels;
};

/* Decodes a JPEG to RGBA, scaled down by libjpeg's DCT scaling (1/2, 1/4,
   1/8) as far as it stays at least `fit_width` x `fit_height`, and further
   while its pixels would take more than `pixel_limit` bytes (refused if an
   eighth still does); libjpeg's working memory is held to `memory_limit`
   bytes. The caller has checked the size from the header (ImageHeader).
   0, or -1 with libjpeg's message. */
int interlude_jpeg_decode(const unsigned char *bytes, size_t length, int fit_width, int fit_height,
                          long memory_limit, size_t pixel_limit, struct interlude_image *image,
                          char *message, size_t capacity);

/* Decodes a PNG to RGBA through libpng's simplified API. 0, or -1 with libpng's message. */
int interlude_png_decode(const unsigned char *bytes, size_t length, struct interlude_image *image,
                         char *message, size_t capacity);

void interlude_image_free(struct interlude_image *image);

/* What a cell of a picture drawn in symbols holds: the character and its
   colours, packed 0xRRGGBB in 24-bit mode or palette numbers 16-255 in the
   256-colour mode. */
struct interlude_picture_cell {
    uint32_t symbol;
    int32_t foreground;
    int32_t background;
};

enum {
    INTERLUDE_PICTURE_TRUECOLOR = 0,
    INTERLUDE_PICTURE_INDEXED_256 = 1,
    INTERLUDE_PICTURE_INDEXED_16 = 2,
};

/* Draws `image` with libchafa in block symbols on `columns` x `rows` cells
   (`cells` holds columns * rows, row by row). 0, or -1 with a message. */
int interlude_chafa_symbols(const struct interlude_image *image, int columns, int rows, int color_mode,
                            struct interlude_picture_cell *cells, char *message, size_t capacity);

enum {
    INTERLUDE_GRAPHICS_SIXEL = 1,
    INTERLUDE_GRAPHICS_KITTY = 2,
    INTERLUDE_GRAPHICS_ITERM2 = 3,
};

/* The escape sequence that draws `image` on `columns` x `rows` cells of
   `cell_width` x `cell_height` pixels in a terminal graphics protocol, as
   libchafa writes it; malloc'ed (freed by the caller), its length in
   `length`. NULL with a message on failure. */
char *interlude_chafa_graphics(const struct interlude_image *image, int columns, int rows, int cell_width,
                               int cell_height, int protocol, size_t *length, char *message, size_t capacity);

/* A cell's size in pixels from the terminal's own size (0 where the
   terminal does not say: many leave ws_xpixel 0). */
static inline int interlude_cell_pixels(int fd, int *width, int *height) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0 || size.ws_row == 0) return -1;
    *width = size.ws_xpixel / size.ws_col;
    *height = size.ws_ypixel / size.ws_row;
    return *width > 0 && *height > 0 ? 0 : -1;
}

#endif
