/// Every part of the screen a theme styles. The raw values are the names
/// used in theme files; they are stable, since user themes depend on them.
public enum ThemeElement: String, CaseIterable, Sendable {
    // Frame
    case titleBar = "title-bar"
    case statusLine = "status-line"
    /// The input line at the bottom: filter text, "alarm in how many seconds?".
    case commandLine = "command-line"
    case paneBorder = "pane-border"
    case paneTitleActive = "pane-title-active"
    case paneTitleInactive = "pane-title-inactive"

    // Lists (browser, queue, alarms, log)
    case listRow = "list-row"
    case directoryRow = "directory-row"
    case selectedRowFocused = "selected-row-focused"
    case selectedRowUnfocused = "selected-row-unfocused"
    case playingRow = "playing-row"
    case playingRowSelected = "playing-row-selected"

    // Now playing
    case progressFilled = "progress-filled"
    case progressEmpty = "progress-empty"

    // The alarm banner: must stand out from everything else on screen.
    case banner = "banner"
    case bannerCountdown = "banner-countdown"
    case errorText = "error-text"

    // Event log
    case logBegan = "log-began"
    case logEnded = "log-ended"
    case logAction = "log-action"

    // Alarms pane
    case alarmEnabled = "alarm-enabled"
    case alarmDisabled = "alarm-disabled"

    // Help listing and secondary information
    case helpHeading = "help-heading"
    case helpKey = "help-key"
    case helpText = "help-text"
    case secondaryText = "secondary-text"

    /// The attributes this element gets on a terminal without colour (TERM=vt100).
    ///
    /// Themes are about colour, so monochrome ignores them and uses this one
    /// table: every theme looks the same there, and what must be told apart
    /// (selection, playing row, banner, active pane) still is. Only bold,
    /// underline and reverse are used because a vt100 has nothing else
    /// reliable (no dim, no italic).
    public var monochromeAttributes: TextAttributes {
        switch self {
        case .titleBar, .statusLine, .selectedRowFocused, .progressFilled: .reverse
        case .paneTitleActive, .playingRowSelected, .banner, .bannerCountdown: [.reverse, .bold]
        case .paneTitleInactive, .selectedRowUnfocused: .underline
        case .directoryRow, .playingRow, .errorText, .logBegan, .alarmEnabled, .helpKey: .bold
        case .helpHeading: [.bold, .underline]
        case .commandLine, .paneBorder, .listRow, .progressEmpty, .logEnded, .logAction,
             .alarmDisabled, .helpText, .secondaryText: []
        }
    }
}
