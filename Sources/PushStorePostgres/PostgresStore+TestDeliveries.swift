import Foundation
import PostgresNIO
import StoreContract
import UUIDText

extension PostgresStore {
    /// Logs a test push as one delivery already final, marked `is_test`, with its payload and
    /// attempt, and removes a dead token by its rule (notifying the fleet, as `recordOutcomes`
    /// does): one statement.
    public func recordTestDelivery(_ test: TestDelivery) async throws -> TestDeliveryRecorded {
        let d = test.delivery
        let a = test.attempt
        // A plain acceptance is the delivery row itself, as `recordOutcomes` leaves it.
        let logsAttempt = test.loggedAttempt != nil
        let (removes, before): (Bool, Int64?) =
            switch test.tokenRemoval {
            case .ifRegisteredBefore(let ms)?: (true, ms)
            case .always?: (true, nil)
            case nil: (false, nil)
            }
        let sentAtMs: Int64? = test.state == .sent ? test.atMs : nil
        let (id, removed) = try await retryingTransientFailures {
            try await withConnection { connection in
                try await connection.rows(
                    """
                    WITH logged AS (
                        INSERT INTO deliveries (app_id, message_id, user_id, device_token, apns_id, provider, push_type, priority, expires_at_ms,
                            state, attempts, next_attempt_at_ms, last_status, last_reason, sent_at_ms, created_at_ms, updated_at_ms,
                            message_name, is_test)
                        VALUES (\(test.appID), \(TestDelivery.messageID), \(d.userID), \(d.deviceToken), \(UUIDText.lowercase(d.pushID)),
                            \(d.provider.rawValue), \(d.pushType), \(d.priority), \(d.expiresAtMs), \(test.state.rawValue), \(a == nil ? 0 : 1), \(test.createdAtMs),
                            \(a?.status), \(a?.reason ?? a?.error), \(sentAtMs), \(test.createdAtMs), \(test.atMs),
                            \(test.providerMessageID), true)
                        RETURNING id
                    ), stored AS (
                        INSERT INTO delivery_payloads (delivery_id, payload) SELECT id, \(d.payload) FROM logged
                    ), attempted AS (
                        INSERT INTO delivery_attempts (delivery_id, at_ms, status, reason, error, apns_id)
                        SELECT id, \(a?.atMs), \(a?.status), \(a?.reason), \(a?.error), \(UUIDText.lowercase(d.pushID))
                        FROM logged WHERE \(logsAttempt)
                    ), removed AS (
                        DELETE FROM device_tokens
                        WHERE \(removes) AND app_id = \(test.appID) AND token = \(d.deviceToken)
                            AND (\(before)::bigint IS NULL OR registered_at < \(before))
                        RETURNING app_id
                    ), notified AS (
                        SELECT pg_notify(\(RegistryListener.channel), \(RegistryListener.registryPrefix) || app_id) FROM removed
                    )
                    SELECT (SELECT id FROM logged), (SELECT count(*) FROM removed) + 0 * (SELECT count(*) FROM notified)
                    """, logger: logger
                ) { try $0.decode((Int64, Int64).self) }.first ?? (Int64(0), Int64(0))
            }
        }
        // A registry write of the app: this relay's cached recipients of it are forgotten too.
        if removed > 0 { recipientCache.invalidate(app: test.appID) }
        return TestDeliveryRecorded(deliveryID: id, tokenRemoved: removed > 0)
    }
}
