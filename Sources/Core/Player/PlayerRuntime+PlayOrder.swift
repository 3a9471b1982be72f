import LoopIO
import AudioEngine
import BookFormat
import InterludeCore
import PlayerModel
import Playlists
#if canImport(Glibc)
import Glibc
#endif

/// Shuffle and repeat as the runtime keeps them.
///
/// The queue stays what it is, every file in play order: shuffle writes its
/// cycle into the queue after the entry that plays, and repeat all appends the
/// next cycle when decoding reaches the end (`TrackFeeder.queueExtension`),
/// so the track that follows is decoded ahead and joins gaplessly, shuffled or
/// repeated, exactly as an ordinary next track does.
package struct PlayOrderState {
    package var repeatMode = RepeatMode.off
    /// Set while shuffle is on.
    package var cycle: ShuffleCycle?
    /// The list in the order it was queued, for turning shuffle off again.
    package var unshuffled: [String]?
    /// Where the list that shuffle and repeat act on begins in the queue: the
    /// entries queued before the last "play these" are history, not the list.
    package var listStart = 0
    /// `--shuffle-seed` (tests); otherwise a new seed each time shuffle is turned on.
    package var seed: UInt64?
}

extension PlayerRuntime {
    /// The files shuffle and repeat act on: the queue from `listStart`, each once.
    package var playList: [String] {
        var seen = Set<String>()
        return queue.dropFirst(playOrder.listStart).filter { seen.insert($0).inserted }
    }

    /// Before the run: the feeder asks for repeat all's next cycle.
    package func installPlayOrder() {
        engine.feeder.queueExtension = { [weak self] in self?.nextRepeatCycle() ?? [] }
    }

    package func toggleShuffle() -> CommandResult {
        if playOrder.cycle == nil {
            shuffleRest()
            return .done(report: .shuffle(on: true))
        }
        playOrder.cycle = nil
        if let unshuffled = playOrder.unshuffled {
            // The rest of this cycle in the order it was queued, from the file after
            // the one decoded last, round to the list's start; what played in this
            // cycle already stays played.
            let here = decodedThrough
            let kept = here >= playOrder.listStart && here < queue.count ? Set(queue[playOrder.listStart...here]) : []
            let position = here >= 0 && here < queue.count ? unshuffled.firstIndex(of: queue[here]) ?? -1 : -1
            let ordered = unshuffled[(position + 1)...] + unshuffled[..<max(0, position + 1)]
            engine.feeder.replaceQueue(after: here, with: ordered.filter { !kept.contains($0) })
        }
        playOrder.unshuffled = nil
        events.emit(.orderChanged(shuffle: false, repeatMode: playOrder.repeatMode.rawValue))
        return .done(report: .shuffle(on: false))
    }

    package func cycleRepeat() -> CommandResult {
        setRepeat(playOrder.repeatMode.next)
        return .done(report: .repeatMode(playOrder.repeatMode.rawValue))
    }

    package func setRepeat(_ mode: RepeatMode) {
        playOrder.repeatMode = mode
        engine.feeder.repeatsTrack = mode == .one
        events.emit(.orderChanged(shuffle: playOrder.cycle != nil, repeatMode: mode.rawValue))
    }

    /// The last queue entry the feeder has begun decoding (or the one heard):
    /// entries up to it are in the ring already and play as they are.
    private var decodedThrough: Int {
        max(current?.index ?? -1, engine.feeder.tracks.last?.index ?? -1)
    }

    /// Writes a new shuffle cycle over the list into the queue after what is decoded.
    package func shuffleRest() {
        let list = playList
        playOrder.unshuffled = list
        let here = decodedThrough
        let fixed = here >= playOrder.listStart ? queue[playOrder.listStart...here] : []
        var leading: [Int] = []
        for path in fixed { if let at = list.firstIndex(of: path), !leading.contains(at) { leading.append(at) } }
        let order = startCycle(over: list, leading: leading)
        engine.feeder.replaceQueue(after: here, with: Array(order.dropFirst(leading.count)))
        events.emit(.orderChanged(shuffle: true, repeatMode: playOrder.repeatMode.rawValue))
    }

    /// A first cycle over `list` (which becomes the basis the cycle's indices
    /// refer to), `leading` kept in front; the files in play order.
    package func startCycle(over list: [String], leading: [Int]) -> [String] {
        playOrder.unshuffled = list
        let seed = playOrder.seed.map { $0 &+ 1 }
            ?? UInt64(truncatingIfNeeded: time(nil)) &* 0x9E37_79B9 ^ UInt64(truncatingIfNeeded: getpid())
        playOrder.seed = seed
        let cycle = ShuffleCycle(count: list.count, seed: seed, leading: leading)
        playOrder.cycle = cycle
        return cycle.order.map { list[$0] }
    }

    /// Repeat all's next pass over the list (a new shuffle cycle when shuffled); nothing otherwise.
    package func nextRepeatCycle() -> [String] {
        guard playOrder.repeatMode == .all else { return [] }
        // Files queued since the list was taken join it at its end, so the
        // cycle's indices keep naming the same files (the boundary check compares them).
        var basis = playOrder.unshuffled ?? []
        let known = Set(basis)
        basis += playList.filter { !known.contains($0) }
        guard !basis.isEmpty else { return [] }
        guard var cycle = playOrder.cycle else { return basis }
        playOrder.unshuffled = basis
        let order = cycle.nextCycle(count: basis.count)
        playOrder.cycle = cycle
        return order.map { basis[$0] }
    }
}

extension PlayerRuntime {
    /// Shuffle, repeat and playlists (music only; the dispatcher refuses them for a book).
    package func performPlayOrder(_ command: PlayerCommand) -> CommandResult {
        switch command {
        case .toggleShuffle: return toggleShuffle()
        case .cycleRepeat: return cycleRepeat()
        case .saveQueue(let path): return saveQueue(to: playlistPath(path))
        case .loadPlaylist(let path): return loadPlaylist(playlistPath(path))
        default: return .done
        }
    }

    /// A bare name (no slash) is a playlist in the playlists folder, `.m3u8` added when it has no playlist extension.
    package func playlistPath(_ text: String) -> String {
        guard !text.contains("/") else { return text }
        let name = PlaylistFile.isPlaylist(text) ? text : text + ".m3u8"
        return PlaylistFile.directory(environment: ProcessEnvironment.current()) + "/" + name
    }

    /// The queue as the queue pane shows it (every entry, in order, those
    /// played and repeated ones too), as a playlist: what is seen is what is saved.
    package func saveQueue(to path: String) -> CommandResult {
        let list = queue
        guard !list.isEmpty else { return .refused(reason: .emptyQueue) }
        let entries = list.map { file -> PlaylistEntry in
            let tags = trackTags.tags(of: file)
            let title = tags.artist.map { "\($0) - " }.map { $0 + (tags.title ?? "") } ?? tags.title
            let seconds = engine.feeder.tracks.last(where: { $0.path == file })?.expectedFrames
                .map { Int(format.seconds(forFrames: $0).rounded()) }
            return PlaylistEntry(path: file, seconds: seconds, title: title ?? AudioTags.displayName(ofPath: file))
        }
        do { try PlaylistFile.save(entries, to: path) } catch let failure { return .refused(reason: .problem(failure.description)) }
        events.emit(.queueSaved(path: path, count: entries.count))
        return .done(report: .queueSaved(count: entries.count, path: path))
    }

    /// Plays a playlist: what it names that exists replaces the queue after the
    /// entry that plays; each missing file is named on a line of its own.
    package func loadPlaylist(_ path: String) -> CommandResult {
        let load: PlaylistLoad
        do { load = try PlaylistFile.load(path) } catch let failure { return .refused(reason: .problem(failure.description)) }
        for missing in load.missing { events.error("\(path): \(missing) is missing (skipped)") }
        for refused in load.refused { events.error("\(path): \(refused) (skipped)") }
        events.emit(.playlistLoaded(path: path, count: load.entries.count, missing: load.missing.count))
        guard !load.entries.isEmpty else { return .refused(reason: .playlistNamesNoFile(path: path)) }
        playQueue(load.entries.map(\.path), startAt: 0)
        return .done(report: .playlistLoaded(count: load.entries.count, path: path, missing: load.missing.count))
    }
}
