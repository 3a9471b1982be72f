import Foundation

/// One line of the result table: interlude's figure next to a peer's, and the target.
struct ResultRow {
    var measure: String
    /// Interlude's value (a median unless the measure says otherwise), formatted.
    var subject: String
    /// The peer's value and who it is, formatted ("0.39 s mpg123"); empty when none.
    var peer: String
    var ratio: Double?
    /// The target as text (">= 0.95"), empty for report-only rows.
    var target: String
    /// nil for report-only rows.
    var passed: Bool?
}

/// Everything one bench run found.
struct Report {
    var rows: [ResultRow] = []
    var notes: [String] = []
    /// Measurements that could not be made, with the reason (these make the exit non-zero).
    var notRun: [String] = []

    func table() -> String {
        let header = ["measure", "interlude", "peer", "ratio", "target", "result"]
        let lines = rows.map { row -> [String] in
            let result = row.passed.map { $0 ? "PASS" : "FAIL" } ?? (row.target.isEmpty ? "report" : "n/a")
            return [row.measure, row.subject, row.peer, row.ratio.map { String(format: "%.2f", $0) } ?? "-",
                    row.target.isEmpty ? "-" : row.target, result]
        }
        var widths = header.map(\.count)
        for line in lines {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func format(_ cells: [String]) -> String {
            cells.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        let rule = String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))
        return ([format(header), rule] + lines.map(format)).joined(separator: "\n")
    }
}

func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty)
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func formatted(_ value: Double, _ digits: Int = 2) -> String {
    String(format: "%.\(digits)f", value)
}

/// Progress lines go to stderr so stdout holds the table alone.
func progress(_ message: String) {
    FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
}
