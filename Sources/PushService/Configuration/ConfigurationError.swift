/// Why a configuration file was rejected. Start-up stops with this message; every case names
/// the key (as a path such as `apps[1].api_token`) or the file.
public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case syntax(String)
    case unknownKey(String)
    case missingKey(String)
    case invalidValue(key: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read configuration file \(path): \(reason)"
        case .syntax(let reason): "configuration is not valid YAML: \(reason)"
        case .unknownKey(let key): "unknown configuration key \"\(key)\""
        case .missingKey(let key): "missing configuration key \"\(key)\""
        case .invalidValue(let key, let reason): "invalid value for configuration key \"\(key)\": \(reason)"
        }
    }
}
