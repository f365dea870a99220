import ConfigSupport
import ProviderDriver
import PushCore

extension PushProvider {
    /// Huawei's HMS Push Kit.
    public static let hms = PushProvider("hms")
}

/// HMS as the relay registers it: Sendbird's `huawei` token type, the Android data map within
/// HMS's own size rule, and `apps[].hms` read into `HMSAppConfiguration`.
public struct HMSDriver: ProviderDriver {
    public init() {}

    /// HMS push tokens are long runs of letters and digits, the newer ones base64 (Huawei changed
    /// their encoding in November 2020 and says their length varies).
    public static let tokenFormat = OpaqueTokenFormat(lengths: 20...255, punctuation: "_-:.+/=")

    public var description: ProviderDescription {
        ProviderDescription(
            id: .hms, displayName: "HMS", sendbirdPath: "huawei", sendbirdType: "HUAWEI", tokenField: "huawei_device_token",
            tokenFormat: Self.tokenFormat, payloadFormat: .dataMessage(HMSMessageSize()))
    }

    public func settings(from map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> any ProviderSettings
    {
        try HMSAppConfiguration.parse(map, environment: environment)
    }
}

extension HMSDriver {
    /// A route through `client`: deliveries stored with the provider's name and high priority.
    public static func route(client: HMSClient) -> ProviderRoute {
        ProviderRoute(provider: .hms, sender: HMSSender(client: client), format: .dataMessage(HMSMessageSize()), pushType: "hms")
    }
}
