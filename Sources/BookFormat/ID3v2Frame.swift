/// One frame: its four-character ID and its content, with unsynchronisation
/// and the extra flag bytes already removed.
public struct ID3v2Frame: Equatable, Sendable {
    public let id: String
    public let body: [UInt8]

    public init(id: String, body: [UInt8]) {
        self.id = id
        self.body = body
    }
}
