import Foundation
import PushCore
import Testing
@testable import PushService

/// The console's test push page on the live relay: the user's devices to pick from (by a key,
/// never the token), the CSRF token, the answer (here: no provider configured), the message as
/// text, and another app's devices out of reach.
@Suite(.timeLimit(.minutes(5))) struct ConsoleTestPushTests {
    @Test func aTestPushGoesToThePickedDeviceAndItsAnswerIsShown() async throws {
        try await LiveRelay.run(console: ConsoleRoutesTests.on) { relay async throws in
            let token = DeviceToken(token: apnsToken(7), registeredAtMs: 0, provider: .apns)
            _ = try await relay.store.registerToken(app: TestApps.a.appID, user: "bob", token: token.token, isUnique: false)
            let browser = ConsoleBrowser(relay)
            try await browser.signIn(TestApps.a.apiToken.value)
            let form = try await browser.get("/console/test-push?user_id=bob")
            let key = TestPushPage.key(for: token)
            #expect(form.text.contains(#"value="\#(key)""#))
            #expect(!form.text.contains(token.token), "the page never holds the token whole")

            let message = #"<script>alert(1)</script>"><img onerror=x>"#
            let forged = try await browser.post(
                "/console/test-push", [("user_id", "bob"), ("device", key), ("message", message)], csrf: String(repeating: "0", count: 64))
            #expect(forged.status == .forbidden)
            try await browser.get("/console/test-push?user_id=bob")
            let answer = try await browser.post("/console/test-push", [("user_id", "bob"), ("device", key), ("message", message)])
            #expect(answer.status == .ok)
            #expect(answer.text.contains(#"id="results""#))
            #expect(answer.text.contains("failed"), "the relay under test has no APNs settings: \(answer.text)")
            #expect(!answer.text.contains("<script>alert"))
            #expect(answer.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img onerror=x&gt;"))
            let log = try await relay.store.recentDeliveries(app: TestApps.a.appID, user: "bob", limit: 5)
            #expect(log.count == 1, "logged as a test delivery")

            let unknown = try await browser.post("/console/test-push", [("user_id", "bob"), ("device", "0000000000000000")])
            #expect(unknown.status == .notFound)
        }
    }

    @Test func anotherAppsDevicesCannotBePicked() async throws {
        try await LiveRelay.run(console: ConsoleRoutesTests.on) { relay async throws in
            let token = DeviceToken(token: apnsToken(8), registeredAtMs: 0, provider: .apns)
            _ = try await relay.store.registerToken(app: TestApps.a.appID, user: "bob", token: token.token, isUnique: false)
            let b = ConsoleBrowser(relay)
            try await b.signIn(TestApps.b.apiToken.value)
            #expect(try await b.get("/console/test-push?user_id=bob").text.contains(#"id="no-devices""#))
            let sent = try await b.post("/console/test-push", [("user_id", "bob"), ("device", TestPushPage.key(for: token))])
            #expect(sent.status == .notFound)
            #expect(try await relay.store.recentDeliveries(app: TestApps.a.appID, user: "bob", limit: 5).isEmpty)
        }
    }
}
