/// A file's modification time as the library keeps it, nanoseconds since
/// 1970 in an `Int64`, which holds 1677-09-21 to 2262-04-11 only: a file
/// dated 2300 (`touch -d 2300-01-01`, a camera with a wrong clock) or before
/// 1677 would overflow the conversion and trap, so the seconds are checked
/// against that range first and a time outside it is clamped to its bound.
/// The time only tells the scan whether a file changed; a clamped one still
/// does that with the file's size.
public enum FileTime {
    /// The seconds since 1970 whose nanoseconds fit an `Int64`, with their
    /// nanoseconds part.
    public static let secondsRange = CountRange(-9_223_372_035...9_223_372_035, unit: "seconds since 1970")

    /// `seconds` and `nanoseconds` (a `timespec`'s fields) as nanoseconds
    /// since 1970, clamped to what an `Int64` holds.
    public static func nanoseconds(seconds: Int64, nanoseconds: Int64) -> Int64 {
        let bounds = secondsRange.range
        let clamped = min(max(seconds, Int64(bounds.lowerBound)), Int64(bounds.upperBound))
        let fraction = clamped == seconds ? min(max(nanoseconds, 0), 999_999_999) : 0
        return clamped * 1_000_000_000 + fraction
    }
}
