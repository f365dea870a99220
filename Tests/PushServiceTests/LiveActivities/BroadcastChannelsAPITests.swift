import StoreContract
import Testing
@testable import PushService

/// The broadcast channel routes' own rules, without APNs: an app holds a bounded number of
/// channels, a session token reaches none of them, and an unknown channel is Sendbird's not-found.
@Suite(.timeLimit(.minutes(5))) struct BroadcastChannelsAPITests {
    @Test func anAppsChannelsAreBoundedAndTheServersAlone() async throws {
        try await LiveRelay.run { relay async throws in
            let app = TestApps.a.appID
            for n in 0..<BroadcastChannelsAPI.maximumPerApp {
                try await relay.store.saveChannel(
                    LiveActivityChannel(appID: app, channelID: "c\(n)", name: nil, storagePolicy: 1, createdAtMs: Int64(n)))
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
