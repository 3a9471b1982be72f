import Streams
import Testing

/// The options a station's open is given (`StreamOpenOptions`), each as the
/// measurement beside it chose it.
struct StreamOpenOptionsTests {
    static func dictionary(_ values: [(key: String, value: String)]) -> [String: String] {
        Dictionary(values.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func certificatesAreVerifiedAndReadsTimeOutAfterTenSeconds() {
        let options = Self.dictionary(StreamOpenOptions.values(certificateFile: nil))
        #expect(options["tls_verify"] == "1")
        #expect(options["rw_timeout"] == "10000000")
        #expect(options["icy"] == "1")
        #expect(options["ca_file"] == nil)
        // An MP3's format from what Icecast's 64 KB burst holds, not 128 KB read at the station's pace.
        #expect(options["formatprobesize"] == "65536")
    }

    @Test func anMP3StationsProbeStopsAtSixteenKilobytesAnythingElsesAtSixtyFour() {
        for type in ["audio/mpeg", "Audio/MPEG", "audio/mpeg; charset=binary", " audio/mp3", "audio/x-mpeg"] {
            #expect(StreamOpenOptions.formatProbeBytes(contentType: type) == 16_384, "\(type)")
        }
        for type in ["audio/aac", "audio/aacp", "audio/ogg", "application/vnd.apple.mpegurl", "text/html", "", "audio/mpegurl"] {
            #expect(StreamOpenOptions.formatProbeBytes(contentType: type) == 65_536, "\(type)")
        }
    }

    @Test func ffmpegsOwnBackoffIsOffSoThePlayersRunsOnTheLoopsClock() {
        let options = Self.dictionary(StreamOpenOptions.values(certificateFile: nil))
        #expect(options["reconnect"] == "1" && options["reconnect_streamed"] == "1" && options["reconnect_on_network_error"] == "1")
        #expect(options["reconnect_delay_max"] == "0")
    }

    @Test func hlsOpensEachRequestAfreshSoEveryOneIsBounded() {
        #expect(Self.dictionary(StreamOpenOptions.values(certificateFile: nil))["http_persistent"] == "0")
    }

    @Test func onlyNetworkProtocolsMayBeOpenedNeverLocalFilesOrPipes() {
        let allowed = Set(StreamOpenOptions.values(certificateFile: nil).first { $0.key == "protocol_whitelist" }?.value
            .split(separator: ",").map(String.init) ?? [])
        #expect(allowed == ["http", "https", "tls", "tcp", "crypto", "httpproxy"])
        for local in ["file", "pipe", "concat", "subfile", "data", "udp"] { #expect(!allowed.contains(local)) }
    }

    @Test func sslCertFileIsHandedOnAsTheCAFileAndAnEmptyOneIsNone() {
        #expect(Self.dictionary(StreamOpenOptions.values(certificateFile: "/tmp/ca.pem"))["ca_file"] == "/tmp/ca.pem")
        #expect(Self.dictionary(StreamOpenOptions.values(certificateFile: ""))["ca_file"] == nil)
        // Each option is set once.
        let keys = StreamOpenOptions.values(certificateFile: "/tmp/ca.pem").map(\.key)
        #expect(Set(keys).count == keys.count)
    }
}
