import Foundation

/// Durations in the configuration: a number of seconds (`86400`) or a number with a unit
/// (`500ms`, `30s`, `15m`, `12h`, `7d`).
public enum ConfigDuration {
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
        for (suffix, milliseconds) in units where trimmed.hasSuffix(suffix) {
            let number = trimmed.dropLast(suffix.count)
            // "ms" must not be read as minutes of "…m" followed by "s".
            guard let value = Int64(number), value >= 0 else { continue }
            let (total, overflow) = value.multipliedReportingOverflow(by: milliseconds)
            return overflow ? nil : .milliseconds(total)
        }
        guard let seconds = Int64(trimmed), seconds >= 0 else { return nil }
        return .seconds(seconds)
    }
}

extension ConfigMapping {
    public func duration(_ key: String) throws(ConfigurationError) -> Duration? {
        guard let text = try string(key) else { return nil }
        guard let value = ConfigDuration.parse(text) else {
            throw .invalidValue(key: name(key), reason: "must be seconds or a number with ms, s, m, h or d (e.g. 30s, 12h)")
        }
        return value
    }

    /// A duration that must lie in `allowed` (`range` says it in the error, e.g. "1s...5m").
    public func duration(_ key: String, in allowed: ClosedRange<Duration>, _ range: String) throws(ConfigurationError) -> Duration? {
        guard let value = try duration(key) else { return nil }
        guard allowed.contains(value) else { throw .invalidValue(key: name(key), reason: "must be \(range)") }
        return value
    }

    public func bool(_ key: String) throws(ConfigurationError) -> Bool? {
        guard let text = try string(key) else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw .invalidValue(key: name(key), reason: "must be true or false")
        }
    }
}
