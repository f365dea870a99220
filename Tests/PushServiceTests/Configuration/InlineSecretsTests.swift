import ConfigSupport
import Foundation
import TestSupport
import Testing
@testable import PushService

#if canImport(Glibc)
    import Glibc
#endif

/// A configuration file holding secrets inline is as secret as they are: readable by others, it is
/// reported (a warning, at start, on reload and by `check-config`), as a `{file:}` secret would be.
@Suite(.timeLimit(.minutes(5))) struct InlineSecretsTests {
    static let everySecretInline = """
        listen: {}
        database: {postgres: {url: "postgres://relay:pg-secret@db.internal/relay", tls: disable}}
        metrics: {token: metrics-token-0123456789}
        apps:
          - app_id: A
            api_token: api-token-0123456789abcdef
            webhook_secret: hook-secret-0123456789
            hms: {app_id: "1234", client_secret: hms-secret-0123456789}
          - app_id: B
            api_token: {env: B_TOKEN}
        console:
          enabled: true
          users: [{name: support, secret: console-secret-0123456789}]
        """

    @Test func everyInlineSecretIsNamedAndNoOtherSource() throws {
        let configuration = try RelayConfiguration.parse(
            yaml: Self.everySecretInline, environment: ConfigurationEnvironment(variables: ["B_TOKEN": "b-token-0123456789abcdef"]))
        #expect(
            configuration.inlineSecretKeys == [
                "metrics.token", "database.postgres.password", "apps[0].api_token", "apps[0].webhook_secret",
                "apps[0].hms.client_secret", "console.users[0].secret",
            ])
    }

    @Test func theWebhookSecretDefaultingToTheTokenIsNotCountedTwice() throws {
        let configuration = try RelayConfiguration.parse(
            yaml: "listen: {}\ndatabase: {path: p}\napps: [{app_id: A, api_token: api-token-0123456789abcdef}]",
            environment: ConfigurationEnvironment(variables: [:]))
        #expect(configuration.inlineSecretKeys == ["apps[0].api_token"])
    }

    @Test(arguments: [
        (UInt32(0o644), UInt32(1000), "every user"), (0o640, 1000, "its group"), (0o600, 1000, nil), (0o640, 0, nil),
    ])
    func theFileIsJudgedByItsMode(mode: UInt32, owner: UInt32, readers: String?) {
        let warning = RelayConfiguration.inlineSecretWarning(path: "/etc/push-relay/push-relay.yaml", keys: ["apps[0].api_token"]) { _ in
            FileExposure.Access(mode: mode, owner: owner, group: 50)
        }
        guard let readers else {
            #expect(warning == nil)
            return
        }
        #expect(
            warning
                == "/etc/push-relay/push-relay.yaml holds secrets inline (apps[0].api_token) and is readable by \(readers) "
                + "(mode 0\(String(mode, radix: 8))): move each to a credential file ({credential: NAME}) or make the file private")
    }

    @Test func loadingAFileEveryoneCanReadWarnsAndAPrivateOneDoesNot() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "relay.yaml", "listen: {}\ndatabase: {path: p}\napps: [{app_id: A, api_token: api-token-0123456789abcdef}]")
        #expect(try RelayConfiguration.load(path: path, environment: ConfigurationEnvironment(variables: [:])).warnings.isEmpty)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let warnings = try RelayConfiguration.load(path: path, environment: ConfigurationEnvironment(variables: [:])).warnings
        #expect(warnings.count == 1 && warnings[0].hasPrefix("\(path) holds secrets inline (apps[0].api_token)"), "\(warnings)")
        #expect(!warnings[0].contains("api-token-0123"), "the secret itself is never shown")
    }

    @Test func noInlineSecretNoWarningWhateverTheMode() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("token", "api-token-0123456789abcdef")
        let path = try directory.write(
            "relay.yaml", "listen: {}\ndatabase: {path: p}\napps: [{app_id: A, api_token: {file: \(directory.path("token"))}}]")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(try RelayConfiguration.load(path: path, environment: ConfigurationEnvironment(variables: [:])).warnings.isEmpty)
    }
}
