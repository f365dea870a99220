/// The recorded decision for one member of one message.
public struct RecipientDecisionRecord: Sendable, Hashable {
    public var userID: String
    /// `push`, or the `SkipReason` code of a skip.
    public var decision: String

    /// The code stored for members that are pushed.
    public static let push = "push"

    public init(userID: String, decision: String) {
        self.userID = userID
        self.decision = decision
    }
}
