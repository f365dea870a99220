import HTTP2Transport

/// Which APNs an app talks to (`apns.environment`): Apple's production or sandbox servers, or an
/// explicit endpoint (apns-mock) with an extra CA file to trust, standing for one of the two.
public enum APNsEnvironmentSetting: Sendable, Hashable, CustomStringConvertible {
    case production
    case sandbox
    /// `sandbox`: the endpoint takes sandbox (development) tokens, as Apple's sandbox does.
    case custom(endpoint: TransportEndpoint, caFile: String?, sandbox: Bool = false)

    public var endpoint: TransportEndpoint {
        switch self {
        case .production: .apnsProduction
        case .sandbox: .apnsSandbox
        case .custom(let endpoint, _, _): endpoint
        }
    }

    public var caFile: String? {
        if case .custom(_, let file, _) = self { return file }
        return nil
    }

    /// Whether its tokens are sandbox ones: a debug or TestFlight-less development build's.
    public var isSandbox: Bool {
        switch self {
        case .production: false
        case .sandbox: true
        case .custom(_, _, let sandbox): sandbox
        }
    }

    public var description: String {
        switch self {
        case .production: "production"
        case .sandbox: "sandbox"
        case .custom(let endpoint, _, let sandbox): "https://\(endpoint)" + (sandbox ? " (sandbox tokens)" : "")
        }
    }
}
