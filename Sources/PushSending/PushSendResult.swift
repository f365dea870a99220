/// What happened to one push, in the terms every provider's answer is classified into.
public struct PushSendResult: Sendable, Hashable {
    public var outcome: PushSendOutcome
    /// The provider's HTTP status, when it answered.
    public var status: Int?
    /// The provider's reason or code (APNs' `reason`, FCM's error status, HMS's `code`).
    public var reason: String?
    /// `reason` as a metric label: one of the provider's documented reasons, or `other`, so a
    /// made-up reason cannot grow the label set.
    public var label: String?
    /// Why there was no answer (a transport failure), or the provider's own words.
    public var error: String?
    /// From the request to the answer, when there was one.
    public var latency: Duration?
    /// The push went through another of the app's configurations than the token's own (an
    /// APNs sandbox token sent to production, then to the sandbox): the token belongs there, and
    /// the store remembers it instead of removing the token.
    public var tokenConfiguration: String?

    public init(
        _ outcome: PushSendOutcome, status: Int? = nil, reason: String? = nil, label: String? = nil, error: String? = nil,
        latency: Duration? = nil
    ) {
        self.outcome = outcome
        self.status = status
        self.reason = reason
        self.label = label
        self.error = error
        self.latency = latency
    }

    /// Whether the provider answered (a status), as against a transport failure.
    public var answered: Bool { status != nil }
}

/// The classified outcome.
public enum PushSendOutcome: Sendable, Hashable {
    /// Accepted. `providerID` names it at the provider when it says (FCM's message name, HMS's
    /// request id).
    case delivered(providerID: String?)
    /// The device token is dead: remove it (see `TokenDeath`).
    case tokenDead(TokenDeath)
    /// Sending the same push again cannot succeed.
    case rejected
    /// The app's credentials were refused: an operator must act; the push is not retried.
    case credentialsRefused
    /// Temporary: try again, not before `after` (`.zero`: on the dispatcher's own backoff).
    case retry(after: Duration)
    /// Not sent at all (the sender shut down, or the send was cancelled): put back, no attempt
    /// counted.
    case notSent
}

/// Since when a dead token is dead, so that a registration after that moment (the app
/// registered the device again) survives the removal.
public enum TokenDeath: Sendable, Hashable {
    /// Whenever it was registered (the token is malformed, or not for this app).
    case always
    /// Only if it was registered before this instant (Unix ms): APNs' 410 `timestamp`, or the
    /// moment the send started for providers that give no time.
    case registeredBefore(Int64)
    /// Only if it was registered before the answer came (a 410 without a timestamp).
    case registeredBeforeAnswer
}
