import Foundation
import MockSupport

/// The admin control surface: plaintext HTTP/1.1 on 127.0.0.1 (``APNsMockConfiguration/adminPort``),
/// JSON in and out, for the `apns-mock` executable and out-of-process test harnesses.
///
/// | Request | Body | Answer |
/// |---|---|---|
/// | `GET /stats` | — | 200, ``APNsMockStats`` |
/// | `GET /notifications?since=N` | — | 200, JSON array of ``RecordedNotification`` from index N (default 0) |
/// | `GET /faults` | — | 200, JSON array of the armed ``APNsMockFault``s with their remaining counts |
/// | `POST /faults` | one ``APNsMockFault`` | 204 |
/// | `DELETE /faults` | — | 204 |
/// | `POST /unregister` | `{"token":"<hex>","timestamp_ms":1700000000000}` (`timestamp_ms` optional, default now) | 204 |
/// | `POST /bad-token` | `{"token":"<hex>"}` | 204 |
/// | `POST /token-environment` | `{"token":"<hex>","environment":"development"}` | 204: a mock of the other environment answers the token 400 `BadDeviceToken` |
/// | `POST /live-activity-token` | `{"token":"<hex>","kind":"start"}` (`start` or `update`) | 204: the token takes only that kind's Live Activity pushes (``LiveActivityTokenKind``) |
/// | `POST /reset` | — | 204 (see ``APNsMockServer/reset()``) |
///
/// Shapes: stats `{"connectionsAccepted":1,"connectionsOpen":1,"tlsHandshakesFailed":0,
/// "requestsReceived":3,"responsesByStatus":{"200":2,"400":1},"distinctProviderTokensAccepted":1,
/// "streamsOpen":0,"maxStreamsConcurrentlyOpenSeen":1,"maxStreamsConcurrentlyOpenOnOneConnection":1,
/// "streamsRefused":0,"goAwaysSent":0,"connectionsDropped":0}`; a notification
/// `{"connectionID":1,"streamID":1,"deviceToken":"ab…","headers":{"apns-topic":"com.example",
/// "apns-id":"…"},"payload":"{\"aps\":{}}","receivedAtMs":1700000000000}`; faults as documented
/// on ``APNsMockFault``. Errors: 400/404/405 with `{"error":"<what is wrong>"}`.
public enum APNsMockAdminAPI {
    private struct UnregisterRequest: Decodable {
        let token: String
        let timestamp_ms: Int64?
    }

    private struct TokenRequest: Decodable {
        let token: String
    }

    private struct LiveActivityTokenRequest: Decodable {
        let token: String
        let kind: LiveActivityTokenKind
    }

    private struct TokenEnvironmentRequest: Decodable {
        let token: String
        let environment: APNsMockConfiguration.Environment
    }

    static func routes(core: MockServerCore) -> AdminRoutes {
        AdminRoutes([
            .init(.GET, "/stats") { _ in .json(core.stats) },
            .init(.GET, "/notifications") { $0.page(of: core.notifications) },
            .init(.GET, "/faults") { _ in .json(core.activeFaults) },
            .init(.POST, "/faults") { $0.applying(APNsMockFault.self, refusal: "body is not a fault") { core.addFault($0) } },
            .command(.DELETE, "/faults") { core.clearFaults() },
            .init(.POST, "/unregister") {
                $0.applying(UnregisterRequest.self, refusal: "body must be {\"token\":…,\"timestamp_ms\":…}") { request in
                    let date =
                        request.timestamp_ms.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? core.configuration.now()
                    core.markUnregistered(token: request.token, at: date)
                }
            },
            .init(.POST, "/bad-token") {
                $0.applying(TokenRequest.self, refusal: "body must be {\"token\":…}") { core.markBadToken($0.token) }
            },
            .init(.POST, "/token-environment") {
                $0.applying(
                    TokenEnvironmentRequest.self, refusal: "body must be {\"token\":…,\"environment\":\"production\"|\"development\"}"
                ) {
                    core.markEnvironment(of: $0.token, $0.environment)
                }
            },
            .init(.POST, "/live-activity-token") {
                $0.applying(LiveActivityTokenRequest.self, refusal: "body must be {\"token\":…,\"kind\":\"start\"|\"update\"}") {
                    core.markLiveActivityToken($0.token, $0.kind)
                }
            },
            .command(.POST, "/reset") { core.reset() },
        ])
    }
}
