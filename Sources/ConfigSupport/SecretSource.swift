import Foundation

/// Where a secret in the configuration comes from. A plain string is the secret itself; the
/// mapping forms keep it out of the YAML:
///
/// ```yaml
/// api_token: 0123…                       # inline
/// api_token: {file: /etc/push-relay/token}   # a file's contents (trailing newline dropped)
/// api_token: {env: APP1_API_TOKEN}           # an environment variable
/// api_token: {credential: app1-token}        # a systemd credential ($CREDENTIALS_DIRECTORY/app1-token)
/// ```
public enum SecretSource: Sendable, Hashable, CustomStringConvertible {
    case inline
    case file(String)
    case environment(String)
    case credential(String)

    public var description: String {
        switch self {
        case .inline: "inline"
        case .file(let path): "file \(path)"
        case .environment(let name): "environment variable \(name)"
        case .credential(let name): "systemd credential \(name)"
        }
    }
}

/// What secret and file references are resolved against: the process environment (and through
/// it `$CREDENTIALS_DIRECTORY`). Injected so tests need not change the real environment.
public struct ConfigurationEnvironment: Sendable {
    public var variables: [String: String]
    /// The host directory `{credential: NAME}` is read from when it is not systemd's private copy:
    /// `check-config`'s `--credentials-dir`, or the unit's source directory it falls back to.
    /// Its files are what the unit's `LoadCredential=` lines copy, judged by their modes
    /// (`CredentialsDirectoryAudit`); nil in the service.
    public var hostCredentialsDirectory: String?

    public init(variables: [String: String], hostCredentialsDirectory: String? = nil) {
        self.variables = variables
        self.hostCredentialsDirectory = hostCredentialsDirectory
    }

    /// The running process's environment.
    public static var process: ConfigurationEnvironment {
        ConfigurationEnvironment(variables: ProcessInfo.processInfo.environment)
    }

    /// Where the unit (`systemd/push-relay.service`, and the package's) loads credentials from:
    /// `LoadCredential=NAME:/etc/push-relay/credentials/NAME` for each `{credential: NAME}`.
    public static let unitCredentialsDirectory = "/etc/push-relay/credentials"

    /// The directory `{credential: NAME}` is read from, if any.
    public var credentialsDirectory: String? {
        variables["CREDENTIALS_DIRECTORY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The environment `check-config` resolves against: a directory given on the command line
    /// wins; without one, systemd's `$CREDENTIALS_DIRECTORY` when set, else the unit's own source
    /// directory, so root can check a `{credential: …}` configuration outside the service.
    public func checking(credentialsDirectory given: String?) -> ConfigurationEnvironment {
        var copy = self
        if let given {
            copy.variables["CREDENTIALS_DIRECTORY"] = given
            copy.hostCredentialsDirectory = given
        } else if credentialsDirectory == nil {
            copy.variables["CREDENTIALS_DIRECTORY"] = Self.unitCredentialsDirectory
            copy.hostCredentialsDirectory = Self.unitCredentialsDirectory
        }
        return copy
    }

    /// Path of a systemd credential, or an error naming `key` when the service has none or the
    /// directory lacks it (the unit has no `LoadCredential=` line for it). The fix names the
    /// directory being checked, else the unit's.
    public func credentialPath(_ name: String, key: String) throws(ConfigurationError) -> String {
        let source = hostCredentialsDirectory ?? Self.unitCredentialsDirectory
        let line = "LoadCredential=\(name):\((source as NSString).appendingPathComponent(name))"
        guard let directory = credentialsDirectory else {
            throw .invalidValue(
                key: key, reason: "names systemd credential \"\(name)\" but CREDENTIALS_DIRECTORY is not set (add \(line) to the unit)")
        }
        guard !name.isEmpty, !name.contains("/") else {
            throw .invalidValue(key: key, reason: "credential name \"\(name)\" must be a plain file name")
        }
        let path = (directory as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: path) else {
            throw .invalidValue(
                key: key,
                reason: "systemd credential \"\(name)\" is not in \(directory) (put the file in \(source) "
                    + "and add \(line) to the unit)")
        }
        return path
    }
}

extension ConfigMapping {
    /// A secret at `key` (inline, `{file:}`, `{env:}` or `{credential:}`), resolved now.
    public func secret(_ key: String, environment: ConfigurationEnvironment) throws(ConfigurationError) -> (Secret, SecretSource)? {
        guard let node = mapping[key] else { return nil }
        if case .scalar = node {
            guard let text = try string(key) else { return nil }
            return (Secret(text), .inline)
        }
        let source = try ConfigMapping(node, path: name(key))
        try source.allowOnly(["file", "env", "credential"])
        guard source.mapping.count == 1 else {
            throw .invalidValue(key: name(key), reason: "give exactly one of file, env or credential")
        }
        if let path = try source.string("file") {
            let secret = try Self.readSecretFile(path, key: source.name("file"))
            return (Secret(secret.value, source: .file(path)), .file(path))
        }
        if let variable = try source.string("env") {
            guard let value = environment.variables[variable] else {
                throw .invalidValue(key: source.name("env"), reason: "environment variable \(variable) is not set")
            }
            return (Secret(value, source: .environment(variable)), .environment(variable))
        }
        if let credential = try source.string("credential") {
            let path = try environment.credentialPath(credential, key: source.name("credential"))
            let secret = try Self.readSecretFile(path, key: source.name("credential"))
            return (Secret(secret.value, source: .credential(credential)), .credential(credential))
        }
        throw .invalidValue(key: name(key), reason: "give exactly one of file, env or credential")
    }

    /// A file path at `key`: a plain path, or `{credential: NAME}` for a systemd credential.
    public func filePath(_ key: String, environment: ConfigurationEnvironment) throws(ConfigurationError) -> String? {
        guard let node = mapping[key] else { return nil }
        if case .scalar = node {
            guard let path = try string(key) else { return nil }
            guard !path.isEmpty else { throw .invalidValue(key: name(key), reason: "must not be empty") }
            return path
        }
        let source = try ConfigMapping(node, path: name(key))
        try source.allowOnly(["credential"])
        guard let credential = try source.string("credential") else { throw .missingKey(source.name("credential")) }
        return try environment.credentialPath(credential, key: source.name("credential"))
    }

    public static func readSecretFile(_ path: String, key: String) throws(ConfigurationError) -> Secret {
        guard let data = FileManager.default.contents(atPath: path), var text = String(data: data, encoding: .utf8) else {
            throw .invalidValue(key: key, reason: "cannot read secret file \(path)")
        }
        // Files written by `echo` end in a newline that is not part of the secret.
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        guard !text.isEmpty else { throw .invalidValue(key: key, reason: "secret file \(path) is empty") }
        return Secret(text)
    }
}
