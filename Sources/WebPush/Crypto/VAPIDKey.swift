import Crypto
import Foundation
import PushCore

/// An application server's VAPID key pair (RFC 8292): a P-256 signing key, read from PEM (`EC
/// PRIVATE KEY` or PKCS #8, as `openssl ecparam -genkey -name prime256v1` writes it) or from the
/// 32-byte private scalar in base64url (as the `web-push` tools print it).
public struct VAPIDKey: Sendable {
    let signing: P256.Signing.PrivateKey

    public init(text: String) throws(VAPIDKeyError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("-----BEGIN") {
            guard let key = try? P256.Signing.PrivateKey(pemRepresentation: trimmed) else { throw VAPIDKeyError.notAKey("PEM") }
            signing = key
        } else {
            guard let raw = Base64URL.decode(trimmed), raw.count == 32, let key = try? P256.Signing.PrivateKey(rawRepresentation: raw)
            else {
                throw VAPIDKeyError.notAKey("base64url")
            }
            signing = key
        }
    }

    /// The public key, uncompressed, in base64url: the web app's `applicationServerKey` and the
    /// `k` of the Authorization header.
    public var publicKey: String { Base64URL.encode(signing.publicKey.x963Representation) }

    /// An ES256 JWT for `audience` (an origin) valid until `expiresAt` (Unix seconds).
    func token(audience: String, subject: String, expiresAt: Int64) throws -> String {
        let header = Base64URL.encode(#"{"typ":"JWT","alg":"ES256"}"#.utf8)
        let claims = Base64URL.encode(
            JSONWriter.string(.object(["aud": .string(audience), "exp": .int(expiresAt), "sub": .string(subject)])).utf8)
        let input = header + "." + claims
        let signature = try signing.signature(for: Data(input.utf8))
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
}

public enum VAPIDKeyError: Error, Sendable, CustomStringConvertible {
    case notAKey(String)

    public var description: String {
        switch self {
        case .notAKey(let form):
            "is not a P-256 private key (\(form)); make one with `openssl ecparam -genkey -name prime256v1 -noout`"
        }
    }
}
