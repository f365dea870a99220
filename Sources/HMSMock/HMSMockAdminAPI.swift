import Foundation
import MockSupport

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

    static func routes(core: HMSMockCore) -> AdminRoutes {
        AdminRoutes([
            .init(.GET, "/stats") { _ in .json(core.stats) },
            .init(.GET, "/messages") { $0.page(of: core.messages) },
            .init(.GET, "/faults") { _ in .json(core.armedFaults) },
            .init(.POST, "/faults") { $0.applying(HMSMockFaults.self, refusal: "body is not a set of faults") { core.arm($0) } },
            .command(.DELETE, "/faults") { core.clearFaults() },
            .init(.POST, "/invalid-tokens") {
                $0.applying(TokensRequest.self, refusal: "body must be {\"tokens\":[…]}") { core.markInvalid($0.tokens) }
            },
            .command(.POST, "/expire-tokens") { core.expireAccessTokens() },
            .command(.POST, "/reset") { core.reset() },
        ])
    }
}
