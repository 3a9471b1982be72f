/// The UTC offsets of one time zone over time: the transitions a TZif file
/// lists, then its POSIX rule for every instant after the last one; or a
/// rule alone (`TZ=EST5EDT,M3.2.0,M11.1.0`); or one fixed offset (UTC).
///
/// Instants are seconds since 1970-01-01 00:00 UTC, leap seconds not counted
/// (the `right/` zones, which count them, are not supported).
public struct TimeZoneRules: Sendable, Equatable {
    /// The zone's name (`Europe/Berlin`), or the rule string it was made from.
    public let identifier: String
    /// Ascending instants at which `typesAfterTransition` take effect.
    let transitions: [Int64]
    let typesAfterTransition: [LocalTimeType]
    /// In force before the first transition (RFC 8536: local time type 0).
    let initialType: LocalTimeType
    /// For instants after the last transition (or all of them when there are none).
    let footer: POSIXTimeZoneRule?

    init(identifier: String, transitions: [Int64], typesAfterTransition: [LocalTimeType],
         initialType: LocalTimeType, footer: POSIXTimeZoneRule?) {
        precondition(transitions.count == typesAfterTransition.count)
        self.identifier = identifier
        self.transitions = transitions
        self.typesAfterTransition = typesAfterTransition
        self.initialType = initialType
        self.footer = footer
    }

    /// A zone that follows a POSIX rule at every instant.
    public init(identifier: String, rule: POSIXTimeZoneRule) {
        self.init(identifier: identifier, transitions: [], typesAfterTransition: [],
                  initialType: rule.standard, footer: rule)
    }

    /// A zone that is always `type` (no DST).
    public init(identifier: String, fixed type: LocalTimeType) {
        self.init(identifier: identifier, transitions: [], typesAfterTransition: [], initialType: type, footer: nil)
    }

    public static let utc = TimeZoneRules(identifier: "UTC",
                                          fixed: LocalTimeType(utcOffset: 0, isDaylightSaving: false, abbreviation: "UTC"))

    /// Seconds east of UTC in force at `instant`.
    public func utcOffset(at instant: Int64) -> Int64 {
        localTimeType(at: instant).utcOffset
    }

    public func localTimeType(at instant: Int64) -> LocalTimeType {
        guard let last = transitions.last else { return footer?.localTimeType(at: instant) ?? initialType }
        if instant > last, let footer { return footer.localTimeType(at: instant) }
        // The last transition at or before `instant`, by binary search.
        var low = 0, high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= instant { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialType : typesAfterTransition[low - 1]
    }
}
