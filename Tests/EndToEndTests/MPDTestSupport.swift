import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// An MPD protocol client over a Unix socket, line by line, for the MPD front end's tests.
final class MPDConnection {
    let raw: RawControlConnection
    let greeting: String?

    init(_ path: String) throws {
        raw = try RawControlConnection(path)
        greeting = raw.readLine()
    }

    /// Over TCP, at `port` on the loopback address.
    init(loopbackPort port: Int) throws {
        raw = try RawControlConnection(loopbackPort: port)
        greeting = raw.readLine()
    }

    /// The bytes of the last binary reply (`albumart`, `readpicture`) read.
    private(set) var binary: [UInt8] = []

    /// One reply: its lines up to and including `OK` or `ACK ...` (nil when
    /// the connection ended). A binary reply's bytes are read as bytes, kept in
    /// `binary` and stood for by a line `bytes: ` and their FNV-1a hash, so two
    /// servers' replies compare byte for byte.
    func readReply() -> [String]? {
        var lines: [String] = []
        while let line = raw.readLine() {
            lines.append(line)
            if line == "OK" || line.hasPrefix("ACK ") { return lines }
            if line.hasPrefix("binary: "), let count = Int(line.dropFirst("binary: ".count)) {
                guard let bytes = raw.readBytes(count + 1), bytes.last == 0x0A else { return lines }
                binary = Array(bytes.dropLast())
                let hash = binary.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
                lines.append("bytes: \(String(hash, radix: 16))")
            }
        }
        return lines.isEmpty ? nil : lines
    }

    func send(_ lines: [String]) { raw.send(Array(lines.map { $0 + "\n" }.joined().utf8)) }

    func command(_ line: String) -> [String] {
        send([line])
        return readReply() ?? ["(connection closed)"]
    }

    /// The `key: value` pairs of a reply.
    static func pairs(_ reply: [String]) -> [(key: String, value: String)] {
        reply.compactMap { line in
            guard let colon = line.range(of: ": ") else { return nil }
            return (String(line[..<colon.lowerBound]), String(line[colon.upperBound...]))
        }
    }

    func value(_ command: String, _ key: String) -> String? {
        Self.pairs(self.command(command)).first { $0.key == key }?.value
    }
}

/// Debian's `mpd` as the reference: a private daemon over `music`, its own
/// config, database and socket in a scratch directory, no state file, in the
/// foreground, stopped by its PID.
final class ReferenceMPD {
    let socket: String
    let process: BackgroundProcess
    let password: String?

    /// `tcpPort`: also listening at that port on the loopback address.
    init(music: String, password: String? = nil, tcpPort: Int? = nil) throws {
        self.password = password
        let directory = ScratchFiles.makeDirectory("reference-mpd")
        socket = directory + "/mpd.sock"
        try FileManager.default.createDirectory(atPath: directory + "/playlists", withIntermediateDirectories: true)
        let config = """
        music_directory "\(music)"
        playlist_directory "\(directory)/playlists"
        \(password.map { "password \"\($0)@read,add,control,admin\"" } ?? "")
        db_file "\(directory)/database"
        log_file "\(directory)/log"
        bind_to_address "\(socket)"
        \(tcpPort.map { "bind_to_address \"127.0.0.1\"\nport \"\($0)\"" } ?? "")
        zeroconf_enabled "no"
        # As the player's MPD front end keeps its database: a link out of the music folder is not in it.
        follow_outside_symlinks "no"
        audio_output {
            type "null"
            name "null"
            mixer_type "software"
        }
        """
        try config.write(toFile: directory + "/mpd.conf", atomically: true, encoding: .utf8)
        process = try BackgroundProcess.start("/usr/bin/mpd", ["--no-daemon", directory + "/mpd.conf"],
                                              environment: ["HOME": directory, "XDG_RUNTIME_DIR": directory])
    }

    deinit { _ = process.stop() }

    /// Connects once the daemon listens, and has it read the library.
    func connect() throws -> MPDConnection {
        var connection: MPDConnection?
        _ = Remote.waitUntil(20) {
            connection = try? MPDConnection(socket)
            return connection != nil
        }
        guard let connection else { throw ProcessError.notReady("mpd did not listen at \(socket)") }
        if let password { _ = connection.command("password \(password)") }
        _ = connection.command("update")
        _ = Remote.waitUntil(20) { !connection.command("status").contains { $0.hasPrefix("updating_db") } }
        return connection
    }
}

/// The player's MPD socket under a private runtime directory, over the files of `music` (its library folder).
struct InterludeMPDPlayer {
    let runtime: String
    let process: BackgroundProcess
    /// The playlists folder that save, load and listplaylists use.
    let playlists: String

    init(music: String, files: [String], config extra: String = "") throws {
        runtime = try Remote.makeRuntimeDirectory()
        let config = ScratchFiles.makeDirectory("mpd-config")
        try FileManager.default.createDirectory(atPath: config + "/interlude", withIntermediateDirectories: true)
        try "library = \(music)\n\(extra)".write(toFile: config + "/interlude/config", atomically: true, encoding: .utf8)
        var environment = try PulseServer.shared().makeSink().environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_CONFIG_HOME"] = config
        environment["XDG_STATE_HOME"] = config + "/state"
        environment["XDG_CACHE_HOME"] = config + "/cache"
        // The playlists folder that save, load and listplaylists use.
        environment["XDG_DATA_HOME"] = config + "/data"
        playlists = config + "/data/interlude/playlists"
        // The library index that lsinfo, find and search read.
        try ProcessRunner.run(InterludeBinary.path(), ["library", "scan"], environment: environment, timeout: 60).check()
        process = try BackgroundProcess.start(InterludeBinary.path(), ["play"] + files + ["--device", "pulse"],
                                              environment: environment)
    }

    var socket: String { runtime + "/interlude/mpd" }

    func connect() throws -> MPDConnection {
        var connection: MPDConnection?
        _ = Remote.waitUntil(20) {
            connection = try? MPDConnection(socket)
            return connection?.greeting != nil
        }
        guard let connection else { throw ProcessError.notReady("no MPD socket at \(socket)") }
        return connection
    }
}

/// A small library both servers read: three tagged MP3s, and a fourth in a folder.
enum MPDLibrary {
    /// `folderCover` and `embeddedCover`: the sides of the pictures, in pixels.
    static func make(folderCover: Int = 64, embeddedCover: Int = 48) throws -> (folder: String, files: [String]) {
        let folder = ScratchFiles.makeDirectory("mpd-music")
        var files: [String] = []
        for (index, name) in ["a", "b", "c"].enumerated() {
            let source = try Fixtures.mp3(.tone(frequency: 330 + 110 * Double(index)), seconds: 20 + Double(index))
            let path = "\(folder)/\(name).mp3"
            try FileManager.default.copyItem(atPath: source, toPath: path)
            try ProcessRunner.run("id3v2", ["--artist", "Artist \(name)", "--album", "Album", "--song", "Song \(name)",
                                            "--track", String(index + 1), "--year", "2001", "--genre", "Jazz", path]).check()
            files.append(path)
        }
        try FileManager.default.createDirectory(atPath: folder + "/more", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: files[0], toPath: folder + "/more/d.mp3")
        try ProcessRunner.run("id3v2", ["--artist", "Other", "--song", "Song d", "--album", "More", folder + "/more/d.mp3"]).check()
        // albumart's folder image beside a, b and c; readpicture's front cover embedded in d (none beside it).
        try FileManager.default.copyItem(atPath: try CoverArtFixtures.picture(size: folderCover, format: "jpg"), toPath: folder + "/cover.jpg")
        try ProcessRunner.run("/usr/bin/python3", ["-c", """
            import sys
            from mutagen.id3 import ID3, APIC
            tags = ID3(sys.argv[1])
            tags.add(APIC(encoding=3, mime='image/png', type=3, desc='front', data=open(sys.argv[2], 'rb').read()))
            tags.save(v2_version=3)
            """, folder + "/more/d.mp3", try CoverArtFixtures.picture(size: embeddedCover, format: "png")],
            environment: ["PYTHONPATH": InterludeBinary.packageRoot + "/build/python"]).check()
        return (folder, files)
    }
}

extension MPDLibrary {
    /// A folder `ordered` whose names sort against its track numbers (`z` is
    /// track 1, `y` track 2, `x` has none), with a folder `sub` in it: MPD
    /// adds and lists a folder's songs by album, disc and track before their names.
    static func addOrderedFolder(to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/ordered/sub", withIntermediateDirectories: true)
        for (name, track) in [("z", "1"), ("y", "2"), ("x", nil), ("sub/w", "5")] {
            let path = "\(folder)/ordered/\(name).mp3"
            try FileManager.default.copyItem(atPath: try Fixtures.mp3(.tone(frequency: 550), seconds: 3), toPath: path)
            var tags = ["--artist", "Orderly", "--album", "Ordered", "--song", "Song \(name.split(separator: "/").last ?? "")"]
            if let track { tags += ["--track", track] }
            try ProcessRunner.run("id3v2", tags + [path]).check()
        }
    }
}
