import ConfigSupport

extension RelayConfiguration {
    /// `console:`. Users' secrets are read like every other secret (inline, `{file:}`, `{env:}`,
    /// `{credential:}`); their `apps` must be configured apps.
    static func parseConsole(
        _ map: ConfigMapping, apps: [AppConfiguration], environment: ConfigurationEnvironment
    ) throws(ConfigurationError) -> ConsoleConfiguration {
        try map.allowOnly(["enabled", "session_idle_timeout", "trusted_proxies", "users"])
        var console = ConsoleConfiguration()
        console.enabled = try map.bool("enabled") ?? false
        if let timeout = try map.duration(
            "session_idle_timeout", in: ConsoleConfiguration.allowedSessionIdleTimeout, "1m...24h")
        {
            console.sessionIdleTimeout = timeout
        }
        if let proxies = try map.sequence("trusted_proxies") {
            console.trustedProxies = try proxies.enumerated().map { index, node throws(ConfigurationError) in
                guard case .scalar(let scalar) = node, !scalar.string.isEmpty else {
                    throw .invalidValue(key: map.name("trusted_proxies[\(index)]"), reason: "must be an IP address")
                }
                return scalar.string
            }
        }
        for (index, node) in (try map.sequence("users") ?? []).enumerated() {
            let user = try parseConsoleUser(
                try ConfigMapping(node, path: map.name("users[\(index)]")), apps: apps, environment: environment)
            guard !console.users.contains(where: { $0.name == user.name }) else {
                throw .invalidValue(key: map.name("users[\(index)].name"), reason: "\"\(user.name)\" is listed twice")
            }
            console.users.append(user)
        }
        return console
    }

    private static func parseConsoleUser(
        _ map: ConfigMapping, apps: [AppConfiguration], environment: ConfigurationEnvironment
    ) throws(ConfigurationError) -> ConsoleConfiguration.User {
        try map.allowOnly(["name", "secret", "apps"])
        guard let name = try map.string("name") else { throw .missingKey(map.name("name")) }
        guard !name.isEmpty, name.utf8.count <= 64, name.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control })
        else {
            throw .invalidValue(key: map.name("name"), reason: "must be 1 to 64 bytes without control characters")
        }
        guard let (secret, _) = try map.secret("secret", environment: environment) else { throw .missingKey(map.name("secret")) }
        guard secret.value.count >= ConsoleConfiguration.minimumSecretLength else {
            throw .invalidValue(
                key: map.name("secret"), reason: "must be at least \(ConsoleConfiguration.minimumSecretLength) characters")
        }
        var allowed: [String]?
        if let nodes = try map.sequence("apps") {
            allowed = try nodes.enumerated().map { index, node throws(ConfigurationError) in
                guard case .scalar(let scalar) = node, apps.contains(where: { $0.appID == scalar.string }) else {
                    throw .invalidValue(key: map.name("apps[\(index)]"), reason: "must be the app_id of a configured app")
                }
                return scalar.string
            }
        }
        return ConsoleConfiguration.User(name: name, secret: secret, apps: allowed)
    }
}
