import GRDB
import StoreContract

/// Migration `v7_fcm_message_names`: FCM names each message it accepts
/// (`projects/{project}/messages/{id}`); the delivery log shows it. NULL for APNs deliveries
/// (their `apns_id` is the name) and for FCM ones not sent yet.
enum FCMMessageNameSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE deliveries ADD COLUMN message_name TEXT")
    }
}
