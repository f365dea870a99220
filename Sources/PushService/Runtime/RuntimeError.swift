import APNs

/// Why the APNs clients (one per app) could not be built from a configuration.
public enum RuntimeError: Error, Sendable, CustomStringConvertible {
    /// An app's key or certificate could not be loaded.
    case credential(appID: String, APNsCredentialError)
    /// An app's APNs client could not be created (e.g. an unreadable CA file).
    case client(appID: String, APNsError)

    public var description: String {
        switch self {
        case .credential(let appID, let error): "app \(appID): apns.auth: \(error)"
        case .client(let appID, let error): "app \(appID): apns: cannot create the APNs client: \(error)"
        }
    }
}
