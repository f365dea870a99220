import Foundation
import HTTP2Transport

/// An APNs push certificate with its private key (certificate-based authentication), presented
/// as the TLS client certificate.
///
/// Load it with `p12(path:password:now:)` (what Keychain exports) or
/// `pem(certificatePath:keyPath:keyPassword:now:)`. Loading checks that the key belongs to the
/// certificate and that the certificate is valid at `now`.
public final class APNsClientIdentity: Sendable, CustomStringConvertible {
    /// What the transport presents during the handshake.
    package let tls: TLSClientIdentity
    /// Bundle IDs the certificate is for, best effort (from the subject UID and CN).
    public let topics: [String]

    init(_ tls: TLSClientIdentity) {
        self.tls = tls
        topics = Self.topics(tls.subjectEntries)
    }

    /// Loads a `.p12` (PKCS#12) file, as exported from macOS Keychain (including the legacy
    /// RC2/3DES encryption Keychain uses).
    ///
    /// - Parameters:
    ///   - password: the export password; nil or "" for a file exported without one.
    ///   - now: the time the certificate must be valid at.
    public static func p12(path: String, password: String?, now: Date = Date()) throws(APNsCredentialError) -> APNsClientIdentity {
        try load { () throws(CredentialError) in try TLSClientIdentity.p12(path: path, password: password, now: now) }
    }

    /// Loads PKCS#12 data (e.g. from a secret store); `source` names it in error messages.
    public static func p12(
        bytes: [UInt8], password: String?, source: String, now: Date = Date()
    ) throws(APNsCredentialError) -> APNsClientIdentity {
        try load { () throws(CredentialError) in try TLSClientIdentity.p12(bytes: bytes, password: password, source: source, now: now) }
    }

    /// Loads a push certificate and its private key from PEM files (e.g. converted from a
    /// `.p12` with `openssl pkcs12 -nodes`); see `TLSClientIdentity.pem`.
    public static func pem(
        certificatePath: String, keyPath: String, keyPassword: String? = nil, now: Date = Date()
    ) throws(APNsCredentialError) -> APNsClientIdentity {
        try load { () throws(CredentialError) in
            try TLSClientIdentity.pem(certificatePath: certificatePath, keyPath: keyPath, keyPassword: keyPassword, now: now)
        }
    }

    private static func load(_ body: () throws(CredentialError) -> TLSClientIdentity) throws(APNsCredentialError) -> APNsClientIdentity {
        do {
            return APNsClientIdentity(try body())
        } catch {
            throw .credential(error)
        }
    }

    /// The file(s) the identity came from, for messages.
    public var source: String { tls.source }
    /// End of validity of the certificate.
    public var notAfter: Date { tls.notAfter }
    /// Start of validity of the certificate.
    public var notBefore: Date { tls.notBefore }
    /// The certificate subject on one line, e.g. `CN=Apple Push Services: com.example.app, O=…`.
    public var subject: String { tls.subject }
    /// Number of chain certificates sent after the leaf.
    public var chainLength: Int { tls.chainLength }

    public var description: String {
        "APNsClientIdentity(\(subject), valid until \(notAfter.formatted(.iso8601)), from \(source))"
    }

    /// The app bundle IDs a push certificate is for, best effort: Apple puts the bundle ID in
    /// the subject's UID and in the CN after "Apple Push Services: " (older certificates:
    /// "Apple Development/Production IOS Push Services: "). The topic list extension
    /// (1.2.840.113635.100.6.3.6) is not read.
    static func topics(_ subject: [(name: String, value: String)]) -> [String] {
        var topics: [String] = []
        for entry in subject {
            var candidate: String?
            if entry.name == "UID" {
                candidate = entry.value
            } else if entry.name == "CN", let range = entry.value.range(of: "Push Services: ") {
                candidate = String(entry.value[range.upperBound...])
            }
            if let topic = candidate?.trimmingCharacters(in: .whitespaces), !topic.isEmpty,
                !topics.contains(topic)
            {
                topics.append(topic)
            }
        }
        return topics
    }
}
