import Foundation
import PostgresNIO
import PushCore
import StoreContract
import UUIDText

/// `deliveries` and `delivery_attempts` rows, read by position (a claim reads thousands).
enum DeliveryColumns {
    /// The columns `record(_:)` reads, in order; a payload may follow.
    static let list = """
        id, app_id, message_id, user_id, device_token, apns_id, push_type, priority, expires_at_ms, state, attempts, \
        next_attempt_at_ms, last_status, last_reason, sent_at_ms, created_at_ms, updated_at_ms, provider
        """

    /// `list` with each column prefixed by `table.`.
    static func prefixed(_ table: String) -> String { PostgresStore.prefixed(table, list) }

    /// A row of `SELECT \(list) [, payload [, the token's configuration [, its notification's collapse key]]]`.
    static func record(_ row: PostgresRow) throws -> DeliveryRecord {
        let (id, app, messageID, user, token, rawAPNsID, pushType, priority, expiresAt, state, attempts, nextAttempt) =
            try row.decode((Int64, String, Int64, String, String, String, String, Int, Int64, String, Int, Int64).self)
        let columns = row.makeRandomAccess()
        guard let pushID = UUIDText.parse(rawAPNsID) else {
            throw PushStoreError.corruptValue(table: "deliveries", column: "apns_id", value: rawAPNsID)
        }
        let rawProvider = try columns[17].decode(String?.self) ?? LegacyDeliveryProvider.name(ofPushType: pushType)
        guard let provider = PushProvider(rawValue: rawProvider) else {
            throw PushStoreError.corruptValue(table: "deliveries", column: "provider", value: rawProvider)
        }
        let payload = columns.count > 18 ? try columns[18].decode(Data?.self) ?? Data() : Data()
        // The one initializer of every field the module offers (it builds a just-committed
        // delivery); the rest is set from the row.
        var record = DeliveryRecord(
            id: id,
            event: AcceptedEvent(appID: app, messageID: messageID, channelURL: "", acceptedAtMs: 0, decisions: [], deliveries: []),
            delivery: NewDelivery(
                userID: user, deviceToken: token, payload: payload, pushID: pushID, provider: provider, pushType: pushType,
                priority: priority,
                expiresAtMs: expiresAt))
        record.state = DeliveryState(rawValue: state)
        record.attempts = attempts
        record.nextAttemptAtMs = nextAttempt
        record.lastStatus = try columns[12].decode(Int?.self)
        record.lastReason = try columns[13].decode(String?.self)
        record.sentAtMs = try columns[14].decode(Int64?.self)
        record.createdAtMs = try columns[15].decode(Int64.self)
        record.updatedAtMs = try columns[16].decode(Int64.self)
        if columns.count > 19 { record.configuration = try columns[19].decode(String?.self) }
        if columns.count > 20 { record.collapseKey = try columns[20].decode(String?.self) }
        return record
    }

    /// A row of `SELECT delivery_id, at_ms, status, reason, error, apns_id FROM delivery_attempts`.
    static func attempt(_ row: PostgresRow) throws -> (deliveryID: Int64, attempt: DeliveryAttempt) {
        let (deliveryID, atMs, status, reason, error, rawAPNsID) = try row.decode((Int64, Int64, Int?, String?, String?, String).self)
        guard let pushID = UUIDText.parse(rawAPNsID) else {
            throw PushStoreError.corruptValue(table: "delivery_attempts", column: "apns_id", value: rawAPNsID)
        }
        return (deliveryID, DeliveryAttempt(atMs: atMs, status: status, reason: reason, error: error, pushID: pushID))
    }
}
