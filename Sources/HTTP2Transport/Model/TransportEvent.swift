/// Connection-level happenings, for logs, metrics and tests.
public enum TransportEvent: Sendable, Hashable {
    case connected(connection: Int)
    case connectFailed(connection: Int, error: String)
    /// The server changed SETTINGS_MAX_CONCURRENT_STREAMS.
    case maxConcurrentStreamsChanged(connection: Int, value: Int)
    /// GOAWAY with the debug data's `{"reason": …}` (APNs sends one) or its text when present.
    case goAway(connection: Int, lastStreamID: Int32, errorCode: UInt32, reason: String?)
    case closed(connection: Int, error: String?)
}
