import Foundation
import MockSupport

/// One answer the mock writes: RFC 8030's 201 with a `Location`, or an error with a short JSON
/// body (as Mozilla's autopush writes them).
struct WebPushMockAnswer: Sendable, Equatable, MockHTTPAnswer {
    var status: Int
    var body: Data
    var retryAfterSeconds: Int?
    var location: String?

    static let contentType = "application/json"

    static func created(_ location: String) -> WebPushMockAnswer {
        WebPushMockAnswer(status: 201, body: Data(), location: location)
    }

    static func error(_ status: Int, _ message: String, retryAfter: Int? = nil) -> WebPushMockAnswer {
        WebPushMockAnswer(status: status, body: json(["code": String(status), "message": message]), retryAfterSeconds: retryAfter)
    }

    private static func json(_ fields: [String: String]) -> Data {
        (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
