import Logging
import PostgresNIO
import StoreContract

/// The connection ended before a statement could be sent on it.
struct ConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the database connection is closed" }
}

/// The few ways the store runs a statement, all through `all(_:logger:)`.
extension PostgresConnection {
    /// Every row of the statement, in order.
    ///
    /// Sent from the connection's event loop, after checking there that the connection is still
    /// open. A statement written to a connection that NIO has already torn down never reaches
    /// postgres-nio's handler, and its caller would wait forever: seen when the server ends a
    /// connection (`pg_terminate_backend`, a restart) just as a statement is sent. On the event
    /// loop, an open connection still has its handler, which fails the statement properly if the
    /// connection ends under it.
    func all(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await eventLoop.flatSubmit {
            guard !self.isClosed else { return self.eventLoop.makeFailedFuture(ConnectionClosed()) }
            return self.query(query, logger: logger).map(\.rows)
        }.get()
    }

    /// Runs a statement for its effect.
    func run(_ query: PostgresQuery, logger: Logger) async throws {
        _ = try await all(query, logger: logger)
    }

    /// Every row, in order.
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await all(query, logger: logger)
    }

    /// Each row decoded by `body`, in order.
    func rows<T>(_ query: PostgresQuery, logger: Logger, _ body: (PostgresRow) throws -> T) async throws -> [T] {
        try await all(query, logger: logger).map(body)
    }

    /// The first column of the first row; nil when there is no row or it is NULL.
    func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type, logger: Logger) async throws -> T?
    where T._DecodableType == T {
        try await all(query, logger: logger).first?.decode(T?.self) ?? nil
    }

    /// How many rows the statement returned (`… RETURNING 1` counts what it changed).
    func count(_ query: PostgresQuery, logger: Logger) async throws -> Int {
        try await all(query, logger: logger).count
    }
}
