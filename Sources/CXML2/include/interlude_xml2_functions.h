/* libxml2's functions, each named once: see interlude_list_declare.h. Only
   loader.c calls them: a SAX2 push parser (interlude_xml2_parse) and what
   it needs to look entities up for references (counted against the
   document's expansion budget) and for the attributes read. */
INTERLUDE_USE(xmlSAXVersion)
INTERLUDE_USE(xmlCreatePushParserCtxt)
INTERLUDE_USE(xmlCtxtUseOptions)
INTERLUDE_USE(xmlParseChunk)
INTERLUDE_USE(xmlStopParser)
INTERLUDE_USE(xmlFreeParserCtxt)
INTERLUDE_USE(xmlFreeDoc)
INTERLUDE_USE(xmlDictOwns)
INTERLUDE_USE(xmlDictLookup)
INTERLUDE_USE(xmlDictQLookup)
INTERLUDE_USE(xmlSAX2GetEntity)
INTERLUDE_USE(xmlGetDocEntity)
