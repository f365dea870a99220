import PushCore

/// What registering a device token did.
public struct TokenRegistration: Sendable, Hashable {
    /// The token as stored, with its new registration time.
    public var token: DeviceToken
    /// The user who held the token before, when it moved from another user of the same app.
    public var previousOwner: String?
    /// This user's tokens removed by the call: the other tokens under `is_unique`, or the oldest
    /// ones beyond the per-user limit.
    public var removedTokens: [String]

    public init(token: DeviceToken, previousOwner: String?, removedTokens: [String]) {
        self.token = token
        self.previousOwner = previousOwner
        self.removedTokens = removedTokens
    }
}
