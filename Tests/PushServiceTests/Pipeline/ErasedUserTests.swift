import APNsMock
import Foundation
import PushStore
import StoreContract
import Synchronization
import Testing
@testable import PushService
@testable import PushEngine

/// Pushes the dispatcher already holds for a user being erased are dropped, not sent: the real
/// relay, a real SQLite file and the mock APNs. The relay's clock stands still from the erasure
/// until the push is accepted, so that push is one the erasure covers, as one accepted while it
/// ran would be; then it runs again (the dispatcher's timers need it).
@Suite(.timeLimit(.minutes(5))) struct ErasedUserTests {
    @Test func pushesAcceptedBeforeTheErasureAreDropped() async throws {
        let frozen = Mutex<Int64?>(WallClock.milliseconds())
        let clock: @Sendable () -> Int64 = { frozen.withLock { $0 } ?? WallClock.milliseconds() }
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, clock: clock) { relay in
                try await relay.register("eve", token: apnsToken(1))
                try await relay.register("bob", token: apnsToken(2))
                #expect(try await relay.request(.delete, "/v3/users/eve").status == .ok)
                // Eve is back with her device within the erasure's instant; a push to her and Bob.
                try await relay.register("eve", token: apnsToken(1))
                try await relay.postWebhook(messageEvent(messageID: 40, offline: ["eve", "bob"]))
                frozen.withLock { $0 = nil }
                try await relay.eventually("bob's push sent and eve's recorded") {
                    let states = try await relay.store.deliveryLog(app: TestApps.a.appID, messageID: 40, user: "eve").deliveries
                        .map(\.delivery.state)
                    return states == [.failed] && mock.notifications.count == 1
                }
                let eve = try #require(
                    try await relay.store.deliveryLog(app: TestApps.a.appID, messageID: 40, user: "eve").deliveries.first)
                #expect(eve.delivery.lastReason == "UserDeleted")
                #expect(mock.notifications.map(\.deviceToken) == [apnsToken(2)])
            }
        }
    }

    @Test func theTombstonesAreBoundedAndCoverOnlyWhatCameBefore() {
        let erased = ErasedUsers()
        #expect(!erased.covers(app: "A", user: "eve", acceptedAtMs: 0), "nothing erased: nothing covered")
        erased.erasing(app: "A", user: "eve", nowMs: 1_000)
        #expect(erased.covers(app: "A", user: "eve", acceptedAtMs: 1_000))
        #expect(!erased.covers(app: "A", user: "eve", acceptedAtMs: 1_001), "accepted after: sent")
        #expect(!erased.covers(app: "B", user: "eve", acceptedAtMs: 0), "another app's eve")
        #expect(!erased.covers(app: "A", user: "eve\u{301}", acceptedAtMs: 0))
        for n in 0..<(ErasedUsers.maximumEntries + 10) { erased.erasing(app: "A", user: "u\(n)", nowMs: 2_000 + Int64(n)) }
        #expect(erased.covers(app: "A", user: "u\(ErasedUsers.maximumEntries + 9)", acceptedAtMs: 0), "the newest is kept")
    }
}
