import MockSupport

/// Faults armed through `POST /faults` (or `WebPushMockServer.arm`), each for the next N pushes.
///
/// ```json
/// {"gone": ["sub-id"], "not_found": ["sub-id"], "too_many_requests": {"count": 3, "retry_after": 1},
///  "unavailable": 2, "internal": 1, "payload_too_large": 1, "delay_ms": 200, "silent_connections": 1}
/// ```
///
/// `gone` (410) and `not_found` (404) mark subscriptions for good (until `reset`); the counted ones
/// answer that many pushes and are spent; `delay_ms` holds every answer until cleared.
public struct WebPushMockFaults: Sendable, Codable, Hashable {
    public var gone: [String]?
    public var notFound: [String]?
    public var tooManyRequests: RetryAfterFault?
    public var unavailable: Int?
    public var `internal`: Int?
    public var payloadTooLarge: Int?
    public var delayMs: Int?
    public var silentConnections: Int?

    public init(
        gone: [String]? = nil, notFound: [String]? = nil, tooManyRequests: RetryAfterFault? = nil, unavailable: Int? = nil,
        internal: Int? = nil, payloadTooLarge: Int? = nil, delayMs: Int? = nil, silentConnections: Int? = nil
    ) {
        self.gone = gone
        self.notFound = notFound
        self.tooManyRequests = tooManyRequests
        self.unavailable = unavailable
        self.internal = `internal`
        self.payloadTooLarge = payloadTooLarge
        self.delayMs = delayMs
        self.silentConnections = silentConnections
    }

    enum CodingKeys: String, CodingKey {
        case gone
        case notFound = "not_found"
        case tooManyRequests = "too_many_requests"
        case unavailable
        case `internal`
        case payloadTooLarge = "payload_too_large"
        case delayMs = "delay_ms"
        case silentConnections = "silent_connections"
    }
}

/// The armed counts, and what the next push gets: a value, decided without I/O.
struct WebPushFaultBook: Sendable, Hashable {
    private(set) var tooManyRequests = RetryAfterCounter()
    private(set) var unavailable = FaultCounter()
    private(set) var `internal` = FaultCounter()
    private(set) var payloadTooLarge = FaultCounter()
    private(set) var silentConnections = FaultCounter()
    private(set) var delayMs: Int?

    mutating func arm(_ faults: WebPushMockFaults) {
        tooManyRequests.arm(faults.tooManyRequests)
        unavailable.arm(faults.unavailable)
        `internal`.arm(faults.internal)
        payloadTooLarge.arm(faults.payloadTooLarge)
        silentConnections.arm(faults.silentConnections)
        if let delay = faults.delayMs { delayMs = max(0, delay) }
    }

    var armed: WebPushMockFaults {
        WebPushMockFaults(
            tooManyRequests: tooManyRequests.armed, unavailable: unavailable.armed, internal: `internal`.armed,
            payloadTooLarge: payloadTooLarge.armed, delayMs: delayMs, silentConnections: silentConnections.armed)
    }

    mutating func takeSilence() -> Bool { silentConnections.take() }

    /// The status (and Retry-After) the next push gets instead of 201, if any, in a fixed order.
    mutating func takeAnswerFault() -> (status: Int, retryAfter: Int?)? {
        if tooManyRequests.take() { return (429, tooManyRequests.retryAfter) }
        if unavailable.take() { return (503, nil) }
        if `internal`.take() { return (500, nil) }
        if payloadTooLarge.take() { return (413, nil) }
        return nil
    }
}
