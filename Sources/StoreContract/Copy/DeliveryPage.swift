import Foundation

/// A page of the delivery queue and log, for `push-relay migrate-store`: each delivery with its
/// payload and its attempts, in SQLite's id order. The ids themselves are not kept (the target
/// numbers its own); `pushID`, chosen at accept time, identifies a delivery anywhere.
public struct DeliveryPage: Sendable {
    public struct Delivery: Sendable, Hashable {
        public var appID: String
        public var messageID: Int64
        public var userID: String
        public var deviceToken: String
        public var pushID: String
        public var provider: String
        public var pushType: String
        public var priority: Int64
        public var expiresAtMs: Int64
        /// As stored (`DeliveryState.rawValue`).
        public var state: String
        public var attempts: Int64
        public var nextAttemptAtMs: Int64
        public var lastStatus: Int64?
        public var lastReason: String?
        public var sentAtMs: Int64?
        public var createdAtMs: Int64
        public var updatedAtMs: Int64
        public var acknowledgedAtMs: Int64?
        public var clickedAtMs: Int64?
        /// FCM's name for a sent FCM push.
        public var providerMessageID: String?
        /// A test push's (`TestDelivery`).
        public var isTest: Bool
        /// nil only for a row whose payload was lost (none is, today).
        public var payload: Data?
        /// Oldest first.
        public var attemptLog: [Attempt]

        package init(
            appID: String, messageID: Int64, userID: String, deviceToken: String, pushID: String, provider: String, pushType: String,
            priority: Int64, expiresAtMs: Int64, state: String, attempts: Int64, nextAttemptAtMs: Int64, lastStatus: Int64?,
            lastReason: String?, sentAtMs: Int64?, createdAtMs: Int64, updatedAtMs: Int64, acknowledgedAtMs: Int64?, clickedAtMs: Int64?,
            providerMessageID: String?, isTest: Bool, payload: Data?, attemptLog: [Attempt]
        ) {
            self.appID = appID
            self.messageID = messageID
            self.userID = userID
            self.deviceToken = deviceToken
            self.pushID = pushID
            self.provider = provider
            self.pushType = pushType
            self.priority = priority
            self.expiresAtMs = expiresAtMs
            self.state = state
            self.attempts = attempts
            self.nextAttemptAtMs = nextAttemptAtMs
            self.lastStatus = lastStatus
            self.lastReason = lastReason
            self.sentAtMs = sentAtMs
            self.createdAtMs = createdAtMs
            self.updatedAtMs = updatedAtMs
            self.acknowledgedAtMs = acknowledgedAtMs
            self.clickedAtMs = clickedAtMs
            self.providerMessageID = providerMessageID
            self.isTest = isTest
            self.payload = payload
            self.attemptLog = attemptLog
        }
    }

    public struct Attempt: Sendable, Hashable {
        public var atMs: Int64
        public var status: Int64?
        public var reason: String?
        public var error: String?
        public var pushID: String

        package init(atMs: Int64, status: Int64?, reason: String?, error: String?, pushID: String) {
            self.atMs = atMs
            self.status = status
            self.reason = reason
            self.error = error
            self.pushID = pushID
        }
    }

    public let deliveries: [Delivery]
    /// The SQLite id to continue after; nil after the last page.
    public let next: Int64?

    package init(deliveries: [Delivery], next: Int64?) {
        self.deliveries = deliveries
        self.next = next
    }
}
