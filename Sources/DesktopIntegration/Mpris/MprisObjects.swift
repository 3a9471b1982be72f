import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// `org.mpris.MediaPlayer2`: who we are, and Quit.
package final class RootObject: BusObjectHandler {
    private unowned let source: MprisSource

    package init(_ source: MprisSource) { self.source = source }

    package static let members: [BusMember] = [
        .method("Raise"),
        .method("Quit"),
        .property("CanQuit", "b", flags: BusMember.constant),
        .property("CanRaise", "b", flags: BusMember.constant),
        .property("HasTrackList", "b", flags: BusMember.constant),
        .property("Identity", "s", flags: BusMember.constant),
        .property("DesktopEntry", "s", flags: BusMember.constant),
        .property("SupportedUriSchemes", "as", flags: BusMember.constant),
        .property("SupportedMimeTypes", "as", flags: BusMember.constant),
    ]

    package override func dispatchMethod(_ call: BusMessage) -> Int32 {
        switch call.member {
        case "Raise": return call.reply()
        case "Quit":
            _ = source.core?.perform(.quit)
            return call.reply()
        default: return -ENOSYS
        }
    }

    package override func dispatchGet(_ property: String, _ reply: BusMessage) -> Int32 {
        do {
            switch property {
            case "CanQuit": try reply.append(true)
            case "CanRaise", "HasTrackList": try reply.append(false)
            case "Identity": try reply.append(DesktopFiles.identity)
            // The desktop entry `make install` puts in share/applications, without `.desktop`.
            case "DesktopEntry": try reply.append(DesktopFiles.desktopEntry)
            case "SupportedUriSchemes": try reply.append(strings: ["file", "http", "https"])
            case "SupportedMimeTypes": try reply.append(strings: ["audio/mpeg", "audio/mp3"])
            default: return -ENOENT
            }
        } catch { return -EINVAL }
        return 1
    }
}

/// `org.mpris.MediaPlayer2.Player`: playback through the one dispatcher,
/// state from the snapshot.
package final class PlayerObject: BusObjectHandler {
    private unowned let source: MprisSource

    package init(_ source: MprisSource) { self.source = source }

    package static let members: [BusMember] = [
        .method("Next"), .method("Previous"), .method("Pause"), .method("PlayPause"), .method("Stop"), .method("Play"),
        .method("Seek", "x"), .method("SetPosition", "ox"), .method("OpenUri", "s"),
        .signal("Seeked", "x"),
        .property("PlaybackStatus", "s"),
        .writable("Rate", "d"),
        .property("Metadata", "a{sv}"),
        .writable("Volume", "d"),
        // The spec sends no change signal for Position: clients ask, and hear Seeked on jumps.
        .property("Position", "x", flags: 0),
        .property("MinimumRate", "d", flags: BusMember.constant),
        .property("MaximumRate", "d", flags: BusMember.constant),
        .property("CanGoNext", "b"),
        .property("CanGoPrevious", "b"),
        // Optional in the spec; playerctl's `shuffle` and `loop` use them.
        .writable("Shuffle", "b"),
        .writable("LoopStatus", "s"),
        .property("CanPlay", "b", flags: BusMember.constant),
        .property("CanPause", "b", flags: BusMember.constant),
        .property("CanSeek", "b", flags: BusMember.constant),
        .property("CanControl", "b", flags: BusMember.constant),
    ]

    /// Each method is a row of the command table (`CommandSpec.mpris`): its
    /// D-Bus arguments become the row's arguments, checked by the row's
    /// ranges (a `Seek` of INT64_MAX microseconds is refused, not performed).
    package override func dispatchMethod(_ call: BusMessage) -> Int32 {
        guard let core = source.core else { return call.replyError("org.freedesktop.DBus.Error.Failed", "the player is starting") }
        guard let member = call.member,
              let entry = CommandTable.entry(mpris: member, interface: CommandSpec.MprisMember.playerInterface) else {
            return -ENOSYS
        }
        let arguments: [JSONValue]
        do {
            switch call.member {
            case "Seek": arguments = [.double(Double(try call.readInt64()) / 1_000_000)]
            case "SetPosition":
                let track = try call.readObjectPath()
                let position = try call.readInt64()
                // The spec: a stale track id or a position outside the track is ignored.
                let observed = source.observe(core)
                guard track == observed.metadata.trackID, position >= 0,
                      position <= observed.metadata.lengthMicroseconds ?? Int64.max else { return call.reply() }
                arguments = [.double(Double(position) / 1_000_000)]
            case "OpenUri":
                let uri = try call.readString()
                guard let path = MprisSource.path(ofURI: uri) else {
                    return call.replyError("org.freedesktop.DBus.Error.InvalidArgs", "only file://, http:// and https:// URIs are supported: \(uri)")
                }
                arguments = [.string(path)]
            default: arguments = []
            }
        } catch {
            return call.replyError("org.freedesktop.DBus.Error.InvalidArgs", error.description)
        }
        let action: RemoteAction
        do { action = try entry.action(arguments) } catch {
            return call.replyError("org.freedesktop.DBus.Error.InvalidArgs", error.message)
        }
        let result: CommandResult
        switch action {
        case .perform(let command): result = core.perform(command)
        case .seekTo(let seconds):
            result = core.perform(.seek(seconds: seconds - Double(source.positionMicroseconds(core)) / 1_000_000))
        default: return -ENOSYS
        }
        if case .refused(let reason) = result {
            // A client has no keys: the reason names none.
            return call.replyError("org.mpris.MediaPlayer2.Interlude.Refused", reason.sentence())
        }
        return call.reply()
    }

    package override func dispatchGet(_ property: String, _ reply: BusMessage) -> Int32 {
        guard let core = source.core else { return -EAGAIN }
        do {
            switch property {
            case "PlaybackStatus": try reply.append(source.observe(core).status)
            case "Rate": try reply.append(core.snapshot(.playback).speedFactor)
            case "Metadata": try append(source.observe(core).metadata, to: reply)
            case "Volume": try reply.append(core.snapshot(.playback).volume)
            case "Position": try reply.append(source.positionMicroseconds(core))
            case "MinimumRate": try reply.append(0.5)
            case "MaximumRate": try reply.append(3.0)
            case "CanGoNext": try reply.append(source.observe(core).canGoNext)
            case "CanGoPrevious": try reply.append(source.observe(core).canGoPrevious)
            case "Shuffle": try reply.append(source.observe(core).shuffle)
            case "LoopStatus": try reply.append(source.observe(core).loopStatus)
            case "CanPlay", "CanPause", "CanSeek", "CanControl": try reply.append(true)
            default: return -ENOENT
            }
        } catch { return -EINVAL }
        return 1
    }

    package override func dispatchSet(_ property: String, _ value: BusMessage, _ refusal: BusSetRefusal) -> Int32 {
        guard let core = source.core else { return -EAGAIN }
        do {
            switch property {
            case "Volume", "Rate":
                var number = try value.readDouble()
                // The spec: a rate of 0 is a pause, a negative volume is 0.
                if property == "Rate", number == 0 {
                    _ = core.perform(.pause)
                    return 1
                }
                if property == "Volume", number < 0 { number = 0 }
                return set(property, to: number, core, refusal)
            case "Shuffle":
                // A book has no shuffle (the dispatcher refuses it): the value stays false.
                if try value.readBool() != source.observe(core).shuffle { _ = core.perform(.toggleShuffle) }
            case "LoopStatus":
                let wanted = try value.readString()
                guard MprisSource.loopStatuses.contains(wanted) else { return -EINVAL }
                // Repeat goes off, all, one and round again: at most two steps to any of them;
                // a refusal (a book) leaves it where it is.
                for _ in 0..<MprisSource.loopStatuses.count where source.observe(core).loopStatus != wanted {
                    if case .refused = core.perform(.cycleRepeat) { break }
                }
            default: return -EPERM
            }
        } catch { return -EINVAL }
        return 1
    }

    /// A number written to Volume or Rate, read by its row of the command
    /// table (`volume`, `speed`) with the row's range, as the socket's `volume
    /// 1.5` is: out of range, the set is refused with the table's sentence.
    private func set(_ property: String, to number: Double, _ core: any PlayerCore, _ refusal: BusSetRefusal) -> Int32 {
        guard let entry = CommandTable.entry(mpris: property, interface: CommandSpec.MprisMember.playerInterface) else {
            return -EPERM
        }
        let action: RemoteAction
        do { action = try entry.action([.double(number)]) } catch {
            return refusal.refuse("org.freedesktop.DBus.Error.InvalidArgs", error.message)
        }
        guard case .perform(let command) = action else { return -EPERM }
        if case .refused(let reason) = core.perform(command) {
            // A client has no keys: the reason names none.
            return refusal.refuse("org.mpris.MediaPlayer2.Interlude.Refused", reason.sentence())
        }
        return 1
    }

    private func append(_ metadata: MprisSource.Metadata, to reply: BusMessage) throws(BusError) {
        try reply.container("a", "{sv}") { () throws(BusError) in
            try reply.entry("mpris:trackid", variant: "o") { () throws(BusError) in try reply.append(objectPath: metadata.trackID) }
            guard !metadata.url.isEmpty else { return }
            if let length = metadata.lengthMicroseconds {
                try reply.entry("mpris:length", variant: "x") { () throws(BusError) in try reply.append(length) }
            }
            try reply.entry("xesam:title", variant: "s") { () throws(BusError) in try reply.append(metadata.title) }
            if !metadata.artist.isEmpty {
                try reply.entry("xesam:artist", variant: "as") { () throws(BusError) in try reply.append(strings: [metadata.artist]) }
            }
            if !metadata.album.isEmpty {
                try reply.entry("xesam:album", variant: "s") { () throws(BusError) in try reply.append(metadata.album) }
            }
            try reply.entry("xesam:url", variant: "s") { () throws(BusError) in try reply.append(metadata.url) }
        }
    }
}
