import Alarms
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

    /// The UTC date of `seconds` since 1970 (`2026-12-07`).
    package static func date(_ seconds: Int64) -> String {
        LocalDate(daysSinceEpoch: seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400).description
    }
}

package struct PodcastMatchError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
