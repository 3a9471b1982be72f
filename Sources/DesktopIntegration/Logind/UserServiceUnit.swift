/// The systemd user unit `make install` and the Debian package put where
/// `systemctl --user` finds them (`PREFIX/lib/systemd/user/`): the player as
/// a user service (`interlude service`: the core with no terminal, in the
/// foreground, its log on standard error, so in the journal). The wake timer
/// (`WakeTimer`) starts it by this name when it wakes the computer for an
/// alarm, so an alarm rings even when the service had died.
///
/// Not enabled by installing it: the user's `systemctl --user enable --now
/// interlude.service` starts it now and at each login (`WantedBy=default.target`
/// takes effect only then).
public enum UserServiceUnit {
    /// The unit's file name, and the name the wake timer's service wants.
    public static let serviceName = "interlude.service"

    /// The unit, with the installed binary's absolute path (`BINDIR/interlude`);
    /// nil for a path systemd would not run as written (`isPlainExecutablePath`).
    public static func serviceFile(binary: String) -> String? {
        guard isPlainExecutablePath(binary) else { return nil }
        return """
        # Interlude as a systemd user service: playback, alarms, the control
        # socket, MPD and MPRIS with no terminal; `interlude` attaches a screen.
        #   systemctl --user enable --now interlude.service   (now and at each login)
        #
        # Type=exec: the start succeeds once the program runs (a missing binary
        # fails it). Not notify: the service is ready when its control socket
        # listens, which every client already waits for, and a service that
        # never said READY=1 would be killed after TimeoutStartSec.
        #
        # No socket units for the control socket or MPD: the player binds them
        # itself (0600 in a 0700 folder of $XDG_RUNTIME_DIR, the peer's uid
        # checked; MPD's address is in the config file, or off). A listening
        # socket held by systemd would start the player again on any connection
        # after `interlude quit`, and `interlude FILE` could no longer tell
        # whether a player runs. Clients start the service when none answers.
        [Unit]
        Description=Interlude player service (playback and alarms)
        Documentation=man:interlude(1)

        [Service]
        Type=exec
        ExecStart=\(binary) service
        # `interlude quit` and SIGTERM end it with status 0, which is not
        # restarted; a crash is, and its state files bring back the queue,
        # the places and the alarms.
        Restart=on-failure
        RestartSec=2s

        [Install]
        WantedBy=default.target

        """
    }

    /// An absolute path with nothing systemd reads in `ExecStart=`: no space
    /// (word splitting), quote or backslash (escapes), `%` (specifiers), or
    /// control character.
    public static func isPlainExecutablePath(_ path: String) -> Bool {
        path.hasPrefix("/") && path.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !"%\"'\\".unicodeScalars.contains($0) }
    }
}
