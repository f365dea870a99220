/// A secret string (an API token) whose description shows only its first 8 characters, so
/// printing a configuration or logging an app never leaks it.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret itself; use only where it is needed (authentication, HMAC keys).
    public let value: String

    public init(_ value: String) { self.value = value }

    public var description: String { Redaction.redact(value) }
    public var debugDescription: String { description }
}

/// How secrets and device tokens appear in logs: the first 8 characters and an ellipsis.
public enum Redaction {
    public static func redact(_ value: String) -> String {
        value.count <= 8 ? String(repeating: "•", count: value.count) + "…" : value.prefix(8) + "…"
    }
}
