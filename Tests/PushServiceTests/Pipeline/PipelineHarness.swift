import TestSupport
import APNs
import APNsMock
import FCM
import HMS
import Crypto
import Foundation
import HTTP2Transport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PushStore
import StoreContract
@testable import PushService
@testable import PushEngine

/// Dev key material (certs/dev) for the mock APNs and the client.
enum PipelineFixtures {
    static func cert(_ name: String) -> String { Repository.devCert(name) }
    static let topic = "com.example.pushrelay"

    static func mockConfiguration() -> APNsMockConfiguration {
        var c = APNsMockConfiguration(tlsCertificatePath: cert("server.pem"), tlsKeyPath: cert("server.key"))
        c.port = 0
        c.mode = .validating
        c.jwtKeys = ["DEVKEY1234": cert("AuthKey_DEVKEY1234.pub.pem")]
        c.teamID = "DEVTEAM123"
        c.recordInMemory = true
        return c
    }

    static func client(port: Int) throws -> APNsClient {
        let cache = try ProviderTokenCache(
            key: APNsSigningKey(p8File: cert("AuthKey_DEVKEY1234.p8")), keyID: "DEVKEY1234",
            teamID: "DEVTEAM123")
        return try APNsClient(
            configuration: APNsClientConfiguration(
                endpoint: TransportEndpoint(host: "127.0.0.1", port: port), authentication: .token(cache),
                extraCAFile: cert("ca.pem"), trustSystemRoots: false, connections: 1,
                requestTimeout: .seconds(5), reconnectBackoff: (.milliseconds(20), .milliseconds(200))))
    }

    static let dispatcherConfiguration = DispatcherConfiguration(
        window: 64, claimBatch: 16, recordBatch: 16, initialBackoff: .milliseconds(50), maximumBackoff: .milliseconds(300),
        idlePoll: .milliseconds(200), shutdownGrace: .seconds(2), requestTimeout: .seconds(3))
}

/// The whole relay on loopback: REST + webhook over real HTTP, a real SQLite file in
/// `directory`, the dispatcher sending over HTTP/2+TLS to the mock.
struct PipelineRelay {
    let client: any TestClientProtocol
    let store: any RelayStore
    let mock: APNsMockServer
    let dispatcher: Dispatcher

    /// Runs `test` against a relay on `directory` (a new temp dir when nil) and `mock`.
    static func run(
        mock: APNsMockServer, directory: URL, timeToLive: Duration = .seconds(3600),
        dispatcherConfiguration: DispatcherConfiguration = PipelineFixtures.dispatcherConfiguration,
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds,
        apps: [AppConfiguration] = [TestApps.a, TestApps.b], fcm: FCMClient? = nil, hms: HMSClient? = nil,
        _ test: @Sendable (PipelineRelay) async throws -> Void
    ) async throws {
        let configuration = RelayConfiguration(
            listen: ListenConfiguration(host: "127.0.0.1", port: 0),
            database: DatabaseConfiguration(path: directory.appendingPathComponent("relay.sqlite").path),
            apps: apps)
        var logger = Logger(label: "PipelineTests")
        logger.logLevel = .warning
        let apns = try PipelineFixtures.client(port: mock.port)
        let targets = StaticDeliveryTargets([
            TestApps.a.appID: DeliveryTarget(apns: apns, fcm: fcm, hms: hms, topic: PipelineFixtures.topic, timeToLive: timeToLive)
        ])
        let relay = try await RelayApplication.build(
            configuration: configuration, logger: logger,
            seams: .init(
                targets: targets, dispatcher: dispatcherConfiguration, clock: clock))
        let app = relay.makeApplication()
        do {
            try await app.test(.live) { client in
                try await test(PipelineRelay(client: client, store: relay.store, mock: mock, dispatcher: relay.dispatcher))
            }
        } catch {
            await apns.shutdown()
            await relay.close()
            throw error
        }
        await apns.shutdown()
        await relay.close()
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("PipelineTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Starts a mock, runs `body`, stops it, removes the directory.
    static func withMockAndDirectory(_ body: (APNsMockServer, URL) async throws -> Void) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mock = APNsMockServer(configuration: PipelineFixtures.mockConfiguration())
        try await mock.start()
        do {
            try await body(mock, directory)
        } catch {
            try? await mock.shutdown()
            throw error
        }
        try await mock.shutdown()
    }

    @discardableResult
    func request(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil, app: AppConfiguration = TestApps.a) async throws
        -> HTTPResult
    {
        var headers: HTTPFields = [:]
        headers[HTTPField.Name("Api-Token")!] = app.apiToken.value
        if body != nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return HTTPResult(status: response.status, headers: response.headers, text: String(buffer: response.body))
    }

    func register(_ user: String, token: String, app: AppConfiguration = TestApps.a) async throws {
        let r = try await request(.post, "/v3/users/\(user)/push/apns", body: #"{"apns_device_token": "\#(token)"}"#, app: app)
        precondition(r.status == .ok, "registration failed: \(r.text)")
    }

    /// Posts a webhook body signed with `signingToken` (the app's API token unless given; nil
    /// sends no signature).
    @discardableResult
    func postWebhook(_ body: String, signingToken: String?? = .some(nil), path: String = "/webhooks/sendbird") async throws
        -> HTTPResult
    {
        var headers: HTTPFields = [.contentType: "application/json"]
        let key: String? =
            switch signingToken {
            case .some(.some(let token)): token
            case .some(.none): TestApps.a.apiToken.value
            case .none: nil
            }
        if let key {
            let mac = HMAC<SHA256>.authenticationCode(for: Data(body.utf8), using: SymmetricKey(data: Data(key.utf8)))
            headers[HTTPField.Name("x-sendbird-signature")!] = mac.map { String(format: "%02x", $0) }.joined()
        }
        let response = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
        return HTTPResult(status: response.status, headers: response.headers, text: String(buffer: response.body))
    }

    /// Polls `condition` until it holds or `timeout` passes.
    func eventually(timeout: Duration = .seconds(60), _ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw PipelineTestFailure(description: "timed out waiting for \(what)")
    }
}

struct PipelineTestFailure: Error, CustomStringConvertible {
    let description: String
}

/// A `group_channel:message_send` webhook body: `sender` writes `text` to channel `c1`; every
/// member in `offline` is offline, the rest online.
func messageEvent(
    messageID: Int64, app: String = TestApps.a.appID, sender: String = "sender", text: String = "hello",
    offline: [String], online: [String] = [], includeMembers: Bool = true,
    category: String = "group_channel:message_send", channelCustomType: String = "", translations: String = "{}"
) -> String {
    let members =
        ([sender] + online).map {
            #"{"user_id": "\#($0)", "nickname": "\#($0)", "is_online": true, "state": "joined", "total_unread_message_count": 1}"#
        }
        + offline.map {
            #"{"user_id": "\#($0)", "nickname": "\#($0)", "is_online": false, "state": "joined", "total_unread_message_count": 3}"#
        }
    let membersField = includeMembers ? #""members": [\#(members.joined(separator: ", "))],"# : ""
    return #"""
        {"category": "\#(category)", "app_id": "\#(app)", "type": "MESG",
         "sender": {"user_id": "\#(sender)", "nickname": "Sender Name"},
         \#(membersField)
         "payload": {"message_id": \#(messageID), "created_at": 1700000000000, "message": "\#(text)",
                     "translations": \#(translations)},
         "channel": {"channel_url": "c1", "name": "Channel One", "custom_type": "\#(channelCustomType)"}}
        """#
}
