import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PushCore
import StoreContract
import Testing
@testable import PushService
@testable import PushStore

/// `POST /v3/notifications` and its companions over HTTP on a loopback port: what is accepted and
/// stored, what is refused without a write, an `Idempotency-Key`'s repeat and reuse, the state and
/// counts, cancelling, and topics for a user's own session.
@Suite(.timeLimit(.minutes(5))) struct NotificationsAPITests {
    static let templates = AppConfiguration(
        appID: "app-A", apiToken: TestApps.a.apiToken,
        notifications: NotificationSettings(templates: [
            "shipped": NotificationTemplate(
                texts: NotificationTexts(
                    standard: NotificationText(title: "Shipped", body: "Order {order} is on its way"),
                    translations: ["de": NotificationText(body: "Bestellung {order} ist unterwegs")]))
        ]))

    func post(_ relay: LiveRelay, _ body: String, key: String? = nil) async throws -> HTTPResult {
        var headers: HTTPFields = [HTTPField.Name("Api-Token")!: TestApps.a.apiToken.value, .contentType: "application/json"]
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        let response = try await relay.client.execute(
            uri: "/v3/notifications", method: .post, headers: headers, body: ByteBuffer(string: body))
        return HTTPResult(status: response.status, headers: response.headers, text: String(buffer: response.body))
    }

    @Test func aRepeatedKeyAnswersTheFirstResultAndAnotherBodyIs422() async throws {
        try await LiveRelay.run(apps: [Self.templates, TestApps.b]) { relay async throws in
            let body = #"{"user_ids": ["alice", "bob"], "template": "shipped", "variables": {"order": "A-17"}}"#
            let first = try await post(relay, body, key: "order-A-17")
            #expect(first.status == .ok, "\(first.text)")
            let again = try await post(relay, body, key: "order-A-17")
            #expect(again.status == .ok && again.text == first.text)
            #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let other = try await post(relay, body.replacingOccurrences(of: "A-17", with: "A-18"), key: "order-A-17")
            #expect(other.status == .unprocessableContent && other.code == 400111, "\(other.text)")
            #expect(try await relay.store.notifications(app: "app-A", beforeID: nil, limit: 10, openOnly: false).count == 1)
            // Keys are the app's own: app B may use the same one.
            let elsewhere = try await relay.request(.post, "/v3/notifications", body: #"{"topic": "t", "body": "x"}"#, app: TestApps.b)
            #expect(elsewhere.status == .ok)
            let stored = try #require(try await relay.store.notifications(app: "app-A", beforeID: nil, limit: 1, openOnly: false).first)
            let content = try #require(NotificationContent(stored: stored.request.content))
            #expect(content.texts.standard.body == "Order A-17 is on its way")
            #expect(content.texts.translations["de"]?.body == "Bestellung A-17 ist unterwegs")
        }
    }

    @Test func badRequestsAreRefusedByFieldAndStoreNothing() async throws {
        try await LiveRelay.run(apps: [Self.templates, TestApps.b]) { relay async throws in
            let cases: [(String, String)] = [
                (#"{"body": "x"}"#, "user_ids"),
                (#"{"user_ids": ["a"], "topic": "t", "body": "x"}"#, "topic"),
                (#"{"user_ids": [], "body": "x"}"#, "user_ids"),
                (#"{"user_ids": [1], "body": "x"}"#, "user_ids[0]"),
                (#"{"user_ids": ["a"]}"#, "body"),
                (#"{"user_ids": ["a"], "template": "nope"}"#, "template"),
                (#"{"user_ids": ["a"], "template": "shipped"}"#, "variables"),
                (#"{"user_ids": ["a"], "template": "shipped", "body": "x", "variables": {"order": "1"}}"#, "body"),
                (#"{"topic": "a b", "body": "x"}"#, "topic"),
                (#"{"topic": "t", "body": "x", "local_time": "9:00"}"#, "local_time"),
                (#"{"topic": "t", "body": "x", "send_at": 99999999999999999}"#, "send_at"),
                (#"{"topic": "t", "body": "x", "interruption_level": "critical"}"#, "interruption_level"),
                (#"{"topic": "t", "body": "x", "time_sensitive": true, "interruption_level": "passive"}"#, "time_sensitive"),
                (#"{"topic": "t", "body": "x", "translations": {"not a code": {"body": "y"}}}"#, "translations"),
                (#"{"topic": "t", "body": "x", "data": "text"}"#, "data"),
                (#"{"topic": "t", "body": "x", "pushes_per_minute": 0}"#, "pushes_per_minute"),
                (#"{"topic": "t", "body": "x", "collapse_key": "\#(String(repeating: "k", count: 65))"}"#, "collapse_key"),
            ]
            for (body, field) in cases {
                let answer = try await post(relay, body)
                #expect(answer.status.code / 100 == 4 && answer.text.contains(field) || answer.code == 400201, "\(body): \(answer.text)")
                #expect(answer.body["error"] == .bool(true))
            }
            let tooMany = "{\"body\": \"x\", \"user_ids\": [" + (0...10_000).map { "\"u\($0)\"" }.joined(separator: ",") + "]}"
            #expect(try await post(relay, tooMany).code == 400111)
            let badKey = try await post(relay, #"{"topic": "t", "body": "x"}"#, key: String(repeating: "k", count: 256))
            #expect(badKey.status == .badRequest && badKey.text.contains("Idempotency-Key"))
            #expect(try await relay.store.notifications(app: "app-A", beforeID: nil, limit: 10, openOnly: false).isEmpty)
            // The app's server only.
            let session = try await relay.issueSessionToken(for: "alice")
            #expect(
                try await relay.request(.post, "/v3/notifications", body: #"{"topic": "t", "body": "x"}"#, sessionToken: session).status
                    == .forbidden)
        }
    }

    @Test func aScheduledNotificationIsListedReadAndCancelled() async throws {
        try await LiveRelay.run { relay async throws in
            let at = WallClock.milliseconds() + 86_400_000
            let created = try await relay.request(
                .post, "/v3/notifications", body: #"{"topic": "news", "body": "Later", "send_at": \#(at), "collapse_key": "daily"}"#)
            #expect(created.body["state"] == .string("scheduled") && created.body["send_at"] == .int(at), "\(created.text)")
            guard case .int(let id)? = created.body["notification_id"] else { throw TestFailure(created.text) }
            let open = try await relay.request(.get, "/v3/notifications?state=open")
            #expect(
                open.body["notifications"]
                    == .array([
                        json(
                            #"{"notification_id":\#(id),"state":"scheduled","audience":{"topic":"news"},"send_at":\#(at),"collapse_key":"daily","created_at":\#(created.body["created_at"].map(JSONWriter.string) ?? "0"),"planned_users":0}"#
                        )
                    ]))
            let read = try await relay.request(.get, "/v3/notifications/\(id)")
            #expect(read.body["planned_users"] == .int(0) && read.body["counts"]?["pushed_users"] == .int(0), "\(read.text)")
            // Another app does not see it.
            #expect(try await relay.request(.get, "/v3/notifications/\(id)", app: TestApps.b).code == 400201)
            #expect(try await relay.request(.post, "/v3/notifications/\(id)/cancel", app: TestApps.b).code == 400201)
            let cancelled = try await relay.request(.post, "/v3/notifications/\(id)/cancel")
            #expect(cancelled.body["state"] == .string("cancelled"))
            // Again: answered as it is; a notification that is done can no longer be cancelled.
            #expect(try await relay.request(.post, "/v3/notifications/\(id)/cancel").body["state"] == .string("cancelled"))
            let done = try await relay.request(.post, "/v3/notifications", body: #"{"user_ids": ["nobody"], "body": "Now"}"#)
            guard case .int(let doneID)? = done.body["notification_id"] else { throw TestFailure(done.text) }
            try await relay.store.pool.write { db in
                try db.execute(sql: "UPDATE notifications SET state = 'done' WHERE id = ?", arguments: [doneID])
            }
            #expect(try await relay.request(.post, "/v3/notifications/\(doneID)/cancel").code == 400111)
            #expect(try await relay.request(.get, "/v3/notifications?state=open").body["notifications"] == .array([]))
            #expect(try await relay.request(.get, "/v3/notifications/abc").code == 400201)
        }
    }

    @Test func aUserFollowsTopicsWithTheirOwnSessionOnly() async throws {
        try await LiveRelay.run { relay async throws in
            let session = try await relay.issueSessionToken(for: "alice")
            #expect(try await relay.request(.put, "/v3/users/alice/topics/news", sessionToken: session).body["subscribed"] == .bool(true))
            #expect(try await relay.request(.put, "/v3/users/bob/topics/news", sessionToken: session).status == .forbidden)
            #expect(try await relay.request(.put, "/v3/users/alice/topics/a%20b", sessionToken: session).code == 400111)
            let added = try await relay.request(.post, "/v3/topics/news/subscribers", body: #"{"user_ids": ["bob", "carol", "alice"]}"#)
            #expect(added.body["added"] == .int(2), "\(added.text)")
            #expect(try await relay.request(.get, "/v3/topics/news").body["subscriber_count"] == .int(3))
            #expect(try await relay.request(.get, "/v3/topics/news", app: TestApps.b).body["subscriber_count"] == .int(0))
            #expect(try await relay.request(.get, "/v3/users/alice/topics", sessionToken: session).body["topics"] == json(#"["news"]"#))
            _ = try await relay.request(.delete, "/v3/users/alice/topics/news", sessionToken: session)
            #expect(try await relay.request(.get, "/v3/topics/news").body["subscriber_count"] == .int(2))
            #expect(try await relay.request(.post, "/v3/topics/news/subscribers", body: "{}", sessionToken: session).status == .forbidden)
            for n in 0..<TopicsAPI.maximumTopicsPerUser {
                _ = try await relay.store.subscribe(app: "app-A", topic: "t\(n)", users: ["dave"], nowMs: 0)
            }
            #expect(try await relay.request(.put, "/v3/users/dave/topics/one-more").code == 400111)
            #expect(try await relay.request(.put, "/v3/users/dave/topics/t0").status == .ok)
        }
    }
}
