import HTTP2Transport

/// Failures where APNs gave no answer: the request was refused before sending, or the transport
/// got none.
public enum APNsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Refused before sending: the request is malformed.
    case invalidRequest(APNsRequestError)
    /// No answer (timeout, lost connection, connect failure, shutdown). After `.timedOut` APNs
    /// may or may not have delivered it; resend with the same apns-id.
    case transport(HTTP2TransportError)

    /// Whether sending the same request again later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .invalidRequest: false
        case .transport(let error): error.isRetryable
        }
    }

    public var description: String {
        switch self {
        case .invalidRequest(let e): "invalid request: \(e)"
        case .transport(let error): error.description
        }
    }
}
