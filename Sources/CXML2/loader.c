/* libxml2 through dlopen: see interlude_xml2.h for why. */
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include "interlude_xml2.h"

#define INTERLUDE_LIST "interlude_xml2_functions.h"
#include "interlude_list_define.h"

static const char *const files[] = { "libxml2.so.2" };
static struct interlude_library library = { .files = files, .file_count = 1, INTERLUDE_LIBRARY_LIST };

int interlude_xml2_load(char *message, size_t capacity) { return interlude_library_load(&library, message, capacity); }
struct interlude_library *interlude_xml2_library(void) { return &library; }

/* One parse's state, the parser's `_private`: libxml2's own SAX2 handlers
   (used for the DTD) need the parser itself as the callbacks' context. */
struct session {
    struct interlude_xml2_problem *problem;
    xmlParserCtxtPtr parser;
    const struct interlude_xml2_events *events;
    int collecting;
    int stopped;
    int depth;
    struct interlude_xml2_attribute *attributes;
    xmlChar **decoded;
    int capacity;
    xmlFreeFunc free;
};

/* The session of a callback's context, NULL for any parser but the
   document's own: libxml2 parses an entity's replacement text with the
   document's callbacks in a parser of its own when the entity is referenced
   (to check it, and again at each reference since these callbacks build no
   tree). libxml2's reader shows none of that (the entity stays a
   reference); neither does this. */
static struct session *session_of(void *context) {
    xmlParserCtxtPtr parser = context;
    struct session *session = parser == NULL ? NULL : parser->_private;
    if (session == NULL || session->parser != parser || parser->depth > 0) return NULL;
    return session;
}

/* libxml2 calls this for each error and warning of the parse. Warnings are
   not the feed's damage; the first fatal error (the one that stopped the
   reading) is kept over earlier ones (an undeclared prefix). */
static void record(void *context, xmlErrorPtr error) {
    /* An entity's own parser's errors too (see session_of). */
    xmlParserCtxtPtr parser = context;
    struct session *session = parser == NULL ? NULL : parser->_private;
    if (session == NULL || error == NULL || error->level < XML_ERR_ERROR) return;
    struct interlude_xml2_problem *problem = session->problem;
    int first = problem->errors++ == 0;
    if (error->level == XML_ERR_FATAL && !problem->fatal) { problem->fatal = 1; first = 1; }
    if (first) {
        interlude_copy_message(problem->message, sizeof problem->message, error->message);
        size_t length = strlen(problem->message);
        while (length > 0 && (problem->message[length - 1] == '\n' || problem->message[length - 1] == ' '))
            problem->message[--length] = 0;
        problem->line = error->line;
    }
}

static int reserve(struct session *session, int count) {
    if (count <= session->capacity) return 1;
    int capacity = count < 16 ? 16 : count;
    struct interlude_xml2_attribute *attributes = realloc(session->attributes, sizeof *attributes * (size_t)capacity);
    if (attributes == NULL) return 0;
    session->attributes = attributes;
    xmlChar **decoded = realloc(session->decoded, sizeof *decoded * (size_t)capacity);
    if (decoded == NULL) return 0;
    session->decoded = decoded;
    session->capacity = capacity;
    return 1;
}

static void start_element(void *context, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
                          int namespace_count, const xmlChar **namespaces, int count, int defaulted,
                          const xmlChar **given) {
    (void)namespace_count; (void)namespaces;
    struct session *session = session_of(context);
    if (session == NULL || session->stopped) return;
    xmlParserCtxtPtr parser = session->parser;
    /* libxml2's tree (its reader's too) refuses to go deeper than this
       without XML_PARSE_HUGE; its SAX2 parser has no such limit. The same
       error, so that the same documents are read the same way. */
    if (++session->depth > 257) {
        struct interlude_xml2_problem *problem = session->problem;
        if (!problem->fatal) {
            problem->errors++;
            problem->fatal = 1;
            interlude_copy_message(problem->message, sizeof problem->message,
                                   "Excessive depth in document: 256 use XML_PARSE_HUGE option");
            problem->line = parser->input != NULL ? parser->input->line : 0;
        }
        session->stopped = 2;
        INTERLUDE_RESOLVED(xmlStopParser)(parser);
        return;
    }
    xmlDictPtr dict = parser->dict;
    /* libxml2's tree names an element of an undeclared prefix "prefix:name", without namespace. */
    if (prefix != NULL && uri == NULL) {
        const xmlChar *qualified = INTERLUDE_RESOLVED(xmlDictQLookup)(dict, prefix, name);
        if (qualified != NULL) { name = qualified; prefix = NULL; }
    }
    /* Names and prefixes are the dictionary's; a namespace URI is too as
       libxml2 keeps it, which this makes sure of, since the consumer
       compares them by address. */
    if (uri != NULL && !INTERLUDE_RESOLVED(xmlDictOwns)(dict, uri)) uri = INTERLUDE_RESOLVED(xmlDictLookup)(dict, uri, -1);
    /* Attributes libxml2 added from the DTD's defaults: the tree leaves them out too. */
    if ((parser->loadsubset & XML_COMPLETE_ATTRS) == 0) count -= defaulted;
    if (count < 0 || !reserve(session, count)) count = 0;
    int decoded = 0;
    for (int index = 0; index < count; index++) {
        const xmlChar **fields = given + 5 * index;
        struct interlude_xml2_attribute *attribute = &session->attributes[index];
        attribute->prefix = fields[1];
        attribute->name = fields[0];
        attribute->value = fields[3];
        attribute->length = (int)(fields[4] - fields[3]);
        /* A value that held a reference other than a character's (`&amp;`
           included) comes with the reference kept ("&#38;", "&name;"), for
           the tree to resolve: resolved here the tree's way. */
        if (memchr(attribute->value, '&', (size_t)attribute->length) != NULL && parser->myDoc != NULL) {
            xmlNodePtr list = INTERLUDE_RESOLVED(xmlStringLenGetNodeList)(parser->myDoc, attribute->value, attribute->length);
            xmlChar *text = INTERLUDE_RESOLVED(xmlNodeListGetString)(parser->myDoc, list, 1);
            INTERLUDE_RESOLVED(xmlFreeNodeList)(list);
            if (text != NULL) {
                session->decoded[decoded++] = text;
                attribute->value = text;
                attribute->length = (int)strlen((const char *)text);
            } else {
                attribute->length = 0;
            }
        }
    }
    int answer = session->events->start(session->events->context, name, prefix, uri, session->attributes, count);
    for (int index = 0; index < decoded; index++) session->free(session->decoded[index]);
    if (answer < 0) {
        session->stopped = 1;
        INTERLUDE_RESOLVED(xmlStopParser)(parser);
    } else {
        session->collecting = answer;
    }
}

static void end_element(void *context, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri) {
    (void)name; (void)prefix; (void)uri;
    struct session *session = session_of(context);
    if (session == NULL || session->stopped) return;
    session->depth--;
    session->collecting = session->events->end(session->events->context);
}

static void characters(void *context, const xmlChar *bytes, int length) {
    struct session *session = session_of(context);
    if (session == NULL || !session->collecting || session->stopped) return;
    session->events->text(session->events->context, bytes, length);
}

int interlude_xml2_parse(const char *buffer, int size, const char *url, const struct interlude_xml2_events *events,
                         struct interlude_xml2_problem *problem) {
    memset(problem, 0, sizeof *problem);
    struct session session = { .problem = problem, .events = events };
    xmlMallocFunc allocate; xmlReallocFunc reallocate; xmlStrdupFunc duplicate;
    if (INTERLUDE_RESOLVED(xmlMemGet)(&session.free, &allocate, &reallocate, &duplicate) != 0 || session.free == NULL) return -1;
    /* libxml2's SAX2 handlers for the document and its DTD (so that entities
       declared in it are known, as the tree knows them), this file's for
       elements and text; nothing for references, comments, instructions. */
    xmlSAXHandler handler;
    INTERLUDE_RESOLVED(xmlSAXVersion)(&handler, 2);
    handler.startElementNs = start_element;
    handler.endElementNs = end_element;
    handler.characters = characters;
    handler.ignorableWhitespace = characters;
    handler.cdataBlock = characters;
    handler.reference = NULL;
    handler.comment = NULL;
    handler.processingInstruction = NULL;
    handler.warning = NULL;
    handler.error = NULL;
    handler.fatalError = NULL;
    handler.serror = record;
    /* The first bytes tell the parser the document's encoding. */
    int head = size < 4 ? size : 4;
    xmlParserCtxtPtr parser = INTERLUDE_RESOLVED(xmlCreatePushParserCtxt)(&handler, NULL, buffer, head, url);
    if (parser == NULL) return -1;
    session.parser = parser;
    parser->_private = &session;
    INTERLUDE_RESOLVED(xmlCtxtUseOptions)(parser, XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_NOWARNING);
    /* In pieces: the parser copies what it is given, and keeps less this way. */
    const int piece = 256 << 10;
    int offset = head;
    while (offset < size && !session.stopped && parser->wellFormed) {
        int length = size - offset < piece ? size - offset : piece;
        INTERLUDE_RESOLVED(xmlParseChunk)(parser, buffer + offset, length, 0);
        offset += length;
    }
    if (!session.stopped && parser->wellFormed) INTERLUDE_RESOLVED(xmlParseChunk)(parser, NULL, 0, 1);
    /* Stopped by `start`, the document was read as far as wanted; by the depth, it broke off. */
    int broken = session.stopped == 2 || (!session.stopped && !parser->wellFormed);
    if (parser->myDoc != NULL) INTERLUDE_RESOLVED(xmlFreeDoc)(parser->myDoc);
    parser->myDoc = NULL;
    INTERLUDE_RESOLVED(xmlFreeParserCtxt)(parser);
    free(session.attributes);
    free(session.decoded);
    return broken ? 1 : 0;
}
