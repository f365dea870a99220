import GRDB
import StoreContract
import Testing
@testable import PushService
@testable import PushStore

/// The broadcast channel routes' own rules, without APNs: an app holds a bounded number of
/// channels, a session token reaches none of them, and an unknown channel is Sendbird's not-found.
@Suite(.timeLimit(.minutes(5))) struct BroadcastChannelsAPITests {
    @Test func anAppsChannelsAreBoundedAndTheServersAlone() async throws {
        try await LiveRelay.run { relay async throws in
            let app = TestApps.a.appID
            // One transaction: a thousand commits of their own take long on a loaded machine.
            try await relay.store.pool.write { db in
                for n in 0..<BroadcastChannelsAPI.maximumPerApp {
                    try db.execute(
                        sql: "INSERT INTO broadcast_channels (app_id, channel_id, storage_policy, created_at_ms) VALUES (?, ?, 1, ?)",
                        arguments: [app, "c\(n)", n])
                }
            }
            let full = try await relay.request(.post, "/v3/live_activity_channels", body: #"{"message_storage_policy": 1}"#)
            #expect(full.status == .badRequest && full.text.contains("1000 broadcast channels"), "\(full.text)")
            // App B has none: its request reaches the APNs check (no APNs settings here).
            let other = try await relay.request(.post, "/v3/live_activity_channels", body: "{}", app: TestApps.b)
            #expect(other.status == .badRequest && other.text.contains("APNs settings"), "\(other.text)")
            #expect(try await relay.request(.get, "/v3/live_activity_channels", app: TestApps.b).text == #"{"channels":[]}"#)
            let unknown = try await relay.request(.get, "/v3/live_activity_channels/c0", app: TestApps.b)
            #expect(unknown.code == 400201)
            let session = try await relay.issueSessionToken(for: "alice")
            #expect(try await relay.request(.get, "/v3/live_activity_channels", sessionToken: session).status == .forbidden)
        }
    }
}
