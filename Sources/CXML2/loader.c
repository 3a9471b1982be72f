/* libxml2 through dlopen: see interlude_xml2.h for why. */
#include <string.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#include "interlude_xml2.h"

#define INTERLUDE_LIST "interlude_xml2_functions.h"
#include "interlude_list_define.h"

static const char *const files[] = { "libxml2.so.2" };
static struct interlude_library library = { .files = files, .file_count = 1, INTERLUDE_LIBRARY_LIST };

int interlude_xml2_load(char *message, size_t capacity) { return interlude_library_load(&library, message, capacity); }
struct interlude_library *interlude_xml2_library(void) { return &library; }

/* libxml2 calls this for each error and warning of the reader's parse.
   Warnings are not the feed's damage; the first fatal error (the one that
   stopped the reading) is kept over earlier ones (an undeclared prefix). */
static void record(void *context, xmlErrorPtr error) {
    struct interlude_xml2_problem *problem = context;
    if (error == NULL || error->level < XML_ERR_ERROR) return;
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

xmlTextReaderPtr interlude_xml2_reader(const char *buffer, int size, const char *url, struct interlude_xml2_problem *problem) {
    memset(problem, 0, sizeof *problem);
    int options = XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_NOWARNING | XML_PARSE_COMPACT;
    xmlTextReaderPtr reader = INTERLUDE_RESOLVED(xmlReaderForMemory)(buffer, size, url, NULL, options);
    if (reader != NULL) INTERLUDE_RESOLVED(xmlTextReaderSetStructuredErrorHandler)(reader, record, problem);
    return reader;
}
