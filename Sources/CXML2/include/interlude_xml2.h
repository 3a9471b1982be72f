#ifndef INTERLUDE_XML2_H
#define INTERLUDE_XML2_H

#include <stddef.h>
#include "interlude_shims.h"

/* libxml2 is loaded with dlopen when a podcast feed or an OPML file is first
   read, not linked: playback maps none of it. Its headers live under
   /usr/include/libxml2, which Swift's importer does not search, so this
   header declares the few opaque types the wrappers name, as libxml2's own
   headers do (the same typedefs: loader.c includes both, and the compiler
   checks that they agree and that every wrapper's type is the library's).

   Only Sources/Interlude/Podcasts/XMLReader.swift calls these; one reader is
   used by one thread. */

typedef unsigned char xmlChar;
typedef struct _xmlTextReader xmlTextReader;
typedef xmlTextReader *xmlTextReaderPtr;

/* Loads libxml2.so.2: interlude_library_load's rule (0, or -1 with
   "<file>: <why>" in `message`). */
int interlude_xml2_load(char *message, size_t capacity);

/* The library as the loader sees it: for tests. */
struct interlude_library *interlude_xml2_library(void);

/* What went wrong while reading: the first fatal error (else the first
   error), its line, how many errors, whether one was fatal. */
struct interlude_xml2_problem {
    char message[240];
    int line;
    int errors;
    int fatal;
};

/* A pull reader over `size` bytes at `buffer` (kept alive by the caller until
   the reader is freed), `url` the document's URL for its messages. Never
   reaches the network nor substitutes entities (no external DTD, no
   expansion: a billion laughs stays one reference), CDATA arrives as text.
   libxml2's errors go to `problem`, never to stderr. NULL when libxml2 cannot
   start a reader (no memory). */
xmlTextReaderPtr interlude_xml2_reader(const char *buffer, int size, const char *url, struct interlude_xml2_problem *problem);

#define INTERLUDE_LIST "interlude_xml2_functions.h"
#include "interlude_list_declare.h"
#undef INTERLUDE_LIST

#endif
