/// What a session plays and how it shares the output, after AVAudioSession.
public struct SessionConfiguration: Sendable, Equatable {
    public var category: SessionCategory
    public var mode: SessionMode
    public var options: SessionOptions
    public var priorityClass: PriorityClass
    /// Who this session stands for, when it is not the player's own (another
    /// program on the sound server, by its `application.name`): carried as the
    /// `sourceLabel` of the notifications it causes. Never used to decide.
    public var label: String?

    public init(
        category: SessionCategory = .playback,
        mode: SessionMode = .default,
        options: SessionOptions = [],
        priorityClass: PriorityClass,
        label: String? = nil
    ) {
        self.category = category
        self.mode = mode
        self.options = options
        self.priorityClass = priorityClass
        self.label = label
    }

    /// A mixable session plays alongside others: it can neither block another
    /// session's activation nor raise the secondary-audio hint. `ambient` mixes by
    /// definition; every option implies mixing (as `duckOthers` does in AVAudioSession).
    public var isMixable: Bool {
        category == .ambient || !options.isEmpty
    }

    /// Which column of the policy table applies when this session is interrupted.
    public var content: SessionContent {
        mode == .spokenAudio ? .spokenAudio : .music
    }
}

public enum SessionCategory: String, Sendable, Equatable, CaseIterable {
    /// Primary audio; not silenced by anything but a higher-priority session.
    case playback
    /// Secondary audio that always mixes with others.
    case ambient
    /// Like ambient but non-mixable: silences other audio.
    case soloAmbient
}

public enum SessionMode: String, Sendable, Equatable, CaseIterable {
    case `default`
    /// Audiobooks and podcasts: paused where music would only be ducked,
    /// because speech under speech is unintelligible.
    case spokenAudio
}

public struct SessionOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let mixWithOthers = SessionOptions(rawValue: 1 << 0)
    public static let duckOthers = SessionOptions(rawValue: 1 << 1)
    public static let interruptSpokenAudioAndMixWithOthers = SessionOptions(rawValue: 1 << 2)
}

/// The kind of content a session plays, the column of the policy table.
public enum SessionContent: String, Sendable, Equatable, CaseIterable {
    case music
    case spokenAudio
}
