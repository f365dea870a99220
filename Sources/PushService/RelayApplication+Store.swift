import Logging
import PushStore

extension RelayApplication {
    /// Opens the configured store and brings its schema up to date.
    /// The store stamps registrations with the wall clock, not `Seams.clock`: APNs' 410 timestamps,
    /// which they are compared with, are wall-clock times.
    static func openStore(_ database: DatabaseConfiguration, logger: Logger) async throws -> any RelayStore {
        switch database.backend {
        case .sqlite(let path):
            return try SQLiteStore(path: path)
        case .postgres:
            throw PushStoreError.cannotOpen(path: database.location, reason: "PostgreSQL is not available in this build")
        }
    }
}
