/// Reads a compiled time zone file (TZif, RFC 8536, versions 1 to 4) as
/// found under /usr/share/zoneinfo.
///
/// Version 2 and later files carry the data twice, first with 32-bit times
/// (which end in 2038) and then with 64-bit times followed by a POSIX rule
/// footer; only the second block and the footer are used. "Slim" files
/// (zic -b slim, as Debian may ship) leave the first block empty and list no
/// transitions the footer can produce; "fat" files list them up to 2037.
/// Both are read the same way: the footer covers everything after the last
/// listed transition.
public enum TZifParser {
    public static func parse(_ bytes: [UInt8], identifier: String, path: String) throws(TimeZoneError) -> TimeZoneRules {
        var cursor = TZifByteCursor(bytes)
        do {
            let first = try header(&cursor, path: path)
            guard first.version >= 2 else {
                return try dataBlock(&cursor, header: first, timeSize: 4, identifier: identifier, footer: nil, path: path)
            }
            try cursor.skip(first.dataBlockSize(timeSize: 4))
            let second = try header(&cursor, path: path)
            // The footer follows the 64-bit block, so read past the block first, then come back.
            var afterBlock = cursor
            try afterBlock.skip(second.dataBlockSize(timeSize: 8))
            let footer = try footerRule(&afterBlock, path: path)
            return try dataBlock(&cursor, header: second, timeSize: 8, identifier: identifier, footer: footer, path: path)
        } catch is TZifByteCursor.Truncated {
            throw TimeZoneError(subject: path, reason: "the file is truncated (not a complete TZif file)")
        } catch let error as TimeZoneError {
            throw error
        } catch {
            throw TimeZoneError(subject: path, reason: "\(error)")
        }
    }

    /// The six counts of a TZif header, in file order.
    struct Header {
        var version: Int
        var utIndicatorCount: Int
        var standardIndicatorCount: Int
        var leapCount: Int
        var transitionCount: Int
        var typeCount: Int
        var characterCount: Int

        func dataBlockSize(timeSize: Int) -> Int {
            transitionCount * (timeSize + 1) + typeCount * 6 + characterCount
                + leapCount * (timeSize + 4) + standardIndicatorCount + utIndicatorCount
        }
    }

    private static func header(_ cursor: inout TZifByteCursor, path: String) throws -> Header {
        guard Array(try cursor.take(4)) == Array("TZif".utf8) else {
            throw TimeZoneError(subject: path, reason: "not a TZif time zone file (it does not start with 'TZif')")
        }
        let versionByte = try cursor.uint8()
        let version: Int
        switch versionByte {
        case 0: version = 1
        case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - UInt8(ascii: "0"))
        default: throw TimeZoneError(subject: path, reason: "unknown TZif version byte \(versionByte)")
        }
        try cursor.skip(15)
        var counts: [Int] = []
        for _ in 0..<6 {
            let count = try cursor.uint32()
            // Real files have a few hundred entries at most; a huge count is damage.
            guard count <= 1 << 20 else { throw TimeZoneError(subject: path, reason: "implausible TZif header count \(count)") }
            counts.append(Int(count))
        }
        let header = Header(version: version, utIndicatorCount: counts[0], standardIndicatorCount: counts[1],
                            leapCount: counts[2], transitionCount: counts[3], typeCount: counts[4], characterCount: counts[5])
        // RFC 8536 §3.1: at least one type and one designation byte; indicators absent or one per type.
        guard header.typeCount > 0, header.characterCount > 0,
              header.utIndicatorCount == 0 || header.utIndicatorCount == header.typeCount,
              header.standardIndicatorCount == 0 || header.standardIndicatorCount == header.typeCount else {
            throw TimeZoneError(subject: path, reason: "inconsistent TZif header counts")
        }
        return header
    }

    private static func dataBlock(_ cursor: inout TZifByteCursor, header: Header, timeSize: Int, identifier: String,
                                  footer: POSIXTimeZoneRule?, path: String) throws -> TimeZoneRules {
        var transitions: [Int64] = []
        for _ in 0..<header.transitionCount {
            let time = timeSize == 8 ? try cursor.int64() : Int64(try cursor.int32())
            if let previous = transitions.last, time <= previous {
                throw TimeZoneError(subject: path, reason: "transition times are not in ascending order")
            }
            transitions.append(time)
        }
        var typeIndices: [Int] = []
        for _ in 0..<header.transitionCount {
            let index = Int(try cursor.uint8())
            guard index < header.typeCount else {
                throw TimeZoneError(subject: path, reason: "a transition names local time type \(index) of \(header.typeCount)")
            }
            typeIndices.append(index)
        }
        var records: [(offset: Int32, isDaylightSaving: Bool, designation: Int)] = []
        for _ in 0..<header.typeCount {
            let offset = try cursor.int32()
            let isDaylightSaving = try cursor.uint8()
            let designation = Int(try cursor.uint8())
            // RFC 8536 §3.2: -2^31 is not a valid offset; DST flag is 0 or 1.
            guard offset != Int32.min, isDaylightSaving <= 1, designation < header.characterCount else {
                throw TimeZoneError(subject: path, reason: "invalid local time type record")
            }
            records.append((offset, isDaylightSaving == 1, designation))
        }
        let designations = Array(try cursor.take(header.characterCount))
        // Leap second records and the standard/wall and UT/local indicators
        // matter only to a zic-style rule compiler, not to reading offsets.
        try cursor.skip(header.leapCount * (timeSize + 4) + header.standardIndicatorCount + header.utIndicatorCount)

        let types = records.map { record in
            let tail = designations[record.designation...]
            let name = tail.prefix { $0 != 0 }
            return LocalTimeType(utcOffset: Int64(record.offset), isDaylightSaving: record.isDaylightSaving,
                                 abbreviation: String(decoding: name, as: UTF8.self))
        }
        return TimeZoneRules(identifier: identifier, transitions: transitions,
                             typesAfterTransition: typeIndices.map { types[$0] },
                             initialType: types[0], footer: footer)
    }

    /// `\n<rule>\n`; an empty rule means "no rule": the last type stays.
    private static func footerRule(_ cursor: inout TZifByteCursor, path: String) throws -> POSIXTimeZoneRule? {
        guard try cursor.uint8() == UInt8(ascii: "\n") else {
            throw TimeZoneError(subject: path, reason: "the TZif footer does not start with a newline")
        }
        var text: [UInt8] = []
        while true {
            let byte = try cursor.uint8()
            if byte == UInt8(ascii: "\n") { break }
            text.append(byte)
        }
        guard !text.isEmpty else { return nil }
        do {
            return try POSIXTimeZoneRule(String(decoding: text, as: UTF8.self))
        } catch {
            throw TimeZoneError(subject: path, reason: "its footer \(error.subject) is invalid: \(error.reason)")
        }
    }
}
