import Foundation
import Testing
import TestSupport

/// Live HLS written by `ffmpeg -f hls` and served over HTTP, read by FFmpeg's HLS demuxer.
@Suite(.serialized) struct HLSServerTests {
    @Test func aLivePlaylistIsReadAsAACAndSlides() throws {
        let live = try LiveHLS.start(wav: Fixtures.wav(.sweep, seconds: 20))
        defer { live.stop() }
        let probe = try ProcessRunner.run("ffprobe", ["-v", "error", "-show_entries", "format=format_name:stream=codec_name,sample_rate",
                                                      "-of", "json", live.playlistURL], timeout: 30)
        #expect(probe.succeeded, "\(probe.summary)")
        #expect(probe.stdoutText.contains("\"format_name\": \"hls\""), "\(probe.stdoutText)")
        #expect(probe.stdoutText.contains("\"codec_name\": \"aac\""), "\(probe.stdoutText)")
        let firstSequence = live.mediaSequence ?? 0
        // Three seconds decoded from the live edge, through the options the player will set.
        let read = try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-protocol_whitelist", "http,https,tls,tcp,crypto,httpproxy",
                                                    "-rw_timeout", "5000000", "-i", live.playlistURL, "-t", "3", "-f", "s16le", "-"],
                                         timeout: 60)
        #expect(read.succeeded, "\(read.summary)")
        #expect(read.stdout.count == 3 * 44_100 * 4)
        #expect(waitUntil { (live.mediaSequence ?? 0) > firstSequence + 1 }, "the window did not slide: \(live.playlist)")
    }

    /// A playlist from the network that names a local file: refused under the
    /// protocol whitelist the player will set, so a station cannot make it read a file.
    @Test func aSegmentNamingALocalFileIsRefusedUnderTheWhitelist() throws {
        let folder = ScratchFiles.makeDirectory("hls-file")
        let segment = "\(folder)/secret.ts"
        try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", Fixtures.wav(.tone(frequency: 440), seconds: 2),
                                           "-c:a", "aac", "-f", "mpegts", segment])
        let playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2.0,\nfile://\(segment)\n#EXT-X-ENDLIST\n"
        try Data(playlist.utf8).write(to: URL(fileURLWithPath: "\(folder)/list.m3u8"))
        let server = try StreamFileServer.start(root: folder)
        defer { server.stop() }
        let refused = try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-protocol_whitelist", "http,https,tls,tcp,crypto,httpproxy",
                                                       "-i", server.url("list.m3u8"), "-f", "s16le", "-"], timeout: 30)
        #expect(refused.stdout.isEmpty, "\(refused.summary)")
        #expect(refused.stderrText.contains("Protocol 'file' not on whitelist"), "\(refused.summary)")
    }

    @Test func theEncoderAndServerStopByTheirPIDs() throws {
        let live = try LiveHLS.start(wav: Fixtures.wav(.tone(frequency: 440), seconds: 5), segments: 1)
        let pids = live.pids
        live.stop()
        for pid in pids { #expect(kill(pid, 0) != 0 && errno == ESRCH, "PID \(pid) still runs") }
    }
}

/// FFmpeg's HTTP honours `http_proxy` and `no_proxy` from the environment, so
/// the player needs no proxy code of its own.
@Suite(.serialized) struct HTTPStreamsProxyTests {
    @Test func httpProxyCarriesTheRequestAndNoProxyBypassesIt() throws {
        let folder = ScratchFiles.makeDirectory("proxy-root")
        let mp3 = try Fixtures.mp3(.tone(frequency: 440), seconds: 3)
        try FileManager.default.copyItem(atPath: mp3, toPath: "\(folder)/station.mp3")
        let proxy = try StreamFileServer.start(root: folder)
        defer { proxy.stop() }
        let (ffmpeg, arguments) = LoopbackResolver.command("ffmpeg", ["-nostdin", "-v", "error", "-i", "http://station.invalid/station.mp3",
                                                                      "-f", "s16le", "-"])
        let local = try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-i", mp3, "-f", "s16le", "-"])
        // station.invalid resolves nowhere: only the proxy can have answered.
        let proxied = try ProcessRunner.run(ffmpeg, arguments, environment: ["http_proxy": "http://127.0.0.1:\(proxy.port)"])
        #expect(proxied.succeeded, "\(proxied.summary)")
        #expect(proxied.stdout == local.stdout)
        #expect(proxy.log.contains("proxied http://station.invalid:80/station.mp3"), "\(proxy.log)")
        let bypassed = try ProcessRunner.run(ffmpeg, arguments, environment: ["http_proxy": "http://127.0.0.1:\(proxy.port)",
                                                                                "no_proxy": "station.invalid"])
        #expect(!bypassed.succeeded && bypassed.stderrText.contains("Failed to resolve hostname station.invalid"), "\(bypassed.summary)")
    }
}
