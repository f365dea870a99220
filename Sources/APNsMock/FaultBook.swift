/// The armed faults and the decisions they imply. Lives inside the server's locked state, so every
/// decision consumes counts atomically across connections.
struct FaultBook: Sendable {
    /// What happens to a stream as its HEADERS arrive.
    enum StreamDisposition: Equatable {
        case normal
        /// Reset with REFUSED_STREAM at once.
        case refuse
        /// Never answered.
        case hold
    }

    /// A GOAWAY this stream triggers.
    enum GoAwayTrigger: Equatable {
        /// lastStreamID is this stream: it is still answered.
        case includingThisStream(reason: String)
        /// lastStreamID is the stream before it: this one is left unanswered.
        case beforeThisStream(reason: String)
    }

    /// What happens to a request once it is complete.
    enum RequestDisposition: Equatable {
        case normal
        /// Close the connection abruptly, answering nothing more.
        case dropConnection
        /// Leave the connection open and silent (it reads and sends nothing more).
        case silence
        /// Answer with this status instead of processing the request.
        case status(code: Int, reason: String, retryAfterSeconds: Int?)
    }

    private struct GoAwayArm {
        var remaining: Int
        let afterStreams: Int
        let reason: String
    }

    private struct StatusArm {
        var remaining: Int
        let code: Int
        let reason: String
        let retryAfterSeconds: Int?
    }

    private var goAways: [GoAwayArm] = []
    private var drops: [Int] = []
    private var statuses: [StatusArm] = []
    private var refuseRemaining = 0
    private var neverAnswerRemaining = 0
    private var tlsFailuresRemaining = 0
    private var silencesRemaining = 0
    /// The SETTINGS_MAX_CONCURRENT_STREAMS override, if any.
    private(set) var maxConcurrentStreams: Int?
    /// The answer delay, if any.
    private(set) var delayMilliseconds: Int?

    /// Whether any per-stream or per-request fault is armed; lets the hot path skip the book.
    private(set) var hasTrafficFaults = false

    /// Arms `fault`. `expireProviderTokens` is not a book entry (the server applies it at once).
    mutating func arm(_ fault: APNsMockFault) {
        switch fault {
        case .goAway(let afterStreams, let reason):
            let count = max(0, afterStreams)
            self.goAways.append(GoAwayArm(remaining: count, afterStreams: count, reason: reason))
        case .maxConcurrentStreams(let value):
            self.maxConcurrentStreams = max(0, value)
        case .refuseStreams(let count):
            self.refuseRemaining += max(0, count)
        case .neverAnswer(let count):
            self.neverAnswerRemaining += max(0, count)
        case .dropConnection(let afterStreams):
            self.drops.append(max(1, afterStreams))
        case .status(let code, let reason, let count, let retryAfterSeconds):
            if count > 0 {
                self.statuses.append(
                    StatusArm(remaining: count, code: code, reason: reason, retryAfterSeconds: retryAfterSeconds)
                )
            }
        case .tlsHandshakeFailure(let count):
            self.tlsFailuresRemaining += max(0, count)
        case .delay(let milliseconds):
            self.delayMilliseconds = milliseconds > 0 ? milliseconds : nil
        case .expireProviderTokens:
            break
        case .silentConnection(let count):
            self.silencesRemaining += max(0, count)
        }
        self.recomputeHasTrafficFaults()
    }

    /// Disarms everything.
    mutating func clear() {
        self = FaultBook()
    }

    /// The faults still armed, with their remaining counts.
    var active: [APNsMockFault] {
        var faults: [APNsMockFault] = []
        for arm in self.goAways {
            faults.append(.goAway(afterStreams: arm.remaining, reason: arm.reason))
        }
        if let value = self.maxConcurrentStreams { faults.append(.maxConcurrentStreams(value)) }
        if self.refuseRemaining > 0 { faults.append(.refuseStreams(count: self.refuseRemaining)) }
        if self.neverAnswerRemaining > 0 { faults.append(.neverAnswer(count: self.neverAnswerRemaining)) }
        for remaining in self.drops { faults.append(.dropConnection(afterStreams: remaining)) }
        for arm in self.statuses {
            faults.append(
                .status(code: arm.code, reason: arm.reason, count: arm.remaining, retryAfterSeconds: arm.retryAfterSeconds)
            )
        }
        if self.tlsFailuresRemaining > 0 { faults.append(.tlsHandshakeFailure(count: self.tlsFailuresRemaining)) }
        if let delay = self.delayMilliseconds { faults.append(.delay(milliseconds: delay)) }
        if self.silencesRemaining > 0 { faults.append(.silentConnection(count: self.silencesRemaining)) }
        return faults
    }

    /// A TCP connection was accepted: returns `true` if its TLS handshake must be aborted.
    mutating func takeTLSHandshakeFailure() -> Bool {
        guard self.tlsFailuresRemaining > 0 else { return false }
        self.tlsFailuresRemaining -= 1
        return true
    }

    /// A new stream's HEADERS arrived.
    mutating func streamOpened() -> (goAway: GoAwayTrigger?, disposition: StreamDisposition) {
        var trigger: GoAwayTrigger?
        if !self.goAways.isEmpty {
            if self.goAways[0].remaining == 0 {
                trigger = .beforeThisStream(reason: self.goAways[0].reason)
                self.goAways.removeFirst()
                self.recomputeHasTrafficFaults()
                // The stream is dropped by the GOAWAY; it consumes no other fault.
                return (trigger, .normal)
            }
            self.goAways[0].remaining -= 1
            if self.goAways[0].remaining == 0 {
                trigger = .includingThisStream(reason: self.goAways[0].reason)
                self.goAways.removeFirst()
            }
        }
        var disposition = StreamDisposition.normal
        if self.refuseRemaining > 0 {
            self.refuseRemaining -= 1
            disposition = .refuse
        } else if self.neverAnswerRemaining > 0 {
            self.neverAnswerRemaining -= 1
            disposition = .hold
        }
        self.recomputeHasTrafficFaults()
        return (trigger, disposition)
    }

    /// A request (HEADERS and any DATA up to END_STREAM) is complete.
    mutating func requestCompleted() -> RequestDisposition {
        if self.silencesRemaining > 0 {
            self.silencesRemaining -= 1
            self.recomputeHasTrafficFaults()
            return .silence
        }
        if !self.drops.isEmpty {
            self.drops[0] -= 1
            if self.drops[0] == 0 {
                self.drops.removeFirst()
                self.recomputeHasTrafficFaults()
                return .dropConnection
            }
        }
        if !self.statuses.isEmpty {
            let arm = self.statuses[0]
            self.statuses[0].remaining -= 1
            if self.statuses[0].remaining == 0 { self.statuses.removeFirst() }
            self.recomputeHasTrafficFaults()
            return .status(code: arm.code, reason: arm.reason, retryAfterSeconds: arm.retryAfterSeconds)
        }
        return .normal
    }

    private mutating func recomputeHasTrafficFaults() {
        self.hasTrafficFaults =
            !self.goAways.isEmpty || !self.drops.isEmpty || !self.statuses.isEmpty
            || self.refuseRemaining > 0 || self.neverAnswerRemaining > 0 || self.silencesRemaining > 0
    }
}
