import LogRedaction

/// A secret string (an API token) whose description is redacted (`Redaction`), so printing a
/// configuration or logging an app never leaks it.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret itself; use only where it is needed (authentication, HMAC keys).
    public let value: String
    /// Where the configuration took it from (`inline` for one made in code), so the files holding
    /// secrets can be checked (`RelayConfiguration.credentialFiles`). Not part of its identity:
    /// two secrets are equal when their values are.
    public let source: SecretSource

    public init(_ value: String, source: SecretSource = .inline) {
        self.value = value
        self.source = source
    }

    public var description: String { Redaction.redact(value) }
    public var debugDescription: String { description }

    public static func == (lhs: Secret, rhs: Secret) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

extension Secret {
    /// The file it was read from (`{file:}`), named by `key` + `.file`, for the credential audit.
    public func credentialFile(key: String) -> CredentialFile? {
        if case .file(let path) = source { return CredentialFile(key: key + ".file", path: path) }
        return nil
    }

    /// Whether it is written in the configuration file itself.
    public var isInline: Bool { source == .inline }
}
