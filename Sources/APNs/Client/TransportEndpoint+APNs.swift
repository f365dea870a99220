import HTTP2Transport

extension TransportEndpoint {
    /// `api.push.apple.com:443`.
    public static let apnsProduction = TransportEndpoint(host: "api.push.apple.com", port: 443)
    /// `api.sandbox.push.apple.com:443` (development builds of the app).
    public static let apnsSandbox = TransportEndpoint(host: "api.sandbox.push.apple.com", port: 443)
}
