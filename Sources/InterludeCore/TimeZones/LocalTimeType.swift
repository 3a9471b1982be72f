/// What the clock shows in a zone during one stretch of time: the offset
/// from UTC, whether it is daylight saving time, and the abbreviation
/// (`CEST`, `EST`, `+1030`), as a TZif "local time type" record holds them.
public struct LocalTimeType: Hashable, Sendable, CustomStringConvertible {
    /// Seconds east of UTC (Berlin in summer: 7200).
    public let utcOffset: Int64
    public let isDaylightSaving: Bool
    public let abbreviation: String

    public init(utcOffset: Int64, isDaylightSaving: Bool, abbreviation: String) {
        self.utcOffset = utcOffset
        self.isDaylightSaving = isDaylightSaving
        self.abbreviation = abbreviation
    }

    /// `CEST +02:00 DST`, for logs and test failures.
    public var description: String {
        let magnitude = abs(utcOffset)
        let hours = String(magnitude / 3600), minutes = String(magnitude % 3600 / 60)
        let offset = (utcOffset < 0 ? "-" : "+") + (hours.count < 2 ? "0" : "") + hours + ":" + (minutes.count < 2 ? "0" : "") + minutes
        return "\(abbreviation) \(offset)" + (isDaylightSaving ? " DST" : "")
    }
}
