import APNsMock
import Foundation
import PushCore
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct WebhookIntakeTests {
    @Test func aSignedEventIsPushedToEachOfflineMembersTokenWithTheSendbirdPayload() async throws {
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory) { relay in
                try await relay.register("bob", token: apnsToken(1))
                try await relay.register("carol", token: apnsToken(2))
                try await relay.register("dave", token: apnsToken(3))
                let r = try await relay.postWebhook(
                    messageEvent(messageID: 1001, text: "héllo 👋", offline: ["bob", "carol"], online: ["dave"]))
                #expect(r.status == .ok, "\(r.text)")
                #expect(r.body == json(#"{"result": "accepted", "deliveries": 2}"#))

                let received = try await mock.waitForNotifications(count: 2, timeout: .seconds(60))
                #expect(Set(received.map(\.deviceToken)) == [apnsToken(1), apnsToken(2)])
                for n in received {
                    #expect(n.headers["apns-topic"] == PipelineFixtures.topic)
                    #expect(n.headers["apns-push-type"] == "alert")
                    #expect(n.headers["apns-priority"] == "10")
                    #expect(n.headers["apns-expiration"].flatMap(Int.init).map { $0 > Int(Date().timeIntervalSince1970) } == true)
                    let payload = try #require(try JSONSerialization.jsonObject(with: n.payload) as? [String: Any])
                    let aps = try #require(payload["aps"] as? [String: Any])
                    #expect((aps["alert"] as? String)?.contains("héllo 👋") == true)
                    #expect(aps["badge"] as? Int == 3)
                    let sendbird = try #require(payload["sendbird"] as? [String: Any])
                    #expect(sendbird["message_id"] as? Int == 1001)
                    #expect(sendbird["message"] as? String == "héllo 👋")
                }
                // The log says why dave got nothing, and the stored apns-id is the one sent.
                let dave = try await relay.request(.get, "/v3/push/deliveries?message_id=1001&user_id=dave")
                #expect(dave.body["decision"] == .string("online"))
                #expect(dave.body["deliveries"] == json("[]"))
                try await relay.eventually("bob's delivery recorded as sent") {
                    let log = try await relay.request(.get, "/v3/push/deliveries?message_id=1001&user_id=bob")
                    guard case .array(let items)? = log.body["deliveries"] else { return false }
                    return items.first?["state"] == .string("sent")
                }
                let bob = try await relay.request(.get, "/v3/push/deliveries?message_id=1001&user_id=bob")
                #expect(bob.body["decision"] == .string("push"))
                guard case .array(let deliveries)? = bob.body["deliveries"], let first = deliveries.first else {
                    Issue.record("no delivery for bob: \(bob.text)")
                    return
                }
                #expect(first["device_token"] == .string(String(apnsToken(1).prefix(4)) + "…"))
                let sentID = try #require(received.first { $0.deviceToken == apnsToken(1) }?.headers["apns-id"])
                #expect(first["apns_id"] == .string(sentID.lowercased()))
                #expect(first["attempts"] == .int(1))

                let list = try await relay.request(.get, "/v3/users/bob/push/deliveries?limit=5")
                #expect(list.status == .ok)
                if case .array(let items)? = list.body["deliveries"] {
                    #expect(items.count == 1)
                } else {
                    Issue.record(Comment(rawValue: list.text))
                }
            }
        }
    }

    @Test func configuredTemplatesRenderTheAlertUnlessTheAPIChangedThem() async throws {
        var configured = TestApps.a
        configured.templates.defaultTemplate.mesg = "[{channel_name}] {sender_name}: {message}"
        configured.templates.channelCustomTypes["support"] = PushMessageTemplate(
            mesg: "Support: {message}", file: "{filename}", admm: "{message}")
        let apps = [configured, TestApps.b]
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, apps: apps) { relay in
                try await relay.register("bob", token: apnsToken(1))
                func alert(after messageID: Int64, _ body: String) async throws -> String? {
                    #expect(try await relay.postWebhook(body).status == .ok)
                    let received = try await mock.waitForNotifications(count: Int(messageID), timeout: .seconds(60))
                    let payload = try JSONSerialization.jsonObject(with: received[Int(messageID) - 1].payload) as? [String: Any]
                    return (payload?["aps"] as? [String: Any])?["alert"] as? String
                }
                #expect(
                    try await alert(after: 1, messageEvent(messageID: 1, text: "hi", offline: ["bob"])) == "[Channel One] Sender Name: hi")
                #expect(
                    try await alert(after: 2, messageEvent(messageID: 2, text: "help", offline: ["bob"], channelCustomType: "support"))
                        == "Support: help")
                #expect(
                    try await relay.request(
                        .put, "/v3/applications/push/message_templates/default",
                        body: #"{"template": {"MESG": "{sender_name} wrote"}}"#
                    ).status == .ok)
                #expect(try await alert(after: 3, messageEvent(messageID: 3, text: "hi", offline: ["bob"])) == "Sender Name wrote")
            }
        }
    }

    @Test func aDuplicateEventIsAnsweredButPushedOnce() async throws {
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory) { relay in
                try await relay.register("bob", token: apnsToken(1))
                let body = messageEvent(messageID: 7, offline: ["bob"])
                #expect(try await relay.postWebhook(body).body["result"] == .string("accepted"))
                let again = try await relay.postWebhook(body)
                #expect(again.status == .ok)
                #expect(again.body["result"] == .string("duplicate"))
                _ = try await mock.waitForNotifications(count: 1, timeout: .seconds(60))
                try await relay.eventually("queue drained") { try await relay.store.pendingCount() == 0 }
                #expect(mock.notifications.count == 1)
                #expect(try await relay.store.deliveryStateCounts() == [.sent: 1])
            }
        }
    }

    @Test func aBadOrMissingSignatureIs401AndStoresNothing() async throws {
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory) { relay in
                try await relay.register("bob", token: apnsToken(1))
                let body = messageEvent(messageID: 8, offline: ["bob"])
                let wrong = try await relay.postWebhook(body, signingToken: .some("not-the-token"))
                #expect(wrong.status == .unauthorized)
                #expect(wrong.code == 400401)
                let missing = try await relay.postWebhook(body, signingToken: .none)
                #expect(missing.status == .unauthorized)
                // Signed by another app's token.
                let other = try await relay.postWebhook(body, signingToken: .some(TestApps.b.apiToken.value))
                #expect(other.status == .unauthorized)
                #expect(try await relay.store.eventExists(app: TestApps.a.appID, messageID: 8) == false)
                #expect(try await relay.store.deliveryStateCounts().isEmpty)
            }
        }
    }

    @Test func unknownAppMissingMembersAndOtherCategories() async throws {
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory) { relay in
                let unknown = try await relay.postWebhook(messageEvent(messageID: 9, app: "nope", offline: ["bob"]))
                #expect(unknown.status == .notFound)
                #expect(unknown.body["message"] == .string(#"Application "nope" is not configured on this relay."#))

                let noMembers = try await relay.postWebhook(messageEvent(messageID: 10, offline: ["bob"], includeMembers: false))
                #expect(noMembers.status == .badRequest)
                #expect(noMembers.body["message"] == .string("member information must be included in the webhook"))

                let other = try await relay.postWebhook(messageEvent(messageID: 11, offline: ["bob"], category: "group_channel:join"))
                #expect(other.status == .ok)
                #expect(other.body["result"] == .string("ignored"))
                #expect(try await relay.store.eventExists(app: TestApps.a.appID, messageID: 11) == false)

                // App B is configured for REST but has no APNs target: not accepted.
                let noTarget = try await relay.postWebhook(
                    messageEvent(messageID: 12, app: TestApps.b.appID, offline: ["bob"]),
                    signingToken: .some(TestApps.b.apiToken.value))
                #expect(noTarget.status == .serviceUnavailable)
                #expect(try await relay.store.eventExists(app: TestApps.b.appID, messageID: 12) == false)
            }
        }
    }
}
