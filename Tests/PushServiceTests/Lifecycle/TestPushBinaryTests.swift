import APNsMock
import FCMMock
import Foundation
import HMSMock
import PushStore
import StoreContract
import TestSupport
import Testing
@testable import PushService

/// `push-relay test-push`: the real binary against apns-mock, fcm-mock and hms-mock, on a
/// database the relay left behind (tokens registered).
@Suite(.timeLimit(.minutes(5))) struct TestPushBinaryTests {
    static let apnsToken = String(repeating: "cd", count: 32)
    static let fcmToken = ProviderDeliveryTests.fcmToken
    static let hmsToken = ProviderDeliveryTests.hmsToken

    /// The three mocks, a configuration of one app sending to all of them, and a database where
    /// bob holds one token of each provider.
    struct Setup {
        let directory: TemporaryDirectory
        let config: String
        let apns: APNsMockServer
        let fcm: FCMMockServer
        let hms: HMSMockServer

        var database: String { directory.path("relay.sqlite") }

        static func make() async throws -> Setup {
            let apns = APNsMockServer(configuration: CheckConfigBinaryTests.mockConfiguration())
            try await apns.start()
            let fcm = try await CheckConfigBinaryTests.fcmMock()
            let hms = try await CheckConfigBinaryTests.hmsMock()
            let directory = try TemporaryDirectory()
            let secret = try directory.write("hms-secret", CheckConfigBinaryTests.hmsSecret)
            let config = try directory.write(
                "relay.yaml",
                tokenAppYAML(database: directory.path("relay.sqlite"), apnsURL: "https://127.0.0.1:\(apns.port)")
                    + """

                        fcm:
                          service_account: \(Repository.privateDevCert("fcm-service-account.json"))
                          url: https://127.0.0.1:\(fcm.port)
                          token_url: https://127.0.0.1:\(fcm.port)/token
                          ca_file: \(Repository.devCert("ca.pem"))
                        hms:
                          app_id: "104783201"
                          client_secret: {file: \(secret)}
                          url: https://127.0.0.1:\(hms.port)
                          token_url: https://127.0.0.1:\(hms.port)/oauth2/v3/token
                          ca_file: \(Repository.devCert("ca.pem"))
                    """)
            let store = try SQLiteStore(path: directory.path("relay.sqlite"))
            _ = try await store.registerToken(app: "app-A", user: "bob", token: apnsToken, isUnique: false, provider: .apns)
            _ = try await store.registerToken(app: "app-A", user: "bob", token: fcmToken, isUnique: false, provider: .fcm)
            _ = try await store.registerToken(app: "app-A", user: "bob", token: hmsToken, isUnique: false, provider: .hms)
            try await store.close()
            return Setup(directory: directory, config: config, apns: apns, fcm: fcm, hms: hms)
        }

        func run(_ arguments: [String]) async throws -> (status: Int32?, out: String, err: String) {
            try await CheckConfigBinaryTests.run(["test-push", "--config", config, "--app", "app-A"] + arguments)
        }

        func shutdown() async throws {
            try await apns.shutdown()
            try await fcm.shutdown()
            try await hms.shutdown()
        }
    }

    /// The table row of `provider`.
    static func row(_ out: String, _ provider: String) -> String? {
        out.split(separator: "\n").first { $0.hasPrefix(provider + " ") }.map(String.init)
    }

    @Test func eachProvidersAnswerIsPrintedAndADeadTokenShowsAsDead() async throws {
        let setup = try await Setup.make()
        let sent = try await setup.run(["--user", "bob", "--message", "Is this thing on?"])
        #expect(sent.status == 0, "stdout: \(sent.out) stderr: \(sent.err)")
        #expect(sent.out.contains("test push to user bob of app app-A: 3 device(s)"), "\(sent.out)")
        // Each mock's answer: the apns-id APNs took it under, FCM's message name, HMS's request id.
        let apnsID = try #require(setup.apns.notifications.first?.headers["apns-id"])
        let fcmName = try #require(setup.fcm.messages.first?.name)
        let hmsRequest = try #require(setup.hms.messages.first?.requestId)
        #expect(
            Self.row(sent.out, "apns").map { $0.contains(" sent ") && $0.contains(" 200 ") && $0.contains(apnsID) } == true, "\(sent.out)")
        #expect(Self.row(sent.out, "fcm").map { $0.contains(" sent ") && $0.contains(fcmName) } == true, "\(sent.out)")
        #expect(Self.row(sent.out, "hms").map { $0.contains(" sent ") && $0.contains(hmsRequest) } == true, "\(sent.out)")
        #expect(setup.fcm.messages.first?.data["message"] == "Is this thing on?")
        for token in [Self.apnsToken, Self.fcmToken, Self.hmsToken] { #expect(!sent.out.contains(token), "tokens are redacted") }

        // The iPhone's token died: APNs says so, the token goes, the exit status says not all got it.
        setup.apns.markUnregistered(token: Self.apnsToken, at: Date())
        let dead = try await setup.run(["--user", "bob"])
        #expect(dead.status == 1, "stdout: \(dead.out) stderr: \(dead.err)")
        #expect(
            Self.row(dead.out, "apns").map {
                $0.contains("token_dead (token removed)") && $0.contains(" 410 ") && $0.contains("Unregistered")
            }
                == true, "\(dead.out)")
        #expect(Self.row(dead.out, "fcm")?.contains(" sent ") == true)
        let store = try SQLiteStore(path: setup.database)
        #expect(try await store.tokens(app: "app-A", user: "bob")?.map(\.provider) == [.fcm, .hms])
        let log = try await store.recentDeliveries(app: "app-A", user: "bob", limit: 10)
        #expect(log.count == 6 && log.allSatisfy(\.isTest), "each test push is in the delivery log")
        #expect(log.first { $0.delivery.provider == .apns }?.delivery.state == .tokenInvalid)
        try await store.close()
        try await setup.shutdown()
    }

    /// One device token, by type; an FCM token FCM calls unregistered is dead too.
    @Test func oneDeviceTokenByType() async throws {
        let setup = try await Setup.make()
        setup.fcm.markUnregistered([Self.fcmToken])
        let result = try await setup.run(["--token-type", "fcm", "--device-token", Self.fcmToken])
        #expect(result.status == 1, "stdout: \(result.out) stderr: \(result.err)")
        #expect(result.out.contains("test push to user bob"), "its owner, found by the token: \(result.out)")
        #expect(Self.row(result.out, "fcm").map { $0.contains("token_dead (token removed)") && $0.contains("UNREGISTERED") } == true)
        try await setup.shutdown()
    }

    @Test func nothingSentOrMisusedSaysWhyWithItsExitStatus() async throws {
        let setup = try await Setup.make()
        let unknown = try await setup.run(["--user", "nobody"])
        #expect(unknown.status == 2, "\(unknown.err)")
        #expect(unknown.err.contains("\"User\" not found"), "\(unknown.err)")
        let noApp = try await CheckConfigBinaryTests.run(["test-push", "--config", setup.config, "--app", "app-Z", "--user", "bob"])
        #expect(noApp.status == 64, "\(noApp.err)")
        #expect(noApp.err.contains("app-Z"))
        let both = try await setup.run(["--user", "bob", "--token-type", "apns", "--device-token", Self.apnsToken])
        #expect(both.status == 64 && both.err.contains("--user"), "\(both.err)")
        // A usage error shows test-push's usage, as a parsing error does, not the top-level one.
        #expect(both.err.contains("Usage: push-relay test-push --config <config> --app <app>"), "\(both.err)")
        #expect(noApp.err.contains("See 'push-relay test-push --help'"), "\(noApp.err)")
        let badToken = try await setup.run(["--token-type", "apns", "--device-token", "xyz"])
        #expect(badToken.status == 64 && badToken.err.contains("--device-token"), "\(badToken.err)")
        try FileManager.default.removeItem(atPath: setup.database)
        let noDatabase = try await setup.run(["--user", "bob"])
        #expect(noDatabase.status == 74, "\(noDatabase.err)")
        #expect(!FileManager.default.fileExists(atPath: setup.database), "no database is made")
        #expect(setup.apns.notifications.isEmpty && setup.fcm.messages.isEmpty && setup.hms.messages.isEmpty)
        try await setup.shutdown()
    }
}
