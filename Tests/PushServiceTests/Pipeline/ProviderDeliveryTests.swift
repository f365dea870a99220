import APNs
import APNsMock
import FCM
import FCMMock
import Foundation
import HMS
import HMSMock
import HTTP2Transport
import PushCore
import TestSupport
import Testing
@testable import PushService

/// One user with an iPhone, an Android phone and a Huawei phone, through the whole relay in
/// process (REST, signed webhook, SQLite, dispatcher) to apns-mock, fcm-mock and hms-mock: the
/// member is decided once, each token gets its provider's form of the same push.
@Suite(.timeLimit(.minutes(5))) struct ProviderDeliveryTests {
    static let fcmToken = "bob-pixel:APA91b" + String(repeating: "Qk", count: 70)
    static let hmsToken = "IQAAAACy0kYkAAD+bob/" + String(repeating: "Mate9_", count: 20) + "=="
    static let hmsAppID = "104783201"
    static let hmsSecret = "provider-delivery-tests-secret"

    @Test func aMemberWithAllThreeKindsOfTokenGetsTheSamePushOnEach() async throws {
        let (fcmMock, fcm) = try await Self.fcm()
        let (hmsMock, hms) = try await Self.hms()
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, fcm: fcm, hms: hms) { relay in
                try await relay.register("bob", token: String(repeating: "ab", count: 32))
                let added = try await relay.request(.post, "/v3/users/bob/push/gcm", body: #"{"gcm_reg_token": "\#(Self.fcmToken)"}"#)
                #expect(added.status == .ok, "\(added.text)")
                let huawei = try await relay.request(
                    .post, "/v3/users/bob/push/huawei", body: #"{"huawei_device_token": "\#(Self.hmsToken)"}"#)
                #expect(huawei.status == .ok, "\(huawei.text)")

                let answer = try await relay.postWebhook(messageEvent(messageID: 9001, text: #"See \"you\" at 6 👋"#, offline: ["bob"]))
                #expect(answer.status == .ok, "\(answer.text)")
                let toFCM = try await fcmMock.waitForMessages(count: 1, timeout: .seconds(60))[0]
                let toHMS = try await hmsMock.waitForMessages(count: 1, timeout: .seconds(60))[0]
                let notification = try await mock.waitForNotifications(count: 1, timeout: .seconds(60))[0]

                #expect(notification.headers["apns-collapse-id"] == "sendbird-9001", "one collapse id per message")
                let apnsPayload = try JSONValue.parse(notification.payload)
                guard case .object(let aps)? = apnsPayload.objectValue?["aps"], case .string(let alert)? = aps["alert"] else {
                    Issue.record("no aps.alert in the APNs payload")
                    return
                }
                #expect(toFCM.token == Self.fcmToken)
                #expect(toFCM.android == FCMMock.RecordedMessage.Android(priority: "high", ttl: toFCM.android?.ttl))
                #expect(toFCM.data["message"] == alert)
                let sendbird = try JSONValue.parse(Data(try #require(toFCM.data["sendbird"]).utf8))
                #expect(sendbird == apnsPayload.objectValue?["sendbird"], "the same dictionary on both")
                #expect(Set(toFCM.data.keys) == ["message", "sendbird"])

                // HMS gets FCM's data map, as HMS's data message (a JSON string), urgency HIGH.
                #expect(toHMS.token == Self.hmsToken)
                #expect(toHMS.android?.urgency == "HIGH")
                #expect(toHMS.data == .object(toFCM.data.mapValues { .string($0) }), "the same map as FCM's")

                // The delivery log has all three, each with its provider's id once sent.
                try await relay.eventually("three deliveries recorded as sent") {
                    let log = try await relay.request(.get, "/v3/push/deliveries?message_id=9001&user_id=bob")
                    return log.text.contains(#""fcm_message_name":"\#(toFCM.name)""#)
                        && log.text.contains(#""provider_message_id":"\#(toHMS.requestId)""#)
                        && log.text.components(separatedBy: #""state":"sent""#).count == 4
                }
                // Each shows the fields of its own provider: apns_id and priority are APNs's.
                let log = try await relay.request(.get, "/v3/push/deliveries?message_id=9001&user_id=bob")
                let deliveries = try #require(try JSONValue.parse(Data(log.text.utf8)).objectValue?["deliveries"]?.arrayValue)
                for case .object(let delivery) in deliveries {
                    let apns = delivery["provider"] == .string("apns")
                    #expect((delivery["apns_id"] != nil) == apns, "\(delivery)")
                    #expect((delivery["priority"] != nil) == apns, "\(delivery)")
                    for case .object(let attempt) in delivery["attempt_log"]?.arrayValue ?? [] {
                        #expect((attempt["apns_id"] != nil) == apns, "\(attempt)")
                    }
                }
            }
        }
        await fcm.shutdown()
        await hms.shutdown()
        try await fcmMock.shutdown()
        try await hmsMock.shutdown()
    }

    /// A long text full of quotes, which cost most where the map is a string in a string (HMS):
    /// each provider's form is cut to its own limit and accepted, none refused as too large.
    @Test func aLongMessageFitsEveryProvidersLimit() async throws {
        let (fcmMock, fcm) = try await Self.fcm()
        let (hmsMock, hms) = try await Self.hms()
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, fcm: fcm, hms: hms) { relay in
                try await relay.register("bob", token: String(repeating: "ab", count: 32))
                _ = try await relay.request(.post, "/v3/users/bob/push/gcm", body: #"{"gcm_reg_token": "\#(Self.fcmToken)"}"#)
                _ = try await relay.request(.post, "/v3/users/bob/push/huawei", body: #"{"huawei_device_token": "\#(Self.hmsToken)"}"#)
                let text = String(repeating: #"say \"hi\" \\ "#, count: 600)
                let answer = try await relay.postWebhook(messageEvent(messageID: 9002, text: text, offline: ["bob"]))
                #expect(answer.status == .ok, "\(answer.text)")
                let toHMS = try await hmsMock.waitForMessages(count: 1, timeout: .seconds(60))[0]
                let toFCM = try await fcmMock.waitForMessages(count: 1, timeout: .seconds(60))[0]
                _ = try await mock.waitForNotifications(count: 1, timeout: .seconds(60))
                guard case .object(let hmsData) = toHMS.data, case .string(let hmsText)? = hmsData["message"] else {
                    Issue.record("no message in the HMS data")
                    return
                }
                #expect(hmsText.hasSuffix("…") && toFCM.data["message"]?.hasSuffix("…") == true)
                try await relay.eventually("three deliveries recorded as sent") {
                    let log = try await relay.request(.get, "/v3/push/deliveries?message_id=9002&user_id=bob")
                    return log.text.components(separatedBy: #""state":"sent""#).count == 4
                }
            }
        }
        await fcm.shutdown()
        await hms.shutdown()
        try await fcmMock.shutdown()
        try await hmsMock.shutdown()
    }

    /// A reader whose first preferred language is Korean sees the message's Korean translation
    /// on the iPhone, the Android and the Huawei phone alike.
    @Test func aReaderSeesTheTranslationIntoTheirLanguageOnEveryDevice() async throws {
        let (fcmMock, fcm) = try await Self.fcm()
        let (hmsMock, hms) = try await Self.hms()
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, fcm: fcm, hms: hms) { relay in
                try await relay.register("bora", token: String(repeating: "cd", count: 32))
                _ = try await relay.request(.post, "/v3/users/bora/push/gcm", body: #"{"gcm_reg_token": "\#(Self.fcmToken)"}"#)
                _ = try await relay.request(.post, "/v3/users/bora/push/huawei", body: #"{"huawei_device_token": "\#(Self.hmsToken)"}"#)
                let languages = try await relay.request(.put, "/v3/users/bora", body: #"{"preferred_languages": ["ko", "en"]}"#)
                #expect(languages.status == .ok, "\(languages.text)")
                let event = messageEvent(
                    messageID: 9003, text: "Good morning", offline: ["bora"], translations: #"{"ko": "좋은 아침", "de": "Guten Morgen"}"#)
                #expect(try await relay.postWebhook(event).status == .ok)
                let toAPNs = try await mock.waitForNotifications(count: 1, timeout: .seconds(60))[0]
                let toFCM = try await fcmMock.waitForMessages(count: 1, timeout: .seconds(60))[0]
                let toHMS = try await hmsMock.waitForMessages(count: 1, timeout: .seconds(60))[0]
                let apns = try JSONValue.parse(toAPNs.payload).objectValue
                #expect(apns?["aps"]?.objectValue?["alert"] == .string("Sender Name: 좋은 아침"))
                #expect(toFCM.data["message"] == "Sender Name: 좋은 아침")
                guard case .object(let hmsData) = toHMS.data else {
                    Issue.record("no HMS data")
                    return
                }
                #expect(hmsData["message"] == .string("Sender Name: 좋은 아침"))
            }
        }
        await fcm.shutdown()
        await hms.shutdown()
        try await fcmMock.shutdown()
        try await hmsMock.shutdown()
    }

    static func fcm() async throws -> (FCMMockServer, FCMClient) {
        let mock = try FCMMockServer(
            configuration: FCMMockConfiguration(
                tlsCertificatePath: Repository.devCert("server.pem"), tlsKeyPath: Repository.devCert("server.key"),
                serviceAccountPath: Repository.devCert("fcm-service-account.json")))
        try await mock.start()
        let client = try FCMClient(
            configuration: FCMClientConfiguration(
                serviceAccount: try FCMServiceAccount(file: Repository.devCert("fcm-service-account.json")),
                serviceAccountSource: "fcm-service-account.json",
                endpoint: TransportEndpoint(host: "127.0.0.1", port: mock.port),
                tokenURL: URL(string: "https://127.0.0.1:\(mock.port)/token")!, extraCAFile: Repository.devCert("ca.pem"),
                trustSystemRoots: false, connections: 1))
        return (mock, client)
    }

    static func hms() async throws -> (HMSMockServer, HMSClient) {
        let mock = try HMSMockServer(
            configuration: HMSMockConfiguration(
                tlsCertificatePath: Repository.devCert("server.pem"), tlsKeyPath: Repository.devCert("server.key"), appID: hmsAppID,
                clientSecret: hmsSecret))
        try await mock.start()
        let endpoint = URL(string: "https://localhost:\(mock.port)")!
        let client = try HMSClient(
            configuration: HMSClientConfiguration(
                appID: hmsAppID, clientSecret: hmsSecret, endpoint: endpoint, tokenURL: endpoint.appendingPathComponent("oauth2/v3/token"),
                caFile: Repository.devCert("ca.pem"), connections: 1))
        return (mock, client)
    }
}
