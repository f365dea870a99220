import MockSupport

/// Errors the mock's API throws.
public enum FCMMockError: Error, Sendable, Equatable, CustomStringConvertible, MockServerError {
    /// `waitForMessages` ran out of time.
    case timedOut(waitingFor: String, after: Duration)
    case shutDown
    case alreadyStarted
    /// The service account file could not be read, or holds no usable RSA key.
    case invalidServiceAccount(path: String, detail: String)
    case invalidTLSMaterial(path: String, detail: String)
    /// `recordFile` could not be created or opened for appending.
    case cannotOpenRecordFile(path: String, detail: String)

    public var description: String {
        switch self {
        case .timedOut(let what, let after): "timed out after \(after) waiting for \(what)"
        case .shutDown: "the FCM mock was shut down"
        case .alreadyStarted: "the FCM mock was already started (a server starts once)"
        case .invalidServiceAccount(let path, let detail): "service account \(path) is unusable: \(detail)"
        case .invalidTLSMaterial(let path, let detail): "TLS file \(path) is unusable: \(detail)"
        case .cannotOpenRecordFile(let path, let detail): "cannot open the record file \(path): \(detail)"
        }
    }
}
