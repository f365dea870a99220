import TestSupport
import APNsMock
import FCMMock
import HMSMock
import Foundation
import Testing
@testable import PushService

/// `push-relay check-config`: exit codes and messages of the real binary.
@Suite(.timeLimit(.minutes(5))) struct CheckConfigBinaryTests {
    static func run(_ arguments: [String]) async throws -> (status: Int32?, out: String, err: String) {
        let process = try RelayProcess(arguments)
        defer { process.stop() }
        let status = await process.exitStatus()
        return (status, process.stdout, process.stderr)
    }

    @Test func aValidFileWithLoadableCredentialsExitsZero() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("relay.yaml", tokenAppYAML(database: directory.path("relay.sqlite")))
        let result = try await Self.run(["check-config", "--config", config])
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.out.contains("ok: app app-A: token (key"))
        #expect(result.out.contains("configuration OK"))
    }

    @Test func anInvalidFileExits78NamingTheKey() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("relay.yaml", tokenAppYAML(database: directory.path("relay.sqlite")) + "\n      pool_sise: 2")
        let result = try await Self.run(["check-config", "--config", config])
        #expect(result.status == 78)
        #expect(result.err.contains("apps[0].apns.pool_sise"))
    }

    /// A key that cannot be loaded stops `serve` with 78: `check-config` says the same.
    @Test func aMissingKeyFileExits78NamingTheFileAsServeDoes() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write(
            "relay.yaml", tokenAppYAML(database: directory.path("relay.sqlite"), keyFile: directory.path("AuthKey_NOPE.p8")))
        let result = try await Self.run(["check-config", "--config", config])
        #expect(result.status == 78)
        #expect(result.err.contains("error: app app-A: apns.auth: "), "\(result.err)")
        #expect(result.err.contains(directory.path("AuthKey_NOPE.p8")))
        let serve = try await Self.run(["serve", "--config", config])
        #expect(serve.status == 78, "\(serve.err)")
    }

    @Test func aWrongP12PasswordExits78() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write(
            "relay.yaml",
            """
            listen: {}
            database: {path: x}
            apps:
              - app_id: C
                api_token: aaaaaaaaaaaaaaaaaaaa
                apns: {topic: t, auth: {certificate: {p12_file: \(Repository.privateDevCert("client.p12")), password: nope}}}
            """)
        let result = try await Self.run(["check-config", "--config", config])
        #expect(result.status == 78)
        #expect(result.err.contains("client.p12"))
    }

    static func mockConfiguration() -> APNsMockConfiguration {
        APNsMockConfiguration(
            tlsCertificatePath: Repository.devCert("server.pem"), tlsKeyPath: Repository.devCert("server.key"),
            jwtKeys: ["DEVKEY1234": Repository.devCert("AuthKey_DEVKEY1234.pub.pem")], teamID: "DEVTEAM123")
    }

    @Test func theProbeIsAcceptedByAnAPNsThatKnowsTheKey() async throws {
        let mock = APNsMockServer(configuration: Self.mockConfiguration())
        try await mock.start()
        let directory = try TemporaryDirectory()
        let config = try directory.write(
            "relay.yaml", tokenAppYAML(database: directory.path("relay.sqlite"), apnsURL: "https://127.0.0.1:\(mock.port)"))
        let result = try await Self.run(["check-config", "--config", config, "--probe"])
        #expect(result.status == 0, "stdout: \(result.out) stderr: \(result.err)")
        #expect(result.out.contains("probe: 127.0.0.1:\(mock.port) accepted"))
        try await mock.shutdown()
    }

    @Test func theProbeFailsWhenAPNsRejectsTheProviderToken() async throws {
        var configuration = Self.mockConfiguration()
        configuration.teamID = "OTHERTEAM1"
        let mock = APNsMockServer(configuration: configuration)
        try await mock.start()
        let directory = try TemporaryDirectory()
        let config = try directory.write(
            "relay.yaml", tokenAppYAML(database: directory.path("relay.sqlite"), apnsURL: "https://127.0.0.1:\(mock.port)"))
        let result = try await Self.run(["check-config", "--config", config, "--probe"])
        #expect(result.status == 1)
        #expect(result.err.contains("probe: 127.0.0.1:\(mock.port) rejected the push: status 403"), "\(result.err)")
        try await mock.shutdown()
    }

    /// An app with only an `fcm` block, pointing at `mock`.
    static func fcmConfig(_ directory: TemporaryDirectory, mock: FCMMockServer, extra: String = "") throws -> String {
        try directory.write(
            "relay.yaml",
            """
            listen: {host: 127.0.0.1, port: 0}
            database: {path: \(directory.path("relay.sqlite"))}
            apps:
              - app_id: app-F
                api_token: token-F-0123456789abcdef
                fcm:
                  service_account: \(Repository.privateDevCert("fcm-service-account.json"))
                  url: https://127.0.0.1:\(mock.port)
                  token_url: https://127.0.0.1:\(mock.port)/token
                  ca_file: \(Repository.devCert("ca.pem"))\(extra)
            """)
    }

    static func fcmMock() async throws -> FCMMockServer {
        let mock = try FCMMockServer(
            configuration: FCMMockConfiguration(
                tlsCertificatePath: Repository.devCert("server.pem"), tlsKeyPath: Repository.devCert("server.key"),
                serviceAccountPath: Repository.devCert("fcm-service-account.json")))
        try await mock.start()
        return mock
    }

    @Test func theFCMProbeExchangesATokenAndSendsADryRun() async throws {
        let mock = try await Self.fcmMock()
        let directory = try TemporaryDirectory()
        let result = try await Self.run(["check-config", "--config", try Self.fcmConfig(directory, mock: mock), "--probe"])
        #expect(result.status == 0, "\(result.err)")
        #expect(
            result.out.contains("fcm probe: token exchange and a dry-run send to 127.0.0.1:\(mock.port) accepted"),
            "\(result.out) \(result.err)")
        #expect(mock.stats.tokensIssued == 1)
        #expect(mock.stats.messagesValidated == 1)
        #expect(mock.messages.isEmpty, "a dry run delivers nothing")
        let key = try String(contentsOfFile: Repository.devCert("fcm-service-account.json"), encoding: .utf8)
        let keyLine = key.components(separatedBy: "\\n")[1]
        #expect(!result.out.contains(keyLine) && !result.err.contains(keyLine), "the key is never shown")
        try await mock.shutdown()
    }

    @Test func theFCMProbeFailsForAProjectTheAccountCannotSendTo() async throws {
        let mock = try await Self.fcmMock()
        let directory = try TemporaryDirectory()
        let config = try Self.fcmConfig(directory, mock: mock, extra: "\n      project_id: someone-elses")
        let result = try await Self.run(["check-config", "--config", config, "--probe"])
        #expect(result.status == 1)
        #expect(result.err.contains("fcm probe:") && result.err.contains("403"), "\(result.err)")
        #expect(result.err.contains("project_id"), "\(result.err)")
        try await mock.shutdown()
    }

    static let hmsSecret = "check-config-hms-secret-0123456789"

    static func hmsMock(appID: String = "104783201") async throws -> HMSMockServer {
        let mock = try HMSMockServer(
            configuration: HMSMockConfiguration(
                tlsCertificatePath: Repository.devCert("server.pem"), tlsKeyPath: Repository.devCert("server.key"), appID: appID,
                clientSecret: hmsSecret))
        try await mock.start()
        return mock
    }

    static func hmsConfig(_ directory: TemporaryDirectory, mock: HMSMockServer, appID: String = "104783201", secret: String = hmsSecret)
        throws -> String
    {
        let secretFile = try directory.write("hms-secret", secret)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secretFile)
        return try directory.write(
            "relay.yaml",
            """
            listen: {host: 127.0.0.1, port: 0}
            database: {path: \(directory.path("relay.sqlite"))}
            apps:
              - app_id: app-H
                api_token: token-H-0123456789abcdef
                hms:
                  app_id: "\(appID)"
                  client_secret: {file: \(secretFile)}
                  url: https://127.0.0.1:\(mock.port)
                  token_url: https://127.0.0.1:\(mock.port)/oauth2/v3/token
                  ca_file: \(Repository.devCert("ca.pem"))
            """)
    }

    @Test func theHMSProbeExchangesATokenAndSendsADryRun() async throws {
        let mock = try await Self.hmsMock()
        let directory = try TemporaryDirectory()
        let result = try await Self.run(["check-config", "--config", try Self.hmsConfig(directory, mock: mock), "--probe"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("ok: app app-H: hms: app 104783201"), "\(result.out)")
        #expect(result.out.contains("hms probe: token exchange and a dry-run send to 127.0.0.1 accepted"), "\(result.out) \(result.err)")
        #expect(mock.stats.tokensIssued == 1)
        #expect(mock.stats.messagesValidated == 1)
        #expect(mock.messages.isEmpty, "a dry run delivers nothing")
        #expect(!result.out.contains(Self.hmsSecret) && !result.err.contains(Self.hmsSecret), "the secret is never shown")
        try await mock.shutdown()
    }

    @Test func theHMSProbeFailsForAWrongSecretOrAnotherAppsID() async throws {
        let mock = try await Self.hmsMock()
        let directory = try TemporaryDirectory()
        let wrong = try await Self.run([
            "check-config", "--config", try Self.hmsConfig(directory, mock: mock, secret: "not-the-secret"), "--probe",
        ])
        #expect(wrong.status == 1)
        #expect(wrong.err.contains("hms probe:") && wrong.err.contains("refused the app's credentials"), "\(wrong.err)")
        #expect(!wrong.err.contains("not-the-secret"))
        let other = try await Self.run(["check-config", "--config", try Self.hmsConfig(directory, mock: mock, appID: "999999"), "--probe"])
        #expect(other.status == 1)
        #expect(other.err.contains("hms probe:") && other.err.contains("client_id"), "\(other.err)")
        try await mock.shutdown()
    }
}
