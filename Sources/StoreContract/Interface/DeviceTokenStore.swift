import PushCore

/// Users' device tokens, APNs and FCM. Sendbird's semantics: one device, one user of an app; a
/// user holds at most `maximumTokensPerUser` tokens of each provider, the oldest going first. A
/// token is unique within an app whatever its provider.
public protocol DeviceTokenStore: Sendable {
    /// Registers a token for a user, creating the user on first use.
    ///
    /// - A token held by another user of the same app moves to this user (one device, one user)
    ///   when `movesFromOtherUsers`; otherwise nothing is written and `PushStoreError.heldByAnotherUser`
    ///   is thrown (a device's own session must not take another user's device).
    /// - Registering a token the user already has refreshes its registration time.
    /// - `isUnique` removes the user's other tokens of the same provider.
    /// - Beyond the store's `maximumTokensPerUser` of the provider the oldest are removed.
    /// - `configuration` names the app's provider configuration the token belongs to (checked by
    ///   the caller); nil keeps what a registration of the same token had (a configuration the
    ///   relay learned by a sandbox fallback survives the SDK's re-registration), else the default.
    /// - Parameter token: normalised; the caller validates the format.
    func registerToken(
        app: String, user: String, token: String, isUnique: Bool, provider: PushProvider, movesFromOtherUsers: Bool,
        configuration: String?
    ) async throws -> TokenRegistration

    /// A user's tokens of every provider, oldest registration first; `nil` when the user is unknown.
    func tokens(app: String, user: String) async throws -> [DeviceToken]?

    /// Removes one of a user's tokens of `provider`. Returns whether the user held it.
    @discardableResult
    func removeToken(app: String, user: String, token: String, provider: PushProvider) async throws -> Bool

    /// Removes all of a user's tokens (every provider) and returns them, oldest first.
    @discardableResult
    func removeAllTokens(app: String, user: String) async throws -> [String]

    /// The user a token of `provider` is registered to, if any.
    func owner(app: String, token: String, provider: PushProvider) async throws -> String?

    /// Removes a token of `provider` from whoever holds it; returns that user, if any.
    @discardableResult
    func removeTokenFromOwner(app: String, token: String, provider: PushProvider) async throws -> String?

    /// Removes a token the provider reported as no longer valid, but only if it was registered
    /// before `timestampMs` (APNs' 410 `timestamp`): a registration after that moment is a new,
    /// valid one.
    @discardableResult
    func removeToken(app: String, token: String, ifRegisteredBefore timestampMs: Int64) async throws -> Bool
}

extension DeviceTokenStore {
    /// A registration that names no configuration.
    public func registerToken(
        app: String, user: String, token: String, isUnique: Bool, provider: PushProvider, movesFromOtherUsers: Bool
    ) async throws -> TokenRegistration {
        try await registerToken(
            app: app, user: user, token: token, isUnique: isUnique, provider: provider, movesFromOtherUsers: movesFromOtherUsers,
            configuration: nil)
    }

    /// A server's registration: a token another user holds moves.
    public func registerToken(app: String, user: String, token: String, isUnique: Bool, provider: PushProvider) async throws
        -> TokenRegistration
    {
        try await registerToken(app: app, user: user, token: token, isUnique: isUnique, provider: provider, movesFromOtherUsers: true)
    }
}
