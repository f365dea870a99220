import Foundation
import MockSupport
import NIOHTTP1

/// The admin control surface: plaintext HTTP/1.1 on 127.0.0.1 (`HMSMockConfiguration.adminPort`),
/// JSON in and out, for the `hms-mock` executable and out-of-process test harnesses.
///
/// | Request | Body | Answer |
/// |---|---|---|
/// | `GET /stats` | — | 200, `HMSMockStats` (snake_case) |
/// | `GET /messages?since=N` | — | 200, JSON array of `RecordedMessage` from index N (default 0) |
/// | `GET /faults` | — | 200, what is still armed (`HMSMockFaults`), invalid tokens included |
/// | `POST /faults` | `HMSMockFaults` | 204 |
/// | `DELETE /faults` | — | 204: counted faults and the delay disarmed |
/// | `POST /invalid-tokens` | `{"tokens": ["…"]}` | 204: those tokens are illegal (80300007 / 80100000) |
/// | `POST /expire-tokens` | — | 204: every access token issued so far is answered 80200003 |
/// | `POST /reset` | — | 204 |
///
/// Errors: 400/404/405 with `{"error":"<what is wrong>"}`.
enum HMSMockAdminAPI {
    private struct TokensRequest: Decodable {
        var tokens: [String]
    }

    private static let paths: Set<String> = ["/stats", "/messages", "/faults", "/invalid-tokens", "/expire-tokens", "/reset"]

    static func respond(method: HTTPMethod, uri: String, body: Data, core: HMSMockCore) -> AdminResponse {
        let components = URLComponents(string: uri)
        let path = components?.path ?? uri
        switch (method, path) {
        case (.GET, "/stats"):
            return .json(core.stats)
        case (.GET, "/messages"):
            let sinceText = components?.queryItems?.first(where: { $0.name == "since" })?.value ?? "0"
            guard let since = Int(sinceText), since >= 0 else {
                return .error(.badRequest, "since must be a non-negative integer, got \"\(sinceText.prefix(40))\"")
            }
            let all = core.messages
            return .json(since < all.count ? Array(all[since...]) : [])
        case (.GET, "/faults"):
            return .json(core.armedFaults)
        case (.POST, "/faults"):
            do {
                core.arm(try JSONDecoder().decode(HMSMockFaults.self, from: body))
                return .noContent
            } catch {
                return .error(.badRequest, "body is not a set of faults: \(error)")
            }
        case (.DELETE, "/faults"):
            core.clearFaults()
            return .noContent
        case (.POST, "/invalid-tokens"):
            do {
                core.markInvalid(try JSONDecoder().decode(TokensRequest.self, from: body).tokens)
                return .noContent
            } catch {
                return .error(.badRequest, "body must be {\"tokens\":[…]}: \(error)")
            }
        case (.POST, "/expire-tokens"):
            core.expireAccessTokens()
            return .noContent
        case (.POST, "/reset"):
            core.reset()
            return .noContent
        case (_, _) where paths.contains(path):
            return .error(.methodNotAllowed, "\(method) is not allowed on \(path)")
        default:
            return .error(.notFound, "no admin endpoint \(path.prefix(200))")
        }
    }
}
