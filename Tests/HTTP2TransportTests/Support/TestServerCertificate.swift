import Foundation
import TestSupport

/// A throwaway server certificate for the mock, signed by the dev CA (certs/dev/ca.pem, which the
/// test clients trust) over the dev server key, with exactly the subjectAltName entries given.
/// Made with the `openssl` command in a fresh temporary directory.
struct TestServerCertificate {
    let directory: URL
    var certificatePath: String { directory.appendingPathComponent("server.pem").path }
    let keyPath = TransportFixtures.cert("server.key")

    /// `subjectAltNames` in openssl's syntax, e.g. `["DNS:f*.example.com", "IP:127.0.0.1"]`.
    init(subjectAltNames: [String]) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("transport-tests-cert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let csr = directory.appendingPathComponent("server.csr").path
        let extensions = directory.appendingPathComponent("ext.cnf").path
        try """
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature, keyEncipherment
        extendedKeyUsage = serverAuth
        subjectAltName = \(subjectAltNames.joined(separator: ", "))

        """.write(toFile: extensions, atomically: true, encoding: .utf8)
        // The subject names no host, so only the subjectAltName entries can match.
        try Self.openssl(["req", "-new", "-key", keyPath, "-subj", "/O=PushRelay tests/CN=test server", "-out", csr])
        try Self.openssl([
            "x509", "-req", "-in", csr, "-CA", TransportFixtures.cert("ca.pem"), "-CAkey", TransportFixtures.cert("ca.key"),
            "-set_serial", "\(UInt32.random(in: 1...UInt32.max))", "-days", "2",
            "-extfile", extensions, "-out", certificatePath,
        ])
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Whether OpenSSL's default host check (no flags, as `openssl x509 -checkhost` does it)
    /// accepts this certificate for `host`: the control that shows a refusal comes from our flags.
    func matchesWithDefaultHostCheck(_ host: String) throws -> Bool {
        try Self.openssl(["x509", "-in", certificatePath, "-noout", "-checkhost", host])
            .contains("does match certificate")
    }

    @discardableResult
    static func openssl(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.runBlocking("/usr/bin/env", ["openssl"] + arguments)
        let text = result.stdout + result.stderr
        guard result.status == 0 else {
            throw OpenSSLCommandFailed(arguments: arguments, output: text)
        }
        return text
    }
}

struct OpenSSLCommandFailed: Error, CustomStringConvertible {
    let arguments: [String]
    let output: String
    var description: String { "openssl \(arguments.joined(separator: " ")) failed: \(output)" }
}
