import APNsMock
import Foundation
import PushStore
import StoreContract
import Testing
@testable import PushService
@testable import PushEngine

@Suite(.timeLimit(.minutes(5))) struct DispatcherTests {
    /// The single delivery of `user` for `message` (waits until it reaches `state`).
    static func delivery(_ relay: PipelineRelay, message: Int64, user: String, state: DeliveryState) async throws -> LoggedDelivery {
        try await relay.eventually("\(user)'s delivery to become \(state)") {
            try await relay.store.deliveryLog(app: TestApps.a.appID, messageID: message, user: user).deliveries.first?.delivery.state
                == state
        }
        return try #require(try await relay.store.deliveryLog(app: TestApps.a.appID, messageID: message, user: user).deliveries.first)
    }

    @Test func a410RemovesTheTokenOnlyIfItWasRegisteredBeforeTheTimestamp() async throws {
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory) { relay in
                try await relay.register("bob", token: apnsToken(1))
                try await relay.register("carol", token: apnsToken(2))
                mock.markUnregistered(token: apnsToken(1), at: Date().addingTimeInterval(3600))
                // Carol re-registered after APNs saw the token unregistered: keep it.
                mock.markUnregistered(token: apnsToken(2), at: Date(timeIntervalSince1970: 1_600_000_000))
                try await relay.postWebhook(messageEvent(messageID: 20, offline: ["bob", "carol"]))

                let bob = try await Self.delivery(relay, message: 20, user: "bob", state: .tokenInvalid)
                #expect(bob.delivery.lastStatus == 410)
                #expect(bob.delivery.lastReason == "Unregistered")
                _ = try await Self.delivery(relay, message: 20, user: "carol", state: .tokenInvalid)
                #expect(try await relay.store.tokens(app: TestApps.a.appID, user: "bob") == [])
                #expect(try await relay.store.tokens(app: TestApps.a.appID, user: "carol")?.map(\.token) == [apnsToken(2)])
            }
        }
    }

    @Test func badDeviceTokenRemovesTheToken() async throws {
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory) { relay in
                try await relay.register("bob", token: apnsToken(1))
                mock.markBadToken(apnsToken(1))
                try await relay.postWebhook(messageEvent(messageID: 21, offline: ["bob"]))
                let bob = try await Self.delivery(relay, message: 21, user: "bob", state: .tokenInvalid)
                #expect(bob.delivery.lastReason == "BadDeviceToken")
                #expect(try await relay.store.tokens(app: TestApps.a.appID, user: "bob") == [])
            }
        }
    }

    @Test func a429AndA503AreRetriedWithTheSameAPNsIDAndDeliveredOnce() async throws {
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory) { relay in
                try await relay.register("bob", token: apnsToken(1))
                mock.addFault(.status(code: 429, reason: "TooManyRequests", count: 1, retryAfterSeconds: nil))
                mock.addFault(.status(code: 503, reason: "ServiceUnavailable", count: 1, retryAfterSeconds: nil))
                try await relay.postWebhook(messageEvent(messageID: 22, offline: ["bob"]))

                let bob = try await Self.delivery(relay, message: 22, user: "bob", state: .sent)
                #expect(bob.delivery.attempts == 3)
                #expect(bob.attempts.map(\.status) == [429, 503, 200])
                #expect(Set(bob.attempts.map(\.pushID)) == [bob.delivery.pushID])
                let received = mock.notifications
                #expect(received.count == 1)
                #expect(received.first?.headers["apns-id"]?.lowercased() == bob.delivery.pushID.uuidString.lowercased())
            }
        }
    }

    @Test func aGOAWAYMidBatchStillDeliversEveryPush() async throws {
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory) { relay in
                let users = (1...6).map { "user\($0)" }
                for (n, user) in users.enumerated() { try await relay.register(user, token: apnsToken(n + 1)) }
                mock.addFault(.goAway(afterStreams: 2, reason: "Shutdown"))
                try await relay.postWebhook(messageEvent(messageID: 23, offline: users))
                try await relay.eventually("all sent") { try await relay.store.deliveryStateCounts() == [.sent: 6] }
                #expect(Set(mock.notifications.map(\.deviceToken)) == Set((1...6).map(apnsToken)))
            }
        }
    }

    @Test func aDroppedConnectionMidBatchStillDeliversEveryPush() async throws {
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory) { relay in
                let users = (1...6).map { "user\($0)" }
                for (n, user) in users.enumerated() { try await relay.register(user, token: apnsToken(n + 1)) }
                mock.addFault(.dropConnection(afterStreams: 2))
                try await relay.postWebhook(messageEvent(messageID: 24, offline: users))
                try await relay.eventually("all sent") { try await relay.store.deliveryStateCounts() == [.sent: 6] }
                #expect(Set(mock.notifications.map(\.deviceToken)) == Set((1...6).map(apnsToken)))
            }
        }
    }

    @Test func pendingDeliveriesAreSentByTheNextServiceInstance() async throws {
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            mock.addFault(.status(code: 503, reason: "ServiceUnavailable", count: 1_000_000, retryAfterSeconds: nil))
            try await PipelineRelay.run(mock: mock, directory: directory) { relay in
                try await relay.register("bob", token: apnsToken(1))
                try await relay.postWebhook(messageEvent(messageID: 25, offline: ["bob"]))
                try await relay.eventually("a failed attempt") {
                    try await relay.store.deliveryLog(app: TestApps.a.appID, messageID: 25, user: "bob").deliveries.first?.delivery.attempts
                        ?? 0 >= 1
                }
            }
            #expect(mock.notifications.isEmpty)
            mock.clearFaults()
            try await PipelineRelay.run(mock: mock, directory: directory) { relay in
                let bob = try await Self.delivery(relay, message: 25, user: "bob", state: .sent)
                let received = try await mock.waitForNotifications(count: 1, timeout: .seconds(60))
                #expect(received.first?.headers["apns-id"]?.lowercased() == bob.delivery.pushID.uuidString.lowercased())
            }
        }
    }

    @Test func aDeliveryPastItsExpirationIsExpiredNotSent() async throws {
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, timeToLive: .zero) { relay in
                try await relay.register("bob", token: apnsToken(1))
                try await relay.postWebhook(messageEvent(messageID: 26, offline: ["bob"]))
                let bob = try await Self.delivery(relay, message: 26, user: "bob", state: .expired)
                #expect(bob.attempts.isEmpty)
                #expect(mock.notifications.isEmpty)
            }
        }
    }

    /// More concurrent pushes than the hand-off window: the overflow is committed as pending and
    /// claimed from SQLite. Every push arrives exactly once.
    @Test func aBacklogBeyondTheHandOffWindowIsClaimedFromTheQueue() async throws {
        let small = DispatcherConfiguration(
            window: 4, claimBatch: 2, recordBatch: 3, initialBackoff: .milliseconds(50),
            maximumBackoff: .milliseconds(300), idlePoll: .milliseconds(200),
            shutdownGrace: .seconds(2), requestTimeout: .seconds(3))
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, dispatcherConfiguration: small) { relay in
                let users = (1...6).map { "user\($0)" }
                for (n, user) in users.enumerated() { try await relay.register(user, token: apnsToken(n + 1)) }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for message in Int64(40)..<45 {
                        group.addTask { _ = try await relay.postWebhook(messageEvent(messageID: message, offline: users)) }
                    }
                    try await group.waitForAll()
                }
                try await relay.eventually("all sent") { try await relay.store.deliveryStateCounts() == [.sent: 30] }
                let received = mock.notifications
                #expect(received.count == 30)
                #expect(Set(received.compactMap { $0.headers["apns-id"] }).count == 30)
            }
        }
    }

    /// The hand-off is open only while the dispatcher runs; a hand-off after it stopped is
    /// refused, so the webhook puts the deliveries back to pending.
    @Test func theHandOffIsRefusedUnlessTheDispatcherRuns() async throws {
        let directory = try PipelineRelay.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("relay.sqlite").path)
        let dispatcher = Dispatcher(
            store: store, targets: StaticDeliveryTargets([:]),
            configuration: PipelineFixtures.dispatcherConfiguration)
        #expect(!canReserve(dispatcher, 1), "not running yet")
        let running = Task { try await dispatcher.run() }
        let deadline = ContinuousClock.now + .seconds(60)
        var reservation = dispatcher.reserve(1, app: "app")
        while reservation == nil {
            try #require(ContinuousClock.now < deadline, "the hand-off never opened")
            try await Task.sleep(for: .milliseconds(5))
            reservation = dispatcher.reserve(1, app: "app")
        }
        #expect(!canReserve(dispatcher, PipelineFixtures.dispatcherConfiguration.window), "beyond the window")
        dispatcher.stop()
        try await running.value
        let handedOff = dispatcher.handOff(reservation.take()!, [])
        #expect(!handedOff, "stopped")
        #expect(!canReserve(dispatcher, 1))
    }

    /// A reservation is non-copyable, and `#expect` captures its operands: test for room here,
    /// dropping (releasing) what was reserved.
    private func canReserve(_ dispatcher: Dispatcher, _ count: Int) -> Bool {
        dispatcher.reserve(count, app: "app") != nil
    }
}
