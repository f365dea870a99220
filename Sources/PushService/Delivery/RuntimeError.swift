import APNs
import FCM
import HMS

/// Why the service could not build an app's clients from a valid configuration.
public enum RuntimeError: Error, Sendable, CustomStringConvertible {
    /// An app's key or certificate could not be loaded.
    case credential(appID: String, APNsCredentialError)
    /// An app's APNs client could not be created (e.g. an unreadable CA file).
    case client(appID: String, APNsError)
    /// An app's FCM service account or client could not be used.
    case fcm(appID: String, FCMError)
    /// An app's HMS client could not be created (an unreadable CA file).
    case hms(appID: String, HMSError)

    public var description: String {
        switch self {
        case .credential(let appID, let error): "app \(appID): apns.auth: \(error)"
        case .client(let appID, let error): "app \(appID): apns: cannot create the APNs client: \(error)"
        case .fcm(let appID, let error): "app \(appID): fcm: \(error)"
        case .hms(let appID, let error): "app \(appID): hms: \(error)"
        }
    }
}
