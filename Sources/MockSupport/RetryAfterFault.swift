/// A counted fault that turns requests away with a "come back later" status: the next `count`
/// requests, each with `Retry-After: retryAfter` seconds when set. As JSON (the admin API):
/// `{"count": 3, "retry_after": 1}`. Public: the mocks' public fault types hold it.
public struct RetryAfterFault: Sendable, Codable, Hashable {
    public var count: Int
    /// `Retry-After` in seconds; none when nil.
    public var retryAfter: Int?

    public init(count: Int, retryAfter: Int? = nil) {
        self.count = count
        self.retryAfter = retryAfter
    }

    enum CodingKeys: String, CodingKey {
        case count
        case retryAfter = "retry_after"
    }
}
