import Crypto
import Foundation
import MockSupport
import _CryptoExtras

/// Checks a service account's token-request assertions as Google's token endpoint does: an RS256
/// JWT whose `kid` is the account's key id, signed with its key, issued by its email, for the FCM
/// scope, addressed to its `token_uri`, valid now and for at most an hour.
struct ServiceAccountVerifier: Sendable {
    let projectID: String
    let clientEmail: String
    let privateKeyID: String
    let tokenURI: String
    private let publicKey: _RSA.Signing.PublicKey

    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    /// Google's own token endpoint, accepted as the audience too.
    static let googleTokenURI = "https://oauth2.googleapis.com/token"

    enum Rejection: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case badSignature
        case wrongClaim(String)

        var description: String {
            switch self {
            case .malformed(let what): "malformed assertion: \(what)"
            case .badSignature: "Invalid JWT Signature."
            case .wrongClaim(let what): what
            }
        }
    }

    init(path: String) throws(FCMMockError) {
        struct File: Decodable {
            var type: String?
            var project_id: String
            var private_key_id: String
            var private_key: String
            var client_email: String
            var token_uri: String
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .invalidServiceAccount(path: path, detail: "not a service account JSON key (\(error))")
        }
        do {
            publicKey = try _RSA.Signing.PrivateKey(pemRepresentation: file.private_key).publicKey
        } catch {
            // The error names the key type, never its bytes.
            throw .invalidServiceAccount(path: path, detail: "private_key is not an RSA key in PEM")
        }
        projectID = file.project_id
        clientEmail = file.client_email
        privateKeyID = file.private_key_id
        tokenURI = file.token_uri
    }

    /// Verifies `assertion` at `now` (Unix seconds).
    func verify(_ assertion: String, now: Int64) -> Result<Void, Rejection> {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(.malformed("not three dot-separated parts")) }
        struct Header: Decodable {
            var alg: String?
            var kid: String?
        }
        struct Claims: Decodable {
            var iss: String?
            var scope: String?
            var aud: String?
            var iat: Int64?
            var exp: Int64?
        }
        guard let headerData = Base64URL.decode(parts[0]), let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else { return .failure(.malformed("header")) }
        guard let claimsData = Base64URL.decode(parts[1]), let claims = try? JSONDecoder().decode(Claims.self, from: claimsData)
        else { return .failure(.malformed("claims")) }
        guard let signature = Base64URL.decode(parts[2]) else { return .failure(.malformed("signature")) }
        guard header.alg == "RS256" else { return .failure(.wrongClaim("alg must be RS256")) }
        guard header.kid == privateKeyID else { return .failure(.wrongClaim("kid does not name this account's key")) }
        let signed = Data((parts[0] + "." + parts[1]).utf8)
        guard
            publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: signed), padding: .insecurePKCS1v1_5)
        else { return .failure(.badSignature) }
        guard claims.iss == clientEmail else { return .failure(.wrongClaim("iss is not the service account's email")) }
        guard (claims.scope ?? "").split(separator: " ").contains(Substring(Self.scope)) else {
            return .failure(.wrongClaim("scope does not include \(Self.scope)"))
        }
        guard claims.aud == tokenURI || claims.aud == Self.googleTokenURI else {
            return .failure(.wrongClaim("aud must be the token URI"))
        }
        guard let iat = claims.iat, let exp = claims.exp else { return .failure(.wrongClaim("iat and exp are required")) }
        // Google allows a few minutes of clock skew and assertions of at most an hour.
        guard iat <= now + 300, exp > now, exp > iat, exp - iat <= 3600 else {
            return .failure(.wrongClaim("Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe."))
        }
        return .success(())
    }
}
