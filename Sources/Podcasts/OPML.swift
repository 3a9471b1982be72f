/// OPML subscription lists as gPodder and AntennaPod write and read them:
/// `<outline type="rss" text="TITLE" title="TITLE" xmlUrl="URL"/>` in the
/// body of an OPML 2.0 document. Reading takes every outline with an
/// `xmlUrl` at any depth (AntennaPod's and others' folders), its title from
/// `title` or else `text`.
public enum OPML {
    public struct Entry: Sendable, Equatable {
        public var url: String
        public var title: String

        public init(url: String, title: String) {
            self.url = url
            self.title = title
        }
    }

    /// The document, UTF-8; `created` as an RFC 822 date.
    public static func document(_ entries: [Entry], created: String) -> String {
        var text = """
        <?xml version="1.0" encoding="utf-8"?>
        <opml version="2.0">
          <head>
            <title>Interlude subscriptions</title>
            <dateCreated>\(escaped(created))</dateCreated>
          </head>
          <body>

        """
        for entry in entries {
            let title = escaped(entry.title)
            text += "    <outline text=\"\(title)\" title=\"\(title)\" type=\"rss\" xmlUrl=\"\(escaped(entry.url))\"/>\n"
        }
        text += "  </body>\n</opml>\n"
        return text
    }

    /// Text as an attribute value: `&`, `<`, `>`, `"` and the white space an attribute would fold.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            default:
                // XML 1.0 has no place for other C0 controls: left out.
                if scalar.value >= 0x20 { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }

    /// An `XMLEventHandler` collecting the outlines.
    public struct Reader: XMLEventHandler {
        public private(set) var entries: [Entry] = []
        public private(set) var rootElement: String?

        public init() {}

        public mutating func kind(of name: XMLElementName) -> Int {
            if rootElement == nil { rootElement = name.localName }
            return name.localName == "outline" ? 1 : 0
        }

        public mutating func start<Attributes: XMLAttributeList>(_ kind: Int, attributes: Attributes) -> XMLStartAnswer {
            guard rootElement == "opml", kind == 1,
                  let url = (attributes.value("xmlUrl") ?? attributes.value("xmlurl"))?.trimmingFeedWhitespace(), !url.isEmpty
            else { return .skipText }
            let title = (attributes.value("title") ?? attributes.value("text") ?? "").squashingWhitespace()
            entries.append(Entry(url: url, title: title))
            return .skipText
        }

        public mutating func end(text: UnsafeBufferPointer<UInt8>?) {}
    }
}
