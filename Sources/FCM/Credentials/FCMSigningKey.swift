import HTTP2Transport

/// The RSA private key of a service account, signing OAuth assertions (RS256: RSASSA-PKCS1-v1_5
/// with SHA-256).
public final class FCMSigningKey: Sendable {
    private let key: EVPPrivateKey
    private let source: String

    /// - Parameter source: names the key file in errors (never the key).
    public init(account: FCMServiceAccount, source: String) throws(FCMCredentialError) {
        let key: EVPPrivateKey
        do {
            key = try EVPPrivateKey(
                Array(account.privateKeyPEM.utf8), password: nil, path: source, expected: "PEM PKCS#8 private key")
        } catch {
            throw .invalidServiceAccount(source: source, reason: "\"private_key\": \(error)")
        }
        let type = key.typeDescription
        guard type.hasPrefix("RSA ") else {
            throw .invalidServiceAccount(source: source, reason: "\"private_key\" is \(type), not an RSA key")
        }
        self.key = key
        self.source = source
    }

    public func signRS256(_ message: [UInt8]) throws(FCMCredentialError) -> [UInt8] {
        do {
            return try key.signSHA256(message)
        } catch {
            throw .signingFailed(source: source, reason: error.description)
        }
    }
}
