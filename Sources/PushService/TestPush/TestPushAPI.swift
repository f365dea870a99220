import Hummingbird
import PushCore
import UUIDText

/// `POST /v3/push/test` (a PushRelay extension, not a Sendbird call): a test push to a user's
/// devices or to one device token, answered with each provider's answer. Behind an API token
/// (master or secondary) of the app; a session token gets 403. Each app may send
/// `apps[].limits.test_pushes_per_minute`.
struct TestPushAPI: Sendable {
    let testPush: TestPush
    let rateLimits: TestPushRateLimiter
    let bodyLimit: Int

    func register(on v3: RouterGroup<RelayRequestContext>) {
        v3.post("push/test") { request, context in
            let app = try context.requireApp()
            let body = try await request.jsonObject(limit: bodyLimit)
            let test = try TestPushRequest(
                user: try body.string("user_id"), tokenType: try body.string("token_type"), deviceToken: try body.string("device_token"),
                message: try body.string("message"), title: try body.string("title"))
            // Counted once the request is understood: a typo costs no test push.
            try rateLimits.admit(app)
            return TestPushBody(try await testPush.send(test, app: app.appID))
        }
    }
}

/// The answer: `{"user_id", "results": [{"provider", "device_token", "status", …}]}`.
struct TestPushBody: ResponseEncodable {
    struct Result: Encodable {
        var provider: String
        var device_token: String
        var status: String
        var http_status: Int?
        var reason: String?
        var error: String?
        var push_id: String
        var provider_message_id: String?
        var latency_ms: Int64?
        var token_removed: Bool
    }

    var user_id: String?
    var results: [Result]

    init(_ report: TestPushReport) {
        user_id = report.userID
        results = report.results.map {
            Result(
                provider: $0.provider.rawValue, device_token: $0.deviceToken, status: $0.status.rawValue, http_status: $0.httpStatus,
                reason: $0.reason, error: $0.error, push_id: UUIDText.lowercase($0.pushID), provider_message_id: $0.providerMessageID,
                latency_ms: $0.latencyMs, token_removed: $0.tokenRemoved)
        }
    }
}
