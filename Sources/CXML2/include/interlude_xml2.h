#ifndef INTERLUDE_XML2_H
#define INTERLUDE_XML2_H

#include <stddef.h>
#include "interlude_shims.h"

/* libxml2 is loaded with dlopen when a podcast feed or an OPML file is first
   read, not linked: playback maps none of it. Its headers live under
   /usr/include/libxml2, which Swift's importer does not search, so this
   header declares the one type the interface names, as libxml2's own
   headers do (the same typedef: loader.c includes both, and the compiler
   checks that they agree).

   Only Sources/Interlude/Podcasts/XMLReader.swift calls these. */

typedef unsigned char xmlChar;

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

/* What all entity references of one document may expand to, in text, in
   attributes read and inside other entities: past it the document breaks
   off there (see charge() in loader.c). */
enum { INTERLUDE_XML2_EXPANSION_LIMIT = 4 << 20 };

/* One attribute of an element as written, namespace declarations left out:
   `prefix` NULL when it has none; `value` (`length` bytes, no NUL) with
   character references replaced, and, when `references` is set, the other
   references still in it, as libxml2 leaves them ("&#38;" for `&amp;`,
   "&name;"): interlude_xml2_attribute_text gives the value the tree would.
   `parse` is the parse's, for that. Valid during the start call. */
struct interlude_xml2_attribute {
    const xmlChar *prefix;
    const xmlChar *name;
    const xmlChar *value;
    int length;
    int references;
    void *parse;
};

/* During the start call: the attribute's value with its references
   replaced, charged to the document's expansion budget, in `text` (malloc'd,
   `length` bytes, no NUL; freed with interlude_xml2_free_text). 0, or -1
   past the budget (or without memory): then the document breaks off at
   this element, with the reason in its problem, once `start` returns. */
int interlude_xml2_attribute_text(const struct interlude_xml2_attribute *attribute, xmlChar **text, size_t *length);
void interlude_xml2_free_text(xmlChar *text);

/* What the parse hands its consumer, element by element.

   `start`: an element's local name, prefix and namespace URI (NULL when it
   has none; an undeclared prefix is part of the name, "itunes:duration",
   as libxml2's tree names such an element). The three pointers are owned
   by the parse's dictionary: for one parse, the same name is the same
   pointer, so they may be compared by address. It returns 1 to receive the
   text from here on (`text`, in pieces, entities replaced, CDATA as text),
   0 not to, -1 to end the parse there.

   `end`: the element's end; it returns 1 to keep receiving text, else 0.

   Nothing arrives from inside an entity's replacement text: text holds no
   entity other than the predefined ones and character references. */
struct interlude_xml2_events {
    void *context;
    int (*start)(void *context, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
                 const struct interlude_xml2_attribute *attributes, int count);
    void (*text)(void *context, const xmlChar *bytes, int length);
    int (*end)(void *context);
};

/* Parses `size` bytes at `buffer` into `events` with libxml2's SAX2 push
   parser, `url` the document's URL for its messages. Never reaches the
   network nor substitutes entities (no external DTD, no expansion: a
   billion laughs stays one reference), CDATA arrives as text. What
   libxml2 parses of entities' replacement texts to check them, and what
   attributes read expand to, is bounded by INTERLUDE_XML2_EXPANSION_LIMIT. libxml2's
   errors go to `problem`, never to stderr. 0 when the document was read
   (or `start` ended it), 1 when it broke off (a fatal error: `problem`
   says which; the events before it were all delivered), -1 when libxml2
   could not start a parser (no memory). One parse runs on one thread. */
int interlude_xml2_parse(const char *buffer, int size, const char *url, const struct interlude_xml2_events *events,
                         struct interlude_xml2_problem *problem);

#define INTERLUDE_LIST "interlude_xml2_functions.h"
#include "interlude_list_declare.h"
#undef INTERLUDE_LIST

#endif
