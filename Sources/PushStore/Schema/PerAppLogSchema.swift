import GRDB

/// Migration `v18_per_app_log`: a user's skipped messages found among their own app's decisions,
/// not every app's. `decisions_by_app` holds every column the list reads, so the lookup never
/// touches the table; its entries are appended per app (their time grows), so a webhook commit
/// writes the app's last page of it, not a random page per skipped member (a per-user index did
/// that for deliveries and cost a third of the webhook's rate: `DeliveryQueueSchemaV3`). It
/// replaces `decisions_on_created`: pruning goes by app and time through it, so an accepted
/// event writes as many decision index entries as before (a second index cost 8 % of the
/// webhook's pushes/s, 2026-11-28).
///
/// `logged_users` names each user the app's log ever named (a sender, a skipped member), once:
/// whether an id is known is then one probe, and erasing an id nothing names reads nothing else.
/// A user named again finds their row and writes nothing; only a new name adds one. Erasure
/// removes it; pruning leaves it (an erasure of a user whose rows were pruned finds nothing).
public enum PerAppLogSchema {
    public static let index = "CREATE INDEX decisions_by_app ON decisions (app_id, created_at_ms, user_id, message_id, decision)"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: index)
        try db.execute(sql: "DROP INDEX decisions_on_created")
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
