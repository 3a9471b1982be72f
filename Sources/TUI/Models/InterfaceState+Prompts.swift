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
            return submit(prompt, text, snapshot: snapshot)
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

    mutating func submit(_ prompt: Prompt, _ text: String, snapshot: PlayerSnapshot = PlayerSnapshot()) -> [InterfaceAction] {
        switch prompt {
        case .seekTime:
            return text.isEmpty ? [] : seek(typed: text, snapshot: snapshot)
        case .filter(let pane):
            setFilter(text, for: pane)
            return []
        case .alarmSeconds:
            return text.isEmpty ? [] : typed(text, for: .alarmAsk)
        case .alarmNew:
            return text.isEmpty ? [] : typed(text, for: .alarmNew)
        case .alarmEdit(let id):
            // The id is the alarms pane's selection; the runtime's alarm parser reads the time.
            return text.isEmpty ? [] : [.player(.editAlarm(id: id, schedule: text))]
        case .bookmarkNote:
            return typed(text, for: .bookmarkAdd)
        case .playlistName:
            return text.isEmpty ? [] : typed(text, for: .queueSave)
        case .stationURL:
            return text.isEmpty ? [] : typed(text, for: .stationAdd)
        case .stationName(let url):
            // The station is the pane's selection, found by its URL (its number may have moved meanwhile).
            return text.isEmpty ? [] : [.player(.renameStation(.url(url), name: text))]
        }
    }

    /// What was typed, read by the command table's row for `action` with the
    /// socket's parse and ranges; a refusal is the table's sentence, and nothing reaches the player.
    private mutating func typed(_ text: String, for action: KeyAction) -> [InterfaceAction] {
        do {
            guard case .perform(let command) = try action.entry.action(typed: text) else { return [] }
            return [.player(command)]
        } catch {
            message = Message(text: error.message, isError: true)
            return []
        }
    }

    /// A time typed at the seek prompt, read by the seek-to row as the socket's
    /// `seek-to` reads it: a place from the start becomes a seek from where
    /// the listener is (in the book, for a book), as the socket's does.
    private mutating func seek(typed text: String, snapshot: PlayerSnapshot) -> [InterfaceAction] {
        let action: RemoteAction
        do { action = try KeyAction.seekTo.entry.action(typed: text) } catch {
            message = Message(text: error.message, isError: true)
            return []
        }
        switch action {
        case .perform(let command): return [.player(command)]
        case .seekTo(let seconds):
            guard snapshot.bookPath != nil || snapshot.currentIndex != nil else {
                message = Message(text: "seek-to: nothing is playing", isError: false)
                return []
            }
            return [.player(.seek(seconds: seconds - snapshot.elapsed))]
        default: return []
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
