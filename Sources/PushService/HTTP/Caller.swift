/// Who sent an authenticated `/v3` request: an app's server (its master or a secondary API
/// token, `Api-Token`) or one user's device (a session token, `Session-Token`). Routes decide
/// what each may do through `RelayRequestContext`'s `require…` methods.
public struct Caller: Sendable, Hashable {
    public enum Credential: Sendable, Hashable {
        /// The configured `apps[].api_token`: everything, including managing API tokens.
        case masterAPIToken
        /// A token from `POST /v3/applications/api_tokens`: everything but managing API tokens.
        case secondaryAPIToken
        /// A token from `POST /v3/users/{user_id}/token`: only that user's tokens, preferences
        /// and template choice.
        case sessionToken(user: String)
    }

    public let app: AppConfiguration
    public let credential: Credential
    /// The SHA-256 of the token presented: what rate limits count by, and what a session issued
    /// with an API token records as its issuer.
    public let digest: [UInt8]

    public init(app: AppConfiguration, credential: Credential, digest: [UInt8] = []) {
        self.app = app
        self.credential = credential
        self.digest = digest
    }
}
