import Foundation
import PushSending

/// The OAuth 2.0 client-credentials exchange: the app id and secret posted form-encoded to the
/// token endpoint; the answer is a bearer access token for `messages:send`.
public enum HMSAccessTokenRequest {
    /// `application/x-www-form-urlencoded` body.
    public static func body(appID: String, clientSecret: String) -> [UInt8] {
        Array("grant_type=client_credentials&client_id=\(formEncoded(appID))&client_secret=\(formEncoded(clientSecret))".utf8)
    }

    /// The answer `{"access_token", "expires_in", "token_type": "Bearer"}`, received at `now`
    /// (Unix seconds).
    public static func accessToken(from body: [UInt8], receivedAt now: Int64) -> AccessToken? {
        struct Answer: Decodable {
            var access_token: String?
            var expires_in: Int64?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(body)), let token = answer.access_token, !token.isEmpty
        else { return nil }
        return AccessToken(value: token, expiresAt: now + max(0, answer.expires_in ?? 3600))
    }

    /// Why the endpoint refused: its `error_description` (or `error`), cut short; never the secret.
    public static func refusal(_ body: [UInt8]) -> String {
        struct Answer: Decodable {
            var error: Int?
            var error_description: String?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(body)) else { return "no OAuth error in the answer" }
        let text = answer.error_description ?? answer.error.map { "error \($0)" } ?? "no OAuth error in the answer"
        return String(text.prefix(200))
    }

    private static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
