import Foundation
import PushCore
import PushStore
import StoreContract
import Synchronization
import Testing
@testable import PushEngine
@testable import PushService

/// The fan-out against a real SQLite file and a clock the test moves: every user's decision, the
/// payload in their language on each provider, local times of day, pace, cancel, and a second
/// relay taking over a notification whose relay stopped.
@Suite(.timeLimit(.minutes(5))) struct NotificationFanOutTests {
    static let app = TestApps.a.appID

    final class Clock: Sendable {
        private let now: Mutex<Int64>
        init(_ ms: Int64) { now = Mutex(ms) }
        func read() -> Int64 { now.withLock { $0 } }
        func set(_ ms: Int64) { now.withLock { $0 = ms } }
    }

    struct Fixture {
        let directory: URL
        let store: SQLiteStore
        let clock: Clock
        let targets: StaticDeliveryTargets

        init(now: Int64 = 1_764_000_000_000) throws {
            directory = try PipelineRelay.temporaryDirectory()
            store = try SQLiteStore(path: directory.appendingPathComponent("relay.sqlite").path)
            clock = Clock(now)
            targets = StaticDeliveryTargets([
                NotificationFanOutTests.app: DeliveryTarget(senders: [.apns: ScriptedSender([:]), .fcm: ScriptedSender([:])])
            ])
        }

        func fanOut(owner: String = "relay-1", batchSize: Int = 3, backlog: BacklogLedger? = nil) -> NotificationFanOut {
            var settings = NotificationFanOut.Settings()
            settings.batchSize = batchSize
            let clock = self.clock
            return NotificationFanOut(
                store: store, targets: targets, settings: settings, owner: owner, clock: { clock.read() }, wakeDispatcher: {},
                backlog: backlog)
        }

        /// Runs the fan-out until nothing is due now.
        func drain(_ fanOut: NotificationFanOut) async throws {
            for _ in 0..<1000 where try await fanOut.runOnce() {}
        }

        func user(
            _ id: String, tokens: [(String, PushProvider)] = [], languages: [String] = [],
            _ change: (@Sendable (inout UserPushPreferences) -> Void)? = nil
        ) async throws {
            for (token, provider) in tokens {
                _ = try await store.registerToken(
                    app: NotificationFanOutTests.app, user: id, token: token, isUnique: false, provider: provider)
            }
            if !languages.isEmpty {
                _ = try await store.createUser(app: NotificationFanOutTests.app, user: id, nickname: "", profileURL: "")
                _ = try await store.updateUser(
                    app: NotificationFanOutTests.app, user: id, change: UserProfileChange(languages: try PreferredLanguages(languages)))
            }
            if let change { try await store.updatePreferences(app: NotificationFanOutTests.app, user: id, change) }
        }

        func create(
            _ audience: NotificationAudience, content: NotificationContent, sendAtMs: Int64? = nil, localMinute: Int? = nil,
            pace: Int? = nil
        ) async throws -> NotificationRecord {
            let now = clock.read()
            let created = try await store.createNotification(
                NewNotification(
                    appID: NotificationFanOutTests.app, audience: audience, content: content.stored, collapseKey: content.collapseKey,
                    sendAtMs: sendAtMs ?? now, localMinute: localMinute, pushesPerMinute: pace, createdAtMs: now))
            guard case .created(let record) = created else { throw TestFailure("not created: \(created)") }
            return record
        }

        /// The pushes due now, as the dispatcher claims them (payload, collapse key), by user.
        func claim() async throws -> [String: [DeliveryRecord]] {
            let claim = try await store.claimDue(nowMs: clock.read(), limit: 1000, roomByApp: [:], defaultRoom: 1000, rotation: 0)
            return Dictionary(grouping: claim.records, by: \.userID)
        }

        func log(_ record: NotificationRecord, _ user: String) async throws -> MessageDeliveryLog {
            try await store.deliveryLog(app: NotificationFanOutTests.app, messageID: record.messageID, user: user)
        }

        func close() { try? FileManager.default.removeItem(at: directory) }
    }

    static let hello = NotificationContent(
        texts: NotificationTexts(
            standard: NotificationText(title: "News", body: "Hello"),
            translations: ["de": NotificationText(title: "Neues", body: "Hallo")]),
        data: ["order": .string("A-17")], deepLink: "app://orders/A-17")

    /// A do-not-disturb window that covers every minute (UTC).
    static let alwaysDND: @Sendable (inout UserPushPreferences) -> Void = {
        $0.doNotDisturb = true
        $0.dndWindow = TimeWindow(startHour: 0, startMin: 0, endHour: 23, endMin: 59)
    }

    @Test func aTopicReachesEverySubscribersDevicesInTheirLanguageWithEachSkipLogged() async throws {
        let f = try Fixture()
        defer { f.close() }
        try await f.user("de-ios", tokens: [(apnsToken(1), .apns)], languages: ["de"])
        try await f.user("en-android", tokens: [("fcm-token-2", .fcm)])
        try await f.user("both", tokens: [(apnsToken(3), .apns), ("fcm-token-3", .fcm)], languages: ["fr", "DE"])
        try await f.user("no-device")
        try await f.user("sleeping", tokens: [(apnsToken(5), .apns)], Self.alwaysDND)
        try await f.user("off", tokens: [(apnsToken(6), .apns)]) { $0.pushTriggerOption = .off }
        let users = ["de-ios", "en-android", "both", "no-device", "sleeping", "off", "never-seen"]
        #expect(try await f.store.subscribe(app: Self.app, topic: "news", users: users, nowMs: f.clock.read()) == 7)
        let record = try await f.create(.topic("news"), content: Self.hello)
        try await f.drain(f.fanOut())

        let german = try await f.log(record, "de-ios")
        #expect(german.decision == .push && german.deliveries.count == 1)
        let claimed = try await f.claim()
        let payload = try JSONValue.parse(try #require(claimed["de-ios"]?.first).payload)
        #expect(payload["aps"]?["alert"] == json(#"{"title":"Neues","body":"Hallo"}"#))
        #expect(payload["push_notification"]?["id"] == .int(record.id))
        #expect(payload["push_notification"]?["data"] == json(#"{"order":"A-17"}"#))
        #expect(
            payload["push_notification"]?["push_tracking_id"]
                == .string(PushTrackingID(messageID: -record.id, recipient: "de-ios").description))
        let data = try JSONValue.parse(try #require(claimed["en-android"]?.first).payload)
        #expect(data["title"] == .string("News") && data["body"] == .string("Hello"))
        // A preferred language the texts lack is passed over for the next one (codes without case).
        let both = try #require(claimed["both"])
        #expect(both.map(\.provider).sorted() == [.apns, .fcm])
        #expect(both.allSatisfy { String(decoding: $0.payload, as: UTF8.self).contains("Hallo") })
        // One collapse id per notification: a push sent twice replaces itself on the device.
        #expect(
            claimed.values.joined().allSatisfy {
                $0.collapseKey == nil && CollapseID.forMessage($0.messageID) == "notification-\(record.id)"
            })
        #expect(try await f.log(record, "no-device").decision == .skip(.noToken))
        #expect(try await f.log(record, "never-seen").decision == .skip(.noToken))
        #expect(try await f.log(record, "sleeping").decision == .skip(.doNotDisturb))
        #expect(try await f.log(record, "off").decision == .skip(.triggerOff))

        let stored = try #require(try await f.store.notification(app: Self.app, id: record.id))
        #expect(stored.state == .done && stored.plannedUsers == 7)
        let counts = try await f.store.notificationCounts(app: Self.app, id: record.id)
        #expect(counts.pushedUsers == 3 && counts.deliveries == ["in_flight": 4])
        #expect(counts.skipped == ["no_token": 2, "do_not_disturb": 1, "trigger_off": 1])
        // Each user once: nothing is planned again.
        #expect(try await f.fanOut().runOnce() == false)
    }

    @Test func timeSensitivePassesDoNotDisturbAndSnoozeButNeverOff() async throws {
        let f = try Fixture()
        defer { f.close() }
        try await f.user("sleeping", tokens: [(apnsToken(1), .apns)], Self.alwaysDND)
        let now = f.clock.read()
        try await f.user("snoozed", tokens: [(apnsToken(2), .apns)]) {
            $0.snoozeEnabled = true
            $0.snoozeStartMs = now - 60_000
            $0.snoozeEndMs = now + 3_600_000
        }
        try await f.user("off", tokens: [(apnsToken(3), .apns)]) { $0.pushTriggerOption = .off }
        var urgent = Self.hello
        urgent.interruptionLevel = .timeSensitive
        urgent.collapseKey = "score"
        let record = try await f.create(.listing(["sleeping", "snoozed", "off"]), content: urgent)
        try await f.drain(f.fanOut())
        #expect(try await f.log(record, "sleeping").decision == .push)
        #expect(try await f.log(record, "snoozed").decision == .push)
        #expect(try await f.log(record, "off").decision == .skip(.triggerOff))
        let claimed = try #require(try await f.claim()["sleeping"]?.first)
        let payload = try JSONValue.parse(claimed.payload)
        // The app's collapse key is the pushes' collapse id (read from the notification when claimed).
        #expect(claimed.collapseKey == "score")
        #expect(payload["aps"]?["interruption-level"] == .string("time-sensitive"))
    }

    @Test func aLocalTimeOfDayGoesOutAtNineOnEachUsersOwnClock() async throws {
        // Friday 2025-11-28 12:00 UTC (07:00 in New York): New York's next 09:00 is 14:00 UTC that day,
        // Tokyo's 00:00 UTC the next, Berlin's 08:00 UTC.
        let start: Int64 = 1_764_331_200_000
        let f = try Fixture(now: start)
        defer { f.close() }
        for (user, zone, n) in [("tokyo", "Asia/Tokyo", 1), ("berlin", "Europe/Berlin", 2), ("newyork", "America/New_York", 3)] {
            try await f.user(user, tokens: [(apnsToken(n), .apns)]) { $0.timezone = zone }
        }
        let record = try await f.create(.listing(["tokyo", "berlin", "newyork"]), content: Self.hello, localMinute: 9 * 60)
        try await f.drain(f.fanOut())
        #expect(try await f.store.notificationCounts(app: Self.app, id: record.id).deliveries.isEmpty)
        let hour: Int64 = 3_600_000
        for (at, user) in [(start + 2 * hour, "newyork"), (start + 12 * hour, "tokyo"), (start + 20 * hour, "berlin")] {
            f.clock.set(at - 60_000)
            try await f.drain(f.fanOut())
            let early = try await f.log(record, user).deliveries.map(\.delivery.createdAtMs)
            #expect(early.isEmpty, "\(user) before 09:00: \(early.map { $0 - start })")
            f.clock.set(at)
            try await f.drain(f.fanOut())
            let log = try await f.log(record, user)
            #expect(
                log.deliveries.map(\.delivery.createdAtMs) == [at],
                "\(user) at 09:00: \(log.deliveries.map { $0.delivery.createdAtMs - start })")
        }
        #expect(try await f.store.notification(app: Self.app, id: record.id)?.state == .done)
    }

    @Test func aPacedNotificationWaitsForItsShareOfEachMinute() async throws {
        let f = try Fixture()
        defer { f.close() }
        let users = (0..<5).map { "u\($0)" }
        for (n, user) in users.enumerated() { try await f.user(user, tokens: [(apnsToken(n), .apns)]) }
        let record = try await f.create(.listing(users), content: Self.hello, pace: 2)
        try await f.drain(f.fanOut())
        #expect(try await f.store.notificationCounts(app: Self.app, id: record.id).pushedUsers == 2)
        let stored = try #require(try await f.store.notification(app: Self.app, id: record.id))
        #expect(stored.nextRunAtMs == f.clock.read() + 60_000)
        f.clock.set(stored.nextRunAtMs)
        try await f.drain(f.fanOut())
        #expect(try await f.store.notificationCounts(app: Self.app, id: record.id).pushedUsers == 4)
    }

    /// The fan-out fills at most half of the app's backlog promise, so its chat webhooks are not
    /// refused behind a large notification, and counts what it queued.
    @Test func aFullQueueHoldsTheFanOutBackAndItCountsWhatItQueues() async throws {
        let f = try Fixture()
        defer { f.close() }
        let users = (0..<6).map { "u\($0)" }
        for (n, user) in users.enumerated() { try await f.user(user, tokens: [(apnsToken(n), .apns)]) }
        let record = try await f.create(.listing(users), content: Self.hello)
        let backlog = BacklogLedger(maxBacklog: .seconds(2), floorPerSecond: 2)
        let fanOut = f.fanOut(batchSize: 3, backlog: backlog)
        try await f.drain(fanOut)
        // 3 queued (the first batch, with nothing waiting); 3 more would pass half of 2/s × 2 s.
        #expect(backlog.unsent(app: Self.app) == 3)
        #expect(try await f.store.notificationCounts(app: Self.app, id: record.id).pushedUsers == 3)
        let waiting = try #require(try await f.store.notification(app: Self.app, id: record.id))
        #expect(waiting.nextRunAtMs > f.clock.read() && waiting.state == .sending)
        backlog.finished(app: Self.app, nowMs: f.clock.read())
        backlog.finished(app: Self.app, nowMs: f.clock.read())
        backlog.finished(app: Self.app, nowMs: f.clock.read())
        f.clock.set(waiting.nextRunAtMs)
        try await f.drain(fanOut)
        #expect(try await f.store.notificationCounts(app: Self.app, id: record.id).pushedUsers == 6)
    }

    @Test func cancellingStopsThePlanningAndDropsWaitingPushes() async throws {
        let f = try Fixture()
        defer { f.close() }
        let users = (0..<4).map { "u\($0)" }
        for (n, user) in users.enumerated() { try await f.user(user, tokens: [(apnsToken(n), .apns)]) }
        let record = try await f.create(.listing(users), content: Self.hello, pace: 2)
        try await f.drain(f.fanOut())
        let cancelled = try #require(try await f.store.cancelNotification(app: Self.app, id: record.id, nowMs: f.clock.read()))
        #expect(cancelled.state == .cancelled)
        f.clock.set(f.clock.read() + 3_600_000)
        try await f.drain(f.fanOut())
        let counts = try await f.store.notificationCounts(app: Self.app, id: record.id)
        #expect(counts.deliveries == ["cancelled": 2] && counts.pushedUsers == 2)
    }

    @Test func anotherRelayTakesOverWhenTheHoldExpiresAndPlansNobodyTwice() async throws {
        let f = try Fixture()
        defer { f.close() }
        let users = (0..<10).map { "u\($0)" }
        for (n, user) in users.enumerated() { try await f.user(user, tokens: [(apnsToken(n), .apns)]) }
        let record = try await f.create(.listing(users), content: Self.hello)
        let first = f.fanOut(owner: "relay-1", batchSize: 3)
        // Relay 1 plans one batch and dies (its hold stays until it expires).
        let claimed = try #require(try await f.store.claimNotification(owner: "relay-1", nowMs: f.clock.read(), leaseMs: 30_000))
        _ = try await first.step(claimed)
        let second = f.fanOut(owner: "relay-2", batchSize: 3)
        #expect(try await second.runOnce() == false)
        f.clock.set(f.clock.read() + 30_001)
        try await f.drain(second)
        let counts = try await f.store.notificationCounts(app: Self.app, id: record.id)
        #expect(counts.pushedUsers == 10 && counts.deliveries == ["pending": 10])
        // Relay 1's late batch is refused: the notification is no longer its.
        #expect(try await first.step(claimed) == nil)
        #expect(try await f.store.notificationCounts(app: Self.app, id: record.id).deliveries == ["pending": 10])
    }
}
