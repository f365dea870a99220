import APNsMock
import FCMMock
import Foundation
import HMSMock
import HTTPTypes
import HummingbirdTesting
import LogRedaction
import NIOCore
import PushCore
import TestSupport
import Testing
@testable import PushService

/// `POST /v3/push/test` through the whole relay in process (REST over a loopback port, SQLite)
/// to apns-mock, fcm-mock and hms-mock: each device's answer as the mock gave it.
@Suite(.timeLimit(.minutes(5))) struct TestPushAPITests {
    static let apnsToken = String(repeating: "ab", count: 32)
    static let fcmToken = ProviderDeliveryTests.fcmToken
    static let hmsToken = ProviderDeliveryTests.hmsToken

    /// The three mocks and a relay sending to them as app A; `test` gets them all.
    static func withRelay(
        apps: [AppConfiguration] = [TestApps.a, TestApps.b],
        _ test: @Sendable (PipelineRelay, FCMMockServer, HMSMockServer) async throws -> Void
    ) async throws {
        let (fcmMock, fcm) = try await ProviderDeliveryTests.fcm()
        let (hmsMock, hms) = try await ProviderDeliveryTests.hms()
        let outcome = await Result {
            try await PipelineRelay.withMockAndDirectory { mock, directory in
                try await PipelineRelay.run(mock: mock, directory: directory, apps: apps, fcm: fcm, hms: hms) { relay in
                    try await test(relay, fcmMock, hmsMock)
                }
            }
        }
        await fcm.shutdown()
        await hms.shutdown()
        try await fcmMock.shutdown()
        try await hmsMock.shutdown()
        try outcome.get()
    }

    /// Bob's iPhone, Android phone and Huawei phone.
    static func registerBob(_ relay: PipelineRelay) async throws {
        try await relay.register("bob", token: apnsToken)
        #expect(try await relay.request(.post, "/v3/users/bob/push/gcm", body: #"{"gcm_reg_token": "\#(fcmToken)"}"#).status == .ok)
        #expect(
            try await relay.request(.post, "/v3/users/bob/push/huawei", body: #"{"huawei_device_token": "\#(hmsToken)"}"#).status == .ok)
    }

    static func results(_ answer: HTTPResult) throws -> [String: PushCore.JSONValue] {
        guard case .array(let results)? = answer.body["results"] else { throw TestFailure("no results: \(answer.text)") }
        var byProvider: [String: PushCore.JSONValue] = [:]
        for result in results {
            guard case .string(let provider)? = result["provider"] else { throw TestFailure("no provider: \(answer.text)") }
            byProvider[provider] = result
        }
        return byProvider
    }

    @Test func everyDeviceGetsThePushAndEachProvidersAnswerIsReported() async throws {
        try await Self.withRelay { relay, fcmMock, hmsMock in
            try await Self.registerBob(relay)
            let answer = try await relay.request(
                .post, "/v3/push/test", body: #"{"user_id": "bob", "message": "Can you see \"this\"?", "title": "Support"}"#)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.body["user_id"] == .string("bob"))
            let results = try Self.results(answer)
            #expect(Set(results.keys) == ["apns", "fcm", "hms"])
            for (provider, token) in [("apns", Self.apnsToken), ("fcm", Self.fcmToken), ("hms", Self.hmsToken)] {
                let result = try #require(results[provider])
                #expect(result["status"] == .string("sent"), "\(provider): \(answer.text)")
                #expect(result["device_token"] == .string(Redaction.redact(token)))
                #expect(result["token_removed"] == .bool(false))
                #expect(result["latency_ms"]?.exactInteger.map { $0 >= 0 } == true)
            }
            #expect(!answer.text.contains(Self.fcmToken) && !answer.text.contains(Self.apnsToken), "tokens are redacted")

            // What each mock received and answered is what the relay reports.
            let apns = relay.mock.notifications
            #expect(apns.count == 1, "sent at once, before the answer")
            let apnsID = try #require(apns.first?.headers["apns-id"])
            #expect(results["apns"]?["http_status"] == .int(200))
            #expect(results["apns"]?["push_id"] == .string(apnsID) && results["apns"]?["provider_message_id"] == .string(apnsID))
            let payload = try PushCore.JSONValue.parse(try #require(apns.first?.payload))
            #expect(payload["aps"]?["alert"] == json(#"{"title": "Support", "body": "Can you see \"this\"?"}"#))
            #expect(payload["push_relay"] == json(#"{"test": true}"#) && payload["sendbird"] == nil)
            let fcm = try #require(fcmMock.messages.first)
            #expect(fcm.token == Self.fcmToken)
            #expect(fcm.data == ["message": #"Can you see "this"?"#, "push_title": "Support", "push_relay_test": "true"])
            #expect(results["fcm"]?["provider_message_id"] == .string(fcm.name))
            let hms = try #require(hmsMock.messages.first)
            #expect(hms.token == Self.hmsToken && hms.data == .object(fcm.data.mapValues { .string($0) }))
            #expect(results["hms"]?["provider_message_id"] == .string(hms.requestId))

            // The delivery log has them, marked as tests.
            let log = try await relay.request(.get, "/v3/users/bob/push/deliveries?limit=10")
            guard case .array(let deliveries)? = log.body["deliveries"] else { throw TestFailure("no deliveries: \(log.text)") }
            #expect(deliveries.count == 3)
            #expect(deliveries.allSatisfy { $0["test"] == .bool(true) && $0["state"] == .string("sent") && $0["message_id"] == .int(0) })
            #expect(Set(deliveries.compactMap { $0["push_id"] }) == Set(results.values.compactMap { $0["push_id"] }))
            #expect(deliveries.contains { $0["provider_message_id"] == .string(fcm.name) })
        }
    }

    /// APNs 410 Unregistered, FCM UNREGISTERED, HMS 80300007: each shows as a dead token, which is
    /// removed, as a queued push's would be.
    @Test func deadTokensShowAsDeadAndAreRemoved() async throws {
        try await Self.withRelay { relay, fcmMock, hmsMock in
            try await Self.registerBob(relay)
            relay.mock.markUnregistered(token: Self.apnsToken, at: Date())
            fcmMock.markUnregistered([Self.fcmToken])
            hmsMock.markInvalid([Self.hmsToken])
            let answer = try await relay.request(.post, "/v3/push/test", body: #"{"user_id": "bob"}"#)
            #expect(answer.status == .ok, "\(answer.text)")
            let results = try Self.results(answer)
            for (provider, reason) in [("apns", "Unregistered"), ("fcm", "UNREGISTERED"), ("hms", "80300007")] {
                #expect(results[provider]?["status"] == .string("token_dead"), "\(provider): \(answer.text)")
                #expect(results[provider]?["reason"] == .string(reason), "\(provider): \(answer.text)")
                #expect(results[provider]?["token_removed"] == .bool(true), "\(provider): \(answer.text)")
            }
            #expect(results["apns"]?["http_status"] == .int(410))
            #expect(try await relay.store.tokens(app: TestApps.a.appID, user: "bob") == [])
            let log = try await relay.request(.get, "/v3/users/bob/push/deliveries")
            #expect(log.text.components(separatedBy: #""state":"token_invalid""#).count == 4, "\(log.text)")
            #expect(log.text.components(separatedBy: #""test":true"#).count == 4)
        }
    }

    /// Preferences off, do-not-disturb all day and snooze: a test push goes anyway.
    @Test func preferencesDoNotDisturbAndSnoozeDoNotStopIt() async throws {
        try await Self.withRelay { relay, _, _ in
            try await relay.register("bob", token: Self.apnsToken)
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let off = try await relay.request(
                .put, "/v3/users/bob/push_preference",
                body: #"""
                    {"push_trigger_option": "off", "do_not_disturb": true, "start_hour": 0, "start_min": 0, "end_hour": 23,
                     "end_min": 59, "timezone": "UTC", "snooze_enabled": true, "snooze_start_ts": \#(now - 60_000),
                     "snooze_end_ts": \#(now + 3_600_000)}
                    """#)
            #expect(off.status == .ok, "\(off.text)")
            let answer = try await relay.request(.post, "/v3/push/test", body: #"{"user_id": "bob"}"#)
            #expect(try Self.results(answer)["apns"]?["status"] == .string("sent"), "\(answer.text)")
            let payload = try PushCore.JSONValue.parse(try #require(relay.mock.notifications.first?.payload))
            #expect(payload["aps"]?["alert"] == .string(TestPushRequest.defaultMessage))
        }
    }

    /// One device token: only one a user of the app holds, so the app's credentials do not reach
    /// any device whose token someone knows. Registered, it is sent and logged under its owner.
    @Test func onlyADeviceTokenOfTheAppCanBeTested() async throws {
        try await Self.withRelay { relay, fcmMock, _ in
            let body = #"{"token_type": "gcm", "device_token": "\#(Self.fcmToken)", "message": "hi"}"#
            let refused = try await relay.request(.post, "/v3/push/test", body: body)
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.body["code"] == .int(400201))
            #expect(fcmMock.messages.isEmpty)
            try await Self.registerBob(relay)
            let answer = try await relay.request(.post, "/v3/push/test", body: body)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.body["user_id"] == .string("bob"))
            #expect(try Self.results(answer)["fcm"]?["status"] == .string("sent"))
            #expect(fcmMock.messages.map(\.token) == [Self.fcmToken])
        }
    }

    /// App B's API token reaches only app B's users: app A's user is unknown there, and nothing is sent.
    @Test func anotherAppsTokenCannotTestThisAppsUsers() async throws {
        try await Self.withRelay { relay, fcmMock, hmsMock in
            try await Self.registerBob(relay)
            let answer = try await relay.request(.post, "/v3/push/test", body: #"{"user_id": "bob"}"#, app: TestApps.b)
            #expect(answer.status == .badRequest)
            #expect(answer.code == 400201, "\(answer.text)")
            #expect(relay.mock.notifications.isEmpty && fcmMock.messages.isEmpty && hmsMock.messages.isEmpty)
        }
    }

    /// A device's session token may not send test pushes, not even to its own user.
    @Test func aSessionTokenIsRefused() async throws {
        try await Self.withRelay { relay, _, _ in
            try await relay.register("bob", token: Self.apnsToken)
            let issued = try await relay.request(.post, "/v3/users/bob/token")
            guard case .string(let session)? = issued.body["token"] else { throw TestFailure("no session token: \(issued.text)") }
            let response = try await relay.client.execute(
                uri: "/v3/push/test", method: .post,
                headers: [HTTPField.Name("Session-Token")!: session, .contentType: "application/json"],
                body: ByteBuffer(string: #"{"user_id": "bob"}"#))
            let answer = HTTPResult(status: response.status, headers: response.headers, text: String(buffer: response.body))
            #expect(answer.status == .forbidden)
            #expect(answer.code == 400108)
            #expect(relay.mock.notifications.isEmpty)
        }
    }

    /// `test_pushes_per_minute` per app, whichever token asks; 429 with Retry-After beyond it.
    @Test func theAppsTestPushesAreRateLimited() async throws {
        var limited = TestApps.a
        limited.limits.testPushesPerMinute = 2
        try await Self.withRelay(apps: [limited, TestApps.b]) { relay, _, _ in
            try await relay.register("bob", token: Self.apnsToken)
            for _ in 0..<2 {
                let answer = try await relay.request(.post, "/v3/push/test", body: #"{"user_id": "bob"}"#)
                #expect(answer.status == .ok, "\(answer.text)")
            }
            let refused = try await relay.request(.post, "/v3/push/test", body: #"{"user_id": "bob"}"#)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.code == 500910)
            #expect(refused.headers[.retryAfter].flatMap(Int.init).map { $0 >= 1 && $0 <= 30 } == true, "\(refused.headers)")
            #expect(relay.mock.notifications.count == 2)
            // Bad input costs no test push, and app B has its own.
            #expect(try await relay.request(.post, "/v3/push/test", body: "{}", app: TestApps.b).code == 400105)
            #expect(try await relay.request(.post, "/v3/push/test", body: #"{"user_id": "bob"}"#, app: TestApps.b).code == 400201)
        }
    }

    /// Mistakes get a Sendbird error naming the field, before anything is looked up or sent.
    @Test(arguments: [
        ("{}", 400105),
        ("[1]", 400403),
        (#"{"user_id": "bob", "device_token": "\#(apnsToken)", "token_type": "apns"}"#, 400111),
        (#"{"device_token": "\#(apnsToken)"}"#, 400105),
        (#"{"token_type": "apns"}"#, 400105),
        (#"{"token_type": "telex", "device_token": "\#(apnsToken)"}"#, 400111),
        (#"{"token_type": "apns", "device_token": "not-hex"}"#, 400111),
        (#"{"user_id": 7}"#, 400100),
        (#"{"user_id": ""}"#, 400110),
        (#"{"user_id": "bob", "message": ""}"#, 400110),
        (#"{"user_id": "bob", "message": "\#(String(repeating: "x", count: 1025))"}"#, 400110),
        (#"{"user_id": "bob", "message": "\#(String(repeating: #"\""#, count: 1000))", "title": "t"}"#, 400110),
        (#"{"user_id": "nobody"}"#, 400201),
        (#"{"user_id": "carol"}"#, 400201),
    ])
    func badInputIsA400(body: String, code: Int) async throws {
        try await LiveRelay.run { relay async throws in
            // Carol exists, with no device token.
            #expect(try await relay.request(.post, "/v3/users", body: #"{"user_id": "carol"}"#).status == .ok)
            let answer = try await relay.request(.post, "/v3/push/test", body: body)
            #expect(answer.status == .badRequest, "\(body) -> \(answer.status) \(answer.text)")
            #expect(answer.code == code, "\(body) -> \(answer.text)")
        }
    }
}
