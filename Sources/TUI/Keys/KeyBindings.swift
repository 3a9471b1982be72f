import PlayerModel

/// What one key is bound to: its action and, for the command table's rows
/// with a plain command (play-pause, snooze, quit), the `PlayerCommand` the
/// table reads it as, found once when the key is bound, so that a press is
/// one look-up with no table search or parse.
public struct KeyBinding: Sendable, Equatable {
    public let action: KeyAction
    /// `CommandSpec.plainCommand` of the action's row; nil for the screen's own
    /// actions and for those whose arguments come from the screen (a prompt, the selection).
    public let command: PlayerCommand?

    init(_ action: KeyAction) {
        self.action = action
        command = action.entry.plainCommand
    }
}

/// Which action each key triggers. A key has at most one action; an action
/// may have several keys (`up` and `k`).
public struct KeyBindings: Sendable, Equatable {
    /// Every bound key's binding: what a press reads.
    public private(set) var table: [Key: KeyBinding]

    /// No key bound.
    public static let empty = KeyBindings(table: [:])

    private init(table: [Key: KeyBinding]) { self.table = table }

    /// Bindings from a list; a key listed twice keeps its last action, as in the keys file.
    public init(_ bindings: [(Key, KeyAction)]) {
        table = [:]
        for (key, action) in bindings { bind(key, to: action) }
    }

    /// The action a key press triggers, or nil when it is unbound.
    public func action(for key: Key) -> KeyAction? { table[key]?.action }

    /// The keys bound to an action, in help order.
    public func keys(for action: KeyAction) -> [Key] {
        table.compactMap { $0.value.action == action ? $0.key : nil }.sorted()
    }

    /// The first key bound to `action` now, as the keys file spells it (the
    /// one help lists first), for a hint to name; nil when it is unbound.
    public func name(of action: KeyAction) -> String? { keys(for: action).first?.description }

    /// Every binding, by action order then key order.
    public var all: [(key: Key, action: KeyAction)] {
        KeyAction.allCases.flatMap { action in keys(for: action).map { (key: $0, action: action) } }
    }

    /// Binds `key` to `action`, replacing whatever the key did before.
    public mutating func bind(_ key: Key, to action: KeyAction) { table[key] = KeyBinding(action) }

    /// Leaves `key` doing nothing. Unbinding an unbound key is not an error:
    /// a keys file written for older defaults stays quiet.
    public mutating func unbind(_ key: Key) { table[key] = nil }
}
