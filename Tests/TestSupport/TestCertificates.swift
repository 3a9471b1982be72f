import Foundation

/// Certificates for the HTTPS tests, made at test time by `openssl` in a
/// scratch directory: a test CA the test trusts (`trustedCA`, given to clients
/// through `environment`'s `SSL_CERT_FILE`), a second CA nobody trusts, and
/// server certificates for `localhost` and `127.0.0.1`: one signed by each CA,
/// and one by the trusted CA for another name (a host-name mismatch).
/// RSA 2048, valid two days, so nothing long-lived is ever made.
public struct TestCertificates: Sendable {
    public struct Pair: Sendable {
        public let certificate: String
        public let key: String
    }

    public let directory: String
    /// The trusted CA's certificate (PEM).
    public let trustedCA: String
    public let untrustedCA: String
    /// Signed by the trusted CA, for localhost and 127.0.0.1.
    public let trusted: Pair
    /// Signed by the untrusted CA, for localhost and 127.0.0.1.
    public let untrusted: Pair
    /// Signed by the trusted CA for `elsewhere.invalid` only.
    public let wrongName: Pair

    /// `SSL_CERT_FILE` naming the trusted CA, as a client's environment.
    public var environment: [String: String] { ["SSL_CERT_FILE": trustedCA] }

    public static func make() throws -> TestCertificates {
        guard ProcessRunner.which("openssl") != nil else { throw StreamServerError.notInstalled("openssl") }
        let directory = ScratchFiles.makeDirectory("tls")
        func authority(_ name: String) throws -> String {
            try ProcessRunner.check("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                                "-keyout", "\(directory)/\(name).key", "-out", "\(directory)/\(name).pem",
                                                "-subj", "/CN=Interlude \(name)",
                                                "-addext", "basicConstraints=critical,CA:TRUE",
                                                "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
            return "\(directory)/\(name).pem"
        }
        func server(_ name: String, signedBy ca: String, names: String) throws -> Pair {
            let key = "\(directory)/\(name).key", request = "\(directory)/\(name).csr", extensions = "\(directory)/\(name).ext"
            try ProcessRunner.check("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request,
                                                "-subj", "/CN=\(name)"])
            try Data("subjectAltName=\(names)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".utf8)
                .write(to: URL(fileURLWithPath: extensions))
            try ProcessRunner.check("openssl", ["x509", "-req", "-in", request, "-CA", "\(directory)/\(ca).pem",
                                                "-CAkey", "\(directory)/\(ca).key", "-CAcreateserial", "-days", "2",
                                                "-out", "\(directory)/\(name).pem", "-extfile", extensions])
            return Pair(certificate: "\(directory)/\(name).pem", key: key)
        }
        let trustedCA = try authority("trusted-ca")
        let untrustedCA = try authority("untrusted-ca")
        return TestCertificates(
            directory: directory, trustedCA: trustedCA, untrustedCA: untrustedCA,
            trusted: try server("trusted", signedBy: "trusted-ca", names: "DNS:localhost,IP:127.0.0.1"),
            untrusted: try server("untrusted", signedBy: "untrusted-ca", names: "DNS:localhost,IP:127.0.0.1"),
            wrongName: try server("wrong-name", signedBy: "trusted-ca", names: "DNS:elsewhere.invalid"))
    }

    /// A server certificate for `hosts`, signed by the trusted CA (stand-ins
    /// for real sites, reached through a proxy that ends their TLS).
    public func certificate(forHosts hosts: [String]) throws -> Pair {
        let host = hosts[0]
        let name = "host-" + host.replacingOccurrences(of: "/", with: "_")
        let key = "\(directory)/\(name).key", request = "\(directory)/\(name).csr", extensions = "\(directory)/\(name).ext"
        try ProcessRunner.check("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request,
                                            "-subj", "/CN=\(host)"])
        let names = hosts.map { "DNS:\($0)" }.joined(separator: ",")
        try Data("subjectAltName=\(names)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".utf8)
            .write(to: URL(fileURLWithPath: extensions))
        try ProcessRunner.check("openssl", ["x509", "-req", "-in", request, "-CA", trustedCA,
                                            "-CAkey", "\(directory)/trusted-ca.key", "-CAcreateserial", "-days", "2",
                                            "-out", "\(directory)/\(name).pem", "-extfile", extensions])
        return Pair(certificate: "\(directory)/\(name).pem", key: key)
    }
}
