import ConnectionLiveness
import Foundation
import Logging

/// What a `WebPushClient` needs: the app's VAPID key and contact, where notifications navigate,
/// the push services it may post to, and its connections.
public struct WebPushClientConfiguration: Sendable {
    public var vapidKey: VAPIDKey
    /// VAPID's `sub`: `mailto:ops@example.com` or an https URL.
    public var subject: String
    /// `navigate` of each notification; `{channel_url}` is replaced by the channel's URL.
    public var navigateTemplate: String
    public var allowlist: EndpointAllowlist
    /// A CA to trust instead of the system's (a self-hosted push service, webpush-mock).
    public var caFile: String?
    /// HTTP/1.1 connections per push service (HTTP/2 uses one).
    public var connections: Int
    public var connectTimeout: Duration
    public var requestTimeout: Duration
    public var liveness: LivenessSettings
    public var logger: Logger

    public init(
        vapidKey: VAPIDKey, subject: String, navigateTemplate: String, allowlist: EndpointAllowlist = .default, caFile: String? = nil,
        connections: Int = 2, connectTimeout: Duration = .seconds(10), requestTimeout: Duration = .seconds(30),
        liveness: LivenessSettings = LivenessSettings(), logger: Logger = Logger(label: "WebPush")
    ) {
        self.vapidKey = vapidKey
        self.subject = subject
        self.navigateTemplate = navigateTemplate
        self.allowlist = allowlist
        self.caFile = caFile
        self.connections = connections
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.liveness = liveness
        self.logger = logger
    }
}
