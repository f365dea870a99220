import Foundation
import Logging
import PushService
import PushStore
import StoreContract

/// The configured store, opened by a command beside a relay that may be serving it: an SQLite
/// file must exist (none is made), and a PostgreSQL store gets two connections under a node id of
/// its own.
enum SideStore {
    struct Failure: Error {
        let message: String
        /// The command's exit status for it (74: the database cannot be opened).
        let exitCode: Int32 = 74
    }

    static func open(_ configured: DatabaseConfiguration, nodeID: String, logger: Logger) async throws(Failure) -> any RelayStore {
        var database = configured
        switch database.backend {
        case .sqlite(let path):
            guard FileManager.default.fileExists(atPath: path) else {
                throw Failure(message: "no database at \(path): has the relay run with this configuration?")
            }
        case .postgres(var settings):
            settings.poolSize = 2
            settings.nodeID = nodeID
            database.backend = .postgres(settings)
        }
        do {
            return try await RelayApplication.openStore(database, logger: logger)
        } catch {
            throw Failure(message: "\(error)")
        }
    }
}
