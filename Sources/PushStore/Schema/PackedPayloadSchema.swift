import GRDB
import StoreContract

/// Migration `v13_packed_payloads`: the payloads of an event's deliveries go in one row
/// (`PackedPayloads`), keyed by the first delivery's id, instead of a `delivery_payloads` row
/// each. A rowid table: the rows arrive in key order, so they are appended, and one of a few KB
/// stays on its own page (a `WITHOUT ROWID` table moves anything above about 1 KB to an overflow
/// page). `delivery_payloads` stays for payloads stored before, badge pushes, and events without
/// shared bytes.
enum PackedPayloadSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE packed_payloads (
                    first_delivery_id INTEGER PRIMARY KEY,
                    last_delivery_id INTEGER NOT NULL,
                    parts BLOB NOT NULL
                );
                """)
    }
}
