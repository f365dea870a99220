import PushCore

/// Users' APNs device tokens. Sendbird's semantics: one device, one user of an app; a user holds
/// at most `maximumTokensPerUser` tokens, the oldest going first.
public protocol DeviceTokenStore: Sendable {
    /// Registers a token for a user, creating the user on first use.
    ///
    /// - A token held by another user of the same app moves to this user (one device, one user).
    /// - Registering a token the user already has refreshes its registration time.
    /// - `isUnique` removes the user's other tokens.
    /// - Beyond the store's `maximumTokensPerUser` the oldest tokens are removed.
    /// - Parameter token: lowercase hex; the caller validates the format.
    func registerToken(app: String, user: String, token: String, isUnique: Bool) async throws -> TokenRegistration

    /// A user's tokens, oldest registration first; `nil` when the user is unknown.
    func tokens(app: String, user: String) async throws -> [DeviceToken]?

    /// Removes one of a user's tokens. Returns whether the user held it.
    @discardableResult
    func removeToken(app: String, user: String, token: String) async throws -> Bool

    /// Removes all of a user's tokens and returns them, oldest first.
    @discardableResult
    func removeAllTokens(app: String, user: String) async throws -> [String]

    /// The user a token is registered to, if any.
    func owner(app: String, token: String) async throws -> String?

    /// Removes a token from whoever holds it; returns that user, if any.
    @discardableResult
    func removeTokenFromOwner(app: String, token: String) async throws -> String?

    /// Removes a token APNs reported as no longer valid, but only if it was registered before
    /// `timestampMs` (APNs' 410 `timestamp`): a registration after that moment is a new, valid one.
    @discardableResult
    func removeToken(app: String, token: String, ifRegisteredBefore timestampMs: Int64) async throws -> Bool
}
