import GRDB

/// Proves the database is writable: opens its own connection and takes the write lock
/// (`BEGIN IMMEDIATE; ROLLBACK`), which fails on a read-only file, a full or vanished
/// directory, or a writer stuck beyond the busy timeout. Nothing is written.
public struct DatabaseProbe: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// nil when writable, else what went wrong.
    public func check() async -> String? {
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(2)
            configuration.label = "DatabaseProbe"
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                try db.execute(sql: "ROLLBACK")
            }
            try queue.close()
            return nil
        } catch let error as DatabaseError {
            return error.message ?? error.description
        } catch {
            return String(describing: error)
        }
    }
}
