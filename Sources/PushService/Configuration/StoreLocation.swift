import ConfigSupport
import PushStorePostgres

/// A store named on the command line (`push-relay migrate-store --from … --to …`):
///
/// - `sqlite:PATH` (or a bare path): an SQLite file;
/// - `postgres://user@host[:port]/database` (also written `postgres:postgres://…`): a PostgreSQL
///   database, its password from the URL, `passwordFile`, `passwordEnv`, or else `PGPASSWORD`
///   as for `psql`;
/// - `config:PATH`: the `database` of a relay configuration file, password sources and all.
///
/// Errors never quote a URL: its user info and options may hold a password.
public enum StoreLocation {
    public static func parse(
        _ text: String, option: String, passwordFile: String? = nil, passwordEnv: String? = nil,
        environment: ConfigurationEnvironment = .process
    ) throws(ConfigurationError) -> DatabaseConfiguration {
        let passwordGiven = passwordFile != nil || passwordEnv != nil
        if let path = text.dropPrefix("config:") {
            guard !passwordGiven else {
                throw .invalidValue(key: option, reason: "a configuration file names its own password; drop --password-file/--password-env")
            }
            return try RelayConfiguration.load(path: path, environment: environment).database
        }
        var url = text
        for scheme in ["postgres:", "postgresql:"] where url.hasPrefix(scheme) && !url.hasPrefix(scheme + "//") {
            url = String(url.dropFirst(scheme.count))
        }
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            // Another scheme's URL is no file name, and may hold a password: refused unquoted.
            if text.contains("://"), !text.hasPrefix("sqlite:") {
                throw .invalidValue(key: option, reason: "is not postgres://USER@HOST[:PORT]/DATABASE, sqlite:PATH or config:PATH")
            }
            guard !passwordGiven else { throw .invalidValue(key: option, reason: "an SQLite file takes no password") }
            let path = text.dropPrefix("sqlite:") ?? text
            guard !path.isEmpty else { throw .invalidValue(key: option, reason: "names no file (sqlite:PATH)") }
            return DatabaseConfiguration(path: path)
        }
        var settings = try PostgresSettings(url: url, key: option)
        settings.poolSize = 2
        settings.nodeID = "migrate-store"
        if let passwordFile {
            if let error = CredentialFileAudit(files: [CredentialFile(key: "--password-file", path: passwordFile)]).error { throw error }
            settings.password = try ConfigMapping.readSecretFile(passwordFile, key: "--password-file")
        } else if let passwordEnv {
            guard let value = environment.variables[passwordEnv] else {
                throw .invalidValue(key: "--password-env", reason: "environment variable \(passwordEnv) is not set")
            }
            settings.password = Secret(value)
        } else if settings.password == nil, let value = environment.variables["PGPASSWORD"] {
            settings.password = Secret(value)
        }
        return DatabaseConfiguration(postgres: settings)
    }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
