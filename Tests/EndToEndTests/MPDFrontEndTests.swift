import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The MPD front end against Debian's `mpd` itself, `mpc` and raw clients.
@Suite(.serialized) struct MPDFrontEndTests {
    /// Fields whose values must differ, and why (printed when a reply differs in them).
    static let differing: [String: String] = [
        "elapsed": "the time heard depends on when the command arrived",
        "time": "elapsed:duration, whose elapsed depends on timing",
        "duration": "the player's length leaves out the encoder's delay and padding (it plays gaplessly); MPD's counts them",
        "Time": "the same, in whole seconds",
        "songid": "ids are each server's own", "nextsongid": "ids are each server's own", "Id": "ids are each server's own",
        "playlist": "the version counts each server's own changes",
        "bitrate": "MPD's is the last frame's; the player's is its decoder's figure for the file (the same for CBR)",
        "uptime": "each server's own", "playtime": "each server's own",
        "db_update": "when each server's database was last updated",
        "outputname": "each server's own output (MPD's null output, the player's sound server)",
        "plugin": "each server's own output plugin",
    ]

    /// Fields MPD sends that the player may not, and why.
    static let onlyMPDs: [String: String] = [
        "error": "with its one output disabled MPD's player stopped on 'Failed to open audio output'; the player paused",
    ]

    /// The same script, line by line, against MPD and the player: each reply's
    /// fields in order and its last line the same but for `differing`.
    @Test("the same 191 command lines give MPD 0.23's replies field for field, every field in its place, only the listed values differing")
    func sideBySideWithMPD() throws {
        let library = try MPDLibrary.make()
        let reference = try ReferenceMPD(music: library.folder)
        let mpd = try reference.connect()
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files)
        let interlude = try player.connect()
        #expect(mpd.greeting?.hasPrefix("OK MPD 0.23") == true && interlude.greeting == "OK MPD 0.23.5")
        for name in ["a", "b", "c"] { _ = mpd.command("add \(name).mp3") }
        _ = mpd.command("play 0")
        // The player started playing its first file; both are at song 0.
        for connection in [mpd, interlude] {
            #expect(Remote.waitUntil { connection.value("status", "state") == "play" })
        }
        // The player's own while playing: its decoder's bitrate (the files are 128 kbit/s CBR) and format.
        #expect(interlude.value("status", "bitrate") == "128")
        #expect(interlude.value("status", "audio") == "44100:16:2")
        func ids(_ connection: MPDConnection) -> [String] {
            MPDConnection.pairs(connection.command("playlistinfo")).filter { $0.key == "Id" }.map(\.value)
        }
        let mpdIDs = ids(mpd), interludeIDs = ids(interlude)
        #expect(mpdIDs.count == 3 && interludeIDs.count == 3)

        let script: [[String]] = [
            ["status"], ["currentsong"], ["playlistinfo"], ["playlistinfo 1"], ["playlistinfo 1:3"], ["playlistid {id1}"],
            ["pause 1"], ["status"], ["pause 0"], ["status"], ["pause"], ["status"], ["pause"],
            ["setvol 50"], ["getvol"], ["volume +10"], ["getvol"], ["status"], ["setvol 101"], ["setvol abc"],
            ["random 1"], ["status"], ["random 0"], ["random 2"],
            ["repeat 1"], ["status"], ["single 1"], ["status"], ["single 0"], ["repeat 0"], ["status"],
            ["consume 0"],
            ["next"], ["currentsong"], ["status"], ["previous"], ["currentsong"],
            ["play 2"], ["currentsong"], ["playid {id0}"], ["currentsong"], ["play 9"], ["playid 9999"], ["play -1"], ["seek 1"], ["add"],
            ["seek 0 5"], ["seekcur +2"], ["seekcur 1"], ["seekid {id0} 3"], ["status"], ["seek 7 1"],
            ["bogus"], ["play 1 2"], ["status extra"], ["ping"], ["ping 1"],
            ["command_list_begin", "status", "currentsong", "command_list_end"],
            ["command_list_ok_begin", "ping", "getvol", "ping", "command_list_end"],
            ["command_list_begin", "ping", "bogus", "ping", "command_list_end"],
            ["command_list_ok_begin", "ping", "play 1 2", "command_list_end"],
            ["command_list_end"],
            ["add b.mp3"], ["playlistinfo"], ["addid c.mp3"], ["add nothing-here.mp3"],
            ["idle bogus"], ["notcommands"],
            ["add \"a.mp3"], ["add \"a.mp3\"x"],
            ["lsinfo"], ["lsinfo more"], ["lsinfo more/"], ["lsinfo nowhere"],
            ["find artist \"Artist b\""], ["find artist \"artist b\""], ["search title song"], ["search any OTHER"],
            ["search artist \"Artist\" album Album"], ["search bogus x"], ["search artist"],
            ["listall"], ["listall more"], ["listall more/d.mp3"], ["listall nowhere"], ["plchangesposid 0"],
            ["listallinfo"], ["listallinfo more"], ["listallinfo more/d.mp3"], ["listallinfo nowhere"],
            ["list artist"], ["list album"], ["list genre"], ["list title album Album"], ["list album \"Artist a\""],
            ["list artist group album"], ["list album group artist"], ["list artist group album group genre"],
            ["list album artist \"Artist a\" group genre"], ["list bogus"], ["list"],
            ["count artist \"Artist a\""], ["count group artist"], ["count album Album group artist"], ["count artist"], ["count"],
            // The queue is a b c b c, a playing: what follows it is edited (the rest: `queueEditsActAsMPDs`).
            ["delete 4"], ["playlistinfo"], ["move 3 1"], ["playlistinfo"], ["moveid {id1} 3"], ["playlistinfo"],
            ["plchangesposid 0"], ["delete 9"], ["deleteid 9999"], ["move 9 0"], ["moveid 9999 1"], ["delete 1:1"],
            ["delete 1:2"], ["playlistinfo"], ["shuffle"], ["shuffle 1:2:3"], ["delete 1:3"], ["playlistinfo"],
            ["command_list_ok_begin", "add b.mp3", "add c.mp3", "shuffle 1:3", "delete 1:3", "command_list_end"], ["playlistinfo"],
            ["listplaylists"], ["save one"], ["save one"], ["listplaylists"], ["lsinfo"], ["lsinfo /"], ["listplaylist one"], ["listplaylistinfo one"],
            ["load one"], ["playlistinfo"], ["load none"], ["listplaylistinfo none"], ["rm none"], ["rm one"], ["listplaylists"],
            ["albumart a.mp3 0"], ["albumart more/d.mp3 0"], ["albumart nothing.mp3 0"], ["albumart a.mp3 99999"],
            ["albumart a.mp3"], ["albumart a.mp3 x"], ["readpicture a.mp3 0"], ["readpicture more/d.mp3 0"],
            ["readpicture nothing.mp3 0"], ["binarylimit 10"], ["binarylimit abc"], ["binarylimit 64"], ["albumart a.mp3 64"],
            ["readpicture more/d.mp3 128"], ["command_list_begin", "albumart a.mp3 0", "readpicture more/d.mp3 0", "command_list_end"],
            ["password x"],
            ["outputs"], ["disableoutput 0"], ["outputs"], ["disableoutput 1"], ["enableoutput 0"], ["outputs"],
            ["toggleoutput 0"], ["outputs"], ["toggleoutput 0"],
            ["stats"], ["stop"], ["status"],
        ]
        var compared = 0
        for lines in script {
            let send = { (connection: MPDConnection, ids: [String]) -> [String] in
                let filled = lines.map { line in
                    ids.enumerated().reduce(line) { $0.replacingOccurrences(of: "{id\($1.offset)}", with: $1.element) }
                }
                connection.send(filled)
                return connection.readReply() ?? ["(connection closed)"]
            }
            let expected = send(mpd, mpdIDs)
            let got = send(interlude, interludeIDs)
            compared += lines.count
            Self.compare(lines.joined(separator: " / "), expected: expected, got: got)
        }
        print("MPD side by side: \(compared) command lines compared")
        // stats' own values: the seconds played (two seconds playing count; paused, the count stays), the index's time.
        let before = Int(interlude.value("stats", "playtime") ?? "") ?? -1
        _ = interlude.command("play")
        #expect(Remote.waitUntil { interlude.value("status", "state") == "play" })
        Thread.sleep(forTimeInterval: 2)
        _ = interlude.command("pause 1")
        let played = Int(interlude.value("stats", "playtime") ?? "") ?? -1
        #expect(played >= before + 1, "playtime \(before), then after 2 s playing \(played)")
        Thread.sleep(forTimeInterval: 1.2)
        #expect(Int(interlude.value("stats", "playtime") ?? "") == played, "paused, playtime stays \(played)")
        let updated = Double(interlude.value("stats", "db_update") ?? "") ?? 0
        #expect(abs(updated - Date().timeIntervalSince1970) < 600, "db_update \(updated): when the library scan wrote the index")
        #expect(compared >= 191)

        // The longest line: 8192 bytes with the newline are answered, 8193 close the client, on both.
        for (name, path) in [("MPD", reference.socket), ("the player", player.socket)] {
            for (length, answered) in [(8192, true), (8193, false)] {
                let client = try MPDConnection(path)
                client.raw.send(Array(("ping " + String(repeating: "a", count: length - 6) + "\n").utf8))
                let reply = client.readReply()
                #expect((reply == ["ACK [2@0] {ping} wrong number of arguments for \"ping\""]) == answered && (reply == nil) == !answered,
                        "\(name), a line of \(length) bytes: \(reply ?? ["(closed)"])")
            }
        }
        // Subsets: the player offers fewer, each of them as MPD names it.
        for (command, key) in [("commands", "command"), ("tagtypes", "tagtype"), ("urlhandlers", "handler")] {
            let theirs = Set(MPDConnection.pairs(mpd.command(command)).filter { $0.key == key }.map(\.value))
            let ours = MPDConnection.pairs(interlude.command(command)).filter { $0.key == key }.map(\.value)
            #expect(!ours.isEmpty && Set(ours).isSubset(of: theirs), "\(command): \(Set(ours).subtracting(theirs)) not MPD's")
        }
        // What must differ: printed, not compared.
        print("MPD allowed difference: consume 1 is refused (\(interlude.command("consume 1").last ?? "")), MPD: \(mpd.command("consume 1").last ?? "")"
              + " - the player has no consume mode")
        print("MPD allowed difference: disableoutput pauses the player (nothing can be heard); MPD stops, failing to open its output")
        #expect(interlude.command("clear").last == "OK")
        _ = player.process.stop()
    }

    /// An empty folder is not compared: MPD 0.23 keeps one its update has just
    /// found (listed after the others) and drops it at its next update; the
    /// player's database is the library index's songs, so it has none.
    @Test("a folder is added, listed and saved whole, recursively, in MPD's order (album, disc, track, name; then its folders), with MPD's errors, by every command that takes a URI")
    func foldersAreTakenWhole() throws {
        let library = try MPDLibrary.make()
        try MPDLibrary.addOrderedFolder(to: library.folder)
        let reference = try ReferenceMPD(music: library.folder)
        let mpd = try reference.connect()
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files)
        let interlude = try player.connect()
        for name in ["a", "b", "c"] { _ = mpd.command("add \(name).mp3") }
        let script = [
            "add ordered", "playlistinfo", "add more", "add ordered/sub", "add \"\"", "add /", "playlistinfo",
            "add ordered/", "add ordered/nothing", "addid ordered", "addid more", "playlistinfo",
            "findadd album Ordered", "findadd album Nothing", "findadd title \"Song a\" album Album", "findadd", "findadd artist",
            "searchadd title SONG", "searchadd bogus x", "playlistinfo",
            "lsinfo ordered", "lsinfo ordered/sub", "listall ordered", "listallinfo ordered", "listall", "listallinfo",
            "playlistadd pl ordered", "playlistadd pl a.mp3", "playlistadd pl nothing", "playlistadd pl", "playlistadd pl b.mp3 1",
            "playlistadd pl c.mp3 99", "playlistadd pl c.mp3 x", "playlistadd none c.mp3 1", "listplaylist pl",
            "listplaylistinfo pl", "searchaddpl pl2 title y", "listplaylist pl2", "searchaddpl pl3 title nothing", "listplaylist pl3",
            "searchaddpl pl2", "playlistadd bad/name a.mp3", "rm pl", "rm pl2", "listplaylists",
            "listfiles nothing", "listfiles a.mp3",
        ]
        for line in script {
            let expected = mpd.command(line), got = interlude.command(line)
            Self.compare(line, expected: expected, got: got)
        }
        // A folder on the disk: the same names, which MPD lists in the order the folder holds them.
        for line in ["listfiles", "listfiles ordered", "listfiles ordered/sub"] {
            let entries = { (reply: [String]) in Set(reply.filter { $0.hasPrefix("file: ") || $0.hasPrefix("directory: ") || $0.hasPrefix("size: ") || $0.hasPrefix("ACK") }) }
            let expected = mpd.command(line), got = interlude.command(line)
            #expect(entries(expected) == entries(got) && expected.last == got.last, "\(line): MPD \(expected), the player \(got)")
        }
        _ = player.process.stop()
    }

    @Test("clear, delete, move, swap and shuffle act on played, playing and coming entries as MPD's do, the song that plays going on where it went")
    func queueEditsActAsMPDs() throws {
        let library = try MPDLibrary.make()
        let reference = try ReferenceMPD(music: library.folder)
        let mpd = try reference.connect()
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files)
        let interlude = try player.connect()
        for name in ["a", "b", "c"] { _ = mpd.command("add \(name).mp3") }
        for connection in [mpd, interlude] {
            _ = connection.command("add more/d.mp3")
            _ = connection.command("add a.mp3")
            _ = connection.command("play 1")
            #expect(Remote.waitUntil { connection.value("status", "state") == "play" && connection.value("status", "song") == "1" })
        }
        let ids = { (connection: MPDConnection) in
            MPDConnection.pairs(connection.command("playlistinfo")).filter { $0.key == "Id" }.map(\.value)
        }
        // The queue is a b c d a, b playing (a played): each edit, then where each stands.
        let script: [[String]] = [
            ["delete 0"], ["status"], ["playlistinfo"], ["move 0 3"], ["status"], ["playlistinfo"],
            ["swap 3 0"], ["status"], ["playlistinfo"], ["swap 1 2"], ["playlistinfo"], ["move 1:3 0"], ["status"], ["playlistinfo"],
            ["swap 9 0"], ["swap 0 x"], ["swap 0"], ["move 0 9"],
            ["moveid {playing} 0"], ["status"], ["swapid {playing} {last}"], ["status"], ["playlistinfo"],
            ["delete {playingPos}"], ["status"], ["playlistinfo"],
            ["pause 1"], ["delete {playingPos}"], ["status"], ["playlistinfo"], ["pause 0"], ["status"],
            ["deleteid {playing}"], ["status"], ["playlistinfo"], ["deleteid 9999"],
            ["clear"], ["status"], ["playlistinfo"], ["add a.mp3"], ["add b.mp3"], ["play"], ["status"], ["playlistinfo"],
            // Paused, a seek to a song not opened yet: its length is already the library's.
            ["add more/d.mp3"], ["pause 1"], ["seek 2 1"], ["status"], ["currentsong"], ["pause 0"], ["status"],
            ["delete 0:2"], ["status"], ["clear"],
        ]
        for lines in script {
            var replies: [[String]] = []
            let heard = Double(interlude.value("status", "elapsed") ?? "") ?? 0
            for connection in [mpd, interlude] {
                let status = MPDConnection.pairs(connection.command("status"))
                let queueIDs = ids(connection)
                let filled = lines.map { line in
                    line.replacingOccurrences(of: "{playing}", with: status.first { $0.key == "songid" }?.value ?? "-")
                        .replacingOccurrences(of: "{playingPos}", with: status.first { $0.key == "song" }?.value ?? "-")
                        .replacingOccurrences(of: "{last}", with: queueIDs.last ?? "-")
                }
                connection.send(filled)
                replies.append(connection.readReply() ?? ["(connection closed)"])
            }
            Self.compare(lines.joined(separator: " / "), expected: replies[0], got: replies[1])
            // The song that plays, moved or with others gone around it, goes on: it does not start again.
            if ["delete 0", "move 0 3", "swap 3 0", "move 1:3 0", "moveid {playing} 0"].contains(lines[0]) {
                let now = Double(interlude.value("status", "elapsed") ?? "") ?? 0
                #expect(now >= heard, "\(lines[0]): elapsed \(heard) s before, \(now) s after")
            }
        }
        // Shuffled: the same entries, the one that plays first in the range, on both.
        for connection in [mpd, interlude] {
            for name in ["c", "more/d", "a", "b", "c"] { _ = connection.command("add \(name).mp3") }
            _ = connection.command("play 2")
            #expect(Remote.waitUntil { connection.value("status", "song") == "2" })
            let before = MPDConnection.pairs(connection.command("playlistinfo")).filter { $0.key == "file" }.map(\.value)
            #expect(connection.command("shuffle 1:4") == ["OK"])
            let after = MPDConnection.pairs(connection.command("playlistinfo")).filter { $0.key == "file" }.map(\.value)
            #expect(before.count == 5 && after.sorted() == before.sorted() && after.first == before.first
                    && after.dropFirst().first == before.dropFirst(2).first && after.last == before.last, "\(before) shuffled 1:4 to \(after)")
            #expect(connection.value("status", "song") == "1" && connection.value("status", "state") == "play")
        }
        _ = player.process.stop()
    }

    /// Fields compared in part, and why: a sample format's rate and channels
    /// are compared, its bits are each decoder's (MPD's libmad gives 24; the
    /// player decodes every file to its pipeline's 16).
    static let comparedInPart: [String: @Sendable (String) -> String] = [
        "audio": Self.withoutBits, "Format": Self.withoutBits,
    ]

    static func withoutBits(_ format: String) -> String {
        let parts = format.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 3 ? "\(parts[0]):-:\(parts[2])" : format
    }

    static func compare(_ what: String, expected: [String], got: [String]) {
        // Shuffled, what plays next is each server's own draw.
        let shuffled = expected.contains("random: 1")
        if shuffled { print("MPD allowed difference in \(what): nextsong (each server's own shuffle)") }
        // Every field MPD sends is there, in its place; only the values of those in `differing` may differ.
        let kept = { (pairs: [(key: String, value: String)]) in
            pairs.filter { Self.onlyMPDs[$0.key] == nil }.map { pair in
                let free = Self.differing[pair.key] != nil || (shuffled && pair.key == "nextsong")
                return (key: pair.key, value: free ? "*" : Self.comparedInPart[pair.key].map { part in part(pair.value) } ?? pair.value)
            }
        }
        let mpdPairs = kept(MPDConnection.pairs(expected)), ourPairs = kept(MPDConnection.pairs(got))
        for key in Set(MPDConnection.pairs(expected).map(\.key) + MPDConnection.pairs(got).map(\.key)) {
            if let reason = Self.differing[key] ?? Self.onlyMPDs[key],
               MPDConnection.pairs(expected).filter({ $0.key == key }).map(\.value)
                   != MPDConnection.pairs(got).filter({ $0.key == key }).map(\.value) {
                print("MPD allowed difference in \(what): \(key) (\(reason))")
            }
        }
        #expect(mpdPairs.map { "\($0.key): \($0.value)" } == ourPairs.map { "\($0.key): \($0.value)" }, "\(what)")
        #expect(expected.last == got.last, "\(what): MPD ended with \(expected.last ?? "-"), the player with \(got.last ?? "-")")
    }

    @Test("idle tells the subsystem that changed, noidle ends a wait, and a change between idles is told at once")
    func idleAgreesWithMPD() throws {
        let library = try MPDLibrary.make()
        let reference = try ReferenceMPD(music: library.folder)
        let mpdCommands = try reference.connect()
        for name in ["a", "b", "c"] { _ = mpdCommands.command("add \(name).mp3") }
        _ = mpdCommands.command("play 0")
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files)
        let interludeCommands = try player.connect()
        #expect(Remote.waitUntil { interludeCommands.value("status", "state") == "play" })
        for (name, commands, path) in [("MPD", mpdCommands, reference.socket), ("the player", interludeCommands, player.socket)] {
            let waiter = try MPDConnection(path)
            waiter.send(["idle mixer"])
            _ = commands.command("setvol 30")
            #expect(waiter.readReply() == ["changed: mixer", "OK"], "\(name)")
            waiter.send(["idle player playlist"])
            _ = commands.command("pause 1")
            #expect(waiter.readReply() == ["changed: player", "OK"], "\(name)")
            // Changed while it was not waiting: the next idle says so at once.
            _ = commands.command("add a.mp3")
            #expect(waiter.command("idle playlist") == ["changed: playlist", "OK"], "\(name)")
            _ = commands.command("random 1")
            #expect(waiter.command("idle options") == ["changed: options", "OK"], "\(name)")
            _ = commands.command("random 0")
            waiter.send(["idle player"])
            #expect(waiter.command("noidle") == ["OK"], "\(name)")
            // noidle when not waiting is ignored: the next reply is ping's.
            waiter.send(["noidle"])
            #expect(waiter.command("ping") == ["OK"], "\(name)")
            // Anything but noidle during idle closes the client.
            waiter.send(["idle player"])
            #expect(waiter.command("status") == ["(connection closed)"], "\(name)")
            #expect(commands.command("ping") == ["OK"], "\(name)")
        }
        _ = player.process.stop()
    }

    @Test("mpc drives play, pause, next, seek, volume, add, clear, playlist, search, ls, status, idle and idleloop")
    func mpcDrivesThePlayer() throws {
        let library = try MPDLibrary.make()
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files)
        let connection = try player.connect()
        #expect(Remote.waitUntil { connection.value("status", "state") == "play" })
        func mpc(_ arguments: [String]) throws -> String {
            try ProcessRunner.run("/usr/bin/mpc", arguments, environment: ["MPD_HOST": player.socket], timeout: 15).check().stdoutText
        }
        #expect(try mpc(["status"]).contains("[playing] #1/3"))
        #expect(try mpc(["pause"]).contains("[paused]"))
        #expect(connection.value("status", "state") == "pause")
        #expect(try mpc(["play"]).contains("[playing]"))
        #expect(try mpc(["next"]).contains("Artist b - Song b"))
        #expect(connection.value("status", "song") == "1")
        _ = try mpc(["seek", "10"])
        #expect(Double(connection.value("status", "elapsed") ?? "") ?? 0 >= 9.9)
        #expect(try mpc(["volume", "40"]).contains("volume: 40%"))
        #expect(connection.value("getvol", "volume") == "40")
        _ = try mpc(["add", "a.mp3"])
        #expect(try mpc(["playlist"]) == "Artist a - Song a\nArtist b - Song b\nArtist c - Song c\nArtist a - Song a\n")
        #expect(try mpc(["play", "3"]).contains("#3/4"))
        #expect(try mpc(["random", "on"]).contains("random: on"))
        _ = try mpc(["random", "off"])
        #expect(try mpc(["repeat", "on"]).contains("repeat: on"))
        #expect(try mpc(["search", "artist", "other"]) == "more/d.mp3\n")
        #expect(try mpc(["ls", "more"]) == "more/d.mp3\n")

        // `mpc idle` returns with the one event; `mpc idleloop` prints each.
        // A client has connected once the player holds one more socket.
        var sockets = Remote.socketInodes(player.process.pid).count
        let idle = try BackgroundProcess.start("/usr/bin/mpc", ["idle", "player"], environment: ["MPD_HOST": player.socket])
        _ = Remote.waitUntil { Remote.socketInodes(player.process.pid).count > sockets }
        _ = try mpc(["pause"])
        let idled = idle.wait(timeout: 15)
        sockets = Remote.socketInodes(player.process.pid).count
        #expect(idled.stdoutText == "player\n", "\(idled.summary)")
        let loop = ScratchFiles.directory + "/idleloop-\(UUID().uuidString)"
        let idleloop = try BackgroundProcess.start("/usr/bin/mpc", ["idleloop", "mixer"], environment: ["MPD_HOST": player.socket],
                                                   stdout: .file(loop))
        _ = Remote.waitUntil { Remote.socketInodes(player.process.pid).count > sockets }
        _ = try mpc(["volume", "55"])
        #expect(Remote.waitUntil { (try? String(contentsOfFile: loop, encoding: .utf8)) == "mixer\n" })
        _ = idleloop.stop()

        _ = try mpc(["clear"])
        let left = try mpc(["playlist"])
        // As MPD's: the whole queue goes, what was heard and what plays too, and playback stops.
        #expect(left == "", "\(left)")
        #expect(connection.value("status", "state") == "stop")
        _ = player.process.stop()
    }

    @Test("the socket is 0600 in a 0700 directory; a half-closed client, an unknown command and an endless line leave another client's status answered")
    func badClientsLeaveOthersAnswered() throws {
        let library = try MPDLibrary.make()
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files)
        let steady = try player.connect()
        var directory = stat(), socket = stat()
        #expect(stat(player.runtime + "/interlude", &directory) == 0 && stat(player.socket, &socket) == 0)
        #expect(directory.st_mode & 0o777 == 0o700 && socket.st_mode & 0o777 == 0o600 && socket.st_mode & S_IFMT == S_IFSOCK)
        let halfClosed = try MPDConnection(player.socket)
        halfClosed.send(["status"])
        shutdown(halfClosed.raw.fd, Int32(SHUT_WR))
        #expect(halfClosed.readReply()?.last == "OK")
        #expect(halfClosed.raw.readLine() == nil, "closed after its last reply")
        let unknown = try MPDConnection(player.socket)
        #expect(unknown.command("x") == ["ACK [5@0] {} unknown command \"x\""])
        #expect(unknown.command("play 1 2") == ["ACK [2@0] {play} too many arguments for \"play\""])
        #expect(unknown.command("seek 1") == ["ACK [2@0] {seek} wrong number of arguments for \"seek\""])
        let endless = try MPDConnection(player.socket)
        endless.raw.send(Array(repeating: UInt8(ascii: "a"), count: 64 * 1024))
        #expect(endless.raw.readLine() == nil, "a line past the limit closes the client")
        let unbalanced = try MPDConnection(player.socket)
        unbalanced.send(["command_list_begin", "status"])
        let neverReads = try MPDConnection(player.socket)
        neverReads.send(["idle"])
        for volume in stride(from: 10, through: 90, by: 10) { _ = steady.command("setvol \(volume)") }
        #expect(steady.command("status").last == "OK")
        #expect(unknown.command("status").last == "OK")
        // The list answers only at its end.
        unbalanced.send(["command_list_end"])
        #expect(unbalanced.readReply()?.last == "OK")
        _ = player.process.stop()
    }

    @Test("100 clients at once are greeted and a 101st is closed; one that sends and never reads leaves others answered")
    func manyClientsAndOneThatNeverReads() throws {
        let library = try MPDLibrary.make()
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files)
        let steady = try player.connect()
        let pid = player.process.pid
        let alone = Remote.socketInodes(pid)
        var clients: [MPDConnection] = []
        for _ in 1..<MPDFrontEndTests.maximumClients { clients.append(try MPDConnection(player.socket)) }
        #expect(clients.allSatisfy { $0.greeting == "OK MPD 0.23.5" })
        // The player's ends of the 99: the sockets it holds now that it did not hold with the steady client alone.
        let theirs = Remote.socketInodes(pid).subtracting(alone)
        #expect(theirs.count >= clients.count, "\(theirs.count) new sockets in the player for \(clients.count) clients")
        let extra = try MPDConnection(player.socket)
        #expect(extra.greeting == nil, "the 101st client is closed at once, as MPD closes one past max_connections")
        #expect(clients.last?.command("ping") == ["OK"])
        clients.removeAll()
        // Read from the player's own descriptors: /proc/net/unix, read while other
        // processes made and closed sockets, once listed none of the player's
        // accepted ends (the steady client's among them, still answered below).
        #expect(Remote.waitUntil { Remote.socketInodes(pid).isDisjoint(with: theirs) },
                "the 99 that left are closed: \(Remote.socketInodes(pid).intersection(theirs).count) still held")
        // Ten thousand requests, never a reply read: the replies wait in its socket, not in the player.
        let flood = try MPDConnection(player.socket)
        flood.raw.send(Array(String(repeating: "playlistinfo\n", count: 10_000).utf8))
        #expect(steady.command("status").last == "OK")
        // Held, not dropped: once it reads, its replies come.
        #expect(flood.readReply()?.last == "OK")
        let other = try MPDConnection(player.socket)
        #expect(other.command("currentsong").last == "OK")
        _ = player.process.stop()
    }

    static let maximumClients = 100

    @Test("with mpd-password a client without it may run only what MPD with the same password lets it, with MPD's ACKs, and all once it sends it")
    func passwordGivesMPDsPermissions() throws {
        let library = try MPDLibrary.make()
        let reference = try ReferenceMPD(music: library.folder, password: "secret")
        let admin = try reference.connect()
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files, config: "mpd-password = secret\n")
        let mpd = try MPDConnection(reference.socket)
        let interlude = try player.connect()
        // Without the password: MPD's unguarded few answer, everything else is refused by name (code 4).
        let script = ["commands", "ping", "binarylimit 128", "status", "play", "pause 1", "add a.mp3", "setvol 10",
                      "currentsong", "playlistinfo", "lsinfo", "list artist", "albumart a.mp3 0", "readpicture more/d.mp3 0",
                      "disableoutput 0", "save x", "delete 1", "status extra", "bogus", "idle", "password wrong", "status"]
        for line in script {
            let expected = mpd.command(line), got = interlude.command(line)
            Self.compare(line, expected: expected, got: got)
        }
        #expect(interlude.command("status") == ["ACK [4@0] {status} you don't have permission for \"status\""])
        #expect(interlude.command("play") == ["ACK [4@0] {play} you don't have permission for \"play\""])
        // The player played on, untouched by the refused commands.
        #expect(Remote.waitUntil { (try? Remote.status(player.runtime)["state"] as? String) == "playing" })
        for connection in [mpd, interlude] {
            #expect(connection.command("password secret") == ["OK"])
            #expect(connection.command("status").last == "OK")
            #expect(connection.command("setvol 40") == ["OK"])
            #expect(connection.value("getvol", "volume") == "40")
        }
        _ = admin
        _ = player.process.stop()
    }

    @Test("during a call status says pause, idle player wakes, and play is refused with the player's reason")
    func interruptionsAreVisible() throws {
        let library = try MPDLibrary.make()
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files)
        let connection = try player.connect()
        #expect(Remote.waitUntil { connection.value("status", "state") == "play" })
        let waiter = try MPDConnection(player.socket)
        waiter.send(["idle player"])
        _ = try Remote.run(player.runtime, ["call", "start"]).check()
        #expect(waiter.readReply() == ["changed: player", "OK"])
        #expect(connection.value("status", "state") == "pause")
        let refused = connection.command("play")
        print("MPD play during a call: \(refused)")
        #expect(refused.count == 1 && refused[0].hasPrefix("ACK [52@0] {play} ") && refused[0].contains("call"))
        _ = try Remote.run(player.runtime, ["call", "end"]).check()
        _ = player.process.stop()
    }
}

extension MPDFrontEndTests {
    /// A port nobody listens on now.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test("python-mpd2 over TCP at the configured loopback port: status, playlistinfo, a command list, idle and a refusal")
    func pythonMPD2OverTCP() throws {
        let library = try MPDLibrary.make()
        let port = Self.freePort()
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files, config: "mpd = 127.0.0.1:\(port)\n")
        let connection = try player.connect()
        #expect(Remote.waitUntil { connection.value("status", "state") == "play" })
        let script = """
        import mpd, sys
        client = mpd.MPDClient(); client.connect("127.0.0.1", \(port))
        other = mpd.MPDClient(); other.connect("127.0.0.1", \(port))
        print(client.mpd_version)
        print(client.status()["state"])
        songs = client.playlistinfo()
        print(len(songs), songs[1]["file"], songs[1]["title"], songs[1]["artist"])
        client.command_list_ok_begin(); client.status(); client.currentsong(); client.ping()
        print(len(client.command_list_end()))
        other.setvol(20); print(client.idle("mixer"))
        print(other.status()["volume"])
        try:
            client.consume(1)
        except mpd.CommandError as error:
            print("refused:", error)
        client.close(); other.close()
        """
        let result = try ProcessRunner.run("/usr/bin/python3", ["-c", script], timeout: 20)
        #expect(result.stdoutText == """
        0.23.5
        play
        3 b.mp3 Song b Artist b
        3
        ['mixer']
        20
        refused: [2@0] {consume} consume is not a mode of this player

        """, "\(result.summary)")
        // Another host's address reaches nothing: the port is bound to the loopback address alone.
        let addresses = (try? ProcessRunner.run("/usr/bin/hostname", ["-I"]).stdoutText) ?? ""
        if let outside = addresses.split(separator: " ").first(where: { $0.contains(".") && !$0.hasPrefix("127.") }) {
            let probe = try ProcessRunner.run("/usr/bin/python3", ["-c", """
            import socket
            try:
                socket.create_connection(("\(outside)", \(port)), timeout=5); print("connected")
            except OSError as error:
                print("refused")
            """])
            #expect(probe.stdoutText == "refused\n", "\(outside):\(port) \(probe.summary)")
        }
        _ = player.process.stop()
    }

    @Test("requests sent at once behind pictures and the library's first read are answered in order, and a client that half-closed gets its reply")
    func requestsWaitingForTheDiskKeepTheirOrder() throws {
        let library = try MPDLibrary.make()
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files)
        let client = try player.connect()
        // The search is the first library command (the index is read on the worker's thread), the pictures are read there too.
        client.send(["readpicture more/d.mp3 0", "ping", "search title \"song\"", "albumart a.mp3 0",
                     "command_list_ok_begin", "albumart a.mp3 64", "getvol", "command_list_end", "status"])
        let replies = (0..<6).map { _ in client.readReply() ?? ["(connection closed)"] }
        #expect(replies[0].contains("type: image/png") && replies[0].contains { $0.hasPrefix("binary: ") } && replies[0].last == "OK",
                "\(replies[0])")
        #expect(replies[1] == ["OK"])
        #expect(MPDConnection.pairs(replies[2]).filter { $0.key == "file" }.map(\.value) == ["a.mp3", "b.mp3", "c.mp3", "more/d.mp3"],
                "\(replies[2])")
        #expect(replies[3].first?.hasPrefix("size: ") == true && replies[3].last == "OK", "\(replies[3])")
        // The list's picture, its list_OK, then getvol's line and its own: the list waited for the picture and went on.
        let list = replies[4]
        #expect(list.first?.hasPrefix("size: ") == true && list.count >= 4
                && Array(list.suffix(4)).map { $0.hasPrefix("volume: ") ? "volume" : $0 } == ["list_OK", "volume", "list_OK", "OK"],
                "\(list)")
        #expect(replies[5].contains { $0.hasPrefix("state: ") } && replies[5].last == "OK", "\(replies[5])")

        let leaving = try player.connect()
        leaving.send(["albumart more/d.mp3 0"])
        shutdown(leaving.raw.fd, Int32(SHUT_WR))
        #expect(leaving.readReply() == ["ACK [50@0] {albumart} No file exists"])
        _ = player.process.stop()
    }

    @Test("python-mpd2 reads albumart (the folder's cover) and readpicture (a file's embedded cover) byte for byte, chunk after chunk")
    func pythonMPD2ReadsPicturesByteForByte() throws {
        // Pictures of more than one 8192-byte chunk, so the client asks again at each offset.
        let library = try MPDLibrary.make(folderCover: 256, embeddedCover: 200)
        let folderCover = try CoverArtFixtures.picture(size: 256, format: "jpg")
        let embedded = try CoverArtFixtures.picture(size: 200, format: "png")
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files)
        _ = try player.connect()
        let script = """
        import hashlib, mpd, sys
        client = mpd.MPDClient(); client.connect(sys.argv[1])
        art = client.albumart("a.mp3")
        picture = client.readpicture("more/d.mp3")
        # python-mpd2 gathers the chunks and keeps only the bytes (and readpicture's type), as it does from MPD.
        print(len(art["binary"]), hashlib.sha256(art["binary"]).hexdigest())
        print(picture.get("type"), len(picture["binary"]), hashlib.sha256(picture["binary"]).hexdigest())
        print(client.readpicture("a.mp3"))
        client.close()
        """
        let result = try ProcessRunner.run("/usr/bin/python3", ["-c", script, player.socket], timeout: 30)
        func expected(_ path: String) throws -> (size: Int, sha256: String) {
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1
            let sum = try ProcessRunner.run("/usr/bin/sha256sum", [path]).check().stdoutText.prefix(64)
            return (size, String(sum))
        }
        let art = try expected(folderCover), picture = try expected(embedded)
        #expect(art.size > 8192 && picture.size > 8192, "each picture takes more than one chunk")
        #expect(result.stdoutText == """
        \(art.size) \(art.sha256)
        image/png \(picture.size) \(picture.sha256)
        {}

        """, "\(result.summary)")
        _ = player.process.stop()
    }
}
