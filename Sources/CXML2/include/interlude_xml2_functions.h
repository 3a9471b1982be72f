/* libxml2's functions, each named once: see interlude_list_declare.h. Only
   loader.c calls them: a SAX2 push parser (interlude_xml2_parse) and what
   it needs to give attribute values with entity references as libxml2's
   own tree gives them. */
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
INTERLUDE_USE(xmlStringLenGetNodeList)
INTERLUDE_USE(xmlNodeListGetString)
INTERLUDE_USE(xmlFreeNodeList)
INTERLUDE_USE(xmlMemGet)
