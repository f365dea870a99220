import APNsMock
import Foundation
import Logging
import PushStore
import StoreContract
import Testing
@testable import PushService
@testable import PushEngine

/// Pushes APNs has not answered when the dispatcher ends come back pending, due now, with no
/// attempt counted (the next start sends them with the same apns-id), and the dispatcher ends
/// without waiting for APNs: at the end of the shutdown grace, and when its task is cancelled.
@Suite(.timeLimit(.minutes(5))) struct DispatcherShutdownTests {
    static let pushes = 20

    enum Ending { case gracePassed, taskCancelled }

    @Test(arguments: [Ending.gracePassed, .taskCancelled])
    func unansweredPushesArePutBack(_ ending: Ending) async throws {
        let directory = try PipelineRelay.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mock = APNsMockServer(configuration: PipelineFixtures.mockConfiguration())
        try await mock.start()
        // Every answer held far longer than the test runs (and than a cancelled send may wait).
        mock.addFault(.delay(milliseconds: 600_000))
        let store = try SQLiteStore(path: directory.appendingPathComponent("relay.sqlite").path)
        let now = WallClock.milliseconds()
        _ = try await store.commitEvents([
            AcceptedEvent(
                appID: TestApps.a.appID, messageID: 1, channelURL: "ch", acceptedAtMs: now, decisions: [],
                deliveries: (1...Self.pushes).map { n in
                    NewDelivery(
                        userID: "u\(n)", deviceToken: apnsToken(n), payload: Data(#"{"aps":{"alert":"x"}}"#.utf8),
                        pushID: UUID(), provider: .apns, pushType: "alert", priority: 10, expiresAtMs: now + 3_600_000)
                })
        ])
        let client = try PipelineFixtures.client(port: mock.port)
        var logger = Logger(label: "DispatcherShutdownTests")
        logger.logLevel = .error
        let dispatcher = Dispatcher(
            store: store, targets: StaticDeliveryTargets([TestApps.a.appID: DeliveryTarget(apns: client, topic: PipelineFixtures.topic)]),
            configuration: DispatcherConfiguration(shutdownGrace: .milliseconds(200), requestTimeout: .seconds(600)),
            logger: logger)
        let running = Task { try await dispatcher.run() }
        // Every push is on the wire, unanswered.
        _ = try await mock.waitForStats(timeout: .seconds(120)) { $0.streamsOpen >= Self.pushes }

        let started = ContinuousClock.now
        switch ending {
        case .gracePassed: dispatcher.stop()
        case .taskCancelled: running.cancel()
        }
        _ = try? await running.value
        let took = ContinuousClock.now - started
        // Without cancelling the sends it would wait for APNs (600 s); the bound leaves room for
        // a machine many times slower and still tells the two apart.
        #expect(took < .seconds(120), "the dispatcher took \(took) to end")

        #expect(try await store.deliveryStateCounts() == [.pending: Self.pushes])
        let again = try await store.claimDue(nowMs: WallClock.milliseconds(), limit: 100)
        #expect(again.count == Self.pushes, "due now")
        #expect(again.allSatisfy { $0.attempts == 0 }, "a cancelled send is no attempt")

        await client.shutdown()
        try await mock.shutdown()
    }
}
