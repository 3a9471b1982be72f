/// One frame: its four-character ID and its content, with unsynchronisation
/// and the extra flag bytes already removed.
public struct ID3v2Frame: Equatable, Sendable {
    public let id: String
    public let body: [UInt8]
    /// Where `body` starts in the bytes the tag was parsed from, when it is
    /// stored there as it is (not unsynchronised): an embedded picture is then
    /// a range of the file. Not part of equality.
    public let storedIndex: Int?

    public init(id: String, body: [UInt8], storedIndex: Int? = nil) {
        self.id = id
        self.body = body
        self.storedIndex = storedIndex
    }

    public static func == (lhs: ID3v2Frame, rhs: ID3v2Frame) -> Bool { lhs.id == rhs.id && lhs.body == rhs.body }
}
