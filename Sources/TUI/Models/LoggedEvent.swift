import PlayerModel

/// One line of the event log pane: a player event as the player reported
/// it (typed, the same stream `--events json` prints), or a key that asked
/// the player for something, with the player's time.
public struct LoggedEvent: Equatable, Sendable {
    public enum Entry: Equatable, Sendable {
        case player(PlayerEvent)
        /// A key press that is a player action (moving around is not logged).
        case key(KeyAction)
    }

    /// Seconds since the player started, on the player's clock.
    public var time: Double
    public var entry: Entry

    public init(time: Double, event: PlayerEvent) {
        self.time = time
        entry = .player(event)
    }

    public init(_ timed: TimedPlayerEvent) {
        self.init(time: timed.time, event: timed.event)
    }

    public init(time: Double, key: KeyAction) {
        self.time = time
        entry = .key(key)
    }

    public var name: String {
        switch entry {
        case .player(let event): event.name
        case .key: "key"
        }
    }

    public var fields: [EventField] {
        switch entry {
        case .player(let event): event.fields
        case .key(let action): [EventField("action", .string(action.rawValue))]
        }
    }

    public func string(_ key: String) -> String? {
        guard case .string(let text)? = fields.first(where: { $0.key == key })?.value else { return nil }
        return text
    }

    /// `name key=value ...`, the log pane's text after the time.
    public var summary: String {
        ([name] + fields.map { "\($0.key)=\(Self.text(of: $0.value))" }).joined(separator: " ")
    }

    /// A field's value as the log shows it: numbers as printed (to their
    /// decimals), then without trailing zeros when whole, else to 3 decimals.
    static func text(of value: EventField.Value) -> String {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .number(let number, let decimals):
            guard number.isFinite else { return "null" }
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let printed = (number < 0 ? -1 : 1) * (abs(number) * scale).rounded() / scale
            if printed == printed.rounded(), abs(printed) < 1e15 { return String(Int(printed)) }
            return fixed(printed, decimals: 3)
        case .bool(let flag): return flag ? "true" : "false"
        case .strings(let texts): return "[" + texts.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        case .integers(let numbers): return "[" + numbers.map(String.init).joined(separator: ",") + "]"
        case .null: return "null"
        }
    }

    /// A number with exactly `decimals` decimals.
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        var fraction = String(scaled % scale)
        while fraction.count < decimals { fraction = "0" + fraction }
        return (value < 0 ? "-" : "") + "\(scaled / scale).\(fraction)"
    }
}
