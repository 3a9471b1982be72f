import FoundationEssentials
import InterludeCore

/// `"2024-03-31T01:00:00Z"` -> seconds since the epoch, through Foundation's
/// ISO 8601 parser: an oracle independent of the calendar code under test.
func instant(_ text: String) -> Int64 {
    guard let date = try? Date(text, strategy: .iso8601) else { fatalError("bad ISO 8601 test instant \(text)") }
    return Int64(date.timeIntervalSince1970)
}

func systemZone(_ identifier: String) throws -> TimeZoneRules {
    try TimeZoneDatabase().zone(named: identifier)
}

/// A fresh directory under /tmp for one test.
func makeZoneTestDirectory() throws -> String {
    let path = "/tmp/interlude-zone-tests-\(UInt64.random(in: 0...UInt64.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Builds TZif bytes by hand, for the forms the system's files do not show
/// (version 1, damage) and so each field's meaning is checked, not just echoed.
struct TZifBuilder {
    var version: UInt8 = UInt8(ascii: "2")
    var transitions: [(time: Int64, type: UInt8)] = []
    var types: [(offset: Int32, isDST: Bool, designation: UInt8)] = [(0, false, 0)]
    var designations = Array("UTC\0".utf8)
    var footer = "UTC0"

    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        func header() {
            out += Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15)
            for count in [0, 0, 0, transitions.count, types.count, designations.count] { be32(UInt32(count)) }
        }
        func be32(_ value: UInt32) { for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) } }
        func be64(_ value: UInt64) { for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
        func block(wide: Bool) {
            for transition in transitions {
                if wide { be64(UInt64(bitPattern: transition.time)) } else { be32(UInt32(bitPattern: Int32(truncatingIfNeeded: transition.time))) }
            }
            out += transitions.map(\.type)
            for type in types {
                be32(UInt32(bitPattern: type.offset))
                out += [type.isDST ? 1 : 0, type.designation]
            }
            out += designations
        }
        header()
        block(wide: false)
        guard version != 0 else { return out }
        header()
        block(wide: true)
        out += Array("\n\(footer)\n".utf8)
        return out
    }
}
