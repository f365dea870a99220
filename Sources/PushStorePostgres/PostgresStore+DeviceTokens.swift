import PostgresNIO
import PushCore
import StoreContract

extension PostgresStore {
    /// Registers a device token for a user, creating the user on first use (see
    /// `DeviceTokenStore.registerToken`). Under the user's and the token's locks, so concurrent
    /// registrations behave as SQLite's serialised ones do.
    public func registerToken(
        app: String, user: String, token: String, isUnique: Bool, provider: PushProvider, movesFromOtherUsers: Bool,
        configuration chosen: String?
    ) async throws -> TokenRegistration {
        let now = clock()
        let limit = configuration.store.maximumTokensPerUser
        let rule = TokenRegistrationRule(user: user, isUnique: isUnique, movesFromOtherUsers: movesFromOtherUsers, limit: limit)
        return try await registryWrite(app: app) { connection in
            try await Self.lockAndEnsureUser(connection, app: app, user: user, token: token, now: now, logger: logger)
            // Who holds the token, and the user's other tokens of the provider, oldest first: one read.
            var holder: String?
            var configuration = chosen
            var userTokens: [String] = []
            for row in try await connection.rows(
                """
                SELECT token, user_id, configuration FROM device_tokens
                WHERE app_id = \(app) AND (token = \(token) OR (user_id = \(user) AND provider = \(provider.rawValue)))
                ORDER BY registered_at, id
                """, logger: logger)
            {
                let (held, owner, heldConfiguration) = try row.decode((String, String, String?).self)
                if held.sameBytes(as: token) {
                    holder = owner
                    configuration = configuration ?? heldConfiguration
                } else {
                    userTokens.append(held)
                }
            }
            // Thrown before anything is written: the transaction (and the user just ensured) rolls back.
            let plan = try rule.plan(holder: holder, userTokens: userTokens)
            try await connection.run(
                "DELETE FROM device_tokens WHERE app_id = \(app) AND token = ANY(\(PostgresArray.text([token] + plan.removedTokens)))",
                logger: logger)
            try await connection.run(
                """
                INSERT INTO device_tokens (app_id, token, user_id, registered_at, provider, configuration)
                VALUES (\(app), \(token), \(user), \(now), \(provider.rawValue), \(configuration))
                """,
                logger: logger)
            return TokenRegistration(
                token: DeviceToken(token: token, registeredAtMs: now, provider: provider, configuration: configuration),
                previousOwner: plan.previousOwner,
                removedTokens: plan.removedTokens)
        }
    }

    /// A user's tokens, oldest registration first; `nil` when the user is unknown. One statement:
    /// the user and their tokens from one snapshot.
    public func tokens(app: String, user: String) async throws -> [DeviceToken]? {
        try await withConnection { connection in
            var known = false
            var tokens: [DeviceToken] = []
            for row in try await connection.rows(
                """
                SELECT t.token, t.registered_at, t.provider, t.configuration FROM users u
                LEFT JOIN device_tokens t ON t.app_id = u.app_id AND t.user_id = u.user_id
                WHERE u.app_id = \(app) AND u.user_id = \(user) ORDER BY t.registered_at, t.id
                """, logger: logger)
            {
                known = true
                let (token, registeredAt, provider, configuration) = try row.decode((String?, Int64?, String?, String?).self)
                // A provider this version does not know (a newer relay's) is left out, not fatal.
                if let token, let registeredAt, let provider = provider.flatMap(PushProvider.init(rawValue:)) {
                    tokens.append(
                        DeviceToken(token: token, registeredAtMs: registeredAt, provider: provider, configuration: configuration))
                }
            }
            return known ? tokens : nil
        }
    }

    /// Removes one of a user's tokens of `provider`. Returns whether the user held it.
    @discardableResult
    public func removeToken(app: String, user: String, token: String, provider: PushProvider) async throws -> Bool {
        try await registryWrite(app: app) { connection in
            try await connection.count(
                """
                DELETE FROM device_tokens
                WHERE app_id = \(app) AND user_id = \(user) AND token = \(token) AND provider = \(provider.rawValue) RETURNING 1
                """, logger: logger) > 0
        }
    }

    /// Removes all of a user's tokens and returns them, oldest first.
    @discardableResult
    public func removeAllTokens(app: String, user: String) async throws -> [String] {
        try await registryWrite(app: app) { connection in
            StoredToken.oldestFirst(
                try await connection.rows(
                    "DELETE FROM device_tokens WHERE app_id = \(app) AND user_id = \(user) RETURNING token, registered_at, id",
                    logger: logger, StoredToken.init))
        }
    }

    /// The user a token of `provider` is registered to, if any.
    public func owner(app: String, token: String, provider: PushProvider) async throws -> String? {
        try await withConnection { connection in
            try await connection.value(
                "SELECT user_id FROM device_tokens WHERE app_id = \(app) AND token = \(token) AND provider = \(provider.rawValue)",
                as: String.self, logger: logger)
        }
    }

    /// Removes a token of `provider` from whoever holds it; returns that user, if any.
    @discardableResult
    public func removeTokenFromOwner(app: String, token: String, provider: PushProvider) async throws -> String? {
        try await registryWrite(app: app) { connection in
            try await connection.value(
                """
                DELETE FROM device_tokens WHERE app_id = \(app) AND token = \(token) AND provider = \(provider.rawValue)
                RETURNING user_id
                """, as: String.self, logger: logger)
        }
    }

    /// Removes a token APNs reported as no longer valid, but only if it was registered before
    /// `timestampMs` (APNs' 410 `timestamp`): a registration after that moment is a new, valid one.
    @discardableResult
    public func removeToken(app: String, token: String, ifRegisteredBefore timestampMs: Int64) async throws -> Bool {
        try await registryWrite(app: app) { connection in
            try await connection.count(
                """
                DELETE FROM device_tokens WHERE app_id = \(app) AND token = \(token) AND registered_at < \(timestampMs) RETURNING 1
                """, logger: logger) > 0
        }
    }
}

/// A token row as a DELETE … RETURNING hands it back: unordered, so sorted here the way SQLite
/// reads them (registration time, then id).
struct StoredToken {
    var token: String
    var registeredAt: Int64
    var id: Int64

    init(token: String, registeredAt: Int64, id: Int64) {
        self.token = token
        self.registeredAt = registeredAt
        self.id = id
    }

    /// A row of `RETURNING token, registered_at, id`.
    init(_ row: PostgresRow) throws {
        (token, registeredAt, id) = try row.decode((String, Int64, Int64).self)
    }

    static func oldestFirst(_ tokens: [StoredToken]) -> [String] {
        tokens.sorted { ($0.registeredAt, $0.id) < ($1.registeredAt, $1.id) }.map(\.token)
    }
}
