import Foundation
import Testing
import TestSupport
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// The cover drawn as sixel: a real xterm
/// (`-ti vt340`, whose DA1 says sixel) under Xvfb, the player choosing
/// sixel from that answer, and a screenshot of the window (xwd) compared
/// with the picture, cell by cell, in the picture's region.
@Suite(.serialized) struct XtermSixelTests {
    static let size = TerminalSize(columns: 60, rows: 30)
    /// Mean RGB distance per cell (0-441): sixel carries the picture's own
    /// pixels, quantized by libchafa to at most 256 colours (an adaptive
    /// palette, so a smooth gradient is off by a few levels) with
    /// dithering, which averages out over a cell. 16 allows that; the
    /// picture upside down compares at over 100.
    static let meanErrorBound = 16.0

    /// `attached`: the player started as a service with the screen attached
    /// to it (the screen's terminal handed over, the service asking it what
    /// it can draw), else in the foreground.
    @Test("sixel in xterm -ti vt340 under Xvfb matches the picture in a screenshot", arguments: [false, true])
    func sixelMatchesThePicture(attached: Bool) throws {
        let picture = try CoverArtFixtures.picture(size: 256, format: "png")
        let track = try CoverArtFixtures.tagged(.id3, picture: picture, seconds: 30)
        let display = try XvfbDisplay()
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let home = ScratchFiles.makeDirectory("cover-xterm")
        defer { if attached { ScratchFiles.stopPlayerServices(below: home) } }
        var environment = sink.environment
        for (key, value) in ["XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state", "XDG_CACHE_HOME": home + "/cache",
                             "XDG_RUNTIME_DIR": home, "LANG": "C.UTF-8", "DISPLAY": display.name] { environment[key] = value }
        // --book: the now-playing pane is focused from the start (no key to send to the window).
        let xterm = try BackgroundProcess.start("xterm", [
            "-ti", "vt340", "-xrm", "XTerm*decTerminalID: vt340", "-xrm", "XTerm*numColorRegisters: 256",
            "-xrm", "XTerm*sixelScrolling: true", "-geometry", "\(Self.size.columns)x\(Self.size.rows)+0+0", "-b", "0", "-bw", "0",
            "-bg", "white", "-fg", "black", "-e", InterludeBinary.path(), "--book", track, "--device", "pulse",
        ] + (attached ? [] : ["--foreground"]), environment: environment)
        defer { _ = xterm.stop() }

        // The cell's pixels from the window's white extent: 60 x 30 cells at the top-left.
        var shot = Screenshot(pixels: [], width: 640, height: 480)
        let deadline = monotonicSeconds() + 40
        var cell = (width: 0, height: 0)
        let layout = Layout(size: Self.size, banner: false, focus: .nowPlaying)
        let paneArea = try #require(layout.panes[.nowPlaying])
        let area = try #require(ScreenRenderer.pictureArea(for: .nowPlaying, paneArea: paneArea))
        var drawn = false
        while monotonicSeconds() < deadline {
            guard let taken = try? display.screenshot() else {
                usleep(200_000)
                continue
            }
            shot = taken
            cell = shot.cellSize(columns: Self.size.columns, rows: Self.size.rows)
            if cell.width > 0, shot.isColoured(x: (area.column + 2) * cell.width, y: (area.row + 2) * cell.height) {
                drawn = true
                usleep(500_000)
                shot = try display.screenshot()
                break
            }
            usleep(200_000)
        }
        #expect(drawn, "no picture in the window (cell \(cell))")
        if attached {
            #expect(access(home + "/interlude/service.pid", F_OK) == 0, "no service started: the screen ran the player itself")
        }
        guard drawn else { return }
        // The picture keeps its shape on cells of this size.
        let aspect = Double(cell.height) / Double(cell.width)
        var columns = min(area.width, Int(Double(area.height) * aspect)), rows = min(area.height, Int((Double(columns) / aspect).rounded()))
        if rows == area.height { columns = min(area.width, Int((Double(rows) * aspect).rounded())) }
        rows = max(1, rows)
        let oracle = try CoverArtFixtures.scaledRGB(picture, width: columns * cell.width, height: rows * cell.height)
        let error = shot.meanError(oracle: oracle, left: area.column * cell.width, top: area.row * cell.height,
                                   columns: columns, rows: rows, cell: cell, flipped: false)
        let other = shot.meanError(oracle: oracle, left: area.column * cell.width, top: area.row * cell.height,
                                   columns: columns, rows: rows, cell: cell, flipped: true)
        print("sixel in xterm\(attached ? ", attached" : ""): mean colour error per cell \(error), the picture upside down \(other)")
        #expect(error < Self.meanErrorBound, "mean colour error per cell \(error)")
        #expect(other > 3 * Self.meanErrorBound, "the upside-down picture compares at \(other)")
    }
}

/// A private X server (Xvfb), stopped by its PID.
final class XvfbDisplay {
    let name: String
    private let process: BackgroundProcess

    /// On the first free display from one picked by the pid: one that another
    /// X server (another test run's) took between the look and the start is
    /// told by its lock file, which names that server, and the next is tried.
    init() throws {
        var number = 40 + Int(getpid() % 200)
        while true {
            while access("/tmp/.X\(number)-lock", F_OK) == 0 { number += 1 }
            let server = try BackgroundProcess.start("Xvfb", [":\(number)", "-screen", "0", "640x480x24", "-nolisten", "tcp"])
            let deadline = monotonicSeconds() + 20
            while monotonicSeconds() < deadline, server.isRunning, access("/tmp/.X11-unix/X\(number)", F_OK) != 0 { usleep(50_000) }
            let lock = (try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if server.isRunning, lock == String(server.pid) {
                name = ":\(number)"
                process = server
                return
            }
            let result = server.stop()
            guard number < 1000 else { throw XvfbError(message: "Xvfb started on no display: \(result.summary)") }
            number += 1
        }
    }

    struct XvfbError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    deinit { _ = process.stop() }

    /// The screen as RGB, by xwd, converted by ffmpeg.
    func screenshot() throws -> Screenshot {
        let file = ScratchFiles.makeDirectory("xwd") + "/screen.xwd"
        try ProcessRunner.check("xwd", ["-root", "-silent", "-display", name, "-out", file], timeout: 30)
        let rgb = try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-f", "rawvideo",
                                                     "-pix_fmt", "rgb24", "-"], timeout: 30).stdout
        return Screenshot(pixels: [UInt8](rgb), width: 640, height: 480)
    }
}

struct Screenshot {
    let pixels: [UInt8]
    let width: Int
    let height: Int

    func rgb(x: Int, y: Int) -> (Int, Int, Int) {
        let at = (y * width + x) * 3
        guard at + 2 < pixels.count else { return (0, 0, 0) }
        return (Int(pixels[at]), Int(pixels[at + 1]), Int(pixels[at + 2]))
    }

    func isColoured(x: Int, y: Int) -> Bool {
        let (r, g, b) = rgb(x: x, y: y)
        return !(r == g && g == b)
    }

    /// The window's cell size: the window (at the top-left, white behind its
    /// text) spans the columns and rows; the screen around it is black.
    func cellSize(columns: Int, rows: Int) -> (width: Int, height: Int) {
        var right = 0, bottom = 0
        for y in 0..<height {
            for x in 0..<width where rgb(x: x, y: y) != (0, 0, 0) {
                right = max(right, x + 1)
                bottom = y + 1
            }
        }
        return (right / columns, bottom / rows)
    }

    func meanError(oracle: [UInt8], left: Int, top: Int, columns: Int, rows: Int, cell: (width: Int, height: Int), flipped: Bool) -> Double {
        var total = 0.0
        let oracleWidth = columns * cell.width
        for row in 0..<rows {
            for column in 0..<columns {
                var shown = [0.0, 0.0, 0.0], expected = [0.0, 0.0, 0.0]
                let sourceRow = flipped ? rows - 1 - row : row
                for dy in 0..<cell.height {
                    for dx in 0..<cell.width {
                        let (r, g, b) = rgb(x: left + column * cell.width + dx, y: top + row * cell.height + dy)
                        shown[0] += Double(r); shown[1] += Double(g); shown[2] += Double(b)
                        let at = ((sourceRow * cell.height + dy) * oracleWidth + column * cell.width + dx) * 3
                        for channel in 0..<3 { expected[channel] += Double(oracle[at + channel]) }
                    }
                }
                let count = Double(cell.width * cell.height)
                total += (0..<3).map { (shown[$0] - expected[$0]) * (shown[$0] - expected[$0]) / (count * count) }.reduce(0, +).squareRoot()
            }
        }
        return total / Double(rows * columns)
    }
}
