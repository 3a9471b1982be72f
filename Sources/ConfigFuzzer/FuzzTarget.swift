import Alarms
import Books
@_spi(Fuzzing) import Interlude
import InterludeCore
import TUI
import Playlists
import Themes

/// The parsers under the fuzzer, and what each run does with what they read:
/// the arithmetic that follows a load (next ring times, a bookmark, saving
/// again) is reached too, since a value a parser lets through must not trap there.
enum FuzzTarget: String, CaseIterable {
    case theme, keys, alarms, book, m3u, player

    func exercise(_ bytes: UnsafeBufferPointer<UInt8>) {
        var total = 0
        switch self {
        case .theme:
            let load = ThemeParser.parse(String(decoding: bytes, as: UTF8.self), name: "fuzz", path: "fuzz.theme")
            total &+= load.problems.count
            for depth in ColorDepth.allCases { withExtendedLifetime(load.theme.rendering(for: depth)) { total &+= 1 } }
        case .keys:
            let load = KeyConfigParser.apply(String(decoding: bytes, as: UTF8.self), path: "keys")
            total &+= load.problems.map(\.description.utf8.count).reduce(0, &+)
            total &+= KeyHelp.sections(for: load.bindings).count
        case .alarms:
            guard let contents = try? AlarmStore.decode(Array(bytes)) else { break }
            let calculator = NextFireCalculator(zone: ZonedTime(timeZone: .utc))
            for alarm in contents.alarms {
                total &+= Int(truncatingIfNeeded: calculator.nextFire(of: alarm.schedule, after: alarm.handledThrough) ?? 0)
                total &+= Int(truncatingIfNeeded: calculator.lastFire(of: alarm.schedule, after: alarm.handledThrough,
                                                                      through: alarm.handledThrough &+ 86_400) ?? 0)
            }
        case .book:
            guard let json = try? JSONParser.parse(Array(bytes)),
                  var state = try? BookStateFormat.decode(json) else { break }
            let mark = state.addBookmark(at: state.positionMilliseconds, note: "fuzz", now: WallInstant(secondsSince1970: 0))
            total &+= mark.id
            // What is saved reads back the same.
            let again = try? BookStateFormat.decode(BookStateFormat.encode(state))
            precondition(again?.bookmarks == state.bookmarks, "a saved book state does not read back")
        case .m3u:
            let entries = M3UPlaylist.parse(PlaylistText.decode(Array(bytes)), folder: "/music/lists")
            total &+= entries.reduce(0) { $0 &+ $1.path.utf8.count &+ ($1.seconds ?? 0) }
            // What is saved reads back to the same entries.
            let again = M3UPlaylist.parse(M3UPlaylist.write(entries, folder: "/music/lists"), folder: "/music/lists")
            precondition(again.map(\.path) == entries.map(\.path), "a saved playlist does not read back")
        case .player:
            PlayerStateFuzzing.exercise(Array(bytes))
        }
        precondition(total != Int.min)
    }
}

/// The parser `INTERLUDE_FUZZ_TARGET` names; set once, before the driver starts.
nonisolated(unsafe) var selectedTarget = FuzzTarget.theme

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // Sound: libFuzzer hands a buffer of exactly `size` bytes, or nil for 0.
    selectedTarget.exercise(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
