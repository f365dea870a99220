import GRDB
import StoreContract

/// Migration `v10_shared_payloads`: the bytes every push of one event repeats (its channel,
/// message, sender; `PreparedEvent.sharedBytes`) are stored once per event in `event_payloads`,
/// and each `delivery_payloads` row keeps the rest, with `spans` saying where the shared bytes go
/// back in (`StoredPayload`). A row with `spans` NULL holds its whole payload (rows written
/// before, badge and FCM pushes). An 8-push event wrote 8 copies of ~600 bytes: with fewer bytes
/// per commit, its fsync is shorter and the webhook's latency under load lower (docs/benchmarks.md).
enum SharedPayloadSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE event_payloads (
                    app_id TEXT NOT NULL,
                    message_id INTEGER NOT NULL,
                    shared BLOB NOT NULL,
                    PRIMARY KEY (app_id, message_id)
                ) WITHOUT ROWID;
                ALTER TABLE delivery_payloads ADD COLUMN spans BLOB;
                """)
    }
}
