import PushCore

/// What registering a device token does, decided from what the store holds, the same for every
/// store (each runs the SQL for it in one transaction):
/// - a token another user holds moves to this user, unless the caller may not move tokens (a
///   device's own session): then the registration is refused;
/// - the token is deleted and inserted again, so it ranks as the user's newest registration;
/// - under `isUnique` the user's other tokens of the provider go; otherwise only the oldest beyond
///   `limit` tokens per user and provider.
public struct TokenRegistrationRule: Sendable, Hashable {
    public var user: String
    public var isUnique: Bool
    public var movesFromOtherUsers: Bool
    /// Tokens a user may hold per provider (`PushStoreConfiguration.maximumTokensPerUser`).
    public var limit: Int

    public init(user: String, isUnique: Bool, movesFromOtherUsers: Bool, limit: Int) {
        self.user = user
        self.isUnique = isUnique
        self.movesFromOtherUsers = movesFromOtherUsers
        self.limit = limit
    }

    public struct Plan: Sendable, Hashable {
        /// Who held the token, when it moves from another user.
        public var previousOwner: String?
        /// The user's other tokens of the provider to delete, oldest first.
        public var removedTokens: [String]
    }

    /// - Parameters:
    ///   - holder: who holds the token in the app now, if anyone.
    ///   - userTokens: the user's other tokens of the same provider, oldest registration first.
    /// - Throws: `PushStoreError.heldByAnotherUser` when another user holds it and it may not move.
    public func plan(holder: String?, userTokens: [String]) throws(PushStoreError) -> Plan {
        let moves = holder.map { !$0.sameBytes(as: user) } ?? false
        if moves && !movesFromOtherUsers { throw .heldByAnotherUser }
        let beyondLimit = max(0, userTokens.count + 1 - max(1, limit))
        return Plan(previousOwner: moves ? holder : nil, removedTokens: Array(userTokens.prefix(isUnique ? userTokens.count : beyondLimit)))
    }
}
