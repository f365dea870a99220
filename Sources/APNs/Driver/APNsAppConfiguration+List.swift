import ConfigSupport
import Yams

extension APNsAppConfiguration {
    /// `apps[i].apns` as a list: the app's configurations, each named, one of them the default
    /// (`default: true`, else the first). The default carries the app's push type, priority,
    /// expiration and payload options; the others only their name, topic, environment,
    /// credentials and pool.
    public static func parse(list nodes: [Node], path: String, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> APNsAppConfiguration
    {
        guard !nodes.isEmpty else { throw .invalidValue(key: path, reason: "must list at least one configuration") }
        var maps: [ConfigMapping] = []
        var defaultIndex: Int?
        for (index, node) in nodes.enumerated() {
            let map = try ConfigMapping(node, path: "\(path)[\(index)]")
            guard try map.string("name") != nil else { throw .missingKey(map.name("name")) }
            if try map.bool("default") == true {
                if defaultIndex != nil { throw .invalidValue(key: map.name("default"), reason: "only one configuration is the default") }
                defaultIndex = index
            }
            maps.append(map)
        }
        let chosen = defaultIndex ?? 0
        var config = try parse(maps[chosen], environment: environment, isDefault: true)
        var names: Set<String> = [config.name]
        for (index, map) in maps.enumerated() where index != chosen {
            let other = try parse(map, environment: environment, isDefault: false)
            guard names.insert(other.name).inserted else {
                throw .invalidValue(key: map.name("name"), reason: "\"\(other.name)\" is listed twice")
            }
            config.others.append(other)
        }
        return config
    }

    private static func parse(_ map: ConfigMapping, environment: ConfigurationEnvironment, isDefault: Bool) throws(ConfigurationError)
        -> APNsAppConfiguration
    {
        let appWide = appKeys.union(presentationKeys)
        if !isDefault, let key = map.keys.first(where: appWide.contains) {
            throw .invalidValue(key: map.name(key), reason: "is the app's, not one configuration's: set it on the default configuration")
        }
        try map.allowOnly(connectionKeys.union(["default"]).union(isDefault ? appWide : []))
        var config = try parseConnection(map, environment: environment)
        if isDefault { try config.readAppSettings(map) }
        return config
    }

    /// Every configuration, the default first.
    public var all: [APNsAppConfiguration] { [self] + others }

    /// For each configuration, the other environment's configuration of the same topic: where a
    /// token the first answers `BadDeviceToken` for is tried once (a debug build's sandbox token
    /// registered without a configuration, or the other way round).
    public var environmentFallbacks: [String: String] {
        var fallbacks: [String: String] = [:]
        for config in all {
            let match = all.first { $0.topic == config.topic && $0.environment.isSandbox != config.environment.isSandbox }
            if let match { fallbacks[config.name] = match.name }
        }
        return fallbacks
    }
}
