import GRDB
import StoreContract

/// Migration `v5_due_by_app`: pending deliveries indexed by app, so the dispatcher claims each
/// app's due deliveries separately (`SQLiteStore.claimDue(nowMs:limit:roomByApp:rotation:)`). One
/// app's backlog — a million pushes behind a slow APNs — then never stands in front of another
/// app's new push, as it did when claims took the oldest due deliveries of all apps.
enum DueByAppSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX deliveries_due_by_app ON deliveries (app_id, next_attempt_at_ms, id) WHERE state = 'pending';
                """)
    }
}
