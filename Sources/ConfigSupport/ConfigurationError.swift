import Yams

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

extension ConfigurationError {
    /// A YAML error by its position and problem, without the line Yams quotes: that line may
    /// hold a secret (an inline token, a PostgreSQL URL with its password).
    public static func yamlProblem(_ error: any Error) -> String {
        guard let error = error as? YamlError else { return "\(type(of: error))" }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return "line \(mark.line), column \(mark.column): \(context.map { "\($0.text) " } ?? "")\(problem)"
        case .reader(let problem, let offset, _, _):
            return offset.map { "\(problem) at byte \($0)" } ?? problem
        case .duplicatedKeysInMapping(let duplicates, let context):
            return "line \(context.mark.line): duplicated key(s) \(duplicates.sorted().joined(separator: ", "))"
        default:
            return String(describing: error)
        }
    }
}
