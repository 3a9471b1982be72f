/// One favourite station: what the radio pane and `station list` show, and
/// the URL it plays.
public struct Station: Equatable, Sendable {
    public var name: String
    /// An `http(s)://` URL, as `StreamLocation` accepts it.
    public var url: String

    public init(name: String, url: String) {
        self.name = name
        self.url = url
    }
}

/// Why an edit of the station list was not made: one sentence for the user.
public struct StationEditError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The favourite stations, in the listener's order, numbered from 1 as the
/// pane and `interlude remote station ...` number them. A station is known by
/// its URL: the list holds each URL once (the pane's edits find it by it).
public struct StationList: Equatable, Sendable {
    public private(set) var stations: [Station]

    /// More favourites than anyone keeps; bounds the file and the pane.
    public static let maximumCount = 1000
    /// A name longer than this is cut: the pane shows one line of it.
    public static let maximumNameCharacters = 200

    public init(_ stations: [Station] = []) {
        self.stations = stations
    }

    /// The station numbered `number` (from 1).
    public func station(_ number: Int) throws(StationEditError) -> Station {
        try stations[index(of: number)]
    }

    /// Adds `url` under `name` (typed), else the station's own ICY name,
    /// else its host; the new station's number. Refuses what is not an
    /// http(s) URL (`StreamLocation`), a URL already in the list, and a full list.
    @discardableResult
    public mutating func add(url: String, name: String?, icy: ICYHeaders? = nil) throws(StationEditError) -> Int {
        let checked: StreamURL
        switch StreamLocation.classify(url) {
        case .url(let stream): checked = stream
        case .path: throw StationEditError("'\(Self.shown(url))' is not a station's URL (http:// or https://)")
        case .refused(let reason): throw StationEditError("'\(Self.shown(url))' is not a station: \(reason)")
        }
        if let number = stations.firstIndex(where: { $0.url == checked.text }).map({ $0 + 1 }) {
            throw StationEditError("\(checked.text) is station \(number) already (\(stations[number - 1].name))")
        }
        guard stations.count < Self.maximumCount else {
            throw StationEditError("the list holds \(Self.maximumCount) stations, the most it keeps; remove one first")
        }
        let given = name.map(Self.cleaned).flatMap { $0.isEmpty ? nil : $0 }
        let own = icy?.name.map(Self.cleaned).flatMap { $0.isEmpty ? nil : $0 }
        stations.append(Station(name: given ?? own ?? checked.host, url: checked.text))
        return stations.count
    }

    public mutating func rename(_ number: Int, to name: String) throws(StationEditError) {
        let index = try index(of: number)
        let cleaned = Self.cleaned(name)
        guard !cleaned.isEmpty else { throw StationEditError("a station's name cannot be empty") }
        stations[index].name = cleaned
    }

    @discardableResult
    public mutating func remove(_ number: Int) throws(StationEditError) -> Station {
        stations.remove(at: try index(of: number))
    }

    private func index(of number: Int) throws(StationEditError) -> Int {
        guard stations.indices.contains(number - 1) else {
            throw StationEditError(stations.isEmpty ? "there are no stations (station add URL adds one)"
                                       : "no station \(number): the list has \(stations.count) (1 to \(stations.count))")
        }
        return number - 1
    }

    /// A name as one line: control characters (line breaks, escapes) become
    /// spaces, spaces around it go, and it is cut to `maximumNameCharacters`.
    public static func cleaned(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars { scalars.append(StreamLocation.isControl(scalar) ? " " : scalar) }
        let text = String(scalars).prefix(maximumNameCharacters)
        guard let first = text.firstIndex(where: { $0 != " " }), let last = text.lastIndex(where: { $0 != " " }) else { return "" }
        return String(text[first...last])
    }

    /// A refused entry as a message quotes it: one line, not too long.
    private static func shown(_ text: String) -> String {
        let line = cleaned(text)
        return line.count > 80 ? line.prefix(77) + "..." : line
    }
}
