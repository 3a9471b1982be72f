/// The XDG base directories Interlude uses, from an injected environment so
/// tests can point state at a temporary directory.
public struct XDGDirectories: Sendable, Equatable {
    public let stateHome: String
    public let configHome: String
    /// `$XDG_DATA_HOME`, default `~/.local/share`: podcasts and their downloads.
    public let dataHome: String

    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        // The spec says a relative value is invalid and must be ignored.
        func absolute(_ key: String) -> String? {
            guard let value = environment[key], value.hasPrefix("/") else { return nil }
            return value
        }
        stateHome = absolute("XDG_STATE_HOME") ?? Self.join(home, ".local/state")
        configHome = absolute("XDG_CONFIG_HOME") ?? Self.join(home, ".config")
        dataHome = absolute("XDG_DATA_HOME") ?? Self.join(home, ".local/share")
    }

    /// `$XDG_STATE_HOME/interlude`.
    public var interludeState: String { Self.join(stateHome, "interlude") }
    /// `$XDG_CONFIG_HOME/interlude`.
    public var interludeConfig: String { Self.join(configHome, "interlude") }

    /// `$XDG_DATA_HOME/interlude`.
    public var interludeData: String { Self.join(dataHome, "interlude") }

    private static func join(_ base: String, _ relative: String) -> String {
        base.hasSuffix("/") ? base + relative : base + "/" + relative
    }
}
