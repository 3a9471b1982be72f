/// The station's headers of an ICY (Shoutcast/Icecast) reply: how often
/// metadata comes, and what the station calls itself. Read from the header
/// lines (`icy-name: Radio X`), as FFmpeg hands them over in
/// `icy_metadata_headers` (one `name: value` a line) or an HTTP reply has them.
public struct ICYHeaders: Equatable, Sendable {
    /// Audio bytes between two metadata blocks; nil when the server sends none.
    public var metaint: Int?
    public var name: String?
    public var genre: String?
    public var url: String?
    public var description: String?
    /// The bitrate the station announces (`icy-br`), in kbit/s.
    public var bitrate: Int?
    /// Lines that named a known header with a value out of range, each said once.
    public var problems: [String]

    /// What a server sends for a mount whose source gave no name: Icecast 2.4
    /// answers an Ogg mount fed by `oggfwd` without `-n` with `icy-name: no name`
    /// (seen in `TUIFirstHourTests`), and lists such a mount as "Unspecified name".
    /// No station is called so: the stream's own tags name it instead.
    static let placeholderNames: Set<String> = ["no name", "unspecified name"]

    public init(metaint: Int? = nil, name: String? = nil, genre: String? = nil, url: String? = nil,
                description: String? = nil, bitrate: Int? = nil, problems: [String] = []) {
        self.metaint = metaint
        self.name = name
        self.genre = genre
        self.url = url
        self.description = description
        self.bitrate = bitrate
        self.problems = problems
    }

    /// Servers use 8192 (Shoutcast), 16000 (Icecast) and 32768; a megabyte
    /// bounds the wait for a title without refusing any real station.
    public static let metaintRange = 1...1_048_576
    /// Up to 10 Mbit/s: lossless stations send about 1.4.
    public static let bitrateRange = 1...10_000
    /// A header value longer than this is cut: nothing shows more than a line of it.
    public static let maximumValueBytes = 1024

    public static func parse(_ text: some Collection<UInt8>) -> ICYHeaders {
        var headers = ICYHeaders()
        for line in Array(text).split(omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            guard let colon = line.firstIndex(of: 0x3A) else { continue }
            let name = String(decoding: StreamText.trimmed(line[..<colon]), as: UTF8.self).lowercased()
            let raw = StreamText.trimmed(line[(colon + 1)...])
            let value = StreamText.decode(raw.prefix(maximumValueBytes))
            switch name {
            case "icy-metaint": headers.metaint = headers.number(value, in: metaintRange, header: name)
            case "icy-br": headers.bitrate = headers.number(value, in: bitrateRange, header: name)
            case "icy-name": headers.name = value.isEmpty || placeholderNames.contains(value.lowercased()) ? nil : value
            case "icy-genre": headers.genre = value.isEmpty ? nil : value
            case "icy-url": headers.url = value.isEmpty ? nil : value
            case "icy-description": headers.description = value.isEmpty ? nil : value
            default: continue
            }
        }
        return headers
    }

    public static func parse(_ text: String) -> ICYHeaders { parse(Array(text.utf8)) }

    private mutating func number(_ text: String, in range: ClosedRange<Int>, header: String) -> Int? {
        // Some servers write `icy-br: 128,128` (one per stream): the first counts.
        let first = text.split(separator: ",").first.map(String.init) ?? ""
        guard first.utf8.count <= 9, let value = Int(first), range.contains(value) else {
            problems.append("\(header) '\(text.prefix(40))' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return value
    }
}
