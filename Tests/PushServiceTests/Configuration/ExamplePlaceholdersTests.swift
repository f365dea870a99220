import ConfigSupport
import Foundation
import TestSupport
import Testing
@testable import PushService

/// The example's values left in a configuration: `check-config` names each key still holding one.
@Suite(.timeLimit(.minutes(5))) struct ExamplePlaceholdersTests {
    /// The development key, copied 0600 (a checkout's 0644 file would be refused).
    static func key(in directory: TemporaryDirectory) throws -> String {
        try directory.write(
            "AuthKey_DEVKEY1234.p8", try String(contentsOfFile: Repository.devCert("AuthKey_DEVKEY1234.p8"), encoding: .utf8))
    }

    static func messages(_ yaml: String) throws -> [String] {
        let configuration = try RelayConfiguration.parse(yaml: yaml, environment: ConfigurationEnvironment(variables: [:]))
        return ExamplePlaceholders.findings(in: configuration).map(\.message)
    }

    static func app(_ body: String) -> String {
        "listen: {}\ndatabase: {path: p}\napps:\n  - app_id: 00000000-0000-4000-8000-000000000001\n    api_token: api-token-0123456789abcdef\n"
            + body
    }

    @Test func theExamplesAPNsValuesAreEachNamed() throws {
        let directory = try TemporaryDirectory()
        let key = try Self.key(in: directory)
        let messages = try Self.messages(
            Self.app(
                "    apns: {topic: com.example.chat, environment: sandbox, auth: {token: {key_file: \(key), key_id: ABC123DEFG, team_id: DEF123GHIJ}}}"
            ))
        #expect(
            messages == [
                "apps[0].app_id is still the example's 00000000-0000-4000-8000-000000000001: set the app's Sendbird application id",
                "apps[0].apns.topic is still the example's com.example.chat: set the iOS app's bundle id",
                "apps[0].apns.auth.token.key_id is still the example's ABC123DEFG: set the id of the .p8 key (from Apple)",
                "apps[0].apns.auth.token.team_id is still the example's DEF123GHIJ: set the Apple developer team's id",
            ])
    }

    @Test func providerValuesCountOnlyAgainstTheProvider() throws {
        let directory = try TemporaryDirectory()
        let key = try Self.key(in: directory)
        let messages = try Self.messages(
            Self.app(
                """
                    apns:
                      topic: com.example.chat
                      environment: {url: "https://127.0.0.1:2197"}
                      auth: {token: {key_file: \(key), key_id: ABC123DEFG, team_id: DEF123GHIJ}}
                    hms: {app_id: "104783201", client_secret: hms-secret-0123456789, url: "https://127.0.0.1:2199", token_url: "https://127.0.0.1:2199/t"}
                """))
        #expect(messages.count == 1 && messages[0].hasPrefix("apps[0].app_id"), "\(messages)")
    }

    @Test func realValuesSayNothing() throws {
        let messages = try Self.messages(
            "listen: {}\ndatabase: {path: p}\napps: [{app_id: 9C1E6E0A-5D2B-4A53-8E4E-21B3A3F2C001, api_token: api-token-0123456789abcdef}]"
        )
        #expect(messages.isEmpty)
    }
}
