import CXML2
import Podcasts

/// libxml2's pull reader (`xmlTextReader`) over a document in memory, handing
/// each element, its text and its end to an `XMLEventHandler`: the one file
/// that calls libxml2. Never reaches the network, expands no entity
/// (predefined ones and character references excepted), gives CDATA as text.
enum XMLReader {
    /// What broke the reading off: libxml2's own first error and its line.
    struct Damage: Error, Sendable, Equatable {
        var line: Int
        var reason: String
    }

    /// libxml2's message when it cannot be loaded, "<file>: <why>".
    struct LoadError: Error, Sendable, CustomStringConvertible {
        var message: String
        var description: String { "cannot load libxml2 (\(message))" }
    }

    /// Reads the whole document into `handler`; the damage, if the document
    /// breaks off, is returned after every event before it was delivered.
    /// `stop` is asked after each element, and ends the reading when true.
    static func read<Handler: XMLEventHandler>(_ bytes: [UInt8], url: String, into handler: inout Handler,
                                               stop: (Handler) -> Bool = { _ in false }) throws(LoadError) -> Damage? {
        var message = [CChar](repeating: 0, count: 256)
        if interlude_xml2_load(&message, message.count) != 0 {
            throw LoadError(message: message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        guard bytes.count <= Int(Int32.max) else { return Damage(line: 0, reason: "larger than 2 GB") }
        var problem = interlude_xml2_problem()
        // The reader reads `bytes` in place: they stay alive and unmoved for its whole life.
        return bytes.withUnsafeBufferPointer { buffer -> Damage? in
            let start = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
            guard let reader = interlude_xml2_reader(start, Int32(buffer.count), url, &problem) else {
                return Damage(line: 0, reason: "libxml2 could not start a reader (out of memory)")
            }
            defer { interlude_xmlFreeTextReader(reader) }
            while true {
                let status = interlude_xmlTextReaderRead(reader)
                if status == 0 { return nil }
                if status < 0 { return damage(problem) }
                switch interlude_xmlTextReaderNodeType(reader) {
                case 1:
                    let name = elementName(reader)
                    let empty = interlude_xmlTextReaderIsEmptyElement(reader) == 1
                    handler.start(name, attributes: attributes(reader))
                    if empty { handler.end() }
                    if stop(handler) { return nil }
                case 3, 4, 14:
                    if let value = interlude_xmlTextReaderConstValue(reader) { handler.text(string(value)) }
                case 15:
                    handler.end()
                default:
                    break
                }
            }
        }
    }

    private static func damage(_ problem: interlude_xml2_problem) -> Damage {
        var copy = problem
        let reason = withUnsafeBytes(of: &copy.message) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
        return Damage(line: Int(problem.line), reason: reason.isEmpty ? "the document ends before it is complete" : reason)
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>) -> String {
        String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
    }

    private static func elementName(_ reader: xmlTextReaderPtr) -> XMLElementName {
        let local = interlude_xmlTextReaderConstLocalName(reader).map(string) ?? ""
        let qualified = interlude_xmlTextReaderConstName(reader).map(string) ?? local
        let namespace = interlude_xmlTextReaderConstNamespaceUri(reader).map(string)
        return XMLElementName(namespace: namespace, localName: local, qualifiedName: qualified)
    }

    private static func attributes(_ reader: xmlTextReaderPtr) -> [String: String] {
        var result: [String: String] = [:]
        while interlude_xmlTextReaderMoveToNextAttribute(reader) == 1 {
            guard let name = interlude_xmlTextReaderConstName(reader).map(string) else { continue }
            if name == "xmlns" || name.hasPrefix("xmlns:") { continue }
            result[name] = interlude_xmlTextReaderConstValue(reader).map(string) ?? ""
        }
        _ = interlude_xmlTextReaderMoveToElement(reader)
        return result
    }
}
