/// The armed counts and the delay, and what the next request gets: a value, decided without I/O.
/// (Invalid tokens are not counted faults: the core keeps them as a set.)
struct FaultBook: Sendable, Hashable {
    private(set) var flowControl = 0
    private(set) var flowControlRetryAfter: Int?
    private(set) var internalError = 0
    private(set) var refuseCredentials = 0
    private(set) var tokenEndpointUnavailable = 0
    private(set) var silentConnections = 0
    /// How long every answer waits; nil for none.
    private(set) var delayMilliseconds: Int?

    /// A `messages:send` met flow control: 503, with this Retry-After if any.
    struct FlowControl: Sendable, Equatable {
        var retryAfterSeconds: Int?
    }

    /// What the token endpoint answers instead of checking the request.
    enum TokenEndpointFault: Sendable, Equatable {
        case refuseCredentials
        case unavailable
    }

    var isEmpty: Bool {
        flowControl + internalError + refuseCredentials + tokenEndpointUnavailable + silentConnections == 0
            && delayMilliseconds == nil
    }

    mutating func arm(_ faults: HMSMockFaults) {
        if let flow = faults.flowControl {
            flowControl += max(0, flow.count)
            flowControlRetryAfter = flow.retryAfter.map { max(0, $0) }
        }
        internalError += max(0, faults.internalError ?? 0)
        refuseCredentials += max(0, faults.refuseCredentials ?? 0)
        tokenEndpointUnavailable += max(0, faults.tokenEndpointUnavailable ?? 0)
        silentConnections += max(0, faults.silentConnections ?? 0)
        if let delay = faults.delayMilliseconds { delayMilliseconds = delay > 0 ? delay : nil }
    }

    /// What is still armed, in the admin API's shape.
    var armed: HMSMockFaults {
        func count(_ n: Int) -> Int? { n > 0 ? n : nil }
        return HMSMockFaults(
            flowControl: flowControl > 0 ? .init(count: flowControl, retryAfter: flowControlRetryAfter) : nil,
            internalError: count(internalError), delayMilliseconds: delayMilliseconds, refuseCredentials: count(refuseCredentials),
            tokenEndpointUnavailable: count(tokenEndpointUnavailable), silentConnections: count(silentConnections))
    }

    /// Whether the next `messages:send` meets flow control (checked before its access token, as a
    /// front door's rate limit would be).
    mutating func takeFlowControl() -> FlowControl? {
        guard flowControl > 0 else { return nil }
        flowControl -= 1
        return FlowControl(retryAfterSeconds: flowControlRetryAfter)
    }

    /// Whether the next request's connection goes silent (checked before anything else).
    mutating func takeSilence() -> Bool {
        guard silentConnections > 0 else { return false }
        silentConnections -= 1
        return true
    }

    /// Whether the next authenticated `messages:send` fails with 81000001.
    mutating func takeInternalError() -> Bool {
        guard internalError > 0 else { return false }
        internalError -= 1
        return true
    }

    /// What the next token request gets instead of a check, if anything: unavailability first.
    mutating func takeTokenEndpointFault() -> TokenEndpointFault? {
        if tokenEndpointUnavailable > 0 {
            tokenEndpointUnavailable -= 1
            return .unavailable
        }
        if refuseCredentials > 0 {
            refuseCredentials -= 1
            return .refuseCredentials
        }
        return nil
    }
}
