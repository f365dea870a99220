import APNs
import APNsMock
import FCM
import FCMMock
import Foundation
import HTTP2Transport
import PushCore
import TestSupport
import Testing
@testable import PushService

/// One user with an iPhone and an Android phone, through the whole relay in process (REST,
/// signed webhook, SQLite, dispatcher) to apns-mock and fcm-mock: the member is decided once,
/// each token gets its provider's form of the same push.
@Suite struct FCMDeliveryTests {
    static let fcmToken = "bob-pixel:APA91b" + String(repeating: "Qk", count: 70)

    @Test func aMemberWithBothKindsOfTokenGetsTheSamePushOnEach() async throws {
        let fcmMock = try FCMMockServer(
            configuration: FCMMockConfiguration(
                tlsCertificatePath: Repository.devCert("server.pem"), tlsKeyPath: Repository.devCert("server.key"),
                serviceAccountPath: Repository.devCert("fcm-service-account.json")))
        try await fcmMock.start()
        let fcm = try FCMClient(
            configuration: FCMClientConfiguration(
                serviceAccount: try FCMServiceAccount(file: Repository.devCert("fcm-service-account.json")),
                serviceAccountSource: "fcm-service-account.json",
                endpoint: TransportEndpoint(host: "127.0.0.1", port: fcmMock.port),
                tokenURL: URL(string: "https://127.0.0.1:\(fcmMock.port)/token")!, extraCAFile: Repository.devCert("ca.pem"),
                trustSystemRoots: false, connections: 1))
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, fcm: fcm) { relay in
                let apnsToken = String(repeating: "ab", count: 32)
                try await relay.register("bob", token: apnsToken)
                let added = try await relay.request(.post, "/v3/users/bob/push/gcm", body: #"{"gcm_reg_token": "\#(Self.fcmToken)"}"#)
                #expect(added.status == .ok, "\(added.text)")

                let answer = try await relay.postWebhook(messageEvent(messageID: 9001, text: #"See \"you\" at 6 👋"#, offline: ["bob"]))
                #expect(answer.status == .ok, "\(answer.text)")
                let sentToFCM = try await fcmMock.waitForMessages(count: 1, timeout: .seconds(60))
                let notifications = try await mock.waitForNotifications(count: 1, timeout: .seconds(60))

                let apnsPayload = try JSONValue.parse(notifications[0].payload)
                let fcmMessage = sentToFCM[0]
                #expect(fcmMessage.token == Self.fcmToken)
                #expect(fcmMessage.android == RecordedMessage.Android(priority: "high", ttl: fcmMessage.android?.ttl))
                guard case .object(let aps)? = apnsPayload.objectValue?["aps"], case .string(let alert)? = aps["alert"] else {
                    Issue.record("no aps.alert in the APNs payload")
                    return
                }
                #expect(fcmMessage.data["message"] == alert)
                let sendbird = try JSONValue.parse(Data(try #require(fcmMessage.data["sendbird"]).utf8))
                #expect(sendbird == apnsPayload.objectValue?["sendbird"], "the same dictionary on both")
                #expect(Set(fcmMessage.data.keys) == ["message", "sendbird"])

                // The delivery log has both, the FCM one with FCM's name for the message.
                try await relay.eventually("both deliveries recorded as sent") {
                    let log = try await relay.request(.get, "/v3/push/deliveries?message_id=9001&user_id=bob")
                    return log.text.contains(#""fcm_message_name":"\#(fcmMessage.name)""#)
                        && log.text.components(separatedBy: #""state":"sent""#).count == 3
                }
            }
        }
        await fcm.shutdown()
        try await fcmMock.shutdown()
    }
}
