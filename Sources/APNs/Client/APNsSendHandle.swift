import HTTP2Transport
import Synchronization

/// A notification given to `APNsClient.submit`, to cancel: its completion then gets
/// `CancellationError`, unless APNs' answer came first.
public final class APNsSendHandle: Sendable {
    private struct State {
        /// The request on the wire now (a renewed provider token sends it again).
        var request: TransportRequest?
        var cancelled = false
    }
    private let state = Mutex(State())

    init() {}

    /// The request now carrying the notification; cancelled at once if `cancel()` came first.
    func attach(_ request: TransportRequest) {
        let cancelled = state.withLock { s in
            s.request = request
            return s.cancelled
        }
        if cancelled { request.cancel() }
    }

    public func cancel() {
        let request = state.withLock { s in
            s.cancelled = true
            return s.request
        }
        request?.cancel()
    }
}
