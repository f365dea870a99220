import ConfigSupport
import PushCore
import PushStorePostgres

extension RelayConfiguration {
    /// `database`: exactly one of `path` (SQLite) or `postgres`.
    static func parseDatabase(_ map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> DatabaseConfiguration
    {
        try map.allowOnly(["path", "postgres", "recipient_cache"])
        var database: DatabaseConfiguration
        if let postgres = try map.mapping("postgres") {
            guard try map.string("path") == nil else {
                throw .invalidValue(key: map.name("postgres"), reason: "give either path (SQLite) or postgres, not both")
            }
            database = DatabaseConfiguration(postgres: try parsePostgres(postgres, environment: environment))
        } else {
            guard let path = try map.string("path") else { throw .missingKey(map.name("path")) }
            guard !path.isEmpty else { throw .invalidValue(key: map.name("path"), reason: "must not be empty") }
            database = DatabaseConfiguration(path: path)
        }
        if let cache = try map.mapping("recipient_cache") {
            try cache.allowOnly(["max_users", "max_bytes"])
            if let users = try cache.int("max_users") {
                guard allowedRecipientCacheUsers.contains(users) else {
                    throw .invalidValue(key: cache.name("max_users"), reason: "must be 0...\(allowedRecipientCacheUsers.upperBound)")
                }
                database.recipientCacheUsers = users
            }
            if let bytes = try cache.int("max_bytes") {
                guard allowedRecipientCacheBytes.contains(bytes) else {
                    throw .invalidValue(
                        key: cache.name("max_bytes"),
                        reason: "must be \(allowedRecipientCacheBytes.lowerBound)...\(allowedRecipientCacheBytes.upperBound)")
                }
                database.recipientCacheBytes = bytes
            }
        }
        return database
    }

    /// Up to 100 million users. At several hundred bytes each (`UserEntry.approximateBytes`),
    /// `max_bytes` is the bound that matters; a typo's extra digits stop here, not at the OOM killer.
    static let allowedRecipientCacheUsers = 0...100_000_000
    /// 1 MiB to 64 GiB.
    static let allowedRecipientCacheBytes = (1 << 20)...(64 << 30)

    private static func parsePostgres(_ map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> PostgresSettings
    {
        try map.allowOnly(["url", "password", "pool_size", "node_id", "lease", "tls", "ca_file"])
        guard let url = try map.string("url") else { throw .missingKey(map.name("url")) }
        var settings = try PostgresSettings(url: url, key: map.name("url"))
        if let (password, _) = try map.secret("password", environment: environment) {
            guard settings.password == nil else {
                throw .invalidValue(key: map.name("password"), reason: "the url has a password already; give it in one place")
            }
            settings.password = password
        }
        if let size = try map.poolSize(in: PostgresSettings.allowedPoolSize) { settings.poolSize = size }
        if let node = try map.string("node_id") {
            if let problem = IdentifierRules.problem(with: node) {
                throw .invalidValue(key: map.name("node_id"), reason: "must be \(problem)")
            }
            settings.nodeID = node
        }
        if let lease = try map.duration("lease", in: PostgresSettings.allowedLease, "5s...1h") { settings.lease = lease }
        if let mode = try map.string("tls") {
            guard let tls = PostgresStoreConfiguration.TLSMode(rawValue: mode) else {
                throw .invalidValue(key: map.name("tls"), reason: "must be \(PostgresStoreConfiguration.TLSMode.names)")
            }
            settings.tls = tls
        }
        if let caFile = try map.filePath("ca_file", environment: environment) {
            // A CA file says what to verify against: without a tls key it means verify-full, on any host.
            if map.mapping["tls"] == nil { settings.tls = .verifyFull }
            settings.caFile = try PostgresSettings.checkedCAFile(caFile, tls: settings.tls, key: map.name("ca_file"))
        }
        return settings
    }
}
