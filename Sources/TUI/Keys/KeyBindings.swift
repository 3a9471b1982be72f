/// Which action each key triggers. A key has at most one action; an action
/// may have several keys (`up` and `k`).
public struct KeyBindings: Sendable, Equatable {
    private var actions: [Key: KeyAction]

    /// No key bound.
    public static let empty = KeyBindings(actions: [:])

    private init(actions: [Key: KeyAction]) { self.actions = actions }

    /// Bindings from a list; a key listed twice keeps its last action, as in the keys file.
    public init(_ bindings: [(Key, KeyAction)]) {
        actions = [:]
        for (key, action) in bindings { actions[key] = action }
    }

    /// The action a key press triggers, or nil when it is unbound.
    public func action(for key: Key) -> KeyAction? { actions[key] }

    /// The keys bound to an action, in help order.
    public func keys(for action: KeyAction) -> [Key] {
        actions.compactMap { $0.value == action ? $0.key : nil }.sorted()
    }

    /// Every binding, by action order then key order.
    public var all: [(key: Key, action: KeyAction)] {
        KeyAction.allCases.flatMap { action in keys(for: action).map { (key: $0, action: action) } }
    }

    /// Binds `key` to `action`, replacing whatever the key did before.
    public mutating func bind(_ key: Key, to action: KeyAction) { actions[key] = action }

    /// Leaves `key` doing nothing. Unbinding an unbound key is not an error:
    /// a keys file written for older defaults stays quiet.
    public mutating func unbind(_ key: Key) { actions[key] = nil }
}
