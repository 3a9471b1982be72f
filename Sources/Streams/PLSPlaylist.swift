/// A PLS playlist, the form stations hand out behind "Listen" links:
///
/// ```
/// [playlist]
/// File1=http://radio.example/stream
/// Title1=Radio Example
/// Length1=-1
/// NumberOfEntries=1
/// Version=2
/// ```
///
/// Keys are matched without regard to case (`file1`, `FILE1` are written too);
/// entries come in the order of their numbers, whatever the order of the lines.
/// An entry with a title or a length but no `FileN` is left out, and said.
public struct PLSPlaylist: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        /// The `FileN` value: a URL or a path (see `StreamLocation.classify`).
        public var file: String
        public var title: String?
        /// Seconds; nil for `-1` (a stream) or no `LengthN`.
        public var lengthSeconds: Int?
        public var location: StreamLocation { StreamLocation.classify(file) }
    }

    public var entries: [Entry]
    /// One sentence per line or entry that was not used.
    public var problems: [String]

    /// Entry numbers from 1; beyond this a number is refused (a playlist of
    /// stations holds a handful, and the numbers index a table).
    public static let entryNumbers = 1...10_000
    /// Lengths from 0 s to 1000 h, the longest book (`Book.longestMilliseconds`).
    public static let lengthSeconds = 0...3_600_000

    public static func parse(_ bytes: some Collection<UInt8>) -> PLSPlaylist {
        var files: [Int: String] = [:]
        var titles: [Int: String] = [:]
        var lengths: [Int: Int] = [:]
        var declared: Int?
        var problems: [String] = []
        var inPlaylist = false
        var sawHeader = false
        var bytes = Array(bytes)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let lines = bytes.split(omittingEmptySubsequences: false, whereSeparator: { $0 == 0x0A })
        for (offset, rawLine) in lines.enumerated() {
            let lineNumber = offset + 1
            let line = StreamText.trimmed(rawLine)
            guard !line.isEmpty, line.first != 0x3B, line.first != 0x23 else { continue }
            if line.first == 0x5B {
                inPlaylist = String(decoding: line, as: UTF8.self).lowercased() == "[playlist]"
                sawHeader = sawHeader || inPlaylist
                continue
            }
            guard inPlaylist else { continue }
            guard let equals = line.firstIndex(of: 0x3D) else {
                problems.append("line \(lineNumber): not KEY=VALUE")
                continue
            }
            let key = String(decoding: StreamText.trimmed(line[..<equals]), as: UTF8.self).lowercased()
            let value = StreamText.decode(StreamText.trimmed(line[(equals + 1)...]))
            if key == "numberofentries" {
                declared = entryCount(value)
                if declared == nil { problems.append("line \(lineNumber): NumberOfEntries '\(value.prefix(20))' is not a count from 0 to \(entryNumbers.upperBound)") }
                continue
            }
            if key == "version" { continue }
            guard let (field, number) = numberedKey(key) else { continue }
            guard let number else {
                problems.append("line \(lineNumber): the entry number is not from 1 to \(entryNumbers.upperBound)")
                continue
            }
            switch field {
            case "file":
                if value.isEmpty { problems.append("line \(lineNumber): File\(number) is empty") } else { files[number] = value }
            case "title":
                titles[number] = value.isEmpty ? nil : value
            default:
                if value == "-1" { lengths[number] = nil; continue }
                guard value.utf8.count <= 8, let seconds = Int(value), lengthSeconds.contains(seconds) else {
                    problems.append("line \(lineNumber): Length\(number) '\(value.prefix(20))' is not -1 or seconds from 0 to \(lengthSeconds.upperBound)")
                    continue
                }
                lengths[number] = seconds
            }
        }
        if !sawHeader { problems.append("no [playlist] section") }
        for number in Set(titles.keys).union(lengths.keys).subtracting(files.keys).sorted() {
            problems.append("entry \(number) has no File\(number)")
        }
        let entries = files.sorted { $0.key < $1.key }.map { number, file in
            Entry(file: file, title: titles[number], lengthSeconds: lengths[number])
        }
        if let declared, declared != entries.count {
            problems.append("NumberOfEntries says \(declared), the playlist holds \(entries.count)")
        }
        return PLSPlaylist(entries: entries, problems: problems)
    }

    private static func entryCount(_ text: String) -> Int? {
        guard text.utf8.count <= 6, let count = Int(text), (0...entryNumbers.upperBound).contains(count) else { return nil }
        return count
    }

    /// `file12` as ("file", 12); ("file", nil) for a number out of range; nil for another key.
    private static func numberedKey(_ key: String) -> (String, Int?)? {
        for field in ["file", "title", "length"] where key.hasPrefix(field) {
            let digits = key.dropFirst(field.count)
            guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            guard digits.utf8.count <= 6, let number = Int(digits), entryNumbers.contains(number) else { return (field, nil) }
            return (field, number)
        }
        return nil
    }
}
