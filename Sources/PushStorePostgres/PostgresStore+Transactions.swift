import Logging
import PostgresNIO
import StoreContract

extension PostgresStore {
    enum TransactionKind {
        /// READ COMMITTED: row locks and the store's advisory locks serialise what must be.
        case write
        /// One snapshot for several reads (what SQLite's read transactions gave).
        case snapshot

        var begin: PostgresQuery {
            switch self {
            case .write: "BEGIN"
            case .snapshot: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
            }
        }
    }

    /// Runs `body` in one transaction on a pooled connection: committed when it returns, rolled
    /// back when it throws, and its own error rethrown (postgres-nio's `withTransaction` wraps it,
    /// and callers match `PushStoreError` and their own errors). A deadlock or serialisation
    /// failure, which PostgreSQL resolves by aborting one transaction, is retried a few times.
    func transaction<T: Sendable>(_ kind: TransactionKind = .write, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await retryingTransientFailures {
            try await withConnection { connection in
                try await connection.run(kind.begin, logger: logger)
                do {
                    let value = try await body(connection)
                    try await connection.run("COMMIT", logger: logger)
                    return value
                } catch {
                    await Self.rollBack(connection, after: error, logger: logger)
                    throw error
                }
            }
        }
    }

    /// Ends a failed transaction. Not on a connection that failed (the server rolls back what
    /// it loses; a statement sent after a FATAL error was seen to wait forever on a connection
    /// the server was closing), and a connection that cannot even roll back is closed rather
    /// than handed back to the pool in the middle of a transaction.
    private static func rollBack(_ connection: PostgresConnection, after error: any Error, logger: Logger) async {
        if connection.isClosed { return }
        if let error = error as? PSQLError, isConnectionFailure(error) { return }
        do {
            try await withDeadline(.seconds(10)) { try await connection.run("ROLLBACK", logger: logger) }
        } catch {
            try? await connection.close()
        }
    }

    /// The connection is gone or going: closed by either side, or ended by a FATAL error
    /// (an administrator's `pg_terminate_backend`, a server shutting down).
    static func isConnectionFailure(_ error: PSQLError) -> Bool {
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown: true
        default: ["FATAL", "PANIC"].contains(error.serverInfo?[.severity])
        }
    }

    /// A pooled connection for `body`, taken again (a few times) when the one handed out turns
    /// out to be closed before a statement was sent on it (`ConnectionClosed`): the pool learns
    /// that the server ended a connection a moment after the connection does. Nothing was sent,
    /// or only a transaction's first statements, which the server rolled back: safe to redo.
    func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await client.withConnection { connection in try await body(connection) }
            } catch is ConnectionClosed where attempt < 5 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(10 * attempt))
            }
        }
    }

    /// Runs `body` (one transaction: an explicit one, or a single statement) again when
    /// PostgreSQL aborted it to resolve a deadlock or a serialisation failure: nothing of it was
    /// written, so trying again is safe.
    func retryingTransientFailures<T>(_ body: () async throws -> T) async throws -> T {
        var retries = 0
        while true {
            do {
                return try await body()
            } catch let error as PSQLError where retries < 3 && ["40001", "40P01"].contains(error.serverInfo?[.sqlState]) {
                retries += 1
                logger.debug("retrying a transaction", metadata: ["sqlstate": "\(error.serverInfo?[.sqlState] ?? "")"])
            }
        }
    }

    /// A write to users, device tokens, preferences or templates of `app` (nil: of apps not known
    /// here, an import). Every such write goes through here: in its transaction it notifies
    /// `pushrelay_registry` with the app (delivered at commit to every relay's
    /// `RegistryListener`, which forgets that app's part of its cache), and once the transaction
    /// has ended it does the same to this relay's own cache at once.
    func registryWrite<T: Sendable>(app: String?, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        defer {
            if let app { recipientCache.invalidate(app: app) } else { recipientCache.invalidateAll() }
        }
        return try await transaction { connection in
            let value = try await body(connection)
            let payload = app.map { RegistryListener.registryPrefix + $0 } ?? ""
            try await connection.run("SELECT pg_notify(\(RegistryListener.channel), \(payload))", logger: logger)
            return value
        }
    }
}
