/// What an XML reader hands a document's consumer, element by element, so
/// that the feed and OPML logic stays pure and the reader (libxml2's, at the
/// edge) stays thin: a start with the element's namespace and attributes,
/// its text (entities replaced, CDATA as text), its end.
public struct XMLElementName: Sendable, Equatable {
    /// The namespace URI, nil when the element has none (or its prefix is undeclared).
    public var namespace: String?
    public var localName: String
    /// As written, prefix included ("itunes:duration").
    public var qualifiedName: String

    public init(namespace: String?, localName: String, qualifiedName: String) {
        self.namespace = namespace
        self.localName = localName
        self.qualifiedName = qualifiedName
    }
}

public protocol XMLEventHandler {
    /// `attributes` by their names as written ("xml:base", "isPermaLink"); namespace declarations left out.
    mutating func start(_ name: XMLElementName, attributes: [String: String])
    mutating func text(_ text: String)
    mutating func end()
}
