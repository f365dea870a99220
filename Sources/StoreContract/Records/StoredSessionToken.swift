/// A session token as the store knows it: whom it speaks for, who issued it and until when. The
/// token itself is never stored, only its digest (the key it was found by).
public struct StoredSessionToken: Sendable, Hashable {
    public var app: String
    public var user: String
    /// Unix milliseconds.
    public var createdAtMs: Int64
    /// Unix milliseconds; the token is refused from this instant on.
    public var expiresAtMs: Int64
    /// The hex SHA-256 of the API token that issued it; nil for a session issued before issuers
    /// were recorded.
    public var issuer: String?

    public init(app: String, user: String, createdAtMs: Int64, expiresAtMs: Int64, issuer: String? = nil) {
        self.app = app
        self.user = user
        self.createdAtMs = createdAtMs
        self.expiresAtMs = expiresAtMs
        self.issuer = issuer
    }

    /// Live session tokens kept per user; issuing one more drops the oldest. Apps that issue a
    /// token per login would otherwise grow the table without bound.
    public static let maximumPerUser = 100

    /// Whether the token is refused at `nowMs`: past its `expiresAtMs`, or older than
    /// `maximumLifetimeMs` (which bounds tokens issued before the bound existed, too).
    public func isExpired(atMs nowMs: Int64, maximumLifetimeMs: Int64 = .max) -> Bool {
        nowMs >= expiresAtMs || nowMs - createdAtMs >= maximumLifetimeMs
    }
}
