/// URLs as feeds hold them: resolved against the feed's own URL (RFC 3986
/// section 5, with Python's `urljoin` rule that a reference with another
/// scheme, or a scheme that has no relative form, stands as it is) and
/// normalized as podcastparser's `normalize_feed_url` does (scheme and host
/// in lower case, an empty path as `/`, `feed:`, `itpc:` and `itms:` as
/// `http:`, nothing but http, https, ftp and file).
public enum FeedURL {
    /// The schemes whose references resolve relative to a base (Python's `uses_relative`).
    static let relativeSchemes: Set<String> = ["", "ftp", "http", "gopher", "nntp", "imap", "wais", "file", "https",
                                               "shttp", "mms", "prospero", "rtsp", "rtspu", "sftp", "svn", "svn+ssh",
                                               "ws", "wss"]

    /// The parts of a URL as Python's `urlsplit` cuts them.
    struct Parts: Equatable {
        var scheme = ""
        var authority: String?
        var path = ""
        var query: String?
        var fragment: String?

        /// Cut at the ASCII delimiters over the UTF-8 bytes, as `urlsplit` cuts
        /// code points (a String's Characters cost a grapheme break per step).
        init(_ text: String) {
            let utf8 = text.utf8
            var rest = utf8[...]
            func isSchemeByte(_ byte: UInt8) -> Bool {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                     UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                    return true
                default:
                    return false
                }
            }
            if let colon = rest.firstIndex(of: UInt8(ascii: ":")), colon != rest.startIndex {
                let candidate = rest[..<colon]
                if let first = candidate.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20),
                   candidate.allSatisfy(isSchemeByte) {
                    scheme = String(Substring(candidate)).lowercased()
                    rest = rest[rest.index(after: colon)...]
                }
            }
            if rest.starts(with: "//".utf8) {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
                authority = String(Substring(rest[..<end]))
                rest = rest[end...]
            }
            if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
                fragment = String(Substring(rest[rest.index(after: hash)...]))
                rest = rest[..<hash]
            }
            if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
                query = String(Substring(rest[rest.index(after: question)...]))
                rest = rest[..<question]
            }
            path = String(Substring(rest))
        }

        init(scheme: String, authority: String?, path: String, query: String?, fragment: String?) {
            self.scheme = scheme
            self.authority = authority
            self.path = path
            self.query = query
            self.fragment = fragment
        }

        /// `urlunsplit`: empty query and fragment are left out, a path under an authority starts with `/`.
        var text: String {
            var result = scheme.isEmpty ? "" : scheme + ":"
            var path = self.path
            if let authority, !authority.isEmpty || !scheme.isEmpty {
                if !path.isEmpty && !path.hasPrefix("/") { path = "/" + path }
                result += "//" + authority
            }
            result += path
            if let query, !query.isEmpty { result += "?" + query }
            if let fragment, !fragment.isEmpty { result += "#" + fragment }
            return result
        }
    }

    /// A base URL with its parts cut once, for the many references a feed resolves against it.
    struct Base {
        let text: String
        let parts: Parts

        init(_ text: String) {
            self.text = text
            parts = Parts(FeedURL.sanitized(text))
        }
    }

    /// `reference` resolved against `base`, as Python 3.11's `urljoin` does.
    public static func resolve(_ reference: String, against base: String) -> String {
        if base.isEmpty { return reference }
        if reference.isEmpty { return base }
        return resolve(reference, against: Base(base))
    }

    /// The same, against a base already cut.
    static func resolve(_ reference: String, against base: Base) -> String {
        if base.text.isEmpty { return reference }
        if reference.isEmpty { return base.text }
        // Most references are already absolute (or of another scheme): given
        // back as they are, uncut. Judged over the UTF-8 bytes (native
        // Strings: no copy), as Substring compares cost more than the work.
        var copy = reference, baseScheme = base.parts.scheme
        let asIs = copy.withUTF8 { utf8 -> Bool in
            guard let colon = plainSchemeLength(utf8) else { return false }
            let scheme = UnsafeBufferPointer(rebasing: utf8[..<colon])
            guard baseScheme.withUTF8({ scheme.elementsEqual($0) }) else { return true }
            let http = scheme.elementsEqual("http".utf8) || scheme.elementsEqual("https".utf8)
            return http && colon + 3 <= utf8.count && utf8[colon + 1] == UInt8(ascii: "/") && utf8[colon + 2] == UInt8(ascii: "/")
        }
        if asIs { return reference }
        if let resolved = resolvePlainRelative(reference, against: base) { return resolved }
        return resolveInFull(reference, against: base)
    }

    /// A reference that is a path and maybe a query (no scheme, authority or
    /// fragment, nothing `sanitized` takes out) against an http or https base
    /// with an authority: the base's scheme and authority, the merged path,
    /// the query, put together once. Nil for any other.
    static func resolvePlainRelative(_ reference: String, against base: Base) -> String? {
        guard var authority = base.parts.authority, base.parts.scheme == "http" || base.parts.scheme == "https" else { return nil }
        // Over the UTF-8 bytes of each part (native Strings: no copy), the
        // result written once into the String made (a String's `+=` and
        // UTF8View's indices cost tens of instructions a byte).
        var reference = reference, scheme = base.parts.scheme, basePath = base.parts.path
        return reference.withUTF8 { reference -> String? in
            guard let first = reference.first, first > 0x20, first != UInt8(ascii: "?"),
                  !(first == UInt8(ascii: "/") && reference.count > 1 && reference[1] == UInt8(ascii: "/")) else { return nil }
            var question: Int?
            for index in reference.indices {
                switch reference[index] {
                case UInt8(ascii: "#"), 0x09, 0x0A, 0x0D: return nil
                case UInt8(ascii: ":") where question == nil: return nil
                case UInt8(ascii: "?") where question == nil: question = index
                default: continue
                }
            }
            let path = UnsafeBufferPointer(rebasing: reference[..<(question ?? reference.count)])
            // The query with its `?`, left out when empty (`urlunsplit`).
            let query = question.map { $0 + 1 < reference.count ? UnsafeBufferPointer(rebasing: reference[$0...]) : nil }
                ?? nil
            return scheme.withUTF8 { scheme in
                authority.withUTF8 { authority in
                    basePath.withUTF8 { basePath in
                        if let (directory, rest) = plainMerge(base: basePath, reference: path) {
                            return joined(scheme, authority, UnsafeBufferPointer(rebasing: basePath[directory]),
                                          UnsafeBufferPointer(rebasing: path[rest]), query)
                        }
                        var merged = mergedPathInFull(base: String(decoding: basePath, as: UTF8.self),
                                                      reference: String(decoding: path, as: UTF8.self))
                        return merged.withUTF8 { joined(scheme, authority, $0, UnsafeBufferPointer(start: nil, count: 0), query) }
                    }
                }
            }
        }
    }

    /// `scheme://authority` then the path (`directory` then `rest`), `/`
    /// before it when it has none, then the query: one String, as
    /// `urlunsplit` puts them together.
    private static func joined(_ scheme: UnsafeBufferPointer<UInt8>, _ authority: UnsafeBufferPointer<UInt8>,
                               _ directory: UnsafeBufferPointer<UInt8>, _ rest: UnsafeBufferPointer<UInt8>,
                               _ query: UnsafeBufferPointer<UInt8>?) -> String {
        let pathFirst = directory.first ?? rest.first
        let slash = pathFirst != nil && pathFirst != UInt8(ascii: "/")
        let count = scheme.count + 3 + authority.count + (slash ? 1 : 0) + directory.count + rest.count + (query?.count ?? 0)
        return String(unsafeUninitializedCapacity: count) { output in
            var written = 0
            func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard !bytes.isEmpty else { return }
                _ = UnsafeMutableBufferPointer(rebasing: output[written..<(written + bytes.count)]).initialize(from: bytes)
                written += bytes.count
            }
            func put(_ byte: UInt8) {
                output[written] = byte
                written += 1
            }
            put(scheme)
            put(UInt8(ascii: ":"))
            put(UInt8(ascii: "/"))
            put(UInt8(ascii: "/"))
            put(authority)
            if slash { put(UInt8(ascii: "/")) }
            put(directory)
            put(rest)
            if let query { put(query) }
            return written
        }
    }

    /// `resolve` without its shortcut, step by step.
    static func resolveInFull(_ reference: String, against base: Base) -> String {
        if base.text.isEmpty { return reference }
        if reference.isEmpty { return base.text }
        let baseParts = base.parts
        var parts = Parts(sanitized(reference))
        let scheme = parts.scheme.isEmpty ? baseParts.scheme : parts.scheme
        if scheme != baseParts.scheme || !relativeSchemes.contains(scheme) { return reference }
        parts.scheme = scheme
        if parts.authority != nil { return parts.text }
        parts.authority = baseParts.authority
        if parts.path.isEmpty {
            parts.path = baseParts.path
            if parts.query == nil || parts.query == "" { parts.query = baseParts.query }
            return parts.text
        }
        parts.path = mergedPath(base: baseParts.path, reference: parts.path)
        return parts.text
    }

    /// The scheme of a URL that its parts would put back together as it is
    /// (`Parts(url).text == url` when it has an authority, and `sanitized`
    /// leaves it alone): a lower-case scheme, nothing `sanitized` takes out,
    /// no fragment, no empty query. Nil for any other.
    static func plainScheme(_ url: String) -> Substring? {
        var copy = url
        guard let length = copy.withUTF8({ plainSchemeLength($0) }) else { return nil }
        return Substring(url.utf8.prefix(length))
    }

    /// `plainScheme`'s length in bytes, over contiguous UTF-8.
    private static func plainSchemeLength(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), colon != utf8.startIndex, let last = utf8.last,
              last != UInt8(ascii: "?") else { return nil }
        for byte in utf8[..<colon] {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"),
                 UInt8(ascii: "-"), UInt8(ascii: "."):
                continue
            default:
                return nil
            }
        }
        guard let first = utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
              !utf8.contains(where: { $0 == UInt8(ascii: "#") || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return nil }
        return colon
    }

    /// What Python 3.11's `urlsplit` does first: leading C0 controls and spaces
    /// dropped, tabs and line breaks removed wherever they are.
    static func sanitized(_ url: String) -> String {
        // Most URLs have none of them: checked over the bytes (these are all ASCII).
        let utf8 = url.utf8
        if let first = utf8.first, first > 0x20, !utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return url }
        var scalars = String.UnicodeScalarView()
        for scalar in url.unicodeScalars.drop(while: { $0.value <= 0x20 }) where scalar != "\t" && scalar != "\r" && scalar != "\n" {
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// `urljoin`'s merge and removal of dot segments: empty segments inside a
    /// relative merge dropped, `..` above the root dropped.
    static func mergedPath(base: String, reference: String) -> String {
        var base = base, reference = reference
        let plain = base.withUTF8 { base in
            reference.withUTF8 { reference in
                plainMerge(base: base, reference: reference).map { directory, rest in
                    String(decoding: UnsafeBufferPointer(rebasing: base[directory]), as: UTF8.self)
                        + String(decoding: UnsafeBufferPointer(rebasing: reference[rest]), as: UTF8.self)
                }
            }
        }
        return plain ?? mergedPathInFull(base: base, reference: reference)
    }

    /// The merge of the common forms, as byte ranges: the base's directory
    /// (maybe none) then the rest of the reference, joined; nil for any other
    /// form (`mergedPathInFull`'s).
    ///
    /// An absolute path with no dot segment and no empty one has nothing to
    /// remove: it is the path (feeds' `/media/ep.mp3`). A relative one may
    /// start with `../` segments, then be plain (no dot segment, no empty
    /// one) under a plain directory: each `../` takes the directory's last
    /// segment off, and the root's `""` too once the directory is `/` (a
    /// merge above the root keeps no leading `/`, as `urljoin`'s list of
    /// segments pops its first ""); the two joined, nothing else to remove.
    static func plainMerge(base: UnsafeBufferPointer<UInt8>, reference: UnsafeBufferPointer<UInt8>)
        -> (directory: Range<Int>, rest: Range<Int>)? {
        guard let first = reference.first else { return nil }
        if first == UInt8(ascii: "/") {
            return hasDotOrEmptySegment(reference[...]) ? nil : (0..<0, reference.indices)
        }
        var restStart = 0
        var ups = 0
        while restStart + 3 <= reference.count, reference[restStart] == UInt8(ascii: "."),
              reference[restStart + 1] == UInt8(ascii: "."), reference[restStart + 2] == UInt8(ascii: "/") {
            restStart += 3
            ups += 1
        }
        guard restStart < reference.count, reference[restStart] != UInt8(ascii: "/"), reference[restStart] != UInt8(ascii: "."),
              !hasDotOrEmptySegment(reference[restStart...]),
              base.first == UInt8(ascii: "/"), let slash = base.lastIndex(of: UInt8(ascii: "/")),
              !hasDotOrEmptySegment(base[...slash]) else { return nil }
        // The directory, `/` at both ends: `ups` segments off its end.
        var directoryEnd = slash + 1
        for _ in 0..<ups {
            guard directoryEnd > 1 else { return (0..<0, restStart..<reference.count) }
            directoryEnd = base[..<(directoryEnd - 1)].lastIndex(of: UInt8(ascii: "/"))! + 1
        }
        return (0..<directoryEnd, restStart..<reference.count)
    }

    /// `mergedPath` without its shortcut, step by step.
    static func mergedPathInFull(base: String, reference: String) -> String {
        // Segments cut and compared over the UTF-8 bytes, as `urljoin` cuts code points.
        typealias Segment = Substring.UTF8View
        func split(_ text: String) -> [Segment] { text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) }
        func isDot(_ segment: Segment) -> Bool { segment.elementsEqual(".".utf8) }
        func isDotDot(_ segment: Segment) -> Bool { segment.elementsEqual("..".utf8) }
        var segments: [Segment]
        if reference.utf8.first == UInt8(ascii: "/") {
            segments = split(reference)
        } else {
            var baseSegments = split(base)
            if let last = baseSegments.last, !last.isEmpty { baseSegments.removeLast() }
            segments = baseSegments + split(reference)
            if segments.count > 2 {
                segments = [segments[0]] + segments[1..<(segments.count - 1)].filter { !$0.isEmpty } + [segments[segments.count - 1]]
            }
        }
        var resolved: [Segment] = []
        for segment in segments {
            if isDotDot(segment) {
                if !resolved.isEmpty { resolved.removeLast() }
            } else if !isDot(segment) {
                resolved.append(segment)
            }
        }
        if let last = segments.last, isDot(last) || isDotDot(last) { resolved.append(""[...].utf8) }
        var joined = ""
        for (index, segment) in resolved.enumerated() {
            if index > 0 { joined += "/" }
            joined += Substring(segment)
        }
        return joined.isEmpty ? "/" : joined
    }

    /// Whether a path holds `/.` (a segment that may be a dot segment) or `//` (an empty segment).
    private static func hasDotOrEmptySegment(_ path: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var previousIsSlash = false
        for byte in path {
            if previousIsSlash && (byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")) { return true }
            previousIsSlash = byte == UInt8(ascii: "/")
        }
        return false
    }

    /// podcastparser's `normalize_feed_url`: nil for what is no feed or media URL.
    public static func normalized(_ text: String) -> String? {
        if isNormal(text) { return text }
        if isNormalSite(text) { return text + "/" }
        return normalizedInFull(text)
    }

    /// Whether `normalized` gives `text` back with only `/` added: an http
    /// or https site's address alone ("https://cdn.example.com"), its host
    /// in ASCII lower case, nothing to trim (`plainScheme`'s rules besides).
    static func isNormalSite(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            guard let authority = httpAuthorityStart(utf8), authority < utf8.count else { return false }
            return !utf8[authority...].contains {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 <= 0x20 || $0 >= 0x80
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
            }
        }
    }

    /// Where the authority starts in an http or https URL that `plainScheme`
    /// takes, after its `//`; nil for any other. Over contiguous UTF-8 (a
    /// native String's: no copy), as UTF8View's indices cost more than the work.
    private static func httpAuthorityStart(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let colon = plainSchemeLength(utf8), colon == 4 || colon == 5,
              utf8[0] == UInt8(ascii: "h"), utf8[1] == UInt8(ascii: "t"), utf8[2] == UInt8(ascii: "t"),
              utf8[3] == UInt8(ascii: "p"), colon == 4 || utf8[4] == UInt8(ascii: "s"),
              colon + 3 <= utf8.count, utf8[colon + 1] == UInt8(ascii: "/"), utf8[colon + 2] == UInt8(ascii: "/") else { return nil }
        return colon + 3
    }

    /// `normalized` without its shortcut, step by step.
    static func normalizedInFull(_ text: String) -> String? {
        var url = text.trimmingFeedWhitespace()
        // Fewer than 8 Characters: counted up to the eighth, not through the whole URL.
        if url.index(url.startIndex, offsetBy: 8, limitedBy: url.endIndex) == nil { return nil }
        if !url.utf8.indices.contains(where: { url.utf8[$0...].starts(with: "://".utf8) }) { url = "http://" + url }
        var parts = Parts(url)
        parts.authority = parts.authority?.lowercased()
        if parts.path.isEmpty { parts.path = "/" }
        if parts.scheme == "feed" || parts.scheme == "itpc" || parts.scheme == "itms" { parts.scheme = "http" }
        guard parts.scheme == "http" || parts.scheme == "https" || parts.scheme == "ftp" || parts.scheme == "file" else { return nil }
        return parts.text
    }

    /// Whether `normalized` gives `text` back as it is: an http or https URL
    /// whose parts put back together are itself (`plainScheme`), with a
    /// host in ASCII lower case, a path, and nothing to trim at its end.
    static func isNormal(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            guard let authority = httpAuthorityStart(utf8), let last = utf8.last, last > 0x20, last < 0x80 else { return false }
            var end = authority
            while end < utf8.count, utf8[end] != UInt8(ascii: "/"), utf8[end] != UInt8(ascii: "?") { end += 1 }
            guard end < utf8.count, utf8[end] == UInt8(ascii: "/"), end != authority else { return false }
            return !utf8[authority..<end].contains { $0 >= 0x80 || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
        }
    }

    /// The last path segment without its extension, as podcastparser names an
    /// untitled episode or podcast (`os.path.basename` then `splitext`).
    public static func baseNameWithoutExtension(_ url: String) -> String {
        // Over the UTF-8 bytes, as Python cuts code points.
        let utf8 = url.utf8
        let name = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8[utf8.index(after: $0)...] } ?? utf8[...]
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), name[..<dot].contains(where: { $0 != UInt8(ascii: ".") }) else {
            return String(Substring(name))
        }
        return String(Substring(name[..<dot]))
    }
}

extension String {
    /// Unicode's White_Space among ASCII bytes (tab to carriage return, space):
    /// what `properties.isWhitespace` says of a scalar below 0x80.
    static func isASCIIFeedWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// Unicode's White_Space (`properties.isWhitespace`) for a scalar value,
    /// without the property tables' lookup: the list has not changed since
    /// Unicode 6.3, and a test holds it to the tables.
    static func isFeedWhitespace(_ value: UInt32) -> Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// The scalar whose UTF-8 starts at `index`, and its length. The bytes
    /// are a String's or libxml2's (valid UTF-8); a sequence cut short by the
    /// end is read as its one byte, so nothing is read past the end.
    static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (value: UInt32, length: Int) {
        let lead = UInt32(bytes[index])
        if lead < 0x80 { return (lead, 1) }
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard index + length <= bytes.count else { return (lead, 1) }
        if length == 2 { return ((lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), 2) }
        if length == 3 {
            return ((lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F), 3)
        }
        return ((lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F) << 6
                | UInt32(bytes[index + 3] & 0x3F), 4)
    }

    /// The byte range of `bytes` without white space at either end.
    static func trimmedRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = 0
        while lower < bytes.count {
            let (value, length) = scalar(bytes, at: lower)
            if !isFeedWhitespace(value) { break }
            lower += length
        }
        var upper = bytes.count
        while upper > lower {
            var start = upper - 1
            while start > lower, bytes[start] & 0xC0 == 0x80 { start -= 1 }
            if !isFeedWhitespace(scalar(bytes, at: start).value) { break }
            upper = start
        }
        return lower..<upper
    }

    /// Python's `str.strip()` for what feeds hold: ASCII and Unicode white space.
    func trimmingFeedWhitespace() -> String {
        // Most values start and end with an ASCII byte that is no white space: nothing to trim, nothing to copy.
        let utf8 = self.utf8
        guard let firstByte = utf8.first, let lastByte = utf8.last else { return "" }
        if firstByte < 0x80, lastByte < 0x80, !Self.isASCIIFeedWhitespace(firstByte), !Self.isASCIIFeedWhitespace(lastByte) {
            return self
        }
        var copy = self
        return copy.withUTF8 { bytes in
            let range = Self.trimmedRange(bytes)
            return range.count == bytes.count ? self : String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
    }

    /// podcastparser's `squash_whitespace`: runs of white space as one space, trimmed.
    func squashingWhitespace() -> String { squashingFeedWhitespace(keepingLines: false) }

    /// `squash_whitespace_not_nl`: the same, but line feeds and carriage returns kept.
    func squashingWhitespaceKeepingLines() -> String { squashingFeedWhitespace(keepingLines: true) }

    /// The two squashes over the UTF-8 bytes, a scalar at a time: trimmed,
    /// then each run of white space (line breaks kept when `keepingLines`)
    /// one space before what follows it.
    private func squashingFeedWhitespace(keepingLines: Bool) -> String {
        var copy = self
        return copy.withUTF8 { Self.squashed($0, keepingLines: keepingLines) }
    }

    /// The same squashes over UTF-8 bytes (an element's text as read),
    /// written straight into the String made: never longer than the bytes,
    /// each run of white space being one space at most.
    static func squashed(_ bytes: UnsafeBufferPointer<UInt8>, keepingLines: Bool) -> String {
        let range = trimmedRange(bytes)
        return String(unsafeUninitializedCapacity: range.count) { output in
            var written = 0
            var pendingSpace = false
            var index = range.lowerBound
            while index < range.upperBound {
                let byte = bytes[index]
                let (value, length) = byte < 0x80 ? (UInt32(byte), 1) : scalar(bytes, at: index)
                if isFeedWhitespace(value) && !(keepingLines && (value == 0x0A || value == 0x0D)) {
                    pendingSpace = true
                } else {
                    if pendingSpace {
                        output[written] = UInt8(ascii: " ")
                        written += 1
                    }
                    pendingSpace = false
                    for offset in 0..<length { output[written + offset] = bytes[index + offset] }
                    written += length
                }
                index += length
            }
            return written
        }
    }

    /// `trimmingFeedWhitespace` over UTF-8 bytes, one String made.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[trimmedRange(bytes)]), as: UTF8.self)
    }
}
