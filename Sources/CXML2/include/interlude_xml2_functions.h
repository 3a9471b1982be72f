/* libxml2's functions, each named once: see interlude_list_declare.h. The
   reader's xmlTextReader* calls; node types are libxml2's xmlReaderTypes
   (1 element, 3 text, 4 CDATA, 14 significant whitespace, 15 end element). */
INTERLUDE_CALL(int, xmlTextReaderRead, (xmlTextReaderPtr reader), (reader))
INTERLUDE_CALL(int, xmlTextReaderNodeType, (xmlTextReaderPtr reader), (reader))
INTERLUDE_CALL(int, xmlTextReaderIsEmptyElement, (xmlTextReaderPtr reader), (reader))
INTERLUDE_CALL(int, xmlTextReaderDepth, (xmlTextReaderPtr reader), (reader))
INTERLUDE_CALL(const xmlChar *, xmlTextReaderConstLocalName, (xmlTextReaderPtr reader), (reader))
INTERLUDE_CALL(const xmlChar *, xmlTextReaderConstName, (xmlTextReaderPtr reader), (reader))
INTERLUDE_CALL(const xmlChar *, xmlTextReaderConstNamespaceUri, (xmlTextReaderPtr reader), (reader))
INTERLUDE_CALL(const xmlChar *, xmlTextReaderConstValue, (xmlTextReaderPtr reader), (reader))
INTERLUDE_CALL(int, xmlTextReaderMoveToNextAttribute, (xmlTextReaderPtr reader), (reader))
INTERLUDE_CALL(int, xmlTextReaderMoveToElement, (xmlTextReaderPtr reader), (reader))
INTERLUDE_CALL(void, xmlFreeTextReader, (xmlTextReaderPtr reader), (reader))
INTERLUDE_USE(xmlReaderForMemory)
INTERLUDE_USE(xmlTextReaderSetStructuredErrorHandler)
