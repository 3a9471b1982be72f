/* libpng's simplified API, each function named once: see interlude_list_declare.h. */
INTERLUDE_USE(png_image_begin_read_from_memory)
INTERLUDE_USE(png_image_finish_read)
INTERLUDE_USE(png_image_free)
