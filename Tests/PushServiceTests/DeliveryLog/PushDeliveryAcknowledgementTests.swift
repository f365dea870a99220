import Foundation
import PushCore
import Testing
@testable import PushService
@testable import PushStore
@testable import StoreContract

/// `POST /v3/sdk/push_delivery` over the live HTTP server and a real SQLite file.
@Suite(.timeLimit(.minutes(5))) struct PushDeliveryAcknowledgementTests {
    @Test func aDeviceAcknowledgesItsPushOnceAndTheLogShowsIt() async throws {
        try await LiveRelay.run { relay async throws in
            #expect(
                try await relay.request(.post, "/v3/users/bob/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#).status == .ok
            )
            #expect(
                try await relay.request(.post, "/v3/users/carol/push/apns", body: #"{"apns_device_token": "\#(apnsToken(2))"}"#).status
                    == .ok)
            let now = WallClock.milliseconds()
            let event = AcceptedEvent(
                appID: TestApps.a.appID, messageID: 9, channelURL: "c1", senderID: "alice", acceptedAtMs: now, decisions: [],
                deliveries: [
                    NewDelivery(
                        userID: "bob", deviceToken: apnsToken(1), payload: Data("{}".utf8), pushID: UUID(), provider: .apns,
                        pushType: "alert", priority: 10,
                        expiresAtMs: now + 60_000)
                ])
            #expect(try await relay.store.acceptEvent(event))
            let tracking = PushTrackingID(messageID: 9, recipient: "bob").description
            let body = #"{"device_token": "\#(apnsToken(1).uppercased())", "push_tracking_id": "\#(tracking)"}"#

            let bob = try await relay.issueSessionToken(for: "bob")
            let carol = try await relay.issueSessionToken(for: "carol")
            #expect(try await relay.request(.post, "/v3/sdk/push_delivery", body: body, sessionToken: carol).code == 400201)
            #expect(try await relay.request(.post, "/v3/sdk/push_delivery", body: body, sessionToken: bob).body == json("{}"))
            let log = try await relay.request(.get, "/v3/push/deliveries?message_id=9&user_id=bob")
            guard case .array(let deliveries)? = log.body["deliveries"], case .int(let at)? = deliveries.first?["acknowledged_at"] else {
                Issue.record(Comment(rawValue: log.text))
                return
            }
            #expect((now...WallClock.milliseconds()).contains(at))
            // Again, now with the server's credential: fine, and the first time stands.
            #expect(try await relay.request(.post, "/v3/sdk/push_delivery", body: body).status == .ok)
            let again = try await relay.request(.get, "/v3/push/deliveries?message_id=9&user_id=bob")
            // (The relay's dispatcher may have tried the delivery meanwhile; only the time counts here.)
            guard case .array(let later)? = again.body["deliveries"] else { Issue.record(Comment(rawValue: again.text)); return }
            #expect(later.first?["acknowledged_at"] == .int(at))

            let other = PushTrackingID(messageID: 9, recipient: "carol").description
            #expect(
                try await relay.request(
                    .post, "/v3/sdk/push_delivery", body: #"{"device_token": "\#(apnsToken(2))", "push_tracking_id": "\#(other)"}"#
                ).code == 400201, "carol got no push of message 9")
            #expect(try await relay.request(.post, "/v3/sdk/push_delivery", body: #"{"device_token": "\#(apnsToken(1))"}"#).code == 400105)
            #expect(
                try await relay.request(
                    .post, "/v3/sdk/push_delivery", body: #"{"device_token": "\#(apnsToken(1))", "push_tracking_id": "9-x"}"#
                ).code == 400111)
            #expect(
                try await relay.request(
                    .post, "/v3/sdk/push_delivery", body: #"{"device_token": "zz", "push_tracking_id": "\#(tracking)"}"#
                ).code == 400111)
            #expect(try await relay.request(.post, "/v3/sdk/push_delivery", body: body, app: nil).status == .unauthorized)
        }
    }

    /// An Android device acknowledges with its FCM registration token, as posted (case kept).
    @Test func anAndroidDeviceAcknowledgesWithItsFCMToken() async throws {
        try await LiveRelay.run { relay async throws in
            let fcm = "dGVzdA:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"
            #expect(try await relay.request(.post, "/v3/users/bob/push/gcm", body: #"{"gcm_reg_token": "\#(fcm)"}"#).status == .ok)
            let now = WallClock.milliseconds()
            let event = AcceptedEvent(
                appID: TestApps.a.appID, messageID: 11, channelURL: "c1", senderID: "alice", acceptedAtMs: now, decisions: [],
                deliveries: [
                    NewDelivery(
                        userID: "bob", deviceToken: fcm, payload: Data("{}".utf8), pushID: UUID(), provider: .fcm, pushType: "fcm",
                        priority: 10, expiresAtMs: now + 60_000)
                ])
            #expect(try await relay.store.acceptEvent(event))
            let tracking = PushTrackingID(messageID: 11, recipient: "bob").description
            #expect(
                try await relay.request(
                    .post, "/v3/sdk/push_delivery", body: #"{"device_token": "\#(fcm.lowercased())", "push_tracking_id": "\#(tracking)"}"#
                ).code == 400201, "FCM tokens are case-sensitive")
            #expect(
                try await relay.request(
                    .post, "/v3/sdk/push_delivery", body: #"{"device_token": "\#(fcm)", "push_tracking_id": "\#(tracking)"}"#
                ).body == json("{}"))
            let log = try await relay.request(.get, "/v3/push/deliveries?message_id=11&user_id=bob")
            guard case .array(let deliveries)? = log.body["deliveries"], let first = deliveries.first else {
                Issue.record(Comment(rawValue: log.text))
                return
            }
            #expect(first["provider"] == .string("fcm"))
            guard case .int = first["acknowledged_at"] else { Issue.record(Comment(rawValue: log.text)); return }
        }
    }
}
