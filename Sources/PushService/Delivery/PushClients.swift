import Foundation
import Logging
import PushEngine
import Synchronization

/// The live per-app delivery targets, swapped as a whole on reload.
///
/// The dispatcher asks for a target per send (`target(forApp:)`), so after `replace(with:)` new
/// sends use the new clients while sends already running on an old client finish on it; the
/// old clients are shut down afterwards (`shutdown()` lets in-flight requests finish).
/// Accepted work lives in SQLite, so nothing is dropped by a reload.
public final class PushClients: DeliveryTargetProvider {
    private let apps: Mutex<[String: AppClient]>
    private let logger: Logger

    public init(apps: [AppClient], logger: Logger) {
        self.apps = Mutex(Dictionary(apps.map { ($0.app.appID, $0) }, uniquingKeysWith: { first, _ in first }))
        self.logger = logger
    }

    /// Builds every app's client from `configuration`; on any failure the clients already
    /// created are shut down and the error names the app and file.
    public static func build(configuration: RelayConfiguration, logger: Logger, now: Date = Date()) async throws(RuntimeError)
        -> PushClients
    {
        PushClients(apps: try await buildApps(configuration, logger: logger, now: now), logger: logger)
    }

    private static func buildApps(_ configuration: RelayConfiguration, logger: Logger, now: Date) async throws(RuntimeError) -> [AppClient]
    {
        var built: [AppClient] = []
        for app in configuration.apps {
            do {
                built.append(try AppClient.build(app: app, logger: logger, now: now))
            } catch {
                for app in built { await app.target?.shutdown() }
                throw error
            }
        }
        return built
    }

    public func target(forApp appID: String) -> DeliveryTarget? {
        apps.withLock { $0[appID]?.target }
    }

    /// Every app, in no particular order (for readiness and metrics).
    public var snapshot: [AppClient] {
        apps.withLock { Array($0.values) }.sorted { $0.app.appID < $1.app.appID }
    }

    /// Builds clients for `configuration`, swaps them in, then shuts the old ones down. When
    /// building fails the running clients stay in place and the error is thrown.
    public func reload(configuration: RelayConfiguration, now: Date = Date()) async throws(RuntimeError) {
        let fresh = try await Self.buildApps(configuration, logger: logger, now: now)
        let old = apps.withLock { current in
            let previous = current
            current = Dictionary(fresh.map { ($0.app.appID, $0) }, uniquingKeysWith: { first, _ in first })
            return previous
        }
        await withTaskGroup(of: Void.self) { group in
            for app in old.values {
                if let target = app.target { group.addTask { await target.shutdown() } }
            }
        }
    }

    /// Closes every client (after their in-flight requests), at service stop.
    public func shutdown() async {
        let all = apps.withLock { $0.values.compactMap(\.target) }
        await withTaskGroup(of: Void.self) { group in
            for target in all { group.addTask { await target.shutdown() } }
        }
    }
}
