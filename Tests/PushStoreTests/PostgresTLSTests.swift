import Foundation
import TestSupport
import Testing
@testable import PushStore
@testable import StoreContract
@testable import PushStorePostgres

/// TLS to PostgreSQL against a real server: a cluster of its own with `ssl=on` and a certificate
/// for `localhost` (not 127.0.0.1) signed by a CA made here with openssl, which no system trusts.
@Suite(.timeLimit(.minutes(5))) struct PostgresTLSTests {
    /// The cluster and the CA file, made once per test process (stopped at its exit).
    struct Server: Sendable {
        let cluster: PostgresCluster
        let caFile: String
    }

    static let server = Task<Server, any Error> {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushrelay-pg-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try """
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature, keyEncipherment
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:localhost

        """.write(toFile: path("server.cnf"), atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try await openssl(
            ["req", "-x509"] + ec + [
                "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2", "-subj", "/CN=PushRelay test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
            ])
        try await openssl(
            ["req", "-new"] + ec + ["-keyout", path("server.key"), "-subj", "/CN=postgres test server", "-out", path("server.csr")])
        try await openssl([
            "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
            "-set_serial", "\(UInt32.random(in: 1...UInt32.max))", "-days", "2", "-extfile", path("server.cnf"), "-out", path("server.pem"),
        ])
        let cluster = try await PostgresCluster.dedicated(
            settings: ["ssl": "on", "ssl_cert_file": "server.pem", "ssl_key_file": "server.key"],
            files: [
                "server.pem": try String(contentsOfFile: path("server.pem"), encoding: .utf8),
                "server.key": try String(contentsOfFile: path("server.key"), encoding: .utf8),
            ])
        return Server(cluster: cluster, caFile: path("ca.pem"))
    }

    struct OpenSSLFailed: Error, CustomStringConvertible {
        let description: String
    }

    static func openssl(_ arguments: [String]) async throws {
        let result = try await ChildProcess.run("/usr/bin/openssl", arguments)
        guard result.status == 0 else { throw OpenSSLFailed(description: "openssl \(arguments[0]): \(result.stderr)") }
    }

    /// A store on a new database of the TLS cluster, reached as `host`.
    static func open(host: String, tls: PostgresStoreConfiguration.TLSMode, caFile: String?) async throws -> PostgresStore {
        let server = try await server.value
        let database = try await server.cluster.createDatabase()
        return try await PostgresStore.open(
            configuration: PostgresStoreConfiguration(
                host: host, port: server.cluster.port, username: PostgresCluster.user, database: database, poolSize: 2,
                nodeID: "tls-\(database)", tls: tls, caFile: caFile))
    }

    /// Whether every connection the store opened (its LISTEN connection, and a pooled one made
    /// by a query) is encrypted, as the server sees them.
    static func encrypted(_ store: PostgresStore) async throws -> Bool {
        _ = try await store.appliedMigrations()
        let rows = try await server.value.cluster.psql(
            database: "postgres",
            """
            SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
            WHERE a.application_name LIKE 'push-relay \(store.configuration.nodeID)%'
            """)
        return rows.count >= 2 && rows.allSatisfy { $0 == ["t"] }
    }

    static func openingFails(host: String, tls: PostgresStoreConfiguration.TLSMode, caFile: String?) async throws -> String {
        do {
            let store = try await open(host: host, tls: tls, caFile: caFile)
            try await store.close()
            return "opened"
        } catch PushStoreError.cannotOpen(_, let reason) {
            return reason
        }
    }

    @Test func verifyFullWithTheCAFileConnectsEncrypted() async throws {
        let store = try await Self.open(host: "localhost", tls: .verifyFull, caFile: try await Self.server.value.caFile)
        #expect(try await Self.encrypted(store))
        try await store.close()
    }

    /// The system's trust store does not know the test CA: no connection, and the reason says
    /// the certificate was not verified.
    @Test func verifyFullWithoutTheCAFileIsRefused() async throws {
        let reason = try await Self.openingFails(host: "localhost", tls: .verifyFull, caFile: nil)
        #expect(reason.contains("certificate"), "\(reason)")
        #expect(reason.contains("CERTIFICATE_VERIFY_FAILED"), "\(reason)")
    }

    /// The certificate names `localhost`; reached as 127.0.0.1, a trusted chain is not enough.
    @Test func verifyFullChecksTheHostName() async throws {
        let reason = try await Self.openingFails(host: "127.0.0.1", tls: .verifyFull, caFile: try await Self.server.value.caFile)
        #expect(reason.contains("host name"), "\(reason)")
    }

    /// `prefer` encrypts but trusts any certificate; `require` verifies as `verify-full` does
    /// (it always did here: an upgrade must not quietly stop verifying).
    @Test func preferEncryptsWithoutVerifyingAndRequireVerifies() async throws {
        let store = try await Self.open(host: "127.0.0.1", tls: .prefer, caFile: nil)
        #expect(try await Self.encrypted(store))
        try await store.close()
        let reason = try await Self.openingFails(host: "localhost", tls: .require, caFile: nil)
        #expect(reason.contains("CERTIFICATE_VERIFY_FAILED"), "\(reason)")
        let verified = try await Self.open(host: "localhost", tls: .require, caFile: try await Self.server.value.caFile)
        #expect(try await Self.encrypted(verified))
        try await verified.close()
    }

    /// A server without TLS (the shared cluster) is refused by `verify-full`, not used in plain text.
    @Test func verifyFullRefusesAServerWithoutTLS() async throws {
        let plain = try await PostgresCluster.shared()
        let database = try await plain.createDatabase()
        let configuration = PostgresStoreConfiguration(
            host: plain.host, port: plain.port, username: PostgresCluster.user, database: database, nodeID: "plain", tls: .verifyFull)
        await #expect {
            try await PostgresStore.open(configuration: configuration)
        } throws: { error in
            guard case PushStoreError.cannotOpen(_, let reason) = error else { return false }
            return reason.contains("does not offer TLS")
        }
    }

    /// A CA file that is not PEM certificates fails before any connection, naming the file.
    @Test func anUnusableCAFileIsAnErrorNamingIt() throws {
        let directory = try TemporaryDirectory()
        let garbage = try directory.write("ca.pem", "not a certificate\n")
        for path in [garbage, directory.path("missing.pem")] {
            #expect {
                try PostgresStoreConfiguration.validate(caFile: path)
            } throws: { error in
                "\(error)".contains(path)
            }
        }
        #expect(throws: Never.self) { try PostgresStoreConfiguration.validate(caFile: Repository.devCert("ca.pem")) }
    }
}

/// Which hosts get TLS by default, and what a URL's errors may say.
@Suite(.timeLimit(.minutes(5))) struct PostgresStoreConfigurationTests {
    @Test(arguments: [
        ("localhost", PostgresStoreConfiguration.TLSMode.disable), ("LOCALHOST.", .disable), ("127.0.0.1", .disable),
        ("127.8.9.10", .disable), ("::1", .disable), ("[::1]", .disable), ("::ffff:127.0.0.1", .disable),
        ("/var/run/postgresql", .disable), ("db.internal", .verifyFull), ("10.0.0.5", .verifyFull), ("::2", .verifyFull),
        ("localhost.example.com", .verifyFull), ("128.0.0.1", .verifyFull), ("fe80::1", .verifyFull),
    ])
    func theDefaultVerifiesEveryHostButThisMachine(host: String, mode: PostgresStoreConfiguration.TLSMode) {
        #expect(PostgresStoreConfiguration.TLSMode.defaultMode(host: host) == mode)
    }

    @Test func aURLGetsItsHostsDefault() throws {
        #expect(try PostgresStoreConfiguration(url: "postgres://u@db.internal/d", nodeID: "n").tls == .verifyFull)
        #expect(try PostgresStoreConfiguration(url: "postgres://u@127.0.0.1:6543/d", nodeID: "n").tls == .disable)
        #expect(try PostgresStoreConfiguration(url: "postgres://u@db.internal/d", nodeID: "n", tls: .require).tls == .require)
    }

    /// libpq-style options may carry a password (`?password=`, `sslpassword=`): the error says
    /// options are refused without repeating any part of the URL.
    @Test(arguments: [
        "postgres://u:secret-1@h/db?password=secret-2&sslpassword=secret-3",
        "postgres://u:secret-1@h/db?sslmode=require#secret-2", "postgres://u:secret-1@h/db#secret-2", "postgres://u:secret-1@h/db?",
    ])
    func aURLsOptionsAreRefusedUnquoted(url: String) {
        #expect {
            try PostgresStoreConfiguration(url: url, nodeID: "n")
        } throws: { error in
            let text = "\(error)"
            return text.contains("takes no options") && !text.contains("secret") && !text.contains("password=")
        }
    }
}
