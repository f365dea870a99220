import APNsMock
import Foundation
import Logging
import PushStore
import StoreContract
import Testing
@testable import PushService
@testable import PushEngine

/// Tenants cannot hurt each other through the queue: with a large backlog for app A, whose
/// APNs answers slowly, a new push of app B is claimed and sent at once instead of waiting
/// behind A's backlog (claims used to take the oldest due deliveries of all apps).
@Suite(.timeLimit(.minutes(5))) struct DispatcherFairnessTests {
    static let backlog = 100_000

    @Test func aNewPushOfAnotherAppOvertakesABacklogBehindASlowAPNs() async throws {
        let directory = try PipelineRelay.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let slow = APNsMockServer(configuration: PipelineFixtures.mockConfiguration())
        let fast = APNsMockServer(configuration: PipelineFixtures.mockConfiguration())
        try await slow.start()
        try await fast.start()
        // A's APNs holds every answer far longer than the test runs.
        slow.addFault(.delay(milliseconds: 120_000))
        let store = try SQLiteStore(path: directory.appendingPathComponent("relay.sqlite").path)
        let now = WallClock.milliseconds()
        let payload = Data(#"{"aps":{"alert":"x"}}"#.utf8)
        func delivery(_ n: Int) -> NewDelivery {
            NewDelivery(
                userID: "u\(n % 1000)", deviceToken: apnsToken(n % 1000 + 1), payload: payload, pushID: UUID(),
                provider: .apns, pushType: "alert", priority: 10, expiresAtMs: now + 3_600_000)
        }
        // The backlog: 100,000 pending pushes of app A, committed before the dispatcher starts.
        let perEvent = 1_000
        for batch in stride(from: 0, to: Self.backlog / perEvent, by: 10) {
            let events = (batch..<min(batch + 10, Self.backlog / perEvent)).map { event in
                AcceptedEvent(
                    appID: TestApps.a.appID, messageID: Int64(event), channelURL: "ch", acceptedAtMs: now,
                    decisions: [], deliveries: (0..<perEvent).map { delivery(event * perEvent + $0) })
            }
            _ = try await store.commitEvents(events)
        }

        let slowClient = try PipelineFixtures.client(port: slow.port)
        let fastClient = try PipelineFixtures.client(port: fast.port)
        let targets = StaticDeliveryTargets([
            TestApps.a.appID: DeliveryTarget(apns: slowClient, topic: PipelineFixtures.topic),
            TestApps.b.appID: DeliveryTarget(apns: fastClient, topic: PipelineFixtures.topic),
        ])
        var logger = Logger(label: "DispatcherFairnessTests")
        logger.logLevel = .error
        let dispatcher = Dispatcher(
            store: store, targets: targets,
            configuration: DispatcherConfiguration(shutdownGrace: .milliseconds(200), requestTimeout: .seconds(600)),
            logger: logger)
        let running = Task { try await dispatcher.run() }

        // A's sends are on the wire (and stay there).
        _ = try await slow.waitForStats(timeout: .seconds(120)) { $0.streamsOpen > 0 }
        let started = ContinuousClock.now
        _ = try await store.commitEvents([
            AcceptedEvent(
                appID: TestApps.b.appID, messageID: 1, channelURL: "ch", acceptedAtMs: now, decisions: [],
                deliveries: [delivery(7)])
        ])
        dispatcher.wake()
        // Without fairness it waits behind A's backlog, which never drains (A's APNs never answers,
        // requests time out after 600 s); its arrival at all proves the point, and the wait is printed.
        let received = try await fast.waitForNotifications(count: 1, timeout: .seconds(120))
        let waited = ContinuousClock.now - started
        print("fairness: app B's push reached APNs \(waited) after commit, behind \(Self.backlog) pending pushes of app A")
        #expect(received.count == 1)

        dispatcher.stop()
        _ = try? await running.value
        await slowClient.shutdown()
        await fastClient.shutdown()
        try await slow.shutdown()
        try await fast.shutdown()
    }
}
