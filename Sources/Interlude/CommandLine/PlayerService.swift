import LoopIO
import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// The player as a user service: the core, alarms and services in a process
/// of their own with no terminal, one per runtime folder, which screens attach
/// to (`ScreenAttachments`). `interlude service` runs it in the foreground
/// (systemd's `interlude.service` does); a screen, `interlude FILE` or
/// `interlude alarm add` start it in the background when none runs (`start`):
/// its own session, standard input on /dev/null, its output appended to
/// `$XDG_STATE_HOME/interlude/service.log`. It records its pid in
/// `$XDG_RUNTIME_DIR/interlude/service.pid`, and ends on `interlude quit`
/// (or SIGTERM); never by itself.
enum PlayerService {
    static let help = """
    usage: interlude service [--device D] [--output wav:PATH|null] [--latency MS] [--speed X] [--theme NAME]
                             [--resume-delay S] [--fade DUR] [--spoken] [--smart-rewind MAX]

    Runs the player as the user's service, in the foreground and with no
    terminal: playback, alarms, the control socket, MPD and MPRIS go on while
    no screen is open, and 'interlude' attaches a screen to it (several may
    attach at once). A screen, 'interlude FILE' and 'interlude alarm add'
    start it in the background when none runs; systemd's user unit runs this
    command ('systemctl --user enable --now interlude.service' starts it at
    login). It ends on 'interlude quit' (Q in a screen) or SIGTERM, keeping
    the queue, the book's place and the alarms.

    options: as the full-screen player's ('interlude --help-player'): --device,
    --output, --latency, --speed, --theme, --resume-delay, --fade, --spoken and
    --smart-rewind, for the whole run.
    """

    static let spec = ArgumentSpec(command: "interlude service",
                                   valued: ["--device", "--output", "--latency", "--speed", "--theme", "--resume-delay", "--fade",
                                            "--smart-rewind"],
                                   flags: ["--spoken"])

    /// `interlude service [options]`.
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            writeStandardOutput(help + "\n")
            return 0
        }
        var options: FullScreenCommand.Options
        do {
            _ = try spec.parse(arguments)
            options = try FullScreenCommand.parse(arguments)
        } catch {
            writeStandardError(error.message.replacingPrefix("interlude:", with: "interlude service:") + "\n")
            return 2
        }
        guard options.paths.isEmpty else {
            writeStandardError("interlude service: takes no files ('interlude FILE' hands them to the service)\n")
            return 2
        }
        options.newInstance = false
        let pidFile = ControlSocketPlace.current.map { $0.directory + "/service.pid" }
        writeStandardError("interlude service: started (pid \(getpid()))\n")
        let player = FullScreenPlayer(options: options, mode: .service)
        let status = player.run(started: {
            // Recorded once the screen socket is ours: whoever reads it finds this service.
            if let pidFile { try? StateFile(path: pidFile).writeAtomically(Array("\(getpid())\n".utf8)) }
        })
        if let pidFile { unlink(pidFile) }
        writeStandardError("interlude service: stopped\n")
        return status
    }

    /// `$XDG_STATE_HOME/interlude/service.log`.
    static func logPath() -> String {
        XDGDirectories(environment: ProcessEnvironment.current()).interludeState + "/service.log"
    }

    /// The log is set aside (`service.log.1`) past this size when a service starts.
    static let logLimit = 1 << 20

    /// Starts `interlude service` in the background with `options` (the
    /// output options a first screen or `interlude FILE` gave); the log's
    /// path, or why it could not start.
    static func start(options: [String] = []) -> Result<String, ScreenClient.Problem> {
        let log = logPath()
        let folder = String(log[..<(log.lastIndex(of: "/") ?? log.endIndex)])
        makeFolders(folder)
        var status = stat()
        if stat(log, &status) == 0, Int(status.st_size) > logLimit { rename(log, log + ".1") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // POSIX_SPAWN_SETSID (glibc's 0x80, behind _GNU_SOURCE): a session of its own, so no
        // terminal's hang-up, Ctrl-C or Ctrl-Z reaches it.
        let setSession: Int32 = 0x80
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | setSession))
        let program = FullScreenPlayer.executablePath()
        let arguments = ["interlude", "service"] + options
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = ProcessEnvironment.current().map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else {
            return .failure(.init(line: "cannot start the player service (\(program)): \(Errno(result).message)"))
        }
        return .success(log)
    }

    private static func makeFolders(_ path: String) {
        var partial = ""
        for part in path.split(separator: "/") {
            partial += "/" + part
            mkdir(partial, 0o700)
        }
    }

    /// After an alarm is added or enabled: a player must run for it to ring.
    /// Starts the service when none runs; the line that says so.
    static func ensureRunningForAlarms() -> String {
        guard let place = ControlSocketPlace.current else {
            return "no player runs, and none can start here (no XDG_RUNTIME_DIR): alarms ring only while a player runs"
        }
        if ControlSocketPlace.isLive(place.primary) { return "the player runs: it will ring" }
        switch start() {
        case .success(let log):
            FullScreenCommand.waitUntilLive(place.primary)
            guard ControlSocketPlace.isLive(place.primary) else { return "it will not ring: the player service did not start (its log: \(log))" }
            return "the player service started in the background to ring it ('interlude' shows it, 'interlude quit' stops it)"
        case .failure(let problem):
            return "it will not ring: \(problem.line)"
        }
    }

    /// `alarm list`'s last lines: whether the alarms will ring, and for each
    /// enabled one whether it wakes the computer, as the running player knows
    /// it (its wake timer: the next alarm's, armed again for each in turn).
    static func presenceLine() -> String {
        guard let place = ControlSocketPlace.current, ControlSocketPlace.isLive(place.primary) else {
            return "no player runs: these alarms ring only once one does ('interlude' or 'interlude service' starts it)"
        }
        var lines = ["the player runs: enabled alarms will ring"]
        if case .success(let client) = ControlClient.connect(instance: 1),
           case .reply(let reply) = client.request(.init(command: "alarm-list", arguments: [])),
           let alarms = reply["result"]?.arrayValue {
            for alarm in alarms where alarm["enabled"]?.boolValue == true {
                guard let id = alarm["id"]?.integerValue, let wake = alarm["wake"]?.stringValue, !wake.isEmpty else { continue }
                lines.append("alarm \(id) \(wake)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
