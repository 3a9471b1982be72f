import Alarms
import InterludeCore

/// `"2025-03-30T01:00:00Z"` -> seconds since the epoch (UTC only, test input).
func utc(_ text: String) -> Int64 {
    let parts = text.dropLast().split(separator: "T")
    let date = parts[0].split(separator: "-").map { Int($0)! }
    let time = parts[1].split(separator: ":").map { Int64($0)! }
    let days = LocalDate(year: date[0], month: date[1], day: date[2]).daysSinceEpoch
    return days * 86_400 + time[0] * 3600 + time[1] * 60 + (time.count > 2 ? time[2] : 0)
}

/// A named zone from the system's zone files (the tzdata package).
func zone(_ identifier: String) -> TimeZoneRules {
    do {
        return try TimeZoneDatabase().zone(named: identifier)
    } catch {
        fatalError("time zone \(identifier) is unknown: \(error) (is tzdata installed?)")
    }
}

func virtualClock(atUTC text: String) -> VirtualClock {
    VirtualClock(wall: WallInstant(secondsSince1970: utc(text)))
}
