import Foundation
import MockSupport
import NIOHTTP1

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
    typealias Response = AdminResponse

    private struct UnregisterRequest: Decodable {
        let token: String
        let timestamp_ms: Int64?
    }

    private struct TokenRequest: Decodable {
        let token: String
    }

    /// Routes one request.
    static func respond(method: HTTPMethod, uri: String, body: Data, core: MockServerCore) -> Response {
        let components = URLComponents(string: uri)
        let path = components?.path ?? uri
        switch (method, path) {
        case (.GET, "/stats"):
            return .json(core.stats)
        case (.GET, "/notifications"):
            let sinceText = components?.queryItems?.first(where: { $0.name == "since" })?.value ?? "0"
            guard let since = Int(sinceText), since >= 0 else {
                return .error(.badRequest, "since must be a non-negative integer, got \"\(sinceText)\"")
            }
            let all = core.notifications
            return .json(since < all.count ? Array(all[since...]) : [])
        case (.GET, "/faults"):
            return .json(core.activeFaults)
        case (.POST, "/faults"):
            do {
                core.addFault(try JSONDecoder().decode(APNsMockFault.self, from: body))
                return .noContent
            } catch {
                return .error(.badRequest, "body is not a fault: \(error)")
            }
        case (.DELETE, "/faults"):
            core.clearFaults()
            return .noContent
        case (.POST, "/unregister"):
            do {
                let request = try JSONDecoder().decode(UnregisterRequest.self, from: body)
                let date =
                    request.timestamp_ms.map { Date(timeIntervalSince1970: Double($0) / 1000) }
                    ?? core.configuration.now()
                core.markUnregistered(token: request.token, at: date)
                return .noContent
            } catch {
                return .error(.badRequest, "body must be {\"token\":…,\"timestamp_ms\":…}: \(error)")
            }
        case (.POST, "/bad-token"):
            do {
                core.markBadToken(try JSONDecoder().decode(TokenRequest.self, from: body).token)
                return .noContent
            } catch {
                return .error(.badRequest, "body must be {\"token\":…}: \(error)")
            }
        case (.POST, "/reset"):
            core.reset()
            return .noContent
        case (_, "/stats"), (_, "/notifications"), (_, "/faults"), (_, "/unregister"), (_, "/bad-token"), (_, "/reset"):
            return .error(.methodNotAllowed, "\(method) is not allowed on \(path)")
        default:
            return .error(.notFound, "no admin endpoint \(path)")
        }
    }
}
