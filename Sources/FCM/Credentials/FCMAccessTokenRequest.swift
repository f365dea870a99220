import Foundation
import HTTP2Transport
import PushSending

/// The OAuth 2.0 token exchange of a service account (RFC 7523): a JWT assertion signed with its
/// key, posted form-encoded to its `token_uri`; the answer is a bearer access token for FCM.
public struct FCMAccessTokenRequest: Sendable {
    /// How long an assertion is valid (Google's maximum).
    public static let assertionLifetimeSeconds: Int64 = 3600

    /// `application/x-www-form-urlencoded` body of the token request, at `now` (Unix seconds).
    public static func body(account: FCMServiceAccount, key: FCMSigningKey, now: Int64) throws(FCMCredentialError) -> Data {
        let assertion = try assertion(account: account, key: key, now: now)
        return Data("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)".utf8)
    }

    /// The signed JWT: `kid` names the key, `iss` the account, `scope` FCM, `aud` the token URI.
    public static func assertion(account: FCMServiceAccount, key: FCMSigningKey, now: Int64) throws(FCMCredentialError) -> String {
        let header = jsonObject([("alg", "RS256"), ("typ", "JWT"), ("kid", account.privateKeyID)])
        let claims =
            "{\"iss\":\(quoted(account.clientEmail)),\"scope\":\(quoted(FCMServiceAccount.scope)),"
            + "\"aud\":\(quoted(account.tokenURI.absoluteString)),\"iat\":\(now),\"exp\":\(now + assertionLifetimeSeconds)}"
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        return signingInput + "." + Base64URL.encode(try key.signRS256(Array(signingInput.utf8)))
    }

    /// The token endpoint's answer: `{"access_token", "expires_in", "token_type": "Bearer"}`.
    public static func accessToken(from body: Data, receivedAt now: Int64) -> AccessToken? {
        struct Answer: Decodable {
            var access_token: String?
            var expires_in: Int64?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: body), let token = answer.access_token, !token.isEmpty
        else { return nil }
        return AccessToken(value: token, expiresAt: now + max(0, answer.expires_in ?? 3600))
    }

    private static func jsonObject(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(quoted($0.0)):\(quoted($0.1))" }.joined(separator: ",") + "}"
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}
