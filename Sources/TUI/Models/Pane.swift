/// The five panes, in the order Tab and the digit keys use.
public enum Pane: Int, CaseIterable, Sendable {
    case browser = 1
    case queue
    case nowPlaying
    case alarms
    case eventLog

    public var title: String {
        switch self {
        case .browser: "Browser"
        case .queue: "Queue"
        case .nowPlaying: "Now playing"
        case .alarms: "Alarms"
        case .eventLog: "Event log"
        }
    }

    /// A short title for the tab row of the one-pane layout.
    public var shortTitle: String {
        switch self {
        case .browser: "Browse"
        case .queue: "Queue"
        case .nowPlaying: "Now"
        case .alarms: "Alarms"
        case .eventLog: "Log"
        }
    }

    public var next: Pane { Pane(rawValue: rawValue % Pane.allCases.count + 1)! }
}
