import LoopIO
import BookFormat
import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// MPD's commands over the player: those that stand for a row of the one
/// command table (`CommandSpec.mpd`) become that row's action with the
/// row's own checks; the rest read the snapshot and the queue. A refusal is
/// an `ACK` whose message is the player's reason, worded without keys.
package struct MPDCommands {
    package let server: MPDServer
    package let core: any PlayerCore
    package let connection: MPDServer.Connection

    /// Each command's argument counts, as MPD checks them before running it.
    package static let arity: [String: ClosedRange<Int>] = [
        "add": 1...2, "addid": 1...2, "clear": 0...0, "commands": 0...0, "consume": 1...1, "currentsong": 0...0,
        "decoders": 0...0, "getvol": 0...0, "next": 0...0, "notcommands": 0...0, "outputs": 0...0, "pause": 0...1,
        "ping": 0...0, "play": 0...1, "playid": 0...1, "playlistid": 0...1, "playlistinfo": 0...1, "plchanges": 1...2,
        "previous": 0...0, "random": 1...1, "repeat": 1...1, "seek": 2...2, "seekcur": 1...1, "seekid": 2...2,
        "setvol": 1...1, "single": 1...1, "stats": 0...0, "status": 0...0, "stop": 0...0, "tagtypes": 0...64,
        "urlhandlers": 0...0, "volume": 1...1, "lsinfo": 0...1, "find": 1...64, "search": 1...64,
        "listall": 0...1, "plchangesposid": 1...2,
        "delete": 1...1, "deleteid": 1...1, "move": 2...2, "moveid": 2...2, "shuffle": 0...1, "listallinfo": 0...1,
        "list": 1...64, "count": 1...64, "listplaylists": 0...0, "listplaylist": 1...2, "listplaylistinfo": 1...2,
        "load": 1...2, "save": 1...1, "rm": 1...1, "enableoutput": 1...1, "disableoutput": 1...1, "toggleoutput": 1...1,
        "binarylimit": 1...1, "password": 1...1, "albumart": 2...2, "readpicture": 2...2,
    ]

    /// `commands`' list: these and the connection's own.
    package static var names: [String] { (Array(arity.keys) + ["close", "idle"]).sorted() }

    /// A command's outcome: its reply, or a picture request for the worker's thread.
    package enum Outcome {
        case reply(MPDResponse)
        case picture(MPDPictures.Request)
    }

    package func run(_ request: MPDRequest) throws(MPDFailure) -> Outcome {
        let name = request.command
        let arguments = request.arguments
        guard let counts = Self.arity[name] else { throw .unknownCommand(name) }
        // MPD's order: an unknown command, then permission, then the arguments.
        guard connection.session.permissions.isSuperset(of: MPDPermission.needed(by: name)) else { throw MPDPermission.refusal(name) }
        guard counts.contains(arguments.count) else { throw .argumentCount(name, expected: counts, given: arguments.count) }
        var failure = MPDFailure(.argument, "", command: name)
        do throws(MPDFailure) {
            if name == "albumart" || name == "readpicture" {
                // The offset is checked here, as MPD checks it before it looks for the file.
                let offset = try Self.integer(arguments[1])
                return .picture(MPDPictures.Request(command: name, uri: arguments[0], offset: offset, limit: connection.session.binaryLimit))
            }
            return .reply(try carryOut(name, arguments))
        } catch {
            failure = error
            failure.command = name
            throw failure
        }
    }

    private func carryOut(_ name: String, _ arguments: [String]) throws(MPDFailure) -> MPDResponse {
        var response = MPDResponse()
        let snapshot = core.snapshot(.playback)
        switch name {
        case "ping": break
        case "status": return status(snapshot)
        case "currentsong":
            if let index = snapshot.currentIndex, index < server.queueIDs.paths.count { song(at: index, snapshot, into: &response) }
        case "stats":
            response.add("uptime", Int(max(0, monotonicSeconds() - server.startedAt)))
            response.add("playtime", 0)
            try server.database.statistics(into: &response)
            return response
        case "play", "playid":
            // A negative position (mpc's -1) is the current song, as no argument is.
            if let argument = arguments.first, (try Self.integer(argument, allowNegative: true)) >= 0 {
                let number = try Self.integer(argument)
                let index = name == "play" ? number : server.queueIDs.position(ofID: number)
                guard let index, server.queueIDs.paths.indices.contains(index) else {
                    throw name == "play" ? MPDFailure(.argument, "Bad song index") : MPDFailure(.noExist, "No such song")
                }
                try table("play")
                try perform(.jump(toQueueIndex: index, play: true))
            } else {
                try table("play")
            }
        case "pause":
            if let argument = arguments.first {
                try table(try Self.boolean(argument) ? "pause" : "play")
            } else {
                try perform(.togglePlayPause)
            }
        case "stop", "next", "previous": try table(name)
        case "seek", "seekid":
            let number = try Self.integer(arguments[0])
            let index = name == "seek" ? number : server.queueIDs.position(ofID: number)
            guard let index, server.queueIDs.paths.indices.contains(index) else {
                throw name == "seek" ? MPDFailure(.argument, "Bad song index") : MPDFailure(.noExist, "No such song")
            }
            let seconds = try Self.seconds(arguments[1])
            if index != snapshot.currentIndex { try perform(.jump(toQueueIndex: index, play: false)) }
            try table(name, [.double(seconds)])
        case "seekcur":
            let text = arguments[0]
            let seconds = try Self.seconds(text.hasPrefix("+") || text.hasPrefix("-") ? String(text.dropFirst()) : text)
            if text.hasPrefix("+") || text.hasPrefix("-") {
                try table(name, [.double(text.hasPrefix("-") ? -seconds : seconds)])
            } else {
                try table("seek", [.double(seconds)])
            }
        case "setvol":
            let value = try Self.integer(arguments[0])
            guard value <= 100 else { throw MPDFailure(.argument, "Number too large: \(arguments[0])") }
            try table(name, [.double(Double(value) / 100)])
        case "volume":
            let delta = try Self.integer(arguments[0])
            guard (-100...100).contains(delta) else { throw MPDFailure(.argument, "Number too large: \(arguments[0])") }
            try table(name, [.double(Double(max(0, min(100, Self.percent(snapshot.volume) + delta))) / 100)])
        case "getvol":
            response.add("volume", Self.percent(snapshot.volume))
            return response
        case "random":
            let on = try Self.boolean(arguments[0])
            if on != snapshot.shuffle { try table(name) }
        case "repeat", "single":
            let on = try Self.boolean(arguments[0])
            let repeatOn = snapshot.repeatMode != "off"
            let singleOn = snapshot.repeatMode == "one"
            // Interlude's modes: off, all (repeat), one (repeat and single); single alone it has not.
            let wanted = name == "repeat" ? (on ? (singleOn ? "one" : "all") : "off") : (on ? "one" : (repeatOn ? "all" : "off"))
            if name == "single" && on && !repeatOn {
                throw MPDFailure(.argument, "single without repeat is not a mode of this player (repeat one is)")
            }
            var mode = snapshot.repeatMode
            for _ in 0..<3 where mode != wanted {
                try table(name)
                mode = core.snapshot(.playback).repeatMode
            }
        case "consume":
            if try Self.boolean(arguments[0]) { throw MPDFailure(.argument, "consume is not a mode of this player") }
        case "playlistinfo", "playlistid":
            var indices = Array(server.queueIDs.paths.indices)
            if let argument = arguments.first {
                if name == "playlistid" {
                    guard let index = server.queueIDs.position(ofID: try Self.integer(argument)) else {
                        throw MPDFailure(.noExist, "No such song")
                    }
                    indices = [index]
                } else {
                    indices = try Self.range(argument, count: indices.count)
                }
            }
            // One allocation for the reply (with its `OK`), not a doubling and copy for each megabyte.
            response.reserveCapacity(indices.reduce(3) { $0 + server.queueIDs.songLines[$1].count + 32 })
            for index in indices { song(at: index, snapshot, into: &response) }
            return response
        case "plchanges":
            let since = try Self.integer(arguments[0], allowNegative: true)
            for index in server.queueIDs.changed(since: since) { song(at: index, snapshot, into: &response) }
            return response
        case "plchangesposid":
            let since = try Self.integer(arguments[0], allowNegative: true)
            for index in server.queueIDs.changed(since: since) {
                response.add("cpos", index)
                response.add("Id", server.queueIDs.ids[index])
            }
            return response
        case "listall": return try server.database.listall(arguments.first ?? "")
        case "add", "addid":
            guard arguments.count == 1 || name == "addid" else { throw MPDFailure(.argument, "add takes one URI") }
            let path = try resolve(arguments[0])
            try table(name, [.string(path)])
            if name == "addid" {
                server.queueIDs.update(core.snapshot(.playback).queuePaths)
                if let id = server.queueIDs.ids.last { response.add("Id", id) }
                return response
            }
        case "clear": try table(name)
        case "commands", "notcommands":
            // Each list as this client's permissions make it (`notcommands`: what it may not run).
            for command in Self.names
            where connection.session.permissions.isSuperset(of: MPDPermission.needed(by: command)) == (name == "commands") {
                response.add("command", command)
            }
            return response
        case "lsinfo": return try server.database.lsinfo(arguments.first ?? "")
        case "find", "search": return try server.database.find(arguments, exact: name == "find")
        case "tagtypes":
            // `tagtypes clear|all|enable|disable ...`: every song's tags are sent whatever a client chose.
            guard arguments.isEmpty else { break }
            for tag in ["Artist", "Album", "Title", "Track", "Genre", "Date"] { response.add("tagtype", tag) }
            return response
        case "urlhandlers":
            for scheme in ["http://", "https://"] { response.add("handler", scheme) }
            return response
        case "decoders":
            response.add("plugin", "mpg123")
            response.add("suffix", "mp3")
            response.add("plugin", "flac")
            response.add("suffix", "flac")
            response.add("plugin", "ffmpeg")
            for suffix in ["ogg", "opus", "m4a", "m4b", "wav", "wv", "ape", "mpc"] { response.add("suffix", suffix) }
            return response
        case "outputs":
            response.add("outputid", 0)
            response.add("outputname", "interlude")
            response.add("plugin", "interlude")
            response.add("outputenabled", server.outputEnabled ? 1 : 0)
            return response
        case "enableoutput", "disableoutput", "toggleoutput":
            guard try Self.integer(arguments[0]) == 0 else { throw MPDFailure(.noExist, "No such audio output") }
            let enable = name == "enableoutput" || (name == "toggleoutput" && !server.outputEnabled)
            // The one output off: nothing can be heard, so the player pauses (it keeps its place), as MPD's player does with no output.
            if !enable && snapshot.state == .playing { try table("pause") }
            if enable != server.outputEnabled {
                server.outputEnabled = enable
                server.note(.output)
            }
        case "delete", "deleteid":
            let (start, end) = try queueRange(arguments[0], byID: name == "deleteid")
            if end > start { try table(name, [.integer(Int64(start)), .integer(Int64(end - start))]) }
        case "move", "moveid":
            let (start, end) = try queueRange(arguments[0], byID: name == "moveid")
            let to = try Self.integer(arguments[1])
            guard to + (end - start) <= server.queueIDs.paths.count else { throw MPDFailure(.argument, "Bad song index") }
            if end > start && to != start {
                try table(name, [.integer(Int64(start)), .integer(Int64(to)), .integer(Int64(end - start))])
            }
        case "shuffle":
            // A range is checked as MPD checks it; the row shuffles all that follows the track that plays
            // (with the whole queue MPD keeps the song that plays first too, so the two agree there).
            if let argument = arguments.first { _ = try Self.range(argument, count: server.queueIDs.paths.count, clamped: true) }
            try table(name)
        case "listallinfo": return try server.database.listall(arguments.first ?? "", info: true)
        case "list": return try server.database.list(arguments)
        case "count": return try server.database.count(arguments)
        case "listplaylists", "listplaylist", "listplaylistinfo", "load", "save", "rm":
            return try MPDStoredPlaylists(commands: self).run(name, arguments)
        case "binarylimit":
            let limit = try Self.integer(arguments[0])
            guard limit >= MPDPictures.smallestChunk else { throw MPDFailure(.argument, "Value too small") }
            connection.session.binaryLimit = limit
        case "password": try server.checkPassword(arguments[0], for: connection)
        default: throw .unknownCommand(name)
        }
        return response
    }

    // MARK: Through the command table

    /// The queue positions `START:END`, one position, or (`byID`) one song id names; MPD's complaint when it names none.
    private func queueRange(_ text: String, byID: Bool) throws(MPDFailure) -> (start: Int, end: Int) {
        let count = server.queueIDs.paths.count
        if byID {
            guard let index = server.queueIDs.position(ofID: try Self.integer(text)) else { throw MPDFailure(.noExist, "No such song") }
            return (index, index + 1)
        }
        let range = try Self.range(text, count: count, clamped: false)
        guard range.end <= count else { throw MPDFailure(.argument, "Bad song index") }
        return range
    }

    /// Carries out the command table's row for the MPD command `name`, with the row's own reading of `values`.
    package func table(_ name: String, _ values: [JSONValue] = []) throws(MPDFailure) {
        guard let entry = CommandTable.entry(mpd: name) else { throw .unknownCommand(name) }
        let action: RemoteAction
        do { action = try entry.action(values, calledAs: name) } catch { throw MPDFailure(.argument, error.message) }
        switch action {
        case .perform(let command): try perform(command)
        case .seekTo(let seconds):
            let playing = core.snapshot(.playback)
            guard playing.currentIndex != nil else { throw MPDFailure(.playerSync, "Not playing") }
            try perform(.seek(seconds: seconds - playing.fileElapsed))
        default: throw .unknownCommand(name)
        }
    }

    private func perform(_ command: PlayerCommand) throws(MPDFailure) {
        if case .refused(let reason) = core.perform(command) { throw MPDFailure(.system, reason.sentence()) }
    }

    // MARK: Replies

    private func status(_ snapshot: PlayerSnapshot) -> MPDResponse {
        // Its 19 lines and `OK` while playing (about 270 bytes) in one allocation, not the six of an array doubling from empty.
        var response = MPDResponse(capacity: 320)
        let ids = server.queueIDs
        response.add("volume", Self.percent(snapshot.volume))
        response.add("repeat", snapshot.repeatMode == "off" ? 0 : 1)
        response.add("random", snapshot.shuffle ? 1 : 0)
        response.add("single", snapshot.repeatMode == "one" ? 1 : 0)
        response.add("consume", 0)
        response.add("partition", "default")
        response.add("playlist", ids.version)
        response.add("playlistlength", ids.paths.count)
        response.add("mixrampdb", "0")
        // An alarm or a call holds playback: MPD's clients see a pause.
        let state = switch snapshot.state {
        case .playing: "play"
        case .paused, .interrupted: "pause"
        case .stopped: "stop"
        }
        response.add("state", state)
        let index = snapshot.currentIndex.flatMap { ids.paths.indices.contains($0) ? $0 : nil }
        if let index {
            response.add("song", index)
            response.add("songid", ids.ids[index])
        }
        if state != "stop" {
            let duration = snapshot.duration ?? 0
            response.add("time", Self.wholeSeconds(snapshot.elapsed), Self.wholeSeconds(duration))
            response.add("elapsed", milliseconds: snapshot.elapsed)
            // MPD's order: bitrate (0 when unknown), duration, then the decoder's
            // format; its bits are the pipeline's, 16, what every decoder is converted to.
            let decoding = snapshot.decoding
            response.add("bitrate", decoding?.bitrateKbps ?? 0)
            if snapshot.duration != nil { response.add("duration", milliseconds: duration) }
            if let decoding { response.add("audio", "\(decoding.rate):16:\(decoding.channels)") }
        }
        // What plays next: the same song under repeat one, the first again at the end under repeat all.
        let next: Int? = index.flatMap { index in
            snapshot.repeatMode == "one" ? index : index + 1 < ids.paths.count ? index + 1 : snapshot.repeatMode == "all" ? 0 : nil
        }
        if let next {
            response.add("nextsong", next)
            response.add("nextsongid", ids.ids[next])
        }
        return response
    }

    private func song(at index: Int, _ snapshot: PlayerSnapshot, into response: inout MPDResponse) {
        let kept = server.queueIDs.songLines[index]
        if !kept.isEmpty {
            response.append(lines: kept)
        } else {
            let path = server.queueIDs.paths[index]
            var lines = MPDResponse()
            lines.add("file", relative(path))
            let tags = core.snapshot(.tags(of: [path])).tags[path] ?? AudioTags()
            // MPD's order (its ID3 scan's).
            if let artist = tags.artist { lines.add("Artist", artist) }
            if let albumArtist = tags.albumArtist { lines.add("AlbumArtist", albumArtist) }
            if let title = tags.title { lines.add("Title", title) }
            if let album = tags.album { lines.add("Album", album) }
            if let number = tags.track?.number { lines.add("Track", number) }
            if let date = tags.date { lines.add("Date", date) }
            if let genre = tags.genre { lines.add("Genre", genre) }
            response.append(lines)
            // A file's tags are read once (`TrackTagStore`), so its lines stay true; a station's title changes.
            if path.hasPrefix("/") { server.queueIDs.keep(songLines: lines.bytes, at: index) }
        }
        if index == snapshot.currentIndex, let duration = snapshot.duration {
            response.add("Time", Self.wholeSeconds(duration))
            response.add("duration", milliseconds: duration)
        }
        response.add("Pos", index)
        response.add("Id", server.queueIDs.ids[index])
    }

    /// A path in a library folder as MPD names it (relative to its music directory); others whole.
    package func relative(_ path: String) -> String {
        for folder in server.musicFolders {
            if let rest = Self.dropping(folder.hasSuffix("/") ? folder : folder + "/", from: path) { return rest }
        }
        return path
    }

    /// `path` without `prefix`, compared and dropped Character by Character
    /// as `hasPrefix` and `dropFirst` do, or nil when it does not start with
    /// it. Their generic walk cost a fifth of a 10,000-song `playlistinfo`:
    /// the bytes are compared first, and when the same bytes end on one of
    /// the path's Character boundaries, the Characters are the same too.
    package static func dropping(_ prefix: String, from path: String) -> String? {
        let utf8 = path.utf8
        if utf8.starts(with: prefix.utf8) {
            let end = utf8.index(utf8.startIndex, offsetBy: prefix.utf8.count)
            if end.samePosition(in: path) != nil { return String(path[end...]) }
        }
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
    }

    /// An MPD URI: relative to a library folder, or a whole path or URL.
    package func resolve(_ uri: String) throws(MPDFailure) -> String {
        if uri.hasPrefix("/") || uri.hasPrefix("http://") || uri.hasPrefix("https://") { return uri }
        let local = uri.hasPrefix("file://") ? String(uri.dropFirst("file://".count)) : nil
        if let local { return local }
        for folder in server.musicFolders {
            let path = (folder.hasSuffix("/") ? folder : folder + "/") + uri
            if access(path, F_OK) == 0 { return path }
        }
        throw MPDFailure(.noExist, "No such directory")
    }

    // MARK: Arguments, read as MPD reads them

    package static func integer(_ text: String, allowNegative: Bool = false) throws(MPDFailure) -> Int {
        guard let value = Int(text) else { throw MPDFailure(.argument, "Integer expected: \(text)") }
        guard allowNegative || value >= 0 else { throw MPDFailure(.argument, "Number is negative: \(text)") }
        guard value <= Int(Int32.max) else { throw MPDFailure(.argument, "Number too large: \(text)") }
        return value
    }

    package static func boolean(_ text: String) throws(MPDFailure) -> Bool {
        switch text {
        case "0": return false
        case "1": return true
        default: throw MPDFailure(.argument, "Boolean (0/1) expected: \(text)")
        }
    }

    package static func seconds(_ text: String) throws(MPDFailure) -> Double {
        guard let value = Double(text), value.isFinite, value >= 0, value <= 1000 * 3600 else {
            throw MPDFailure(.argument, "Float expected: \(text)")
        }
        return value
    }

    /// `START:END` (END optional) or one position, as the positions of a queue of `count` entries.
    package static func range(_ text: String, count: Int) throws(MPDFailure) -> [Int] {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 1 {
            let start = try integer(text)
            guard start < count else { throw MPDFailure(.argument, "Bad song index") }
            return [start]
        }
        let (start, end) = try range(text, count: count, clamped: true)
        return start >= count ? [] : Array(start..<min(end, count))
    }

    /// `START:END` (END optional: to the end) or one position `N` (`N:N+1`);
    /// `clamped`, an END past the queue is its end.
    package static func range(_ text: String, count: Int, clamped: Bool) throws(MPDFailure) -> (start: Int, end: Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let first = parts.first else { throw MPDFailure(.argument, "Integer or range expected: \(text)") }
        let start = try integer(String(first))
        let end = parts.count == 1 ? start + 1 : parts[1].isEmpty ? max(count, start) : try integer(String(parts[1]))
        guard start <= end else { throw MPDFailure(.argument, "Bad song index") }
        return (start, clamped ? min(end, max(count, start)) : end)
    }

    package static func percent(_ volume: Double) -> Int {
        guard volume.isFinite else { return 0 }
        return Int((max(0, min(1, volume)) * 100).rounded())
    }

    package static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min(seconds, 1e9).rounded())
    }
}
