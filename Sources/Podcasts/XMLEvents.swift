/// What an XML reader hands a document's consumer, element by element, so
/// that the feed and OPML logic stays pure and the reader (libxml2's, at the
/// edge) stays thin: a start with the element's kind and attributes, the
/// text it asked for at its end.
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

/// An element's attributes as written, namespace declarations left out;
/// read during the start that receives them, not kept.
public protocol XMLAttributeList {
    /// The value of the attribute named `name` as written ("xml:base",
    /// "isPermaLink"), references replaced; nil when it has none.
    func value(_ name: StaticString) -> String?
}

/// What a handler wants after an element's start.
public enum XMLStartAnswer: Sendable {
    case skipText, readText
    /// Nothing more: the reading ends here.
    case stop
}

/// A document's consumer. A feed of thousands of episodes has hundreds of
/// thousands of elements of a few dozen names: names are made into Strings
/// and judged once per document (`kind(of:)`), and text is copied only for
/// the elements that want it.
public protocol XMLEventHandler {
    /// What the handler makes of an element name, asked once per name in a
    /// document, the first element's first; the reader hands the answer to
    /// `start` for every element of that name.
    mutating func kind(of name: XMLElementName) -> Int
    /// An element starts; the answer says whether the handler wants its
    /// text (all of it up to the element's end, nested elements' included),
    /// or no more of the document.
    mutating func start<Attributes: XMLAttributeList>(_ kind: Int, attributes: Attributes) -> XMLStartAnswer
    /// The element started last and not yet ended ends; `text` is its text
    /// (UTF-8, valid during the call) when its start wanted it and no
    /// element inside it did, else nil.
    mutating func end(text: UnsafeBufferPointer<UInt8>?)
}
