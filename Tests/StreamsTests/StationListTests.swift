import Streams
import Testing

/// The favourite stations' list and its edits, numbered from 1.
@Suite struct StationListTests {
    @Test func addsUnderTheTypedNameElseTheStationsOwnElseItsHost() throws {
        var list = StationList()
        #expect(try list.add(url: "http://radio.example:8000/live.mp3", name: "Morning FM") == 1)
        #expect(try list.add(url: "https://secure.example/aac", name: nil, icy: ICYHeaders.parse("icy-name: Secure Radio\r\n")) == 2)
        #expect(try list.add(url: "http://[::1]:8000/opus", name: "  ", icy: ICYHeaders(name: "")) == 3)
        #expect(list.stations == [
            Station(name: "Morning FM", url: "http://radio.example:8000/live.mp3"),
            Station(name: "Secure Radio", url: "https://secure.example/aac"),
            Station(name: "::1", url: "http://[::1]:8000/opus"),
        ])
    }

    @Test(arguments: [
        ("file:///etc/passwd", "is not a station: a file: URL is a local file, not a station"),
        ("pipe:0", "is not a station: pipe: is not a stream this player opens (http and https are)"),
        ("/home/me/song.mp3", "is not a station's URL (http:// or https://)"),
        ("http://", "is not a station: the URL names no host"),
        ("http://host:99999/x", "is not a station: the port '99999' is not a number from 1 to 65535"),
    ])
    func refusesWhatIsNoHTTPURLByName(url: String, reason: String) {
        var list = StationList()
        #expect(throws: StationEditError("'\(url)' \(reason)")) { try list.add(url: url, name: "x") }
        #expect(list.stations.isEmpty)
    }

    @Test func aURLIsInTheListOnce() throws {
        var list = StationList()
        try list.add(url: "http://radio.example/a", name: "A")
        #expect(throws: StationEditError("http://radio.example/a is station 1 already (A)")) {
            try list.add(url: "http://radio.example/a", name: "Again")
        }
        #expect(list.stations.count == 1)
    }

    @Test func theListHoldsAtMostItsLimit() throws {
        var list = StationList((1...StationList.maximumCount).map { Station(name: "\($0)", url: "http://radio.example/\($0)") })
        #expect(throws: StationEditError("the list holds \(StationList.maximumCount) stations, the most it keeps; remove one first")) {
            try list.add(url: "http://radio.example/one-more", name: nil)
        }
    }

    @Test func renamesAndRemovesByNumber() throws {
        var list = StationList()
        try list.add(url: "http://radio.example/a", name: "A")
        try list.add(url: "http://radio.example/b", name: "B")
        try list.rename(2, to: "Bee\nline two\u{1B}[2J")
        #expect(try list.station(2).name == "Bee line two [2J")
        #expect(throws: StationEditError("a station's name cannot be empty")) { try list.rename(1, to: " \t ") }
        #expect(try list.remove(1) == Station(name: "A", url: "http://radio.example/a"))
        #expect(list.stations.map(\.name) == ["Bee line two [2J"])
        #expect(throws: StationEditError("no station 2: the list has 1 (1 to 1)")) { try list.remove(2) }
        #expect(throws: StationEditError("no station 0: the list has 1 (1 to 1)")) { try list.station(0) }
        try list.remove(1)
        #expect(throws: StationEditError("there are no stations (station add URL adds one)")) { try list.rename(1, to: "x") }
    }

    @Test func aLongNameIsCutToOneLineOfTheLimit() throws {
        var list = StationList()
        try list.add(url: "http://radio.example/a", name: String(repeating: "é", count: 500))
        #expect(try list.station(1).name == String(repeating: "é", count: StationList.maximumNameCharacters))
    }
}
