import COpenSSL
import Foundation
import TestSupport
import Testing

@testable import HTTP2Transport

@Suite(.timeLimit(.minutes(5))) struct TLSClientIdentityTests {
    static let subject = "CN=Apple Push Services: com.example.pushrelay, O=PushRelay development"

    // MARK: - Loading

    @Test(arguments: [
        ("client.p12", "secret" as String?),
        ("client-nopass.p12", nil),
        ("client-nopass.p12", ""),
        ("client-legacy.p12", "secret"),  // RC2/3DES like a Keychain export: needs the legacy provider
    ])
    func loadsP12(name: String, password: String?) throws {
        let path = CredentialFixtures.dev(name)
        let identity = try TLSClientIdentity.p12(path: path, password: password)
        #expect(identity.subject == Self.subject)
        #expect(identity.source == path)
        #expect(identity.chainLength == 0)
        #expect(identity.notBefore < Date())
        #expect(identity.notAfter > Date().addingTimeInterval(365 * 24 * 3600))
    }

    @Test func propertiesMatchTheCertificate() throws {
        let identity = try TLSClientIdentity.pem(
            certificatePath: CredentialFixtures.dev("client.pem"),
            keyPath: CredentialFixtures.dev("client.key"))
        #expect(identity.subject == Self.subject)
        // Compare with what the openssl tool reads from the same file.
        let expected = try Self.opensslDates(CredentialFixtures.dev("client.pem"))
        #expect(identity.notBefore == expected.notBefore)
        #expect(identity.notAfter == expected.notAfter)
        let fromP12 = try TLSClientIdentity.p12(path: CredentialFixtures.dev("client.p12"), password: "secret")
        #expect(fromP12.notAfter == identity.notAfter)
        #expect(fromP12.notBefore == identity.notBefore)
    }

    @Test(arguments: [
        ("client.key", nil as String?),
        ("client-traditional.key", nil),  // "BEGIN RSA PRIVATE KEY"
        ("client-encrypted.key", "secret"),  // "BEGIN ENCRYPTED PRIVATE KEY"
    ])
    func loadsPEM(keyName: String, password: String?) throws {
        let identity = try TLSClientIdentity.pem(
            certificatePath: CredentialFixtures.dev("client.pem"),
            keyPath: CredentialFixtures.dev(keyName), keyPassword: password)
        #expect(identity.subject == Self.subject)
    }

    @Test func certificateFileMayCarryAChain() throws {
        let identity = try TLSClientIdentity.pem(
            certificatePath: CredentialFixtures.dev("client-chain.pem"),
            keyPath: CredentialFixtures.dev("client.key"))
        #expect(identity.subject == Self.subject)
        #expect(identity.chainLength == 1)
    }

    @Test func certificateAndKeyMayShareOneFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("combined.pem")
        let combined =
            try Data(contentsOf: URL(fileURLWithPath: CredentialFixtures.dev("client.key")))
            + Data(contentsOf: URL(fileURLWithPath: CredentialFixtures.dev("client.pem")))
        #expect(FileManager.default.createFile(atPath: path, contents: combined))
        let identity = try TLSClientIdentity.pem(certificatePath: path, keyPath: path)
        #expect(identity.subject == Self.subject)
        #expect(identity.source == path)
    }

    @Test func installsIntoAnSSLContext() throws {
        let identity = try TLSClientIdentity.pem(
            certificatePath: CredentialFixtures.dev("client-chain.pem"),
            keyPath: CredentialFixtures.dev("client.key"))
        let context = try #require(SSL_CTX_new(TLS_client_method()))
        defer { SSL_CTX_free(context) }
        try identity.install(into: context)
        let installed = try #require(SSL_CTX_get0_certificate(context))
        #expect(X509_cmp(installed, identity.certificate) == 0)
        #expect(SSL_CTX_get0_privatekey(context) != nil)
    }

    @Test func identityOutlivesTheContextAndViceVersa() throws {
        // The context holds its own references: freeing either side first must be safe.
        var identity: TLSClientIdentity? = try TLSClientIdentity.p12(
            path: CredentialFixtures.dev("client.p12"), password: "secret")
        let context = try #require(SSL_CTX_new(TLS_client_method()))
        try identity?.install(into: context)
        identity = nil
        #expect(SSL_CTX_check_private_key(context) == 1)
        SSL_CTX_free(context)
    }

    // MARK: - Bad files

    @Test func missingP12() {
        let path = CredentialFixtures.dev("nope.p12")
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.p12(path: path, password: "secret")
        }
        #expect(error == .fileNotFound(path: path))
        #expect(error?.description.contains(path) == true)
    }

    @Test func wrongP12Password() {
        let path = CredentialFixtures.dev("client.p12")
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.p12(path: path, password: "not-the-password")
        }
        #expect(error == .wrongPassword(path: path))
        #expect(error?.description == "the password for credential file \(path) is wrong")
        #expect(error?.description.contains("not-the-password") == false)
    }

    @Test func wrongLegacyP12Password() {
        let path = CredentialFixtures.dev("client-legacy.p12")
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.p12(path: path, password: "wrong")
        }
        #expect(error == .wrongPassword(path: path))
    }

    @Test func p12WithoutTheNeededPassword() {
        let path = CredentialFixtures.dev("client.p12")
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.p12(path: path, password: nil)
        }
        #expect(error == .passwordRequired(path: path))
        #expect(error?.description.contains(path) == true)
    }

    @Test func garbageP12() throws {
        let path = CredentialFixtures.bad("garbage.p12")
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.p12(path: path, password: "secret")
        }
        #expect(error == .wrongFormat(path: path, detail: "not a PKCS#12 (.p12) file"))
        #expect(error?.description.contains(path) == true)
    }

    @Test func pemGivenAsP12() {
        let path = CredentialFixtures.dev("client.pem")
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.p12(path: path, password: nil)
        }
        guard case .wrongFormat(path, let detail) = error else {
            Issue.record("expected wrongFormat, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("PEM"))
    }

    @Test func truncatedP12() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: CredentialFixtures.dev("client.p12"))))
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.p12(
                bytes: Array(bytes.prefix(bytes.count / 2)), password: "secret",
                source: "half.p12")
        }
        guard case .wrongFormat("half.p12", _) = error else {
            Issue.record("expected wrongFormat, got \(String(describing: error))")
            return
        }
    }

    @Test func p12WithoutPrivateKey() {
        let path = CredentialFixtures.bad("cert-only.p12")
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.p12(path: path, password: "secret")
        }
        #expect(error == .missingPrivateKey(path: path))
        #expect(error?.description == "credential file \(path) contains no private key")
    }

    @Test func expiredP12() throws {
        let path = CredentialFixtures.bad("expired.p12")
        let error = try #require(
            #expect(throws: CredentialError.self) {
                try TLSClientIdentity.p12(path: path, password: nil)
            })
        let expected = try Self.opensslDates(CredentialFixtures.bad("expired.pem"))
        #expect(error == .expiredCertificate(path: path, notAfter: expected.notAfter))
        #expect(error.description.contains(path))
        #expect(error.description.contains("expired"))
    }

    @Test func expiredPEM() throws {
        let path = CredentialFixtures.bad("expired.pem")
        let error = try #require(
            #expect(throws: CredentialError.self) {
                try TLSClientIdentity.pem(certificatePath: path, keyPath: CredentialFixtures.bad("expired.key"))
            })
        let expected = try Self.opensslDates(path)
        #expect(error == .expiredCertificate(path: path, notAfter: expected.notAfter))
        #expect(error.description.contains(path))
    }

    @Test func validityIsJudgedAtTheInjectedTime() throws {
        let certificate = CredentialFixtures.dev("client.pem")
        let key = CredentialFixtures.dev("client.key")
        let dates = try Self.opensslDates(certificate)
        let early = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.pem(
                certificatePath: certificate, keyPath: key,
                now: dates.notBefore.addingTimeInterval(-1))
        }
        #expect(early == .certificateNotYetValid(path: certificate, notBefore: dates.notBefore))
        #expect(early?.description.contains(certificate) == true)
        let late = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.p12(
                path: CredentialFixtures.dev("client.p12"), password: "secret",
                now: dates.notAfter.addingTimeInterval(1))
        }
        #expect(late == .expiredCertificate(path: CredentialFixtures.dev("client.p12"), notAfter: dates.notAfter))
        // An expired certificate loads if judged at a time it was valid.
        let expired = CredentialFixtures.bad("expired.pem")
        let expiredDates = try Self.opensslDates(expired)
        _ = try TLSClientIdentity.pem(
            certificatePath: expired, keyPath: CredentialFixtures.bad("expired.key"),
            now: expiredDates.notAfter.addingTimeInterval(-60))
    }

    @Test func keyNotMatchingCertificate() {
        let certificate = CredentialFixtures.dev("client.pem")
        let key = CredentialFixtures.bad("other.key")
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.pem(certificatePath: certificate, keyPath: key)
        }
        #expect(error == .keyDoesNotMatchCertificate(certificatePath: certificate, keyPath: key))
        #expect(error?.description == "private key \(key) does not belong to certificate \(certificate)")
    }

    @Test func encryptedKeyWithoutOrWithWrongPassword() {
        let certificate = CredentialFixtures.dev("client.pem")
        let key = CredentialFixtures.dev("client-encrypted.key")
        let none = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.pem(certificatePath: certificate, keyPath: key)
        }
        #expect(none == .passwordRequired(path: key))
        let wrong = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.pem(certificatePath: certificate, keyPath: key, keyPassword: "wrong")
        }
        #expect(wrong == .wrongPassword(path: key))
    }

    @Test func keyFileGivenAsCertificate() {
        let path = CredentialFixtures.dev("client.key")
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.pem(certificatePath: path, keyPath: path)
        }
        #expect(error == .missingCertificate(path: path))
        #expect(error?.description == "credential file \(path) contains no certificate")
    }

    @Test func certificateFileGivenAsKey() {
        let path = CredentialFixtures.dev("client.pem")
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.pem(certificatePath: path, keyPath: path)
        }
        #expect(error == .missingPrivateKey(path: path))
    }

    @Test func garbageCertificateAndKey() {
        let garbage = CredentialFixtures.bad("garbage.p8")
        let certificateError = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.pem(certificatePath: garbage, keyPath: CredentialFixtures.dev("client.key"))
        }
        #expect(
            certificateError
                == .wrongFormat(
                    path: garbage, detail: "not a PEM certificate (no \"-----BEGIN CERTIFICATE-----\" line)"))
        let keyError = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.pem(certificatePath: CredentialFixtures.dev("client.pem"), keyPath: garbage)
        }
        guard case .wrongFormat(garbage, _) = keyError else {
            Issue.record("expected wrongFormat, got \(String(describing: keyError))")
            return
        }
    }

    @Test func truncatedCertificate() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("truncated.pem")
        let pem = try Data(contentsOf: URL(fileURLWithPath: CredentialFixtures.dev("client.pem")))
        #expect(FileManager.default.createFile(atPath: path, contents: pem.prefix(300)))
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.pem(certificatePath: path, keyPath: CredentialFixtures.dev("client.key"))
        }
        guard case .wrongFormat(path, let detail) = error else {
            Issue.record("expected wrongFormat, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("damaged or truncated"))
    }

    @Test func directoryAsCertificate() {
        let path = CredentialFixtures.dev("bad")
        let error = #expect(throws: CredentialError.self) {
            try TLSClientIdentity.pem(certificatePath: path, keyPath: CredentialFixtures.dev("client.key"))
        }
        #expect(error == .unreadable(path: path, reason: "it is a directory, not a file"))
    }

    // MARK: - Helpers

    /// notBefore/notAfter as the `openssl` command prints them (independent of our parsing).
    static func opensslDates(_ path: String) throws -> (notBefore: Date, notAfter: Date) {
        let result = try ChildProcess.runBlocking(
            "/usr/bin/env", ["openssl", "x509", "-in", path, "-noout", "-startdate", "-enddate", "-dateopt", "iso_8601"])
        let text = result.stdout
        try #require(result.status == 0)
        var dates: [String: Date] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            // e.g. "2026-01-01 12:00:00Z"
            let iso = parts[1].replacingOccurrences(of: " ", with: "T")
            dates[parts[0]] = try Date(iso, strategy: .iso8601)
        }
        return (try #require(dates["notBefore"]), try #require(dates["notAfter"]))
    }
}
