import APNs
import COpenSSL

/// The RSA private key of a service account, signing OAuth assertions (RS256: RSASSA-PKCS1-v1_5
/// with SHA-256).
///
/// `@unchecked Sendable` is safe: the wrapped `EVP_PKEY` is never modified after `init`, and
/// OpenSSL 3 allows concurrent signing with one key as long as each call uses its own
/// `EVP_MD_CTX` (which `signRS256` creates per call). The key is freed in `deinit`.
public final class FCMSigningKey: @unchecked Sendable {
    private let key: OpaquePointer
    private let source: String

    /// - Parameter source: names the key file in errors (never the key).
    public init(account: FCMServiceAccount, source: String) throws(FCMCredentialError) {
        OpenSSLLibrary.initialize()
        let key: OpaquePointer
        do {
            key = try PrivateKeyReader.read(
                Array(account.privateKeyPEM.utf8), password: nil, path: source, expected: "PEM PKCS#8 private key")
        } catch {
            throw .invalidServiceAccount(source: source, reason: "\"private_key\": \(error)")
        }
        let type = EVPKeyInfo.typeDescription(key)
        guard type.hasPrefix("RSA ") else {
            EVP_PKEY_free(key)
            throw .invalidServiceAccount(source: source, reason: "\"private_key\" is \(type), not an RSA key")
        }
        self.key = key
        self.source = source
    }

    deinit {
        EVP_PKEY_free(key)
    }

    public func signRS256(_ message: [UInt8]) throws(FCMCredentialError) -> [UInt8] {
        do {
            return try EVPDigestSigner.signSHA256(message, with: key)
        } catch {
            throw .signingFailed(source: source, reason: error.description)
        }
    }
}
