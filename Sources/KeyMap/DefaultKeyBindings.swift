extension KeyBindings {
    /// The defaults, close to cmus. Every key the issue names is here; the
    /// additions are cmus habits (`=` for volume up without Shift, `g`/`G`,
    /// Home/End) and keys for the audiobook actions.
    public static let defaults = KeyBindings(defaultList)

    /// The defaults as a list: no key appears twice (a test checks), so no
    /// binding hides another.
    static let defaultList: [(Key, KeyAction)] = [
        // Playback
        (.named(.space), .playPause),
        (.character("n"), .next),
        (.character("p"), .previous),
        (.named(.left), .seekBack),
        (.named(.right), .seekForward),
        (.character("+"), .volumeUp),
        (.character("="), .volumeUp),
        (.character("-"), .volumeDown),
        (.named(.enter), .playSelection),
        (.character("e"), .queueAdd),
        (.character("u"), .shuffleToggle),
        (.character("r"), .repeatCycle),
        (.character("w"), .queueSave),

        // Navigation
        (.named(.up), .up),
        (.character("k"), .up),
        (.named(.down), .down),
        (.character("j"), .down),
        (.named(.pageUp), .pageUp),
        (.named(.pageDown), .pageDown),
        (.named(.home), .top),
        (.character("g"), .top),
        (.named(.end), .bottom),
        (.character("G"), .bottom),
        (.named(.tab), .nextPane),
        (.character("1"), .pane1),
        (.character("2"), .pane2),
        (.character("3"), .pane3),
        (.character("4"), .pane4),
        (.character("5"), .pane5),
        (.character("6"), .pane6),
        (.character("7"), .pane7),
        (.character("8"), .pane8),
        (.character("/"), .filter),
        (.character("9"), .pane9),
        (.character("0"), .pane0),
        (.character("v"), .libraryView),
        (.character("V"), .librarySort),

        // Audiobooks
        (.character(">"), .chapterNext),
        (.character("<"), .chapterPrevious),
        (.character("]"), .speedUp),
        (.character("["), .speedDown),
        (.character("S"), .sleepTimer),
        (.character(","), .skipBack),
        (.character("."), .skipForward),
        (.character("m"), .bookmarkAdd),
        (.named(.delete), .bookmarkDelete),
        (.character("b"), .bookOpen),

        // Alarms pane
        (.character("o"), .alarmNew),
        (.character("E"), .alarmEdit),
        (.character("T"), .alarmToggle),
        (.character("d"), .alarmDelete),

        // Alarm and interruption testing
        (.character("a"), .alarmFireTest),
        (.character("A"), .alarmAsk),
        (.character("z"), .alarmSnooze),
        (.character("x"), .alarmDismiss),
        (.character("s"), .sessionSuspendToggle),
        (.character("c"), .callToggle),
        (.character("N"), .notificationChime),
        (.character("D"), .deviceLost),

        // General
        (.character("?"), .help),
        (.character("t"), .themeCycle),
        (.character("q"), .quit),
    ]
}
