import ConfigSupport
import Foundation
import TestSupport
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct RelayConfigurationTests {
    static let valid = """
        listen:
          host: 0.0.0.0
          port: 9090
        database:
          path: /tmp/relay.sqlite
        http:
          max_body_bytes: 2048
          max_connections: 100
          header_timeout: 5s
          body_timeout: 2m
          send_timeout: 45s
        delivery:
          retry_backoff: 500ms
          retry_max_backoff: 2m
        apps:
          - app_id: A
            api_token: aaaaaaaaaaaaaaaaaaaaaaaa
          - app_id: "12345"
            api_token: bbbbbbbbbbbbbbbbbbbbbbbb
        """

    @Test func parsesEveryKey() throws {
        let config = try RelayConfiguration.parse(yaml: Self.valid)
        #expect(config.listen == ListenConfiguration(host: "0.0.0.0", port: 9090))
        #expect(config.database.backend == .sqlite(path: "/tmp/relay.sqlite"))
        #expect(config.http.maxBodyBytes == 2048)
        #expect(config.http.maxConnections == 100)
        #expect(config.http.headerTimeout == .seconds(5))
        #expect(config.http.bodyTimeout == .seconds(120))
        #expect(config.http.sendTimeout == .seconds(45))
        #expect(config.delivery.retryInitialBackoff == .milliseconds(500))
        #expect(config.delivery.retryMaximumBackoff == .seconds(120))
        #expect(config.apps.map(\.appID) == ["A", "12345"])
        #expect(config.apps[0].apiToken.value == "aaaaaaaaaaaaaaaaaaaaaaaa")
    }

    @Test func badgeSyncIsOffByDefaultAndTakesABooleanOrAnInterval() throws {
        func badgeSync(_ value: String) throws -> BadgeSyncSetting? {
            let yaml = """
                listen: {port: 1}
                database: {path: /tmp/r.sqlite}
                apps:
                  - app_id: A
                    api_token: aaaaaaaaaaaaaaaaaaaaaaaa
                    badge_sync: \(value)
                """
            return try RelayConfiguration.parse(yaml: yaml).apps[0].badgeSync
        }
        #expect(try RelayConfiguration.parse(yaml: Self.valid).apps[0].badgeSync == nil)
        #expect(try badgeSync("true") == BadgeSyncSetting())
        #expect(try badgeSync("false") == nil)
        #expect(try badgeSync("{interval: 10s}") == BadgeSyncSetting(interval: .seconds(10)))
        #expect(throws: ConfigurationError.self) { try badgeSync("{interval: 0s}") }
        #expect(throws: ConfigurationError.self) { try badgeSync("{every: 1s}") }
        #expect(throws: ConfigurationError.self) { try badgeSync("maybe") }
    }

    /// `multi_device` is app-wide (every provider); `apns.push_when_online`, its first name, still
    /// works, and the two may not disagree.
    @Test func multiDeviceIsAppWideWithItsFirstNameInTheAPNsBlock() throws {
        func multiDevice(_ keys: String) throws -> Bool {
            let yaml = """
                listen: {port: 1}
                database: {path: /tmp/r.sqlite}
                apps:
                  - app_id: A
                    api_token: aaaaaaaaaaaaaaaaaaaaaaaa
                \(keys)
                """
            return try RelayConfiguration.parse(yaml: yaml).apps[0].multiDevice
        }
        let apns = "    apns: {topic: t, auth: {token: {key_file: /k.p8, key_id: ABC123DEFG, team_id: DEF123GHIJ}}"
        #expect(try multiDevice("") == false)
        #expect(try multiDevice("    multi_device: true") == true)
        #expect(try multiDevice(apns + ", push_when_online: true}") == true)
        #expect(try multiDevice(apns + ", push_when_online: true}\n    multi_device: true") == true)
        #expect(throws: ConfigurationError.self) { try multiDevice(apns + ", push_when_online: true}\n    multi_device: false") }
        #expect(throws: ConfigurationError.self) { try multiDevice("    multi_device: sometimes") }
    }

    /// The example names its secrets as systemd credentials: read here from a directory holding
    /// them, as the unit's `LoadCredential=` lines would provide.
    @Test func theExampleFileInTheRepositoryIsValid() throws {
        let example = try ExampleCredentials()
        let credentials = example.directory
        let path = Repository.path("Config/push-relay.yaml")
        let config = try RelayConfiguration.load(path: path, environment: example.environment())
        #expect(config.apps.first?.apiToken.value == "example-token-0123456789abcdef")
        #expect(
            config.apps.first?.apns?.auth == .token(keyFile: credentials.path("apns-key.p8"), keyID: "ABC123DEFG", teamID: "DEF123GHIJ"))
        #expect(config.listen.port == 8080)
        #expect(config.apps.count == 1)
        #expect(config.http.maxBodyBytes == HTTPConfiguration.defaultMaxBodyBytes)
        #expect(config.http.maxConnections == HTTPConfiguration.defaultMaxConnections)
    }

    @Test func testPushesPerMinuteIsReadAndBounded() throws {
        func limit(_ value: String) throws -> Int {
            try RelayConfiguration.parse(
                yaml: """
                    listen: {}
                    database: {path: x.sqlite}
                    apps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa\(value)}]
                    """
            ).apps[0].limits.testPushesPerMinute
        }
        #expect(try limit("") == AppLimits.defaultTestPushesPerMinute)
        #expect(try limit(", limits: {test_pushes_per_minute: 2}") == 2)
        #expect(try limit(", limits: {test_pushes_per_minute: 0}") == 0)
        #expect(throws: ConfigurationError.self) { try limit(", limits: {test_pushes_per_minute: -1}") }
        #expect(throws: ConfigurationError.self) { try limit(", limits: {test_pushes_per_minute: 10001}") }
        let credentials = try ExampleCredentials()
        let example = try RelayConfiguration.load(path: Repository.path("Config/push-relay.yaml"), environment: credentials.environment())
        #expect(example.apps[0].limits.testPushesPerMinute == 10)
    }

    @Test func optionalKeysHaveDefaults() throws {
        let config = try RelayConfiguration.parse(
            yaml: """
                listen: {}
                database: {path: x.sqlite}
                apps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]
                """)
        #expect(config.listen == ListenConfiguration(host: "127.0.0.1", port: 8080))
        #expect(config.http == HTTPConfiguration())
    }

    @Test(arguments: [
        (
            "listen: {host: h, port: 1}\ndatabase: {path: p}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]\nlisten_port: 3",
            ConfigurationError.unknownKey("listen_port")
        ),
        (
            "listen: {host: h, prot: 1}\ndatabase: {path: p}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .unknownKey("listen.prot")
        ),
        (
            "listen: {}\ndatabase: {path: p}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}, {app_id: B, api_tokn: x}]",
            .unknownKey("apps[1].api_tokn")
        ),
        ("database: {path: p}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]", .missingKey("listen")),
        ("listen: {}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]", .missingKey("database")),
        ("listen: {}\ndatabase: {}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]", .missingKey("database.path")),
        ("listen: {}\ndatabase: {path: p}", .missingKey("apps")),
        ("listen: {}\ndatabase: {path: p}\napps: [{api_token: aaaaaaaaaaaaaaaaaaaa}]", .missingKey("apps[0].app_id")),
        ("listen: {}\ndatabase: {path: p}\napps: [{app_id: A}]", .missingKey("apps[0].api_token")),
        (
            "listen: {port: 70000}\ndatabase: {path: p}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "listen.port", reason: "must be 0...65535")
        ),
        (
            "listen: {port: eighty}\ndatabase: {path: p}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "listen.port", reason: "must be an integer")
        ),
        ("listen: {}\ndatabase: {path: p}\napps: []", .invalidValue(key: "apps", reason: "must list at least one app")),
        ("listen: {}\ndatabase: {path: p}\napps: {app_id: A}", .invalidValue(key: "apps", reason: "must be a list")),
        (
            "listen: {}\ndatabase: {path: p}\napps: [{app_id: A, api_token: short}]",
            .invalidValue(key: "apps[0].api_token", reason: "must be at least 16 characters")
        ),
        (
            "listen: {}\ndatabase: {path: p}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}, {app_id: A, api_token: bbbbbbbbbbbbbbbbbbbb}]",
            .invalidValue(key: "apps[1].app_id", reason: "\"A\" is listed twice")
        ),
        (
            "listen: {}\ndatabase: {path: p}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}, {app_id: B, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "apps[1].api_token", reason: "is the same as another app's token")
        ),
        (
            "listen: {}\ndatabase: {path: p}\nhttp: {max_body_bytes: 10}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "http.max_body_bytes", reason: "must be 1024...16777216")
        ),
        (
            "listen: {}\ndatabase: {path: p}\nhttp: {max_connections: 0}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "http.max_connections", reason: "must be 16...1000000")
        ),
        (
            "listen: {}\ndatabase: {path: p}\nhttp: {max_connections: many}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "http.max_connections", reason: "must be an integer")
        ),
        (
            "listen: {}\ndatabase: {path: p}\nhttp: {header_timeout: 500ms}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "http.header_timeout", reason: "must be 1s...5m")
        ),
        (
            "listen: {}\ndatabase: {path: p}\nhttp: {body_timeout: 11m}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "http.body_timeout", reason: "must be 1s...10m")
        ),
        (
            "listen: {}\ndatabase: {path: p}\nhttp: {body_timeout: soon}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "http.body_timeout", reason: "must be seconds or a number with ms, s, m, h or d (e.g. 30s, 12h)")
        ),
        (
            "listen: 8080\ndatabase: {path: p}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "listen", reason: "must be a mapping of keys to values")
        ),
        ("- just\n- a list", .invalidValue(key: "(top level)", reason: "must be a mapping of keys to values")),
        (
            "listen: {}\ndatabase: {path: p}\nhttp: {send_timeout: 0s}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "http.send_timeout", reason: "must be 1s...10m")
        ),
        (
            "listen: {}\ndatabase: {path: p}\ndelivery: {retry_backoff: 10ms}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "delivery.retry_backoff", reason: "must be 100ms...1h")
        ),
        (
            "listen: {}\ndatabase: {path: p}\ndelivery: {retry_backoff: 10s, retry_max_backoff: 5s}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]",
            .invalidValue(key: "delivery.retry_max_backoff", reason: "must not be below delivery.retry_backoff")
        ),
    ])
    func invalidConfigurationsNameTheKey(yaml: String, expected: ConfigurationError) {
        #expect(throws: expected) { try RelayConfiguration.parse(yaml: yaml) }
    }

    @Test func syntaxErrorsAndMissingFilesAreReported() {
        #expect {
            try RelayConfiguration.parse(yaml: "listen: [unclosed")
        } throws: { error in
            if case ConfigurationError.syntax = error { return true }
            return false
        }
        #expect {
            try RelayConfiguration.load(path: "/nonexistent/push-relay.yaml")
        } throws: { error in
            guard case ConfigurationError.unreadable(let path, _) = error else { return false }
            return path == "/nonexistent/push-relay.yaml" && "\(error)".contains(path)
        }
    }

    /// Yams quotes the offending line; the error gives only its position and problem, since that
    /// line may hold a secret (here a PostgreSQL URL with its password).
    @Test func aSyntaxErrorDoesNotRepeatTheLine() {
        #expect {
            try RelayConfiguration.parse(
                yaml: "listen: {}\ndatabase: {postgres: {url: \"postgres://u:pw-secret@h/d?password=q-secret}}\napps: []")
        } throws: { error in
            guard case ConfigurationError.syntax(let problem) = error else { return false }
            return problem.contains("line ") && !"\(error)".contains("secret")
        }
    }

    @Test func errorMessagesNameTheKey() {
        #expect(ConfigurationError.unknownKey("apps[1].api_tokn").description == "unknown configuration key \"apps[1].api_tokn\"")
        #expect(
            ConfigurationError.invalidValue(key: "listen.port", reason: "must be 0...65535").description
                == "invalid value for configuration key \"listen.port\": must be 0...65535")
    }

    @Test func tokensNeverPrintInFull() throws {
        let config = try RelayConfiguration.parse(yaml: Self.valid)
        let printed = "\(config) \(config.apps[0]) \(String(reflecting: config.apps[0].apiToken))"
        #expect(!printed.contains("aaaaaaaaaaaaaaaaaaaaaaaa"))
        #expect(printed.contains("aaaa…") && !printed.contains("aaaaa…"))
    }
}

/// `apps[].webhook_secret`.
@Suite(.timeLimit(.minutes(5))) struct WebhookSecretConfigurationTests {
    @Test func defaultsToTheAPITokenAndTakesEverySecretForm() throws {
        let config = try RelayConfiguration.parse(
            yaml: """
                listen: {}
                database: {path: p}
                apps:
                  - {app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}
                  - {app_id: B, api_token: bbbbbbbbbbbbbbbbbbbb, webhook_secret: webhook-secret-0123456789}
                  - {app_id: C, api_token: cccccccccccccccccccc, webhook_secret: {env: HOOK}}
                """, environment: ConfigurationEnvironment(variables: ["HOOK": "env-hook-secret-0123456789"]))
        #expect(
            config.apps.map(\.webhookSecret.value) == ["aaaaaaaaaaaaaaaaaaaa", "webhook-secret-0123456789", "env-hook-secret-0123456789"])
        // Printed redacted, like the API token.
        #expect(!"\(config.apps[1].webhookSecret)".contains("webhook-secret-0123456789"))
    }

    @Test func aShortSecretIsRefusedByName() {
        #expect(throws: ConfigurationError.invalidValue(key: "apps[0].webhook_secret", reason: "must be at least 16 characters")) {
            try RelayConfiguration.parse(
                yaml: """
                    listen: {}
                    database: {path: p}
                    apps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa, webhook_secret: short}]
                    """)
        }
    }
}
