import CXML2
import Podcasts

/// libxml2's SAX2 push parser over a document in memory (`interlude_xml2_parse`),
/// handing each element, the text asked for and its end to an
/// `XMLEventHandler`: the one file that calls libxml2. Never reaches the
/// network, delivers no entity's text (predefined ones and character
/// references excepted), gives CDATA as text; an attribute's references are
/// expanded when it is read, and what references expand to in all is
/// bounded (`INTERLUDE_XML2_EXPANSION_LIMIT`, 4 MB a document).
///
/// A 10 MB feed has some 70,000 elements of 30 names: a name is made a
/// String and judged by the handler once per document, then known by the
/// addresses libxml2's dictionary gives it (`NameTable`); attributes are
/// read only when asked for; text is copied only while the handler wants it.
package enum XMLReader {
    /// What broke the reading off: libxml2's own first error and its line.
    package struct Damage: Error, Sendable, Equatable {
        package var line: Int
        package var reason: String
    }

    /// What all entity references of one document may expand to, in bytes.
    package static let expansionLimit = Int(INTERLUDE_XML2_EXPANSION_LIMIT)

    /// libxml2's message when it cannot be loaded, "<file>: <why>".
    package struct LoadError: Error, Sendable, CustomStringConvertible {
        package var message: String
        package var description: String { "cannot load libxml2 (\(message))" }
    }

    /// Reads the document into `handler`, to its end or to the start the
    /// handler answers `.stop`; the damage, if the document breaks off, is
    /// returned after every event before it was delivered.
    package static func read<Handler: XMLEventHandler>(_ bytes: [UInt8], url: String,
                                               into handler: inout Handler) throws(LoadError) -> Damage? {
        var message = [CChar](repeating: 0, count: 256)
        if interlude_xml2_load(&message, message.count) != 0 {
            throw LoadError(message: message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        guard bytes.count <= Int(Int32.max) else { return Damage(line: 0, reason: "larger than 2 GB") }
        // The parse's state behind a pointer: captured by the closures below
        // (made inside this function, so compiled for the handler's own
        // type), where a captured variable or a class's property would be
        // checked for exclusive access at each use.
        let state = UnsafeMutablePointer<State<Handler>>.allocate(capacity: 1)
        state.initialize(to: State(handler: handler))
        defer {
            handler = state.pointee.handler
            state.deinitialize(count: 1)
            state.deallocate()
        }
        let session = Session(
            start: { name, prefix, uri, attributes, count in
                let kind = state.pointee.names.kind(name, prefix, uri) { state.pointee.handler.kind(of: $0) }
                state.pointee.depth += 1
                let list = AttributeList(attributes: UnsafeBufferPointer(start: attributes, count: attributes == nil ? 0 : count))
                switch state.pointee.handler.start(kind, attributes: list) {
                case .readText:
                    state.pointee.collecting = state.pointee.depth
                    state.pointee.text.removeAll(keepingCapacity: true)
                case .skipText:
                    break
                case .stop:
                    return -1
                }
                return state.pointee.collecting != 0 ? 1 : 0
            },
            text: { bytes, length in state.pointee.text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length)) },
            end: {
                guard state.pointee.depth > 0 else { return 0 }
                if state.pointee.collecting == state.pointee.depth {
                    state.pointee.collecting = 0
                    state.pointee.text.withUnsafeBufferPointer { state.pointee.handler.end(text: $0) }
                } else {
                    state.pointee.handler.end(text: nil)
                }
                state.pointee.depth -= 1
                return state.pointee.collecting != 0 ? 1 : 0
            })
        var problem = interlude_xml2_problem()
        var events = interlude_xml2_events(
            context: Unmanaged.passUnretained(session).toOpaque(),
            start: { context, name, prefix, uri, attributes, count in
                Unmanaged<Session>.fromOpaque(context!).takeUnretainedValue().start(name!, prefix, uri, attributes, Int(count))
            },
            text: { context, bytes, length in
                guard let bytes, length > 0 else { return }
                Unmanaged<Session>.fromOpaque(context!).takeUnretainedValue().text(bytes, Int(length))
            },
            end: { context in Unmanaged<Session>.fromOpaque(context!).takeUnretainedValue().end() })
        // The parser copies from `bytes` piece by piece: they stay alive and unmoved for the whole parse.
        let status = bytes.withUnsafeBufferPointer { buffer in
            let start = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
            return withExtendedLifetime(session) { interlude_xml2_parse(start, Int32(buffer.count), url, &events, &problem) }
        }
        if status < 0 { return Damage(line: 0, reason: "libxml2 could not start a parser (out of memory)") }
        return status == 0 ? nil : damage(problem)
    }

    private static func damage(_ problem: interlude_xml2_problem) -> Damage {
        var copy = problem
        let reason = withUnsafeBytes(of: &copy.message) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
        return Damage(line: Int(problem.line), reason: reason.isEmpty ? "the document ends before it is complete" : reason)
    }

    /// What the C callbacks reach (they cannot name the handler's type):
    /// the three closures `read` made for the handler.
    private final class Session {
        package let start: (UnsafePointer<xmlChar>, UnsafePointer<xmlChar>?, UnsafePointer<xmlChar>?,
                    UnsafePointer<interlude_xml2_attribute>?, Int) -> Int32
        package let text: (UnsafePointer<xmlChar>, Int) -> Void
        package let end: () -> Int32

        package init(start: @escaping (UnsafePointer<xmlChar>, UnsafePointer<xmlChar>?, UnsafePointer<xmlChar>?,
                               UnsafePointer<interlude_xml2_attribute>?, Int) -> Int32,
             text: @escaping (UnsafePointer<xmlChar>, Int) -> Void, end: @escaping () -> Int32) {
            self.start = start
            self.text = text
            self.end = end
        }
    }

    /// What a parse changes.
    private struct State<Handler: XMLEventHandler> {
        package var handler: Handler
        package var names = NameTable()
        /// Elements open, and the depth of the one whose text is being collected (0: none).
        package var depth = 0
        package var collecting = 0
        package var text: [UInt8] = []
    }

    /// Element names by the addresses of their local name, prefix and
    /// namespace URI in the parse's dictionary (one address per string for
    /// the whole parse), each with the handler's kind: open addressing,
    /// grown at half full.
    package struct NameTable {
        private struct Entry {
            package var name: UnsafeRawPointer?
            package var prefix: UnsafeRawPointer?
            package var uri: UnsafeRawPointer?
            package var kind = 0
        }

        private var entries = [Entry](repeating: Entry(), count: 64)
        private var count = 0

        private static func slot(_ name: UnsafeRawPointer, _ prefix: UnsafeRawPointer?, _ uri: UnsafeRawPointer?, mask: Int) -> Int {
            let mixed = UInt(bitPattern: name) &* 0x9E37_79B9_7F4A_7C15 ^ UInt(bitPattern: uri) &* 0xC2B2_AE3D_27D4_EB4F
                ^ UInt(bitPattern: prefix)
            return Int(truncatingIfNeeded: mixed >> 17) & mask
        }

        package mutating func kind(_ name: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?,
                           judge: (XMLElementName) -> Int) -> Int {
            let name = UnsafeRawPointer(name), prefixAddress = prefix.map(UnsafeRawPointer.init), uriAddress = uri.map(UnsafeRawPointer.init)
            let mask = entries.count - 1
            var index = Self.slot(name, prefixAddress, uriAddress, mask: mask)
            while let known = entries[index].name {
                if known == name, entries[index].prefix == prefixAddress, entries[index].uri == uriAddress { return entries[index].kind }
                index = (index + 1) & mask
            }
            let local = string(name)
            let qualified = prefix.map { string(UnsafeRawPointer($0)) + ":" + local } ?? local
            let kind = judge(XMLElementName(namespace: uri.map { string(UnsafeRawPointer($0)) }, localName: local,
                                            qualifiedName: qualified))
            entries[index] = Entry(name: name, prefix: prefixAddress, uri: uriAddress, kind: kind)
            count += 1
            if count * 2 > entries.count { grow() }
            return kind
        }

        private mutating func grow() {
            let old = entries
            entries = [Entry](repeating: Entry(), count: old.count * 2)
            let mask = entries.count - 1
            for entry in old {
                guard let name = entry.name else { continue }
                var index = Self.slot(name, entry.prefix, entry.uri, mask: mask)
                while entries[index].name != nil { index = (index + 1) & mask }
                entries[index] = entry
            }
        }

        private func string(_ pointer: UnsafeRawPointer) -> String {
            String(cString: pointer.assumingMemoryBound(to: CChar.self))
        }
    }

    /// The attributes of the element starting, as the C side gathered them.
    package struct AttributeList: XMLAttributeList {
        package let attributes: UnsafeBufferPointer<interlude_xml2_attribute>

        package func value(_ wanted: StaticString) -> String? {
            wanted.withUTF8Buffer { wanted in
                for var attribute in attributes where Self.named(attribute, wanted) {
                    guard let value = attribute.value, attribute.length > 0 else { return "" }
                    guard attribute.references != 0 else {
                        return String(decoding: UnsafeBufferPointer(start: value, count: Int(attribute.length)), as: UTF8.self)
                    }
                    // Expanded only now, that it is read, within the document's budget; past
                    // it the document breaks off at this element, and the value is none.
                    var text: UnsafeMutablePointer<xmlChar>?
                    var length = 0
                    guard interlude_xml2_attribute_text(&attribute, &text, &length) == 0 else { return nil }
                    defer { interlude_xml2_free_text(text) }
                    guard let text, length > 0 else { return "" }
                    return String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
                }
                return nil
            }
        }

        /// Whether the attribute's name as written, "prefix:name" or "name", is `wanted`.
        private static func named(_ attribute: interlude_xml2_attribute, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
            var index = 0
            func matches(_ part: UnsafePointer<xmlChar>) -> Bool {
                var cursor = part
                while cursor.pointee != 0 {
                    guard index < wanted.count, wanted[index] == cursor.pointee else { return false }
                    index += 1
                    cursor += 1
                }
                return true
            }
            if let prefix = attribute.prefix {
                guard matches(prefix), index < wanted.count, wanted[index] == UInt8(ascii: ":") else { return false }
                index += 1
            }
            guard let name = attribute.name, matches(name) else { return false }
            return index == wanted.count
        }
    }
}
