/// The content of a text information frame (TIT2, TIT3, ...): an encoding
/// byte and one or more strings. 2.4 separates several values with
/// terminators; 2.3 allows one, which is simply the one-element case.
public struct ID3v2TextFrame: Equatable, Sendable {
    public let encoding: ID3v2TextEncoding
    public let values: [String]

    /// The values joined with " / ", the way players show multi-valued text.
    public var text: String { values.joined(separator: " / ") }

    public init(body: [UInt8]) throws(ID3v2Error) {
        guard let first = body.first else { throw .malformedFrame(id: "text", reason: "empty body") }
        guard let encoding = ID3v2TextEncoding(rawValue: first) else {
            throw .malformedFrame(id: "text", reason: "unknown text encoding \(first)")
        }
        self.encoding = encoding
        self.values = encoding.split(body.dropFirst()).map(encoding.decode)
    }
}
