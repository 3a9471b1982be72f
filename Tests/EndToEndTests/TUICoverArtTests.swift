import Foundation
import Testing
import TestSupport
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// The cover in the real binary's now-playing pane: drawn in
/// block symbols in tmux and read back with `capture-pane -e`, each cell's
/// colour (its symbol's share of the foreground, the rest background)
/// against the picture scaled by ffmpeg to the same cells; and chosen by
/// what the terminal answers, not by `TERM`.
@Suite(.serialized) struct TUICoverArtTests {
    static let size = TerminalSize(columns: 60, rows: 30)

    /// The mean distance in RGB (0-441) between a cell's colour and the
    /// picture's over that cell. The bound: the 256-colour palette's cube
    /// has steps of 95 (0 to 95) and 40 above, so a colour is off by up to
    /// 47 in one channel from the nearest entry, about 20-27 on average over
    /// a smooth gradient across all three (uniform error, step/sqrt(12) a
    /// channel); libchafa picks two colours per cell, and its dithering
    /// moves some cells further. 32 allows that; a drawing of another
    /// picture (the same picture upside down, below) is over 100.
    static let meanErrorBound = 32.0

    /// A PNG, and JPEGs as ffmpeg writes covers (4:2:0) at the sizes most files carry, on terminals whose
    /// pane makes libjpeg decode them at widths of every kind.
    static let pictures: [(side: Int, format: String, terminal: TerminalSize)] = [
        (256, "png", size), (300, "jpg", small), (600, "jpg", small), (1000, "jpg", small), (3000, "jpg", size),
    ]
    /// A terminal whose pane gives a square picture 12 x 6 cells (96 pixels): libjpeg halves a 300 px
    /// picture to 150, quarters 600 to 150 and takes an eighth of 1000, 125; on `size` (40 x 20 cells,
    /// 320 pixels) an eighth of 3000, 375. RGB rows of those widths are no multiple of 4 bytes.
    static let small = TerminalSize(columns: 40, rows: 16)

    @Test("block symbols in tmux match the picture, cell by cell, within the bound", arguments: pictures.indices)
    func symbolsMatchThePicture(_ index: Int) throws {
        let (side, format, terminal) = Self.pictures[index]
        let picture = try CoverArtFixtures.picture(size: side, format: format, jpegChroma: "yuvj420p")
        let track = try CoverArtFixtures.tagged(.id3, picture: picture)
        let session = try TUISession(columns: terminal.columns, rows: terminal.rows, arguments: [track],
                                     environment: ["TERM": "tmux-256color"])
        #expect(session.waitFor("Covered").met, "\(session.screen())")
        try session.press("3")
        let layout = Layout(size: terminal, banner: false, focus: .nowPlaying)
        let paneArea = try #require(layout.panes[.nowPlaying])
        let area = try #require(ScreenRenderer.pictureArea(for: .nowPlaying, paneArea: paneArea))
        // A square picture on cells twice as tall as wide keeps its shape.
        let columns = min(area.width, area.height * 2), rows = columns / 2
        let drawn = session.waitFor(30) { _ in
            let cells = ColouredScreen(Self.capture(session))
            return cells.hasColours(row: area.row + rows - 1, column: area.column + columns - 1)
        }
        #expect(drawn.met, "no picture drawn:\n\(drawn.screen)")
        let screen = ColouredScreen(Self.capture(session))
        let oracle = try CoverArtFixtures.scaledRGB(picture, width: columns * 8, height: rows * 16)
        let error = Self.meanError(screen, area: area, columns: columns, rows: rows, oracle: oracle, flipped: false)
        let other = Self.meanError(screen, area: area, columns: columns, rows: rows, oracle: oracle, flipped: true)
        print("symbols in tmux, \(side) px \(format) on \(columns)x\(rows) cells: mean colour error per cell \(error), the picture upside down \(other)")
        #expect(error < Self.meanErrorBound, "\(side) px \(format): mean colour error per cell \(error)")
        #expect(other > 3 * Self.meanErrorBound, "the upside-down picture compares at \(other): the check could not fail")
        // The rest of the pane is text, unaffected; the cells right of the picture carry no colour of it.
        #expect(session.screen().contains("Covered"))
        #expect(!screen.hasColours(row: area.row, column: area.column + columns + 1))
        // Another pane in its place: no picture cell is left.
        try session.press("1")
        let cleared = session.waitFor { _ in
            let cells = ColouredScreen(Self.capture(session))
            return (area.row..<(area.row + rows)).allSatisfy { !cells.hasColours(row: $0, column: area.column + 5) }
        }
        #expect(cleared.met, "picture cells left:\n\(cleared.screen)")
    }

    /// A player's environment in a pty of the test's own: the sink, a home of
    /// its own under `home`, and `TERM=xterm-256color`, a name sixel
    /// terminals use too.
    static func ptyEnvironment(_ sink: NullSink, home: String) -> [String: String] {
        var environment = sink.environment
        for (key, value) in ["XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state", "XDG_CACHE_HOME": home + "/cache",
                             "XDG_RUNTIME_DIR": home, "LANG": "C.UTF-8", "TERM": "xterm-256color"] { environment[key] = value }
        return environment
    }

    /// A terminal that answers no query (a pty nobody reads queries from)
    /// with `TERM=xterm-256color`, a name sixel terminals use too.
    @Test("a terminal that answers nothing gets block symbols, not sixel or kitty by TERM")
    func silentTerminalGetsSymbols() throws {
        let picture = try CoverArtFixtures.picture(size: 128, format: "jpg")
        let track = try CoverArtFixtures.tagged(.flac, picture: picture)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let environment = Self.ptyEnvironment(sink, home: ScratchFiles.makeDirectory("cover-pty"))
        // The pty's reader: sizes the terminal, answers nothing, keeps what
        // the player writes until a coloured block symbol has come (or 40 s),
        // then ends the player it started, by its pid.
        let script = """
            import os, pty, sys, time, select, signal, struct, fcntl, termios
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], [sys.argv[1], sys.argv[2], '--device', 'pulse', '--foreground'])
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 30, 60, 0, 0))
            os.kill(pid, signal.SIGWINCH)
            out = b''
            deadline = time.time() + 40
            sent = False
            while time.time() < deadline:
                r, _, _ = select.select([fd], [], [], 0.2)
                if r:
                    try: chunk = os.read(fd, 65536)
                    except OSError: break
                    if not chunk: break
                    out += chunk
                if not sent and b'Covered' in out:
                    os.write(fd, b'3')
                    sent = True
                if sent and b'\\xe2\\x96' in out.split(b'Covered', 1)[-1] and b'48;5;' in out:
                    time.sleep(0.5)
                    break
            os.kill(pid, signal.SIGTERM)
            os.waitpid(pid, 0)
            sys.stdout.buffer.write(out)
            """
        let result = try ProcessRunner.check("python3", ["-c", script, InterludeBinary.path(), track], environment: environment, timeout: 90)
        let output = result.stdout
        func has(_ text: String) -> Bool { output.range(of: Data(text.utf8)) != nil }
        #expect(has("\u{1B}_Gi=31,s=1,v=1,a=q"), "the player sent no graphics query")
        #expect(has("\u{1B}[c"), "the player sent no DA1")
        #expect(has("48;5;") && has("Covered"), "no block symbols in colour")
        #expect(!has("\u{1B}Pq") && !has("\u{1B}P0;1;0q") && !has("\u{1B}P0;1q"), "sixel sent to a terminal that never said it speaks it")
        #expect(!has("\u{1B}_Ga=T") && !has("\u{1B}_Gf="), "kitty graphics sent")
    }

    /// A terminal that answers after the player stopped waiting (a loaded
    /// machine, a slow link): its answers come in among the keys. They are
    /// no keys (DA1's `c` took a call, its digits switched panes), and they
    /// still choose the drawing: sixel, from DA1's attribute 4, though the
    /// first frames had block symbols. DA1's answer comes in two reads.
    @Test("a terminal's late answers are no keys and turn sixel on")
    func lateAnswersAreNoKeys() throws {
        let picture = try CoverArtFixtures.picture(size: 128, format: "jpg")
        let track = try CoverArtFixtures.tagged(.flac, picture: picture, seconds: 60)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let home = ScratchFiles.makeDirectory("cover-late")
        // The player's control socket lives here: `remote status` asks it.
        chmod(home, 0o700)
        let environment = Self.ptyEnvironment(sink, home: home)
        // The pty's reader: answers nothing until the player has drawn its first
        // frame (it draws none before its wait is over), then answers as xterm
        // -ti vt340 would, waits for a sixel picture (or 40 s), asks the player
        // for its status, and ends it by its pid. The output, then the status.
        let script = """
            import os, pty, sys, time, select, signal, struct, fcntl, termios, subprocess
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], [sys.argv[1], '--book', sys.argv[2], '--device', 'pulse', '--foreground'])
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 30, 60, 0, 0))
            os.kill(pid, signal.SIGWINCH)
            out = b''
            def read(seconds):
                # Reads what the player writes for a while: a player whose writes
                # block answers nothing.
                global out
                end = time.time() + seconds
                while time.time() < end:
                    r, _, _ = select.select([fd], [], [], 0.05)
                    if r:
                        try: chunk = os.read(fd, 65536)
                        except OSError: return
                        if not chunk: return
                        out += chunk
            def sixel(data): return b'\\x1bPq' in data or b'\\x1bP0;1;0q' in data or b'\\x1bP0;1q' in data
            deadline = time.time() + 40
            while time.time() < deadline and b'Covered' not in out:
                read(0.1)
            cut = len(out)
            os.write(fd, b'\\x1bP>|XTerm(390)\\x1b\\\\\\x1b[6;20;10t\\x1b[?63;1;2;')
            read(0.3)
            os.write(fd, b'4;6;9;15;16;22;28c')
            while time.time() < deadline and not sixel(out[cut:]):
                read(0.1)
            read(0.5)
            asking = subprocess.Popen([sys.argv[1], 'remote', 'status', '--json'], stdout=subprocess.PIPE)
            while asking.poll() is None:
                read(0.05)
            status = asking.stdout.read()
            os.kill(pid, signal.SIGTERM)
            while os.waitpid(pid, os.WNOHANG) == (0, 0):
                read(0.05)
            sys.stdout.buffer.write(out + b'\\n@@STATUS@@' + status)
            """
        let result = try ProcessRunner.check("python3", ["-c", script, InterludeBinary.path(), track], environment: environment, timeout: 90)
        let parts = result.stdout.split(separator: Data("\n@@STATUS@@".utf8))
        let output = try #require(parts.first)
        let statusReply = try #require(parts.dropFirst().first, "no status")
        func has(_ text: String) -> Bool { output.range(of: Data(text.utf8)) != nil }
        #expect(has("\u{1B}[c"), "the player sent no DA1")
        #expect(has("Covered"), "no frame drawn")
        // The first frames, drawn before the answers: block symbols.
        let first = output[..<(output.range(of: Data("Covered".utf8))?.upperBound ?? output.endIndex)]
        #expect(first.range(of: Data("\u{1B}P".utf8)) == nil, "sixel before the terminal said it speaks it")
        #expect(has("\u{1B}Pq") || has("\u{1B}P0;1;0q") || has("\u{1B}P0;1q"), "no sixel after the late answer")
        let object = try #require(try JSONSerialization.jsonObject(with: statusReply) as? [String: Any], "\(String(decoding: statusReply, as: UTF8.self))")
        let status = (object["result"] as? [String: Any]) ?? object
        // `c` in the answer would have taken a call: the book plays on, nothing holds it.
        #expect(status["state"] as? String == "playing", "\(status)")
        #expect((status["callActive"] as? NSNumber)?.intValue == 0, "\(status)")
        #expect(status["interruption"] is NSNull, "\(status)")
        #expect(!has("after the call"), "the answer's c was read as a key")
    }

    /// The cover art's cost: the image libraries are loaded for the first picture drawn, not before.
    @Test("headless playback and a pane without a picture map no image library; a picture shown maps them")
    func imageLibrariesOnlyWithAPicture() throws {
        func imageLibraries(_ pid: Int32) throws -> [String] {
            let handle = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"))
            defer { try? handle.close() }
            let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
            return maps.split(separator: "\n").map(String.init)
                .filter { ["libchafa", "libjpeg", "libpng", "libglib"].contains(where: $0.contains) }
        }
        let picture = try CoverArtFixtures.picture(size: 128, format: "jpg")
        let covered = try CoverArtFixtures.tagged(.id3, picture: picture, seconds: 30)
        let plain = try CoverArtFixtures.besideImage(named: "notes.txt", bytes: Data("no picture".utf8), seconds: 30)

        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let headless = try InterludeBinary.start(["play", covered, "--device", "pulse", "--events", "json"], environment: sink.environment)
        defer { _ = headless.stop() }
        try #require(headless.waitForEvent(named: "trackStarted", timeout: 30) != nil)
        #expect(try imageLibraries(headless.pid).isEmpty, "headless playback maps an image library")

        let without = try TUISession(columns: Self.size.columns, rows: Self.size.rows, arguments: [plain],
                                     environment: ["TERM": "tmux-256color"])
        #expect(without.waitFor("playing ·").met)
        try without.press("3")
        #expect(without.waitFor("Now playing").met)
        let plainPID = try #require(try without.playerPID())
        #expect(try imageLibraries(plainPID).isEmpty, "a pane without a picture maps an image library")

        let with = try TUISession(columns: Self.size.columns, rows: Self.size.rows, arguments: [covered],
                                  environment: ["TERM": "tmux-256color"])
        #expect(with.waitFor("playing ·").met)
        try with.press("3")
        let coveredPID = try #require(try with.playerPID())
        let deadline = monotonicSeconds() + 30
        while monotonicSeconds() < deadline, try imageLibraries(coveredPID).count < 2 { usleep(100_000) }
        let mapped = try imageLibraries(coveredPID)
        #expect(mapped.contains { $0.contains("libchafa") } && mapped.contains { $0.contains("libjpeg") },
                "the picture shown, yet \(mapped)")
    }

    // MARK: Comparing

    /// The screen with its colours, trailing blanks kept (`-N`: a row of one colour is cells too).
    static func capture(_ session: TUISession) -> String {
        (try? session.tmux(["capture-pane", "-p", "-e", "-N"]).stdoutText) ?? ""
    }

    /// The mean over the picture's cells of the distance between the cell's
    /// colour and the oracle's mean over the cell (`flipped`: the oracle
    /// upside down, a picture the drawing is not of).
    static func meanError(_ screen: ColouredScreen, area: Rect, columns: Int, rows: Int, oracle: [UInt8], flipped: Bool) -> Double {
        var total = 0.0
        let width = columns * 8
        for row in 0..<rows {
            for column in 0..<columns {
                guard let cell = screen.cell(row: area.row + row, column: area.column + column) else {
                    total += 441
                    continue
                }
                var mean = [0.0, 0.0, 0.0]
                let sourceRow = flipped ? rows - 1 - row : row
                for y in (sourceRow * 16)..<(sourceRow * 16 + 16) {
                    for x in (column * 8)..<(column * 8 + 8) {
                        for channel in 0..<3 { mean[channel] += Double(oracle[(y * width + x) * 3 + channel]) / 128 }
                    }
                }
                let share = ColouredScreen.coverage(cell.character)
                var distance = 0.0
                for channel in 0..<3 {
                    let shift = UInt32(16 - channel * 8)
                    let value = share * Double(cell.foreground >> shift & 0xFF) + (1 - share) * Double(cell.background >> shift & 0xFF)
                    distance += (value - mean[channel]) * (value - mean[channel])
                }
                total += distance.squareRoot()
            }
        }
        return total / Double(rows * columns)
    }
}

/// `capture-pane -e`'s screen as cells with their picture colours (24-bit,
/// from the palette's numbers as xterm shows them); a cell in the default
/// or a theme's 16 colours has none.
struct ColouredScreen {
    struct Cell {
        var character: Character
        var foreground: UInt32
        var background: UInt32
        var coloured: Bool
    }

    var rows: [[Cell]] = []

    init(_ text: String) {
        for line in text.components(separatedBy: "\n") {
            var cells: [Cell] = []
            var foreground: UInt32?, background: UInt32?, reverse = false
            var scalars = Array(line.unicodeScalars)[...]
            while let scalar = scalars.first {
                scalars = scalars.dropFirst()
                if scalar == "\u{1B}", scalars.first == "[" {
                    let body = scalars.dropFirst().prefix { !("@"..."~").contains($0) }
                    scalars = scalars.dropFirst(body.count + 2)
                    var numbers = String(String.UnicodeScalarView(body)).split(separator: ";", omittingEmptySubsequences: false)
                        .map { Int($0) ?? 0 }[...]
                    if numbers.isEmpty { numbers = [0] }
                    while let number = numbers.popFirst() {
                        switch number {
                        case 0: (foreground, background, reverse) = (nil, nil, false)
                        case 7: reverse = true
                        case 27: reverse = false
                        // The 16 colours a theme uses are no picture's (those are 256-colour or 24-bit).
                        case 39, 30...37, 90...97: foreground = nil
                        case 49, 40...47, 100...107: background = nil
                        case 38, 48:
                            var value: UInt32?
                            if numbers.first == 5, numbers.count >= 2 {
                                value = PictureColorMode.paletteRGB(numbers[numbers.startIndex + 1])
                                numbers = numbers.dropFirst(2)
                            } else if numbers.first == 2, numbers.count >= 4 {
                                let rgb = numbers.dropFirst().prefix(3).map { UInt32(max(0, min(255, $0))) }
                                value = rgb[0] << 16 | rgb[1] << 8 | rgb[2]
                                numbers = numbers.dropFirst(4)
                            }
                            if number == 38 { foreground = value } else { background = value }
                        default: break
                        }
                    }
                    continue
                }
                let (front, back) = reverse ? (background, foreground) : (foreground, background)
                // A blank shows only its background: tmux leaves its foreground at the default.
                let character = Character(scalar)
                cells.append(Cell(character: character, foreground: front ?? back ?? 0, background: back ?? 0,
                                  coloured: back != nil && (front != nil || Self.coverage(character) == 0)))
            }
            rows.append(cells)
        }
    }

    func cell(row: Int, column: Int) -> Cell? {
        guard row < rows.count, column < rows[row].count, rows[row][column].coloured else { return nil }
        return rows[row][column]
    }

    func hasColours(row: Int, column: Int) -> Bool { cell(row: row, column: column) != nil }

    /// The share of a cell a block element covers (its foreground's part).
    static func coverage(_ character: Character) -> Double { BlockElements.coverage(character) }
}
