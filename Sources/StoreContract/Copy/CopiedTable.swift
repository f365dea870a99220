/// A table `push-relay migrate-store` copies row for row from SQLite to PostgreSQL: both schemas
/// give it the same name and columns (PostgreSQL's booleans are SQLite's 0/1 integers). The
/// deliveries, whose ids change on the way, are copied apart (`DeliveryPage`).
public struct CopiedTable: Sendable, Hashable {
    public typealias Kind = ColumnKind

    public struct Column: Sendable, Hashable {
        public let name: String
        public let kind: Kind
    }

    public let name: String
    /// Copied, in this order.
    public let columns: [Column]
    /// SQLite's order for reading the table page by page (a key, so a page ends exactly).
    public let pageKey: [String]
    /// What makes a source row "there" in PostgreSQL: its primary key (or unique key), plus,
    /// for device tokens, the owner (a token another user holds there is not this row).
    public let matchKey: [String]
    /// Whether a write to it must empty the relays' recipient caches.
    public let isRegistry: Bool
    /// A generated id copied as it is (others name it), whose sequence the target then moves past
    /// the ids copied.
    public let keptID: String?

    package init(
        _ name: String, _ columns: [(String, Kind)], pageKey: [String], matchKey: [String]? = nil, isRegistry: Bool,
        keptID: String? = nil
    ) {
        self.name = name
        self.columns = columns.map { Column(name: $0.0, kind: $0.1) }
        self.pageKey = pageKey
        self.matchKey = matchKey ?? pageKey
        self.isRegistry = isRegistry
        self.keptID = keptID
    }

    /// Every table but the queue, parents before children (users before their tokens and
    /// preferences, which reference them).
    public static let all: [CopiedTable] = [
        CopiedTable(
            "users",
            [
                ("app_id", .text), ("user_id", .text), ("created_at", .integer), ("push_template", .text), ("nickname", .text),
                ("profile_url", .text), ("profile_created_at", .integer), ("preferred_languages", .text),
            ],
            pageKey: ["app_id", "user_id"], isRegistry: true),
        // Read in SQLite's id order, so PostgreSQL's new ids keep the registration order that
        // decides which token the 20-token cap evicts.
        CopiedTable(
            "device_tokens",
            [
                ("app_id", .text), ("token", .text), ("user_id", .text), ("registered_at", .integer), ("provider", .text),
                ("configuration", .text),
            ],
            pageKey: ["id"], matchKey: ["app_id", "token", "user_id"], isRegistry: true),
        CopiedTable(
            "user_push_preferences",
            [("app_id", .text), ("user_id", .text)] + UserPreferenceColumns.all.map { ($0.name, $0.kind) },
            pageKey: ["app_id", "user_id"], isRegistry: true),
        CopiedTable(
            "channel_push_preferences",
            [("app_id", .text), ("user_id", .text), ("channel_url", .text), ("push_trigger_option", .text), ("push_sound", .text)],
            pageKey: ["app_id", "user_id", "channel_url"], isRegistry: true),
        CopiedTable(
            "push_message_templates",
            [("app_id", .text), ("template_name", .text), ("mesg", .text), ("file", .text), ("admm", .text)],
            pageKey: ["app_id", "template_name"], isRegistry: true),
        CopiedTable(
            "session_tokens",
            [
                ("token_digest", .blob), ("app_id", .text), ("user_id", .text), ("created_at", .integer), ("expires_at", .integer),
                ("issuer", .text),
            ],
            pageKey: ["token_digest"], isRegistry: false),
        CopiedTable("session_revocations", [("app_id", .text), ("revoked_before", .integer)], pageKey: ["app_id"], isRegistry: false),
        // The key session tokens are tagged with: without it every session token copied would be refused.
        CopiedTable("relay_secrets", [("name", .text), ("value", .blob)], pageKey: ["name"], isRegistry: false),
        CopiedTable(
            "api_tokens", [("app_id", .text), ("token_digest", .blob), ("token_prefix", .text), ("created_at", .integer)],
            pageKey: ["app_id", "token_digest"], isRegistry: false),
        CopiedTable(
            "badges",
            [("app_id", .text), ("user_id", .text), ("badge", .integer), ("read_at_ms", .integer), ("queued_at_ms", .integer)],
            pageKey: ["app_id", "user_id"], isRegistry: false),
        CopiedTable(
            "live_activity_start_tokens",
            [("app_id", .text), ("token", .text), ("user_id", .text), ("attributes_type", .text), ("registered_at", .integer)],
            pageKey: ["app_id", "token"], isRegistry: false),
        CopiedTable(
            "live_activities",
            [
                ("app_id", .text), ("activity_id", .text), ("user_id", .text), ("attributes_type", .text), ("update_token", .text),
                ("token_registered_at", .integer), ("state", .text), ("high_priority_pushes", .integer), ("created_at_ms", .integer),
                ("updated_at_ms", .integer), ("ended_at_ms", .integer), ("remove_at_ms", .integer),
            ],
            pageKey: ["app_id", "activity_id"], isRegistry: false),
        CopiedTable(
            "broadcast_channels",
            [("app_id", .text), ("channel_id", .text), ("name", .text), ("storage_policy", .integer), ("created_at_ms", .integer)],
            pageKey: ["app_id", "channel_id"], isRegistry: false),
        // Accepted events: the webhook dedupe (a retry of an event SQLite took pushes nothing
        // twice) and the delivery log's "accepted at".
        CopiedTable(
            "events",
            [("app_id", .text), ("message_id", .integer), ("channel_url", .text), ("created_at_ms", .integer), ("sender_id", .text)],
            pageKey: ["app_id", "message_id"], isRegistry: false),
        CopiedTable(
            "decisions",
            [("app_id", .text), ("message_id", .integer), ("user_id", .text), ("decision", .text), ("created_at_ms", .integer)],
            pageKey: ["app_id", "message_id", "user_id"], isRegistry: false),
        // Notifications keep their ids: their deliveries and decisions carry -id as their message
        // id. Not their hold: the SQLite relay's means nothing to the fleet, which takes them on
        // at once. A notification the target numbers the same is not this row.
        CopiedTable(
            "notifications",
            [
                ("id", .integer), ("app_id", .text), ("state", .text), ("audience_kind", .text), ("audience", .text),
                ("content", .text), ("collapse_key", .text), ("send_at_ms", .integer), ("local_minute", .integer),
                ("pushes_per_minute", .integer), ("idempotency_key", .text), ("request_hash", .text), ("phase", .text),
                ("cursor", .text), ("planned_users", .integer), ("next_run_at_ms", .integer), ("created_at_ms", .integer),
                ("finished_at_ms", .integer),
            ],
            pageKey: ["id"], matchKey: ["id", "app_id", "created_at_ms"], isRegistry: false, keptID: "id"),
        CopiedTable(
            "notification_recipients",
            [("notification_id", .integer), ("due_at_ms", .integer), ("user_id", .text), ("app_id", .text)],
            pageKey: ["notification_id", "due_at_ms", "user_id"], isRegistry: false),
        CopiedTable(
            "topic_subscriptions",
            [("app_id", .text), ("topic", .text), ("user_id", .text), ("created_at_ms", .integer)],
            pageKey: ["app_id", "topic", "user_id"], isRegistry: false),
    ]

    public var columnNames: [String] { columns.map(\.name) }

    /// The match key's columns, in `columns`' order of positions.
    public var matchColumns: [Column] { matchKey.compactMap { key in columns.first { $0.name == key } } }
}
