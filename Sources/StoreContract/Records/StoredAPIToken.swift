import Foundation

/// A secondary API token as the store knows it: its digest and its first characters (all the
/// listing shows), never the token itself.
public struct StoredAPIToken: Sendable, Hashable {
    public var app: String
    /// SHA-256 of the token.
    public var digest: Data
    /// The token's first characters.
    public var prefix: String
    /// Unix milliseconds.
    public var createdAtMs: Int64

    public init(app: String, digest: Data, prefix: String, createdAtMs: Int64) {
        self.app = app
        self.digest = digest
        self.prefix = prefix
        self.createdAtMs = createdAtMs
    }
}

/// Which secondary API token to remove: the one with this digest, or the only one whose first
/// characters are these (the listing shows no more, so an operator who lost a token can still
/// revoke it).
public enum APITokenSelector: Sendable, Hashable {
    case digest(Data)
    case prefix(String)
}

/// What removing a secondary API token did.
public enum APITokenRemoval: Sendable, Hashable {
    case removed(StoredAPIToken)
    case notFound
    /// The prefix matched this many tokens; nothing was removed.
    case ambiguous(Int)
}
