import Foundation
import Synchronization

/// What finishing a request produced.
package enum RequestResult: Sendable {
    /// An HTTP answer, with the generation of the `authorization` the transport added (APNs token
    /// auth) and the connection that carried it (for `HTTP2Transport.retire`).
    case response(HTTP2Response, tokenGeneration: UInt64?, connection: Int)
    /// No answer: the request never left, or the connection or deadline ended it.
    case failure(HTTP2TransportError)
    case cancelled
}

/// One request in flight: the request, its deadline and who waits for the answer (a suspended
/// task, or a completion handler).
///
/// Stream close, connection death, the deadline and cancellation can all race to finish a
/// request; `complete` lets exactly one of them win.
final class PendingRequest: Sendable {
    let request: HTTP2Request
    let deadline: ContinuousClock.Instant
    /// Moves to another connection so far (REFUSED_STREAM, GOAWAY above last-stream-id).
    let resends = Atomic<Int>(0)
    /// Connections that failed to connect while holding this request.
    let connectFailures = Atomic<Int>(0)

    /// Who gets the result.
    enum Waiter: Sendable {
        case task(CheckedContinuation<RequestResult, Never>)
        /// Called once, on whichever thread finishes the request (a connection's, or the
        /// canceller's): it must be quick and must not block.
        case handler(@Sendable (RequestResult) -> Void)

        func resume(_ result: RequestResult) {
            switch self {
            case .task(let continuation): continuation.resume(returning: result)
            case .handler(let handler): handler(result)
            }
        }
    }

    private enum State {
        case idle
        case waiting(Waiter)
        case done(RequestResult?)
    }
    private let state: Mutex<State>

    init(request: HTTP2Request, deadline: ContinuousClock.Instant) {
        self.request = request
        self.deadline = deadline
        state = Mutex(.idle)
    }

    /// A request whose answer goes to `handler`.
    init(request: HTTP2Request, deadline: ContinuousClock.Instant, handler: @escaping @Sendable (RequestResult) -> Void) {
        self.request = request
        self.deadline = deadline
        state = Mutex(.waiting(.handler(handler)))
    }

    /// Registers the waiting task; resumes it at once if the request already finished.
    func install(_ continuation: CheckedContinuation<RequestResult, Never>) {
        let early: RequestResult? = state.withLock { s in
            if case .done(let result) = s {
                s = .done(nil)
                return result
            }
            s = .waiting(.task(continuation))
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Finishes the request. Returns false if something else finished it first.
    @discardableResult
    func complete(_ result: RequestResult) -> Bool {
        let action: (Waiter?, Bool) = state.withLock { s in
            switch s {
            case .idle:
                s = .done(result)
                return (nil, true)
            case .waiting(let waiter):
                s = .done(nil)
                return (waiter, true)
            case .done:
                return (nil, false)
            }
        }
        action.0?.resume(result)
        return action.1
    }

    var isCompleted: Bool {
        state.withLock { if case .done = $0 { true } else { false } }
    }
}
