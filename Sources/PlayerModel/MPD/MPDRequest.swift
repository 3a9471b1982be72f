/// One request line of MPD's protocol, read as MPD 0.23's tokenizer reads it:
/// the command a word (a letter, then letters, digits or `_`), each argument
/// either unquoted (bytes above space, neither `"` nor `'`) or quoted in `"`
/// with `\` escaping the next byte. A line that is not a request gets the
/// message MPD gives it, and whether MPD drops the client for it.
public struct MPDRequest: Equatable, Sendable {
    public let command: String
    public let arguments: [String]

    public init(command: String, arguments: [String]) {
        self.command = command
        self.arguments = arguments
    }

    /// MPD's `COMMAND_ARGV_MAX`.
    public static let maximumArguments = 4096

    /// The line without its newline.
    /// (A malformed argument is answered as MPD answers it: code 5, no command named, the client kept.)
    public static func parse(_ line: [UInt8]) throws(MPDFailure) -> MPDRequest {
        var index = 0
        func skipSpace() {
            while index < line.count, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
        }
        skipSpace()
        guard index < line.count else { throw MPDFailure(.unknown, "No command given", closes: true) }
        guard isLetter(line[index]) else { throw MPDFailure(.unknown, "Letter expected", closes: true) }
        let start = index
        while index < line.count, isLetter(line[index]) || isDigit(line[index]) || line[index] == UInt8(ascii: "_") { index += 1 }
        let command = String(decoding: line[start..<index], as: UTF8.self)
        if index < line.count, line[index] != 0x20, line[index] != 0x09 {
            throw MPDFailure(.unknown, "Invalid word character", closes: true)
        }
        var arguments: [String] = []
        while true {
            skipSpace()
            guard index < line.count else { break }
            guard arguments.count < maximumArguments else { throw MPDFailure(.unknown, "Too many arguments") }
            if line[index] == UInt8(ascii: "\"") {
                index += 1
                var bytes: [UInt8] = []
                var closed = false
                while index < line.count {
                    let byte = line[index]
                    index += 1
                    if byte == UInt8(ascii: "\"") { closed = true; break }
                    if byte == UInt8(ascii: "\\") {
                        guard index < line.count else { break }
                        bytes.append(line[index])
                        index += 1
                    } else {
                        bytes.append(byte)
                    }
                }
                guard closed else { throw MPDFailure(.unknown, "Missing closing '\"'") }
                if index < line.count, line[index] != 0x20, line[index] != 0x09 {
                    throw MPDFailure(.unknown, "Space expected after closing '\"'")
                }
                arguments.append(String(decoding: bytes, as: UTF8.self))
            } else {
                let begin = index
                while index < line.count, line[index] != 0x20, line[index] != 0x09 {
                    let byte = line[index]
                    guard byte > 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "'") else {
                        throw MPDFailure(.unknown, "Invalid unquoted character")
                    }
                    index += 1
                }
                arguments.append(String(decoding: line[begin..<index], as: UTF8.self))
            }
        }
        return MPDRequest(command: command, arguments: arguments)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// `"a b"` for an argument a reply quotes back.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }
}

/// MPD's `enum ack`: the number in `ACK [code@index]`.
public enum MPDErrorCode: Int, Sendable {
    case notList = 1
    case argument = 2
    case password = 3
    case permission = 4
    case unknown = 5
    case noExist = 50
    case playlistMax = 51
    case system = 52
    case playlistLoad = 53
    case updateAlready = 54
    case playerSync = 55
    case exist = 56
}

/// A command MPD would refuse, as its `ACK` line says it.
public struct MPDFailure: Error, Equatable, Sendable {
    public let code: MPDErrorCode
    public let message: String
    /// The command named in `{}`: empty for an unknown command, as MPD leaves it.
    public var command: String
    /// MPD drops a client that does not speak the protocol (no command word).
    public let closes: Bool

    public init(_ code: MPDErrorCode, _ message: String, command: String = "", closes: Bool = false) {
        self.code = code
        self.message = message
        self.command = command
        self.closes = closes
    }

    public static func unknownCommand(_ name: String) -> MPDFailure {
        MPDFailure(.unknown, "unknown command \(MPDRequest.quoted(name))")
    }

    /// MPD's three wordings: `wrong number` where the count is fixed, else too few or too many.
    public static func argumentCount(_ name: String, expected: ClosedRange<Int>, given: Int) -> MPDFailure {
        let problem = expected.lowerBound == expected.upperBound ? "wrong number of" : given < expected.lowerBound ? "too few" : "too many"
        return MPDFailure(.argument, "\(problem) arguments for \(MPDRequest.quoted(name))", command: name)
    }

    /// `ACK [2@0] {play} wrong number of arguments for "play"`; `index` is the command's place in a list.
    public func line(index: Int) -> String {
        "ACK [\(code.rawValue)@\(index)] {\(command)} \(message)\n"
    }
}
