import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The first hour of real use, in tmux as a new user meets it: a queue edited
/// from the keys and from `interlude remote`, books in ~/Audiobooks reached
/// from the browser and from a path given to the running player, the book
/// back after quitting and starting again, a book that stays a book in the
/// queue pane, a station named by its stream, and a rename typed over.
@Suite(.serialized) struct TUIFirstHourTests {
    /// Ends the player the way a user ends it now. The one place these tests
    /// quit, so that a change of what `q` does changes only this.
    static func quit(_ session: TUISession, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met, "\(session.screen())", sourceLocation: sourceLocation)
    }

    /// Five tagged tracks of 30 s (titles Ash, Birch, Cedar, Dogwood, Elm) in one folder, in that order.
    static func trees() throws -> [String] {
        let names = ["Ash", "Birch", "Cedar", "Dogwood", "Elm"]
        let tracks = names.enumerated().map { TaggedLibrary.Track(folder: "Trees", file: "\($0.offset + 1) \($0.element).mp3",
                                                                  title: $0.element, artist: "Grove") }
        let root = try TaggedLibrary.make(tracks, seconds: 30)
        return tracks.map { "\(root)/Trees/\($0.file)" }
    }

    /// The queue's titles as `interlude remote queue-list --json` gives them.
    static func queue(_ runtime: String) throws -> [String] {
        let result = try Remote.run(runtime, ["queue-list", "--json"]).check()
        let entries = (try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]) ?? []
        return entries.compactMap { ($0["path"] as? String).map { String($0.split(separator: "/").last ?? "").dropFirst(2).dropLast(4) } }
            .map(String.init)
    }

    /// The queue pane's titles, top to bottom, as the screen shows them.
    static func shownQueue(_ screen: String, _ names: [String]) -> [String] {
        TUISession.rows(screen).compactMap { row in
            guard let bar = row.range(of: "│") else { return nil }
            let right = row[bar.upperBound...]
            return names.first { right.contains(" \($0)") && right.range(of: "^[ *]+[0-9]+ ", options: .regularExpression) != nil }
        }
    }

    @Test("the queue pane's keys remove (backspace, delete, a marked range) and move (K, J) any entry; interlude remote queue-remove 1 and queue-move as their help says; w saves what the pane shows")
    func queueEditedFromTheKeysAndTheRemote() throws {
        let files = try Self.trees()
        let names = ["Ash", "Birch", "Cedar", "Dogwood", "Elm"]
        let session = try TUISession(columns: 120, rows: 40, arguments: files)
        let runtime = session.runtimeDirectory
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met, "\(session.screen())")

        func expectQueue(_ expected: [String], _ title: String, sourceLocation: SourceLocation = #_sourceLocation) {
            var last: [String] = []
            #expect(Remote.waitUntil { last = (try? Self.queue(runtime)) ?? []; return last == expected }, "\(last)",
                    sourceLocation: sourceLocation)
            let shown = session.waitFor { $0.contains(title) && Self.shownQueue($0, names) == expected }
            #expect(shown.met, "\(Self.shownQueue(shown.screen, names)):\n\(shown.screen)", sourceLocation: sourceLocation)
        }

        // Backspace removes the selection: Cedar, the third.
        try session.press("2", "Down", "Down", "BSpace")
        #expect(session.waitFor("removed 1 entry from the queue").met, "\(session.screen())")
        expectQueue(["Ash", "Birch", "Dogwood", "Elm"], "2 Queue (4)")
        // K moves Dogwood (selected now) up a place; the selection follows it.
        try session.press("K")
        expectQueue(["Ash", "Dogwood", "Birch", "Elm"], "2 Queue (4)")
        // y marks Dogwood, Down takes Birch too: J moves both down.
        try session.press("y", "Down")
        #expect(session.waitFor { $0.contains("*2 ") && $0.contains("*3 ") }.met, "the marked rows: \(session.screen())")
        try session.press("J")
        expectQueue(["Ash", "Elm", "Dogwood", "Birch"], "2 Queue (4)")
        // Delete in the queue pane removes them, the marked range, not a bookmark.
        try session.press("DC")
        #expect(session.waitFor("removed 2 entries from the queue").met, "\(session.screen())")
        expectQueue(["Ash", "Elm"], "2 Queue (2)")
        #expect(!session.screen().contains("bookmark-delete"))

        // interlude remote: queue-remove 1 and queue-move POSITION TO, as their help writes them.
        try Remote.run(runtime, ["queue-add", files[1], files[2], files[3]]).check()
        expectQueue(["Ash", "Elm", "Birch", "Cedar", "Dogwood"], "2 Queue (5)")
        let removed = try Remote.run(runtime, ["queue-remove", "1"])
        #expect(removed.succeeded, "\(removed.summary)")
        expectQueue(["Ash", "Birch", "Cedar", "Dogwood"], "2 Queue (4)")
        let moved = try Remote.run(runtime, ["queue-move", "1", "3"])
        #expect(moved.succeeded, "\(moved.summary)")
        expectQueue(["Ash", "Cedar", "Dogwood", "Birch"], "2 Queue (4)")
        let up = try Remote.run(runtime, ["queue", "move", "up", "3"])
        #expect(up.succeeded, "\(up.summary)")
        expectQueue(["Ash", "Cedar", "Birch", "Dogwood"], "2 Queue (4)")
        let past = try Remote.run(runtime, ["queue-remove", "9"])
        #expect(past.exitStatus == 1 && past.stderrText.contains("the queue has no entry 9"), "\(past.summary)")

        // A file queued twice: the pane shows five, and w saves five.
        try Remote.run(runtime, ["queue-add", files[0]]).check()
        #expect(session.waitFor("2 Queue (5)").met, "\(session.screen())")
        let playlist = ScratchFiles.makeDirectory("first-hour-playlist") + "/first hour.m3u8"
        try session.press("w")
        try session.type(playlist)
        try session.press("Enter")
        let saved = session.waitFor("saved 5 files")
        #expect(saved.met, "\(saved.screen)")
        let lines = ((try? String(contentsOfFile: playlist, encoding: .utf8)) ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.map(String.init) == [files[0], files[2], files[1], files[3], files[0]], "\(lines)")
        try Self.quit(session)
    }

    /// A home with ~/Music (one track) and ~/Audiobooks: a folder of three
    /// chapter files ("Harbour Tales") and a chaptered M4B ("The Keeper").
    struct Home {
        let path: String
        var audiobooks: String { path + "/Audiobooks" }
        var folderBook: String { audiobooks + "/Harbour Tales" }
        var m4b: String { audiobooks + "/The Keeper.m4b" }

        static func make() throws -> Home {
            let home = Home(path: ScratchFiles.makeDirectory("first-hour-home"))
            let music = try TaggedLibrary.make([TaggedLibrary.Track(folder: "Mira Voss", file: "1 Lanterns.mp3", title: "Lanterns",
                                                                    artist: "Mira Voss")], seconds: 30)
            try FileManager.default.moveItem(atPath: music, toPath: home.path + "/Music")
            try FileManager.default.createDirectory(atPath: home.audiobooks, withIntermediateDirectories: true)
            let folder = try BookUnderTest.folder("Harbour Tales", files: 3, seconds: 20)
            try FileManager.default.moveItem(atPath: folder.path, toPath: home.folderBook)
            let keeper = try BookUnderTest.chaptered("The Keeper", seconds: 30, chapters: [("Arrival", 0), ("The Lamp", 10_000),
                                                                                           ("Departure", 20_000)], form: .m4b)
            try FileManager.default.moveItem(atPath: keeper.path, toPath: home.m4b)
            return home
        }
    }

    /// `interlude ARGUMENTS` in another terminal of the same user (`script` gives it one), beside the session's player.
    static func beside(_ session: TUISession, home: Home, _ arguments: [String]) throws -> (status: Int32?, output: String) {
        var environment = OnePlayerTests.Beside(session: session).environment
        environment["HOME"] = home.path
        let command = ([InterludeBinary.path()] + arguments).map(TUISession.quoted).joined(separator: " ")
        let run = try ProcessRunner.run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: environment, timeout: 30)
        return (run.timedOut ? nil : run.exitStatus, run.stdoutText.replacingOccurrences(of: "\r", with: ""))
    }

    static func bookPath(_ runtime: String) -> String? {
        ((try? Remote.status(runtime))?["book"] as? [String: Any])?["path"] as? String
    }

    @Test("the browser goes from the music folder to ~/Audiobooks and opens the M4B there as a book; a book folder given to the running player opens there as a book")
    func booksReachedFromTheBrowserAndFromAPath() throws {
        let home = try Home.make()
        let session = try TUISession(columns: 120, rows: 40, arguments: [], environment: ["HOME": home.path])
        let runtime = session.runtimeDirectory
        // The music folder, with the way to the books folder at its top.
        let browsing = session.waitFor { $0.contains("Mira Voss/") && $0.contains("books: ~/Audiobooks/") }
        #expect(browsing.met, "\(browsing.screen)")
        try session.press("1", "Up", "Enter")
        let books = session.waitFor { $0.contains("music: ~/Music/") && $0.contains("Harbour Tales/") && $0.contains("The Keeper") }
        #expect(books.met, "\(books.screen)")
        // The way back is selected; the folder, then the M4B, below it.
        try session.press("Down", "Down", "Enter")
        let keeper = session.waitFor { $0.contains("chapter 1/3") && $0.contains("Arrival") }
        #expect(keeper.met, "\(keeper.screen)")
        #expect(Remote.waitUntil { Self.bookPath(runtime) == home.m4b }, "\((try? Remote.status(runtime)) ?? [:])")

        // The folder book, given as a path to the running player: opened there as a book, not queued as music.
        let run = try Self.beside(session, home: home, [home.folderBook])
        #expect(run.status == 0 && run.output.contains("opened the book \(home.folderBook)"), "\(run.output)")
        #expect(Remote.waitUntil { Self.bookPath(runtime) == home.folderBook }, "\((try? Remote.status(runtime)) ?? [:])")
        #expect(session.waitFor { $0.contains("chapter 1/3") && $0.contains("Harbour Tales") }.met, "\(session.screen())")
        // Given again while it plays (as when a service reopened it as it started): done already, not refused.
        let again = try Self.beside(session, home: home, [home.folderBook])
        #expect(again.status == 0 && again.output.contains("plays the book \(home.folderBook) already"), "\(again.output)")
        // --music says it is music: its files queued.
        let music = try Self.beside(session, home: home, ["--music", "--play", home.folderBook])
        #expect(music.status == 0 && music.output.contains("plays 3 files now"), "\(music.output)")
        #expect(Remote.waitUntil { Self.bookPath(runtime) == nil && (try? Remote.status(runtime))?["path"] as? String == home.folderBook + "/Part 1.mp3" },
                "\((try? Remote.status(runtime)) ?? [:])")
        try Self.quit(session)
    }

    @Test("a book that played when the player quit comes back, paused at its place, when interlude starts again with no path")
    func theBookComesBackAfterQuittingAndStartingAgain() throws {
        let home = try Home.make()
        // A folder in the books folder, given on the command line: a book.
        let session = try TUISession(columns: 120, rows: 40, arguments: [home.folderBook], environment: ["HOME": home.path])
        let runtime = session.runtimeDirectory
        #expect(session.waitFor("chapter 1/3").met, "\(session.screen())")
        try Remote.run(runtime, ["seek-to", "25"]).check()
        #expect(session.waitFor("chapter 2/3").met, "\(session.screen())")
        #expect(Remote.waitUntil { ((try? Remote.status(runtime))?["elapsed"] as? Double ?? 0) >= 26 })
        try Self.quit(session)

        // Again, with no path: the book, not the music folder's queue.
        let again = session.commandLine.replacingOccurrences(of: " " + TUISession.quoted(home.folderBook), with: "")
        #expect(again != session.commandLine)
        try session.tmux(["send-keys", "-l", "clear; " + again + "; echo EXITED $?"])
        try session.tmux(["send-keys", "Enter"])
        let back = session.waitFor { $0.contains("Harbour Tales: resumed at") && $0.contains("chapter 2/3") }
        #expect(back.met, "\(back.screen)")
        #expect(Remote.waitUntil { Self.bookPath(runtime) == home.folderBook }, "\((try? Remote.status(runtime)) ?? [:])")
        let status = try Remote.status(runtime)
        #expect(status["state"] as? String == "paused", "\(status)")
        let elapsed = status["elapsed"] as? Double ?? 0
        #expect(elapsed > 20 && elapsed < 28, "where it was, less a short smart rewind: \(status)")
        try Self.quit(session)
    }

    @Test("enter on the book's own entry in the queue pane keeps it the book: its chapters, its place, the books pane's row")
    func enterInTheQueuePaneKeepsTheBook() throws {
        let book = try BookUnderTest.folder("queue-pane-book", files: 3, seconds: 20)
        let session = try TUISession(columns: 120, rows: 40, arguments: ["--book", book.path], environment: book.environment)
        let runtime = session.runtimeDirectory
        #expect(session.waitFor("chapter 1/3").met, "\(session.screen())")
        try session.press("2", "Down", "Enter")
        #expect(session.waitFor("chapter 2/3").met, "\(session.screen())")
        let status = try Remote.status(runtime)
        #expect(Self.bookPath(runtime) == book.path, "\(status)")
        try session.press("Enter")
        #expect(Remote.waitUntil { Self.bookPath(runtime) == book.path && (try? Remote.status(runtime))?["state"] as? String == "playing" })
        try session.press("6")
        #expect(session.waitFor("6 Books (1)").met, "\(session.screen())")
        try Self.quit(session)
    }

    @Test("a station added by its URL is named by its stream's icy-name; Ctrl-U at the rename prompt empties it for a new name, and typing over the pre-filled name replaces it")
    func stationNamedByItsStreamAndRenamedByControlU() throws {
        let server = try IcecastServer.start()
        defer { server.stop() }
        try server.startSource(mount: "harbour.mp3", wav: Fixtures.wav(.tone(frequency: 440), seconds: 120), format: .mp3,
                               name: "Harbour FM")
        let url = server.url("harbour.mp3")
        let data = ScratchFiles.makeDirectory("first-hour-stations")
        let music = try Fixtures.mp3(.tone(frequency: 330), seconds: 60)
        let session = try TUISession(columns: 120, rows: 40, arguments: [music], environment: ["XDG_DATA_HOME": data])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met, "\(session.screen())")
        let file = StationFavouritesTests.stationsFile(data)

        try session.press("R", "F")
        #expect(session.waitFor("add the station at URL").met, "\(session.screen())")
        try session.type(url)
        try session.press("Enter")
        let named = session.waitFor { $0.contains("R Radio (1)") && $0.contains("1. Harbour FM  http://127") }
        #expect(named.met, "\(named.screen)")
        #expect(StationFavouritesTests.text(file) == "#EXTM3U\n#EXTINF:-1,Harbour FM\n\(url)\n")

        try session.press("C")
        #expect(session.waitFor("rename the station to: Harbour FM").met, "\(session.screen())")
        try session.press("C-u")
        #expect(session.waitFor { $0.contains("rename the station to: _") }.met, "\(session.screen())")
        try session.type("Night Harbour")
        try session.press("Enter")
        #expect(session.waitFor("1. Night Harbour  http://127").met, "\(session.screen())")
        #expect(StationFavouritesTests.text(file) == "#EXTM3U\n#EXTINF:-1,Night Harbour\n\(url)\n")

        // The pre-filled name is selected: what is typed replaces it.
        try session.press("C")
        #expect(session.waitFor("rename the station to: Night Harbour").met, "\(session.screen())")
        try session.type("Dock Radio")
        try session.press("Enter")
        #expect(session.waitFor("1. Dock Radio  http://127").met, "\(session.screen())")
        #expect(StationFavouritesTests.text(file) == "#EXTM3U\n#EXTINF:-1,Dock Radio\n\(url)\n")
        try Self.quit(session)
    }

    /// Adds `url` at the radio pane's prompt and waits for the pane to name it `name`.
    static func addStation(_ session: TUISession, _ url: String, named name: String, number: Int,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        try session.press("R", "F")
        #expect(session.waitFor("add the station at URL").met, "\(session.screen())", sourceLocation: sourceLocation)
        try session.type(url)
        try session.press("Enter")
        let named = session.waitFor(20) { $0.contains("\(number). \(name)  http://127") }
        #expect(named.met, "\(named.screen)", sourceLocation: sourceLocation)
    }

    @Test("a station added by its URL with no icy-name is named by its stream's tags: an HLS station's timed ID3 TRSN, an Ogg mount's ORGANIZATION")
    func hlsAndOggStationsNamedByTheirStreamsTags() throws {
        let live = try LiveHLS.startWithTimedID3(wav: Fixtures.wav(.tone(frequency: 440), seconds: 40),
                                                 titles: [(seconds: 0, artist: "Tide", title: "Low Water")], station: "Harbour HLS")
        defer { live.stop() }
        let server = try IcecastServer.start()
        defer { server.stop() }
        let ogg = try Fixtures.chainedOgg(.opus, songs: [(artist: "Gull", title: "Morning"), (artist: "Gull", title: "Noon")],
                                          seconds: 20, organization: "Ogg Harbour")
        try server.startOggSource(mount: "harbour.opus", ogg: ogg, name: nil)
        let data = ScratchFiles.makeDirectory("first-hour-tagged-stations")
        let music = try Fixtures.mp3(.tone(frequency: 330), seconds: 60)
        let session = try TUISession(columns: 140, rows: 40, arguments: [music], environment: ["XDG_DATA_HOME": data])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met, "\(session.screen())")
        let file = StationFavouritesTests.stationsFile(data)

        try Self.addStation(session, live.playlistURL, named: "Harbour HLS", number: 1)
        try Self.addStation(session, server.url("harbour.opus"), named: "Ogg Harbour", number: 2)
        #expect(StationFavouritesTests.text(file) == "#EXTM3U\n#EXTINF:-1,Harbour HLS\n\(live.playlistURL)\n"
                    + "#EXTINF:-1,Ogg Harbour\n\(server.url("harbour.opus"))\n")
        try Self.quit(session)
    }

    @Test("the first start's 'no library index yet; building it' is a notice in the log, not an error, and leaves the status line once the index is built")
    func theFirstIndexIsANoticeThatGoesOnceBuilt() throws {
        let (session, _) = try TUILibraryTests.start(files: 200)
        // Built: the command line (the screen's last row) no longer says so; the log still does.
        let gone = session.waitFor(30) { screen in
            !(TUISession.rows(screen).last ?? "").contains("no library index") && screen.contains("1 Browser") }
        #expect(gone.met, "\(gone.screen)")
        try session.press("5")
        let logged = session.waitFor { $0.contains("notice message=no library index at") }
        #expect(logged.met && !logged.screen.contains("error message=no library index"), "\(logged.screen)")
        try Self.quit(session)
    }
}
