import MockSupport

/// What a request came on, for the record and the stats.
struct RequestContext: Sendable {
    /// The protocol ALPN chose for the connection.
    typealias HTTPVersion = MockHTTPPipeline.Version

    var connectionID: Int
    var httpVersion: HTTPVersion
    /// The request's headers worth recording (`content-type`, `user-agent`), by lowercase name.
    var headers: [String: String]
}
