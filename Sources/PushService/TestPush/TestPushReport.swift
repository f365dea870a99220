import Foundation
import PushCore

/// What a test push found, device by device. Device tokens are held redacted only (`Redaction`):
/// the report is shown (the REST answer, the CLI's table) and logged.
public struct TestPushReport: Sendable, Hashable {
    public var appID: String
    /// The user tested, or the device token's owner; nil for a token nobody of the app holds.
    public var userID: String?
    /// One per device, the user's in registration order.
    public var results: [TestPushResult]

    /// Whether every device's provider accepted the push.
    public var allSent: Bool { !results.isEmpty && results.allSatisfy { $0.status == .sent } }
}

/// One device's test push.
public struct TestPushResult: Sendable, Hashable {
    public var provider: PushProvider
    /// Redacted: its first characters and "…".
    public var deviceToken: String
    public var status: TestPushStatus
    /// The provider's HTTP status, when it answered.
    public var httpStatus: Int?
    /// The provider's reason or code (APNs' `reason`, FCM's error status, HMS's `code`).
    public var reason: String?
    /// Why there was no answer, or the provider's own words (secrets and tokens scrubbed).
    public var error: String?
    /// The relay's id for this push: APNs' `apns-id`, and its id in the delivery log.
    public var pushID: UUID
    /// The provider's id for it: the `apns-id` APNs answered for, FCM's message name, HMS's
    /// request id (those two once accepted).
    public var providerMessageID: String?
    /// From handing the push to the provider's client to its answer; nil when nothing was sent.
    public var latencyMs: Int64?
    /// Whether the dead token was removed from the registry.
    public var tokenRemoved: Bool
}
