import ConfigSupport
import Foundation
import TestSupport
import Testing
@testable import PushService

/// `migrate-store`'s `--from` and `--to`.
@Suite(.timeLimit(.minutes(5))) struct StoreLocationTests {
    static let none = ConfigurationEnvironment(variables: [:])

    @Test func sqliteFilesAndPostgresURLs() throws {
        #expect(try StoreLocation.parse("sqlite:/var/lib/a.sqlite", option: "--from", environment: Self.none).path == "/var/lib/a.sqlite")
        #expect(try StoreLocation.parse("relative.sqlite", option: "--from", environment: Self.none).path == "relative.sqlite")
        for text in ["postgres://u:pw@db:6543/push", "postgres:postgres://u:pw@db:6543/push", "postgresql://u:pw@db:6543/push"] {
            guard case .postgres(let settings) = try StoreLocation.parse(text, option: "--to", environment: Self.none).backend else {
                Issue.record("\(text) is not PostgreSQL")
                continue
            }
            #expect(settings.location == "postgres://u@db:6543/push")
            #expect(settings.password?.value == "pw")
        }
        #expect(throws: ConfigurationError.self) { try StoreLocation.parse("postgres://db/push", option: "--to", environment: Self.none) }
        #expect(throws: ConfigurationError.self) { try StoreLocation.parse("sqlite:", option: "--from", environment: Self.none) }
    }

    /// Neither a PostgreSQL URL's options nor another scheme's URL is repeated: either may hold a password.
    @Test func errorsNeverRepeatAURL() {
        for text in ["postgres://u:pw-secret@h/db?password=x-secret&sslpassword=y-secret", "mysql://u:pw-secret@h/db"] {
            #expect {
                try StoreLocation.parse(text, option: "--to", environment: Self.none)
            } throws: { error in
                "\(error)".contains("--to") && !"\(error)".contains("secret")
            }
        }
    }

    /// `--password-file` readable by every user is refused, like a secret file in the configuration.
    @Test func aPasswordFileEveryoneCanReadIsRefused() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("pw", "from-file\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        #expect {
            try StoreLocation.parse("postgres://u@db/push", option: "--to", passwordFile: file, environment: Self.none)
        } throws: { error in
            guard case ConfigurationError.invalidValue(let key, let reason) = error else { return false }
            return key == "--password-file" && reason.contains("readable by every user")
        }
    }

    @Test func thePasswordComesFromAFileAVariableOrPGPASSWORD() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)")
        try "from-file\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        defer { try? FileManager.default.removeItem(at: file) }
        let environment = ConfigurationEnvironment(variables: ["PG_PW": "from-env", "PGPASSWORD": "from-libpq"])
        func password(_ file: String? = nil, _ variable: String? = nil) throws -> String? {
            let location = try StoreLocation.parse(
                "postgres://u@db/push", option: "--to", passwordFile: file, passwordEnv: variable, environment: environment)
            guard case .postgres(let settings) = location.backend else { return nil }
            return settings.password?.value
        }
        #expect(try password(file.path) == "from-file")
        #expect(try password(nil, "PG_PW") == "from-env")
        #expect(try password() == "from-libpq")
        #expect(throws: ConfigurationError.self) { try password(nil, "UNSET") }
        #expect(throws: ConfigurationError.self) {
            try StoreLocation.parse("config:/etc/x.yaml", option: "--to", passwordEnv: "PG_PW", environment: environment)
        }
    }
}
