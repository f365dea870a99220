import GRDB
import StoreContract

/// Migration `v3_delivery_payloads`: the delivery queue made cheap to update.
///
/// - Payloads (up to 5 KB, immutable) move to `delivery_payloads`, so the `deliveries` row that
///   changes on every claim and outcome is small: an UPDATE rewrites a ~100-byte row instead of
///   one holding the payload, and many more rows share a page (fewer pages written to the WAL).
/// - `deliveries_due` becomes a partial index over pending rows only, and `deliveries_in_flight`
///   a partial index over in-flight rows: sent/failed rows (nearly all of them) are in neither,
///   and a delivery handed straight from the webhook to the dispatcher touches neither on its
///   way from in flight to sent beyond one insert and one delete.
/// - `deliveries_on_user` is dropped. Deliveries go to random users, so that index took one
///   random page per delivery: most of the pages each commit wrote to the WAL and checkpointed
///   (`scripts/bench-relay.sh`: 1,350 → 2,140 events/s without it). The per-user listing scans
///   the most recent deliveries by id instead (`SQLiteStore.recentDeliveries`).
enum DeliveryQueueSchemaV3 {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE delivery_payloads (
                    delivery_id INTEGER PRIMARY KEY,
                    payload BLOB NOT NULL
                );
                INSERT INTO delivery_payloads (delivery_id, payload) SELECT id, payload FROM deliveries;
                ALTER TABLE deliveries DROP COLUMN payload;

                DROP INDEX deliveries_due;
                CREATE INDEX deliveries_due ON deliveries (next_attempt_at_ms) WHERE state = 'pending';
                CREATE INDEX deliveries_in_flight ON deliveries (id) WHERE state = 'in_flight';
                DROP INDEX deliveries_on_user;
                """)
    }
}
