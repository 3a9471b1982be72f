/* libjpeg's functions, each named once: see interlude_list_declare.h. The
   decoder's C (jpeg.c) calls them; nothing else does. */
INTERLUDE_USE(jpeg_std_error)
INTERLUDE_USE(jpeg_CreateDecompress)
INTERLUDE_USE(jpeg_mem_src)
INTERLUDE_USE(jpeg_read_header)
INTERLUDE_USE(jpeg_calc_output_dimensions)
INTERLUDE_USE(jpeg_start_decompress)
INTERLUDE_USE(jpeg_read_scanlines)
INTERLUDE_USE(jpeg_finish_decompress)
INTERLUDE_USE(jpeg_destroy_decompress)
