import PostgresNIO
import PushCore
import StoreContract

/// Sendbird's user API (`/v3/users`) and erasure, as `SQLiteStore` does them.
extension PostgresStore {
    static let userColumns =
        "user_id, nickname, profile_url, COALESCE(profile_created_at, created_at), profile_created_at IS NOT NULL, preferred_languages"

    static func profiles(_ connection: PostgresConnection, _ query: PostgresQuery, logger: Logger) async throws -> [UserProfile] {
        try await connection.rows(query, logger: logger) { row in
            let (id, nickname, url, created, hasProfile, languages) = try row.decode((String, String, String, Int64, Bool, String).self)
            return UserProfile(
                userID: id, nickname: nickname, profileURL: url, createdAtMs: created, hasProfile: hasProfile,
                languages: PreferredLanguages(stored: languages))
        }
    }

    public func createUser(app: String, user: String, nickname: String, profileURL: String) async throws -> UserProfile? {
        let now = clock()
        return try await registryWrite(app: app) { connection in
            try await Self.profiles(
                connection,
                """
                INSERT INTO users (app_id, user_id, created_at, nickname, profile_url, profile_created_at)
                VALUES (\(app), \(user), \(now), \(nickname), \(profileURL), \(now))
                ON CONFLICT (app_id, user_id) DO UPDATE
                    SET nickname = EXCLUDED.nickname, profile_url = EXCLUDED.profile_url, profile_created_at = EXCLUDED.profile_created_at
                    WHERE users.profile_created_at IS NULL
                RETURNING \(unescaped: Self.userColumns)
                """, logger: logger
            ).first
        }
    }

    public func user(app: String, user: String) async throws -> UserProfile? {
        try await withConnection { connection in
            try await Self.profiles(
                connection,
                "SELECT \(unescaped: Self.userColumns) FROM users WHERE app_id = \(app) AND user_id = \(user)", logger: logger
            ).first
        }
    }

    public func updateUser(app: String, user: String, change: UserProfileChange) async throws -> UserProfile? {
        try await registryWrite(app: app) { connection in
            try await Self.profiles(
                connection,
                """
                UPDATE users SET nickname = COALESCE(\(change.nickname), nickname), profile_url = COALESCE(\(change.profileURL), profile_url),
                    preferred_languages = COALESCE(\(change.languages?.stored), preferred_languages)
                WHERE app_id = \(app) AND user_id = \(user) RETURNING \(unescaped: Self.userColumns)
                """, logger: logger
            ).first
        }
    }

    public func users(app: String, after: String?, limit: Int) async throws -> [UserProfile] {
        try await withConnection { connection in
            // The primary key's order (the database's collation), so a page costs its rows.
            try await Self.profiles(
                connection,
                """
                SELECT \(unescaped: Self.userColumns) FROM users
                WHERE app_id = \(app) AND user_id > \(after ?? "") ORDER BY user_id LIMIT \(limit)
                """, logger: logger)
        }
    }

    /// One transaction: PostgreSQL has no single writer to hold up, and `deliveries_on_user`
    /// finds the user's deliveries. The rows are gone at commit; their bytes stay in the table
    /// files until VACUUM reuses the space (docs/rest-api.md, "Erasure"). An erasure that
    /// found nothing notifies no relay and leaves every cache as it was.
    /// A few index probes. Without a users row there are no deliveries (registering a token makes
    /// the row; only erasure removes it).
    public func namesUser(app: String, user: String) async throws -> Bool {
        let named = try await withConnection { connection in
            try await connection.value(
                """
                SELECT EXISTS (SELECT 1 FROM users WHERE app_id = \(app) AND user_id = \(user))
                    OR EXISTS (SELECT 1 FROM session_tokens WHERE app_id = \(app) AND user_id = \(user))
                    OR EXISTS (SELECT 1 FROM badges WHERE app_id = \(app) AND user_id = \(user))
                    OR EXISTS (SELECT 1 FROM events WHERE app_id = \(app) AND sender_id = \(user))
                    OR EXISTS (SELECT 1 FROM decisions WHERE app_id = \(app) AND user_id = \(user))
                    OR EXISTS (SELECT 1 FROM topic_subscriptions WHERE app_id = \(app) AND user_id = \(user))
                    OR EXISTS (SELECT 1 FROM notification_recipients WHERE app_id = \(app) AND user_id = \(user))
                """, as: Bool.self, logger: logger)
        }
        return named == true
    }

    public func eraseUser(app: String, user: String) async throws -> Bool {
        // A user nothing names costs the probes and no write transaction.
        guard try await namesUser(app: app, user: user) else { return false }
        let erased = try await transaction { connection in
            let counts = try await connection.rows(Self.erasure(app: app, user: user), logger: logger) { try $0.decode(Int64.self) }
            guard (counts.first ?? 0) > 0 else { return false }
            try await connection.run(
                "SELECT pg_notify(\(RegistryListener.channel), \(RegistryListener.registryPrefix + app))", logger: logger)
            return true
        }
        if erased { recipientCache.invalidate(app: app) }
        return erased
    }

    /// One statement: the rows the user's messages and own deliveries hold (`sent`, `own`), then
    /// a data-modifying step per part of `UserErasureScope`; answers how many rows naming the
    /// user went (0: nothing to erase).
    static func erasure(app: String, user: String) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(app)
        binds.append(user)
        binds.append(UserErasureScope.pendingPushReason)
        let steps = UserErasureScope.parts.flatMap(erasureSteps)
        let sql = """
            WITH sent AS (
                SELECT d.id, d.state FROM events e JOIN deliveries d ON d.app_id = e.app_id AND d.message_id = e.message_id
                WHERE e.app_id = $1 AND e.sender_id = $2
            ), own AS (
                SELECT id FROM deliveries WHERE app_id = $1 AND user_id = $2
            ), \(steps.map { "\($0.name) AS (\n    \($0.sql)\n)" }.joined(separator: ", "))
            SELECT 0\(steps.filter(\.counts).map { " + (SELECT count(*) FROM \($0.name))" }.joined())
            """
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// A part's statements; `counts`: its rows name the user (a payload or a failed push of their
    /// message does not by itself).
    private static func erasureSteps(_ part: UserErasureScope.Part) -> [(name: String, sql: String, counts: Bool)] {
        switch part {
        case .sentPushes:
            [
                ("sent_payloads", "DELETE FROM delivery_payloads WHERE delivery_id IN (SELECT id FROM sent)", false),
                (
                    "failed",
                    """
                    UPDATE deliveries SET state = 'failed', last_reason = $3, lease_owner = NULL, lease_expires_at_ms = NULL
                        WHERE id IN (SELECT id FROM sent WHERE state = 'pending' EXCEPT SELECT id FROM own)
                    """, false
                ),
            ]
        case .sentMessages:
            [("senders", "UPDATE events SET sender_id = NULL WHERE app_id = $1 AND sender_id = $2 RETURNING 1", true)]
        case .ownDeliveries:
            [
                ("own_payloads", "DELETE FROM delivery_payloads WHERE delivery_id IN (SELECT id FROM own)", false),
                // Attempts go with their delivery (ON DELETE CASCADE).
                ("deliveries", "DELETE FROM deliveries WHERE id IN (SELECT id FROM own) RETURNING 1", true),
            ]
        case .decisions:
            [("decisions", "DELETE FROM decisions WHERE app_id = $1 AND user_id = $2 RETURNING 1", true)]
        case .userRows:
            UserErasureScope.userKeyedTables.map {
                ("rows_\($0)", "DELETE FROM \($0) WHERE app_id = $1 AND user_id = $2 RETURNING 1", true)
            }
        }
    }
}
