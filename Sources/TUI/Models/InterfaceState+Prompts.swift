import InterludeCore
import PlayerModel

/// The one-line prompts (filters, alarm times, bookmark notes): typing, and what enter submits.
extension InterfaceState {
    mutating func handlePromptKey(_ key: Key, prompt: Prompt, snapshot: PlayerSnapshot) -> [InterfaceAction] {
        switch key.kind {
        case .named(.escape):
            if case .filter(let pane) = prompt { setFilter("", for: pane) }
            self.prompt = nil
            input = ""
            return []
        case .named(.backspace):
            if !input.isEmpty { input.removeLast() }
        case .named(.enter):
            self.prompt = nil
            let text = input.trimmingSpaces
            input = ""
            return submit(prompt, text)
        case .named(.space):
            input.append(" ")
        case .character(let character):
            input.append(character)
        default:
            return []
        }
        if case .filter(let pane) = prompt { setFilter(input, for: pane) }
        return []
    }

    /// A week at most, as `alarm add in` allows.
    static let alarmSecondsRange = CountRange(1...7 * 24 * 3600, unit: "seconds")

    mutating func submit(_ prompt: Prompt, _ text: String) -> [InterfaceAction] {
        switch prompt {
        case .filter(let pane):
            setFilter(text, for: pane)
            return []
        case .alarmSeconds:
            guard let seconds = Self.alarmSecondsRange.parse(text) else {
                if !text.isEmpty {
                    message = Message(text: "'\(text)' is not \(Self.alarmSecondsRange.accepts)", isError: true)
                }
                return []
            }
            return [.player(.addAlarm(afterSeconds: seconds))]
        case .alarmNew:
            return text.isEmpty ? [] : [.player(.addAlarmSchedule(text))]
        case .alarmEdit(let id):
            return text.isEmpty ? [] : [.player(.editAlarm(id: id, schedule: text))]
        case .bookmarkNote:
            return [.player(.addBookmark(note: text.isEmpty ? nil : text))]
        case .playlistName:
            return text.isEmpty ? [] : [.player(.saveQueue(path: text))]
        }
    }

    func currentFilter(_ pane: Pane) -> String {
        switch pane {
        case .browser: browser?.filter ?? ""
        case .queue: queueFilter
        case .eventLog: logFilter
        case .library: library?.filter ?? ""
        default: ""
        }
    }

    mutating func setFilter(_ text: String, for pane: Pane) {
        switch pane {
        case .browser: browser?.setFilter(text)
        case .queue: queueFilter = text; queueCursor = ListCursor()
        case .eventLog: logFilter = text; logFollows = true
        case .library: library?.setFilter(text)
        default: break
        }
    }
}

extension String {
    var trimmingSpaces: String {
        let start = drop { $0 == " " }
        guard let last = start.lastIndex(where: { $0 != " " }) else { return "" }
        return String(start[...last])
    }
}
