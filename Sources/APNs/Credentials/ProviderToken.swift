import LogRedaction
import Foundation

/// A signed APNs provider authentication token (JWT) and the bookkeeping needed to replace it.
public struct ProviderToken: Sendable, Equatable {
    /// The compact JWS: `<header>.<claims>.<signature>`, base64url without padding.
    public let jwt: String
    /// Increases by one with every token a `ProviderTokenCache` mints (the first is 1). A request
    /// remembers the generation it was sent with, so a 403 `ExpiredProviderToken` can be traced
    /// to the token that caused it (see `ProviderTokenCache.invalidate(generation:)`).
    public let generation: UInt64
    /// The `iat` claim, whole seconds.
    public let issuedAt: Date

    public init(jwt: String, generation: UInt64, issuedAt: Date) {
        self.jwt = jwt
        self.generation = generation
        self.issuedAt = issuedAt
        authorizationHeader = "bearer \(jwt)"
    }

    /// The value of the HTTP/2 `authorization` header: `bearer <jwt>` (made once: every request
    /// carries it).
    public let authorizationHeader: String
}

extension ProviderToken: CustomStringConvertible {
    /// Safe to log: shows the generation and issue time, and only the start of the JWT.
    public var description: String {
        "ProviderToken(generation: \(generation), issuedAt: \(issuedAt.formatted(.iso8601)), jwt: \(Redaction.redact(jwt)))"
    }
}
