import Streams
import LoopIO
import Alarms
import BookFormat
import InterludeCore
import PlayerModel
import Playlists
#if canImport(Glibc)
import Glibc
#endif

/// MPRIS2 on the session bus (media keys, desktop widgets, `playerctl`):
/// `org.mpris.MediaPlayer2.interlude` (`.instance<PID>` when taken), the
/// root and `.Player` interfaces over the one dispatcher and the snapshot.
/// A `LoopSource`: the bus's descriptor is polled in the main loop's wait and
/// every call is answered on the main thread; nothing runs on audio threads.
/// Changes are sent as `PropertiesChanged` after the turn in which their
/// events came, jumps as `Seeked` (the spec has no change signal for Position).
package final class MprisSource: LoopSource {
    package static let objectPath = "/org/mpris/MediaPlayer2"
    package static let rootInterface = "org.mpris.MediaPlayer2"
    package static let playerInterface = "org.mpris.MediaPlayer2.Player"
    package static let baseName = "org.mpris.MediaPlayer2.interlude"

    package let bus: Bus
    package private(set) var name = ""
    private let events: PlayerEventStream
    /// The core of this turn (the full-screen player switches runtimes).
    package private(set) weak var core: (any PlayerCore)?
    /// The scheduler's plans seen so far (`PlayerSnapshot.alarmPlanGeneration`).
    private var plansSeen = 0
    /// The zone alarms ring in, for the announcements.
    private let alarmTimeZone: TimeZoneRules
    private var root: RootObject?
    private var player: PlayerObject?
    private var changed = false
    private var seeked = false
    private var last: Observed?
    private var mediaFiles: [String: String] = [:]
    private var reportedFailure = false
    /// The desktop's other players, paused while an alarm rings.
    package private(set) var otherPlayers: OtherPlayers?
    /// The next alarm's wake of the computer, through the user manager on this bus.
    package private(set) var wakeTimer: WakeTimer?
    /// Missed and coming alarms as desktop notifications (`AlarmNotifications`).
    package private(set) var notifications: AlarmNotifications?
    /// `sd_bus_process` stopped at its bound with messages left.
    private var workLeft = false

    /// What `PropertiesChanged` reports, compared after each turn with events.
    package struct Observed: Equatable {
        package var status: String
        package var metadata: Metadata
        package var volume: Double
        package var rate: Double
        package var canGoNext: Bool
        package var canGoPrevious: Bool
        package var shuffle: Bool
        package var loopStatus: String
    }

    /// MPRIS's names for repeat off, one and all.
    package static let loopStatuses = ["None", "Track", "Playlist"]

    package static func loopStatus(_ mode: RepeatMode) -> String {
        switch mode {
        case .off: "None"
        case .one: "Track"
        case .all: "Playlist"
        }
    }

    package struct Metadata: Equatable {
        package var trackID = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
        package var lengthMicroseconds: Int64?
        package var title = ""
        package var artist = ""
        package var album = ""
        package var url = ""
    }

    private init(bus: Bus, events: PlayerEventStream, alarmTimeZone: TimeZoneRules) {
        self.bus = bus
        self.events = events
        self.alarmTimeZone = alarmTimeZone
    }

    /// Connects and exports, or says once why MPRIS is off and returns nil.
    /// `quietWithoutBus`: with no session bus configured at all (no
    /// `DBUS_SESSION_BUS_ADDRESS`, no `$XDG_RUNTIME_DIR/bus`: a script, cron,
    /// a console login), don't load libsystemd and say nothing; a bus that is
    /// configured but does not answer is reported.
    package static func open(events: PlayerEventStream, quietWithoutBus: Bool, alarmTimeZone: TimeZoneRules,
                     alarmNotifyLead: Duration?) -> MprisSource? {
        // getenv, not the whole environment: this runs in every headless play, bus or not.
        let address = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) } ?? ""
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        let configured = !address.isEmpty || runtime.map { access($0 + "/bus", F_OK) == 0 } ?? false
        if !configured {
            if !quietWithoutBus { events.error("MPRIS is off: no session bus (DBUS_SESSION_BUS_ADDRESS is not set)") }
            return nil
        }
        do {
            let source = MprisSource(bus: try Bus(.session), events: events, alarmTimeZone: alarmTimeZone)
            try source.start(alarmNotifyLead: alarmNotifyLead)
            Bus.releaseSetUpCode()
            return source
        } catch {
            events.error("MPRIS is off: \(error.description)")
            return nil
        }
    }

    private func start(alarmNotifyLead: Duration?) throws(BusError) {
        let root = RootObject(self)
        let player = PlayerObject(self)
        self.root = root
        self.player = player
        try bus.export(path: Self.objectPath, interface: Self.rootInterface, members: RootObject.members, handler: root)
        try bus.export(path: Self.objectPath, interface: Self.playerInterface, members: PlayerObject.members, handler: player)
        do {
            try bus.requestName(Self.baseName)
            name = Self.baseName
        } catch {
            // Another player has it: the spec's instance suffix.
            name = "\(Self.baseName).instance\(getpid())"
            try bus.requestName(name)
        }
        otherPlayers = try OtherPlayers(bus: bus, ownName: { [unowned self] in name },
                                        report: { [events] in events.error($0) })
        wakeTimer = WakeTimer(bus: bus, events: events)
        notifications = try AlarmNotifications(bus: bus, lead: alarmNotifyLead, zone: alarmTimeZone)
        events.subscribe { [weak self] timed in
            guard let self else { return }
            switch timed.event {
            case .jump, .bookSeek: seeked = true
            case .systemDidWake: wakeTimer?.rearmSoon()
            case .systemWillSleep:
                // At once: sent before the delay lock goes back, and with it the machine to sleep.
                wakeTimer?.rearmSoon()
                if let core { wakeTimer?.tend(core) }
            case .alarmRinging: otherPlayers?.alarmBegan()
            // Snoozed: they stay paused until the alarm it snoozed ends.
            case .alarmEnded(let end) where !Self.isSnooze(end): otherPlayers?.alarmEnded()
            default: break
            }
            changed = true
        }
    }

    private static func isSnooze(_ end: RingingEnd) -> Bool {
        if case .snoozed = end { return true }
        return false
    }

    deinit { bus.close() }

    // MARK: LoopSource

    package var pollRequests: [LoopPollRequest] { bus.pollRequest.map { [$0] } ?? [] }

    package var wakeWithinMilliseconds: Int? {
        // Changes go out at the end of the turn they happened in.
        if changed || seeked || workLeft { return 0 }
        guard let core else { return bus.wakeWithinMilliseconds }
        let plans = core.snapshot(.playback).alarmPlanGeneration
        if plans != plansSeen { return 0 }
        let wake = plans > 0 ? [wakeTimer?.wantsTurnWithin, notifications?.wantsTurnWithin].compactMap { $0 }.min() : nil
        guard let wake else { return bus.wakeWithinMilliseconds }
        return min(wake, bus.wakeWithinMilliseconds ?? wake)
    }

    package func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        self.core = core
        let plans = core.snapshot(.playback).alarmPlanGeneration
        if plans != plansSeen {
            // The scheduler planned again (an alarm added, changed, rung, skipped): look at the next alarm.
            plansSeen = plans
            wakeTimer?.alarmsPlanned()
            notifications?.alarmsPlanned()
        }
        do {
            // Only when the bus has something: sd_bus_process on an idle bus is a
            // read() that finds nothing, every turn of a playing player's loop.
            if !ready.isEmpty || workLeft || (bus.wakeWithinMilliseconds ?? 1) == 0 {
                workLeft = try bus.process()
            }
            wakeTimer?.tend(core)
            notifications?.tend(core)
            if changed || last == nil { try announceChanges(core) }
            if seeked {
                seeked = false
                let position = positionMicroseconds(core)
                try bus.emitSignal(path: Self.objectPath, interface: Self.playerInterface, member: "Seeked") { message throws(BusError) in
                    try message.append(position)
                }
            }
        } catch {
            failedOnce(error.description)
        }
    }

    private func announceChanges(_ core: any PlayerCore) throws(BusError) {
        changed = false
        let now = observe(core)
        defer { last = now }
        guard let last else { return }
        var names: [String] = []
        if now.status != last.status { names.append("PlaybackStatus") }
        if now.metadata != last.metadata { names.append("Metadata") }
        if now.volume != last.volume { names.append("Volume") }
        if now.rate != last.rate { names.append("Rate") }
        if now.canGoNext != last.canGoNext { names.append("CanGoNext") }
        if now.canGoPrevious != last.canGoPrevious { names.append("CanGoPrevious") }
        if now.shuffle != last.shuffle { names.append("Shuffle") }
        if now.loopStatus != last.loopStatus { names.append("LoopStatus") }
        try bus.emitPropertiesChanged(path: Self.objectPath, interface: Self.playerInterface, names: names)
    }

    private func failedOnce(_ message: String) {
        guard !reportedFailure else { return }
        reportedFailure = true
        events.error("MPRIS: \(message)")
    }

    // MARK: The player's state, as MPRIS names it

    package func observe(_ core: any PlayerCore) -> Observed {
        let snapshot = core.snapshot()
        let status = switch snapshot.state {
        case .playing: "Playing"
        // Held by an alarm or a call: paused, as the user hears it.
        case .paused, .interrupted: "Paused"
        case .stopped: "Stopped"
        }
        let index = snapshot.currentIndex
        return Observed(status: status, metadata: metadata(snapshot), volume: snapshot.volume,
                        rate: snapshot.speedFactor,
                        canGoNext: snapshot.bookPath == nil && index.map { $0 + 1 < snapshot.queue.count } ?? false,
                        canGoPrevious: snapshot.bookPath == nil && index != nil,
                        shuffle: snapshot.bookPath == nil && snapshot.shuffle,
                        loopStatus: snapshot.bookPath != nil ? "None"
                            : Self.loopStatus(RepeatMode(rawValue: snapshot.repeatMode) ?? .off))
    }

    private func metadata(_ snapshot: PlayerSnapshot) -> Metadata {
        var metadata = Metadata()
        if let book = snapshot.book {
            let chapter = book.chapters.indices.contains(book.currentChapter) ? book.chapters[book.currentChapter] : nil
            metadata.trackID = "/org/interlude/Chapter/\(book.currentChapter)"
            metadata.title = chapter?.title ?? book.title
            metadata.album = book.title
            metadata.artist = snapshot.artist
            metadata.lengthMicroseconds = snapshot.duration.map { Int64($0 * 1_000_000) }
            metadata.url = Self.fileURL(book.path)
        } else if let index = snapshot.currentIndex, snapshot.queue.indices.contains(index) {
            metadata.trackID = "/org/interlude/Track/\(index)"
            metadata.title = snapshot.title
            metadata.artist = snapshot.artist
            metadata.album = snapshot.album
            metadata.lengthMicroseconds = snapshot.duration.map { Int64($0 * 1_000_000) }
            metadata.url = Self.fileURL(mediaFile(of: snapshot.queue[index].path))
        }
        return metadata
    }

    package func positionMicroseconds(_ core: any PlayerCore) -> Int64 {
        let snapshot = core.snapshot(.playback)
        // A book's place is whole milliseconds.
        if snapshot.bookPath != nil { return Int64((snapshot.elapsed * 1000).rounded()) * 1000 }
        return Int64((snapshot.elapsed * 1_000_000).rounded())
    }

    /// The file a queue entry plays: a cue sheet's track (`ALBUM.cue#N`) is
    /// a range of its image file, the media file `xesam:url` names (a client
    /// that opens the URL gets a file, not a sheet). Remembered: the sheet
    /// is read once, not at every change announced.
    private func mediaFile(of path: String) -> String {
        guard let cue = CueTrackPath(path), access(path, F_OK) != 0 else { return path }
        if let known = mediaFiles[path] { return known }
        let file = (try? CueTrack.resolve(cue).get())?.audioPath ?? path
        mediaFiles[path] = file
        return file
    }

    /// `file://` and the path with every byte outside RFC 3986's unreserved set
    /// escaped: ASCII, so always valid UTF-8 on the bus.
    package static func fileURL(_ path: String) -> String {
        // A station's URL is its own (StreamLocation refused control characters and spaces in it).
        if StreamLocation.isStation(path) { return path }
        let absolute = path.hasPrefix("/") ? path : AbsolutePath.absolute(path)
        var url = "file://"
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                url.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                url += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return url
    }

    /// The path of a `file://` URI, a station's `http`/`https` URL as it is
    /// (issue 26), or nil for another scheme.
    package static func path(ofURI uri: String) -> String? {
        if StreamLocation.isStation(uri) { return uri }
        guard uri.hasPrefix("file://") else { return uri.hasPrefix("/") ? uri : nil }
        var bytes: [UInt8] = []
        var utf8 = Array(uri.utf8.dropFirst("file://".count))
        // An authority ("file://localhost/...") is dropped up to the path.
        if let slash = utf8.firstIndex(of: UInt8(ascii: "/")) { utf8.removeFirst(slash) } else { return nil }
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
               let value = UInt8(String(decoding: utf8[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
