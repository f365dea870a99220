import Foundation
import Logging
import PushCore
import PushSending
import PushStore
import StoreContract
import Synchronization
import Testing
@testable import PushService
@testable import PushEngine

/// A provider that answers what the test scripts, per device token, without a socket: the
/// dispatcher sees only the seam, so one fake stands for APNs, FCM or HMS.
final class ScriptedSender: PushSender {
    private let script: [String: PushSendResult]
    private let received = Mutex<[OutgoingPush]>([])

    init(_ script: [String: PushSendResult]) {
        self.script = script
    }

    var pushes: [OutgoingPush] { received.withLock { $0 } }

    func submit(_ push: OutgoingPush, timeout: Duration, completion: @escaping @Sendable (PushSendResult) -> Void) -> PushSendHandle {
        received.withLock { $0.append(push) }
        completion(script[push.deviceToken] ?? PushSendResult(.delivered(providerID: nil), status: 200, latency: .milliseconds(1)))
        return .none
    }

    func shutdown() async {}
}

/// The dispatcher against fake senders behind the provider seam (no sockets; a real SQLite file):
/// every classified outcome lands as the same stored outcome whatever the provider, and each
/// delivery goes to its own provider's sender.
@Suite(.timeLimit(.minutes(5))) struct DispatcherSeamTests {
    static let app = TestApps.a.appID

    struct Fixture {
        let directory: URL
        let store: SQLiteStore
        let dispatcher: Dispatcher

        init(senders: [PushProvider: any PushSender], deliveries: [(user: String, token: String, provider: PushProvider)]) async throws {
            directory = try PipelineRelay.temporaryDirectory()
            store = try SQLiteStore(path: directory.appendingPathComponent("relay.sqlite").path)
            let now = WallClock.milliseconds()
            for (user, token, provider) in deliveries {
                _ = try await store.registerToken(
                    app: DispatcherSeamTests.app, user: user, token: token, isUnique: false, provider: provider)
            }
            _ = try await store.commitEvents([
                AcceptedEvent(
                    appID: DispatcherSeamTests.app, messageID: 7, channelURL: "ch", acceptedAtMs: now, decisions: [],
                    deliveries: deliveries.map { d in
                        NewDelivery(
                            userID: d.user, deviceToken: d.token, payload: Data(#"{"message":"hi"}"#.utf8), pushID: UUID(),
                            provider: d.provider, pushType: d.provider.storedPushType, priority: 10, expiresAtMs: now + 3_600_000)
                    })
            ])
            var logger = Logger(label: "DispatcherSeamTests")
            logger.logLevel = .critical
            dispatcher = Dispatcher(
                store: store, targets: StaticDeliveryTargets([DispatcherSeamTests.app: DeliveryTarget(senders: senders)]),
                configuration: DispatcherConfiguration(
                    initialBackoff: .seconds(60), maximumBackoff: .seconds(60), idlePoll: .milliseconds(20), shutdownGrace: .seconds(5)),
                logger: logger)
        }

        /// Runs the dispatcher until every delivery left `in_flight`/`pending` as the test expects.
        func run(until done: @escaping @Sendable ([DeliveryState: Int]) -> Bool) async throws {
            let running = Task { try await dispatcher.run() }
            let deadline = ContinuousClock.now + .seconds(60)
            var counts = try await store.deliveryStateCounts()
            while !done(counts) {
                try #require(ContinuousClock.now < deadline, "timed out: \(counts)")
                try await Task.sleep(for: .milliseconds(10))
                counts = try await store.deliveryStateCounts()
            }
            dispatcher.stop()
            try await running.value
        }

        func close() async throws {
            try await store.close()
            try? FileManager.default.removeItem(at: directory)
        }

        func delivery(of user: String) async throws -> LoggedDelivery {
            try #require(try await store.deliveryLog(app: DispatcherSeamTests.app, messageID: 7, user: user).deliveries.first)
        }
    }

    static func token(_ n: Int) -> String { "token-\(n)-" + String(repeating: "x", count: 20) }

    @Test func eachOutcomeIsRecordedTheSameWhateverTheProvider() async throws {
        for provider in [PushProvider.apns, .fcm, .hms] {
            let sender = ScriptedSender([
                Self.token(1): PushSendResult(.delivered(providerID: "req-1"), status: 200, latency: .milliseconds(3)),
                Self.token(2): PushSendResult(.tokenDead(.always), status: 400, reason: "BadToken", label: "BadToken"),
                Self.token(3): PushSendResult(.rejected, status: 400, reason: "TooBig", label: "TooBig"),
                Self.token(4): PushSendResult(.credentialsRefused, status: 401, reason: "auth", label: "auth"),
                Self.token(5): PushSendResult(.retry(after: .seconds(30)), status: 503, reason: "busy"),
                Self.token(6): PushSendResult(.rejected, error: "no HTTP/2"),
            ])
            let fixture = try await Fixture(
                senders: [provider: sender], deliveries: (1...6).map { ("u\($0)", Self.token($0), provider) })
            try await fixture.run { $0[.inFlight] == nil && $0[.pending] == 1 && ($0[.sent] ?? 0) == 1 }

            let sent = try await fixture.delivery(of: "u1")
            #expect(sent.delivery.state == .sent)
            #expect(sent.providerMessageID == "req-1", "\(provider): the provider's id is kept")
            #expect(try await fixture.delivery(of: "u2").delivery.state == .tokenInvalid)
            #expect(try await fixture.store.tokens(app: Self.app, user: "u2") == [], "\(provider): the dead token is removed")
            let rejected = try await fixture.delivery(of: "u3")
            #expect(rejected.delivery.state == .failed && rejected.delivery.lastReason == "TooBig")
            #expect(try await fixture.delivery(of: "u4").delivery.state == .failed)
            let retried = try await fixture.delivery(of: "u5")
            #expect(retried.delivery.state == .pending && retried.delivery.attempts == 1)
            #expect(retried.delivery.nextAttemptAtMs >= WallClock.milliseconds() + 20_000, "\(provider): Retry-After kept")
            let unanswered = try await fixture.delivery(of: "u6")
            #expect(unanswered.delivery.state == .failed)
            #expect(unanswered.attempts.first?.error == "no HTTP/2")
            #expect(sender.pushes.count == 6)
            try await fixture.close()
        }
    }

    /// One user's three devices: each push goes to its own provider's sender, with its stored
    /// payload, push type and the same id on every attempt.
    @Test func eachDeliveryGoesToItsProvidersSender() async throws {
        let (apns, fcm, hms) = (ScriptedSender([:]), ScriptedSender([:]), ScriptedSender([:]))
        let fixture = try await Fixture(
            senders: [.apns: apns, .fcm: fcm, .hms: hms],
            deliveries: [("u1", Self.token(1), .apns), ("u2", Self.token(2), .fcm), ("u3", Self.token(3), .hms)])
        try await fixture.run { $0 == [.sent: 3] }
        #expect(apns.pushes.map(\.deviceToken) == [Self.token(1)])
        #expect(fcm.pushes.map(\.deviceToken) == [Self.token(2)])
        #expect(hms.pushes.map(\.deviceToken) == [Self.token(3)])
        #expect(hms.pushes.first?.pushType == "hms")
        #expect(hms.pushes.first?.payload == Array(#"{"message":"hi"}"#.utf8))
        #expect(try await fixture.delivery(of: "u3").delivery.pushID == hms.pushes.first?.pushID)
        // One collapse id per message, whatever the provider (APNs sends it; the others ignore it).
        #expect(Set((apns.pushes + fcm.pushes + hms.pushes).map(\.collapseID)) == ["sendbird-7"])
        try await fixture.close()
    }

    /// A delivery whose app has no sender for its provider fails at once, naming the provider.
    @Test func noSenderForTheProviderIsAFailureNamingIt() async throws {
        let fixture = try await Fixture(senders: [.apns: ScriptedSender([:])], deliveries: [("u1", Self.token(1), .hms)])
        try await fixture.run { $0 == [.failed: 1] }
        #expect(try await fixture.delivery(of: "u1").attempts.first?.error == "app \(Self.app) has no hms settings (apps[].hms)")
        try await fixture.close()
    }
}
