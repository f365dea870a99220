import Foundation
import MockSupport
import NIOHTTP1

/// The admin control surface: plaintext HTTP/1.1 on 127.0.0.1 (`FCMMockConfiguration.adminPort`),
/// JSON in and out, for the `fcm-mock` executable and out-of-process test harnesses.
///
/// | Request | Body | Answer |
/// |---|---|---|
/// | `GET /stats` | — | 200, `FCMMockStats` (snake_case) |
/// | `GET /messages?since=N` | — | 200, JSON array of `RecordedMessage` from index N (default 0) |
/// | `GET /faults` | — | 200, what is still armed (`FCMMockFaults`) |
/// | `POST /faults` | `FCMMockFaults` | 204 |
/// | `DELETE /faults` | — | 204 |
/// | `POST /unregister` | `{"tokens": ["…"]}` | 204: those tokens are answered 404 `UNREGISTERED` |
/// | `POST /expire-tokens` | — | 204: every access token issued so far is answered 401 |
/// | `POST /reset` | — | 204 |
///
/// Errors: 400/404/405 with `{"error":"<what is wrong>"}`.
enum FCMMockAdminAPI {
    private struct TokensRequest: Decodable {
        var tokens: [String]
    }

    static func respond(method: HTTPMethod, uri: String, body: Data, core: FCMMockCore) -> AdminResponse {
        let components = URLComponents(string: uri)
        let path = components?.path ?? uri
        switch (method, path) {
        case (.GET, "/stats"):
            return .json(core.stats)
        case (.GET, "/messages"):
            let sinceText = components?.queryItems?.first(where: { $0.name == "since" })?.value ?? "0"
            guard let since = Int(sinceText), since >= 0 else {
                return .error(.badRequest, "since must be a non-negative integer, got \"\(sinceText)\"")
            }
            let all = core.messages
            return .json(since < all.count ? Array(all[since...]) : [])
        case (.GET, "/faults"):
            return .json(core.armedFaults)
        case (.POST, "/faults"):
            do {
                core.arm(try JSONDecoder().decode(FCMMockFaults.self, from: body))
                return .noContent
            } catch {
                return .error(.badRequest, "body is not a set of faults: \(error)")
            }
        case (.DELETE, "/faults"):
            core.clearFaults()
            return .noContent
        case (.POST, "/unregister"):
            do {
                core.markUnregistered(try JSONDecoder().decode(TokensRequest.self, from: body).tokens)
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
        case (_, "/stats"), (_, "/messages"), (_, "/faults"), (_, "/unregister"), (_, "/expire-tokens"), (_, "/reset"):
            return .error(.methodNotAllowed, "\(method) is not allowed on \(path)")
        default:
            return .error(.notFound, "no admin endpoint \(path)")
        }
    }
}
