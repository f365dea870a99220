import APNs
import FCM
import HMS
import Foundation
import Logging
import PushCore
import PushSending

/// One app as the running service sees it: its configuration and, when it has APNs or FCM
/// settings, the delivery target (open client pools) built from them.
public struct AppClient: Sendable {
    public let app: AppConfiguration
    public let target: DeliveryTarget?
    public let certificateNotAfter: Date?

    /// Loads the app's credentials and creates its client (no connection is made until the
    /// first push). Throws naming the app and the file at fault.
    public static func build(app: AppConfiguration, logger: Logger, now: Date = Date()) throws(RuntimeError) -> AppClient {
        guard app.apns != nil || app.fcm != nil || app.hms != nil else { return AppClient(app: app, target: nil, certificateNotAfter: nil) }
        var clientLogger = logger
        clientLogger[metadataKey: "app"] = .string(app.appID)
        var target = DeliveryTarget()
        var notAfter: Date?
        if let apns = app.apns {
            let credentials: AppCredentials
            do {
                credentials = try AppCredentials.load(apns.auth, now: now)
            } catch {
                throw .credential(appID: app.appID, error)
            }
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
            target.senders[.apns] = APNsSender(
                client: client, topic: apns.topic, defaultPushType: apns.pushType, defaultPriority: apns.priority)
            target.pushType = apns.pushType
            target.priority = apns.priority
            target.timeToLive = apns.defaultExpiration
            target.options = apns.options
            notAfter = credentials.certificateNotAfter
        }
        if let fcm = app.fcm {
            do {
                target.senders[.fcm] = FCMSender(client: try FCMClient(configuration: try fcm.clientConfiguration(logger: clientLogger)))
            } catch {
                // The APNs client above has opened nothing yet (connections open on the first push).
                throw .fcm(appID: app.appID, error)
            }
        }
        if let hms = app.hms {
            do {
                target.senders[.hms] = HMSSender(client: try HMSClient(configuration: hms.clientConfiguration(logger: clientLogger)))
            } catch {
                // Nothing above has opened a connection yet, and the HMS client is not made.
                throw .hms(appID: app.appID, error)
            }
        }
        target.options.multiDevice = app.multiDevice
        return AppClient(app: app, target: target, certificateNotAfter: notAfter)
    }
}

extension FCMAppConfiguration {
    /// Reads the service account and makes the client's configuration.
    func clientConfiguration(logger: Logger) throws(FCMError) -> FCMClientConfiguration {
        let account: FCMServiceAccount
        do {
            account = try FCMServiceAccount(file: serviceAccountFile)
        } catch {
            throw .credentials(error)
        }
        return FCMClientConfiguration(
            serviceAccount: account, serviceAccountSource: serviceAccountFile, projectID: projectID, endpoint: endpoint,
            tokenURL: tokenURL, extraCAFile: caFile,
            // A custom endpoint with its own CA (fcm-mock) trusts only that CA.
            trustSystemRoots: caFile == nil, connections: poolSize, logger: logger)
    }
}

extension HMSAppConfiguration {
    func clientConfiguration(logger: Logger) -> HMSClientConfiguration {
        HMSClientConfiguration(
            appID: appID, clientSecret: clientSecret.value, endpoint: endpoint, tokenURL: tokenURL, caFile: caFile,
            connections: poolSize, logger: logger)
    }
}
