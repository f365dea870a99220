import APNs
import ConfigSupport
import HTTP2Transport
import Testing
@testable import PushService

/// `apps[].apns` as a list: an app's several APNs configurations (a production and a debug
/// build, a second bundle), each named, one the default.
@Suite(.timeLimit(.minutes(5))) struct APNsConfigurationListTests {
    static let tokenAuth = APNsAppConfigurationTests.tokenAuth

    static func parse(_ apns: String) throws -> APNsAppConfiguration {
        try #require(try RelayConfiguration.parse(yaml: APNsAppConfigurationTests.yaml(apns: apns)).apps[0].apns)
    }

    @Test func theDefaultCarriesTheAppsSettingsAndEachConfigurationItsConnection() throws {
        let apns = try Self.parse(
            """
            - name: debug
              topic: com.example.app
              environment: {url: "https://127.0.0.1:2198", tokens: sandbox}
              \(Self.tokenAuth)
              pool_size: 1
            - name: production
              default: true
              topic: com.example.app
              \(Self.tokenAuth)
              badge: false
              interruption_level: passive
            - name: admin
              topic: com.example.admin
              environment: sandbox
              auth: {certificate: {cert_file: c.pem, key_file: c.key}}
            """)
        #expect(apns.name == "production" && apns.environment == .production && apns.options.badge == false)
        #expect(apns.options.presentation.interruptionLevel == .passive)
        #expect(apns.others.map(\.name) == ["debug", "admin"])
        #expect(
            apns.others[0].environment == .custom(endpoint: TransportEndpoint(host: "127.0.0.1", port: 2198), caFile: nil, sandbox: true))
        #expect(apns.configurationNames == ["production", "debug", "admin"])
        #expect(apns.connectionBudget == apns.poolSize + 1 + apns.others[1].poolSize)
        // The debug build's tokens and the release build's are tried in each other's environment;
        // the admin app's bundle has no partner.
        #expect(apns.environmentFallbacks == ["production": "debug", "debug": "production"])
        #expect(
            apns.credentialFiles.map(\.key) == [
                "production.auth.token.key_file", "debug.auth.token.key_file", "admin.auth.certificate.key_file",
            ])
    }

    @Test func withoutADefaultTheFirstIsIt() throws {
        let apns = try Self.parse(
            """
            - {name: a, topic: t, \(Self.tokenAuth)}
            - {name: b, topic: t, environment: sandbox, \(Self.tokenAuth)}
            """)
        #expect(apns.name == "a" && apns.others.map(\.name) == ["b"])
    }

    @Test(arguments: [
        ("- {topic: t, \(tokenAuth)}", ConfigurationError.missingKey("apps[0].apns[0].name")),
        (
            "- {name: a, topic: t, \(tokenAuth)}\n- {name: a, topic: t, \(tokenAuth)}",
            .invalidValue(key: "apps[0].apns[1].name", reason: "\"a\" is listed twice")
        ),
        (
            "- {name: a, default: true, topic: t, \(tokenAuth)}\n- {name: b, default: true, topic: t, \(tokenAuth)}",
            .invalidValue(key: "apps[0].apns[1].default", reason: "only one configuration is the default")
        ),
        (
            "- {name: a, topic: t, \(tokenAuth)}\n- {name: b, topic: t, badge: false, \(tokenAuth)}",
            .invalidValue(
                key: "apps[0].apns[1].badge", reason: "is the app's, not one configuration's: set it on the default configuration")
        ),
        (
            "- {name: \"a b\", topic: t, \(tokenAuth)}",
            .invalidValue(key: "apps[0].apns[0].name", reason: "must be 1 to 64 letters, digits, '.', '_' or '-'")
        ),
        ("[]", .invalidValue(key: "apps[0].apns", reason: "must list at least one configuration")),
        (
            "- {name: a, topic: t, environment: {url: \"https://h:1\", tokens: beta}, \(tokenAuth)}",
            .invalidValue(key: "apps[0].apns[0].environment.tokens", reason: "\"beta\" is not production or sandbox")
        ),
    ])
    func refusesWhatCannotWork(apns: String, expected: ConfigurationError) {
        #expect(throws: expected) { try Self.parse(apns) }
    }
}
