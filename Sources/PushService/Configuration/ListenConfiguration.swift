/// Where the HTTP server listens (`listen:`).
public struct ListenConfiguration: Sendable, Hashable {
    /// Address to bind, e.g. `127.0.0.1`, `0.0.0.0`, `::`.
    public var host: String
    /// TCP port; 0 picks a free one (tests).
    public var port: Int

    /// The host as a URL or `host:port` writes it: an IPv6 address in brackets.
    public var hostForURL: String { host.contains(":") ? "[\(host)]" : host }

    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
    }
}
