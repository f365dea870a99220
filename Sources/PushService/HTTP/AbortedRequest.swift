#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Logging
import NIOCore
import NIOHTTP1
import PushStore
import StoreContract

/// A request its client did not finish sending: the connection was reset or closed partway
/// through the body, the body broke HTTP's framing, or a deadline passed
/// (`RequestDeadlineExceeded`). The handler's read of the body fails with one of these errors.
/// The client's doing, not the relay's: answered 400 (408 for a deadline) — usually to nobody —
/// and logged by `AbortedRequestLog`, not as a failure of the relay.
struct AbortedRequest: Sendable, Hashable {
    enum Reason: String, Sendable {
        case reset, closed, malformed, timeout
    }

    var reason: Reason

    /// Nil when `error` is not one of a request cut short by its client.
    init?(_ error: any Error) {
        switch error {
        case is RequestDeadlineExceeded:
            reason = .timeout
        case HTTPParserError.invalidEOFState:
            reason = .closed
        case is HTTPParserError:
            reason = .malformed
        case let error as IOError where [ECONNRESET, EPIPE, ETIMEDOUT].contains(error.errnoCode):
            reason = .reset
        case let error as ChannelError where [.ioOnClosedChannel, .eof, .inputClosed, .alreadyClosed].contains(error):
            reason = .closed
        default:
            return nil
        }
    }

    var apiError: APIError {
        switch reason {
        case .timeout:
            APIError(status: .requestTimeout, code: .invalidValue, message: "The request was not received in time.")
        case .malformed:
            APIError(code: .invalidValue, message: "The request body is not valid HTTP.")
        case .reset, .closed:
            APIError(code: .invalidValue, message: "The request was not received in full.")
        }
    }
}

/// One log line per interval for requests cut short by their clients, with the count of
/// those held back: a client that opens and resets thousands of streams must not flood the
/// journal (journald drops a service's lines beyond its rate, the useful ones included).
/// At `info`: a client going away is routine, nothing for an operator to fix in the relay.
final class AbortedRequestLog: Sendable {
    private let throttle: LogThrottle
    private let clock: @Sendable () -> Int64

    init(interval: Duration = .seconds(10), clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds) {
        throttle = LogThrottle(interval: interval)
        self.clock = clock
    }

    /// Logs `aborted` unless a line was written less than an interval ago; true when written.
    @discardableResult
    func record(_ aborted: AbortedRequest, path: String, logger: Logger) -> Bool {
        guard let heldBack = throttle.admit("aborted", nowMs: clock()) else { return false }
        var metadata: Logger.Metadata = ["path": .string(path), "reason": .string(aborted.reason.rawValue)]
        if heldBack > 0 { metadata["more_not_logged"] = .stringConvertible(heldBack) }
        logger.info("request not received in full", metadata: metadata)
        return true
    }
}
