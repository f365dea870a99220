import ConfigSupport

/// The operator console at `/console` (`console:`, optional; off unless `enabled`).
///
/// ```yaml
/// console:
///   enabled: true
///   session_idle_timeout: 30m          # signed out after this long without a request
///   trusted_proxies: [127.0.0.1, ::1]  # whose X-Forwarded-Proto / X-Forwarded-For are believed
///   users:                             # optional: people who sign in by name, not with an API token
///     - name: support
///       secret: {file: /etc/push-relay/console-support}
///       apps: [app1]                   # optional: every app when absent
/// ```
public struct ConsoleConfiguration: Sendable, Hashable {
    /// A person who signs in with a name and a secret from the configuration.
    public struct User: Sendable, Hashable {
        public var name: String
        public var secret: Secret
        /// The apps they may open; nil: every configured app.
        public var apps: [String]?

        public init(name: String, secret: Secret, apps: [String]? = nil) {
            self.name = name
            self.secret = secret
            self.apps = apps
        }
    }

    public var enabled: Bool
    public var sessionIdleTimeout: Duration
    /// Peers (exact IP addresses) whose `X-Forwarded-Proto` and `X-Forwarded-For` are believed:
    /// the TLS-terminating proxy in front of the relay.
    public var trustedProxies: [String]
    public var users: [User]

    public static let defaultSessionIdleTimeout = Duration.seconds(30 * 60)
    public static let allowedSessionIdleTimeout: ClosedRange<Duration> = .seconds(60) ... .seconds(24 * 3600)
    public static let defaultTrustedProxies = ["127.0.0.1", "::1"]
    /// A console secret is a password nobody types often: long enough that the sign-in rate
    /// limit makes guessing it hopeless.
    public static let minimumSecretLength = 16

    public init(
        enabled: Bool = false, sessionIdleTimeout: Duration = ConsoleConfiguration.defaultSessionIdleTimeout,
        trustedProxies: [String] = ConsoleConfiguration.defaultTrustedProxies, users: [User] = []
    ) {
        self.enabled = enabled
        self.sessionIdleTimeout = sessionIdleTimeout
        self.trustedProxies = trustedProxies
        self.users = users
    }
}
