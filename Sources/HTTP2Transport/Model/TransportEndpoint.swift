import Foundation

/// Where a server (a push provider, or a stand-in) listens.
public struct TransportEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// The host and port of an https URL (443 when it names none).
    package init?(url: URL) {
        guard url.scheme == "https", let host = url.host, !host.isEmpty else { return nil }
        self.init(host: host, port: url.port ?? 443)
    }

    public var description: String { "\(host):\(port)" }
}
