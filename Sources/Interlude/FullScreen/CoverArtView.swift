import LibraryIO
import PlayerModel
import BookFormat
import InterludeCore
import Synchronization
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// The full-screen player's pictures (a `LoopSource`): each pane's request
/// made on a thread of its own, one at a time (the newest request waits for
/// the one running; those between are dropped), handed back through an
/// eventfd; what was made kept per file and size, so a pane going back to a
/// size it had, or a track played again, draws at once. Nothing here reads a
/// file or decodes on the main loop, and no image library is loaded before
/// the first picture is asked for.
final class CoverArtView: LoopSource {
    /// What the thread hands back, and the decoded picture it keeps for the next request of the same file.
    final class Shared: Sendable {
        private let posted = ThreadMailbox<(CoverArtRequest, CoverArtOutcome)?>()
        let last = Mutex<(path: String, image: DecodedImage, header: ImageHeader)?>(nil)

        var wake: Int32 { posted.wake }

        func post(_ request: CoverArtRequest, _ outcome: CoverArtOutcome) { posted.post { $0 = (request, outcome) } }

        func take() -> (CoverArtRequest, CoverArtOutcome)? { posted.take() }
    }

    let drawing: GraphicsProtocol
    let colors: PictureColorMode
    let cellPixels: (width: Int, height: Int)
    /// Called on the main loop when a picture (or a problem) has come.
    var onChange: () -> Void = {}
    /// Each problem's line, said once per picture.
    var report: (String) -> Void = { _ in }

    private let shared = Shared()
    private var running: CoverArtRequest?
    private var waiting: CoverArtRequest?
    private var made: [(request: CoverArtRequest, outcome: CoverArtOutcome)] = []
    private var reported: Set<String> = []
    /// Pictures kept: a few sizes of the last few files, a few hundred KB of cells at most.
    static let keptOutcomes = 8

    init(drawing: GraphicsProtocol, colors: PictureColorMode, cellPixels: (width: Int, height: Int)) {
        self.drawing = drawing
        self.colors = colors
        self.cellPixels = cellPixels
    }

    /// The picture for `path` on `area` cells, when it has been made; asks
    /// for it otherwise (the pane shows none until it comes).
    func outcome(path: String, pictures: [EmbeddedPicture], area: TerminalSize) -> CoverArtOutcome? {
        let request = CoverArtRequest(path: path, pictures: pictures, area: area, drawing: drawing, colors: colors,
                                      cellWidth: cellPixels.width, cellHeight: cellPixels.height)
        if let found = made.first(where: { $0.request == request }) { return found.outcome }
        if running == nil { start(request) } else if running != request { waiting = request }
        return nil
    }

    private func start(_ request: CoverArtRequest) {
        running = request
        waiting = nil
        let shared = self.shared
        let failure = BackgroundThread.start {
            // Below the main loop: drawing a cover is background work.
            _ = nice(5)
            let outcome = shared.last.withLock { last in CoverArtWork.run(request, last: &last) }
            shared.post(request, outcome)
        }
        if let failure {
            shared.post(request, .problem("cover art: cannot start its thread (\(failure.message))"))
        }
    }

    var pollRequests: [LoopPollRequest] { shared.wake >= 0 ? [LoopPollRequest(fd: shared.wake)] : [] }

    func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        guard !ready.isEmpty, let (request, outcome) = shared.take() else { return }
        made.append((request, outcome))
        if made.count > Self.keptOutcomes { made.removeFirst() }
        running = nil
        if case .problem(let line) = outcome, reported.insert(line).inserted { report(line) }
        if let waiting { start(waiting) }
        onChange()
    }
}
