import ConfigSupport

/// `GET /metrics` settings (`metrics:`, optional).
public struct MetricsConfiguration: Sendable, Hashable {
    /// When set, `/metrics` requires `Authorization: Bearer <token>`.
    public var token: Secret?

    public init(token: Secret? = nil) { self.token = token }
}
