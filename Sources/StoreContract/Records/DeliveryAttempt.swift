import Foundation

/// One try to hand a delivery to APNs.
public struct DeliveryAttempt: Sendable, Hashable {
    public var atMs: Int64
    /// The HTTP status APNs answered; nil when no answer came (timeout, connection lost).
    public var status: Int?
    /// APNs' `reason`.
    public var reason: String?
    /// The transport error when there was no answer.
    public var error: String?
    public var pushID: UUID

    public init(atMs: Int64, status: Int?, reason: String?, error: String?, pushID: UUID) {
        self.atMs = atMs
        self.status = status
        self.reason = reason
        self.error = error
        self.pushID = pushID
    }
}

extension DeliveryAttempt {
    /// APNs' plain 200: nothing to say beyond what the sent delivery's row holds (`sent_at_ms`,
    /// `last_status`, its `push_id`, which every attempt of a delivery reuses).
    package var isPlainAcceptance: Bool { status == 200 && reason == nil && error == nil }
}
