import GRDB
import StoreContract

/// Migration `v18_per_app_log`: `logged_users` names each user the app's log ever named (a
/// sender, a skipped member), once: whether an id is known is then one probe, and erasing an id
/// nothing names reads nothing else. A user named again finds their row and writes nothing; only
/// a new name adds one. Erasure removes it; pruning leaves it (an erasure of a user whose rows were
/// pruned finds nothing).
///
/// A user's skips are found in their own app's newest decisions by the table's key (app, message):
/// no index of its own. One on (app, time) made every webhook's commit dearer, 30 % of the relay's
/// CPU per event (2026-11-28, `scripts/bench-compare.sh`), although it was appended to in order.
public enum PerAppLogSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE logged_users (
                    app_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    PRIMARY KEY (app_id, user_id)
                ) WITHOUT ROWID;
                INSERT INTO logged_users (app_id, user_id)
                    SELECT app_id, user_id FROM decisions
                    UNION SELECT app_id, sender_id FROM events WHERE sender_id IS NOT NULL;
                """)
    }
}
