import APNs
import Foundation
import Logging

/// One app as the running service sees it: its configuration and, when it has APNs settings,
/// the delivery target (an open `APNsClient` pool) built from them.
public struct AppClient: Sendable {
    public let app: AppConfiguration
    public let target: DeliveryTarget?
    public let certificateNotAfter: Date?

    /// Loads the app's credentials and creates its client (no connection is made until the
    /// first push). Throws naming the app and the file at fault.
    public static func build(app: AppConfiguration, logger: Logger, now: Date = Date()) throws(RuntimeError) -> AppClient {
        guard let apns = app.apns else { return AppClient(app: app, target: nil, certificateNotAfter: nil) }
        let credentials: AppCredentials
        do {
            credentials = try AppCredentials.load(apns.auth, now: now)
        } catch {
            throw .credential(appID: app.appID, error)
        }
        var clientLogger = logger
        clientLogger[metadataKey: "app"] = .string(app.appID)
        let client: APNsClient
        do {
            client = try APNsClient(
                configuration: APNsClientConfiguration(
                    endpoint: apns.environment.endpoint,
                    authentication: credentials.authentication,
                    extraCAFile: apns.environment.caFile,
                    // A custom endpoint with its own CA (apns-mock) trusts only that CA.
                    trustSystemRoots: apns.environment.caFile == nil,
                    connections: apns.poolSize,
                    logger: clientLogger))
        } catch {
            throw .client(appID: app.appID, error)
        }
        let target = DeliveryTarget(
            client: client, topic: apns.topic, pushType: apns.pushType, priority: apns.priority,
            timeToLive: apns.defaultExpiration, options: apns.options)
        return AppClient(app: app, target: target, certificateNotAfter: credentials.certificateNotAfter)
    }
}
