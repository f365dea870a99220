import Foundation

/// Why a credential file (a private key, a `.p12` or PEM client identity) could not be used.
///
/// Every case names the file (or source) at fault and its `description` says what is wrong in
/// plain words, so it can be shown to an operator as is. Secrets (passwords, key bytes) never
/// appear in it.
public enum CredentialError: Error, CustomStringConvertible, Equatable, Sendable {
    /// Nothing exists at `path`.
    case fileNotFound(path: String)
    /// `path` exists but cannot be read (permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// The file is not in the expected format, e.g. "not a PEM PKCS#8 private key".
    case wrongFormat(path: String, detail: String)
    /// The key is of another type than required, e.g. found "RSA 2048", expected "EC P-256".
    case wrongKeyType(path: String, found: String, expected: String)
    /// The file is protected by a password and none was given.
    case passwordRequired(path: String)
    /// The password given does not open the file.
    case wrongPassword(path: String)
    /// The file is encrypted with an algorithm this OpenSSL cannot use (for example RC2 in a
    /// `.p12` exported by macOS Keychain when OpenSSL's "legacy" provider is not installed).
    case unsupportedEncryption(path: String, detail: String)
    /// The file holds no private key (e.g. a `.p12` exported without its key).
    case missingPrivateKey(path: String)
    /// The file holds no certificate.
    case missingCertificate(path: String)
    /// The private key is not the one the certificate was issued for.
    case keyDoesNotMatchCertificate(certificatePath: String, keyPath: String)
    /// The certificate expired at `notAfter`.
    case expiredCertificate(path: String, notAfter: Date)
    /// The certificate only becomes valid at `notBefore`.
    case certificateNotYetValid(path: String, notBefore: Date)
    /// OpenSSL failed to sign with the key loaded from `source`.
    case signingFailed(source: String, reason: String)
    /// The identity loaded from `source` could not be installed into a TLS context.
    case installFailed(source: String, reason: String)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "credential file \(path) does not exist"
        case .unreadable(let path, let reason):
            return "credential file \(path) cannot be read: \(reason)"
        case .wrongFormat(let path, let detail):
            return "credential file \(path) has the wrong format: \(detail)"
        case .wrongKeyType(let path, let found, let expected):
            return "credential file \(path) holds a key of type \(found), but type \(expected) is required"
        case .passwordRequired(let path):
            return "credential file \(path) is password-protected and no password was given"
        case .wrongPassword(let path):
            return "the password for credential file \(path) is wrong"
        case .unsupportedEncryption(let path, let detail):
            return "credential file \(path) uses encryption this OpenSSL cannot read: \(detail)"
        case .missingPrivateKey(let path):
            return "credential file \(path) contains no private key"
        case .missingCertificate(let path):
            return "credential file \(path) contains no certificate"
        case .keyDoesNotMatchCertificate(let certificatePath, let keyPath):
            if certificatePath == keyPath {
                return "in credential file \(keyPath) the private key does not belong to the certificate"
            }
            return "private key \(keyPath) does not belong to certificate \(certificatePath)"
        case .expiredCertificate(let path, let notAfter):
            return "certificate in \(path) expired on \(notAfter.formatted(.iso8601))"
        case .certificateNotYetValid(let path, let notBefore):
            return "certificate in \(path) is not valid before \(notBefore.formatted(.iso8601)) "
                + "(check the system clock)"
        case .signingFailed(let source, let reason):
            return "signing with the key from \(source) failed: \(reason)"
        case .installFailed(let source, let reason):
            return "the client certificate from \(source) could not be set up for TLS: \(reason)"
        }
    }
}
