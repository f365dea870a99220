import Foundation
import PushCore
import UUIDText

/// One queued push (to APNs or FCM) and where it stands.
public struct DeliveryRecord: Sendable, Hashable {
    public var id: Int64
    public var appID: String
    public var messageID: Int64
    public var userID: String
    public var deviceToken: String
    public var payload: Data
    public var pushID: UUID
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

    /// Where it goes.
    public var provider: PushProvider

    /// A delivery just inserted by `commitEvents`, as the dispatcher would have claimed it.
    package init(id: Int64, event: AcceptedEvent, delivery d: NewDelivery) {
        self.id = id
        appID = event.appID
        messageID = event.messageID
        userID = d.userID
        deviceToken = d.deviceToken
        payload = d.payload
        pushID = d.pushID
        provider = d.provider
        pushType = d.pushType
        priority = d.priority
        expiresAtMs = d.expiresAtMs
        state = event.handedOff ? .inFlight : .pending
        attempts = 0
        nextAttemptAtMs = event.acceptedAtMs
        createdAtMs = event.acceptedAtMs
        updatedAtMs = event.acceptedAtMs
    }

    /// The columns `init(_:)` reads, in its order, from `deliveries d`.
    static let columns = """
        d.id, d.app_id, d.message_id, d.user_id, d.device_token, d.push_id, d.push_type, d.priority, d.expires_at_ms, \
        d.state, d.attempts, d.next_attempt_at_ms, d.last_status, d.last_reason, d.sent_at_ms, d.created_at_ms, d.updated_at_ms, \
        d.provider
        """

    /// A row of `SELECT \(columns)`, read by position (the claim reads thousands).
    init(_ row: RawStatement.Row, payload: Data = Data()) throws {
        id = row.int64(0)
        appID = row.string(1)
        messageID = row.int64(2)
        userID = row.string(3)
        deviceToken = row.string(4)
        let rawID = row.string(5)
        guard let uuid = UUIDText.parse(rawID) else {
            throw PushStoreError.corruptValue(table: "deliveries", column: "push_id", value: rawID)
        }
        pushID = uuid
        let rawProvider = row.optionalString(17)
        guard let provider = rawProvider.flatMap(PushProvider.init(rawValue:)) else {
            throw PushStoreError.corruptValue(table: "deliveries", column: "provider", value: rawProvider ?? "NULL")
        }
        self.provider = provider
        pushType = row.string(6)
        priority = Int(row.int64(7))
        expiresAtMs = row.int64(8)
        state = DeliveryState(rawValue: row.string(9))
        attempts = Int(row.int64(10))
        nextAttemptAtMs = row.int64(11)
        lastStatus = row.optionalInt64(12).map(Int.init)
        lastReason = row.optionalString(13)
        sentAtMs = row.optionalInt64(14)
        createdAtMs = row.int64(15)
        updatedAtMs = row.int64(16)
        self.payload = payload
    }
}
