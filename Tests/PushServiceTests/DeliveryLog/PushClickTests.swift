import Foundation
import PushCore
import Testing
@testable import PushService
@testable import PushStore
@testable import StoreContract

/// A user opening a push: `POST /v3/sdk/push_delivery` with `event_type: CLICKED` (what Sendbird's
/// SDKs post for `markPushNotificationAsClicked`) and `POST /v3/sdk/push_click`, with Sendbird's
/// body, over the live HTTP server and a real SQLite file (the store's side runs on PostgreSQL
/// too: `PushStoreDeliveriesTests`).
@Suite(.timeLimit(.minutes(5))) struct PushClickTests {
    static let fcmToken = "bob-pixel:APA91b" + String(repeating: "Qk", count: 70)
    static let hmsToken = "IQAAAACy0kYkAAD+bob/" + String(repeating: "Mate9_", count: 20) + "=="
    static let messageID: Int64 = 21
    static let tracking = PushTrackingID(messageID: messageID, recipient: "bob").description

    /// Bob holds a token of each provider and got message 21 on each; carol holds an APNs token.
    static func setUp(_ relay: LiveRelay) async throws {
        for (path, body) in [
            ("bob/push/apns", #"{"apns_device_token": "\#(apnsToken(1))"}"#),
            ("bob/push/gcm", #"{"gcm_reg_token": "\#(fcmToken)"}"#),
            ("bob/push/huawei", #"{"huawei_device_token": "\#(hmsToken)"}"#),
            ("carol/push/apns", #"{"apns_device_token": "\#(apnsToken(2))"}"#),
        ] {
            let r = try await relay.request(.post, "/v3/users/\(path)", body: body)
            #expect(r.status == .ok, "\(path): \(r.text)")
        }
        let now = WallClock.milliseconds()
        let deliveries = [(apnsToken(1), PushProvider.apns, "alert"), (fcmToken, .fcm, "fcm"), (hmsToken, .hms, "hms")].map {
            NewDelivery(
                userID: "bob", deviceToken: $0.0, payload: Data("{}".utf8), pushID: UUID(), provider: $0.1, pushType: $0.2, priority: 10,
                expiresAtMs: now + 60_000)
        }
        let event = AcceptedEvent(
            appID: TestApps.a.appID, messageID: messageID, channelURL: "c1", senderID: "alice", acceptedAtMs: now, decisions: [],
            deliveries: deliveries)
        #expect(try await relay.store.acceptEvent(event))
    }

    /// Sendbird's body as its SDKs post it (`device_token`, `push_tracking_id`, `message_id`,
    /// `event_type`, `channel_key`, `template_key`); `eventType` nil leaves the field out.
    static func body(_ token: String, eventType: String? = "CLICKED", tracking: String = tracking) -> String {
        let event = eventType.map { #", "event_type": "\#($0)""# } ?? ""
        return #"""
            {"device_token": "\#(token)", "push_tracking_id": "\#(tracking)", "message_id": \#(messageID)\#(event),
             "channel_key": "sendbird_group_channel_1", "template_key": "default"}
            """#
    }

    /// Bob's deliveries of message 21 as the delivery log shows them, by provider.
    static func logged(_ relay: LiveRelay) async throws -> [String: JSONValue] {
        let log = try await relay.request(.get, "/v3/push/deliveries?message_id=\(messageID)&user_id=bob")
        guard case .array(let deliveries)? = log.body["deliveries"] else { throw TestFailure("no deliveries: \(log.text)") }
        var byProvider: [String: JSONValue] = [:]
        for delivery in deliveries {
            guard case .string(let provider)? = delivery["provider"] else { throw TestFailure("no provider: \(log.text)") }
            byProvider[provider] = delivery
        }
        #expect(byProvider.count == 3, "\(log.text)")
        return byProvider
    }

    static func time(_ delivery: JSONValue?, _ field: String) -> Int64? {
        if case .int(let at)? = delivery?[field] { return at }
        return nil
    }

    /// Each provider's token, each way in: the SDK's `push_delivery` with a session token, and
    /// `push_click` with a server credential (the device token's owner) or a session token.
    @Test func eachProvidersClickIsRecordedOnceAndAcknowledgesThePush() async throws {
        try await LiveRelay.run { relay async throws in
            try await Self.setUp(relay)
            let bob = try await relay.issueSessionToken(for: "bob")
            let start = WallClock.milliseconds()
            // APNs: as the iOS SDK posts it (the token in any case), with bob's session token.
            let apns = try await relay.request(
                .post, "/v3/sdk/push_delivery", body: Self.body(apnsToken(1).uppercased()), sessionToken: bob)
            #expect(apns.body == json("{}"), "\(apns.text)")
            // FCM: on its own path, with the app's API token.
            let fcm = try await relay.request(.post, "/v3/sdk/push_click", body: Self.body(Self.fcmToken, eventType: nil))
            #expect(fcm.body == json("{}"), "\(fcm.text)")
            // HMS: delivered first (no click yet), then opened, with bob's session token.
            let delivered = try await relay.request(.post, "/v3/sdk/push_delivery", body: Self.body(Self.hmsToken, eventType: "DELIVERED"))
            #expect(delivered.status == .ok, "\(delivered.text)")
            #expect(Self.time(try await Self.logged(relay)["hms"], "clicked_at") == nil, "a delivery is not a click")
            let hms = try await relay.request(.post, "/v3/sdk/push_click", body: Self.body(Self.hmsToken), sessionToken: bob)
            #expect(hms.body == json("{}"), "\(hms.text)")

            let first = try await Self.logged(relay)
            let end = WallClock.milliseconds()
            for provider in ["apns", "fcm", "hms"] {
                let clicked = try #require(Self.time(first[provider], "clicked_at"), "\(provider): \(String(describing: first[provider]))")
                let acknowledged = try #require(Self.time(first[provider], "acknowledged_at"), "\(provider)")
                #expect((start...end).contains(clicked), "\(provider)")
                // The click acknowledged what was not; HMS's earlier acknowledgement stands.
                #expect(provider == "hms" ? acknowledged <= clicked : acknowledged == clicked, "\(provider)")
            }

            // Again, every way: fine, and the first times stand.
            for (path, token) in [("push_click", apnsToken(1)), ("push_delivery", Self.fcmToken), ("push_delivery", Self.hmsToken)] {
                #expect(try await relay.request(.post, "/v3/sdk/\(path)", body: Self.body(token), sessionToken: bob).status == .ok)
                #expect(try await relay.request(.post, "/v3/sdk/\(path)", body: Self.body(token)).status == .ok)
            }
            let again = try await Self.logged(relay)
            for provider in ["apns", "fcm", "hms"] {
                #expect(Self.time(again[provider], "clicked_at") == Self.time(first[provider], "clicked_at"), "\(provider)")
                #expect(Self.time(again[provider], "acknowledged_at") == Self.time(first[provider], "acknowledged_at"), "\(provider)")
            }
        }
    }

    /// Another user's session token, another user's device token, a push bob never got: 400201,
    /// and nothing is recorded.
    @Test func anotherUsersClickIsNotFoundAndRecordsNothing() async throws {
        try await LiveRelay.run { relay async throws in
            try await Self.setUp(relay)
            let carol = try await relay.issueSessionToken(for: "carol")
            for path in ["push_click", "push_delivery"] {
                for token in [apnsToken(1), Self.fcmToken, Self.hmsToken] {
                    let r = try await relay.request(.post, "/v3/sdk/\(path)", body: Self.body(token), sessionToken: carol)
                    #expect(r.code == 400201, "\(path) \(r.text)")
                }
                #expect(try await relay.request(.post, "/v3/sdk/\(path)", body: Self.body(apnsToken(2))).code == 400201, "carol's token")
                let never = PushTrackingID(messageID: 22, recipient: "bob").description
                #expect(try await relay.request(.post, "/v3/sdk/\(path)", body: Self.body(apnsToken(1), tracking: never)).code == 400201)
                let other = PushTrackingID(messageID: Self.messageID, recipient: "carol").description
                #expect(try await relay.request(.post, "/v3/sdk/\(path)", body: Self.body(apnsToken(2), tracking: other)).code == 400201)
            }
            for (provider, delivery) in try await Self.logged(relay) {
                #expect(delivery["clicked_at"] == nil && delivery["acknowledged_at"] == nil, "\(provider): \(delivery)")
            }
        }
    }

    /// `event_type` is Sendbird's `DELIVERED` or `CLICKED` (`push_click`: `CLICKED` only); anything
    /// else is 400111 naming what is allowed, and records nothing. No credential: 401.
    @Test func anEventTypeOtherThanSendbirdsIsRefused() async throws {
        try await LiveRelay.run { relay async throws in
            try await Self.setUp(relay)
            for eventType in ["OPENED", "clicked", "", "CLICKED "] {
                let r = try await relay.request(.post, "/v3/sdk/push_delivery", body: Self.body(apnsToken(1), eventType: eventType))
                #expect(r.code == 400111, "\(eventType): \(r.text)")
                #expect(r.body["message"] == .string(#"Invalid value: "event_type" must be "DELIVERED" or "CLICKED"."#), "\(r.text)")
            }
            let delivered = try await relay.request(.post, "/v3/sdk/push_click", body: Self.body(apnsToken(1), eventType: "DELIVERED"))
            #expect(delivered.code == 400111, "\(delivered.text)")
            #expect(delivered.body["message"] == .string(#"Invalid value: "event_type" must be "CLICKED"."#), "\(delivered.text)")
            let number = Self.body(apnsToken(1)).replacingOccurrences(of: #""CLICKED""#, with: "2")
            #expect(try await relay.request(.post, "/v3/sdk/push_delivery", body: number).code == 400100)
            #expect(try await relay.request(.post, "/v3/sdk/push_click", body: Self.body(apnsToken(1)), app: nil).status == .unauthorized)
            for (provider, delivery) in try await Self.logged(relay) {
                #expect(delivery["clicked_at"] == nil && delivery["acknowledged_at"] == nil, "\(provider): \(delivery)")
            }
            #expect(try await relay.request(.post, "/v3/sdk/push_click", body: Self.body(apnsToken(1), eventType: "CLICKED")).status == .ok)
            #expect(Self.time(try await Self.logged(relay)["apns"], "clicked_at") != nil)
        }
    }
}
