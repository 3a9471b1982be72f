import InterludeCore

/// A Snapcast client as the server's `Server.GetStatus` lists it: a room.
public struct SnapcastRoom: Sendable, Equatable {
    /// The client's id (its `--hostID`, else its MAC address).
    public var id: String
    /// The name given to it in the server (`Client.SetName`), often empty.
    public var name: String
    /// Its machine's host name.
    public var hostName: String
    public var groupID: String
    public var groupName: String
    /// The stream its group plays.
    public var streamID: String
    public var percent: Int
    public var muted: Bool
    public var connected: Bool

    public init(id: String, name: String = "", hostName: String = "", groupID: String = "", groupName: String = "",
                streamID: String = "", percent: Int = 100, muted: Bool = false, connected: Bool = true) {
        self.id = id
        self.name = name
        self.hostName = hostName
        self.groupID = groupID
        self.groupName = groupName
        self.streamID = streamID
        self.percent = percent
        self.muted = muted
        self.connected = connected
    }

    /// Whether `word` (from an alarm's `--rooms`) names this room: its id,
    /// its name, its host name, or its group's name or id, case aside.
    public func isNamed(_ word: String) -> Bool {
        let wanted = word.lowercased()
        return [id, name, hostName, groupName, groupID].contains { !$0.isEmpty && $0.lowercased() == wanted }
    }
}

/// What the server said could not be read as its status.
public struct SnapcastReplyError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension SnapcastRoom {
    /// The most rooms taken from one status (a house has a few; a server
    /// that lists more is not believed past this).
    public static let limit = 256
    /// Longest name kept.
    static let nameLimit = 256

    /// The rooms in a `Server.GetStatus` reply (`result.server.groups[].clients[]`).
    /// Every field comes from the network: strings are cut at `nameLimit`,
    /// the volume kept within 0...100, and at most `limit` rooms are read.
    public static func rooms(inStatusReply reply: JSONValue) throws(SnapcastReplyError) -> [SnapcastRoom] {
        if let error = reply["error"], error != .null {
            throw SnapcastReplyError(message: "Server.GetStatus: " + (error["message"]?.stringValue ?? "refused"))
        }
        guard let groups = reply["result"]?["server"]?["groups"]?.arrayValue else {
            throw SnapcastReplyError(message: "Server.GetStatus: no groups in the reply")
        }
        func text(_ value: JSONValue?) -> String { String((value?.stringValue ?? "").prefix(nameLimit)) }
        var rooms: [SnapcastRoom] = []
        for group in groups {
            for client in group["clients"]?.arrayValue ?? [] where rooms.count < limit {
                let volume = client["config"]?["volume"]
                let percent = volume?["percent"]?.integerValue.map { Int(min(max($0, 0), 100)) } ?? 100
                rooms.append(SnapcastRoom(id: text(client["id"]), name: text(client["config"]?["name"]),
                                          hostName: text(client["host"]?["name"]), groupID: text(group["id"]),
                                          groupName: text(group["name"]), streamID: text(group["stream_id"]),
                                          percent: percent, muted: volume?["muted"]?.boolValue ?? false,
                                          connected: client["connected"]?.boolValue ?? false))
            }
        }
        return rooms
    }
}
