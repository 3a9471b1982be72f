import Foundation
import InterludeCore
import Streams
import Testing
@testable import Playlists

/// The favourite stations' file, an extended M3U other players read.
@Suite struct StationStoreTests {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "stations-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func editsAreWrittenAsAnExtendedM3UAndReadBack() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = StationStore(dataDirectory: directory)
        #expect(try store.load().list.stations.isEmpty)
        _ = try store.update { (list: inout StationList) throws(StationEditError) in
            try list.add(url: "http://radio.example:8000/live.mp3", name: "Test FM")
            try list.add(url: "https://secure.example/aac", name: "Secure, with a comma")
        }
        let text = try String(contentsOfFile: directory + "/stations.m3u", encoding: .utf8)
        #expect(text == "#EXTM3U\n#EXTINF:-1,Test FM\nhttp://radio.example:8000/live.mp3\n"
                + "#EXTINF:-1,Secure, with a comma\nhttps://secure.example/aac\n")
        #expect(try store.load().list.stations.map(\.name) == ["Test FM", "Secure, with a comma"])
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/stations.m3u")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aRefusedEditWritesNothing() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = StationStore(dataDirectory: directory)
        #expect(throws: StationStore.Failure.edit(StationEditError("there are no stations (station add URL adds one)"))) {
            try store.update { (list: inout StationList) throws(StationEditError) in try list.rename(3, to: "x") }
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/stations.m3u"))
    }

    @Test func linesThatAreNoStationAreNamedOnceAndKeptAsTheyWere() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/stations.m3u"
        try "#EXTM3U\n#EXTINF:-1,Good\nhttp://radio.example/good\n#EXTINF:12,A song\nsong.mp3\nhttp://radio.example/good\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let store = StationStore(dataDirectory: directory)
        let contents = try store.load()
        #expect(contents.list.stations == [Station(name: "Good", url: "http://radio.example/good")])
        #expect(contents.problem == "station file \(path): 2 entries are no station, kept as they are "
                + "('\(directory)/song.mp3' is not a station's URL (http:// or https://); ...)")
        _ = try store.update { (list: inout StationList) throws(StationEditError) in try list.rename(1, to: "Better") }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "#EXTM3U\n#EXTINF:-1,Better\nhttp://radio.example/good\n#EXTINF:12,A song\nsong.mp3\nhttp://radio.example/good\n")
    }

    @Test func twoWritersOfOneFileKeepEachOthersStations() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Two stores (as two players) adding at once from their own threads: every edit is under the file's lock.
        let first = StationStore(dataDirectory: directory)
        let second = StationStore(dataDirectory: directory)
        let count = 40
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            let store = writer == 0 ? first : second
            for index in 0..<count {
                _ = try? store.update { (list: inout StationList) throws(StationEditError) in
                    try list.add(url: "http://radio.example/\(writer)/\(index)", name: "\(writer)-\(index)")
                }
            }
        }
        let names = Set(try first.load().list.stations.map(\.name))
        #expect(names == Set((0..<2).flatMap { writer in (0..<count).map { "\(writer)-\($0)" } }))
    }
}
