/// A length of time as a listener reads it on a clock: `m:ss`, or `h:mm:ss`
/// from an hour up. Whole seconds, rounded down; negative and not-a-number
/// read as 0:00, and a length beyond any file's (2^53 s) is capped there
/// instead of trapping in the conversion to `Int`.
public func clockText(_ seconds: Double) -> String {
    let total = seconds.isNaN || seconds <= 0 ? 0 : Int(min(seconds, 9_007_199_254_740_992))
    let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
    let ss = secs < 10 ? "0\(secs)" : "\(secs)"
    guard hours > 0 else { return "\(minutes):\(ss)" }
    return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(ss)"
}
