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

        var logLevel = Logger.Level.info
        if let text = try top.string("log_level") {
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw .invalidValue(
                    key: "log_level", reason: "must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            logLevel = level
        }

        var metrics = MetricsConfiguration()
        if let metricsMap = try top.mapping("metrics") {
            try metricsMap.allowOnly(["token"])
            if let token = try metricsMap.secret("token", environment: environment)?.0 {
                guard token.value.count >= 16 else {
                    throw .invalidValue(key: metricsMap.name("token"), reason: "must be at least 16 characters")
                }
                metrics.token = token
            }
        }

        var delivery = DeliveryConfiguration()
        if let deliveryMap = try top.mapping("delivery") {
            try deliveryMap.allowOnly(["prune_after", "shutdown_grace", "max_backlog", "retry_backoff", "retry_max_backoff"])
            if let value = try deliveryMap.duration("prune_after") { delivery.pruneAfter = value }
            if let value = try deliveryMap.duration("shutdown_grace") { delivery.shutdownGrace = value }
            if let value = try deliveryMap.duration("max_backlog") { delivery.maxBacklog = value }
            let allowed = DeliveryConfiguration.allowedRetryBackoff
            if let value = try deliveryMap.duration("retry_backoff", in: allowed, "100ms...1h") { delivery.retryInitialBackoff = value }
            if let value = try deliveryMap.duration("retry_max_backoff", in: allowed, "100ms...1h") { delivery.retryMaximumBackoff = value }
            guard delivery.retryMaximumBackoff >= delivery.retryInitialBackoff else {
                throw .invalidValue(key: deliveryMap.name("retry_max_backoff"), reason: "must not be below delivery.retry_backoff")
            }
        }

        let listenMap = try top.requiredMapping("listen")
        try listenMap.allowOnly(["host", "port"])
        let host = try listenMap.string("host") ?? ListenConfiguration().host
        guard !host.isEmpty else { throw .invalidValue(key: listenMap.name("host"), reason: "must not be empty") }
        let port = try listenMap.int("port") ?? ListenConfiguration().port
        guard (0...65535).contains(port) else { throw .invalidValue(key: listenMap.name("port"), reason: "must be 0...65535") }

        let database = try Self.parseDatabase(try top.requiredMapping("database"), environment: environment)

        let http = try top.mapping("http").map(Self.parseHTTP) ?? HTTPConfiguration()

        guard let appNodes = try top.sequence("apps") else { throw .missingKey("apps") }
        guard !appNodes.isEmpty else { throw .invalidValue(key: "apps", reason: "must list at least one app") }
        var apps: [AppConfiguration] = []
        for (index, node) in appNodes.enumerated() {
            apps.append(try Self.parseApp(try ConfigMapping(node, path: "apps[\(index)]"), after: apps, environment: environment))
        }

        let console = try top.mapping("console").map { section throws(ConfigurationError) in
            try Self.parseConsole(section, apps: apps, environment: environment)
        }

        var configuration = RelayConfiguration(
            listen: ListenConfiguration(host: host, port: port),
            database: database,
            http: http,
            apps: apps,
            logLevel: logLevel,
            metrics: metrics,
            delivery: delivery,
            console: console ?? ConsoleConfiguration()
        )
        let audit = CredentialFileAudit(files: configuration.credentialFiles(environment: environment))
        if let error = audit.error { throw error }
        configuration.warnings = audit.warnings
        return configuration
    }
}
