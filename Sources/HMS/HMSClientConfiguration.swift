import ConnectionLiveness
import Foundation
import Logging

/// Where and how an app's HMS Push Kit client sends: its AppGallery Connect app id and client
/// secret (OAuth 2.0 client credentials), Huawei's endpoints (or a stand-in's), the trust roots
/// and how many connections it keeps.
public struct HMSClientConfiguration: Sendable {
    public static let defaultEndpoint = URL(string: "https://push-api.cloud.huawei.com")!
    public static let defaultTokenURL = URL(string: "https://oauth-login.cloud.huawei.com/oauth2/v3/token")!

    /// The app id HMS knows the app by (`/v1/{appId}/messages:send`, and the OAuth client id).
    public var appID: String
    /// Never in `description` or a log line.
    public var clientSecret: String
    /// `https://host[:port]`: where `messages:send` goes.
    public var endpoint: URL
    /// The OAuth token endpoint.
    public var tokenURL: URL
    /// A PEM bundle to trust instead of the system's roots (a stand-in with its own CA).
    public var caFile: String?
    /// Connections per host: HTTP/1.1 connections when the server offers no HTTP/2; over HTTP/2
    /// one connection carries many streams.
    public var connections: Int
    public var requestTimeout: Duration
    public var connectTimeout: Duration
    /// When an HTTP/2 connection PINGs, and when one that stopped answering is replaced.
    public var liveness: LivenessSettings
    public var logger: Logger

    public init(
        appID: String, clientSecret: String, endpoint: URL = HMSClientConfiguration.defaultEndpoint,
        tokenURL: URL = HMSClientConfiguration.defaultTokenURL, caFile: String? = nil, connections: Int = 4,
        requestTimeout: Duration = .seconds(15), connectTimeout: Duration = .seconds(10),
        liveness: LivenessSettings = LivenessSettings(), logger: Logger = Logger(label: "HMS")
    ) {
        self.appID = appID
        self.clientSecret = clientSecret
        self.endpoint = endpoint
        self.tokenURL = tokenURL
        self.caFile = caFile
        self.connections = connections
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.liveness = liveness
        self.logger = logger
    }

    /// `messages:send` of the app.
    var sendURL: String {
        endpoint.absoluteString.trimmingSuffix("/") + "/v1/"
            + (appID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? appID)
            + "/messages:send"
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
