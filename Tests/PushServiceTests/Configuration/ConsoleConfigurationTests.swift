import Foundation
import Testing
@testable import PushService

@Suite struct ConsoleConfigurationTests {
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
