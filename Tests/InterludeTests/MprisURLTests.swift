@testable import Interlude
import DesktopIntegration
import Testing

/// MPRIS's `xesam:url` and `OpenUri`: file URLs are ASCII (the bus drops a
/// connection that sends invalid UTF-8) and read back to the same path.
struct MprisURLTests {
    @Test("paths become escaped file URLs and come back")
    func roundTrip() {
        #expect(MprisSource.fileURL("/music/a b/静夜思 #1.mp3") == "file:///music/a%20b/%E9%9D%99%E5%A4%9C%E6%80%9D%20%231.mp3")
        for path in ["/music/a b/静夜思 #1.mp3", "/x/100%.mp3", "/plain.mp3"] {
            #expect(MprisSource.path(ofURI: MprisSource.fileURL(path)) == path)
        }
        #expect(MprisSource.path(ofURI: "file://localhost/tmp/a.mp3") == "/tmp/a.mp3")
        #expect(MprisSource.path(ofURI: "/tmp/a.mp3") == "/tmp/a.mp3")
        // A station's URL goes on as it is; other schemes are refused.
        #expect(MprisSource.path(ofURI: "http://example.com/a.mp3") == "http://example.com/a.mp3")
        #expect(MprisSource.path(ofURI: "ftp://example.com/a.mp3") == nil)
        #expect(MprisSource.fileURL("https://example.com/live") == "https://example.com/live")
        #expect(MprisSource.fileURL("/ä b").unicodeScalars.allSatisfy { $0.isASCII })
    }
}
