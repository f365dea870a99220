import StoreContract

/// PostgreSQL advisory locks the store takes, all transaction-scoped (released at commit or
/// rollback, so a relay that dies holds none).
///
/// Two key spaces that never overlap: the fleet-wide jobs use the two-`int4` form with the
/// class `0x70757368` ("push"); per-row locks use the one-`bigint` form with a stable hash.
enum AdvisoryLock {
    static let jobClass: Int32 = 0x7075_7368

    /// Migrations: relays starting at once apply them one after the other.
    static let migrations: Int32 = 1
    /// Pruning: one relay prunes at a time; the others find it taken and leave it.
    static let pruning: Int32 = 2

    /// Serialises sign-ins to the console across the fleet (the count against its bound).
    static let consoleSessions: Int64 = key("console_sessions")

    /// Serialises the read-modify-write of one user's rows (preferences, the token limit),
    /// which SQLite's single writer serialised for free.
    static func user(app: String, user: String) -> Int64 { key("user", app, user) }

    /// Serialises registrations of one token, so two users registering it at once move it
    /// rather than collide on `UNIQUE (app_id, token)`.
    static func token(app: String, token: String) -> Int64 { key("token", app, token) }

    /// Serialises the read-modify-write of one app template.
    static func template(app: String, name: String) -> Int64 { key("template", app, name) }

    /// Serialises changes to one app's API tokens (the count against the limit, the removal by prefix).
    static func apiTokens(app: String) -> Int64 { key("api_tokens", app) }

    /// FNV-1a over the parts, each preceded by its length: the same key on every relay (Swift's
    /// `Hasher` is seeded per process). A collision only makes two writers wait for each other.
    private static func key(_ parts: String...) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        for part in parts {
            let bytes = part.utf8
            withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { $0.forEach(mix) }
            bytes.forEach(mix)
        }
        return Int64(bitPattern: hash)
    }
}
