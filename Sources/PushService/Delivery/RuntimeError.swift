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

    public var description: String { "app \(appID): \(detail)" }

    public var appID: String {
        switch self {
        case .credential(let appID, _), .client(let appID, _), .fcm(let appID, _), .hms(let appID, _): appID
        }
    }

    /// What went wrong, without the app (for a line that names it already).
    public var detail: String {
        switch self {
        case .credential(_, let error): "apns.auth: \(error)"
        case .client(_, let error): "apns: cannot create the APNs client: \(error)"
        case .fcm(_, let error): "fcm: \(error)"
        case .hms(_, let error): "hms: \(error)"
        }
    }
}
