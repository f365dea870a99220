import GRDB

/// Migration `v18_per_app_log`: a user's skipped messages found among their own app's decisions,
/// not every app's. `decisions_by_app` holds every column the list reads, so the lookup never
/// touches the table; its entries are appended per app (their time grows), so a webhook commit
/// writes the app's last page of it, not a random page per skipped member (a per-user index did
/// that for deliveries and cost a third of the webhook's rate: `DeliveryQueueSchemaV3`).
public enum PerAppLogSchema {
    public static let index = "CREATE INDEX decisions_by_app ON decisions (app_id, created_at_ms, user_id, message_id, decision)"

    static func migrate(_ db: Database) throws {
        try db.execute(sql: index)
    }
}
