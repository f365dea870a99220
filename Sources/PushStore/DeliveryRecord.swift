import Foundation
import GRDB

/// One queued APNs request and where it stands.
public struct DeliveryRecord: Sendable, Hashable {
    public var id: Int64
    public var appID: String
    public var messageID: Int64
    public var userID: String
    public var deviceToken: String
    public var payload: Data
    public var apnsID: UUID
    public var pushType: String
    public var priority: Int
    public var expiresAtMs: Int64
    public var state: DeliveryState
    /// Attempts that reached (or tried to reach) APNs.
    public var attempts: Int
    public var nextAttemptAtMs: Int64
    public var lastStatus: Int?
    public var lastReason: String?
    public var sentAtMs: Int64?
    public var createdAtMs: Int64
    public var updatedAtMs: Int64

    /// A delivery just inserted by `commitEvents`, as the dispatcher would have claimed it.
    init(id: Int64, event: AcceptedEvent, delivery d: NewDelivery) {
        self.id = id
        appID = event.appID
        messageID = event.messageID
        userID = d.userID
        deviceToken = d.deviceToken
        payload = d.payload
        apnsID = d.apnsID
        pushType = d.pushType
        priority = d.priority
        expiresAtMs = d.expiresAtMs
        state = event.handedOff ? .inFlight : .pending
        attempts = 0
        nextAttemptAtMs = event.acceptedAtMs
        createdAtMs = event.acceptedAtMs
        updatedAtMs = event.acceptedAtMs
    }

    init(row: Row) throws {
        id = row["id"]
        appID = row["app_id"]
        messageID = row["message_id"]
        userID = row["user_id"]
        deviceToken = row["device_token"]
        // Only the claim joins `delivery_payloads`; the delivery log does not need the bytes.
        payload = row["payload"] ?? Data()
        let rawID: String = row["apns_id"]
        guard let uuid = UUID(uuidString: rawID) else {
            throw PushStoreError.corruptValue(table: "deliveries", column: "apns_id", value: rawID)
        }
        apnsID = uuid
        pushType = row["push_type"]
        priority = row["priority"]
        expiresAtMs = row["expires_at_ms"]
        state = DeliveryState(rawValue: row["state"])
        attempts = row["attempts"]
        nextAttemptAtMs = row["next_attempt_at_ms"]
        lastStatus = row["last_status"]
        lastReason = row["last_reason"]
        sentAtMs = row["sent_at_ms"]
        createdAtMs = row["created_at_ms"]
        updatedAtMs = row["updated_at_ms"]
    }
}
