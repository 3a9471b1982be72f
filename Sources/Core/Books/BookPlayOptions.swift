import Books
import InterludeCore
import PlayerModel

/// The options of `interlude play` that concern books.
public struct BookPlayOptions: Equatable, Sendable {
    /// `--book`: play the single path as a book even without chapters.
    public var forced = false
    /// `--sleep MINUTES|chapter`.
    public var sleep: SleepTimer.Setting?
    /// `--bookmark N`: start at bookmark N instead of the saved position.
    public var bookmark: Int?
    /// `--skip SECONDS`: the length of skip-back and skip-forward.
    public var skipSeconds: Double?
    /// `--speed` was given: it replaces the book's remembered speed (and is remembered).
    public var speedGiven = false

    public init() {}

    package static let skipRange = DurationRange(seconds: 1...3600)
    package static let bookmarkRange = CountRange(1...Int(Int32.max))

    package static let valuedFlags: Set<String> = ["--sleep", "--bookmark", "--skip"]
    package static let flags: Set<String> = ["--book"]

    package static let help = """
    books (a folder of audio files, or one file with chapters; two or more
    files always play as music):
      --book              play the one FILE or FOLDER as a book even without chapters
      --sleep MIN|chapter  pause after MIN minutes of listening (1-1440), or at the
                           end of the chapter, fading out over the last 10 seconds
      --bookmark N        start at bookmark N (see 'interlude bookmark')
      --skip SECONDS      length of skip-back and skip-forward (default 30)
    A book starts where it was left (a little earlier: smart rewind) at the
    speed it was last played at (unless --speed is given), plays as spoken audio, and its position is saved every second while it plays, on
    pause, on quit and on SIGTERM/SIGHUP. Book commands on standard input:
    \(CommandTable.offered(by: .standardInput).filter { $0.section == .audiobooks }.map(\.name).joined(separator: ", ")).
    """

    package static func parse(_ parsed: ParsedArguments) throws(UsageError) -> BookPlayOptions {
        var options = BookPlayOptions()
        options.forced = parsed.has("--book")
        options.speedGiven = parsed.value("--speed") != nil
        if let text = parsed.value("--sleep") {
            guard let setting = SleepTimer.Setting(argument: text) else {
                throw UsageError("play: --sleep '\(text)' is not \(SleepTimer.Setting.minutesRange.accepts) or 'chapter'")
            }
            options.sleep = setting
        }
        if let text = parsed.value("--bookmark") {
            guard let number = Self.bookmarkRange.parse(text) else {
                throw UsageError("play: --bookmark '\(text)' is not a bookmark number (\(Self.bookmarkRange.accepts))")
            }
            options.bookmark = number
        }
        if let text = parsed.value("--skip") {
            guard let seconds = Self.skipRange.parse(text) else {
                throw UsageError("play: --skip '\(text)' is not \(Self.skipRange.accepts)")
            }
            options.skipSeconds = seconds
        }
        return options
    }

    /// True when an option that only a book can use was given.
    package var needsBook: Bool { sleep != nil || bookmark != nil || skipSeconds != nil }
}
