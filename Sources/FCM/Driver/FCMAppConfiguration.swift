import ConfigSupport
import Foundation
import HTTP2Transport

/// An app's FCM settings (`apps[].fcm`): the service account that sends, the Firebase project,
/// and, for tests, where FCM and the token endpoint are.
public struct FCMAppConfiguration: Sendable, Hashable {
    /// The service account's JSON key file (a path or a systemd credential).
    public var serviceAccountFile: String
    /// The Firebase project; the service account's `project_id` when nil.
    public var projectID: String?
    /// `fcm.googleapis.com:443`, or fcm-mock's (`url`).
    public var endpoint: TransportEndpoint
    /// The token endpoint; the service account's `token_uri` when nil.
    public var tokenURL: URL?
    /// Extra CA to trust for `url` and `token_url` (fcm-mock); then only that CA is trusted.
    public var caFile: String?
    /// Connections in the app's FCM pool (`ProviderPoolSize`).
    public var poolSize: Int

    public init(
        serviceAccountFile: String, projectID: String? = nil, endpoint: TransportEndpoint = FCMClientConfiguration.production,
        tokenURL: URL? = nil, caFile: String? = nil, poolSize: Int = ProviderPoolSize.defaultSize
    ) {
        self.serviceAccountFile = serviceAccountFile
        self.projectID = projectID
        self.endpoint = endpoint
        self.tokenURL = tokenURL
        self.caFile = caFile
        self.poolSize = poolSize
    }
}
