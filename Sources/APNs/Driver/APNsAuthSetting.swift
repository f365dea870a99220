import ConfigSupport

/// How an app authenticates to APNs (`apns.auth`). Paths are as written (relative ones are
/// relative to the working directory) or resolved from `{credential: NAME}`.
public enum APNsAuthSetting: Sendable, Hashable, CustomStringConvertible {
    /// `.p8` signing key with its 10-character Key ID and Team ID.
    case token(keyFile: String, keyID: String, teamID: String)
    /// A `.p12` client identity, optionally password protected.
    case p12(file: String, password: Secret?)
    /// A PEM certificate and its private key.
    case pem(certificateFile: String, keyFile: String)

    public var description: String {
        switch self {
        case .token(let file, let keyID, let teamID): "token (key \(file), key id \(keyID), team \(teamID))"
        case .p12(let file, let password): "certificate (p12 \(file)\(password == nil ? "" : ", with password"))"
        case .pem(let cert, let key): "certificate (PEM \(cert), key \(key))"
        }
    }
}
