import ConfigSupport
import TestSupport
import APNs
import Foundation
import HTTP2Transport
import Logging
import PushCore
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct APNsAppConfigurationTests {
    static func yaml(apns: String, top: String = "", token: String = "aaaaaaaaaaaaaaaaaaaa") -> String {
        """
        listen: {}
        database: {path: p}
        \(top)
        apps:
          - app_id: A
            api_token: \(token)
            apns:
        \(apns.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
        """
    }

    static let tokenAuth = "auth: {token: {key_file: k.p8, key_id: ABC123DEFG, team_id: DEF123GHIJ}}"

    @Test func parsesEveryAPNsKey() throws {
        let config = try RelayConfiguration.parse(
            yaml: Self.yaml(
                apns: """
                    topic: com.example.app
                    environment: sandbox
                    \(Self.tokenAuth)
                    pool_size: 4
                    push_type: voip
                    priority: 5
                    default_expiration: 12h
                    badge: false
                    default_sound: ping.caf
                    mutable_content: true
                    content_available: yes
                    push_admin_messages: true
                    push_when_online: true
                    require_auth_for_files: true
                    thread_id: none
                    interruption_level: passive
                    mention_interruption_level: time-sensitive
                    relevance_score: 0.75
                    target_content_id: "chat/{channel_url}"
                    filter_criteria: "{channel_custom_type}"
                    """,
                top: "log_level: warning\nmetrics: {token: metrics-token-0123456789}\ndelivery: {prune_after: 2d, shutdown_grace: 500ms}"))
        let apns = try #require(config.apps[0].apns)
        #expect(apns.topic == "com.example.app")
        #expect(apns.environment == .sandbox)
        #expect(apns.auth == .token(keyFile: "k.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ"))
        #expect(apns.poolSize == 4)
        #expect(apns.pushType == .voip)
        #expect(apns.options.maxPayloadBytes == 5120)
        #expect(apns.priority == .low)
        #expect(apns.defaultExpiration == .seconds(43_200))
        #expect(apns.options.badge == false)
        #expect(apns.options.defaultSound == "ping.caf")
        #expect(apns.options.mutableContent && apns.options.contentAvailable && apns.options.pushAdminMessages)
        #expect(apns.options.multiDevice && apns.options.requireAuthForFiles)
        #expect(
            apns.options.presentation
                == AlertPresentation(
                    threadByChannel: false, interruptionLevel: .passive, mentionInterruptionLevel: .timeSensitive, relevanceScore: 0.75,
                    targetContentID: "chat/{channel_url}", filterCriteria: "{channel_custom_type}"))
        #expect(config.logLevel == .warning)
        #expect(config.metrics.token?.value == "metrics-token-0123456789")
        #expect(config.delivery == DeliveryConfiguration(pruneAfter: .seconds(172_800), shutdownGrace: .milliseconds(500)))
    }

    @Test func defaultsAndTheOtherAuthAndEnvironmentForms() throws {
        let custom = try RelayConfiguration.parse(
            yaml: Self.yaml(
                apns: """
                    topic: t
                    environment: {url: "https://127.0.0.1:2197", ca_file: ca.pem}
                    auth: {certificate: {p12_file: c.p12, password: pw}}
                    """))
        let apns = try #require(custom.apps[0].apns)
        #expect(apns.environment == .custom(endpoint: TransportEndpoint(host: "127.0.0.1", port: 2197), caFile: "ca.pem"))
        #expect(apns.auth == .p12(file: "c.p12", password: Secret("pw")))
        #expect(apns.poolSize == ProviderPoolSize.defaultSize)
        #expect(apns.defaultExpiration == .seconds(86_400))
        #expect(apns.options == AppPushOptions())
        #expect(custom.logLevel == .info)

        let pem = try RelayConfiguration.parse(yaml: Self.yaml(apns: "topic: t\nauth: {certificate: {cert_file: c.pem, key_file: c.key}}"))
        #expect(pem.apps[0].apns?.auth == .pem(certificateFile: "c.pem", keyFile: "c.key"))
        #expect(pem.apps[0].apns?.environment == .production)

        // The key id can come from Apple's file name AuthKey_<KEYID>.p8.
        let named = try RelayConfiguration.parse(
            yaml: Self.yaml(apns: "topic: t\nauth: {token: {key_file: /k/AuthKey_ABC123DEFG.p8, team_id: DEF123GHIJ}}"))
        #expect(named.apps[0].apns?.auth == .token(keyFile: "/k/AuthKey_ABC123DEFG.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ"))
    }

    @Test(arguments: [
        ("topic: t\n\(tokenAuth)\npool: 3", ConfigurationError.unknownKey("apps[0].apns.pool")),
        (
            "topic: t\nenvironment: staging\n\(tokenAuth)",
            .invalidValue(
                key: "apps[0].apns.environment",
                reason:
                    "\"staging\" is not production, sandbox (or development), https://HOST:PORT or "
                    + "{url: https://HOST:PORT, ca_file: PATH, tokens: sandbox}"
            )
        ),
        (
            "topic: t\nenvironment: {url: \"http://x:1\"}\n\(tokenAuth)",
            .invalidValue(key: "apps[0].apns.environment.url", reason: "must be https://HOST:PORT")
        ),
        ("topic: t\nauth: {password: {file: x}}", .unknownKey("apps[0].apns.auth.password")),
        ("topic: t\nauth: {}", .invalidValue(key: "apps[0].apns.auth", reason: "give exactly one of token or certificate")),
        (
            "topic: t\nauth: {token: {key_file: k.p8, key_id: SHORT, team_id: DEF123GHIJ}}",
            .invalidValue(key: "apps[0].apns.auth.token.key_id", reason: "must be 10 letters or digits")
        ),
        ("topic: t\nauth: {token: {key_file: k.p8, key_id: ABC123DEFG}}", .missingKey("apps[0].apns.auth.token.team_id")),
        ("topic: t\nauth: {certificate: {cert_file: c.pem}}", .missingKey("apps[0].apns.auth.certificate.key_file")),
        ("\(tokenAuth)", .missingKey("apps[0].apns.topic")),
        ("topic: t\n\(tokenAuth)\npool_size: 0", .invalidValue(key: "apps[0].apns.pool_size", reason: "must be 1...64")),
        ("topic: t\n\(tokenAuth)\nbadge: maybe", .invalidValue(key: "apps[0].apns.badge", reason: "must be true or false")),
        (
            "topic: t\n\(tokenAuth)\ndefault_expiration: soon",
            .invalidValue(
                key: "apps[0].apns.default_expiration", reason: "must be seconds or a number with ms, s, m, h or d (e.g. 30s, 12h)")
        ),
        (
            "topic: t\n\(tokenAuth)\npush_type: loud",
            .invalidValue(
                key: "apps[0].apns.push_type", reason: "must be one of \(APNsPushType.allCases.map(\.rawValue).joined(separator: ", "))")
        ),
        ("topic: t\n\(tokenAuth)\npriority: 7", .invalidValue(key: "apps[0].apns.priority", reason: "must be 10, 5 or 1")),
        ("topic: t\n\(tokenAuth)\nthread_id: user", .invalidValue(key: "apps[0].apns.thread_id", reason: "must be channel or none")),
        (
            "topic: t\n\(tokenAuth)\ninterruption_level: loud",
            .invalidValue(
                key: "apps[0].apns.interruption_level", reason: "must be one of passive, active, time-sensitive, critical")
        ),
        (
            "topic: t\n\(tokenAuth)\nrelevance_score: 2",
            .invalidValue(key: "apps[0].apns.relevance_score", reason: "must be a number from 0 to 1")
        ),
    ])
    func rejectsInvalidAPNsSettings(apns: String, expected: ConfigurationError) {
        #expect(throws: expected) { try RelayConfiguration.parse(yaml: Self.yaml(apns: apns)) }
    }

    /// `development` is `sandbox` under Apple's and Sendbird's name (the aps-environment
    /// entitlement, Sendbird's `apns_cert_env_type`); a bare https URL is `{url: …}` without a CA.
    @Test func developmentIsSandboxAndABareURLACustomEndpoint() throws {
        for (written, expected) in [
            ("development", APNsEnvironmentSetting.sandbox), ("sandbox", .sandbox), ("production", .production), ("~", .production),
            ("\"https://127.0.0.1:2197\"", .custom(endpoint: TransportEndpoint(host: "127.0.0.1", port: 2197), caFile: nil)),
        ] {
            let config = try RelayConfiguration.parse(yaml: Self.yaml(apns: "topic: t\nenvironment: \(written)\n\(Self.tokenAuth)"))
            #expect(config.apps[0].apns?.environment == expected, "\(written)")
            #expect(try APNsEnvironmentSetting.parse(written == "~" ? "production" : written, option: "--environment") == expected)
        }
    }

    @Test func rejectsABadLogLevel() {
        #expect(
            throws: ConfigurationError.invalidValue(
                key: "log_level", reason: "must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        ) {
            try RelayConfiguration.parse(yaml: Self.yaml(apns: "topic: t\n\(Self.tokenAuth)", top: "log_level: loud"))
        }
    }

    @Test func secretsFromAFileTheEnvironmentAndSystemdCredentials() throws {
        let directory = try TemporaryDirectory()
        let tokenFile = try directory.write("token", "file-token-0123456789\n")
        try FileManager.default.createDirectory(atPath: directory.path("creds"), withIntermediateDirectories: true)
        try "credential-token-0123456789".write(toFile: directory.path("creds/api-token"), atomically: true, encoding: .utf8)
        try "p12-password".write(toFile: directory.path("creds/p12-password"), atomically: true, encoding: .utf8)
        try Data().write(to: URL(fileURLWithPath: directory.path("creds/push.p12")))
        let environment = ConfigurationEnvironment(variables: [
            "APP_TOKEN": "env-token-0123456789", "CREDENTIALS_DIRECTORY": directory.path("creds"),
        ])
        let config = try RelayConfiguration.parse(
            yaml: """
                listen: {}
                database: {path: p}
                apps:
                  - {app_id: A, api_token: {file: \(tokenFile)}}
                  - {app_id: B, api_token: {env: APP_TOKEN}}
                  - app_id: C
                    api_token: {credential: api-token}
                    apns:
                      topic: t
                      auth: {certificate: {p12_file: {credential: push.p12}, password: {credential: p12-password}}}
                """, environment: environment)
        #expect(config.apps.map(\.apiToken.value) == ["file-token-0123456789", "env-token-0123456789", "credential-token-0123456789"])
        #expect(config.apps[2].apns?.auth == .p12(file: directory.path("creds/push.p12"), password: Secret("p12-password")))
    }

    @Test func missingSecretsNameTheKey() throws {
        let base = "listen: {}\ndatabase: {path: p}\napps:\n  - app_id: A\n    api_token: "
        #expect(throws: ConfigurationError.invalidValue(key: "apps[0].api_token.env", reason: "environment variable NOPE is not set")) {
            try RelayConfiguration.parse(yaml: base + "{env: NOPE}", environment: ConfigurationEnvironment(variables: [:]))
        }
        #expect(
            throws: ConfigurationError.invalidValue(key: "apps[0].api_token.file", reason: "cannot read secret file /nonexistent/token")
        ) {
            try RelayConfiguration.parse(yaml: base + "{file: /nonexistent/token}", environment: ConfigurationEnvironment(variables: [:]))
        }
        #expect(
            throws: ConfigurationError.invalidValue(
                key: "apps[0].api_token.credential",
                reason:
                    "names systemd credential \"tok\" but CREDENTIALS_DIRECTORY is not set (add LoadCredential=tok:/etc/push-relay/credentials/tok to the unit)"
            )
        ) {
            try RelayConfiguration.parse(yaml: base + "{credential: tok}", environment: ConfigurationEnvironment(variables: [:]))
        }
        #expect(throws: ConfigurationError.invalidValue(key: "apps[0].api_token", reason: "give exactly one of file, env or credential")) {
            try RelayConfiguration.parse(yaml: base + "{env: A, file: b}", environment: ConfigurationEnvironment(variables: ["A": "x"]))
        }
    }

    @Test(arguments: [
        ("30", Duration.seconds(30)), ("500ms", .milliseconds(500)), ("15m", .seconds(900)), ("2h", .seconds(7200)),
        ("7d", .seconds(604_800)),
    ])
    func durations(text: String, expected: Duration) {
        #expect(ConfigDuration.parse(text) == expected)
    }

    /// The quick start's keys live in `.quickstart/keys`, which scripts/quickstart.sh writes (a clean
    /// clone has none): the test writes them the same way into a directory of its own.
    @Test func theQuickstartConfigurationIsValid() throws {
        let keys = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("quickstart-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: keys) }
        for (name, value) in [("hms-client-secret", "quickstart-hms-client-secret"), ("api-token", "quickstart-token-0123456789abcdef")] {
            #expect(
                FileManager.default.createFile(
                    atPath: keys.appendingPathComponent(name).path, contents: Data(value.utf8), attributes: [.posixPermissions: 0o600]))
        }
        // The development VAPID key, copied as the script copies it.
        let vapid = try Data(contentsOf: URL(fileURLWithPath: Repository.path("certs/dev/vapid-dev.pem")))
        #expect(
            FileManager.default.createFile(
                atPath: keys.appendingPathComponent("vapid-dev.pem").path, contents: vapid, attributes: [.posixPermissions: 0o600]))
        let text = try String(contentsOfFile: Repository.path("Config/quickstart.yaml"), encoding: .utf8)
            .replacingOccurrences(of: ".quickstart/keys/", with: keys.path + "/")
        let config = try RelayConfiguration.parse(yaml: text)
        #expect(config.apps.first?.apns?.environment.caFile == "certs/dev/ca.pem")
        #expect(config.apps.first?.hms?.appID == "104783201")
        #expect(config.apps.first?.providers.providers.map(\.rawValue) == ["apns", "fcm", "hms", "webpush"])
    }
}
