import Foundation
import ProviderDriver
import PushCore

/// Web Push "tokens": the browser's subscription as `WebPushSubscription.token` writes it. A
/// registration posts the subscription object; paths and test pushes carry the token. Endpoints
/// outside the public push services are refused unless the app's `webpush.allowed_endpoints`
/// admits them (`WebPushAppConfiguration.refusal(of:)`; `defaultRefusal(of:)` without settings).
public struct WebPushTokenFormat: DeviceTokenFormat {
    public init() {}

    public func normalise(_ text: String) -> Result<String, TokenFormatProblem> {
        do {
            return .success(try WebPushSubscription(token: text).token)
        } catch {
            return .failure(error)
        }
    }

    public func token(registering value: JSONValue) -> Result<String, TokenFormatProblem>? {
        do {
            return .success(try WebPushSubscription(json: value).token)
        } catch {
            return .failure(error)
        }
    }

    public var maximumBytes: Int { WebPushSubscription.maximumTokenBytes }

    /// The public push services only, for an app without `webpush` settings.
    public func defaultRefusal(of token: String) -> TokenFormatProblem? {
        EndpointAllowlist.default.refusal(of: token)
    }
}
