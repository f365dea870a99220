import MockSupport

/// The armed counts and the delay, and what the next request gets: a value, decided without I/O.
/// (Invalid tokens are not counted faults: the state keeps them as a set.)
struct FaultBook: Sendable, Hashable {
    private(set) var flowControl = RetryAfterCounter()
    private(set) var internalError = FaultCounter()
    private(set) var refuseCredentials = FaultCounter()
    private(set) var tokenEndpointUnavailable = FaultCounter()
    private(set) var silentConnections = FaultCounter()
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
        flowControl.isEmpty && [internalError, refuseCredentials, tokenEndpointUnavailable, silentConnections].allSatisfy(\.isEmpty)
            && delayMilliseconds == nil
    }

    mutating func arm(_ faults: HMSMockFaults) {
        flowControl.arm(faults.flowControl)
        internalError.arm(faults.internalError)
        refuseCredentials.arm(faults.refuseCredentials)
        tokenEndpointUnavailable.arm(faults.tokenEndpointUnavailable)
        silentConnections.arm(faults.silentConnections)
        if let delay = faults.delayMilliseconds { delayMilliseconds = delay > 0 ? delay : nil }
    }

    /// What is still armed, in the admin API's shape.
    var armed: HMSMockFaults {
        HMSMockFaults(
            flowControl: flowControl.armed, internalError: internalError.armed, delayMilliseconds: delayMilliseconds,
            refuseCredentials: refuseCredentials.armed, tokenEndpointUnavailable: tokenEndpointUnavailable.armed,
            silentConnections: silentConnections.armed)
    }

    /// Whether the next `messages:send` meets flow control (checked before its access token, as a
    /// front door's rate limit would be).
    mutating func takeFlowControl() -> FlowControl? {
        flowControl.take() ? FlowControl(retryAfterSeconds: flowControl.retryAfter) : nil
    }

    /// Whether the next request's connection goes silent (checked before anything else).
    mutating func takeSilence() -> Bool { silentConnections.take() }

    /// Whether the next authenticated `messages:send` fails with 81000001.
    mutating func takeInternalError() -> Bool { internalError.take() }

    /// What the next token request gets instead of a check, if anything: unavailability first.
    mutating func takeTokenEndpointFault() -> TokenEndpointFault? {
        if tokenEndpointUnavailable.take() { return .unavailable }
        if refuseCredentials.take() { return .refuseCredentials }
        return nil
    }
}
