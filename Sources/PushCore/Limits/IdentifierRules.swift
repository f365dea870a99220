/// What an id (user id, channel URL, app id) may be, wherever it enters: a webhook body or a
/// REST path. Bounded, so per-request work and stored keys stay bounded, and free of control
/// characters, so no id can be cut at a NUL by a C API into another user's id, or forge a log
/// line.
public enum IdentifierRules {
    /// The longest id accepted, in UTF-8 bytes (Sendbird's are at most 80 or 100 characters).
    public static let maximumBytes = 255

    /// Why `id` is not acceptable, or nil.
    public static func problem(with id: String) -> String? {
        if id.isEmpty { return "a non-empty string" }
        if id.utf8.count > maximumBytes { return "at most \(maximumBytes) bytes" }
        if id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a string without control characters"
        }
        return nil
    }
}
