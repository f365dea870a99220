import GRDB
import StoreContract

/// Migration `v19_delivery_provider`: a delivery names its provider in a column of its own, and its
/// push id is `push_id` (every provider's, not only APNs'). Before, FCM's and HMS's deliveries
/// stored their provider's name as the push type and every other push type meant APNs.
public enum DeliveryProviderSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE deliveries RENAME COLUMN apns_id TO push_id;
                ALTER TABLE delivery_attempts RENAME COLUMN apns_id TO push_id;
                ALTER TABLE deliveries ADD COLUMN provider TEXT;
                UPDATE deliveries SET provider = CASE WHEN push_type IN ('fcm', 'hms') THEN push_type ELSE 'apns' END;
                """)
    }
}
