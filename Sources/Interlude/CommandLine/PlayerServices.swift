import RemoteControl
import LoopIO
import LibraryIO
import DesktopIntegration
import Core
import AudioEngine
import InterludeCore
import PlayerModel

/// What the player offers the rest of the system for the whole run, whichever
/// front end drives it: the control socket (`interlude remote`), the event
/// hook, MPRIS on the session bus, logind's sleep announcements, other
/// programs' streams on the sound server, and the full-screen player's live
/// library index. Opened once, by `PlayerRuntime.startServices`, polled in the
/// runtime's loop after the host's input, and shut down as the run ends.
final class PlayerServices: LoopSources {
    let control: ControlSocket?
    /// The MPD protocol's socket, for mpc, ncmpcpp and phone apps.
    let mpd: MPDServer?
    let hook: EventHook?
    let mpris: MprisSource?
    let logind: LogindSleepSource?
    let desktop: DesktopInterruptionSource?
    /// Snapcast's rooms, while the output is a Snapcast stream: alarms that name rooms.
    let rooms: SnapcastRooms?
    /// The library pane's index, opened by the full-screen player once its screen is up.
    var library: LibraryLiveIndex?
    /// alarms.json changed by `interlude alarm` or another player: the full-screen player reads the alarms again.
    var stateWatch: StateFolderWatch?
    /// podcasts.json changed by `interlude podcast` or another player: the podcasts pane lists them again.
    var podcastWatch: StateFolderWatch?

    /// `instance`: the control socket's name (a second player takes the next).
    /// `buses`: MPRIS and logind; a render to a file is no player to control.
    /// `--events json`'s standard output, written without blocking the loop.
    let eventOutput: EventLineOutput?

    init(events: PlayerEventStream, output: PlaybackEngine.Output, instance: Int, buses: Bool, alarmTimeZone: TimeZoneRules,
         eventOutput: EventLineOutput?, settings: PlayerConfigFile) {
        self.eventOutput = eventOutput
        control = ControlSocket.open(instance: instance, events: events)
        mpd = MPDServer.open(instance: instance, events: events, environment: ProcessEnvironment.current(), config: settings)
        hook = EventHook.fromConfig(settings, events: events)
        mpris = buses ? MprisSource.open(events: events, quietWithoutBus: true, alarmTimeZone: alarmTimeZone,
                                         alarmNotifyLead: settings.alarmNotifyLead) : nil
        logind = buses ? LogindSleepSource.open(events: events) : nil
        desktop = DesktopInterruptionSource.forPlayback(output: output, config: settings,
                                                        report: { [events] in events.error($0) })
        if case .snapcast(let stream) = output {
            rooms = SnapcastRooms(stream: stream, fade: .milliseconds(30), events: events)
        } else {
            rooms = nil
        }
    }

    /// Adds them to `sources` in the order the loop services them (asked before every wait, so no array of its own).
    func appendSources(to sources: inout [LoopSource]) {
        if let control { sources.append(control) }
        if let mpd { sources.append(mpd) }
        if let hook { sources.append(hook) }
        if let mpris { sources.append(mpris) }
        if let desktop { sources.append(desktop) }
        if let logind { sources.append(logind) }
        if let rooms { sources.append(rooms) }
        if let library { sources.append(library) }
        if let stateWatch { sources.append(stateWatch) }
        if let podcastWatch { sources.append(podcastWatch) }
        if let eventOutput { sources.append(eventOutput) }
    }

    func shutDown() {
        control?.shutDown()
        mpd?.shutDown()
        rooms?.shutDown()
    }
}

extension PlayerRuntime {
    /// Opens the services for the run; the loop polls them from its next wait,
    /// and the host shuts them down as it leaves.
    func startServices(instance: Int, buses: Bool, eventOutput: EventLineOutput? = nil) -> PlayerServices {
        let services = PlayerServices(events: events, output: configuration.output, instance: instance, buses: buses,
                                      alarmTimeZone: configuration.alarmTimeZone, eventOutput: eventOutput,
                                      settings: configuration.settings)
        self.services = services
        // No session bus, no user manager to ask.
        wakeLabel = services.mpris == nil ? AlarmWakeLabel.awakeOnly("no session bus") : ""
        return services
    }
}

extension PlayerConfigFile {
    /// `alarm-notify`: how long before an alarm its desktop notification comes; nil for none (0).
    var alarmNotifyLead: Duration? {
        guard let seconds = alarmNotify else { return AlarmNotifications.defaultLead }
        return seconds > 0 ? .milliseconds(Int64((seconds * 1000).rounded())) : nil
    }
}
