import MockSupport

/// The documented shape of the `aps` dictionary (Apple, "Generating a remote notification"):
/// each key Apple defines, with the type it must have. Keys Apple does not define pass (APNs
/// ignores them); a defined key of the wrong type or value is refused, so a relay that writes
/// one wrong finds out here rather than on a device. Pure.
enum APSDictionaryRules {
    static let interruptionLevels: Set<String> = ["passive", "active", "time-sensitive", "critical"]
    static let alertStringKeys: Set<String> = ["title", "subtitle", "body", "launch-image", "title-loc-key", "subtitle-loc-key", "loc-key"]
    static let alertListKeys: Set<String> = ["title-loc-args", "subtitle-loc-args", "loc-args"]

    /// The first key whose value breaks Apple's rules, or nil.
    static func violation(in aps: [String: JSONValue]) -> String? {
        aps.first { key, value in !isValid(key: key, value: value) }?.key
    }

    static func isValid(key: String, value: JSONValue) -> Bool {
        switch key {
        case "alert": isAlert(value)
        case "badge", "content-available", "mutable-content": isInteger(value)
        case "sound": value.stringValue != nil || isCriticalSound(value)
        case "thread-id", "category", "target-content-id", "filter-criteria": value.stringValue != nil
        case "interruption-level": value.stringValue.map(interruptionLevels.contains) ?? false
        case "relevance-score": isUnitNumber(value)
        default: true
        }
    }

    /// A string, or a dictionary of Apple's alert keys (strings, and lists of strings for the
    /// localisation arguments).
    static func isAlert(_ value: JSONValue) -> Bool {
        if value.stringValue != nil { return true }
        guard case .object(let alert) = value else { return false }
        return alert.allSatisfy { key, value in
            if alertStringKeys.contains(key) { return value.stringValue != nil }
            if alertListKeys.contains(key) {
                guard case .array(let items) = value else { return false }
                return items.allSatisfy { $0.stringValue != nil }
            }
            return true
        }
    }

    /// `{"critical": 1, "name": "…", "volume": 0…1}`.
    static func isCriticalSound(_ value: JSONValue) -> Bool {
        guard case .object(let sound) = value else { return false }
        if let critical = sound["critical"], !isInteger(critical) { return false }
        if let name = sound["name"], name.stringValue == nil { return false }
        if let volume = sound["volume"], !isUnitNumber(volume) { return false }
        return true
    }

    static func isInteger(_ value: JSONValue) -> Bool {
        if case .integer = value { return true }
        return false
    }

    /// A JSON number from 0 to 1.
    static func isUnitNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .integer(let number): (0...1).contains(number)
        case .number(let number): (0...1).contains(number)
        default: false
        }
    }
}
