import MockSupport

/// The armed counts, and what the next request gets: a value, decided without I/O.
struct FaultBook: Sendable, Hashable {
    private(set) var dropConnections = FaultCounter()
    private(set) var quotaExceeded = RetryAfterCounter()
    private(set) var unavailable = FaultCounter()
    private(set) var `internal` = FaultCounter()
    private(set) var senderIDMismatch = FaultCounter()
    private(set) var thirdPartyAuthError = FaultCounter()
    private(set) var tokenEndpointUnavailable = FaultCounter()
    private(set) var silentConnections = FaultCounter()

    var isEmpty: Bool {
        quotaExceeded.isEmpty
            && [
                dropConnections, unavailable, `internal`, senderIDMismatch, thirdPartyAuthError, tokenEndpointUnavailable,
                silentConnections,
            ]
            .allSatisfy(\.isEmpty)
    }

    mutating func arm(_ faults: FCMMockFaults) {
        dropConnections.arm(faults.dropConnections)
        quotaExceeded.arm(faults.quotaExceeded)
        unavailable.arm(faults.unavailable)
        `internal`.arm(faults.internal)
        senderIDMismatch.arm(faults.senderIDMismatch)
        thirdPartyAuthError.arm(faults.thirdPartyAuthError)
        tokenEndpointUnavailable.arm(faults.tokenEndpointUnavailable)
        silentConnections.arm(faults.silentConnections)
    }

    /// What is still armed, in the admin API's shape.
    var armed: FCMMockFaults {
        FCMMockFaults(
            quotaExceeded: quotaExceeded.armed, unavailable: unavailable.armed, internal: `internal`.armed,
            senderIDMismatch: senderIDMismatch.armed, thirdPartyAuthError: thirdPartyAuthError.armed,
            dropConnections: dropConnections.armed, tokenEndpointUnavailable: tokenEndpointUnavailable.armed,
            silentConnections: silentConnections.armed)
    }

    /// Whether the next request's connection goes silent (checked before anything else).
    mutating func takeSilence() -> Bool { silentConnections.take() }

    /// Whether the next `messages:send` loses its connection (checked before anything else).
    mutating func takeDrop() -> Bool { dropConnections.take() }

    /// The error answer the next authenticated `messages:send` gets, if any, spending one of its
    /// count, in a fixed order.
    mutating func takeAnswerFault() -> FCMMockAnswer? {
        if quotaExceeded.take() { return .quotaExceeded(retryAfterSeconds: quotaExceeded.retryAfter) }
        if unavailable.take() { return .unavailable }
        if `internal`.take() { return .internal }
        if senderIDMismatch.take() { return .senderIDMismatch }
        if thirdPartyAuthError.take() { return .thirdPartyAuthError }
        return nil
    }

    /// Whether the next token request is refused with 503.
    mutating func takeTokenEndpointFault() -> Bool { tokenEndpointUnavailable.take() }
}
