import LoopIO
import Alarms
import AudioSession
import InterludeCore
@testable import Interlude
import PlayerModel
import Testing

/// `--events json` lines for event shapes the recorded scenarios do not
/// reach, written as the string-building printer wrote them before events
/// were typed: field order, names and each number's decimals.
struct JSONEventPrinterTests {
    func line(_ event: PlayerEvent, at time: Double = 1.5) -> String {
        JSONEventPrinter.line(TimedPlayerEvent(time: time, event: event))
    }

    @Test("moves, resumes and the user's settings")
    func playback() {
        #expect(line(.jump(index: 2, offset: 3, whilePaused: true))
                == #"{"t":1.500000,"event":"jump","index":2,"offset":3.000000,"whilePaused":true}"#)
        #expect(line(.resumed(.fadeCancelled(position: 1.25)))
                == #"{"t":1.500000,"event":"resumed","position":1.250000,"rewind":0.000000,"fadeCancelled":true}"#)
        #expect(line(.resumed(.jumped(index: 1, offset: 0.5)))
                == #"{"t":1.500000,"event":"resumed","index":1,"offset":0.500000}"#)
        #expect(line(.resumed(.rewound(position: 10, rewind: 2.0005)))
                == #"{"t":1.500000,"event":"resumed","position":10.000000,"rewind":2.000500}"#)
        #expect(line(.resumeRequested(.automatic)) == #"{"t":1.500000,"event":"resumeRequested","trigger":"automatic"}"#)
        #expect(line(.volume(0.55)) == #"{"t":1.500000,"event":"volume","volume":0.550}"#)
        #expect(line(.speed(1.05)) == #"{"t":1.500000,"event":"speed","speed":1.050}"#)
        #expect(line(.enqueued(count: 3)) == #"{"t":1.500000,"event":"enqueued","count":3}"#)
        #expect(line(.underrun(.starved)) == #"{"t":1.500000,"event":"underrun","cause":"starved"}"#)
        #expect(line(.error("a \"b\"")) == #"{"t":1.500000,"event":"error","message":"a \"b\""}"#)
    }

    @Test("alarms")
    func alarms() {
        let id = AlarmID(rawValue: 4)
        #expect(line(.alarmAdded(id, .inSeconds(5))) == #"{"t":1.500000,"event":"alarmAdded","alarm":4,"in":5}"#)
        #expect(line(.alarmAdded(id, .at("07:30"))) == #"{"t":1.500000,"event":"alarmAdded","alarm":4,"at":"07:30"}"#)
        #expect(line(.alarmEdited(id, schedule: "in 5m")) == #"{"t":1.500000,"event":"alarmEdited","alarm":4,"at":"in 5m"}"#)
        #expect(line(.alarmWake(at: 1_800_000_000, reason: nil))
                == #"{"t":1.500000,"event":"alarmWake","wakes":"wakes the computer","at":1800000000}"#)
        #expect(line(.alarmWake(at: nil, reason: "no user manager on the session bus"))
                == #"{"t":1.500000,"event":"alarmWake","wakes":"rings only while the computer is awake","reason":"no user manager on the session bus"}"#)
        #expect(line(.alarmRinging([AlarmID(rawValue: 1), AlarmID(rawValue: 2)]))
                == #"{"t":1.500000,"event":"alarmRinging","alarms":[1,2]}"#)
        #expect(line(.alarmEnded(.snoozed(until: 0))) == #"{"t":1.500000,"event":"alarmEnded","reason":"snoozed"}"#)
        let began = InterruptionNotification(kind: .began, options: [], reason: .routeDisconnected, wasSuspended: false,
                                             interruptionID: InterruptionID(rawValue: 3), source: .outputDeviceLost,
                                             time: .origin)
        #expect(line(.interruption(began)) == #"{"t":1.500000,"event":"interruption","type":"began","options":[],"#
                + #""reason":"routeDisconnected","wasSuspended":false,"id":3,"source":"outputDeviceLost"}"#)
    }

    @Test("books: optional fields appear only when set")
    func books() {
        let opening = BookOpening(path: "/b", title: "T", author: nil, duration: 12, chapters: 3, position: 1.5,
                                  saved: 2, rewind: 0.5, chapter: 0, chapterTitle: "One", speed: 1.25)
        #expect(line(.bookOpened(opening)) == #"{"t":1.500000,"event":"bookOpened","path":"/b","title":"T","#
                + #""duration":12.000,"chapters":3,"position":1.500,"saved":2.000,"rewind":0.500,"chapter":0,"#
                + #""chapterTitle":"One","speed":1.25}"#)
        #expect(line(.sleepTimerSet(setting: "end of chapter", remaining: nil))
                == #"{"t":1.500000,"event":"sleepTimerSet","setting":"end of chapter"}"#)
        #expect(line(.sleepTimerSet(setting: "5 min", remaining: 300))
                == #"{"t":1.500000,"event":"sleepTimerSet","setting":"5 min","remaining":300.000}"#)
        #expect(line(.sleepTimerOff(reason: nil)) == #"{"t":1.500000,"event":"sleepTimerOff"}"#)
        #expect(line(.sleepTimerOff(reason: .resumed)) == #"{"t":1.500000,"event":"sleepTimerOff","reason":"resumed"}"#)
        #expect(line(.bookmarkAdded(id: 2, position: 61.25)) == #"{"t":1.500000,"event":"bookmarkAdded","id":2,"position":61.250}"#)
        #expect(line(.bookSeek(BookSeek(reason: .seekBack, from: 20, position: 10, chapter: 1, chapterTitle: "Two")))
                == #"{"t":1.500000,"event":"bookSeek","reason":"seekBack","from":20.000,"position":10.000,"chapter":1,"#
                + #""chapterTitle":"Two"}"#)
    }
}
