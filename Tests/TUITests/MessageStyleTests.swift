import Foundation
import Alarms
import InterludeCore
import PlayerModel
import Podcasts
import Testing
@testable import TUI

/// Every message the command table and the front ends can give, worded by the
/// real wording functions over every case, read against `docs/messages.md`.
/// The cases are numbered by exhaustive switches: a new case does not compile
/// until it is numbered here, and then the test fails until it has samples.
@Suite struct MessageStyleTests {
    // MARK: The style (docs/messages.md), one check a rule

    /// A prompt's question without the space it leaves for the answer.
    static func trimmed(_ text: String) -> String { String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }

    /// What breaks the style in `line`, each a short reason; empty when it reads well.
    static func faults(_ line: String) -> [String] {
        var found: [String] = []
        func has(_ pattern: String) -> Bool { line.range(of: pattern, options: .regularExpression) != nil }
        // 1. One line.
        if line.isEmpty || line.contains("\n") || line.hasPrefix(" ") || line.hasSuffix(" ") || line.contains("  ") {
            found.append("not one clean line")
        }
        // 2. Nothing said of itself as an error.
        if has("(?i)\\berror\\b") { found.append("calls itself an error") }
        // 3. Counts agree with their nouns.
        if has("\\((s|es|ies)\\)|entr\\(y") { found.append("a plural left to the reader") }
        if has("(^|[^0-9.:#/-])1 (" + nouns.map { $0.plural }.joined(separator: "|") + ")\\b") { found.append("1 with a plural") }
        if has("(^|[^0-9.:#/-])([02-9]|[1-9][0-9]+) (" + nouns.map { $0.singular }.joined(separator: "|") + ")\\b") {
            found.append("a count with a singular")
        }
        if has("\\bin [0-9]+(,|$)") { found.append("a count that names nothing") }
        // 4. Times as a person says them.
        if has("\\b(at|in) in\\b") { found.append("a time echoed as typed") }
        // Shorthand is what the user types: shown as an example (quoted, or in parentheses), never said.
        let said = line.replacingOccurrences(of: "(?<![A-Za-z])'[^']*'|\"[^\"]*\"|\\([^)]*\\)", with: "", options: .regularExpression)
        if said.range(of: "\\b[0-9]+(s|m|h|d|min|sec)\\b", options: .regularExpression) != nil {
            found.append("shorthand glued to a number")
        }
        return found
    }

    static let nouns: [(singular: String, plural: String)] = [
        ("file", "files"), ("entry", "entries"), ("podcast", "podcasts"), ("episode", "episodes"), ("new episode", "new episodes"),
        ("second", "seconds"), ("minute", "minutes"), ("hour", "hours"), ("day", "days"), ("line", "lines"),
        ("problem", "problems"), ("album", "albums"), ("alarm", "alarms"), ("bookmark", "bookmarks"),
        ("chapter", "chapters"), ("track", "tracks"), ("download", "downloads"), ("queued file", "queued files"),
        ("event line", "event lines"),
    ]

    // MARK: Every case, numbered

    static func number(_ reason: Refusal) -> Int {
        switch reason {
        case .noBook: 0
        case .enqueueDuringBook: 1
        case .clearQueueDuringBook: 2
        case .playOrderDuringBook: 3
        case .emptyQueue: 4
        case .queueEntryNotAhead: 5
        case .noQueueEntry: 6
        case .playlistNamesNoFile: 7
        case .notABook: 8
        case .bookPlayingAlready: 9
        case .cannotSwitch: 10
        case .noBookmark: 11
        case .alarmGone: 12
        case .problem: 13
        }
    }

    static func number(_ report: CommandReport) -> Int {
        switch report {
        case .shuffle: 0
        case .repeatMode: 1
        case .queueSaved: 2
        case .playlistLoaded: 3
        case .queued: 4
        case .queueCleared: 5
        case .queueRemoved: 6
        case .alarmSet: 7
        case .sleepTimer: 8
        case .bookmarkAdded: 9
        case .bookmarkDeleted: 10
        case .openingBook: 11
        case .stationAdded: 12
        case .stationRenamed: 13
        case .stationRemoved: 14
        case .playingStation: 15
        case .refreshingPodcasts: 16
        case .downloadingEpisode: 17
        case .markedEpisode: 18
        case .subscribingPodcast: 19
        case .unsubscribingPodcast: 20
        case .importingPodcasts: 21
        }
    }

    static func number(_ prompt: InterfaceState.Prompt) -> Int {
        switch prompt {
        case .filter: 0
        case .alarmSeconds: 1
        case .alarmNew: 2
        case .alarmEdit: 3
        case .bookmarkNote: 4
        case .playlistName: 5
        case .stationURL: 6
        case .stationName: 7
        case .seekTime: 8
        case .podcastURL: 9
        case .opmlPath: 10
        case .podcastRemoval: 11
        }
    }

    static let counts = [0, 1, 2, 12]
    static let spans: [Int64] = [0, 1, 20, 59, 60, 61, 90, 3599, 3600, 3660, 7260, 86_400, 90_000, 200_000]

    static var refusals: [Refusal] {
        var all: [Refusal] = [.noBook, .enqueueDuringBook, .clearQueueDuringBook, .playOrderDuringBook, .emptyQueue, .cannotSwitch,
                              .playlistNamesNoFile(path: "/music/mix.m3u"), .notABook(path: "/music/a.txt"),
                              .bookPlayingAlready(title: "The Keeper")]
        for count in counts {
            all += [.queueEntryNotAhead(position: count), .noQueueEntry(position: count), .noBookmark(id: count), .alarmGone(id: count)]
        }
        // The table's own complaints, which reach every front end as problems.
        all += argumentComplaints.map { .problem($0) }
        return all
    }

    static var reports: [CommandReport] {
        var all: [CommandReport] = [.shuffle(on: true), .shuffle(on: false), .repeatMode("off"), .repeatMode("all"), .repeatMode("one"),
                                    .sleepTimer("15 min"), .sleepTimer("end of chapter"), .sleepTimer(nil),
                                    .openingBook(title: "The Keeper"), .stationRemoved(name: "Harbour FM"),
                                    .playingStation(name: "Harbour FM"), .downloadingEpisode(title: "Tide Tables"),
                                    .markedEpisode(title: "Tide Tables", played: true), .markedEpisode(title: "Tide Tables", played: false),
                                    .subscribingPodcast(url: "http://127.0.0.1/feed.xml"), .unsubscribingPodcast(title: "Harbour Talk"),
                                    .importingPodcasts(path: "/home/u/subscriptions.opml")]
        for count in counts {
            all += [.queueSaved(count: count, path: "/music/mix.m3u"), .queued(count: count), .queueCleared(count: count),
                    .queueRemoved(count: count), .bookmarkAdded(id: count, at: "1:02:03"), .bookmarkDeleted(id: count),
                    .stationAdded(number: count, name: "Harbour FM"), .stationRenamed(number: count, name: "Night Harbour"),
                    .refreshingPodcasts(count: count)]
            all += counts.map { .playlistLoaded(count: count, path: "/music/mix.m3u", missing: $0) }
        }
        let format = AlarmTimeFormat(zone: ZonedTime(timeZone: .utc))
        let now: Int64 = 1_796_000_000
        all += spans.map { .alarmSet(id: 1, seconds: $0, at: format.spokenClock(now + $0, now: now)) }
        return all
    }

    /// Every row's complaint at arguments it does not take: none, too many, of each wrong type.
    static var argumentComplaints: [String] {
        let tries: [[JSONValue]] = [[], [.string("soon")], [.integer(-1)], [.double(1e12)], [.bool(true)],
                                    [.string("a"), .string("b"), .string("c"), .string("d")], [.null]]
        var lines: [String] = []
        for row in CommandTable.entries {
            for values in tries {
                do { _ = try row.action(values) } catch { lines.append(error.message) }
            }
            for typed in ["soon", "-5", "in 20s", "99999999"] {
                do { _ = try row.action(typed: typed) } catch { lines.append(error.message) }
            }
        }
        return lines
    }

    /// What the screen says at each key of the table, in each pane, with nothing playing and nothing listed.
    static var screenHints: [String] {
        var lines: [String] = []
        for pane in Pane.allCases {
            for (key, _) in KeyBindings.defaults.all {
                var ui = InterfaceState(browser: nil)
                ui.focus(pane)
                _ = ui.handle(key, snapshot: PlayerSnapshot(), source: MemoryBrowserSource.library)
                if let message = ui.message { lines.append(message.text) }
                if let prompt = ui.prompt { lines.append(Self.trimmed(prompt.question)) }
            }
        }
        return lines
    }

    static var alarmLines: [String] {
        let format = AlarmTimeFormat(zone: ZonedTime(timeZone: .utc))
        let now: Int64 = 1_796_000_000
        var lines = spans.map { format.nextAlarm(now + $0, now: now) }
        let reasons: [LateReason] = [.asleep, .stopped, .notRunning, .clockChanged, .interrupted]
        for reason in reasons {
            lines += spans.map { LateRing(id: AlarmID(rawValue: 3), lateSeconds: $0, reason: reason).line }
        }
        for typed in [["in"], ["in 20s", "x"], ["soon"], ["25:00"], ["07:61"], ["2020-01-01T07:30"], ["in", "-5m"], ["in", "99w"], ["in 9000h"]] {
            do { _ = try AlarmInputParser.parseWhen(typed, now: WallInstant(secondsSince1970: now), zone: ZonedTime(timeZone: .utc)) } catch {
                lines.append(error.message)
            }
        }
        return lines
    }

    static var podcastLines: [String] {
        counts.flatMap { refreshed in counts.flatMap { episodes in counts.map { podcasts in
            PodcastRefreshSummary.sentence(refreshed: refreshed, newEpisodes: episodes, inPodcasts: podcasts, unchanged: refreshed, failed: podcasts)
        } } }
    }

    // MARK: The tests

    @Test("every case of the refusals, the answers and the prompts has samples here")
    func everyCaseHasSamples() {
        #expect(Set(Self.refusals.map(Self.number)) == Set(0...13))
        #expect(Set(Self.reports.map(Self.number)) == Set(0...21))
        let prompts: [InterfaceState.Prompt] = [.filter(.queue), .alarmSeconds, .alarmNew, .alarmEdit(id: 2), .bookmarkNote, .playlistName,
                                                .stationURL, .stationName(url: "http://x"), .seekTime, .podcastURL, .opmlPath,
                                                .podcastRemoval(id: "p", title: "Harbour Talk")]
        #expect(Set(prompts.map(Self.number)) == Set(0...11))
        for prompt in prompts {
            let question = Self.trimmed(prompt.question)
            #expect(Self.faults(question).isEmpty, "\(question): \(Self.faults(question))")
        }
    }

    @Test("the refusals, worded with the keys bound and without, and as interlude remote replies")
    func refusalsReadWell() {
        let ui = InterfaceState(browser: nil)
        for reason in Self.refusals {
            for line in [reason.sentence(), ui.sentence(for: reason)] {
                #expect(Self.faults(line).isEmpty, "\(line): \(Self.faults(line))")
            }
            let reply = RemoteReply.line(id: .integer(1), .refused(reason: reason))
            #expect(reply.contains(JSONWriter().quoted(reason.sentence())), "\(reply)")
        }
    }

    @Test("the answers to commands carried out, and as interlude remote replies")
    func reportsReadWell() {
        for report in Self.reports {
            #expect(Self.faults(report.sentence).isEmpty, "\(report.sentence): \(Self.faults(report.sentence))")
            #expect(RemoteReply.line(id: .integer(1), .done(report: report)).contains(JSONWriter().quoted(report.sentence)))
        }
    }

    @Test("the screen's hints at every key in every pane, and the table's summaries")
    func screenLinesReadWell() {
        let lines = Self.screenHints + CommandTable.entries.map(\.summary)
        #expect(lines.count > 100)
        for line in lines { #expect(Self.faults(line).isEmpty, "\(line): \(Self.faults(line))") }
    }

    @Test("the alarm lines: the next alarm, a late ring, a time that does not parse; the refresh's count")
    func alarmAndPodcastLinesReadWell() {
        for line in Self.alarmLines + Self.podcastLines { #expect(Self.faults(line).isEmpty, "\(line): \(Self.faults(line))") }
    }

    @Test("the style's checks catch what the issue saw")
    func theChecksCatchTheOldWording() {
        for bad in ["saved 5 file(s) to /q.m3u", "alarm #1 at in 1m", "refreshed 1 podcasts: 0 new episodes in 0",
                    "error: no library index yet", "removed 2 entr(ies)", "alarm #1 rings in 20s", "added 3 file to the queue"] {
            #expect(!Self.faults(bad).isEmpty, "\(bad)")
        }
        #expect(Self.faults("alarm #1 rings in 1 minute, at 20:01").isEmpty)
        #expect(Self.faults("refreshed 1 podcast: no new episodes, 1 unchanged, 0 failed").isEmpty)
    }

    @Test("spans are said in words, the two largest units")
    func spokenSpans() {
        #expect(CommandReport.spoken(seconds: 1) == "1 second")
        #expect(CommandReport.spoken(seconds: 20) == "20 seconds")
        #expect(CommandReport.spoken(seconds: 60) == "1 minute")
        #expect(CommandReport.spoken(seconds: 90) == "1 minute 30 seconds")
        #expect(CommandReport.spoken(seconds: 3660) == "1 hour 1 minute")
        #expect(CommandReport.spoken(seconds: 7230) == "2 hours")
        #expect(CommandReport.spoken(seconds: 90_000) == "1 day 1 hour")
    }
}
