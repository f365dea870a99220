import ConfigSupport
import Foundation

/// An app's Web Push settings (`apps[].webpush`): its VAPID key and contact, where a notification
/// takes the user, and which push services besides the public ones it may post to.
public struct WebPushAppConfiguration: Sendable, Hashable {
    /// The VAPID private key (PEM or base64url; a string, `{file: …}`, `{env: …}` or `{credential: …}`).
    public var vapidPrivateKey: Secret
    /// The key's public half in base64url, for the web app's `applicationServerKey`.
    public var vapidPublicKey: String
    /// VAPID's `sub` (`subject`): `mailto:…` or `https://…`.
    public var subject: String
    /// `navigate`: the page a notification opens; `{channel_url}` is replaced.
    public var navigateTemplate: String
    /// Push services the app's subscriptions may name besides the public ones (`allowed_endpoints`).
    public var allowedEndpoints: [String]
    /// Extra CA to trust for push services (a self-hosted one, webpush-mock); then only that CA is trusted.
    public var caFile: String?
    /// HTTP/1.1 connections per push service.
    public var poolSize: Int

    public init(
        vapidPrivateKey: Secret, vapidPublicKey: String, subject: String, navigateTemplate: String, allowedEndpoints: [String] = [],
        caFile: String? = nil, poolSize: Int = ProviderPoolSize.defaultSize
    ) {
        self.vapidPrivateKey = vapidPrivateKey
        self.vapidPublicKey = vapidPublicKey
        self.subject = subject
        self.navigateTemplate = navigateTemplate
        self.allowedEndpoints = allowedEndpoints
        self.caFile = caFile
        self.poolSize = poolSize
    }

    /// The public push services and the app's own.
    public var allowlist: EndpointAllowlist {
        EndpointAllowlist.default.adding((try? EndpointAllowlist(allowedEndpoints)) ?? EndpointAllowlist.default)
    }
}
