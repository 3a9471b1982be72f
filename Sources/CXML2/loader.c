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

/* One parse's state, the parser's `_private` (the parsers libxml2 makes
   for an entity's replacement text carry it too): libxml2's own SAX2
   handlers (used for the DTD) need the parser itself as the callbacks'
   context. */
struct session {
    struct interlude_xml2_problem *problem;
    xmlParserCtxtPtr parser;
    const struct interlude_xml2_events *events;
    int collecting;
    int stopped;
    int depth;
    struct interlude_xml2_attribute *attributes;
    int capacity;
    /* The bytes entity references have expanded to (INTERLUDE_XML2_EXPANSION_LIMIT at most). */
    size_t expanded;
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
    session->capacity = capacity;
    return 1;
}

/* The document breaks off here with `message` (the fatal error kept over
   any before it), and no element or text after it is delivered. */
static void break_off(struct session *session, const char *message) {
    struct interlude_xml2_problem *problem = session->problem;
    if (!problem->fatal) {
        problem->errors++;
        problem->fatal = 1;
        interlude_copy_message(problem->message, sizeof problem->message, message);
        xmlParserCtxtPtr parser = session->parser;
        problem->line = parser != NULL && parser->input != NULL ? parser->input->line : 0;
    }
    session->stopped = 2;
}

/* libxml2 parses an internal entity's replacement text again at every
   reference when no tree is built (this parse's case), and this file
   expands an attribute's references when it is read: one entity of 300 KB
   referenced 4,000 times is 1.2 GB of text from a 300 KB document, which
   no loop check catches (libxml2 2.9's counts nested references, not
   bytes; the byte budget of 2.11, xmlCtxtSetMaxAmplification, is not in
   Debian 12's 2.9.14). So each reference is charged its replacement
   text's length here, however deep, in text, in an attribute's value or
   in another entity: past INTERLUDE_XML2_EXPANSION_LIMIT the document
   breaks off, and keeps what came before. A feed has no use for so much:
   its entities are a few characters (`&nbsp;` declared in a DTD, a
   publisher's name), and text inside one never reaches the consumer. */
static int charge(struct session *session, size_t bytes) {
    if (bytes <= INTERLUDE_XML2_EXPANSION_LIMIT - session->expanded) {
        session->expanded += bytes;
        return 1;
    }
    session->expanded = INTERLUDE_XML2_EXPANSION_LIMIT;
    break_off(session, "its entity references expand to more than 4 MB");
    return 0;
}

/* Ends a parser's work from inside it without freeing what it is reading
   (xmlStopParser frees its input, which a caller up the stack, an attribute
   being parsed, may still point into): it reads no more, calls no more
   handlers, and a reference it looks up is not expanded. */
static void halt(xmlParserCtxtPtr parser) {
    parser->instate = XML_PARSER_EOF;
    parser->disableSAX = 1;
    parser->wellFormed = 0;
}

/* libxml2 looks each entity reference up here, the document's own and
   those inside an entity's replacement text (each in a parser of its own
   with the same `_private`), in content and in attribute values. A
   declaration's own look-up (in the DTD) is no reference. Past the budget
   the entity is not found and every parser of the document halts. */
static xmlEntityPtr get_entity(void *context, const xmlChar *name) {
    xmlParserCtxtPtr parser = context;
    struct session *session = parser == NULL ? NULL : parser->_private;
    if (session == NULL) return INTERLUDE_RESOLVED(xmlSAX2GetEntity)(context, name);
    if (session->expanded >= INTERLUDE_XML2_EXPANSION_LIMIT) {
        halt(parser);
        return NULL;
    }
    xmlEntityPtr entity = INTERLUDE_RESOLVED(xmlSAX2GetEntity)(context, name);
    if (entity == NULL || parser->inSubset != 0 || entity->etype != XML_INTERNAL_GENERAL_ENTITY) return entity;
    if (charge(session, entity->length > 0 ? (size_t)entity->length : 0)) return entity;
    halt(parser);
    if (session->parser != NULL) halt(session->parser);
    return NULL;
}

/* A growing text of at most INTERLUDE_XML2_EXPANSION_LIMIT bytes more than
   the value it started from (what is added is charged first). */
struct text {
    xmlChar *bytes;
    size_t length, capacity;
};

static int append(struct text *text, const xmlChar *bytes, size_t length) {
    if (length > text->capacity - text->length) {
        size_t capacity = text->capacity < 64 ? 64 : text->capacity;
        while (capacity - text->length < length) capacity *= 2;
        xmlChar *grown = realloc(text->bytes, capacity);
        if (grown == NULL) return 0;
        text->bytes = grown;
        text->capacity = capacity;
    }
    memcpy(text->bytes + text->length, bytes, length);
    text->length += length;
    return 1;
}

/* A character reference's code point ("#38", "#x26"), 0 when it is none
   or names no character XML allows. */
static unsigned long character(const xmlChar *name, size_t length) {
    if (length < 2 || name[0] != '#') return 0;
    int hex = name[1] == 'x';
    size_t index = hex ? 2 : 1;
    if (index == length) return 0;
    unsigned long value = 0;
    for (; index < length; index++) {
        int digit = name[index] >= '0' && name[index] <= '9' ? name[index] - '0'
            : hex && name[index] >= 'a' && name[index] <= 'f' ? name[index] - 'a' + 10
            : hex && name[index] >= 'A' && name[index] <= 'F' ? name[index] - 'A' + 10 : -1;
        if (digit < 0) return 0;
        value = value * (hex ? 16 : 10) + (unsigned long)digit;
        if (value > 0x10FFFF) return 0;
    }
    int allowed = value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value <= 0xD7FF)
        || (value >= 0xE000 && value <= 0xFFFD) || value >= 0x10000;
    return allowed ? value : 0;
}

static int append_character(struct text *text, unsigned long value) {
    xmlChar bytes[4];
    size_t length;
    if (value < 0x80) { bytes[0] = (xmlChar)value; length = 1; }
    else if (value < 0x800) { bytes[0] = (xmlChar)(0xC0 | value >> 6); bytes[1] = (xmlChar)(0x80 | (value & 0x3F)); length = 2; }
    else if (value < 0x10000) {
        bytes[0] = (xmlChar)(0xE0 | value >> 12); bytes[1] = (xmlChar)(0x80 | (value >> 6 & 0x3F));
        bytes[2] = (xmlChar)(0x80 | (value & 0x3F)); length = 3;
    } else {
        bytes[0] = (xmlChar)(0xF0 | value >> 18); bytes[1] = (xmlChar)(0x80 | (value >> 12 & 0x3F));
        bytes[2] = (xmlChar)(0x80 | (value >> 6 & 0x3F)); bytes[3] = (xmlChar)(0x80 | (value & 0x3F)); length = 4;
    }
    return append(text, bytes, length);
}

/* Appends `value` with its references replaced as libxml2's tree replaces
   them in an attribute (xmlStringGetNodeList, then xmlNodeListGetString):
   a character reference by its character, a predefined entity by its
   character, a declared internal entity by its replacement text with that
   text's own references replaced in turn (each charged to the budget), an
   undeclared or external one by nothing. libxml2 has checked the value's
   references for loops; `depth` bounds them anyway, as libxml2's 40. 0 past
   the budget or without memory. */
static int expand(struct session *session, const xmlChar *value, size_t length, struct text *text, int depth) {
    static const struct { const char *name; char value; } predefined[] = {
        { "lt", '<' }, { "gt", '>' }, { "amp", '&' }, { "apos", '\'' }, { "quot", '"' },
    };
    size_t index = 0;
    while (index < length) {
        const xmlChar *reference = memchr(value + index, '&', length - index);
        size_t run = reference == NULL ? length - index : (size_t)(reference - (value + index));
        if (run > 0 && !append(text, value + index, run)) return 0;
        index += run;
        if (reference == NULL) break;
        const xmlChar *end = memchr(reference, ';', length - index);
        /* libxml2 keeps only whole references: a bare '&' is kept as it is. */
        if (end == NULL) return append(text, reference, length - index);
        const xmlChar *name = reference + 1;
        size_t name_length = (size_t)(end - name);
        index += name_length + 2;
        if (name_length > 0 && name[0] == '#') {
            unsigned long code = character(name, name_length);
            if (code != 0 && !append_character(text, code)) return 0;
            continue;
        }
        int known = 0;
        for (size_t entry = 0; entry < sizeof predefined / sizeof predefined[0]; entry++) {
            if (strlen(predefined[entry].name) == name_length && memcmp(predefined[entry].name, name, name_length) == 0) {
                if (!append(text, (const xmlChar *)&predefined[entry].value, 1)) return 0;
                known = 1;
                break;
            }
        }
        if (known || session->parser->myDoc == NULL) continue;
        /* A name as libxml2 keeps it, NUL-terminated (names are the dictionary's). */
        const xmlChar *terminated = INTERLUDE_RESOLVED(xmlDictLookup)(session->parser->dict, name, (int)name_length);
        xmlEntityPtr entity = terminated == NULL ? NULL : INTERLUDE_RESOLVED(xmlGetDocEntity)(session->parser->myDoc, terminated);
        if (entity == NULL || entity->etype != XML_INTERNAL_GENERAL_ENTITY || entity->content == NULL) continue;
        if (depth >= 40) {
            break_off(session, "an attribute's entity references nest more than 40 deep");
            return 0;
        }
        size_t content = entity->length > 0 ? (size_t)entity->length : 0;
        if (!charge(session, content) || !expand(session, entity->content, content, text, depth + 1)) return 0;
    }
    return 1;
}

int interlude_xml2_attribute_text(const struct interlude_xml2_attribute *attribute, xmlChar **text, size_t *length) {
    struct session *session = attribute->parse;
    *text = NULL;
    *length = 0;
    if (session == NULL || session->stopped) return -1;
    struct text expanded = { 0 };
    if (!expand(session, attribute->value, attribute->length > 0 ? (size_t)attribute->length : 0, &expanded, 0)) {
        free(expanded.bytes);
        if (!session->stopped) break_off(session, "out of memory expanding an attribute");
        return -1;
    }
    *text = expanded.bytes;
    *length = expanded.length;
    return 0;
}

void interlude_xml2_free_text(xmlChar *text) { free(text); }

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
        break_off(session, "Excessive depth in document: 256 use XML_PARSE_HUGE option");
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
    for (int index = 0; index < count; index++) {
        const xmlChar **fields = given + 5 * index;
        struct interlude_xml2_attribute *attribute = &session->attributes[index];
        attribute->prefix = fields[1];
        attribute->name = fields[0];
        attribute->value = fields[3];
        attribute->length = (int)(fields[4] - fields[3]);
        /* A value that held a reference other than a character's (`&amp;`
           included) comes with the reference kept ("&#38;", "&name;"), for
           the tree to resolve: resolved only if the consumer reads this
           attribute (interlude_xml2_attribute_text), within the document's
           expansion budget. */
        attribute->references = memchr(attribute->value, '&', (size_t)attribute->length) != NULL;
        attribute->parse = session;
    }
    int answer = session->events->start(session->events->context, name, prefix, uri, session->attributes, count);
    /* An attribute read past the budget: the document stops here, as at any entity past it. */
    if (session->stopped) {
        INTERLUDE_RESOLVED(xmlStopParser)(parser);
        return;
    }
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
    handler.getEntity = get_entity;
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
    return broken ? 1 : 0;
}
