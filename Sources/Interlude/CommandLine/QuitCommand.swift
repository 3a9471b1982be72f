import InterludeCore
import LoopIO
#if canImport(Glibc)
import Glibc
#endif

/// `interlude quit`: the player stops (the service and every screen, or a
/// player in the foreground), keeping the queue, the book's place and the
/// alarms; when alarms are on, it says they will not ring until it runs again.
enum QuitCommand {
    static let help = """
    usage: interlude quit

    Stops the player: the service in the background and every screen
    attached to it (Q in a screen does the same; q only leaves the screen).
    The queue, the book's place and the alarms are kept; alarms do not ring
    until the player runs again ('interlude', 'interlude service', or the
    systemd user unit).
    """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            writeStandardOutput(help + "\n")
            return 0
        }
        guard arguments.isEmpty else {
            writeStandardError("interlude quit: takes no arguments\n")
            return 2
        }
        let client: ControlClient
        switch ControlClient.connect(instance: 1) {
        case .success(let connected): client = connected
        case .failure(let message):
            writeStandardError("interlude quit: \(message)\n")
            return 3
        }
        // The alarms that will fall silent, asked before the player goes.
        var enabled = 0
        if case .reply(let reply) = client.request(.init(command: "alarm-list", arguments: [])) {
            enabled = (reply["result"]?.arrayValue ?? []).filter { $0["enabled"]?.boolValue == true }.count
        }
        switch client.request(.init(command: "quit", arguments: [])) {
        case .reply(let reply) where reply["ok"]?.boolValue == true: break
        case .reply(let reply):
            writeStandardError("interlude quit: \(reply["error"]?.stringValue ?? "refused")\n")
            return 1
        case .closed: break
        case .timedOut:
            writeStandardError("interlude quit: \(client.silence)\n")
            return 3
        }
        writeStandardOutput(FullScreenPlayer.stoppedLine(enabledAlarms: enabled) + "\n")
        return 0
    }
}
