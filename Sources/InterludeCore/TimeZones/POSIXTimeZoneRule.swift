/// A POSIX `TZ` rule string (`CET-1CEST,M3.5.0,M10.5.0/3`): a standard
/// offset and, optionally, a daylight-saving offset with the yearly rule for
/// switching between them. TZif files end with one, which covers every
/// instant after their last listed transition; `TZ` may also hold one.
public struct POSIXTimeZoneRule: Hashable, Sendable {
    public struct DaylightSaving: Hashable, Sendable {
        public let type: LocalTimeType
        /// When daylight saving starts, in local standard time.
        public let start: POSIXTransitionRule
        /// When it ends, in local daylight-saving time.
        public let end: POSIXTransitionRule

        public init(type: LocalTimeType, start: POSIXTransitionRule, end: POSIXTransitionRule) {
            self.type = type
            self.start = start
            self.end = end
        }
    }

    public let standard: LocalTimeType
    public let daylightSaving: DaylightSaving?

    public init(standard: LocalTimeType, daylightSaving: DaylightSaving?) {
        self.standard = standard
        self.daylightSaving = daylightSaving
    }

    /// Parses a rule string; see `POSIXRuleParser` for the accepted forms.
    public init(_ text: String) throws(TimeZoneError) {
        var parser = POSIXRuleParser(text)
        self = try parser.parse()
    }

    public func localTimeType(at instant: Int64) -> LocalTimeType {
        guard let daylightSaving else { return standard }
        // The switches of the year around `instant` and the years either side
        // (a southern-hemisphere summer spans New Year, and RFC 8536 times may
        // push a switch over a year boundary): the latest one at or before
        // `instant` decides. On a tie the switch into daylight saving wins,
        // which is what makes the "all year DST" form `0/0,J365/25` work:
        // each year's end coincides with the next year's start.
        let year = CivilCalendar.year(containing: CivilCalendar.floorDivide(instant + standard.utcOffset, 86_400))
        var latest: (instant: Int64, isDaylightSaving: Bool)?
        for candidate in year - 1...year + 1 {
            let switches = [
                (daylightSaving.start.localSeconds(in: candidate) - standard.utcOffset, true),
                (daylightSaving.end.localSeconds(in: candidate) - daylightSaving.type.utcOffset, false),
            ]
            for (moment, entersDaylightSaving) in switches where moment <= instant {
                if let current = latest, current.instant > moment || (current.instant == moment && current.isDaylightSaving) {
                    continue
                }
                latest = (moment, entersDaylightSaving)
            }
        }
        return latest?.isDaylightSaving == true ? daylightSaving.type : standard
    }
}
