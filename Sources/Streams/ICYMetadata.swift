/// One ICY metadata block, as a Shoutcast or Icecast server sends it in the
/// audio every `icy-metaint` bytes and FFmpeg hands it over
/// (`icy_metadata_packet`): `StreamTitle='Artist - Title';StreamUrl='';`,
/// padded with NULs.
///
/// There is no escaping in the format: a title may hold quotes and even `';`
/// (`StreamTitle='Rock 'n' Roll';`). A value ends at the first `';` that is
/// followed by the end of the block or by the next `Key='`, which is how
/// Icecast writes it and what every title seen in the field parses to.
public struct ICYMetadata: Equatable, Sendable {
    /// Every `Key='value'` in the block, in order; a key given twice keeps both.
    public var fields: [Field]

    public struct Field: Equatable, Sendable {
        public var key: String
        public var value: String
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(fields: [Field]) { self.fields = fields }

    /// The largest block the format can carry: its length byte counts 16-byte units.
    public static let maximumBlockBytes = 255 * 16

    /// `StreamTitle`'s value; nil when the block has none, "" when the station sent an empty one.
    public var title: String? { value(of: "StreamTitle") }
    /// `StreamUrl`'s value, where some stations put the show's page or cover.
    public var url: String? { value(of: "StreamUrl") }

    public func value(of key: String) -> String? {
        fields.first { $0.key == key }?.value
    }

    /// The block's fields. Bytes past `maximumBlockBytes` are not read (no
    /// server may send them); text that is not a `Key='value';` list yields
    /// what parsed before it, never a trap.
    public static func parse(_ block: some Collection<UInt8>) -> ICYMetadata {
        let bytes = StreamText.trimmed(Array(block.prefix(maximumBlockBytes))[...])
        var fields: [Field] = []
        var cursor = bytes.startIndex
        while cursor < bytes.endIndex {
            guard let (key, valueStart) = keyOpening(in: bytes, at: cursor) else { break }
            let valueEnd = closingQuote(in: bytes, from: valueStart)
            fields.append(Field(key: key, value: StreamText.decode(bytes[valueStart..<valueEnd])))
            // Past the quote and the semicolon, when they are there (a block cut short has neither).
            cursor = min(bytes.endIndex, valueEnd + 2)
            while cursor < bytes.endIndex, bytes[cursor] == 0x20 || bytes[cursor] == 0x3B { cursor += 1 }
        }
        return ICYMetadata(fields: fields)
    }

    /// `Key='` at `index`: the key and where its value starts.
    private static func keyOpening(in bytes: ArraySlice<UInt8>, at index: Int) -> (String, Int)? {
        var end = index
        while end < bytes.endIndex, isKeyByte(bytes[end]) { end += 1 }
        guard end > index, end < bytes.endIndex, bytes[end] == 0x3D else { return nil }
        let key = String(decoding: bytes[index..<end], as: UTF8.self)
        let afterEquals = end + 1
        if afterEquals < bytes.endIndex, bytes[afterEquals] == 0x27 { return (key, afterEquals + 1) }
        // `Key=value;` without quotes: some servers write numbers so.
        return (key, afterEquals)
    }

    /// The end of a value that starts at `start`: the first `';` followed by the
    /// end or by another `Key='`; else the last quote, else the end of the block.
    private static func closingQuote(in bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        let quoted = start > bytes.startIndex && bytes[start - 1] == 0x27
        if !quoted {
            return bytes[start...].firstIndex(of: 0x3B) ?? bytes.endIndex
        }
        var index = start
        while index < bytes.endIndex {
            if bytes[index] == 0x27 {
                let next = index + 1
                if next == bytes.endIndex { return index }
                if bytes[next] == 0x3B {
                    var after = next + 1
                    while after < bytes.endIndex, bytes[after] == 0x20 { after += 1 }
                    if after == bytes.endIndex || startsField(bytes, at: after) { return index }
                }
            }
            index += 1
        }
        return bytes.endIndex
    }

    private static func startsField(_ bytes: ArraySlice<UInt8>, at index: Int) -> Bool {
        var end = index
        while end < bytes.endIndex, isKeyByte(bytes[end]) { end += 1 }
        return end > index && end < bytes.endIndex && bytes[end] == 0x3D
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x5F || byte == 0x2D
    }
}
