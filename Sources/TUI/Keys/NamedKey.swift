/// Keys that are not characters, by the names the keys file uses.
///
/// Translating ncurses key codes (`KEY_LEFT`, `KEY_F(1)`, ...) to these
/// belongs to the terminal layer, which is the only code that knows them.
public enum NamedKey: String, CaseIterable, Sendable {
    case left, right, up, down
    case home, end
    case pageUp = "pgup"
    case pageDown = "pgdn"
    case enter, tab, backspace, delete, escape, space
    case f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12
}
