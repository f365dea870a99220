import MockSupport

/// Errors the mock's API throws.
public enum HMSMockError: Error, Sendable, Equatable, CustomStringConvertible, MockServerError {
    /// `waitForMessages` ran out of time.
    case timedOut(waitingFor: String, after: Duration)
    case shutDown
    case alreadyStarted
    case invalidTLSMaterial(path: String, detail: String)
    /// `recordFile` could not be created or opened for appending.
    case cannotOpenRecordFile(path: String, detail: String)

    public var description: String {
        switch self {
        case .timedOut(let what, let after): "timed out after \(after) waiting for \(what)"
        case .shutDown: "the HMS mock was shut down"
        case .alreadyStarted: "the HMS mock was already started (a server starts once)"
        case .invalidTLSMaterial(let path, let detail): "TLS file \(path) is unusable: \(detail)"
        case .cannotOpenRecordFile(let path, let detail): "cannot open the record file \(path): \(detail)"
        }
    }
}
