import LogRedaction

/// A secret string (an API token) whose description is redacted (`Redaction`), so printing a
/// configuration or logging an app never leaks it.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret itself; use only where it is needed (authentication, HMAC keys).
    public let value: String

    public init(_ value: String) { self.value = value }

    public var description: String { Redaction.redact(value) }
    public var debugDescription: String { description }
}
