import PushCore

/// One member's decision for one accepted event, as the delivery log keeps it.
public struct RecipientDecisionRecord: Sendable, Hashable {
    public var userID: String
    public var decision: PushDecision

    public init(userID: String, decision: PushDecision) {
        self.userID = userID
        self.decision = decision
    }
}
