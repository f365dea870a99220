/// Which attempts get a row of their own in the delivery log: every one but a plain acceptance
/// that the delivery's row already says (sent, at that moment, with the provider's 200). One
/// insert and one index entry fewer per push; reading the log puts the accepted attempt back.
public enum AttemptLog {
    /// The attempt to log for a delivery left in `state` at `atMs`, or nil.
    public static func row(for attempt: DeliveryAttempt?, state: DeliveryState, atMs: Int64) -> DeliveryAttempt? {
        guard let attempt else { return nil }
        return state == .sent && attempt.isPlainAcceptance && attempt.atMs == atMs ? nil : attempt
    }
}

extension DeliveryOutcome {
    /// Its attempt when the log keeps a row for it (`AttemptLog`).
    public var loggedAttempt: DeliveryAttempt? { AttemptLog.row(for: attempt, state: state, atMs: atMs) }
}

extension TestDelivery {
    /// Its attempt when the log keeps a row for it (`AttemptLog`).
    public var loggedAttempt: DeliveryAttempt? { AttemptLog.row(for: attempt, state: state, atMs: atMs) }
}
