import Foundation
import GRDB
import PushCore
import StoreContract
import Testing
@testable import PushService
@testable import PushStore

/// The console's notifications page and "why no push?" for a notification's skip: the app's own
/// notifications only, counts from the delivery log, every text escaped.
@Suite(.timeLimit(.minutes(5))) struct ConsoleNotificationsTests {
    @Test func theAppsNotificationsAreListedWithTheirCounts() async throws {
        try await LiveRelay.run(console: ConsoleRoutesTests.on) { relay async throws in
            let created = try await relay.request(.post, "/v3/notifications", body: #"{"user_ids": ["<b>bob</b>"], "body": "Hi"}"#)
            guard case .int(let id)? = created.body["notification_id"] else { throw TestFailure(created.text) }
            _ = try await relay.request(.post, "/v3/notifications", body: #"{"topic": "other-app", "body": "x"}"#, app: TestApps.b)
            // The relay's test targets send nowhere: the user's decision as the fan-out writes it.
            try await relay.store.pool.write { db in
                try db.execute(
                    sql: "INSERT INTO decisions (app_id, message_id, user_id, decision, created_at_ms) VALUES (?, ?, ?, ?, ?)",
                    arguments: [TestApps.a.appID, -id, "<b>bob</b>", "do_not_disturb", WallClock.milliseconds()])
                try db.execute(sql: "UPDATE notifications SET planned_users = 1, state = 'done' WHERE id = ?", arguments: [id])
            }

            let browser = ConsoleBrowser(relay)
            try await browser.signIn(TestApps.a.apiToken.value)
            let list = try await browser.get("/console/notifications")
            #expect(list.status == .ok && list.text.contains(#"href="/console/notifications?id=\#(id)""#))
            #expect(list.text.contains("1 listed users") && !list.text.contains("other-app"))
            let detail = try await browser.get("/console/notifications?id=\(id)")
            #expect(detail.text.contains("do_not_disturb") && detail.text.contains("<dt>Users decided</dt><dd>1</dd>"), "\(detail.text)")
            #expect(try await browser.get("/console/notifications?id=999").status == .notFound)
            let why = try await browser.get("/console/why?user_id=%3Cb%3Ebob%3C%2Fb%3E")
            #expect(why.text.contains("notification \(id)") && why.text.contains("&lt;b&gt;bob") && !why.text.contains("<b>bob"))
            #expect(why.text.contains("notification_id=\(id)"))
            let traced = try await browser.get("/console/why?user_id=%3Cb%3Ebob%3C%2Fb%3E&notification_id=\(id)")
            #expect(traced.text.contains("Notification \(id) for") && traced.text.contains("do_not_disturb"))
        }
    }
}
