import Podcasts

/// A podcast named as the listener names it, and an episode's date, as the
/// command line, the podcasts pane and the dispatcher all say them.
package enum PodcastNames {
    package static func match(_ name: String, in subscriptions: [PodcastSubscription]) -> Result<PodcastSubscription, PodcastMatchError> {
        if let exact = subscriptions.first(where: { $0.id == name || $0.url == name || $0.title == name }) { return .success(exact) }
        let folded = name.lowercased()
        let matches = subscriptions.filter { $0.title.lowercased().hasPrefix(folded) }
        if matches.count == 1 { return .success(matches[0]) }
        if matches.isEmpty { return .failure(PodcastMatchError("no podcast is called '\(name)' (see 'interlude podcast list')")) }
        return .failure(PodcastMatchError("'\(name)' names \(matches.count) podcasts: "
                                          + matches.map { "\($0.title) (\($0.id))" }.joined(separator: ", ")))
    }

    package static func date(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}

package struct PodcastMatchError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
