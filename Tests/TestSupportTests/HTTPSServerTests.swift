import Foundation
import Testing
import TestSupport

/// FFmpeg's HTTPS (GnuTLS in Debian's build) against a loopback server with a
/// test CA, and the faults a station's server can show. What these show decides
/// the options the player passes (`StreamOpenOptions`).
@Suite(.serialized) struct HTTPSServerTests {
    static func fixtureFolder() throws -> (folder: String, mp3: String) {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 20)
        let folder = ScratchFiles.makeDirectory("https-root")
        try FileManager.default.copyItem(atPath: mp3, toPath: "\(folder)/station.mp3")
        return (folder, mp3)
    }

    /// The options the player will pass for HTTPS: verify, with the CA file named
    /// by `SSL_CERT_FILE` when it is set (GnuTLS does not read that variable).
    static func verifying(_ certificates: TestCertificates) -> [String] {
        ["-tls_verify", "1", "-ca_file", certificates.trustedCA]
    }

    func decode(_ input: String, options: [String] = [], environment: [String: String] = [:]) throws -> ProcessResult {
        let (program, arguments) = LoopbackResolver.command("ffmpeg", ["-nostdin", "-v", "error"] + options + ["-i", input, "-f", "s16le", "-"])
        return try ProcessRunner.run(program, arguments, environment: environment, timeout: 60)
    }

    @Test func aTrustedCertificatePlaysTheSameSamplesAsTheFile() throws {
        let certificates = try TestCertificates.make()
        let (folder, mp3) = try Self.fixtureFolder()
        let server = try StreamFileServer.start(root: folder, certificate: certificates.trusted)
        defer { server.stop() }
        let local = try decode(mp3)
        let remote = try decode(server.url("station.mp3"), options: Self.verifying(certificates))
        #expect(remote.succeeded, "\(remote.summary)")
        #expect(remote.stdout.count > 20 * 44_100 * 4 - 8192)
        #expect(remote.stdout == local.stdout)
        // Three redirects on the way change nothing.
        let redirected = try decode(server.url("redirect/3/station.mp3"), options: Self.verifying(certificates))
        #expect(redirected.stdout == local.stdout, "\(redirected.summary)")
        #expect(server.log.contains("\"GET /redirect/3/station.mp3 HTTP/1.1\" 302"), "\(server.log)")
    }

    @Test func aCertificateFromAnotherCAIsRefusedWhenVerifying() throws {
        let certificates = try TestCertificates.make()
        let (folder, _) = try Self.fixtureFolder()
        let server = try StreamFileServer.start(root: folder, certificate: certificates.untrusted)
        defer { server.stop() }
        let refused = try decode(server.url("station.mp3"), options: Self.verifying(certificates))
        #expect(!refused.succeeded)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderrText.contains("Peer certificate failed verification"), "\(refused.summary)")
    }

    @Test func aCertificateForAnotherHostIsRefusedWhenVerifying() throws {
        let certificates = try TestCertificates.make()
        let (folder, _) = try Self.fixtureFolder()
        let server = try StreamFileServer.start(root: folder, certificate: certificates.wrongName)
        defer { server.stop() }
        let refused = try decode(server.url("station.mp3"), options: Self.verifying(certificates))
        #expect(!refused.succeeded && refused.stdout.isEmpty, "\(refused.summary)")
        #expect(refused.stderrText.contains("The certificate's owner does not match hostname 127.0.0.1"), "\(refused.summary)")
    }

    /// Why the player must set `tls_verify` and `ca_file` itself: FFmpeg 5.1's
    /// default takes any certificate, and GnuTLS ignores `SSL_CERT_FILE`.
    @Test func ffmpegVerifiesNothingUnlessAskedAndGnuTLSIgnoresSSLCertFile() throws {
        let certificates = try TestCertificates.make()
        let (folder, mp3) = try Self.fixtureFolder()
        let untrusted = try StreamFileServer.start(root: folder, certificate: certificates.untrusted)
        let trusted = try StreamFileServer.start(root: folder, certificate: certificates.trusted)
        defer { untrusted.stop(); trusted.stop() }
        let unchecked = try decode(untrusted.url("station.mp3"))
        let local = try decode(mp3)
        #expect(unchecked.succeeded && unchecked.stdout == local.stdout, "\(unchecked.summary)")
        let environmentOnly = try decode(trusted.url("station.mp3"), options: ["-tls_verify", "1"], environment: certificates.environment)
        #expect(!environmentOnly.succeeded, "\(environmentOnly.summary)")
        #expect(environmentOnly.stderrText.contains("Peer certificate failed verification"), "\(environmentOnly.summary)")
    }

    @Test func seeksAreByteRangesTheServerAnswers() throws {
        let certificates = try TestCertificates.make()
        let (folder, mp3) = try Self.fixtureFolder()
        let server = try StreamFileServer.start(root: folder, certificate: certificates.trusted)
        defer { server.stop() }
        let local = try decode(mp3, options: ["-ss", "12"])
        let remote = try decode(server.url("station.mp3"), options: Self.verifying(certificates) + ["-ss", "12"])
        #expect(remote.succeeded, "\(remote.summary)")
        #expect(remote.stdout == local.stdout)
        #expect(remote.stdout.count < 9 * 44_100 * 4)
        #expect(server.log.contains("\"GET /station.mp3 HTTP/1.1\" 206"), "\(server.log)")
    }

    /// Each fault ends FFmpeg's open with its own message, and a stalled
    /// server only ends because `rw_timeout` is set.
    @Test func faultsEndTheOpenWithTheirMessage() throws {
        let certificates = try TestCertificates.make()
        let (folder, _) = try Self.fixtureFolder()
        let server = try StreamFileServer.start(root: folder, certificate: certificates.trusted)
        defer { server.stop() }
        let options = Self.verifying(certificates) + ["-rw_timeout", "2000000"]
        let cases: [(String, String)] = [
            (server.url("status/404"), "404 Not Found"),
            (server.url("missing.mp3"), "404 Not Found"),
            (server.silentURL("station.mp3"), "Connection timed out"),
            (server.url("stall/station.mp3"), "Connection timed out"),
            (server.url("headers-then-nothing/station.mp3"), "Connection timed out"),
            ("https://127.0.0.1:\(try LoopbackHTTP.freePort())/station.mp3", "Connection refused"),
            ("http://no-such-host.invalid/station.mp3", "Failed to resolve hostname no-such-host.invalid"),
        ]
        for (url, message) in cases {
            let run = try decode(url, options: options)
            #expect(!run.succeeded && !run.timedOut, "\(url): \(run.summary)")
            #expect(run.stderrText.contains(message), "\(url): \(run.summary)")
        }
        // As root the look-up stayed on the machine: no server answered it, none outside was asked.
        if geteuid() == 0 {
            let lookup = try decode("http://no-such-host.invalid/station.mp3")
            #expect(lookup.stderrText.contains("Temporary failure in name resolution"), "\(lookup.summary)")
        }
    }

    @Test func theServerStopsByItsPID() throws {
        let certificates = try TestCertificates.make()
        let server = try StreamFileServer.start(root: try Self.fixtureFolder().folder, certificate: certificates.trusted)
        let pid = server.pid
        #expect(server.isRunning)
        server.stop()
        #expect(!server.isRunning)
        #expect(kill(pid, 0) != 0 && errno == ESRCH)
    }
}
