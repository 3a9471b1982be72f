import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What an MPD client may queue by naming a path: over TCP only the music
/// folder's songs and streams, a local file only from the user's own Unix
/// socket client, and nothing through `..` or a link out of the music folder.
@Suite(.serialized) struct MPDPathTests {
    /// The shared library, a folder beside it holding a song and a cover, and
    /// in the music folder links to them (`link.mp3`, `linkdir`) and one within it (`inlink.mp3`).
    static func libraryWithAnOutside() throws -> (music: String, outside: String, files: [String]) {
        let library = try MPDLibrary.make()
        let outside = ScratchFiles.makeDirectory("mpd-outside")
        try FileManager.default.copyItem(atPath: library.files[0], toPath: outside + "/x.mp3")
        try FileManager.default.copyItem(atPath: library.folder + "/cover.jpg", toPath: outside + "/cover.jpg")
        #expect(mkfifo(outside + "/fifo.mp3", 0o600) == 0)
        for (link, target) in [("link.mp3", outside + "/x.mp3"), ("linkdir", outside), ("inlink.mp3", "a.mp3")] {
            try FileManager.default.createSymbolicLink(atPath: library.folder + "/" + link, withDestinationPath: target)
        }
        return (library.folder, outside, library.files)
    }

    @Test("add and addid of whole paths, file:// URIs, .. and links out of the music folder answer as MPD 0.23 does, over TCP and over the socket")
    func pathsAnswerAsMPDsDo() throws {
        let (music, outside, files) = try Self.libraryWithAnOutside()
        let theirPort = MPDFrontEndTests.freePort()
        let reference = try ReferenceMPD(music: music, tcpPort: theirPort)
        let mpd = try reference.connect()
        let ourPort = MPDFrontEndTests.freePort()
        let player = try InterludeMPDPlayer(music: music, files: files, config: "mpd = 127.0.0.1:\(ourPort)\n")
        _ = try player.connect()
        for name in ["a", "b", "c"] { _ = mpd.command("add \(name).mp3") }
        let outsideName = (outside as NSString).lastPathComponent
        let up = String(repeating: "../", count: music.split(separator: "/").count)
        let script = [
            "add \(outside)/x.mp3", "add \(music)/a.mp3", "add file://\(outside)/x.mp3", "add file://\(music)/b.mp3",
            "add FILE://\(outside)/x.mp3", "add file://\(outside.dropFirst())/x.mp3", "add ../\(outsideName)/x.mp3",
            "add ../../../../etc/hostname", "add \(up)etc/hostname", "add more/../a.mp3", "add ./a.mp3", "add more//d.mp3",
            "add link.mp3", "add linkdir/x.mp3", "add linkdir", "add linkdir/../a.mp3", "add inlink.mp3",
            "add \(music)/link.mp3", "add \(music)/linkdir/x.mp3", "add \(music)/../\(outsideName)/x.mp3", "add \(music)//c.mp3",
            "add \(outside)/fifo.mp3", "add \(outside)/nothing.mp3", "add /etc/hostname", "add \(outside)",
            "add nothing.mp3", "add a.mp3/x", "add http:/x", "add bogus://x", "add 1http://x", "add http://127.0.0.1:9/x.mp3",
            "addid \(outside)/x.mp3", "addid \(music)/a.mp3", "addid file://\(music)/more/d.mp3", "addid \(music)/../\(outsideName)/x.mp3",
            "addid ../\(outsideName)/x.mp3", "addid link.mp3", "addid /etc/hostname", "addid \(outside)/nothing.mp3", "addid file://x",
            "lsinfo linkdir", "listall linkdir", "readpicture link.mp3 0", "readpicture linkdir/x.mp3 0",
        ]
        // Pictures of a whole path: the user's own client may have MPD read a file outside the music folder, a TCP client not.
        let overTCP = ["albumart \(outside)/x.mp3 0", "readpicture \(outside)/x.mp3 0", "readpicture file://\(music)/a.mp3 0"]
        var compared = 0
        for (transport, theirs, ours) in [("TCP", try MPDConnection(loopbackPort: theirPort), try MPDConnection(loopbackPort: ourPort)),
                                          ("the socket", try MPDConnection(reference.socket), try MPDConnection(player.socket))] {
            #expect(theirs.greeting?.hasPrefix("OK MPD 0.23") == true && ours.greeting == "OK MPD 0.23.5")
            for line in script + (transport == "TCP" ? overTCP : []) {
                let expected = theirs.command(line), got = ours.command(line)
                MPDFrontEndTests.compare("\(transport): \(line)", expected: expected, got: got)
                // Ids are each server's own: an `addid` is an id on both or on neither.
                compared += 1
            }
            // The music folder as each lists it: the link within it, not those out of it. MPD lists a
            // folder's songs in the order its update met them (the directory's own order), so as sets.
            let names = { (connection: MPDConnection) in
                Set(MPDConnection.pairs(connection.command("listall")).map { "\($0.key): \($0.value)" })
            }
            let theirNames = names(theirs), ourNames = names(ours)
            #expect(theirNames == ourNames && theirNames.contains("file: inlink.mp3") && !theirNames.contains("file: link.mp3"),
                    "\(transport): listall")
            // The queue each ends with: the same files, in order.
            let queue = { (connection: MPDConnection) in
                MPDConnection.pairs(connection.command("playlistinfo")).filter { $0.key == "file" }.map(\.value)
            }
            let theirQueue = queue(theirs), ourQueue = queue(ours)
            #expect(theirQueue == ourQueue, "\(transport): the queues")
            print("MPD paths over \(transport): the queue is \(ourQueue.count) entries: \(ourQueue.suffix(12))")
        }
        #expect(compared >= 2 * script.count + overTCP.count)
        _ = player.process.stop()
    }

    @Test("a TCP client naming files outside the music folder (whole paths, file://, .., links) is refused before any of them is opened")
    func nothingOutsideTheMusicFolderIsOpened() throws {
        let (music, outside, files) = try Self.libraryWithAnOutside()
        let port = MPDFrontEndTests.freePort()
        // The library scan reads the linked song once, as the library pane shows it; the watch starts after it.
        let player = try InterludeMPDPlayer(music: music, files: files, config: "mpd = 127.0.0.1:\(port)\n")
        _ = try player.connect()
        let client = try MPDConnection(loopbackPort: port)
        #expect(Remote.waitUntil { client.value("status", "state") == "play" })
        let before = client.command("playlistinfo")
        let watch = try OpenWatch(outside)
        let outsideName = (outside as NSString).lastPathComponent
        let up = String(repeating: "../", count: music.split(separator: "/").count)
        let attempts = [
            "add \(outside)/x.mp3", "addid \(outside)/x.mp3", "add file://\(outside)/x.mp3", "addid file://\(outside)/x.mp3",
            "add ../\(outsideName)/x.mp3", "addid ../\(outsideName)/x.mp3", "add \(up)\(outside.dropFirst())/x.mp3",
            "add \(music)/../\(outsideName)/x.mp3", "addid \(music)/../\(outsideName)/x.mp3", "add \(outside)/fifo.mp3",
            "add link.mp3", "addid link.mp3", "add linkdir/x.mp3", "add linkdir", "add linkdir/../\(outsideName)/x.mp3",
            "albumart linkdir/x.mp3 0", "albumart ../\(outsideName)/x.mp3 0", "albumart \(outside)/x.mp3 0",
            "readpicture link.mp3 0", "readpicture linkdir/x.mp3 0", "readpicture \(outside)/x.mp3 0",
            "lsinfo linkdir", "listallinfo linkdir", "find file link.mp3",
            "command_list_begin\nadd \(outside)/x.mp3\ncommand_list_end",
        ]
        for line in attempts {
            let reply = client.command(line)
            #expect(reply.last?.hasPrefix("ACK [") == true || reply == ["OK"], "\(line): \(reply)")
            #expect(!reply.contains { $0.hasPrefix("binary:") || $0.hasPrefix("file:") || $0.hasPrefix("Id:") }, "\(line): \(reply)")
        }
        // What a client would do next with an entry it had queued: read its tags.
        #expect(client.command("playlistinfo") == before)
        // A stored playlist the user made holds a file outside: a TCP client's `load` skips it, as MPD's does.
        try FileManager.default.createDirectory(atPath: player.playlists, withIntermediateDirectories: true)
        try "\(outside)/x.mp3\n\(music)/b.mp3\n\(music)/link.mp3\nhttp://127.0.0.1:9/y.mp3\n"
            .write(toFile: player.playlists + "/mixed.m3u", atomically: true, encoding: .utf8)
        #expect(client.command("load mixed") == ["OK"])
        let queued = { (reply: [String]) in MPDConnection.pairs(reply).filter { $0.key == "file" }.map(\.value) }
        #expect(queued(client.command("playlistinfo")) == queued(before) + ["b.mp3", "http://127.0.0.1:9/y.mp3"])
        _ = client.command("status")
        // The picture and library reads run on the worker's thread: one more round there before looking.
        _ = client.command("albumart a.mp3 0")
        Thread.sleep(forTimeInterval: 0.5)
        let opened = watch.events()
        #expect(opened.isEmpty, "opened outside the music folder: \(opened)")
        _ = player.process.stop()
    }
}

/// Every open of a file in one folder (and of the folder itself), by any
/// process, from now on: inotify's `IN_OPEN`, which no `stat` or
/// `realpath` raises.
final class OpenWatch {
    private let fd: Int32

    init(_ folder: String) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0, inotify_add_watch(fd, folder, UInt32(IN_OPEN | IN_ACCESS)) >= 0 else {
            throw ProcessError.notReady("inotify on \(folder): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    /// The names opened or read since the last call ("." for the folder itself).
    func events() -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return names }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self), Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                let name = nameBytes.isEmpty ? "." : String(decoding: nameBytes, as: UTF8.self)
                names.append("\(name) (\(mask & UInt32(IN_OPEN) != 0 ? "open" : "read"))")
                offset += header + length
            }
        }
    }
}
