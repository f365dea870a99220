import ConfigSupport
import Foundation
import Logging
import PushCore
import Yams

extension RelayConfiguration {
    /// Reads and validates the YAML file at `path`.
    public static func load(path: String, environment: ConfigurationEnvironment = .process) throws(ConfigurationError) -> RelayConfiguration
    {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        var configuration = try parse(yaml: text, environment: environment)
        if let warning = inlineSecretWarning(path: path, keys: configuration.inlineSecretKeys) {
            configuration.warnings.append(warning)
        }
        return configuration
    }

    /// Parses and validates configuration YAML. Unknown keys are errors (a typo must not silently
    /// fall back to a default), as are missing required keys and invalid values; each error
    /// names the key.
    /// Secrets given as `{env:}` or `{credential:}` are resolved against `environment`.
    public static func parse(yaml: String, environment: ConfigurationEnvironment = .process) throws(ConfigurationError)
        -> RelayConfiguration
    {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: yaml) else { throw ConfigurationError.syntax("the document is empty") }
            root = node
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw .syntax(ConfigurationError.yamlProblem(error))
        }
        let top = try ConfigMapping(root, path: "")
        try top.allowOnly(["listen", "database", "http", "apps", "log_level", "metrics", "delivery", "console"])

        let logLevel = try Self.parseLogLevel(top)
        let metrics = try top.mapping("metrics").map { section throws(ConfigurationError) in
            try Self.parseMetrics(section, environment: environment)
        }
        let delivery = try top.mapping("delivery").map(Self.parseDelivery) ?? DeliveryConfiguration()
        let listen = try Self.parseListen(try top.requiredMapping("listen"))
        let database = try Self.parseDatabase(try top.requiredMapping("database"), environment: environment)
        let http = try top.mapping("http").map(Self.parseHTTP) ?? HTTPConfiguration()
        let apps = try Self.parseApps(top, environment: environment)
        let console = try top.mapping("console").map { section throws(ConfigurationError) in
            try Self.parseConsole(section, apps: apps, environment: environment)
        }

        var configuration = RelayConfiguration(
            listen: listen,
            database: database,
            http: http,
            apps: apps,
            logLevel: logLevel,
            metrics: metrics ?? MetricsConfiguration(),
            delivery: delivery,
            console: console ?? ConsoleConfiguration()
        )
        let audit = CredentialFileAudit(files: configuration.credentialFiles(environment: environment))
        if let error = audit.error { throw error }
        configuration.warnings = audit.warnings
        return configuration
    }

    private static func parseLogLevel(_ top: ConfigMapping) throws(ConfigurationError) -> Logger.Level {
        guard let text = try top.string("log_level") else { return .info }
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw .invalidValue(key: "log_level", reason: "must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return level
    }

    private static func parseMetrics(_ map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> MetricsConfiguration
    {
        var metrics = MetricsConfiguration()
        try map.allowOnly(["token"])
        if let token = try map.secret("token", environment: environment)?.0 {
            guard token.value.count >= 16 else { throw .invalidValue(key: map.name("token"), reason: "must be at least 16 characters") }
            metrics.token = token
        }
        return metrics
    }

    private static func parseDelivery(_ map: ConfigMapping) throws(ConfigurationError) -> DeliveryConfiguration {
        var delivery = DeliveryConfiguration()
        try map.allowOnly(["prune_after", "shutdown_grace", "max_backlog", "retry_backoff", "retry_max_backoff"])
        if let value = try map.duration("prune_after") { delivery.pruneAfter = value }
        if let value = try map.duration("shutdown_grace") { delivery.shutdownGrace = value }
        if let value = try map.duration("max_backlog") { delivery.maxBacklog = value }
        let allowed = DeliveryConfiguration.allowedRetryBackoff
        if let value = try map.duration("retry_backoff", in: allowed, "100ms...1h") { delivery.retryInitialBackoff = value }
        if let value = try map.duration("retry_max_backoff", in: allowed, "100ms...1h") { delivery.retryMaximumBackoff = value }
        guard delivery.retryMaximumBackoff >= delivery.retryInitialBackoff else {
            throw .invalidValue(key: map.name("retry_max_backoff"), reason: "must not be below delivery.retry_backoff")
        }
        return delivery
    }

    private static func parseListen(_ map: ConfigMapping) throws(ConfigurationError) -> ListenConfiguration {
        try map.allowOnly(["host", "port"])
        let host = try map.string("host") ?? ListenConfiguration().host
        guard !host.isEmpty else { throw .invalidValue(key: map.name("host"), reason: "must not be empty") }
        let port = try map.int("port") ?? ListenConfiguration().port
        guard (0...65535).contains(port) else { throw .invalidValue(key: map.name("port"), reason: "must be 0...65535") }
        return ListenConfiguration(host: host, port: port)
    }

    private static func parseApps(_ top: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> [AppConfiguration]
    {
        guard let appNodes = try top.sequence("apps") else { throw .missingKey("apps") }
        guard !appNodes.isEmpty else { throw .invalidValue(key: "apps", reason: "must list at least one app") }
        var apps: [AppConfiguration] = []
        for (index, node) in appNodes.enumerated() {
            apps.append(try Self.parseApp(try ConfigMapping(node, path: "apps[\(index)]"), after: apps, environment: environment))
        }
        return apps
    }
}
