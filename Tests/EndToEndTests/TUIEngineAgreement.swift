import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// An invariant of every TUI test: after each key
/// sequence and at the end of each session, `TUISession` checks that the state
/// word on the screen (playing, paused, interrupted, stopped) agrees with what
/// the playback engine itself reports through the player's control socket
/// (`status.engine`: the media voice running, fading, stopped or starting, the
/// interrupter voice, a lost device), not with the model the screen is drawn
/// from. A step that leaves things mid-change (a fade, a resume under way) is
/// polled until both sides settle, within `settleSeconds`; a settled engine
/// that the screen contradicts for longer than `staleSeconds` is reported at
/// once. Agreement must be seen twice in a row, a poll apart, so the check
/// looks at the screen after the key took effect more often than before.
///
/// `TUIStateInvariantTests` checks the same word against what the sink hears,
/// which takes 400 ms a check; this one reads a few bytes from a socket.
struct EngineState: Equatable, CustomStringConvertible {
    var media: String
    var voice: String
    var outputLost: Bool
    /// The model's own word in the same reply: for the issue's text only.
    var modelState: String

    /// Not in the middle of a pause's fade or a resume.
    var isSettled: Bool { media == "running" || media == "stopped" }

    var description: String {
        "engine media \(media), voice \(voice)\(outputLost ? ", output lost" : "") (model: \(modelState))"
    }

    /// The engine's words only: the model's is not the engine's to agree on.
    static func == (left: EngineState, right: EngineState) -> Bool {
        left.media == right.media && left.voice == right.voice && left.outputLost == right.outputLost
    }

    /// Why `word` on the screen contradicts the engine, or nil when they agree.
    static func disagreement(word: String, engine: EngineState) -> String? {
        let mediaSounds = engine.media == "running" && !engine.outputLost
        switch word {
        case "playing":
            return mediaSounds ? nil : "the screen says playing, but the engine's media does not run"
        case "paused", "stopped", "interrupted":
            if mediaSounds { return "the screen says \(word), but the engine's media runs" }
            // An alarm's tone sounds alone only while the player is held by it.
            if engine.voice == "alone" && word == "paused" {
                return "the screen says paused, but an interrupter's voice sounds alone"
            }
            return nil
        default:
            return "unknown state word \(word)"
        }
    }
}

extension TUISession {
    /// How long a step may take to settle (a fade, a resume, a device reopened)
    /// before the words that still disagree are reported.
    static let settleSeconds = 8.0
    /// How long the screen may lag an engine that has settled: one redraw
    /// after the engine's report reaches the loop, with room for a loaded machine.
    static let staleSeconds = 2.0

    enum EngineProbe {
        case state(EngineState)
        /// No player of this pane can answer: none runs (it exited), or job control stopped it.
        case noPlayer
        /// A player runs but its engine could not be read: why.
        case unreadable(String)
    }

    /// Checks the invariant once the screen and the engine have settled;
    /// `step` names the test's step in the issue a disagreement records.
    func expectScreenAgreesWithEngine(step: String, sourceLocation: SourceLocation) {
        guard checksEngineAgreement else { return }
        engineChecks += 1
        let deadline = monotonicSeconds() + Self.settleSeconds
        var previous: (word: String, engine: EngineState)?
        var last = "nothing observed"
        var disagreeingSince: Double?
        while true {
            let before = probeEngine()
            let word = stateWord
            let after = probeEngine()
            switch (before, after) {
            case (.noPlayer, _), (_, .noPlayer):
                return
            case (.unreadable(let why), _), (_, .unreadable(let why)):
                last = "the engine cannot be read: \(why)"
                previous = nil
            case (.state(let first), .state(let engine)):
                guard let word, Self.stateWords.contains(word) else {
                    // No state word on screen (too small, still drawing): nothing to compare.
                    wordlessReads += 1
                    return
                }
                if first != engine || !engine.isSettled {
                    last = "\"\(word)\" on screen while the \(engine) did not settle"
                    previous = nil
                    disagreeingSince = nil
                } else if let why = EngineState.disagreement(word: word, engine: engine) {
                    let since = disagreeingSince ?? monotonicSeconds()
                    disagreeingSince = since
                    last = "\(why): \"\(word)\" on screen, \(engine)"
                    previous = nil
                    if monotonicSeconds() - since > Self.staleSeconds {
                        Issue.record("step \(engineChecks) (\(step)): \(last), for \(Self.staleSeconds) s\n\(screen())",
                                     sourceLocation: sourceLocation)
                        return
                    }
                } else if let seen = previous, seen.word == word, seen.engine == engine {
                    // Alike twice in a row, a poll apart: settled, and they agree.
                    engineComparisons += 1
                    return
                } else {
                    previous = (word, engine)
                    disagreeingSince = nil
                }
            }
            if monotonicSeconds() > deadline {
                Issue.record("step \(engineChecks) (\(step)): \(last)\n\(screen())", sourceLocation: sourceLocation)
                return
            }
            usleep(40_000)
        }
    }

    static let stateWords: Set<String> = ["playing", "paused", "interrupted", "stopped"]

    /// The engine's state from the `status` reply of this pane's player.
    func probeEngine() -> EngineProbe {
        guard let pid = currentPlayerPID() else { return .noPlayer }
        if Self.isStoppedByJobControl(pid) { return .noPlayer }
        guard let socket = controlSocket(of: pid) else {
            // Restarted in the pane since the PID was cached, or gone: look again once.
            cachedPlayerPID = nil
            guard let fresh = currentPlayerPID(), fresh != pid, let socket = controlSocket(of: fresh) else {
                return currentPlayerPID() == nil ? .noPlayer : .unreadable("no control socket of player \(pid) in \(playerRuntimeDirectory)")
            }
            return readStatus(socket, pid: fresh)
        }
        return readStatus(socket, pid: pid)
    }

    private func readStatus(_ fd: Int32, pid: Int32) -> EngineProbe {
        defer { close(fd) }
        let request = Array("{\"id\":1,\"command\":\"status\"}\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            return Self.isRunning(pid) ? .unreadable("send: \(String(cString: strerror(errno)))") : .noPlayer
        }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !reply.contains(UInt8(ascii: "\n")) {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                // Stopped or gone while we asked: nothing to compare.
                if !Self.isRunning(pid) || Self.isStoppedByJobControl(pid) { return .noPlayer }
                return .unreadable(count == 0 ? "the player closed the connection" : "no reply: \(String(cString: strerror(errno)))")
            }
            reply += chunk[0..<count]
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any],
              let result = object["result"] as? [String: Any] else {
            return .unreadable("not a status reply: \(String(decoding: reply, as: UTF8.self))")
        }
        guard let engine = result["engine"] as? [String: Any], let media = engine["media"] as? String,
              let voice = engine["voice"] as? String, let lost = engine["outputLost"] as? Bool else {
            return .unreadable("no engine in the status: \(String(decoding: reply, as: UTF8.self))")
        }
        return .state(EngineState(media: media, voice: voice, outputLost: lost, modelState: result["state"] as? String ?? "?"))
    }

    private func currentPlayerPID() -> Int32? {
        if let cached = cachedPlayerPID, Self.isRunning(cached) { return cached }
        cachedPlayerPID = (try? playerPID()) ?? nil
        return cachedPlayerPID
    }

    /// A connection to the control socket whose listener is `pid` (a second
    /// player started with `--new` listens at `control.2` beside the first).
    private func controlSocket(of pid: Int32) -> Int32? {
        let directory = playerRuntimeDirectory + "/interlude"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("control") }
        for name in names.sorted() {
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { continue }
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let path = Array((directory + "/" + name).utf8CString)
            withUnsafeMutableBytes(of: &address.sun_path) { bytes in
                for (index, byte) in path.prefix(bytes.count - 1).enumerated() { bytes[index] = UInt8(bitPattern: byte) }
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            // struct ucred (pid, uid, gid), which Glibc shows Swift only under _GNU_SOURCE.
            var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
            var length = socklen_t(MemoryLayout.size(ofValue: credentials))
            if connected == 0, getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.pid == pid {
                return fd
            }
            close(fd)
        }
        return nil
    }

    private static func isRunning(_ pid: Int32) -> Bool { kill(pid, 0) == 0 }

    /// State `T` in /proc/PID/stat: stopped (Ctrl-Z), so it answers nothing until `fg`.
    private static func isStoppedByJobControl(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.range(of: ")", options: .backwards) else { return false }
        return stat[close.upperBound...].split(separator: " ").first.map { $0 == "T" || $0 == "t" } ?? false
    }
}
