import Logging
import PushStore
import StoreContract
import PushStorePostgres

extension RelayApplication {
    /// Opens the configured store and brings its schema up to date.
    /// The store stamps registrations with the wall clock, not `Seams.clock`: APNs' 410 timestamps,
    /// which they are compared with, are wall-clock times.
    public static func openStore(_ database: DatabaseConfiguration, logger: Logger) async throws -> any RelayStore {
        switch database.backend {
        case .sqlite(let path):
            return try SQLiteStore(path: path, configuration: database.storeConfiguration)
        case .postgres(let settings):
            var configuration = settings.storeConfiguration
            configuration.store = database.storeConfiguration
            return try await PostgresStore.open(
                configuration: configuration,
                logger: Logger(label: "push-relay.store", factory: { _ in logger.handler }))
        }
    }
}
