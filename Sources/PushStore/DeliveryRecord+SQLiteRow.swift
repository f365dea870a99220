import Foundation
import PushCore
import StoreContract
import UUIDText

extension DeliveryRecord {
    /// The columns `init(_:)` reads, in its order, from `deliveries d`.
    static let columns = """
        d.id, d.app_id, d.message_id, d.user_id, d.device_token, d.push_id, d.push_type, d.priority, d.expires_at_ms, \
        d.state, d.attempts, d.next_attempt_at_ms, d.last_status, d.last_reason, d.sent_at_ms, d.created_at_ms, d.updated_at_ms, \
        d.provider
        """

    /// A row of `SELECT \(columns)`, read by position (the claim reads thousands).
    init(_ row: RawStatement.Row, payload: Data = Data()) throws {
        let rawID = row.string(5)
        guard let pushID = UUIDText.parse(rawID) else {
            throw PushStoreError.corruptValue(table: "deliveries", column: "push_id", value: rawID)
        }
        let rawProvider = row.optionalString(17)
        guard let provider = rawProvider.flatMap(PushProvider.init(rawValue:)) else {
            throw PushStoreError.corruptValue(table: "deliveries", column: "provider", value: rawProvider ?? "NULL")
        }
        self.init(
            id: row.int64(0),
            event: AcceptedEvent(
                appID: row.string(1), messageID: row.int64(2), channelURL: "", acceptedAtMs: 0, decisions: [], deliveries: []),
            delivery: NewDelivery(
                userID: row.string(3), deviceToken: row.string(4), payload: payload, pushID: pushID, provider: provider,
                pushType: row.string(6), priority: Int(row.int64(7)), expiresAtMs: row.int64(8)))
        state = DeliveryState(rawValue: row.string(9))
        attempts = Int(row.int64(10))
        nextAttemptAtMs = row.int64(11)
        lastStatus = row.optionalInt64(12).map(Int.init)
        lastReason = row.optionalString(13)
        sentAtMs = row.optionalInt64(14)
        createdAtMs = row.int64(15)
        updatedAtMs = row.int64(16)
    }
}
