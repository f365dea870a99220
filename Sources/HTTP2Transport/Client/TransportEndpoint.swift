/// Where APNs (or a stand-in) listens.
public struct APNsEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `api.push.apple.com:443`.
    public static let production = APNsEndpoint(host: "api.push.apple.com", port: 443)
    /// `api.sandbox.push.apple.com:443` (development builds of the app).
    public static let sandbox = APNsEndpoint(host: "api.sandbox.push.apple.com", port: 443)

    public var description: String { "\(host):\(port)" }
}
