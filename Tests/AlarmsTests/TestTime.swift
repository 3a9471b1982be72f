import Alarms
import FoundationEssentials
// Named zones (Europe/Berlin) need ICU's zone data, which this import links
// in; the Alarms module itself only uses FoundationEssentials' TimeZone.
import FoundationInternationalization
import InterludeCore

/// `"2025-03-30T01:00:00Z"` -> seconds since the epoch (UTC only, test input).
func utc(_ text: String) -> Int64 {
    let parts = text.dropLast().split(separator: "T")
    let date = parts[0].split(separator: "-").map { Int($0)! }
    let time = parts[1].split(separator: ":").map { Int64($0)! }
    let days = LocalDate(year: date[0], month: date[1], day: date[2]).daysSinceEpoch
    return days * 86_400 + time[0] * 3600 + time[1] * 60 + (time.count > 2 ? time[2] : 0)
}

func zone(_ identifier: String) -> TimeZone {
    guard let zone = TimeZone(identifier: identifier) else {
        fatalError("time zone \(identifier) is unknown: is tzdata/ICU data available?")
    }
    return zone
}

func virtualClock(atUTC text: String) -> VirtualClock {
    VirtualClock(wall: WallInstant(secondsSince1970: utc(text)))
}
