/// The policy table of design.md §3.1 as a value: one row per interrupter,
/// what it does to music and to spoken audio of lower priority, and how the
/// interrupted player comes back. The arbiter looks effects up here instead of
/// branching on classes, so changing the policy means changing this data.
public struct InterruptionPolicy: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public let interrupter: Interrupter
        public let music: InterruptionEffect
        public let spokenAudio: InterruptionEffect
        public let autoResume: AutoResume

        public init(_ interrupter: Interrupter, music: InterruptionEffect, spokenAudio: InterruptionEffect, autoResume: AutoResume) {
            self.interrupter = interrupter
            self.music = music
            self.spokenAudio = spokenAudio
            self.autoResume = autoResume
        }

        public func effect(on content: SessionContent) -> InterruptionEffect {
            switch content {
            case .music: music
            case .spokenAudio: spokenAudio
            }
        }
    }

    public let rows: [Row]

    public init(rows: [Row]) { self.rows = rows }

    /// -14 dB is x0.1995; the table rounds it to x0.2 as Android's ducking does.
    public static let duckGain = 0.2

    public static let standard = InterruptionPolicy(rows: [
        Row(.session(.alarm), music: .pause, spokenAudio: .pause, autoResume: .whenEndedWithShouldResume),
        Row(.session(.call), music: .pause, spokenAudio: .pause, autoResume: .whenEndedWithShouldResume),
        Row(.session(.timer), music: .pause, spokenAudio: .pause, autoResume: .whenEndedWithShouldResume),
        // Spoken audio under spoken prompts is unintelligible, so it pauses where music ducks.
        Row(.session(.navigation), music: .duck(gain: duckGain), spokenAudio: .pause, autoResume: .whenEndedWithShouldResume),
        Row(.session(.notification), music: .duck(gain: duckGain), spokenAudio: .duck(gain: duckGain), autoResume: .unduckImmediately),
        // Media never preempts media: two players mix.
        Row(.session(.media), music: .mix, spokenAudio: .mix, autoResume: .never),
        // Not in the §3.1 table as a class, but the same mechanism: a stopped
        // process or a sleeping machine pauses everything and lets it resume.
        Row(.suspension, music: .pause, spokenAudio: .pause, autoResume: .whenEndedWithShouldResume),
        Row(.outputDeviceLost, music: .pause, spokenAudio: .pause, autoResume: .never),
    ])

    /// The row for `interrupter`; an interrupter missing from the table mixes.
    public func row(for interrupter: Interrupter) -> Row {
        rows.first { $0.interrupter == interrupter }
            ?? Row(interrupter, music: .mix, spokenAudio: .mix, autoResume: .never)
    }
}

/// A row key of the policy table.
public enum Interrupter: Hashable, Sendable {
    case session(PriorityClass)
    case suspension
    case outputDeviceLost
}

/// What an interrupter does to a lower-priority session.
public enum InterruptionEffect: Hashable, Sendable {
    /// Fade out and pause: the session is deactivated and gets `began`.
    case pause
    /// Ramp to `gain` and keep playing: the session gets a ducking notification.
    case duck(gain: Double)
    /// Play alongside: nothing happens.
    case mix
}

/// How a paused or ducked session comes back when the interrupter ends.
public enum AutoResume: Hashable, Sendable {
    /// `ended` carries `shouldResume` (when the interrupter notified others on deactivation).
    case whenEndedWithShouldResume
    /// The duck ends the moment the interrupter does.
    case unduckImmediately
    /// `ended` never carries `shouldResume`: the user resumes.
    case never
}
