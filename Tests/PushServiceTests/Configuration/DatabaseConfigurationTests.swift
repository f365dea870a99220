import ConfigSupport
import Foundation
import TestSupport
import Testing
@testable import PushService

/// `database:`: a SQLite path, or a PostgreSQL server for a fleet.
@Suite(.timeLimit(.minutes(5))) struct DatabaseConfigurationTests {
    static func parse(_ database: String, environment: [String: String] = [:]) throws(ConfigurationError) -> DatabaseConfiguration {
        try RelayConfiguration.parse(
            yaml: "listen: {}\ndatabase: \(database)\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            environment: ConfigurationEnvironment(variables: environment)
        ).database
    }

    @Test func postgresFromAURLWithThePasswordKeptOutOfIt() throws {
        let database = try Self.parse(
            "{postgres: {url: 'postgres://relay@db.internal:6432/push', password: {env: PGPW}, pool_size: 4, node_id: relay-a, lease: 30s}}",
            environment: ["PGPW": "s3cret-password"])
        guard case .postgres(let settings) = database.backend else {
            Issue.record("expected postgres, got \(database.backend)")
            return
        }
        #expect(settings.host == "db.internal")
        #expect(settings.port == 6432)
        #expect(settings.username == "relay")
        #expect(settings.database == "push")
        #expect(settings.password?.value == "s3cret-password")
        #expect(settings.poolSize == 4)
        #expect(settings.nodeID == "relay-a")
        #expect(settings.lease == .seconds(30))
        // What logs show: never the password.
        #expect(database.location == "postgres://relay@db.internal:6432/push")
        #expect(!"\(database)".contains("s3cret-password"))
    }

    @Test func postgresDefaults() throws {
        let database = try Self.parse("{postgres: {url: 'postgresql://relay@127.0.0.1/push'}}")
        guard case .postgres(let settings) = database.backend else {
            Issue.record("expected postgres")
            return
        }
        #expect(settings.port == 5432)
        #expect(settings.password == nil)
        // The store's defaults (`PostgresStoreConfiguration`), as documented.
        #expect(settings.poolSize == 8)
        #expect(settings.nodeID == PostgresSettings.defaultNodeID)
        #expect(settings.lease == .seconds(60))
    }

    static func postgres(_ database: String) throws -> PostgresSettings {
        guard case .postgres(let settings) = try Self.parse(database).backend else { throw ConfigurationError.missingKey("postgres") }
        return settings
    }

    /// TLS is verified by default, except to a server on this machine.
    @Test func tlsDefaultsToVerifyFullUnlessTheHostIsThisMachine() throws {
        #expect(try Self.postgres("{postgres: {url: 'postgres://u@db.internal/d'}}").tls == .verifyFull)
        #expect(try Self.postgres("{postgres: {url: 'postgres://u@10.1.2.3/d'}}").tls == .verifyFull)
        #expect(try Self.postgres("{postgres: {url: 'postgres://u@localhost/d'}}").tls == .disable)
        #expect(try Self.postgres("{postgres: {url: 'postgres://u@127.0.0.1:6432/d'}}").tls == .disable)
        #expect(try Self.postgres("{postgres: {url: 'postgres://u@db.internal/d', tls: require}}").tls == .require)
        #expect(try Self.postgres("{postgres: {url: 'postgres://u@localhost/d', tls: verify-full}}").tls == .verifyFull)
        let settings = try Self.postgres("{postgres: {url: 'postgres://u@db.internal/d'}}")
        #expect(settings.storeConfiguration.tls == .verifyFull)
        #expect(settings.storeConfiguration.caFile == nil)
    }

    /// `ca_file` replaces the system's trust store for verify-full; given alone it means verify-full.
    @Test func aCAFileIsCheckedAndReachesTheStore() throws {
        let ca = Repository.devCert("ca.pem")
        let explicit = try Self.postgres("{postgres: {url: 'postgres://u@db.internal/d', tls: verify-full, ca_file: \(ca)}}")
        #expect(explicit.caFile == ca)
        #expect(explicit.storeConfiguration.caFile == ca)
        let implied = try Self.postgres("{postgres: {url: 'postgres://u@localhost/d', ca_file: \(ca)}}")
        #expect(implied.tls == .verifyFull)
    }

    @Test func anUnusableCAFileIsAConfigurationError() throws {
        let directory = try TemporaryDirectory()
        let garbage = try directory.write("garbage.pem", "no certificate here\n")
        let ca = Repository.devCert("ca.pem")
        for (database, says) in [
            ("{postgres: {url: 'postgres://u@db.internal/d', ca_file: /nonexistent/ca.pem}}", "/nonexistent/ca.pem"),
            ("{postgres: {url: 'postgres://u@db.internal/d', ca_file: \(garbage)}}", garbage),
            ("{postgres: {url: 'postgres://u@db.internal/d', tls: prefer, ca_file: \(ca)}}", "only tls: verify-full or require"),
            ("{postgres: {url: 'postgres://u@db.internal/d', tls: verify}}", "verify-full"),
        ] {
            #expect {
                try Self.parse(database)
            } throws: { error in
                guard case ConfigurationError.invalidValue(let key, let reason) = error else { return false }
                return key.hasPrefix("database.postgres.") && reason.contains(says)
            }
        }
    }

    /// A URL's options (which may hold a password) and its password never appear in the error.
    @Test func aURLWithOptionsIsRefusedWithoutRepeatingIt() {
        #expect {
            try Self.parse("{postgres: {url: 'postgres://u:pw-secret@h/db?password=x-secret&sslpassword=y-secret'}}")
        } throws: { error in
            let text = "\(error)"
            return text.contains("database.postgres.url") && text.contains("takes no options") && !text.contains("secret")
        }
    }

    /// The webhook's recipient cache: bounded by default, raised for large tenants, off with 0
    /// users; the bounds reach the store of either backend.
    @Test func recipientCacheBounds() throws {
        let defaults = try Self.parse("{path: p}")
        #expect(defaults.storeConfiguration.recipientCacheUsers == 100_000)
        #expect(defaults.storeConfiguration.recipientCacheBytes == 64 << 20)
        let raised = try Self.parse("{path: p, recipient_cache: {max_users: 1200000, max_bytes: 1073741824}}")
        #expect(raised.storeConfiguration.recipientCacheUsers == 1_200_000)
        #expect(raised.storeConfiguration.recipientCacheBytes == 1 << 30)
        let off = try Self.parse("{postgres: {url: 'postgres://u@h/d'}, recipient_cache: {max_users: 0}}")
        #expect(off.storeConfiguration.recipientCacheUsers == 0)
        #expect(off.storeConfiguration.recipientCacheBytes == 64 << 20)
    }

    @Test(arguments: [
        ("{path: p, postgres: {url: 'postgres://u@h/d'}}", "database.postgres"),
        ("{postgres: {}}", "database.postgres.url"),
        ("{postgres: {url: 'mysql://u@h/d'}}", "database.postgres.url"),
        ("{postgres: {url: 'postgres://h/d'}}", "database.postgres.url"),
        ("{postgres: {url: 'postgres://u@h/'}}", "database.postgres.url"),
        ("{postgres: {url: 'postgres://u@h/d?sslmode=require'}}", "database.postgres.url"),
        ("{postgres: {url: 'postgres://u:pw@h/d', password: other}}", "database.postgres.password"),
        ("{postgres: {url: 'postgres://u@h/d', pool_size: 0}}", "database.postgres.pool_size"),
        ("{postgres: {url: 'postgres://u@h/d', lease: 1s}}", "database.postgres.lease"),
        ("{postgres: {url: 'postgres://u@h/d', node_id: ''}}", "database.postgres.node_id"),
        ("{postgres: {url: 'postgres://u@h/d', hots: x}}", "database.postgres.hots"),
        ("{path: p, recipient_cache: {max_users: -1}}", "database.recipient_cache.max_users"),
        ("{path: p, recipient_cache: {max_users: 100000001}}", "database.recipient_cache.max_users"),
        ("{path: p, recipient_cache: {max_bytes: 1000}}", "database.recipient_cache.max_bytes"),
        ("{path: p, recipient_cache: {max_bytes: 68719476737}}", "database.recipient_cache.max_bytes"),
        ("{path: p, recipient_cache: {users: 5}}", "database.recipient_cache.users"),
        ("{path: p, recipient_cache: 5}", "database.recipient_cache"),
    ])
    func mistakesAreNamedByKey(database: String, key: String) {
        do {
            _ = try Self.parse(database)
            Issue.record("\(database) was accepted")
        } catch {
            #expect(error.description.contains(key), "\(error)")
        }
    }
}
