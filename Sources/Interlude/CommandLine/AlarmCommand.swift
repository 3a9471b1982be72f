import PlayerModel
import LoopIO
import Alarms
import InterludeCore

/// `interlude alarm add|list|rm|enable|disable|skip`: argument scanning and
/// output; the validation and the alarm file live in `Alarms.AlarmCommands`.
public enum AlarmCommand {
    static let usage = """
    usage: interlude alarm add (HH:MM | in DURATION | YYYY-MM-DDTHH:MM) [--label L]
                               [--repeat weekdays|weekends|daily|mon,tue,...]
                               [--sound SOUND] [--ramp DURATION] [--snooze MIN] [--ring SECONDS]
                               [--rooms NAME,...]
           interlude alarm list [--json]
           interlude alarm rm ID
           interlude alarm enable ID
           interlude alarm disable ID
           interlude alarm skip ID

    Alarms are kept in $XDG_STATE_HOME/interlude/alarms.json
    (default ~/.local/state/interlude/alarms.json).
    'interlude alarm SUBCOMMAND --help' describes each subcommand.
    """

    static let addUsage = """
    usage: interlude alarm add (HH:MM | in DURATION | YYYY-MM-DDTHH:MM) [options]

    Adds an alarm and prints its id and next ring time (local time zone).
      HH:MM               next time the clock shows it (07:30)
      in DURATION         after a duration: 90s, 5m, 1h30m (at most a week)
      YYYY-MM-DDTHH:MM    once, at a date and time (2025-03-30T07:30)

    options:
      --label L           text shown while it rings
      --repeat DAYS       weekdays, weekends, daily or a list like mon,wed,fri (HH:MM only)
      --sound SOUND       a built-in tone: \(AlarmSound.builtInTones.joined(separator: ", ")) (default classic);
                          an audio file; a folder; playlist:NAME or an .m3u/.m3u8 file;
                          book:PATH (plays on from the book's place, which moves on);
                          or a station's http(s) URL. When it cannot be opened, or
                          gives no sound for 3 s, the built-in tone rings instead.
      --ramp DURATION     rise from silence to full volume over 1s-10m (like 60s; default off)
      --snooze MIN        snooze length, 1-60 minutes (default \(Alarm.defaultSnoozeMinutes))
      --ring SECONDS      stop ringing after this long, 1-3600 (default \(Alarm.defaultRingTimeoutSeconds))
      --rooms NAME,...    playing to Snapcast: ring only in these rooms (clients or
                          groups, by name); the others pause with the music and
                          stay silent while it rings (default: every room)

    A time that does not exist on a DST change day (02:30 when clocks go
    forward) rings when the clock jumps (03:00); a time that occurs twice when
    clocks go back rings once, the first time.
    """

    static let listUsage = """
    usage: interlude alarm list [--json]

    Lists alarms: id, time, repeat, label, enabled, next ring time.
      --json              machine-readable output
    """

    /// The subcommands that take one alarm id, and what each does.
    static let idSubcommands = [("rm", "Removes an alarm"), ("enable", "Enables an alarm again"),
                                ("disable", "Keeps an alarm but stops it ringing"),
                                ("skip", "Skips the next ring of a repeating alarm only")]

    static func idUsage(_ subcommand: String, _ what: String) -> String {
        "usage: interlude alarm \(subcommand) ID\n\n\(what) (ids as shown by 'interlude alarm list')."
    }

    static let addSpec = ArgumentSpec(command: "alarm add", valued: ["--label", "--repeat", "--sound", "--ramp", "--snooze", "--ring",
                                                                          "--rooms"])
    static let listSpec = ArgumentSpec(command: "alarm list", flags: ["--json"])

    public static func run(_ arguments: [String]) -> Int32 {
        guard let subcommand = arguments.first else {
            writeStandardError(usage + "\n")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        let environment = ProcessEnvironment.current()
        let commands = AlarmCommands(
            store: AlarmStore(directories: XDGDirectories(environment: environment)),
            now: SystemClock().wallNow,
            timeZone: localZone(environment),
            fileExists: StateFile.isReadableFile)
        do {
            let output: AlarmCommands.Output
            switch subcommand {
            case "add":
                // `in -5s` must reach the duration check (which names the value), not
                // the option scanner (which would call it an unknown option).
                var scanned = rest
                var duration: String?
                if let index = scanned.firstIndex(of: "in"), index + 1 < scanned.count, scanned[index + 1].hasPrefix("-") {
                    duration = scanned.remove(at: index + 1)
                }
                let parsed = try addSpec.parse(scanned)
                if parsed.has("--help") || parsed.has("-h") { return help(addUsage) }
                var when = parsed.positionals
                if let duration, let index = when.firstIndex(of: "in") { when.insert(duration, at: index + 1) }
                output = try commands.add(AlarmCommands.AddRequest(
                    when: when, label: parsed.value("--label"), repeatDays: parsed.value("--repeat"),
                    sound: parsed.value("--sound"), snoozeMinutes: parsed.value("--snooze"), ringSeconds: parsed.value("--ring"),
                    ramp: parsed.value("--ramp"), rooms: parsed.value("--rooms")))
            case "list", "ls":
                let parsed = try listSpec.parse(rest)
                if parsed.has("--help") || parsed.has("-h") { return help(listUsage) }
                try expectNoPositionals(parsed, "list")
                output = try commands.list(json: parsed.has("--json"))
            case "rm", "remove":
                let parsed = try ArgumentSpec(command: "alarm rm").parse(rest)
                if parsed.has("--help") || parsed.has("-h") { return help(idUsage("rm", idSubcommands[0].1)) }
                output = try commands.remove(try singleID(parsed, "rm"))
            case "enable", "disable":
                let parsed = try ArgumentSpec(command: "alarm \(subcommand)").parse(rest)
                let enable = subcommand == "enable"
                if parsed.has("--help") || parsed.has("-h") {
                    return help(idUsage(subcommand, enable ? idSubcommands[1].1 : idSubcommands[2].1))
                }
                output = try commands.setEnabled(try singleID(parsed, subcommand), enable)
            case "skip":
                let parsed = try ArgumentSpec(command: "alarm skip").parse(rest)
                if parsed.has("--help") || parsed.has("-h") { return help(idUsage("skip", idSubcommands[3].1)) }
                output = try commands.skip(try singleID(parsed, "skip"))
            case "help", "--help", "-h":
                return help(usage)
            default:
                writeStandardError("interlude alarm: unknown subcommand '\(subcommand)' (see 'interlude alarm --help')\n")
                return 2
            }
            for warning in output.warnings { writeStandardError("interlude: \(warning)\n") }
            writeStandardOutput(output.standardOutput)
            switch subcommand {
            case "add", "enable": writeStandardOutput(PlayerService.ensureRunningForAlarms() + "\n")
            case "list", "ls" where !rest.contains("--json"): writeStandardOutput(PlayerService.presenceLine() + "\n")
            default: break
            }
            return 0
        } catch let error as UsageError {
            writeStandardError("interlude \(error.message)\n")
            return 2
        } catch let error as AlarmCommandError {
            writeStandardError("interlude \(error.message)\n")
            return error.isBadInput ? 2 : 1
        } catch {
            writeStandardError("interlude alarm: \(error)\n")
            return 1
        }
    }

    /// The local zone from `TZ` or /etc/localtime; a damaged zone file is
    /// reported with its path and UTC used, so alarms can still be managed.
    private static func localZone(_ environment: [String: String]) -> TimeZoneRules {
        do {
            return try TimeZoneDatabase().localZone(environment: environment)
        } catch {
            writeStandardError("interlude: \(error.description); showing times in UTC\n")
            return .utc
        }
    }

    private static func help(_ text: String) -> Int32 {
        writeStandardOutput(text + "\n")
        return 0
    }

    private static func singleID(_ parsed: ParsedArguments, _ subcommand: String) throws(UsageError) -> String? {
        guard parsed.positionals.count <= 1 else {
            throw UsageError("alarm \(subcommand): one alarm id at a time (got \(parsed.positionals.joined(separator: " ")))")
        }
        return parsed.positionals.first
    }

    private static func expectNoPositionals(_ parsed: ParsedArguments, _ subcommand: String) throws(UsageError) {
        if let extra = parsed.positionals.first {
            throw UsageError("alarm \(subcommand): unexpected argument '\(extra)'")
        }
    }
}
