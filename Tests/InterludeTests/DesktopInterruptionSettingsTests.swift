import LoopIO
import DesktopIntegration
import AudioSession
import InterludeCore
@testable import Interlude
import PlayerModel
import Testing

/// The role table's config keys, the reconnection backoff and how a desktop
/// program's interruption prints: the pure parts of desktop interruptions.
struct DesktopInterruptionSettingsTests {
    @Test func theDefaultTableMapsPhoneAlarmEventAndNotification() {
        let (settings, problems) = DesktopInterruptionSettings.parse("", path: "/c")
        #expect(problems.isEmpty)
        #expect(settings.enabled)
        #expect(settings.roles == ["phone": .call, "alarm": .alarm, "event": .navigation, "notification": .navigation])
        #expect(settings.roles["music"] == nil && settings.roles["video"] == nil)
    }

    @Test func keysChangeTheTableAndOtherReadersKeysAreLeftAlone() {
        let text = """
            # interlude config
            on-event = notify-send hello
            desktop-interruptions = on
              desktop-role.event = notification
            desktop-role.notification = ignore
            desktop-role.game = alarm\r

            """
        let (settings, problems) = DesktopInterruptionSettings.parse(text, path: "/c")
        #expect(problems.isEmpty)
        #expect(settings.enabled)
        #expect(settings.roles == ["phone": .call, "alarm": .alarm, "event": .notification, "game": .alarm])
    }

    @Test func offTurnsItOff() {
        #expect(!DesktopInterruptionSettings.parse("desktop-interruptions = off\n", path: "/c").settings.enabled)
        #expect(!DesktopInterruptionSettings.parse("desktop-interruptions=no", path: "/c").settings.enabled)
    }

    @Test func badValuesAreReportedWithFileLineAndKeyAndDefaultsKept() {
        let text = "desktop-interruptions = maybe\ndesktop-role.phone = loud\ndesktop-role.alarm = media\ndesktop-role. = call\n"
        let (settings, problems) = DesktopInterruptionSettings.parse(text, path: "/home/me/.config/interlude/config")
        #expect(settings == DesktopInterruptionSettings())
        #expect(problems.map(\.description) == [
            "/home/me/.config/interlude/config:1: desktop-interruptions is 'maybe'; use on or off",
            "/home/me/.config/interlude/config:2: desktop-role.phone is 'loud'; use one of alarm, call, timer, navigation, notification, ignore",
            "/home/me/.config/interlude/config:3: desktop-role.alarm is 'media'; use one of alarm, call, timer, navigation, notification, ignore",
            "/home/me/.config/interlude/config:4: desktop-role. names no media.role",
        ])
    }

    @Test func backoffDoublesToThirtySecondsAndStartsAgainOnceConnected() {
        var backoff = ReconnectBackoff()
        let delays = (0..<9).map { _ in backoff.failed() }
        #expect(delays == [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000])
        backoff.connected()
        #expect(backoff.failed() == 500)
    }

    @Test func theWakeTimersBackoffDoublesFromASecondToAMinute() {
        var backoff = WakeTimer.retry()
        let delays = (0..<8).map { _ in backoff.failed() }
        #expect(delays == [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000])
        backoff.connected()
        #expect(backoff.failed() == 1000)
    }

    func line(_ event: PlayerEvent) -> String {
        JSONEventPrinter.line(TimedPlayerEvent(time: 1.5, event: event))
    }

    @Test("a desktop program's interruption prints the program as source and its class after it")
    func labelledInterruptionPrintsProgramAndClass() {
        let source = InterruptionSource.session(SessionID(rawValue: 3), .call)
        let began = InterruptionNotification(kind: .began, options: [], reason: .default, wasSuspended: false,
                                             interruptionID: InterruptionID(rawValue: 2), source: source,
                                             time: MonotonicInstant(sinceOrigin: .zero), sourceLabel: "paplay")
        #expect(line(.interruption(began)) == #"{"t":1.500000,"event":"interruption","type":"began","options":[],"reason":"default","wasSuspended":false,"id":2,"source":"paplay","class":"call"}"#)
        let unlabelled = InterruptionNotification(kind: .began, options: [], reason: .default, wasSuspended: false,
                                                  interruptionID: InterruptionID(rawValue: 2), source: source,
                                                  time: MonotonicInstant(sinceOrigin: .zero))
        #expect(line(.interruption(unlabelled)) == #"{"t":1.500000,"event":"interruption","type":"began","options":[],"reason":"default","wasSuspended":false,"id":2,"source":"call"}"#)
        let duck = DuckingNotification(kind: .began, gain: 0.2, interruptionID: InterruptionID(rawValue: 4),
                                       source: .session(SessionID(rawValue: 5), .navigation),
                                       time: MonotonicInstant(sinceOrigin: .zero), sourceLabel: "paplay")
        #expect(line(.ducking(duck)) == #"{"t":1.500000,"event":"ducking","type":"began","gain":0.200,"source":"paplay","class":"navigation"}"#)
        let chime = DuckingNotification(kind: .began, gain: 0.2, interruptionID: InterruptionID(rawValue: 4),
                                        source: .session(SessionID(rawValue: 5), .notification),
                                        time: MonotonicInstant(sinceOrigin: .zero))
        #expect(line(.ducking(chime)) == #"{"t":1.500000,"event":"ducking","type":"began","gain":0.200}"#)
    }
}
