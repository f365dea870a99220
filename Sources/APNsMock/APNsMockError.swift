/// Errors the mock's API throws.
public enum APNsMockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `waitForNotifications` / `waitForStats` ran out of time.
    case timedOut(waitingFor: String, after: Duration)
    /// The server was shut down while something waited on it.
    case shutDown
    /// `start()` was called twice, or after `shutdown()`.
    case alreadyStarted
    /// A provider-token verification key could not be read or parsed.
    case invalidJWTKey(keyID: String, detail: String)
    /// The TLS certificate, key or client CA could not be loaded.
    case invalidTLSMaterial(path: String, detail: String)

    public var description: String {
        switch self {
        case .timedOut(let what, let after): "timed out after \(after) waiting for \(what)"
        case .shutDown: "the APNs mock was shut down"
        case .alreadyStarted: "the APNs mock was already started (a server starts once)"
        case .invalidJWTKey(let keyID, let detail): "JWT verification key \"\(keyID)\" is unusable: \(detail)"
        case .invalidTLSMaterial(let path, let detail): "TLS file \(path) is unusable: \(detail)"
        }
    }
}
