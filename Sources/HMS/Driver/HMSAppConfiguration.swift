import ConfigSupport
import Foundation

/// An app's HMS Push Kit settings (`apps[].hms`): the AppGallery Connect app's id and client
/// secret (OAuth client credentials), and, for tests, where HMS and its token endpoint are.
public struct HMSAppConfiguration: Sendable, Hashable {
    /// The app id HMS knows the app by (also the OAuth client id).
    public var appID: String
    /// The app's client secret (a string, `{file: …}`, `{env: …}` or `{credential: …}`).
    public var clientSecret: Secret
    /// `https://push-api.cloud.huawei.com`, or hms-mock's (`url`).
    public var endpoint: URL
    /// The OAuth token endpoint (`token_url`).
    public var tokenURL: URL
    /// Extra CA to trust for `url` and `token_url` (hms-mock); then only that CA is trusted.
    public var caFile: String?
    /// Connections per host (HTTP/1.1; over HTTP/2 one carries many streams).
    public var poolSize: Int

    public init(
        appID: String, clientSecret: Secret, endpoint: URL = HMSClientConfiguration.defaultEndpoint,
        tokenURL: URL = HMSClientConfiguration.defaultTokenURL, caFile: String? = nil,
        poolSize: Int = ProviderPoolSize.defaultSize
    ) {
        self.appID = appID
        self.clientSecret = clientSecret
        self.endpoint = endpoint
        self.tokenURL = tokenURL
        self.caFile = caFile
        self.poolSize = poolSize
    }
}
