import GRDB
import PushCore
import StoreContract

extension SQLiteStore {
    /// Registers a device token for a user, creating the user on first use
    /// (`DeviceTokenStore.registerToken`).
    public func registerToken(
        app: String, user: String, token: String, isUnique: Bool, provider: PushProvider, movesFromOtherUsers: Bool,
        configuration chosen: String?
    ) async throws -> TokenRegistration {
        let now = clock()
        let limit = configuration.maximumTokensPerUser
        let rule = TokenRegistrationRule(user: user, isUnique: isUnique, movesFromOtherUsers: movesFromOtherUsers, limit: limit)
        return try await registryWrite(app: app) { db in
            try Self.ensureUser(db, app: app, user: user, now: now)
            let held = try Row.fetchOne(
                db, sql: "SELECT user_id, configuration FROM device_tokens WHERE app_id = ? AND token = ?", arguments: [app, token])
            let holder: String? = held?["user_id"]
            let configuration = chosen ?? held?["configuration"]
            let userTokens = try String.fetchAll(
                db,
                sql: """
                    SELECT token FROM device_tokens WHERE app_id = ? AND user_id = ? AND provider = ? AND token != ?
                    ORDER BY registered_at, id
                    """,
                arguments: [app, user, provider.rawValue, token])
            // Thrown before anything is written: the transaction (and the user just ensured) rolls back.
            let plan = try rule.plan(holder: holder, userTokens: userTokens)
            for gone in [token] + plan.removedTokens {
                try db.execute(sql: "DELETE FROM device_tokens WHERE app_id = ? AND token = ?", arguments: [app, gone])
            }
            try db.execute(
                sql: """
                    INSERT INTO device_tokens (app_id, token, user_id, registered_at, provider, configuration) VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [app, token, user, now, provider.rawValue, configuration])
            return TokenRegistration(
                token: DeviceToken(token: token, registeredAtMs: now, provider: provider, configuration: configuration),
                previousOwner: plan.previousOwner,
                removedTokens: plan.removedTokens)
        }
    }

    /// A user's tokens, oldest registration first; `nil` when the user is unknown.
    public func tokens(app: String, user: String) async throws -> [DeviceToken]? {
        try await pool.read { db in
            guard try Self.userExists(db, app: app, user: user) else { return nil }
            return try Self.tokens(db, app: app, user: user)
        }
    }

    static func tokens(_ db: Database, app: String, user: String) throws -> [DeviceToken] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT token, registered_at, provider, configuration FROM device_tokens WHERE app_id = ? AND user_id = ?
                ORDER BY registered_at, id
                """,
            arguments: [app, user]
        ).compactMap { row in
            // A provider this version does not know (a newer relay's) is left out, not fatal.
            PushProvider(rawValue: row["provider"]).map {
                DeviceToken(
                    token: row["token"], registeredAtMs: row["registered_at"], provider: $0, configuration: row["configuration"])
            }
        }
    }

    /// Removes one of a user's tokens of `provider`. Returns whether the user held it.
    @discardableResult
    public func removeToken(app: String, user: String, token: String, provider: PushProvider) async throws -> Bool {
        try await registryWrite(app: app) { db in
            try db.execute(
                sql: "DELETE FROM device_tokens WHERE app_id = ? AND user_id = ? AND token = ? AND provider = ?",
                arguments: [app, user, token, provider.rawValue])
            return db.changesCount > 0
        }
    }

    /// Removes all of a user's tokens and returns them, oldest first.
    @discardableResult
    public func removeAllTokens(app: String, user: String) async throws -> [String] {
        try await registryWrite(app: app) { db in
            let tokens = try Self.tokens(db, app: app, user: user).map(\.token)
            try db.execute(sql: "DELETE FROM device_tokens WHERE app_id = ? AND user_id = ?", arguments: [app, user])
            return tokens
        }
    }

    /// The user a token of `provider` is registered to, if any.
    public func owner(app: String, token: String, provider: PushProvider) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(
                db, sql: "SELECT user_id FROM device_tokens WHERE app_id = ? AND token = ? AND provider = ?",
                arguments: [app, token, provider.rawValue])
        }
    }

    /// Removes a token of `provider` from whoever holds it; returns that user, if any.
    @discardableResult
    public func removeTokenFromOwner(app: String, token: String, provider: PushProvider) async throws -> String? {
        try await registryWrite(app: app) { db in
            try String.fetchOne(
                db, sql: "DELETE FROM device_tokens WHERE app_id = ? AND token = ? AND provider = ? RETURNING user_id",
                arguments: [app, token, provider.rawValue])
        }
    }

    /// Removes a token APNs reported as no longer valid, but only if it was registered before
    /// `timestampMs` (APNs' 410 `timestamp`): a registration after that moment is a new, valid one.
    /// Returns whether the token was removed.
    @discardableResult
    public func removeToken(app: String, token: String, ifRegisteredBefore timestampMs: Int64) async throws -> Bool {
        try await registryWrite(app: app) { db in
            try db.execute(
                sql: "DELETE FROM device_tokens WHERE app_id = ? AND token = ? AND registered_at < ?",
                arguments: [app, token, timestampMs])
            return db.changesCount > 0
        }
    }
}
