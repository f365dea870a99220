import Foundation
import Yams

/// A YAML mapping read key by key, with the key path for error messages.
public struct ConfigMapping {
    public let mapping: Node.Mapping
    /// Where it is in the file (`apps[0].apns`), for error messages.
    public let path: String

    public init(_ node: Node, path: String) throws(ConfigurationError) {
        guard let mapping = node.mapping else {
            throw .invalidValue(key: path.isEmpty ? "(top level)" : path, reason: "must be a mapping of keys to values")
        }
        self.mapping = mapping
        self.path = path
    }

    public func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The keys as written, in file order.
    public var keys: [String] { mapping.keys.map { $0.string ?? "\($0)" } }

    public func allowOnly(_ keys: Set<String>) throws(ConfigurationError) {
        for key in mapping.keys {
            let text = key.string ?? "\(key)"
            if !keys.contains(text) { throw .unknownKey(name(text)) }
        }
    }

    private func value(_ key: String) -> Node? {
        guard let node = mapping[key] else { return nil }
        if case .scalar(let scalar) = node, scalar.string == "~" || scalar.string == "null" || scalar.string.isEmpty,
            scalar.style == Node.Scalar.Style.plain
        {
            return nil
        }
        return node
    }

    public func string(_ key: String) throws(ConfigurationError) -> String? {
        guard let node = value(key) else { return nil }
        guard case .scalar(let scalar) = node else { throw .invalidValue(key: name(key), reason: "must be a string") }
        return scalar.string
    }

    public func int(_ key: String) throws(ConfigurationError) -> Int? {
        guard let node = value(key) else { return nil }
        guard case .scalar(let scalar) = node, let value = Int(scalar.string) else {
            throw .invalidValue(key: name(key), reason: "must be an integer")
        }
        return value
    }

    public func mapping(_ key: String) throws(ConfigurationError) -> ConfigMapping? {
        guard let node = value(key) else { return nil }
        return try ConfigMapping(node, path: name(key))
    }

    public func requiredMapping(_ key: String) throws(ConfigurationError) -> ConfigMapping {
        guard let mapping = try mapping(key) else { throw .missingKey(name(key)) }
        return mapping
    }

    public func sequence(_ key: String) throws(ConfigurationError) -> [Node]? {
        guard let node = value(key) else { return nil }
        guard case .sequence(let sequence) = node else { throw .invalidValue(key: name(key), reason: "must be a list") }
        return Array(sequence)
    }

    /// A list of strings (`[a, b]`); nil when absent.
    public func strings(_ key: String) throws(ConfigurationError) -> [String]? {
        guard let nodes = try sequence(key) else { return nil }
        var strings: [String] = []
        for node in nodes {
            guard case .scalar(let scalar) = node else { throw .invalidValue(key: name(key), reason: "must be a list of strings") }
            strings.append(scalar.string)
        }
        return strings
    }
}

/// `https://HOST[:PORT]` with no path: a provider's endpoint as configuration names it (`url`).
public struct HTTPSOrigin: Sendable, Hashable {
    public var host: String
    public var port: Int

    public init?(_ url: URL) {
        guard url.scheme == "https", let host = url.host, !host.isEmpty, url.path.isEmpty || url.path == "/" else { return nil }
        self.host = host
        port = url.port ?? 443
    }
}
