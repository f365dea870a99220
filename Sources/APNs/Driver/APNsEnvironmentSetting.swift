import HTTP2Transport

/// Which APNs an app talks to (`apns.environment`): Apple's production or sandbox servers, or an
/// explicit endpoint (apns-mock) with an extra CA file to trust.
public enum APNsEnvironmentSetting: Sendable, Hashable, CustomStringConvertible {
    case production
    case sandbox
    case custom(endpoint: TransportEndpoint, caFile: String?)

    public var endpoint: TransportEndpoint {
        switch self {
        case .production: .apnsProduction
        case .sandbox: .apnsSandbox
        case .custom(let endpoint, _): endpoint
        }
    }

    public var caFile: String? {
        if case .custom(_, let file) = self { return file }
        return nil
    }

    public var description: String {
        switch self {
        case .production: "production"
        case .sandbox: "sandbox"
        case .custom(let endpoint, _): "https://\(endpoint)"
        }
    }
}
