import PlayerModel

/// The one-line prompts (filters, alarm times, bookmark notes, a station's
/// name): what enter submits, and the line edited as a shell's is: Left and
/// Right, Home and End (Ctrl-A, Ctrl-E), Backspace and Delete, Ctrl-U (to
/// the start), Ctrl-K (to the end), Ctrl-W (the word before); a pre-filled
/// value is selected, so the first character typed replaces it.
extension InterfaceState {
    /// Opens `prompt` with `prefilled` in its line, selected (the cursor at its end).
    mutating func ask(_ prompt: Prompt, prefilled: String = "") {
        self.prompt = prompt
        input = prefilled
        inputCursor = prefilled.count
        inputSelected = !prefilled.isEmpty
    }

    mutating func handlePromptKey(_ key: Key, prompt: Prompt, snapshot: PlayerSnapshot) -> [InterfaceAction] {
        var line = Array(input)
        var cursor = min(max(0, inputCursor), line.count)
        let selected = inputSelected
        inputSelected = false
        switch key.kind {
        case .named(.escape):
            if case .filter(let pane) = prompt { setFilter("", for: pane) }
            self.prompt = nil
            input = ""
            inputCursor = 0
            return []
        case .named(.enter):
            self.prompt = nil
            let text = input.trimmingSpaces
            input = ""
            inputCursor = 0
            return submit(prompt, text, snapshot: snapshot)
        case .named(.backspace):
            if selected {
                line.removeAll()
                cursor = 0
            } else if cursor > 0 {
                line.remove(at: cursor - 1)
                cursor -= 1
            }
        case .named(.delete):
            if selected {
                line.removeAll()
                cursor = 0
            } else if cursor < line.count {
                line.remove(at: cursor)
            }
        case .named(.left): cursor = max(0, cursor - 1)
        case .named(.right): cursor = min(line.count, cursor + 1)
        case .named(.home), .control("a"): cursor = 0
        case .named(.end), .control("e"): cursor = line.count
        case .control("u"):
            line.removeFirst(cursor)
            cursor = 0
        case .control("k"):
            line.removeLast(line.count - cursor)
        case .control("w"):
            // The word before the cursor and the spaces after it, as a shell's Ctrl-W.
            var start = cursor
            while start > 0 && line[start - 1] == " " { start -= 1 }
            while start > 0 && line[start - 1] != " " { start -= 1 }
            line.removeSubrange(start..<cursor)
            cursor = start
        case .named(.space), .character:
            var typed: Character = " "
            if case .character(let character) = key.kind { typed = character }
            if selected {
                line = [typed]
                cursor = 1
            } else {
                line.insert(typed, at: cursor)
                cursor += 1
            }
        default:
            inputSelected = selected
            return []
        }
        input = String(line)
        inputCursor = cursor
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
        case .podcastURL:
            return text.isEmpty ? [] : typed(text, for: .podcastAdd)
        case .opmlPath:
            return text.isEmpty ? [] : typed(text, for: .podcastImport)
        case .podcastRemoval(let id, let title):
            guard ["y", "yes"].contains(text.lowercased()) else {
                message = Message(text: "still subscribed to \(title)", isError: false)
                return []
            }
            return [.player(.removePodcast(podcast: id))]
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
