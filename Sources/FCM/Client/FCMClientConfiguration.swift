import ConnectionLiveness
import Foundation
import HTTP2Transport
import Logging

/// Everything an `FCMClient` needs, fixed at start-up: one service account sending to one
/// Firebase project.
public struct FCMClientConfiguration: Sendable {
    public var serviceAccount: FCMServiceAccount
    /// Names the service account's file in errors (never its key).
    public var serviceAccountSource: String
    /// The Firebase project messages go to; the service account's own by default.
    public var projectID: String
    /// Where `messages:send` goes (`fcm.googleapis.com:443`; fcm-mock in tests).
    public var endpoint: TransportEndpoint
    /// Where access tokens come from; the service account's `token_uri` by default.
    public var tokenURL: URL
    /// Extra PEM CA certificates trusted besides the system store (for fcm-mock).
    public var extraCAFile: String?
    public var trustSystemRoots: Bool
    public var connections: Int
    public var maxConcurrentStreamsPerConnection: Int
    /// Deadline of one `send`, from the call until the answer, the token exchange included.
    public var requestTimeout: Duration
    public var connectTimeout: Duration
    /// When a connection PINGs, and when one that stopped answering is replaced.
    public var liveness: LivenessSettings
    public var eventHandler: (@Sendable (TransportEvent) -> Void)?
    public var logger: Logger

    /// FCM HTTP v1's host.
    public static let production = TransportEndpoint(host: "fcm.googleapis.com", port: 443)

    public init(
        serviceAccount: FCMServiceAccount, serviceAccountSource: String, projectID: String? = nil,
        endpoint: TransportEndpoint = Self.production, tokenURL: URL? = nil, extraCAFile: String? = nil,
        trustSystemRoots: Bool = true, connections: Int = TransportDefaults.connections,
        maxConcurrentStreamsPerConnection: Int = TransportDefaults.maxConcurrentStreamsPerConnection,
        requestTimeout: Duration = TransportDefaults.requestTimeout, connectTimeout: Duration = TransportDefaults.connectTimeout,
        liveness: LivenessSettings = LivenessSettings(), eventHandler: (@Sendable (TransportEvent) -> Void)? = nil,
        logger: Logger = Logger(label: "push-relay.fcm")
    ) {
        self.serviceAccount = serviceAccount
        self.serviceAccountSource = serviceAccountSource
        self.projectID = projectID ?? serviceAccount.projectID
        self.endpoint = endpoint
        self.tokenURL = tokenURL ?? serviceAccount.tokenURI
        self.extraCAFile = extraCAFile
        self.trustSystemRoots = trustSystemRoots
        self.connections = max(1, connections)
        self.maxConcurrentStreamsPerConnection = max(1, maxConcurrentStreamsPerConnection)
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.liveness = liveness
        self.eventHandler = eventHandler
        self.logger = logger
    }

    /// The transport to `endpoint` (messages) or to the token URL's host (token exchange: one
    /// connection, a request an hour); PINGs, reconnect backoff and resends as the transport's defaults.
    func transport(to endpoint: TransportEndpoint, connections: Int, peerName: String) -> TransportConfiguration {
        TransportConfiguration(
            endpoint: endpoint, extraCAFile: extraCAFile, trustSystemRoots: trustSystemRoots, connections: connections,
            maxConcurrentStreamsPerConnection: maxConcurrentStreamsPerConnection, connectTimeout: connectTimeout,
            liveness: liveness, eventHandler: eventHandler, logger: logger, peerName: peerName)
    }
}
