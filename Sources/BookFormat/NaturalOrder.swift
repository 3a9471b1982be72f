/// The order people expect for numbered file names: "Chapter 2" before
/// "Chapter 10", "01 - Intro" before "2 - Next", letters compared without
/// regard to case. Runs of ASCII digits compare by value, everything else
/// by lower-cased text.
public enum NaturalOrder {
    /// A strict weak ordering, usable with `sort(by:)`. Names equal apart
    /// from case or leading zeros fall back to plain comparison so the order
    /// is total and the same on every run.
    public static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        switch compare(lhs, rhs) {
        case .less: return true
        case .greater: return false
        case .equal: return lhs < rhs
        }
    }

    /// Sorts names naturally; names that compare equal keep their input order.
    public static func sorted(_ names: [String]) -> [String] {
        names.enumerated().sorted { a, b in
            switch compare(a.element, b.element) {
            case .less: return true
            case .greater: return false
            case .equal: return a.offset < b.offset
            }
        }.map(\.element)
    }

    enum Comparison { case less, equal, greater }

    /// Compares chunk by chunk: a digit run against a digit run by value,
    /// anything else by its lower-cased text.
    static func compare(_ lhs: String, _ rhs: String) -> Comparison {
        let left = NaturalChunk.split(lhs), right = NaturalChunk.split(rhs)
        for (a, b) in zip(left, right) {
            let order: Comparison
            switch (a, b) {
            case (.number(let x), .number(let y)):
                order = compareDigits(x, y)
            default:
                let x = a.text.lowercased(), y = b.text.lowercased()
                order = x == y ? .equal : (x < y ? .less : .greater)
            }
            if order != .equal { return order }
        }
        return left.count == right.count ? .equal : (left.count < right.count ? .less : .greater)
    }

    /// Compares digit strings by value without converting them, so "track
    /// 99999999999999999999999" cannot overflow: fewer significant digits is
    /// smaller, and equal lengths compare digit by digit.
    private static func compareDigits(_ x: Substring, _ y: Substring) -> Comparison {
        let a = x.drop { $0 == "0" }, b = y.drop { $0 == "0" }
        if a.count != b.count { return a.count < b.count ? .less : .greater }
        for (p, q) in zip(a.utf8, b.utf8) where p != q {
            return p < q ? .less : .greater
        }
        return .equal
    }
}
