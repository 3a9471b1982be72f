/// The config file's `mpd` key: where the MPD front end listens. The local
/// socket is on unless `mpd = off`; TCP only when an address is named
/// (`mpd = 127.0.0.1:6600`, or a port alone for the loopback address), and
/// another host's address only when the user writes it.
public enum MPDEndpointSetting: Equatable, Sendable {
    case off
    /// The local socket alone (the default).
    case local
    /// The local socket and TCP at an IPv4 address.
    case tcp(host: String, port: Int)

    public static let accepts = "off, on, a port (127.0.0.1 is then the address) or IPV4:PORT such as 127.0.0.1:6600"

    /// Nil when the value is none of `accepts`.
    public init?(_ value: String) {
        switch value.lowercased() {
        case "off", "no", "false": self = .off
        case "on", "local", "yes", "true": self = .local
        default:
            let parts = value.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, let portText = parts.last, portText.count <= 5, let port = Int(portText),
                  (1...65535).contains(port) else { return nil }
            let host = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
            if host == "localhost" {
                self = .tcp(host: "127.0.0.1", port: port)
                return
            }
            let octets = host.split(separator: ".", omittingEmptySubsequences: false)
            guard octets.count == 4, octets.allSatisfy({ $0.count <= 3 && UInt8($0) != nil }) else { return nil }
            self = .tcp(host: host, port: port)
        }
    }
}
