/* libchafa through dlopen: see interlude_cover_art.h for why. */
#include "interlude_cover_art.h"
#include "interlude_shims.h"

#include <stdlib.h>
#include <string.h>
#include <chafa.h>

#define INTERLUDE_LIST "interlude_chafa_functions.h"
#include "interlude_list_define.h"

#define CALL(name) INTERLUDE_RESOLVED(name)

static const char *const files[] = { "libchafa.so.0" };
static struct interlude_library library = { .files = files, .file_count = 1, INTERLUDE_LIBRARY_LIST };

int interlude_chafa_load(char *message, size_t capacity) { return interlude_library_load(&library, message, capacity); }
struct interlude_library *interlude_chafa_library(void) { return &library; }

static ChafaCanvas *draw(const struct interlude_image *image, int columns, int rows, ChafaCanvasMode mode,
                         ChafaPixelMode pixels, int cell_width, int cell_height) {
    ChafaCanvasConfig *config = CALL(chafa_canvas_config_new)();
    CALL(chafa_canvas_config_set_geometry)(config, columns, rows);
    CALL(chafa_canvas_config_set_canvas_mode)(config, mode);
    CALL(chafa_canvas_config_set_pixel_mode)(config, pixels);
    if (cell_width > 0 && cell_height > 0) CALL(chafa_canvas_config_set_cell_geometry)(config, cell_width, cell_height);
    /* Block elements and spaces only: one column each in every font, and the
       part of a cell each covers is known (half, quarter, eighths). */
    ChafaSymbolMap *symbols = CALL(chafa_symbol_map_new)();
    CALL(chafa_symbol_map_add_by_tags)(symbols, CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_SPACE | CHAFA_SYMBOL_TAG_SOLID);
    CALL(chafa_canvas_config_set_symbol_map)(config, symbols);
    CALL(chafa_canvas_config_set_work_factor)(config, 0.5f);
    ChafaCanvas *canvas = CALL(chafa_canvas_new)(config);
    CALL(chafa_symbol_map_unref)(symbols);
    CALL(chafa_canvas_config_unref)(config);
    if (canvas == NULL) return NULL;
    ChafaPixelType type = image->channels == 4 ? CHAFA_PIXEL_RGBA8_UNASSOCIATED : CHAFA_PIXEL_RGB8;
    CALL(chafa_canvas_draw_all_pixels)(canvas, type, image->pixels, image->width, image->height,
                                       image->width * image->channels);
    return canvas;
}

int interlude_chafa_symbols(const struct interlude_image *image, int columns, int rows, int color_mode,
                            struct interlude_picture_cell *cells, char *message, size_t capacity) {
    ChafaCanvasMode mode = color_mode == INTERLUDE_PICTURE_TRUECOLOR ? CHAFA_CANVAS_MODE_TRUECOLOR
        : color_mode == INTERLUDE_PICTURE_INDEXED_256 ? CHAFA_CANVAS_MODE_INDEXED_240 : CHAFA_CANVAS_MODE_INDEXED_16;
    ChafaCanvas *canvas = draw(image, columns, rows, mode, CHAFA_PIXEL_MODE_SYMBOLS, 0, 0);
    if (canvas == NULL) {
        interlude_copy_message(message, capacity, "libchafa made no canvas");
        return -1;
    }
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < columns; x++) {
            struct interlude_picture_cell *cell = &cells[y * columns + x];
            gint foreground = 0, background = 0;
            cell->symbol = CALL(chafa_canvas_get_char_at)(canvas, x, y);
            CALL(chafa_canvas_get_raw_colors_at)(canvas, x, y, &foreground, &background);
            cell->foreground = foreground;
            cell->background = background;
        }
    }
    CALL(chafa_canvas_unref)(canvas);
    return 0;
}

char *interlude_chafa_graphics(const struct interlude_image *image, int columns, int rows, int cell_width,
                               int cell_height, int protocol, size_t *length, char *message, size_t capacity) {
    ChafaPixelMode mode = protocol == INTERLUDE_GRAPHICS_KITTY ? CHAFA_PIXEL_MODE_KITTY
        : protocol == INTERLUDE_GRAPHICS_ITERM2 ? CHAFA_PIXEL_MODE_ITERM2 : CHAFA_PIXEL_MODE_SIXELS;
    ChafaCanvas *canvas = draw(image, columns, rows, CHAFA_CANVAS_MODE_TRUECOLOR, mode, cell_width, cell_height);
    if (canvas == NULL) {
        interlude_copy_message(message, capacity, "libchafa made no canvas");
        return NULL;
    }
    ChafaTermInfo *terminal = CALL(chafa_term_db_get_fallback_info)(CALL(chafa_term_db_get_default)());
    GString *printed = CALL(chafa_canvas_print)(canvas, terminal);
    CALL(chafa_term_info_unref)(terminal);
    CALL(chafa_canvas_unref)(canvas);
    char *copy = malloc(printed->len + 1);
    if (copy != NULL) {
        memcpy(copy, printed->str, printed->len + 1);
        *length = printed->len;
    } else {
        interlude_copy_message(message, capacity, "out of memory");
    }
    CALL(g_string_free)(printed, TRUE);
    return copy;
}
