import LoopIO
import BookFormat
import InterludeCore
import PlayerModel
import MusicLibrary
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
        "swap": 2...2, "swapid": 2...2,
        "list": 1...64, "count": 1...64, "listplaylists": 0...0, "listplaylist": 1...2, "listplaylistinfo": 1...2,
        "load": 1...2, "save": 1...1, "rm": 1...1, "enableoutput": 1...1, "disableoutput": 1...1, "toggleoutput": 1...1,
        "binarylimit": 1...1, "password": 1...1, "albumart": 2...2, "readpicture": 2...2,
        "findadd": 1...64, "searchadd": 1...64, "searchaddpl": 2...64, "playlistadd": 2...3, "listfiles": 0...1,
    ]

    /// `commands`' list: these and the connection's own.
    package static var names: [String] { (Array(arity.keys) + ["close", "idle"]).sorted() }

    /// A command's outcome: its reply, or a reply the worker's thread reads from the disk (given `readpicture`'s recent tags).
    package enum Outcome {
        case reply(MPDResponse)
        case disk(@Sendable (RecentTags) -> Result<MPDResponse, MPDFailure>)
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
                // A whole path is a local file, the user's own client's alone (MPD's `Client::AllowFile`).
                if case .file? = try? MPDLocatedURI.locate(arguments[0]), !connection.peerIsOwner {
                    throw MPDFailure(.permission, "Access denied")
                }
                let request = MPDPictures.Request(command: name, uri: arguments[0], offset: offset, limit: connection.session.binaryLimit)
                let pictures = MPDPictures(musicFolders: server.musicFolders)
                return .disk { tags in pictures.answer(request, tags: tags) }
            }
            if name == "listfiles" {
                let listing = MPDFileListing(musicFolders: server.musicFolders, uri: arguments.first ?? "", local: connection.peerIsOwner)
                return .disk { _ in listing.answer() }
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
        // Made for the commands that read it only: one held through an `add` shares the
        // queue's storage, so the add copies the whole queue (10,000 adds: 10,000 copies).
        lazy var snapshot = core.snapshot(.playback)
        switch name {
        case "ping": break
        case "status": return status(snapshot)
        case "currentsong":
            if let index = snapshot.currentIndex, index < server.queueIDs.paths.count { song(at: index, snapshot, into: &response) }
        case "stats":
            response.add("uptime", Int(max(0, monotonicSeconds() - server.startedAt)))
            response.add("playtime", Self.wholeSeconds(server.playTime.seconds(at: monotonicSeconds())))
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
            let pausing = try arguments.first.map { text throws(MPDFailure) in try Self.boolean(text) }
            // Stopped, MPD's pause neither pauses nor plays.
            guard snapshot.state != .stopped else { break }
            if let pausing {
                try table(pausing ? "pause" : "play")
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
            let songs = try songs(adding: arguments[0], byID: name == "addid")
            // An empty folder adds nothing, as MPD's does (the queue-add row wants one path or more).
            if !songs.isEmpty { try table(name, songs.map { .string($0) }) }
            if name == "addid" {
                server.queueIDs.update(core.snapshot(.playback).queuePaths)
                if let id = server.queueIDs.ids.last { response.add("Id", id) }
                return response
            }
        case "clear": try keep([])
        case "commands", "notcommands":
            // Each list as this client's permissions make it (`notcommands`: what it may not run).
            for command in Self.names
            where connection.session.permissions.isSuperset(of: MPDPermission.needed(by: command)) == (name == "commands") {
                response.add("command", command)
            }
            return response
        case "lsinfo":
            // `lsinfo /` is the top too, and the top lists the stored playlists after the folders, as MPD's does.
            let uri = arguments.first.map { $0 == "/" ? "" : $0 } ?? ""
            var response = try server.database.lsinfo(uri)
            if uri.isEmpty { try MPDStoredPlaylists(commands: self).list(into: &response) }
            return response
        case "find", "search": return try server.database.find(arguments, exact: name == "find")
        case "findadd", "searchadd":
            let found = try server.database.matching(arguments, exact: name == "findadd")
            if !found.isEmpty { try table("add", found.map { .string($0.path) }) }
        case "playlistadd", "searchaddpl":
            return try MPDStoredPlaylists(commands: self).run(name, arguments)
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
        // The queue as MPD keeps it: any entry, the one that plays and those played too (`QueueEdit.keep`).
        case "delete", "deleteid":
            let (start, end) = try queueRange(arguments[0], byID: name == "deleteid")
            let count = server.queueIDs.paths.count
            if end > start { try keep(Array(0..<start) + Array(end..<count)) }
        case "move", "moveid":
            let (start, end) = try queueRange(arguments[0], byID: name == "moveid")
            let to = try Self.integer(arguments[1])
            let count = server.queueIDs.paths.count
            guard to + (end - start) <= count else { throw MPDFailure(.argument, "Number too large: \(arguments[1])") }
            if end > start && to != start {
                var order = Array(0..<start) + Array(end..<count)
                order.insert(contentsOf: start..<end, at: to)
                try keep(order)
            }
        case "swap", "swapid":
            let (first, _) = try queueRange(arguments[0], byID: name == "swapid", single: true)
            let (second, _) = try queueRange(arguments[1], byID: name == "swapid", single: true)
            var order = Array(server.queueIDs.paths.indices)
            order.swapAt(first, second)
            if first != second { try keep(order) }
        case "shuffle":
            let count = server.queueIDs.paths.count
            var (start, end) = try arguments.first.map { text throws(MPDFailure) in try Self.range(text, count: count, clamped: true) }
                ?? (0, count)
            end = min(end, count)
            guard start + 1 < end else { break }
            var order = Array(0..<count)
            // MPD's: the song that plays (or is paused) goes first in the range, and the rest is shuffled after it.
            if let here = snapshot.currentIndex, snapshot.state != .stopped, (start..<end).contains(here) {
                order.swapAt(start, here)
                start += 1
            }
            order[start..<end].shuffle()
            try keep(order)
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

    /// The queue positions `START:END`, one position (`single`: only that), or (`byID`) one song id names; MPD's complaint when it names none.
    private func queueRange(_ text: String, byID: Bool, single: Bool = false) throws(MPDFailure) -> (start: Int, end: Int) {
        let count = server.queueIDs.paths.count
        if byID {
            guard let index = server.queueIDs.position(ofID: try Self.integer(text)) else { throw MPDFailure(.noExist, "No such song") }
            return (index, index + 1)
        }
        if single {
            let index = try Self.integer(text)
            guard index < count else { throw MPDFailure(.argument, "Bad song index") }
            return (index, index + 1)
        }
        let range = try Self.range(text, count: count, clamped: false)
        guard range.end <= count else { throw MPDFailure(.argument, "Bad song index") }
        return range
    }

    /// The queue becomes the entries at `positions`, in that order (MPD's edits of its queue).
    private func keep(_ positions: [Int]) throws(MPDFailure) { try perform(.editQueue(.keep(positions: positions))) }

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
            // Until the player opens a file (a jump to one not decoded yet), its length is the library's, as MPD's is.
            let known = snapshot.duration ?? index.flatMap { libraryTrack(ids.paths[$0])?.durationSeconds }
                .flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            let duration = known ?? 0
            response.add("time", Self.wholeSeconds(snapshot.elapsed), Self.wholeSeconds(duration))
            response.add("elapsed", milliseconds: snapshot.elapsed)
            // MPD's order: bitrate (0 when unknown), duration, then the decoder's
            // format; its bits are the pipeline's, 16, what every decoder is converted to.
            let decoding = snapshot.decoding
            response.add("bitrate", decoding?.bitrateKbps ?? 0)
            if known != nil { response.add("duration", milliseconds: duration) }
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

    /// A queue entry as MPD gives it: a song of the library with every field
    /// the index holds for it (as `lsinfo` gives it), else (a file from
    /// elsewhere, a stream) its tags as the player read them, its time and, for
    /// the entry that plays, its length; then its place and id. Written once
    /// per entry and kept with it.
    private func song(at index: Int, _ snapshot: PlayerSnapshot, into response: inout MPDResponse) {
        let kept = server.queueIDs.songLines[index]
        if !kept.isEmpty {
            response.append(lines: kept)
        } else {
            let path = server.queueIDs.paths[index]
            var lines = MPDResponse()
            if let track = libraryTrack(path) {
                MPDDatabase.song(track, into: &lines)
            } else {
                lines.add("file", relative(path))
                if path.hasPrefix("/"), let modified = MPDStoredPlaylists.modified(path) { lines.add("Last-Modified", modified) }
                let tags = core.snapshot(.tags(of: [path])).tags[path] ?? AudioTags()
                // MPD's order (its ID3 scan's).
                if let artist = tags.artist { lines.add("Artist", artist) }
                if let albumArtist = tags.albumArtist { lines.add("AlbumArtist", albumArtist) }
                if let title = tags.title { lines.add("Title", title) }
                if let album = tags.album { lines.add("Album", album) }
                if let number = tags.track?.number { lines.add("Track", number) }
                if let date = tags.date { lines.add("Date", date) }
                if let genre = tags.genre { lines.add("Genre", genre) }
                if let disc = tags.disc?.number { lines.add("Disc", disc) }
            }
            response.append(lines)
            // A file's fields are read once (the index, `TrackTagStore`), so its lines stay true; a station's title changes.
            if path.hasPrefix("/") { server.queueIDs.keep(songLines: lines.bytes, at: index) }
        }
        // The length of an entry the library does not know, once it plays.
        if index == snapshot.currentIndex, let duration = snapshot.duration, libraryTrack(server.queueIDs.paths[index]) == nil {
            response.add("Time", Self.wholeSeconds(duration))
            response.add("duration", milliseconds: duration)
        }
        response.add("Pos", index)
        response.add("Id", server.queueIDs.ids[index])
    }

    /// The library's track for a queue entry's file (nil when the library does not hold it, or cannot be read).
    private func libraryTrack(_ path: String) -> LibraryTrack? {
        guard path.hasPrefix("/"), let name = MPDLocatedURI.relative(path, in: server.musicFolders),
              let track = try? server.database.song(name), track.path == path else { return nil }
        return track
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

    /// What `add URI` (`byID`: `addid URI`) queues, refused where MPD 0.23
    /// refuses it. A name below the music folder is the database's song (the
    /// library index's, read on the worker's thread), never a file looked up
    /// on the disk, so `..` and a link out of the folder name nothing
    /// (`[50] No such directory`, `No such song`). A whole path or `file://`
    /// URI is this user's local file: only a client of the Unix socket, whose
    /// user the socket checked, may name one (`[4] Access denied` to a TCP
    /// client before anything is looked at); in the music folder it is the
    /// database's song, elsewhere a regular file with an audio file's name.
    /// `addid` of a path in the music folder is its song for any client, as in
    /// MPD. Streams of the schemes the player opens are queued as given.
    package func songs(adding uri: String, byID: Bool) throws(MPDFailure) -> [String] {
        // MPD reads `add /` as the whole database, for the clients that send it.
        switch try MPDLocatedURI.locate(!byID && uri == "/" ? "" : uri) {
        case .url(let url): return [url]
        case .relative(let name):
            if byID {
                guard let song = try server.database.song(name) else { throw MPDFailure(.noExist, "No such song") }
                return [song.path]
            }
            // A folder is its songs and those of the folders in it, in MPD's order.
            guard let songs = try server.database.songs(below: name) else { throw MPDFailure(.noExist, "No such directory") }
            return songs.map(\.path)
        case .file(let path):
            let name = MPDLocatedURI.relative(path, in: server.musicFolders)
            guard byID && name != nil || connection.peerIsOwner else { throw MPDFailure(.permission, "Access denied") }
            if let name {
                guard let song = try server.database.song(name) else { throw MPDFailure(.noExist, "No such song") }
                return [song.path]
            }
            return [try Self.localSong(path)]
        }
    }

    /// A stored playlist's entry as `load` queues it: the user's own client
    /// gets every entry, as the playlists pane would; any other gets only
    /// the music folder's songs and streams, and the rest is skipped (MPD
    /// skips what it may not add). Nil when skipped.
    package func loadable(_ entry: String) throws(MPDFailure) -> String? {
        if connection.peerIsOwner { return entry }
        switch try? MPDLocatedURI.locate(entry) {
        case .url(let url)?: return url
        case .file(let path)?:
            guard let name = MPDLocatedURI.relative(path, in: server.musicFolders) else { return nil }
            return try server.database.song(name)?.path
        case .relative?, nil: return nil
        }
    }

    /// A local file outside the music folder, for the user's own client:
    /// MPD's checks of it (it is there, a regular file, of a format by its
    /// name) without opening it.
    private static func localSong(_ path: String) throws(MPDFailure) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let problem = Errno.current
            throw MPDFailure(.system, "Failed to access \(path): \(problem.message)")
        }
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        guard info.st_mode & S_IFMT == S_IFREG, AudioFileNames.isAudio(name) else { throw MPDFailure(.noExist, "No such song") }
        return path
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
        guard parts.count <= 2, let first = parts.first, Int(first) != nil else { throw MPDFailure(.argument, "Integer or range expected: \(text)") }
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
