import Logging

/// The relay's whole configuration, read once from YAML at start-up and passed down immutable.
///
/// ```yaml
/// listen: {host: 127.0.0.1, port: 8080}
/// database: {path: /var/lib/push-relay/relay.sqlite}
/// http: {max_body_bytes: 65536, max_connections: 4096}   # optional
/// apps:
///   - app_id: 9DA1B1F4-0D9B-4F3C-A2B3-6C0C1E9A7F00
///     api_token: 0123456789abcdef0123456789abcdef01234567
/// ```
public struct RelayConfiguration: Sendable, Hashable {
    public var listen: ListenConfiguration
    public var database: DatabaseConfiguration
    public var http: HTTPConfiguration
    public var apps: [AppConfiguration]
    /// `log_level`: trace, debug, info, notice, warning, error or critical.
    public var logLevel: Logger.Level
    public var metrics: MetricsConfiguration
    public var delivery: DeliveryConfiguration
    /// The operator console at `/console` (off unless `console.enabled`).
    public var console: ConsoleConfiguration
    /// What the operator should fix but that does not stop the relay (a key file its group can
    /// read): logged at start and on reload, reported by `check-config`.
    public var warnings: [String] = []

    public init(
        listen: ListenConfiguration, database: DatabaseConfiguration, http: HTTPConfiguration = HTTPConfiguration(),
        apps: [AppConfiguration], logLevel: Logger.Level = .info, metrics: MetricsConfiguration = MetricsConfiguration(),
        delivery: DeliveryConfiguration = DeliveryConfiguration(), console: ConsoleConfiguration = ConsoleConfiguration()
    ) {
        self.listen = listen
        self.database = database
        self.http = http
        self.apps = apps
        self.logLevel = logLevel
        self.metrics = metrics
        self.delivery = delivery
        self.console = console
    }
}
