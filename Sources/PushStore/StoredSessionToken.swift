/// A session token as the store knows it: whom it speaks for and until when. The token itself is
/// never stored, only its digest (the key it was found by).
public struct StoredSessionToken: Sendable, Hashable {
    public var app: String
    public var user: String
    /// Unix milliseconds.
    public var createdAtMs: Int64
    /// Unix milliseconds; the token is refused from this instant on.
    public var expiresAtMs: Int64

    public init(app: String, user: String, createdAtMs: Int64, expiresAtMs: Int64) {
        self.app = app
        self.user = user
        self.createdAtMs = createdAtMs
        self.expiresAtMs = expiresAtMs
    }

    /// Whether the token is refused at `nowMs`.
    /// Live session tokens kept per user; issuing one more drops the oldest. Apps that issue a
    /// token per login would otherwise grow the table without bound.
    public static let maximumPerUser = 100

    public func isExpired(atMs nowMs: Int64) -> Bool { nowMs >= expiresAtMs }
}
