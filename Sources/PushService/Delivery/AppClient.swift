import Foundation
import Logging
import ProviderDriver
import PushCore
import PushEngine

/// One app as the running service sees it: its configuration and, when it has provider
/// settings, the delivery target (open client pools) built from them.
public struct AppClient: Sendable {
    public let app: AppConfiguration
    public let target: DeliveryTarget?
    public let certificateNotAfter: Date?

    /// Loads each provider's credentials and makes its sender (no connection is made until the
    /// first push). Throws naming the app and the setting at fault.
    public static func build(app: AppConfiguration, logger: Logger, now: Date = Date()) throws(RuntimeError) -> AppClient {
        guard !app.providers.isEmpty else { return AppClient(app: app, target: nil, certificateNotAfter: nil) }
        var clientLogger = logger
        clientLogger[metadataKey: "app"] = .string(app.appID)
        var target = DeliveryTarget()
        var notAfter: Date?
        for settings in app.providers.all {
            do {
                // Senders made before a failure have opened nothing yet (connections open on the first push).
                let route = try settings.makeRoute(logger: clientLogger, now: now)
                target.add(route)
                notAfter = notAfter ?? route.certificateNotAfter
            } catch {
                throw RuntimeError(appID: app.appID, provider: settings.provider, detail: error.description)
            }
            if let options = settings.pushOptions { target.options = options }
            if let timeToLive = settings.timeToLive { target.timeToLive = timeToLive }
        }
        target.options.multiDevice = app.multiDevice
        return AppClient(app: app, target: target, certificateNotAfter: notAfter)
    }
}
