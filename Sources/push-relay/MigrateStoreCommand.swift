import ArgumentParser
import ConfigSupport
import Foundation
import Logging
import PushService
import PushStore
import StoreContract
import PushStorePostgres

/// `push-relay migrate-store --from sqlite:PATH --to postgres://…`: moves a relay's state from
/// its SQLite file to PostgreSQL (`StoreMigration`), then says per table whether all of it is there.
struct MigrateStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-store",
        abstract: "Copy a relay's SQLite store into PostgreSQL, for a fleet.",
        discussion: """
            Copies users, device tokens (with their registration times), push preferences, \
            templates, session and API token digests, accepted events (so a retried webhook is still \
            a duplicate), and every delivery with its payload and attempts: the queue (a push in \
            flight arrives pending, with the same apns-id) and the delivery log. The target's schema \
            is created or updated first. The source is read as one snapshot, so the relay must be \
            stopped first: while one serves the file (its lock, PATH.lock, is held) nothing is copied.

            Rows already in the target are left as they are, so running it again (after an \
            interruption, say) copies only what is missing. Afterwards it counts, per table, the \
            source rows found in the target.

            --from: sqlite:PATH, or config:PATH (the file's database.path).
            --to: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (also postgres:postgres://…), \
            or config:PATH (the file's database.postgres, password and all; {credential: NAME} \
            from $CREDENTIALS_DIRECTORY, else /etc/push-relay/credentials, as check-config reads \
            them). The password of a URL comes from the URL, --password-file, --password-env, or \
            else PGPASSWORD.

            --tls for a URL: verify-full (the default, unless the host is this machine: then \
            disable) checks the server's certificate chain, against --ca-file or else the \
            system's trust store, and its host name; require verifies exactly as verify-full \
            does (unlike libpq's require); prefer encrypts when the server offers TLS but does \
            not verify the server; disable is plain TCP.

            Exit status: 0 every row is in the target; 1 a row is missing, or a store failed; \
            64 usage error; 78 a configuration file named with config: is invalid.
            """
    )

    @Option(name: .long, help: "The SQLite store: sqlite:PATH or config:PATH.")
    var from: String

    @Option(name: .long, help: "The PostgreSQL store: postgres://USER@HOST[:PORT]/DATABASE or config:PATH.")
    var to: String

    @Option(
        name: .customLong("password-file"),
        help: "A file holding the PostgreSQL password (trailing newline dropped; refused when every user can read it).")
    var passwordFile: String?

    @Option(name: .customLong("password-env"), help: "An environment variable holding the PostgreSQL password.")
    var passwordEnv: String?

    @Option(
        name: .long,
        help:
            "TLS to PostgreSQL for a URL target: disable, prefer, require or verify-full (default: verify-full, or disable on this machine)."
    )
    var tls: String?

    @Option(name: .customLong("ca-file"), help: "PEM certificates verify-full and require trust for a URL target (default: the system's).")
    var caFile: String?

    @Option(name: .customLong("page-size"), help: "Rows per statement (1...10000).")
    var pageSize = 1000

    func validate() throws {
        guard (1...10_000).contains(pageSize) else { throw ValidationError("--page-size must be 1...10000") }
        if let tls, PostgresStoreConfiguration.TLSMode(rawValue: tls) == nil {
            throw ValidationError("--tls must be \(PostgresStoreConfiguration.TLSMode.names)")
        }
        if to.hasPrefix("config:"), tls != nil || caFile != nil {
            throw ValidationError("a configuration file names its own tls and ca_file; drop --tls/--ca-file")
        }
        if passwordFile != nil && passwordEnv != nil {
            throw ValidationError("give --password-file or --password-env, not both")
        }
    }

    func run() async throws {
        try await reportingUsageErrors { try await migrate() }
    }

    private func migrate() async throws {
        let sourcePath: String
        var target: PostgresStoreConfiguration
        do {
            // {credential: NAME} in a config: file as check-config reads it outside systemd.
            let credentials = ConfigurationEnvironment.process.checking(credentialsDirectory: nil)
            guard case .sqlite(let path) = try StoreLocation.parse(from, option: "--from", environment: credentials).backend else {
                throw ValidationError("--from must name an SQLite store (sqlite:PATH)")
            }
            guard FileManager.default.fileExists(atPath: path) else { throw ValidationError("--from: no such file: \(path)") }
            sourcePath = path
            let location = try StoreLocation.parse(
                to, option: "--to", passwordFile: passwordFile, passwordEnv: passwordEnv, environment: credentials)
            guard case .postgres(var settings) = location.backend else {
                throw ValidationError("--to must name a PostgreSQL store (postgres://… or config:PATH)")
            }
            if let mode = tls.flatMap(PostgresStoreConfiguration.TLSMode.init(rawValue:)) { settings.tls = mode }
            if let caFile {
                if tls == nil { settings.tls = .verifyFull }
                settings.caFile = try PostgresSettings.checkedCAFile(caFile, tls: settings.tls, key: "--ca-file")
            }
            settings.nodeID = "migrate-store"
            settings.poolSize = 2
            target = settings.storeConfiguration
        } catch let error as ConfigurationError {
            if case .invalidValue(let key, _) = error, key.hasPrefix("--") { throw ValidationError(error.description) }
            FileHandle.standardError.write(Data("push-relay migrate-store: \(error)\n".utf8))
            throw ExitCode(78)
        }

        var logger = Logger(label: "push-relay.migrate-store")
        logger.logLevel = .warning
        do {
            // Not while a relay serves the file: what it accepts after the snapshot would stay behind.
            let lock: ServeLock?
            do {
                lock = try ServeLock.acquireIfPresent(database: sourcePath)
            } catch {
                guard case .held(_, let pid) = error else { throw error }
                let holder = pid.map { "pid \($0)" } ?? "pid unknown"
                FileHandle.standardError.write(
                    Data("push-relay migrate-store: a relay serves \(sourcePath) (\(holder)); stop it first\n".utf8))
                throw ExitCode(1)
            }
            defer { withExtendedLifetime(lock) {} }
            let sqlite = try SQLiteStore(path: sourcePath)
            let report: StoreMigration.Report
            do {
                report = try await copy(sqlite, from: sourcePath, to: target, logger: logger)
            } catch {
                try? await sqlite.close()
                throw error
            }
            // Closed after the snapshot's connection is gone, the writer last: the store folds its
            // WAL back into the file and removes it, so the source is left the one file it was
            // (left to deinit, the connections' order varied, and now and then the WAL stayed).
            try? await sqlite.close()
            if report.inFlightMadePending > 0 {
                print("\(report.inFlightMadePending) deliveries in flight at the source are pending in the target (same apns-id)")
            }
            guard report.isComplete else {
                let missing = report.tables.filter { $0.missing > 0 }.map { "\($0.table) \($0.missing)" }
                FileHandle.standardError.write(
                    Data("push-relay migrate-store: rows missing in the target: \(missing.joined(separator: ", "))\n".utf8))
                throw ExitCode(1)
            }
            print("verified: every row of \(sourcePath) is in \(target.location)")
        } catch let error as ExitCode {
            throw error
        } catch {
            FileHandle.standardError.write(Data("push-relay migrate-store: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Copies `sqlite`, as one snapshot, into the PostgreSQL store `target`, printing each table's
    /// figures. The snapshot (a read connection of its own) is released when this returns.
    private func copy(
        _ sqlite: SQLiteStore, from sourcePath: String, to target: PostgresStoreConfiguration, logger: Logger
    ) async throws -> StoreMigration.Report {
        let snapshot = try SQLiteSnapshot(sqlite)
        let postgres = try await PostgresStore.open(configuration: target, logger: logger)
        print("copying \(sourcePath) → \(target.location)")
        print(Self.row("table", "source", "copied", "present", "missing"))
        let migration = StoreMigration(source: snapshot, target: postgres, pageSize: pageSize, deliveryPageSize: min(pageSize, 500))
        let report: StoreMigration.Report
        do {
            report = try await migration.run { figures in
                print(Self.row(figures.table, figures.source, figures.copied, figures.present, figures.missing))
            }
        } catch {
            try? await postgres.close()
            throw error
        }
        try await postgres.close()
        return report
    }

    private static func row(_ table: String, _ values: Any...) -> String {
        table.padding(toLength: 26, withPad: " ", startingAt: 0) + values.map { "\($0)".leftPadded(to: 10) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
