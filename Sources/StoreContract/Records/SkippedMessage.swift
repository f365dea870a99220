import PushCore

/// A message the relay did not push to one user, and why: one skip decision of the delivery log,
/// as "why no push?" lists a user's recent ones.
public struct SkippedMessage: Sendable, Hashable {
    public var messageID: Int64
    public var decision: PushDecision
    /// When the event was accepted.
    public var atMs: Int64

    public init(messageID: Int64, decision: PushDecision, atMs: Int64) {
        self.messageID = messageID
        self.decision = decision
        self.atMs = atMs
    }
}
