import ConfigSupport
import Foundation
import TestSupport
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct ConsoleConfigurationTests {
    private func parse(_ console: String, environment: [String: String] = [:]) throws -> ConsoleConfiguration {
        try RelayConfiguration.parse(
            yaml: RelayConfigurationTests.valid + "\n" + console, environment: ConfigurationEnvironment(variables: environment)
        ).console
    }

    @Test func offUnlessEnabledWithThirtyMinuteSessions() throws {
        let absent = try RelayConfiguration.parse(yaml: RelayConfigurationTests.valid).console
        #expect(absent == ConsoleConfiguration())
        #expect(!absent.enabled)
        #expect(absent.sessionIdleTimeout == .seconds(1800))
        #expect(absent.trustedProxies == ["127.0.0.1", "::1"])
        #expect(try parse("console: {enabled: true}").enabled)
    }

    @Test func usersTakeTheirSecretsLikeEveryOtherSecret() throws {
        let console = try parse(
            """
            console:
              enabled: true
              session_idle_timeout: 10m
              trusted_proxies: [10.0.0.5]
              users:
                - {name: ops, secret: {env: OPS_SECRET}}
                - {name: support, secret: support-secret-0123456789, apps: ["12345"]}
            """, environment: ["OPS_SECRET": "from-the-environment-0123"])
        #expect(console.sessionIdleTimeout == .seconds(600))
        #expect(console.trustedProxies == ["10.0.0.5"])
        #expect(console.users.map(\.name) == ["ops", "support"])
        #expect(console.users[0].secret.value == "from-the-environment-0123")
        #expect(console.users[0].apps == nil)
        #expect(console.users[1].apps == ["12345"])
        #expect(!"\(console.users[0].secret)".contains("environment"), "a secret prints redacted")
    }

    /// The example configuration's commented `console:` block, uncommented, is a valid one.
    @Test func theExamplesConsoleBlockParses() throws {
        let text = try String(contentsOfFile: Repository.path("Config/push-relay.yaml"), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("# console:") })
        var index = start
        while index < lines.count, lines[index].hasPrefix("#") {
            lines[index] = String(lines[index].dropFirst(2))
            index += 1
        }
        let yaml = lines.joined(separator: "\n").replacingOccurrences(
            of: "{credential: console-support}", with: "{env: CONSOLE_SECRET}")
        let credentials = try ExampleCredentials()
        let console = try RelayConfiguration.parse(
            yaml: yaml, environment: credentials.environment(["CONSOLE_SECRET": "a-long-enough-secret"])
        ).console
        #expect(console.enabled)
        #expect(console.users.map(\.name) == ["support"])
    }

    @Test func mistakesAreRefusedNamingTheKey() {
        let cases: [(String, String)] = [
            ("console: {enabled: true, session_idle_timeout: 5s}", "console.session_idle_timeout"),
            ("console: {enabled: true, colour: blue}", "console.colour"),
            ("console: {users: [{name: ops, secret: short}]}", "console.users[0].secret"),
            ("console: {users: [{name: ops}]}", "console.users[0].secret"),
            ("console: {users: [{name: ops, secret: ops-secret-0123456789, apps: [nope]}]}", "console.users[0].apps[0]"),
            (
                "console: {users: [{name: ops, secret: ops-secret-0123456789}, {name: ops, secret: ops-secret-0123456789}]}",
                "console.users[1].name"
            ),
        ]
        for (yaml, key) in cases {
            let error = #expect(throws: ConfigurationError.self) { try parse(yaml) }
            #expect(error.map { "\($0)".contains("\"\(key)\"") } == true, "\(yaml): \(String(describing: error))")
        }
    }
}
