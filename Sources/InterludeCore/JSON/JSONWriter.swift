/// Writes a `JSONValue` as indented text with sorted keys, in the layout
/// Foundation's `JSONEncoder` used (`.prettyPrinted, .sortedKeys`): two-space
/// indent, `"key" : value`, empty containers as `[` blank line `]`. Keeping
/// it byte for byte means alarm files written before and after the move off
/// Foundation are the same, and diffs of them stay quiet.
public struct JSONWriter: Sendable {
    /// JSONEncoder wrote `/` as `\/` unless told not to; the alarm file kept
    /// that default, the `alarm list --json` output did not.
    public var escapesSlashes: Bool

    public init(escapesSlashes: Bool = false) {
        self.escapesSlashes = escapesSlashes
    }

    public func prettyPrinted(_ value: JSONValue) -> String {
        var output = ""
        write(value, level: 0, to: &output)
        return output
    }

    private func write(_ value: JSONValue, level: Int, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let integer): output += String(integer)
        case .double(let double): output += Self.number(double)
        case .string(let text): writeString(text, to: &output)
        case .array(let elements):
            output += "[\n"
            for (index, element) in elements.enumerated() {
                indent(level + 1, &output)
                write(element, level: level + 1, to: &output)
                output += index == elements.count - 1 ? "\n" : ",\n"
            }
            if elements.isEmpty { output += "\n" }
            indent(level, &output)
            output += "]"
        case .object(let members):
            output += "{\n"
            let keys = members.keys.sorted()
            for (index, key) in keys.enumerated() {
                indent(level + 1, &output)
                writeString(key, to: &output)
                output += " : "
                write(members[key]!, level: level + 1, to: &output)
                output += index == keys.count - 1 ? "\n" : ",\n"
            }
            if keys.isEmpty { output += "\n" }
            indent(level, &output)
            output += "}"
        }
    }

    private func indent(_ level: Int, _ output: inout String) {
        for _ in 0..<level { output += "  " }
    }

    /// Whole numbers without `.0` (volume 1 is written `1`), others in
    /// Swift's shortest form that reads back to the same Double.
    static func number(_ value: Double) -> String {
        // JSON has no NaN or infinity; no caller produces them, so null rather than a crash.
        guard value.isFinite else { return "null" }
        if value.rounded() == value && abs(value) < 9.0e15 { return String(Int64(value)) }
        return value.description
    }

    /// `text` as a JSON string literal, quotes included.
    public func quoted(_ text: String) -> String {
        var output = ""
        writeString(text, to: &output)
        return output
    }

    private func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "/" where escapesSlashes: output += "\\/"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            // DEL and C1 too: valid raw in JSON, but a terminal showing the line may act on them.
            case _ where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
