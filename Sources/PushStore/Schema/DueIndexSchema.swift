import GRDB
import StoreContract

/// Migration `v9_one_due_index`: `deliveries_due` (v3) goes. `deliveries_due_by_app` (v5) holds
/// the same pending rows ordered per app and answers everything the other did: the earliest due
/// time is the least of each app's first entry (`SQLiteStore.nextDueAtMs`, a loose scan over the
/// apps), and counts read either. Every delivery that waits pending (a backlog, a retry) wrote and
/// later deleted an entry in both; now in one (`pipeline-bench`, accept and claim: about 6 µs per
/// 8-push event less).
enum DueIndexSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "DROP INDEX deliveries_due")
    }
}
