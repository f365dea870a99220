import GRDB
import StoreContract

/// Migration `v12_no_sender_index`: `events_on_sender` goes. Only erasing a user read it, and
/// erasure already scans `deliveries` and `decisions` for the user (neither has an index by user
/// alone); it now scans `events` of the app too, outside the writer. Every accepted event wrote
/// an entry in it, at a random place (senders are in no order), so each commit rewrote about one
/// more page per event in the WAL and the checkpoint: 18.5–19.9 % of the WAL's frames under
/// load (`scripts/wal-frames.py`, docs/benchmarks.md).
enum SenderScanSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "DROP INDEX events_on_sender")
    }
}
