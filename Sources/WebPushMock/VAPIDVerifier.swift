import Crypto
import Foundation
import MockSupport

/// Checks `Authorization: vapid t=<JWT>, k=<key>` as a push service does (RFC 8292 §3-4): an
/// ES256 JWT signed by `k`, for this origin, not expired, at most 24 hours ahead, with a contact.
enum VAPIDVerifier {
    /// Why a push service would refuse it.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    struct Identity: Equatable {
        /// `k`, base64url.
        var publicKey: String
        var subject: String
        var expiresAt: Int64
    }

    static func verify(_ header: String?, audience: String, now: Int64) -> Result<Identity, Refusal> {
        guard let header, header.hasPrefix("vapid ") else { return .failure(Refusal(description: "no vapid Authorization")) }
        var fields: [String: String] = [:]
        for part in header.dropFirst("vapid ".count).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        guard let token = fields["t"], let key = fields["k"] else { return .failure(Refusal(description: "vapid needs t= and k=")) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.bytes(parts[0]), let claimBytes = Base64URL.bytes(parts[1]),
            let signature = Base64URL.bytes(parts[2]), let keyBytes = Base64URL.bytes(key)
        else { return .failure(Refusal(description: "the JWT is not three base64url parts")) }
        guard let jwtHeader = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
            jwtHeader["alg"] as? String == "ES256"
        else { return .failure(Refusal(description: "the JWT's alg is not ES256")) }
        guard let publicKey = try? P256.Signing.PublicKey(x963Representation: keyBytes),
            let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            publicKey.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return .failure(Refusal(description: "the JWT's signature does not verify with k")) }
        guard let claims = try? JSONSerialization.jsonObject(with: Data(claimBytes)) as? [String: Any] else {
            return .failure(Refusal(description: "the JWT's claims are not an object"))
        }
        guard claims["aud"] as? String == audience else { return .failure(Refusal(description: "aud is not \(audience)")) }
        guard let exp = (claims["exp"] as? NSNumber)?.int64Value, exp > now, exp <= now + 24 * 3600 else {
            return .failure(Refusal(description: "exp is missing, past, or more than 24 h ahead"))
        }
        guard let subject = claims["sub"] as? String, subject.hasPrefix("mailto:") || subject.hasPrefix("https:") else {
            return .failure(Refusal(description: "sub is not a mailto: or https: contact"))
        }
        return .success(Identity(publicKey: key, subject: subject, expiresAt: exp))
    }
}
