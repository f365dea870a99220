import TestSupport
import Foundation
import Testing
@testable import PushService

/// The documented check step, `push-relay check-config` as root outside systemd, on the files an
/// operator starts from: `Config/push-relay.yaml` (from source) and the package's
/// `packaging/deb/push-relay.yaml`, with the secrets in a credentials directory laid out as the
/// unit loads them (`/etc/push-relay/credentials/NAME`), here holding the development keys.
@Suite(.timeLimit(.minutes(5))) struct ExampleConfigurationCheckTests {
    /// A credentials directory as docs/operations.md makes it: 0700, each file 0600.
    static func credentials(apnsKey: Bool) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.url.path)
        try directory.write("api-token", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n")
        if apnsKey {
            try directory.write("apns-key.p8", try String(contentsOfFile: Repository.devCert("AuthKey_DEVKEY1234.p8"), encoding: .utf8))
        }
        return directory
    }

    static func checkConfig(_ arguments: [String], environment: [String: String] = ["CREDENTIALS_DIRECTORY": ""]) async throws -> (
        status: Int32?, out: String, err: String
    ) {
        let process = try RelayProcess(["check-config"] + arguments, environment: environment)
        defer { process.stop() }
        let status = await process.exitStatus()
        return (status, process.stdout, process.stderr)
    }

    @Test func theSourceExamplePassesWithTheKeysInTheCredentialsDirectory() async throws {
        let credentials = try Self.credentials(apnsKey: true)
        let result = try await Self.checkConfig([
            "--config", Repository.path("Config/push-relay.yaml"), "--credentials-dir", credentials.url.path,
        ])
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.out.contains("token (key \(credentials.path("apns-key.p8")), key id ABC123DEFG"), "\(result.out)")
        #expect(result.out.contains("configuration OK"))
        #expect(!result.out.contains("0123456789abcdef0123") && !result.err.contains("0123456789abcdef0123"), "the token is never shown")
    }

    @Test func systemdsDirectoryIsReadWhenSetAndNoneIsGiven() async throws {
        let credentials = try Self.credentials(apnsKey: true)
        let result = try await Self.checkConfig(
            ["--config", Repository.path("Config/push-relay.yaml")], environment: ["CREDENTIALS_DIRECTORY": credentials.url.path])
        #expect(result.status == 0, "stderr: \(result.err)")
    }

    @Test func withoutOneTheUnitsDirectoryIsRead() async throws {
        try #require(
            !FileManager.default.fileExists(atPath: "/etc/push-relay/credentials/api-token"),
            "this machine has a relay's credentials installed")
        let result = try await Self.checkConfig(["--config", Repository.path("Config/push-relay.yaml")])
        #expect(result.status == 78)
        #expect(result.err.contains("systemd credential \"api-token\" is not in /etc/push-relay/credentials"), "\(result.err)")
    }

    @Test func aMissingKeyNamesTheUnitLineToAdd() async throws {
        let credentials = try Self.credentials(apnsKey: false)
        let result = try await Self.checkConfig([
            "--config", Repository.path("Config/push-relay.yaml"), "--credentials-dir", credentials.url.path,
        ])
        #expect(result.status == 78)
        #expect(result.err.contains("apps[0].apns.auth.token.key_file.credential"), "\(result.err)")
        // The fix names the directory checked, not the unit's default.
        #expect(result.err.contains("put the file in \(credentials.url.path) and add"), "\(result.err)")
        #expect(result.err.contains("LoadCredential=apns-key.p8:\(credentials.path("apns-key.p8"))"), "\(result.err)")
    }

    /// The example copied and not edited: usable, but every placeholder is named; `--strict`
    /// makes that exit 2.
    @Test func theUneditedExampleNamesItsPlaceholders() async throws {
        let credentials = try Self.credentials(apnsKey: true)
        let arguments = ["--config", Repository.path("Config/push-relay.yaml"), "--credentials-dir", credentials.url.path]
        let result = try await Self.checkConfig(arguments)
        #expect(result.status == 0, "stderr: \(result.err)")
        for key in ["apps[0].app_id", "apps[0].apns.topic", "apps[0].apns.auth.token.key_id", "apps[0].apns.auth.token.team_id"] {
            #expect(result.err.contains("warning: app 00000000-0000-4000-8000-000000000001: \(key) is still the example's"), "\(key)")
        }
        let strict = try await Self.checkConfig(arguments + ["--strict"])
        #expect(strict.status == 2, "stderr: \(strict.err)")
        #expect(!strict.out.contains("configuration OK"))
    }

    /// The host files behind LoadCredential=: a directory and a key every user can read are
    /// warnings (systemd's copies are private, the relay starts), and `--strict` fails on them.
    @Test func credentialFilesOthersCanReadAreWarnings() async throws {
        let credentials = try Self.credentials(apnsKey: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: credentials.url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: credentials.path("apns-key.p8"))
        let arguments = ["--config", Repository.path("Config/push-relay.yaml"), "--credentials-dir", credentials.url.path]
        let result = try await Self.checkConfig(arguments)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(
            result.err.contains("warning: credentials: the credentials directory \(credentials.url.path) is open to every user (mode 0755)")
        )
        #expect(
            result.err.contains(
                "warning: credentials: credential apns-key.p8: \(credentials.path("apns-key.p8")) is readable by every user"))
        #expect(!result.err.contains("credential api-token:"), "the token is 0600: \(result.err)")
        #expect(try await Self.checkConfig(arguments + ["--strict"]).status == 2)
    }

    /// A key file that is not a key stops `serve` with 78, and so `check-config`.
    @Test func aKeyThatIsNotAKeyIsExit78() async throws {
        let credentials = try Self.credentials(apnsKey: false)
        _ = try credentials.write("apns-key.p8", "not a key\n")
        let result = try await Self.checkConfig([
            "--config", Repository.path("Config/push-relay.yaml"), "--credentials-dir", credentials.url.path,
        ])
        #expect(result.status == 78, "stderr: \(result.err)")
        #expect(result.err.contains("error: app 00000000-0000-4000-8000-000000000001: apns.auth: "), "\(result.err)")
    }

    @Test func thePackagesConfigurationPassesWithItsGeneratedToken() async throws {
        let credentials = try Self.credentials(apnsKey: false)
        let result = try await Self.checkConfig([
            "--config", Repository.path("packaging/deb/push-relay.yaml"), "--credentials-dir", credentials.url.path,
        ])
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err.contains("no apns, fcm, hms or webpush settings"))
    }

    /// The package's "configure an app" step: its commented `apns` block switched on, the key
    /// installed as `apns-key.p8` beside the token.
    @Test func thePackagesConfigurationWithItsAPNsBlockSwitchedOnPasses() async throws {
        let credentials = try Self.credentials(apnsKey: true)
        let text = try String(contentsOfFile: Repository.path("packaging/deb/push-relay.yaml"), encoding: .utf8)
        var inAPNs = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line == "    # apns:" { inAPNs = true }
            guard inAPNs, line.hasPrefix("    # ") else { return String(line) }
            return "    " + line.dropFirst(6)
        }
        #expect(inAPNs, "the package's configuration has a commented apns block")
        let config = try credentials.write("push-relay.yaml", lines.joined(separator: "\n"))
        let result = try await Self.checkConfig(["--config", config, "--credentials-dir", credentials.url.path])
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.out.contains("topic com.example.chat"), "\(result.out)")
    }
}
