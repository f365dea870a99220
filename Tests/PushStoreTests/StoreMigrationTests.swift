import Foundation
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract
@testable import PushStorePostgres

/// `push-relay migrate-store`'s copy: a real SQLite file into a real PostgreSQL database.
@Suite(.timeLimit(.minutes(5))) struct StoreMigrationTests {
    static let preferences = UserPushPreferences(
        pushTriggerOption: .mentionOnly, doNotDisturb: true, dndWindow: TimeWindow(startHour: 22, startMin: 30, endHour: 6, endMin: 15),
        timezone: "Asia/Seoul", snoozeEnabled: true, snoozeStartMs: 1_700_000_000_000, snoozeEndMs: 1_700_000_360_000,
        dndSchedules: [DNDSchedule(dayOfWeek: .monday, timeWindows: [TimeWindow(startHour: 22, startMin: 0, endHour: 6, endMin: 0)])],
        pushSound: "ding.caf", blockPushFromBots: true, pushBlockedBotIDs: ["bot1"], enablePushForReplies: true)

    /// A relay's SQLite store with a bit of everything, and the apns-ids of its deliveries by state.
    static func fill(_ store: SQLiteStore, clock: ManualClock) async throws -> (inFlight: UUID, pending: UUID, sent: UUID) {
        // 25 users with two tokens each (pages of 7 end mid-table), bob holding the cap's worth.
        for n in 0..<25 {
            _ = try await store.registerToken(app: "A", user: "user\(n)", token: hexToken(1000 + 2 * n), isUnique: false)
            clock.advance(by: 1)
            _ = try await store.registerToken(app: "A", user: "user\(n)", token: hexToken(1001 + 2 * n), isUnique: false)
        }
        for n in 0..<3 {
            clock.advance(by: 1)
            _ = try await store.registerToken(app: "A", user: "bob", token: hexToken(n), isUnique: false)
        }
        _ = try await store.registerToken(app: "B", user: "bob", token: hexToken(0), isUnique: false)
        _ = try await store.updatePreferences(app: "A", user: "bob") { $0 = Self.preferences }
        _ = try await store.updateChannelPreference(app: "A", user: "bob", channel: "c/1 ü") {
            $0 = ChannelPushPreference(triggerOption: .off, pushSound: "c.caf")
        }
        _ = try await store.updateChannelPreference(app: "A", user: "bob", channel: "c2") {
            $0 = ChannelPushPreference(triggerOption: .all, pushSound: nil)
        }
        try await store.setPushTemplateName(app: "A", user: "bob", .alternative)
        _ = try await store.updateMessageTemplate(app: "A", name: .alternative, startingFrom: .sendbirdDefault(for: .alternative)) {
            $0.mesg = "{sender_name}: {message}"
        }
        _ = try await store.addAPIToken(app: "A", digest: Data(repeating: 7, count: 32), prefix: "ab12", limit: 5)
        _ = try await store.addSessionToken(digest: Data(repeating: 9, count: 32), app: "A", user: "bob", expiresAtMs: .max)

        // Three events: one delivery each left in flight, pending after a 503, and sent.
        var ids: [UUID] = []
        for message in Int64(1)...3 {
            let id = UUID()
            ids.append(id)
            let event = AcceptedEvent(
                appID: "A", messageID: message, channelURL: "c/1 ü", acceptedAtMs: clock.milliseconds,
                decisions: [
                    RecipientDecisionRecord(userID: "bob", decision: .push),
                    RecipientDecisionRecord(userID: "carol", decision: .skip(.doNotDisturb)),
                ],
                deliveries: [
                    NewDelivery(
                        userID: "bob", deviceToken: hexToken(0), payload: Data(#"{"aps":{"alert":"\#(message)"}}"#.utf8), pushID: id,
                        provider: .apns, pushType: "alert", priority: 10, expiresAtMs: clock.milliseconds + 86_400_000)
                ])
            #expect(try await store.acceptEvent(event))
        }
        let claimed = try await store.claimDue(nowMs: clock.milliseconds, limit: 3)
        #expect(claimed.count == 3)
        let byAPNsID = Dictionary(uniqueKeysWithValues: claimed.map { ($0.pushID, $0.id) })
        clock.advance(by: 10)
        try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: byAPNsID[ids[1]]!, state: .pending, atMs: clock.milliseconds,
                attempt: DeliveryAttempt(atMs: clock.milliseconds, status: 503, reason: "ServiceUnavailable", error: nil, pushID: ids[1]),
                nextAttemptAtMs: clock.milliseconds + 1_000),
            DeliveryOutcome(
                deliveryID: byAPNsID[ids[2]]!, state: .pending, atMs: clock.milliseconds,
                attempt: DeliveryAttempt(atMs: clock.milliseconds, status: 429, reason: "TooManyRequests", error: nil, pushID: ids[2]),
                nextAttemptAtMs: clock.milliseconds),
        ])
        _ = try await store.claimDue(nowMs: clock.milliseconds, limit: 3)
        clock.advance(by: 10)
        try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: byAPNsID[ids[2]]!, state: .sent, atMs: clock.milliseconds,
                attempt: DeliveryAttempt(atMs: clock.milliseconds, status: 200, reason: nil, error: nil, pushID: ids[2]))
        ])
        // The sent one was acknowledged, then opened; the one waiting for its retry only opened
        // (a click acknowledges too): both times travel with them.
        #expect(try await store.acknowledge(ids: [byAPNsID[ids[2]]!], atMs: clock.milliseconds + 1) == [byAPNsID[ids[2]]!])
        #expect(try await store.recordClicks(ids: [byAPNsID[ids[2]]!, byAPNsID[ids[1]]!], atMs: clock.milliseconds + 2).count == 2)
        return (ids[0], ids[1], ids[2])
    }

    @Test func everythingArrivesOnceAndASecondRunCopiesNothing() async throws {
        let clock = ManualClock()
        let file = try TemporaryDatabase()
        let sqlite = try file.open(clock: clock)
        let apnsIDs = try await Self.fill(sqlite, clock: clock)
        let database = try await TestDatabase.make(.postgres)
        let postgres = try await database.openPostgres(clock: clock)

        // Small pages, so every table spans several and a page ends mid-table.
        let migration = StoreMigration(source: try SQLiteSnapshot(sqlite), target: postgres, pageSize: 7, deliveryPageSize: 2)
        let first = try await migration.run()
        #expect(first.isComplete)
        #expect(first.inFlightMadePending == 1)
        let figures = Dictionary(uniqueKeysWithValues: first.tables.map { ($0.table, $0) })
        #expect(figures["users"]?.source == 27)
        #expect(figures["device_tokens"]?.source == 54)
        #expect(figures["deliveries"]?.source == 3)
        #expect(figures["delivery_attempts"]?.source == 2)
        for table in first.tables {
            #expect(table.copied == table.source, "\(table.table)")
            #expect(table.present == table.source, "\(table.table)")
        }

        // What the relay's API reads is the same on both stores.
        #expect(try await postgres.tokens(app: "A", user: "bob") == sqlite.tokens(app: "A", user: "bob"))
        #expect(try await postgres.tokens(app: "A", user: "user24") == sqlite.tokens(app: "A", user: "user24"))
        #expect(try await postgres.tokens(app: "B", user: "bob") == sqlite.tokens(app: "B", user: "bob"))
        #expect(try await postgres.preferences(app: "A", user: "bob") == Self.preferences)
        #expect(
            try await postgres.channelPreference(app: "A", user: "bob", channel: "c/1 ü")
                == ChannelPushPreference(triggerOption: .off, pushSound: "c.caf"))
        #expect(
            try await postgres.channelPreference(app: "A", user: "bob", channel: "c2")
                == sqlite.channelPreference(app: "A", user: "bob", channel: "c2"))
        #expect(try await postgres.pushTemplateName(app: "A", user: "bob") == .alternative)
        #expect(try await postgres.storedMessageTemplates(app: "A") == sqlite.storedMessageTemplates(app: "A"))
        #expect(try await postgres.apiTokens(app: "A") == sqlite.apiTokens(app: "A"))
        #expect(
            try await postgres.sessionToken(digest: Data(repeating: 9, count: 32))
                == sqlite.sessionToken(digest: Data(repeating: 9, count: 32)))
        for message in Int64(1)...3 {
            for user in ["bob", "carol"] {
                var expected = try await sqlite.deliveryLog(app: "A", messageID: message, user: user)
                let copied = try await postgres.deliveryLog(app: "A", messageID: message, user: user)
                // Ids are the target's own; the one in flight arrives pending.
                expected.deliveries = zip(expected.deliveries, copied.deliveries).map { source, target in
                    var source = source
                    source.delivery.id = target.delivery.id
                    if source.delivery.state == .inFlight { source.delivery.state = .pending }
                    return source
                }
                #expect(copied == expected, "message \(message), \(user)")
            }
        }
        let opened = try await postgres.deliveryLog(app: "A", messageID: 3, user: "bob").deliveries.first
        #expect(opened?.acknowledgedAtMs == clock.milliseconds + 1 && opened?.clickedAtMs == clock.milliseconds + 2)
        let openedOnly = try await postgres.deliveryLog(app: "A", messageID: 2, user: "bob").deliveries.first
        #expect(openedOnly?.acknowledgedAtMs == clock.milliseconds + 2 && openedOnly?.clickedAtMs == clock.milliseconds + 2)

        // The queue: the one in flight and the one waiting for its retry are sent, with their
        // apns-ids and payloads; the sent one is not.
        let due = try await postgres.claimDue(nowMs: clock.milliseconds + 2_000, limit: 10)
        #expect(Set(due.map(\.pushID)) == [apnsIDs.inFlight, apnsIDs.pending])
        #expect(due.allSatisfy { $0.payload.starts(with: Data(#"{"aps""#.utf8)) })
        #expect(due.first { $0.pushID == apnsIDs.pending }?.attempts == 1)
        // A retried webhook for a message SQLite took is a duplicate here.
        let retried = AcceptedEvent(
            appID: "A", messageID: 2, channelURL: "c/1 ü", acceptedAtMs: clock.milliseconds, decisions: [], deliveries: [])
        #expect(try await postgres.acceptEvent(retried) == false)

        // Again: nothing new, nothing doubled, still complete.
        let rows = try await database.count("SELECT (SELECT count(*) FROM deliveries) + (SELECT count(*) FROM device_tokens)")
        let second = try await migration.run()
        #expect(second.isComplete)
        #expect(second.tables.allSatisfy { $0.copied == 0 }, "\(second.tables)")
        #expect(try await database.count("SELECT (SELECT count(*) FROM deliveries) + (SELECT count(*) FROM device_tokens)") == rows)
        #expect(try await database.count("SELECT count(*) FROM delivery_attempts") == 2)
        try await postgres.close()
    }

    /// A token the target gives another user is not "there": the run says so instead of passing.
    @Test func aRowTheTargetHoldsDifferentlyIsReportedMissing() async throws {
        let clock = ManualClock()
        let file = try TemporaryDatabase()
        let sqlite = try file.open(clock: clock)
        _ = try await sqlite.registerToken(app: "A", user: "bob", token: hexToken(1), isUnique: false)
        let database = try await TestDatabase.make(.postgres)
        let postgres = try await database.openPostgres(clock: clock)
        _ = try await postgres.registerToken(app: "A", user: "mallory", token: hexToken(1), isUnique: false)

        let report = try await StoreMigration(source: try SQLiteSnapshot(sqlite), target: postgres).run()
        #expect(!report.isComplete)
        #expect(report.tables.first { $0.table == "device_tokens" }?.missing == 1)
        #expect(try await postgres.owner(app: "A", token: hexToken(1)) == "mallory", "the target's row is left as it is")
        try await postgres.close()
    }

    /// Test pushes arrive as what they are: logged, final, marked as tests.
    @Test func testPushesArriveMarkedAsTests() async throws {
        let clock = ManualClock(PushStoreTestDeliveriesTests.now)
        let file = try TemporaryDatabase()
        let sqlite = try file.open(clock: clock)
        _ = try await sqlite.registerToken(app: "app", user: "bob", token: hexToken(1), isUnique: false)
        #expect(try await sqlite.acceptEvent(PushStoreDeliveriesTests.event(7)))
        _ = try await sqlite.recordTestDelivery(
            PushStoreTestDeliveriesTests.test(provider: .fcm, providerMessageID: "projects/p/messages/1"))
        _ = try await sqlite.recordTestDelivery(
            PushStoreTestDeliveriesTests.test(state: .failed, status: 500, reason: "InternalServerError"))
        let database = try await TestDatabase.make(.postgres)
        let postgres = try await database.openPostgres(clock: clock)

        let report = try await StoreMigration(source: try SQLiteSnapshot(sqlite), target: postgres).run()
        #expect(report.isComplete)
        var expected = try await sqlite.recentDeliveries(app: "app", user: "bob", limit: 10)
        let copied = try await postgres.recentDeliveries(app: "app", user: "bob", limit: 10)
        #expect(expected.map(\.isTest) == [true, true, false])
        expected = zip(expected, copied).map { source, target in
            var source = source
            source.delivery.id = target.delivery.id
            return source
        }
        #expect(copied == expected)
        #expect(try await postgres.pendingCount() == 1, "only the message's push is queued")
        try await postgres.close()
    }

    /// Notifications keep their ids (their pushes carry -id), with their noted users and the
    /// topics' subscribers; the target's next notification is numbered after them.
    @Test func notificationsArriveWithTheirIDs() async throws {
        let clock = ManualClock()
        let file = try TemporaryDatabase()
        let sqlite = try file.open(clock: clock)
        _ = try await sqlite.subscribe(app: "A", topic: "news", users: ["B", "a", "é", "e\u{301}"], nowMs: 1)
        var ids: [Int64] = []
        for key in ["k1", "k2", "k3"] {
            ids.append(
                try await NotificationStoreTests.create(sqlite, NotificationStoreTests.new(collapseKey: key, key: key, hash: "h")).id)
        }
        let staged = try await NotificationStoreTests.create(sqlite, NotificationStoreTests.new(localMinute: 540))
        #expect(try await sqlite.cancelNotification(app: "A", id: ids[0], nowMs: 1_000) != nil)
        let held = try #require(try await sqlite.claimNotification(owner: "sqlite", nowMs: 1_000, leaseMs: 1_000_000))
        #expect(held.id == ids[1])
        let batch = NotificationStoreTests.batch(
            held, owner: "sqlite", deliveries: [NotificationStoreTests.delivery("u1", token: 1)],
            skips: [("u2", .noToken)], cursor: "u2", count: 2)
        #expect(try await sqlite.commitNotificationBatch(batch))
        #expect(try await sqlite.claimNotification(owner: "sqlite", nowMs: 1_000, leaseMs: 1_000_000)?.id == ids[2])
        #expect(try await sqlite.claimNotification(owner: "sqlite-2", nowMs: 1_000, leaseMs: 1_000_000)?.id == staged.id)
        let noted = [NotedRecipient(userID: "u1", dueAtMs: 5_000), NotedRecipient(userID: "u2", dueAtMs: 6_000)]
        #expect(
            try await sqlite.commitNotificationBatch(
                NotificationStoreTests.batch(staged, owner: "sqlite-2", noted: noted, phase: .due, cursor: "u3")))
        let database = try await TestDatabase.make(.postgres)
        let postgres = try await database.openPostgres(clock: clock)

        let report = try await StoreMigration(source: try SQLiteSnapshot(sqlite), target: postgres, pageSize: 2).run()
        #expect(report.isComplete)
        let figures = Dictionary(uniqueKeysWithValues: report.tables.map { ($0.table, $0.source) })
        #expect(figures["notifications"] == 4 && figures["notification_recipients"] == 2 && figures["topic_subscriptions"] == 4)
        for id in ids + [staged.id] {
            #expect(try await postgres.notification(app: "A", id: id) == sqlite.notification(app: "A", id: id))
        }
        #expect(
            try await postgres.createNotification(NotificationStoreTests.new(key: "k3", hash: "h"))
                == .repeated(
                    try #require(try await sqlite.notification(app: "A", id: ids[2]))))
        #expect(try await postgres.dueRecipients(notificationID: staged.id, nowMs: 10_000, limit: 10) == noted)
        let subscribers = try await postgres.topicSubscribers(app: "A", topic: "news", after: nil, limit: 10)
        #expect(subscribers.map { Array($0.utf8) } == ["B", "a", "e\u{301}", "é"].map { Array($0.utf8) })
        #expect(try await postgres.deliveryLog(app: "A", messageID: -held.id, user: "u2").decision == .skip(.noToken))
        // The SQLite relay's hold is not copied: a relay of the fleet takes the notification on.
        #expect(try await postgres.claimNotification(owner: "node-a", nowMs: 2_000, leaseMs: 1_000)?.id == ids[2])
        let pushed = try await postgres.claimDue(nowMs: 2_000, limit: 10)
        #expect(pushed.map(\.collapseKey) == ["k2"])
        let next = try await NotificationStoreTests.create(postgres, NotificationStoreTests.new())
        #expect(next.id > staged.id, "numbered after the copied ones")
        try await postgres.close()
    }

    /// The snapshot is one moment: what the source gains while the copy runs stays behind.
    @Test func theSourceIsReadAsOneSnapshot() async throws {
        let clock = ManualClock()
        let file = try TemporaryDatabase()
        let sqlite = try file.open(clock: clock)
        _ = try await sqlite.registerToken(app: "A", user: "bob", token: hexToken(1), isUnique: false)
        let snapshot = try SQLiteSnapshot(sqlite)
        _ = try await sqlite.registerToken(app: "A", user: "carol", token: hexToken(2), isUnique: false)
        #expect(try await snapshot.count("device_tokens") == 1)
        let page = try await snapshot.page(CopiedTable.all[1], after: nil, limit: 10)
        #expect(page.values(of: "user_id") == .text(["bob"]))
    }
}
