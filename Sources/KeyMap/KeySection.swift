/// The groups the help listing shows actions in, in display order.
public enum KeySection: String, CaseIterable, Sendable {
    case playback = "Playback"
    case navigation = "Navigation"
    case audiobooks = "Audiobooks"
    case alarms = "Alarms"
    case alarmTesting = "Alarm and interruption testing"
    case general = "General"
}
