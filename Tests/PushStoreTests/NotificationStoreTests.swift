import Foundation
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract
@testable import PushStorePostgres

/// Notifications of the app's server in both stores: stored once per idempotency key, taken by
/// one relay at a time, fanned out in batches committed only while held, cancelled with their
/// queued pushes; and topic subscriptions walked in byte order.
@Suite(.timeLimit(.minutes(5))) struct NotificationStoreTests {
    static func new(
        app: String = "A", audience: NotificationAudience = .listing(["u1", "u2", "u3"]), sendAt: Int64 = 1_000, createdAt: Int64 = 1_000,
        localMinute: Int? = nil, collapseKey: String? = nil, key: String? = nil, hash: String? = nil
    ) -> NewNotification {
        NewNotification(
            appID: app, audience: audience, content: #"{"title":"Hi"}"#, collapseKey: collapseKey, sendAtMs: sendAt,
            localMinute: localMinute, pushesPerMinute: localMinute == nil ? nil : 600, idempotencyKey: key, requestHash: hash,
            createdAtMs: createdAt)
    }

    static func create(_ store: any RelayStore, _ notification: NewNotification) async throws -> NotificationRecord {
        guard case .created(let record) = try await store.createNotification(notification) else {
            throw NotificationTestFailure("not created: \(notification)")
        }
        return record
    }

    static func delivery(_ user: String, token: Int) -> NewDelivery {
        NewDelivery(
            userID: user, deviceToken: hexToken(token), payload: Data(#"{"aps":{"alert":"Hi"}}"#.utf8), pushID: UUID(), provider: .apns,
            pushType: "alert", priority: 10, expiresAtMs: .max)
    }

    static func batch(
        _ record: NotificationRecord, owner: String = "a", deliveries: [NewDelivery] = [], skips: [(String, SkipReason)] = [],
        planned: [NotedRecipient] = [], noted: [NotedRecipient] = [], phase: NotificationPhase = .audience, cursor: String? = nil,
        count: Int = 0, next: Int64 = 1_500, finished: Bool = false, now: Int64 = 1_100
    ) -> NotificationBatch {
        NotificationBatch(
            notificationID: record.id, appID: record.appID, owner: owner,
            decisions: Set(deliveries.map(\.userID)).map { RecipientDecisionRecord(userID: $0, decision: .push) }
                + skips.map { RecipientDecisionRecord(userID: $0.0, decision: .skip($0.1)) },
            deliveries: deliveries, planned: planned, noted: noted, phase: phase, cursor: cursor, plannedCount: count, nextRunAtMs: next,
            finished: finished, nowMs: now, leaseMs: 1_000)
    }

    @Test(arguments: StoreKind.allCases) func aNotificationReadsBackAsStored(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let now = try await Self.create(store, Self.new(collapseKey: "promo", key: "k1", hash: "h1"))
        #expect(now.state == .sending && now.phase == .audience && now.cursor == nil && now.plannedUsers == 0)
        #expect(now.nextRunAtMs == 1_000 && now.finishedAtMs == nil && now.messageID == -now.id)
        #expect(now.request == Self.new(collapseKey: "promo", key: "k1", hash: "h1"))
        #expect(try await store.notification(app: "A", id: now.id) == now)
        #expect(try await store.notification(app: "B", id: now.id) == nil, "another app's")

        let later = try await Self.create(store, Self.new(audience: .topic("news"), sendAt: 9_000, localMinute: 540))
        #expect(later.state == .scheduled && later.phase == .staging && later.nextRunAtMs == 9_000)
        #expect(later.id > now.id)
        #expect(try await store.notification(app: "A", id: later.id)?.request.audience == .topic("news"))
        #expect(try await store.notification(app: "A", id: later.id)?.request.localMinute == 540)
    }

    @Test(arguments: StoreKind.allCases) func anIdempotencyKeyFindsTheFirst(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let first = try await Self.create(store, Self.new(key: "k", hash: "h1"))
        #expect(try await store.createNotification(Self.new(createdAt: 2_000, key: "k", hash: "h1")) == .repeated(first))
        #expect(try await store.createNotification(Self.new(createdAt: 2_000, key: "k", hash: "h2")) == .keyReused(first))
        let otherApp = try await Self.create(store, Self.new(app: "B", key: "k", hash: "h1"))
        #expect(otherApp.id != first.id)
        // Without a key, every request is a notification of its own.
        let a = try await Self.create(store, Self.new())
        let b = try await Self.create(store, Self.new())
        #expect(a.id != b.id)
        #expect(try await store.notifications(app: "A", beforeID: nil, limit: 10, openOnly: false).count == 3)
    }

    @Test(arguments: StoreKind.allCases) func theListIsNewestFirst(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        var ids: [Int64] = []
        for _ in 0..<4 { ids.append(try await Self.create(store, Self.new()).id) }
        _ = try await Self.create(store, Self.new(app: "B"))
        _ = try await store.cancelNotification(app: "A", id: ids[2], nowMs: 1_200)
        #expect(try await store.notifications(app: "A", beforeID: nil, limit: 10, openOnly: false).map(\.id) == ids.reversed())
        #expect(try await store.notifications(app: "A", beforeID: ids[3], limit: 2, openOnly: false).map(\.id) == [ids[2], ids[1]])
        #expect(try await store.notifications(app: "A", beforeID: nil, limit: 10, openOnly: true).map(\.id) == [ids[3], ids[1], ids[0]])
        #expect(try await store.notifications(app: "A", beforeID: ids[0], limit: 10, openOnly: false).isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func aClaimTakesWhatIsDueOpenAndUnheld(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(try await store.claimNotification(owner: "a", nowMs: 1_000, leaseMs: 100) == nil)
        #expect(try await store.nextNotificationRunAtMs() == nil)
        let cancelled = try await Self.create(store, Self.new(sendAt: 500, createdAt: 400))
        _ = try await store.cancelNotification(app: "A", id: cancelled.id, nowMs: 450)
        let due = try await Self.create(store, Self.new(sendAt: 900, createdAt: 800))
        let scheduled = try await Self.create(store, Self.new(sendAt: 5_000))
        #expect(try await store.nextNotificationRunAtMs() == 900)

        let claimed = try await store.claimNotification(owner: "a", nowMs: 1_000, leaseMs: 100)
        #expect(claimed?.id == due.id && claimed?.state == .sending)
        #expect(try await store.claimNotification(owner: "b", nowMs: 1_050, leaseMs: 100) == nil, "held by a, the other not due")
        #expect(try await store.claimNotification(owner: "a", nowMs: 1_050, leaseMs: 100)?.id == due.id, "its holder takes it again")
        #expect(try await store.claimNotification(owner: "b", nowMs: 1_150, leaseMs: 100) == nil, "a's hold runs to 1150")
        #expect(try await store.claimNotification(owner: "b", nowMs: 1_151, leaseMs: 100)?.id == due.id, "a's hold expired")
        // a's batch is refused now that b holds it.
        #expect(try await store.commitNotificationBatch(Self.batch(due, owner: "a", now: 1_160)) == false)
        #expect(try await store.commitNotificationBatch(Self.batch(due, owner: "b", finished: true, now: 1_160)))
        #expect(try await store.notification(app: "A", id: due.id)?.state == .done)

        #expect(try await store.nextNotificationRunAtMs() == 5_000)
        #expect(try await store.claimNotification(owner: "b", nowMs: 4_999, leaseMs: 100) == nil)
        let taken = try await store.claimNotification(owner: "b", nowMs: 5_000, leaseMs: 100)
        #expect(taken?.id == scheduled.id && taken?.state == .sending)
        #expect(try await store.notification(app: "A", id: scheduled.id)?.state == .sending)
    }

    @Test(arguments: StoreKind.allCases) func aBatchWritesItsPushesAndSkipsWhileHeld(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let n = try await Self.create(store, Self.new(audience: .listing(["u1", "u2", "u3", "u4"])))
        _ = try await store.claimNotification(owner: "a", nowMs: 1_000, leaseMs: 1_000)
        let first = Self.batch(
            n, deliveries: [Self.delivery("u1", token: 1), Self.delivery("u1", token: 2)], skips: [("u2", .noToken)], cursor: "u2",
            count: 2)
        #expect(try await store.commitNotificationBatch(first))
        let after = try await store.notification(app: "A", id: n.id)
        #expect(after?.cursor == "u2" && after?.plannedUsers == 2 && after?.nextRunAtMs == 1_500 && after?.state == .sending)
        let u1 = try await store.deliveryLog(app: "A", messageID: -n.id, user: "u1")
        #expect(u1.decision == .push && u1.deliveries.count == 2)
        #expect(u1.deliveries.allSatisfy { $0.delivery.state == .pending && $0.delivery.messageID == -n.id })
        #expect(Set(u1.deliveries.map(\.delivery.deviceToken)) == [hexToken(1), hexToken(2)])
        #expect(try await store.deliveryLog(app: "A", messageID: -n.id, user: "u2").decision == .skip(.noToken))
        #expect(try await store.eventExists(app: "A", messageID: -n.id) == false, "a notification's batch is no webhook event")

        // Another owner's batch writes nothing.
        let stranger = Self.batch(n, owner: "b", deliveries: [Self.delivery("u3", token: 3)], cursor: "u4", count: 2, finished: true)
        #expect(try await store.commitNotificationBatch(stranger) == false)
        #expect(try await store.notification(app: "A", id: n.id) == after)
        #expect(try await store.deliveryLog(app: "A", messageID: -n.id, user: "u3").deliveries.isEmpty)

        let last = Self.batch(
            n, deliveries: [Self.delivery("u3", token: 3)], skips: [("u4", .triggerOff)], cursor: "u4", count: 2,
            finished: true, now: 1_200)
        #expect(try await store.commitNotificationBatch(last))
        let done = try await store.notification(app: "A", id: n.id)
        #expect(done?.state == .done && done?.finishedAtMs == 1_200 && done?.plannedUsers == 4 && done?.cursor == "u4")
        #expect(try await store.commitNotificationBatch(Self.batch(n, now: 1_300)) == false, "done")
        #expect(try await store.nextNotificationRunAtMs() == nil)
        #expect(try await store.claimDue(nowMs: 2_000, limit: 10).count == 3)

        // A cancelled notification's batch is refused too.
        let cancelled = try await Self.create(store, Self.new())
        _ = try await store.claimNotification(owner: "a", nowMs: 1_000, leaseMs: 1_000)
        _ = try await store.cancelNotification(app: "A", id: cancelled.id, nowMs: 1_050)
        #expect(try await store.commitNotificationBatch(Self.batch(cancelled, deliveries: [Self.delivery("u1", token: 1)])) == false)
        #expect(try await store.deliveryLog(app: "A", messageID: -cancelled.id, user: "u1").deliveries.isEmpty)
    }

    /// Ids compare by bytes: "B" < "a" < "c" < "e\u{301}" < "é", and the two spellings of é are two users.
    @Test(arguments: StoreKind.allCases) func topicsPageTheirSubscribersInByteOrder(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let decomposed = "e\u{301}"
        #expect(try await store.subscribe(app: "A", topic: "news", users: ["é", "a", decomposed, "B", "b"], nowMs: 1) == 5)
        #expect(try await store.subscribe(app: "A", topic: "news", users: ["a", "c"], nowMs: 2) == 1)
        #expect(try await store.subscribe(app: "B", topic: "news", users: ["x"], nowMs: 2) == 1)
        #expect(try await store.unsubscribe(app: "A", topic: "news", users: ["b", "zz"]) == 1)
        #expect(try await store.subscriberCount(app: "A", topic: "news") == 5)
        #expect(try await store.subscriberCount(app: "A", topic: "sport") == 0)

        var walked: [[UInt8]] = []
        var cursor: String?
        while true {
            let page = try await store.topicSubscribers(app: "A", topic: "news", after: cursor, limit: 2)
            walked += page.map { Array($0.utf8) }
            guard page.count == 2 else { break }
            cursor = page.last
        }
        #expect(walked == ["B", "a", "c", decomposed, "é"].map { Array($0.utf8) })
        let afterDecomposed = try await store.topicSubscribers(app: "A", topic: "news", after: decomposed, limit: 10)
        #expect(afterDecomposed.map { Array($0.utf8) } == [Array("é".utf8)])

        _ = try await store.subscribe(app: "A", topic: "sport", users: ["a"], nowMs: 3)
        _ = try await store.subscribe(app: "A", topic: "Zeta", users: ["a"], nowMs: 3)
        #expect(try await store.topics(app: "A", user: "a") == ["Zeta", "news", "sport"])
        #expect(try await store.topics(app: "A", user: decomposed).map { Array($0.utf8) } == [Array("news".utf8)])
        #expect(try await store.unsubscribe(app: "A", topic: "news", users: [decomposed]) == 1)
        #expect(
            try await store.topicSubscribers(app: "A", topic: "news", after: "c", limit: 10).map { Array($0.utf8) } == [Array("é".utf8)])
    }

    @Test(arguments: StoreKind.allCases) func notedUsersComeWhenTheirTimeDoes(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let n = try await Self.create(store, Self.new(localMinute: 540))
        _ = try await store.claimNotification(owner: "a", nowMs: 1_000, leaseMs: 1_000)
        let noted = [
            NotedRecipient(userID: "u1", dueAtMs: 3_000), NotedRecipient(userID: "u2", dueAtMs: 2_000),
            NotedRecipient(userID: "u3", dueAtMs: 5_000), NotedRecipient(userID: "u0", dueAtMs: 3_000),
        ]
        #expect(
            try await store.commitNotificationBatch(Self.batch(n, noted: noted, phase: .due, cursor: "u3", next: 2_000)))
        #expect(try await store.nextRecipientDueAtMs(notificationID: n.id) == 2_000)
        #expect(try await store.dueRecipients(notificationID: n.id, nowMs: 1_999, limit: 10).isEmpty)
        let due = try await store.dueRecipients(notificationID: n.id, nowMs: 3_000, limit: 10)
        #expect(due == [noted[1], noted[3], noted[0]], "earliest first, then by id")
        #expect(try await store.dueRecipients(notificationID: n.id, nowMs: 3_000, limit: 1) == [noted[1]])

        let planned = Self.batch(
            n, deliveries: [Self.delivery("u2", token: 2), Self.delivery("u0", token: 9)], skips: [("u1", .noToken)], planned: due,
            phase: .due, cursor: "u3", count: 3, next: 5_000, now: 3_000)
        #expect(try await store.commitNotificationBatch(planned))
        #expect(try await store.dueRecipients(notificationID: n.id, nowMs: 10_000, limit: 10) == [noted[2]])
        #expect(try await store.nextRecipientDueAtMs(notificationID: n.id) == 5_000)
        #expect(try await store.notification(app: "A", id: n.id)?.phase == .due)

        let last = Self.batch(
            n, skips: [("u3", .noToken)], planned: [noted[2]], phase: .due, cursor: "u3", count: 1, finished: true, now: 5_000)
        #expect(try await store.commitNotificationBatch(last))
        #expect(try await store.nextRecipientDueAtMs(notificationID: n.id) == nil)
        #expect(try await store.notification(app: "A", id: n.id)?.plannedUsers == 4)
    }

    @Test(arguments: StoreKind.allCases) func aCancelDropsWhatIsStillQueued(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let n = try await Self.create(store, Self.new(localMinute: 540))
        _ = try await store.claimNotification(owner: "a", nowMs: 1_000, leaseMs: 1_000)
        let batch = Self.batch(
            n, deliveries: [Self.delivery("u1", token: 1), Self.delivery("u2", token: 2)],
            noted: [NotedRecipient(userID: "u3", dueAtMs: 9_000)], phase: .staging, cursor: "u3", count: 2)
        #expect(try await store.commitNotificationBatch(batch))
        let inFlight = try await store.claimDue(nowMs: 2_000, limit: 1)
        #expect(inFlight.count == 1)

        let cancelled = try await store.cancelNotification(app: "A", id: n.id, nowMs: 2_500)
        #expect(cancelled?.id == n.id && cancelled?.state == .cancelled && cancelled?.finishedAtMs == 2_500)
        #expect(try await store.notificationCounts(app: "A", id: n.id).deliveries == ["cancelled": 1, "in_flight": 1])
        #expect(try await store.nextRecipientDueAtMs(notificationID: n.id) == nil)
        #expect(try await store.claimDue(nowMs: 3_000, limit: 10).isEmpty, "the cancelled push is not sent")
        #expect(try await store.claimNotification(owner: "a", nowMs: 3_000, leaseMs: 1_000) == nil)
        #expect(try await store.nextNotificationRunAtMs() == nil)

        // Not open any more: answered as it is.
        #expect(try await store.cancelNotification(app: "A", id: n.id, nowMs: 4_000) == cancelled)
        #expect(try await store.cancelNotification(app: "B", id: n.id, nowMs: 4_000) == nil)
        #expect(try await store.cancelNotification(app: "A", id: n.id + 100, nowMs: 4_000) == nil)
        let done = try await Self.create(store, Self.new())
        _ = try await store.claimNotification(owner: "a", nowMs: 4_000, leaseMs: 1_000)
        #expect(try await store.commitNotificationBatch(Self.batch(done, finished: true, now: 4_000)))
        #expect(try await store.cancelNotification(app: "A", id: done.id, nowMs: 4_100)?.state == .done)

        // Finished ones go with the log they name; an open one stays whatever its age.
        let open = try await Self.create(store, Self.new(sendAt: 99_000))
        #expect(try await store.pruneNotifications(finishedBeforeMs: 3_000) == 1)
        #expect(try await store.notification(app: "A", id: n.id) == nil)
        #expect(try await store.notification(app: "A", id: done.id)?.state == .done)
        #expect(try await store.pruneNotifications(finishedBeforeMs: 100_000) == 1)
        #expect(try await store.notification(app: "A", id: open.id)?.state == .scheduled)
    }

    @Test(arguments: StoreKind.allCases) func countsSayWhatBecameOfTheAudience(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let n = try await Self.create(store, Self.new())
        _ = try await store.claimNotification(owner: "a", nowMs: 1_000, leaseMs: 1_000)
        let batch = Self.batch(
            n, deliveries: [Self.delivery("u1", token: 1), Self.delivery("u1", token: 2), Self.delivery("u2", token: 3)],
            skips: [("u3", .noToken), ("u4", .triggerOff), ("u5", .noToken)], count: 5, finished: true)
        #expect(try await store.commitNotificationBatch(batch))
        #expect(
            try await store.notificationCounts(app: "A", id: n.id)
                == NotificationCounts(
                    deliveries: ["pending": 3], skipped: ["no_token": 2, "trigger_off": 1], pushedUsers: 2))

        let claimed = try await store.claimDue(nowMs: 2_000, limit: 10)
        #expect(claimed.count == 3)
        try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: claimed[0].id, state: .sent, atMs: 2_100,
                attempt: DeliveryAttempt(atMs: 2_100, status: 200, reason: nil, error: nil, pushID: claimed[0].pushID)),
            DeliveryOutcome(
                deliveryID: claimed[1].id, state: .tokenInvalid, atMs: 2_100,
                attempt: DeliveryAttempt(atMs: 2_100, status: 410, reason: "Unregistered", error: nil, pushID: claimed[1].pushID)),
        ])
        _ = try await store.acknowledge(ids: [claimed[0].id], atMs: 2_200)
        _ = try await store.recordClicks(ids: [claimed[0].id], atMs: 2_300)
        let counts = try await store.notificationCounts(app: "A", id: n.id)
        #expect(counts.deliveries == ["sent": 1, "token_invalid": 1, "in_flight": 1])
        #expect(counts.acknowledged == 1 && counts.opened == 1 && counts.pushedUsers == 2)
        #expect(try await store.notificationCounts(app: "B", id: n.id) == NotificationCounts())
    }

    @Test(arguments: StoreKind.allCases) func aClaimedPushCarriesItsNotificationsCollapseKey(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let keyed = try await Self.create(store, Self.new(collapseKey: "promo-7"))
        let plain = try await Self.create(store, Self.new())
        #expect(try await store.claimNotification(owner: "a", nowMs: 1_000, leaseMs: 1_000)?.id == keyed.id)
        #expect(try await store.claimNotification(owner: "b", nowMs: 1_000, leaseMs: 1_000)?.id == plain.id)
        #expect(try await store.commitNotificationBatch(Self.batch(keyed, deliveries: [Self.delivery("u1", token: 1)], finished: true)))
        #expect(
            try await store.commitNotificationBatch(
                Self.batch(plain, owner: "b", deliveries: [Self.delivery("u2", token: 2)], finished: true)))
        #expect(
            try await store.acceptEvent(
                AcceptedEvent(
                    appID: "A", messageID: keyed.id, channelURL: "c", acceptedAtMs: 1_000, decisions: [],
                    deliveries: [Self.delivery("u3", token: 3)])))
        let claimed = try await store.claimDue(nowMs: 2_000, limit: 10)
        #expect(claimed.count == 3)
        #expect(claimed.first { $0.userID == "u1" }?.collapseKey == "promo-7")
        #expect(claimed.first { $0.userID == "u2" }.map { $0.collapseKey == nil } == true)
        #expect(claimed.first { $0.userID == "u3" }.map { $0.collapseKey == nil } == true, "a message's push, whatever its id")
    }

    @Test(arguments: StoreKind.allCases) func erasingAUserRemovesTheirSubscriptionsAndNotes(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.registerToken(app: "A", user: "u1", token: hexToken(1), isUnique: false)
        for user in ["u1", "ghost", "u2"] { _ = try await store.subscribe(app: "A", topic: "news", users: [user], nowMs: 1) }
        _ = try await store.subscribe(app: "B", topic: "news", users: ["u1"], nowMs: 1)
        let n = try await Self.create(store, Self.new(localMinute: 540))
        _ = try await store.claimNotification(owner: "a", nowMs: 1_000, leaseMs: 1_000)
        let noted = ["u1", "ghost", "u2"].map { NotedRecipient(userID: $0, dueAtMs: 2_000) }
        #expect(try await store.commitNotificationBatch(Self.batch(n, noted: noted, phase: .due, cursor: "u2")))

        #expect(try await store.eraseUser(app: "A", user: "u1"))
        #expect(try await store.topics(app: "A", user: "u1").isEmpty)
        #expect(try await store.topics(app: "B", user: "u1") == ["news"], "another app's user")
        // Named only by a subscription and a note: still someone to erase.
        #expect(try await store.eraseUser(app: "A", user: "ghost"))
        #expect(try await store.topicSubscribers(app: "A", topic: "news", after: nil, limit: 10) == ["u2"])
        #expect(try await store.dueRecipients(notificationID: n.id, nowMs: 2_000, limit: 10).map(\.userID) == ["u2"])
        #expect(try await store.eraseUser(app: "A", user: "ghost") == false)
    }

    /// Two relays of a fleet claiming at once, many claims each, never take the same notification
    /// twice: every claim has an owner of its own, so a notification taken twice would be two holds.
    @Test func relaysOfAFleetClaimEachNotificationOnce() async throws {
        let db = try await TestDatabase.make(.postgres)
        let a = try await db.openPostgres(nodeID: "a")
        let b = try await db.openPostgres(nodeID: "b")
        var created: Set<Int64> = []
        for _ in 0..<60 { created.insert(try await Self.create(a, Self.new()).id) }

        let claimed = try await withThrowingTaskGroup(of: Int64?.self) { group in
            for claim in 0..<80 {
                let store = claim.isMultiple(of: 2) ? a : b
                group.addTask { try await store.claimNotification(owner: "owner-\(claim)", nowMs: 1_000, leaseMs: 60_000)?.id }
            }
            var ids: [Int64] = []
            for try await id in group { if let id { ids.append(id) } }
            return ids
        }
        #expect(claimed.count == 60)
        #expect(Set(claimed) == created, "each once")
        // Another relay's hold counts as due once it runs out.
        #expect(try await a.nextNotificationRunAtMs() == 61_001)
        try await a.close()
        try await b.close()
    }
}

private struct NotificationTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
