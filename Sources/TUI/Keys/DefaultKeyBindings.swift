import PlayerModel

extension KeyBindings {
    /// The defaults, close to cmus: the command table's default keys. Every
    /// key the issue names is there; the additions are cmus habits (`=` for
    /// volume up without Shift, `g`/`G`, Home/End) and keys for the audiobook
    /// actions.
    public static let defaults = KeyBindings(defaultList)

    /// The defaults as a list: no key appears twice (a test checks), so no
    /// binding hides another. Every key the table writes parses (a test checks).
    static let defaultList: [(Key, KeyAction)] = KeyAction.allCases.flatMap { action in
        action.entry.defaultKeys.map { (Key(parsing: $0)!, action) }
    }
}
