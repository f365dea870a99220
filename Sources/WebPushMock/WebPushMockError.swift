import MockSupport

/// Errors the mock's API throws.
public enum WebPushMockError: Error, Sendable, Equatable, CustomStringConvertible, MockServerError {
    case timedOut(waitingFor: String, after: Duration)
    case shutDown
    case alreadyStarted
    case invalidTLSMaterial(path: String, detail: String)
    case cannotOpenRecordFile(path: String, detail: String)

    public var description: String {
        switch self {
        case .timedOut(let what, let after): "timed out after \(after) waiting for \(what)"
        case .shutDown: "the Web Push mock was shut down"
        case .alreadyStarted: "the Web Push mock was already started (a server starts once)"
        case .invalidTLSMaterial(let path, let detail): "TLS file \(path) is unusable: \(detail)"
        case .cannotOpenRecordFile(let path, let detail): "cannot open the record file \(path): \(detail)"
        }
    }
}
