import Foundation

/// One answer a request-level mock writes: status, JSON body, and a `Retry-After` when a fault sets
/// one. `MockRequestHandler` writes it.
package protocol MockHTTPAnswer: Sendable {
    var status: Int { get }
    var body: Data { get }
    /// Sent as `retry-after`, in seconds, when set.
    var retryAfterSeconds: Int? { get }
    /// The body's `content-type`, written exactly as the provider writes it.
    static var contentType: String { get }
    /// Sent as `location` when set (RFC 8030's 201 names the message it created).
    var location: String? { get }
    /// Further response headers (APNs' channel management answers `apns-channel-id`).
    var extraHeaders: [(name: String, value: String)] { get }
}

extension MockHTTPAnswer {
    package var location: String? { nil }
    package var extraHeaders: [(name: String, value: String)] { [] }
}
