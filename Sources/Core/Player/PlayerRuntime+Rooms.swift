import Alarms
import AudioEngine
import Rooms

/// Snapcast's rooms, as far as the core is concerned: an alarm that names
/// rooms, played into a Snapcast stream, carries silence on both sides of its
/// sound (`RoomAlarm.defaultGap`), in which the rooms it does not name are
/// silenced and given back their volume (`SnapcastRooms`, a service).
extension PlayerRuntime {
    package func roomGapFrames(for alarm: Alarm?) -> Int {
        guard let alarm, !alarm.rooms.isEmpty, case .snapcast = configuration.output else { return 0 }
        return format.frames(forSeconds: Double(RoomAlarm.defaultGapMilliseconds) / 1000)
    }
}
