import Streams
import Testing

@Suite struct PLSPlaylistTests {
    func parse(_ text: String) -> PLSPlaylist { PLSPlaylist.parse(Array(text.utf8)) }

    @Test func readsAStationsPlaylist() {
        let playlist = parse("""
            [playlist]
            File1=http://radio.example:8000/stream.mp3
            Title1=Radio Example (128k)
            Length1=-1
            File2=https://radio.example/stream.aac
            Title2=Radio Example (AAC)
            Length2=-1
            NumberOfEntries=2
            Version=2
            """)
        #expect(playlist.entries.map(\.file) == ["http://radio.example:8000/stream.mp3", "https://radio.example/stream.aac"])
        #expect(playlist.entries.map(\.title) == ["Radio Example (128k)", "Radio Example (AAC)"])
        #expect(playlist.entries.allSatisfy { $0.lengthSeconds == nil })
        #expect(playlist.problems.isEmpty)
    }

    @Test func entriesFollowTheirNumbersAndKeysIgnoreCase() {
        let playlist = parse("[Playlist]\r\nfile3=c\r\nFILE1=a\r\nTitle3=Three\r\nfile2=b\r\nlength2=215\r\nnumberofentries=3\r\n")
        #expect(playlist.entries.map(\.file) == ["a", "b", "c"])
        #expect(playlist.entries[1].lengthSeconds == 215)
        #expect(playlist.entries[2].title == "Three")
        #expect(playlist.problems.isEmpty)
    }

    @Test func aCountThatDisagreesIsSaid() {
        let playlist = parse("[playlist]\nFile1=a\nNumberOfEntries=4\n")
        #expect(playlist.entries.count == 1)
        #expect(playlist.problems == ["NumberOfEntries says 4, the playlist holds 1"])
    }

    @Test func numbersOutOfRangeAreRefusedWithTheirLine() {
        let playlist = parse("""
            [playlist]
            File0=zero
            File99999999999999999999999=huge
            File10001=past
            File1=ok
            Length1=99999999999
            Title7=orphan
            NumberOfEntries=-3
            """)
        #expect(playlist.entries.map(\.file) == ["ok"])
        #expect(playlist.entries[0].lengthSeconds == nil)
        #expect(playlist.problems.contains("line 2: the entry number is not from 1 to 10000"))
        #expect(playlist.problems.contains("line 3: the entry number is not from 1 to 10000"))
        #expect(playlist.problems.contains("line 4: the entry number is not from 1 to 10000"))
        #expect(playlist.problems.contains { $0.hasPrefix("line 6: Length1") })
        #expect(playlist.problems.contains("entry 7 has no File7"))
        #expect(playlist.problems.contains { $0.hasPrefix("line 8: NumberOfEntries") })
    }

    @Test func linesOutsideThePlaylistSectionAreNotRead() {
        let playlist = parse("File1=before\n[other]\nFile2=other\n[playlist]\nFile3=inside\n")
        #expect(playlist.entries.map(\.file) == ["inside"])
        #expect(parse("File1=a\n").problems == ["no [playlist] section"])
    }

    @Test func latin1TitlesAndAByteOrderMarkAreRead() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[playlist]\nFile1=u\nTitle1=Radio Caf".utf8) + [0xE9, 0x0A]
        let playlist = PLSPlaylist.parse(bytes)
        #expect(playlist.entries.first?.title == "Radio Café")
    }

    @Test func eachEntrySaysWhatItNames() {
        let playlist = parse("[playlist]\nFile1=http://a.example/s\nFile2=/music/b.mp3\nFile3=pipe:0\n")
        #expect(playlist.entries.map(\.location) == [
            .url(StreamURL(text: "http://a.example/s", scheme: .http, host: "a.example", port: nil)),
            .path("/music/b.mp3"),
            .refused("pipe: is not a stream this player opens (http and https are)"),
        ])
    }
}

@Suite struct StreamLocationTests {
    @Test func httpAndHttpsAreStations() {
        #expect(StreamLocation.classify("http://radio.example:8000/live.mp3")
                == .url(StreamURL(text: "http://radio.example:8000/live.mp3", scheme: .http, host: "radio.example", port: 8000)))
        guard case .url(let secure) = StreamLocation.classify("HTTPS://user:pw@[::1]:8443/a?b=c") else { Issue.record("not a URL"); return }
        #expect(secure.scheme == .https && secure.host == "::1" && secure.port == 8443)
        guard case .url(let plain) = StreamLocation.classify("https://radio.example/") else { Issue.record("not a URL"); return }
        #expect(plain.effectivePort == 443 && plain.port == nil)
    }

    @Test func pathsAreNotURLs() {
        #expect(StreamLocation.classify("/music/a.mp3") == .path("/music/a.mp3"))
        #expect(StreamLocation.classify("Album/01 - Intro.mp3") == .path("Album/01 - Intro.mp3"))
        #expect(StreamLocation.classify("C:\\Music\\a.mp3") == .path("C:\\Music\\a.mp3"))
        #expect(StreamLocation.classify("01: Intro.mp3") == .path("01: Intro.mp3"))
    }

    @Test(arguments: ["file:///etc/passwd", "FILE:/etc/passwd", "pipe:0", "concat:/etc/passwd|/etc/shadow", "subfile,,start,0,end,0,,:/etc/passwd",
                      "data:audio/mpeg;base64,AAAA", "tcp://127.0.0.1:22", "hls+file:///x.m3u8", "crypto:/x", "javascript:alert(1)"])
    func everyOtherSchemeIsRefused(entry: String) {
        guard case .refused(let why) = StreamLocation.classify(entry) else {
            Issue.record("\(entry) was not refused: \(StreamLocation.classify(entry))")
            return
        }
        #expect(!why.isEmpty)
    }

    @Test func theFileSchemeIsRefusedByName() {
        #expect(StreamLocation.classify("file:///music/a.mp3") == .refused("a file: URL is a local file, not a station"))
    }

    @Test(arguments: ["http://a.example/x\r\nHost: evil", "http://a.example/\u{0}", "http://a.example/\u{1B}[2J", "/music/\u{7F}.mp3", "http://a\u{9B}b/"])
    func controlCharactersAreRefused(entry: String) {
        guard case .refused(let why) = StreamLocation.classify(entry) else { Issue.record("\(entry) was taken"); return }
        #expect(why.hasPrefix("the entry holds a control character"))
    }

    @Test func malformedStationsAreRefusedWithTheReason() {
        #expect(StreamLocation.classify("http:radio.example") == .refused("http: needs // and a host (http://host/path)"))
        #expect(StreamLocation.classify("http:///stream") == .refused("the URL names no host"))
        #expect(StreamLocation.classify("http://a.example:0/") == .refused("the port '0' is not a number from 1 to 65535"))
        #expect(StreamLocation.classify("http://a.example:65536/") == .refused("the port '65536' is not a number from 1 to 65535"))
        #expect(StreamLocation.classify("http://a.example:99999999999999999999999/")
                == .refused("the port '999999999999' is not a number from 1 to 65535"))
        #expect(StreamLocation.classify("http://a.example/my stream") == .refused("the URL holds a space (write it as %20)"))
        #expect(StreamLocation.classify("http://[::1/") == .refused("the IPv6 address has no closing ]"))
        let long = "http://a.example/" + String(repeating: "x", count: 9000)
        #expect(StreamLocation.classify(long) == .refused("the URL is 9017 bytes long; at most 8192"))
    }
}
